// The CPU adapter's add and exponential on f32 tensors of 16M elements
// (64 MiB each) against a plain memcpy of the same bytes, in the same run.
//
// Bandwidth is the bytes an op must move, over its time: add reads two
// operands and writes one result (3 x 64 MiB), exponential and memcpy read
// one and write one (2 x 64 MiB). So add's bandwidth relative to the copy's
// is (3 / t_add) / (2 / t_copy) = 1.5 t_copy / t_add; issue 7 asks for at
// least 0.7. memcpy writes into a buffer allocated once, and so does the
// adapter here: the loop calls RunInto with the results of the previous
// call, as a runner checking many cases of one shape does. The *FreshResult
// variants call Run, which allocates (and zero-fills) a new 64 MiB result
// every time: with glibc that is an mmap, ~16K page faults and a munmap per
// call, which costs more than the add itself. The adapter runs with
// --threads (default: one per hardware thread) and also with one thread,
// against the single-threaded memcpy.
//
//   cpu_elementwise_bench [--threads=N] [benchmark flags]
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "adapters/cpu/cpu_adapter.h"
#include "bench/ratio_reporter.h"
#include "bench/run_into_loop.h"
#include "bench/threads_flag.h"
#include "benchmark/benchmark.h"

namespace hlocheck {
namespace {

constexpr int64_t kElements = int64_t{16} << 20;
constexpr double kBytes = kElements * 4.0;
int g_threads = 0;

Tensor RandomTensor(uint32_t seed) {
  Tensor t({kElements}, ElementType::kF32);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-10.0f, 10.0f);
  for (float& v : t.values<ElementType::kF32>()) v = uniform(rng);
  return t;
}

const Case& OpCase(const std::string& op) {
  static std::map<std::string, Case>* cases = [] {
    auto* m = new std::map<std::string, Case>;
    Case add;
    add.op = "add";
    add.operands.push_back(RandomTensor(1));
    add.operands.push_back(RandomTensor(2));
    add.result_types.push_back({{kElements}, ElementType::kF32});
    (*m)["add"] = std::move(add);
    Case exp;
    exp.op = "exponential";
    exp.operands.push_back(RandomTensor(3));
    exp.result_types.push_back({{kElements}, ElementType::kF32});
    (*m)["exponential"] = std::move(exp);
    return m;
  }();
  return cases->at(op);
}

void RunOp(benchmark::State& state, const std::string& op, int threads, double bytes_moved,
           bool fresh_result = false) {
  CpuAdapter adapter{AdapterOptions(threads)};
  const Case& c = OpCase(op);
  TimeRunInto(state, adapter, c, fresh_result);
  state.counters["GB/s"] =
      benchmark::Counter(bytes_moved * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["threads"] = threads;
}

void BM_Memcpy(benchmark::State& state) {
  const Tensor& source = OpCase("exponential").operands[0];
  std::vector<char> destination(static_cast<size_t>(kBytes));
  std::memset(destination.data(), 1, destination.size());  // fault the pages in
  for (auto _ : state) {
    std::memcpy(destination.data(), source.raw(), destination.size());
    benchmark::ClobberMemory();
  }
  state.counters["GB/s"] =
      benchmark::Counter(2 * kBytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_CpuAddF32(benchmark::State& state) { RunOp(state, "add", g_threads, 3 * kBytes); }
void BM_CpuAddF32OneThread(benchmark::State& state) { RunOp(state, "add", 1, 3 * kBytes); }
void BM_CpuAddF32FreshResult(benchmark::State& state) {
  RunOp(state, "add", g_threads, 3 * kBytes, /*fresh_result=*/true);
}
void BM_CpuExponentialF32(benchmark::State& state) {
  RunOp(state, "exponential", g_threads, 2 * kBytes);
}
void BM_CpuExponentialF32OneThread(benchmark::State& state) {
  RunOp(state, "exponential", 1, 2 * kBytes);
}

BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuAddF32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuAddF32OneThread)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuAddF32FreshResult)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuExponentialF32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuExponentialF32OneThread)->Unit(benchmark::kMillisecond)->UseRealTime();

// The adapter's sums must be the float sums before its speed means anything.
bool CheckAdd() {
  const Case& c = OpCase("add");
  CpuAdapter adapter{AdapterOptions(g_threads)};
  std::vector<Tensor> got;
  // Twice, so that the second call runs on the recycled result.
  for (int round = 0; round < 2; ++round) {
    if (!adapter.RunInto(c, got).ok()) return false;
  }
  auto z = got.front().values<ElementType::kF32>();
  auto x = c.operands[0].values<ElementType::kF32>();
  auto y = c.operands[1].values<ElementType::kF32>();
  for (int64_t i = 0; i < kElements; i += 4099) {
    if (z[i] != x[i] + y[i]) return false;
  }
  return true;
}

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  using hlocheck::g_threads;
  if (!hlocheck::InitializeWithThreads(argc, argv, g_threads)) return 1;
  std::printf("threads: %d; f32 tensors of %lld elements\n", g_threads,
              static_cast<long long>(hlocheck::kElements));
  if (!hlocheck::CheckAdd()) {
    std::fprintf(stderr, "adapter add disagrees with float addition\n");
    return 1;
  }
  hlocheck::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  const auto& t = reporter.times();
  auto time = [&](const char* name) {
    auto it = t.find(name);
    return it == t.end() ? NAN : it->second;
  };
  const double copy = time("BM_Memcpy");
  // Bandwidth ratio = (bytes_op / t_op) / (bytes_copy / t_copy).
  auto report = [&](const char* label, const char* name, double arrays) {
    const double op = time(name);
    std::printf("%-32s %8.2f ms  bandwidth / memcpy's: %.2f  (time / memcpy's: %.2f)\n", label, op,
                arrays / 2.0 * copy / op, op / copy);
  };
  std::printf("memcpy (2 arrays)                %8.2f ms\n", copy);
  report("add (3 arrays), threads", "BM_CpuAddF32", 3);
  report("add (3 arrays), 1 thread", "BM_CpuAddF32OneThread", 3);
  report("add (3 arrays), fresh result", "BM_CpuAddF32FreshResult", 3);
  report("exponential (2 arrays), threads", "BM_CpuExponentialF32", 2);
  report("exponential (2 arrays), 1 thread", "BM_CpuExponentialF32OneThread", 2);
  return 0;
}
