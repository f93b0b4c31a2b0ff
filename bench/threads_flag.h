// The benches' own flag, --threads=N (default: one per hardware thread),
// read before Google Benchmark sees the others: it rejects flags it does not
// know.
#ifndef HLOCHECK_BENCH_THREADS_FLAG_H_
#define HLOCHECK_BENCH_THREADS_FLAG_H_

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "benchmark/benchmark.h"

namespace hlocheck {

// Sets `threads` and initialises Google Benchmark with the other flags;
// false when one of them is unknown.
inline bool InitializeWithThreads(int argc, char** argv, int& threads) {
  threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--threads=", 10) == 0) {
      threads = std::max(1, std::atoi(argv[i] + 10));
    } else {
      args.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  return !benchmark::ReportUnrecognizedArguments(count, args.data());
}

}  // namespace hlocheck

#endif  // HLOCHECK_BENCH_THREADS_FLAG_H_
