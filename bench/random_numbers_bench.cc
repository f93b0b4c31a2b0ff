// rng_bit_generator's output bandwidth, THREE_FRY and PHILOX, on the oracle
// (Oracle::Compute: the reference algorithms in XLA's layout) and on the CPU
// adapter (its own implementations, threaded), for a 16 MiB ui32 output,
// against a memcpy of the same 16 MiB in the same run. The summary prints
// each one's output rate and its ratio to memcpy's (which reads and writes
// the bytes once each; the generators only write them).
//
//   random_numbers_bench [--threads=N] [benchmark flags]
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "adapters/cpu/cpu_adapter.h"
#include "bench/bench_cases.h"
#include "bench/ratio_reporter.h"
#include "bench/run_into_loop.h"
#include "bench/threads_flag.h"
#include "benchmark/benchmark.h"
#include "oracle/oracle.h"

namespace hlocheck {
namespace {

constexpr int64_t kElements = int64_t{4} << 20;  // ui32: 16 MiB
constexpr double kBytes = kElements * 4.0;
int g_threads = 0;

Case RngCase(const std::string& algorithm) {
  Case c;
  c.op = "rng_bit_generator";
  const int64_t state_size = algorithm == "PHILOX" ? 3 : 2;
  Tensor state(Shape{state_size}, ElementType::kUI64);
  for (int64_t i = 0; i < state_size; ++i) {
    state.values<ElementType::kUI64>()[i] = 0x0123456789abcdefULL * (i + 1);
  }
  c.result_types.push_back(state.type());
  c.operands.push_back(std::move(state));
  c.result_types.push_back({{kElements}, ElementType::kUI32});
  c.attributes["rng_algorithm"] = EnumValue{algorithm};
  return c;
}

void Rate(benchmark::State& state) {
  state.counters["GB/s"] =
      benchmark::Counter(kBytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void OnTheOracle(benchmark::State& state, const std::string& algorithm) {
  static const auto* registry = *spec::DefaultRegistry();
  const Oracle oracle(registry);
  const Case c = RngCase(algorithm);
  for (auto _ : state) {
    auto results = oracle.Compute(c);
    if (!results.ok()) {
      state.SkipWithError(std::string(results.status().message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(results->back().reference.raw());
  }
  Rate(state);
}

void OnTheCpu(benchmark::State& state, const std::string& algorithm) {
  CpuAdapter adapter{AdapterOptions(g_threads)};
  TimeRunInto(state, adapter, RngCase(algorithm), false);
  Rate(state);
}

void BM_Memcpy(benchmark::State& state) {
  TimeMemcpy(state, static_cast<size_t>(kBytes));
  Rate(state);
}
void BM_OracleThreeFry(benchmark::State& state) { OnTheOracle(state, "THREE_FRY"); }
void BM_OraclePhilox(benchmark::State& state) { OnTheOracle(state, "PHILOX"); }
void BM_CpuThreeFry(benchmark::State& state) { OnTheCpu(state, "THREE_FRY"); }
void BM_CpuPhilox(benchmark::State& state) { OnTheCpu(state, "PHILOX"); }

BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OracleThreeFry)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OraclePhilox)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuThreeFry)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuPhilox)->Unit(benchmark::kMillisecond)->UseRealTime();

// The adapter and the oracle must agree before their speeds mean anything.
bool Agree(const std::string& algorithm) {
  const Oracle oracle(*spec::DefaultRegistry());
  CpuAdapter adapter{AdapterOptions(g_threads)};
  const Case c = RngCase(algorithm);
  auto expected = oracle.Compute(c);
  auto actual = adapter.Run(c);
  if (!expected.ok() || !actual.ok() || actual->size() != expected->size()) return false;
  for (size_t i = 0; i < actual->size(); ++i) {
    if (!(*actual)[i].BitwiseEquals((*expected)[i].reference)) return false;
  }
  return true;
}

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  using hlocheck::g_threads;
  if (!hlocheck::InitializeWithThreads(argc, argv, g_threads)) return 1;
  for (const char* algorithm : {"THREE_FRY", "PHILOX"}) {
    if (!hlocheck::Agree(algorithm)) {
      std::fprintf(stderr, "the CPU adapter's %s differs from the oracle's\n", algorithm);
      return 1;
    }
  }
  std::printf("threads: %d; ui32 output of %lld elements (16 MiB)\n", g_threads,
              static_cast<long long>(hlocheck::kElements));
  hlocheck::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  const double copy = reporter.time("BM_Memcpy");
  std::printf("memcpy of 16 MiB                 %8.2f ms\n", copy);
  for (const auto& [label, name] :
       std::vector<std::pair<const char*, const char*>>{{"oracle THREE_FRY", "BM_OracleThreeFry"},
                                                        {"oracle PHILOX", "BM_OraclePhilox"},
                                                        {"cpu THREE_FRY", "BM_CpuThreeFry"},
                                                        {"cpu PHILOX", "BM_CpuPhilox"}}) {
    const double t = reporter.time(name);
    std::printf("%-32s %8.2f ms  %6.2f GB/s  time / memcpy's: %.2f\n", label, t,
                hlocheck::kBytes / (t * 1e-3) * 1e-9, t / copy);
  }
  return 0;
}
