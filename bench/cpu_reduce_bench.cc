// The CPU adapter's reduce: the sum over the last axis of a 64 MiB f32
// tensor (4096 x 4096), against a plain memcpy of the same 64 MiB in the
// same run. The reduce reads the tensor once and writes 16 KiB; memcpy reads
// it and writes a copy. Issue 19 asks for a bandwidth of at least 0.7 of
// memcpy's: (64 MiB / t_reduce) / (2 x 64 MiB / t_copy). The time ratio is
// printed too, since a read-only pass can outrun a copy. Also the sum over
// the first axis (the columns layout: every result advances together) and
// a maximum, on the same tensor; with --threads (default: one per hardware
// thread) and with one thread.
//
//   cpu_reduce_bench [--threads=N] [benchmark flags]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "adapters/cpu/cpu_adapter.h"
#include "bench/bench_cases.h"
#include "bench/ratio_reporter.h"
#include "bench/run_into_loop.h"
#include "bench/threads_flag.h"
#include "benchmark/benchmark.h"

namespace hlocheck {
namespace {

constexpr int64_t kRows = 4096;
constexpr int64_t kColumns = 4096;
constexpr double kBytes = kRows * kColumns * 4.0;
int g_threads = 0;

const Tensor& Input() {
  static const Tensor* input = [] {
    auto* t = new Tensor({kRows, kColumns}, ElementType::kF32);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& v : t->values<ElementType::kF32>()) v = uniform(rng);
    return t;
  }();
  return *input;
}

Case ReduceCase(int64_t dimension, const std::string& kind, float init) {
  Case c;
  c.op = "reduce";
  c.operands.push_back(Input());
  Tensor init_value(Shape{}, ElementType::kF32);
  init_value.values<ElementType::kF32>()[0] = init;
  c.operands.push_back(std::move(init_value));
  c.operand_segments = {1, 1};
  c.result_segments = {1};
  c.result_types.push_back({{dimension == 1 ? kRows : kColumns}, ElementType::kF32});
  c.attributes["dimensions"] = std::vector<int64_t>{dimension};
  c.regions.push_back(BinaryBody(kind, ElementType::kF32));
  return c;
}

void RunReduce(benchmark::State& state, int64_t dimension, const std::string& kind, float init,
               int threads) {
  CpuAdapter adapter{AdapterOptions(threads)};
  static std::map<std::string, Case> cases;
  const std::string key = std::to_string(dimension) + kind;
  if (!cases.count(key)) cases[key] = ReduceCase(dimension, kind, init);
  TimeRunInto(state, adapter, cases[key], false);
  state.counters["GB/s"] =
      benchmark::Counter(kBytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["threads"] = threads;
}

void BM_Memcpy(benchmark::State& state) {
  const Tensor& source = Input();
  std::vector<char> destination(static_cast<size_t>(kBytes));
  std::memset(destination.data(), 1, destination.size());  // fault the pages in
  for (auto _ : state) {
    std::memcpy(destination.data(), source.raw(), destination.size());
    benchmark::ClobberMemory();
  }
  state.counters["GB/s"] =
      benchmark::Counter(2 * kBytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ReduceSumLastAxis(benchmark::State& state) { RunReduce(state, 1, "add", 0, g_threads); }
void BM_ReduceSumLastAxisOneThread(benchmark::State& state) { RunReduce(state, 1, "add", 0, 1); }
void BM_ReduceSumFirstAxis(benchmark::State& state) { RunReduce(state, 0, "add", 0, g_threads); }
void BM_ReduceMaxLastAxis(benchmark::State& state) {
  RunReduce(state, 1, "maximum", -INFINITY, g_threads);
}

BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReduceSumLastAxis)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReduceSumLastAxisOneThread)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReduceSumFirstAxis)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReduceMaxLastAxis)->Unit(benchmark::kMillisecond)->UseRealTime();

// The row sums must be sums before their speed means anything: each within
// the bound of any order (n u sum|x|) of a double sum.
bool CheckSums() {
  CpuAdapter adapter{AdapterOptions(g_threads)};
  auto results = adapter.Run(ReduceCase(1, "add", 0));
  if (!results.ok()) return false;
  auto sums = results->front().values<ElementType::kF32>();
  auto x = Input().values<ElementType::kF32>();
  for (int64_t row = 0; row < kRows; row += 97) {
    double exact = 0, magnitude = 0;
    for (int64_t j = 0; j < kColumns; ++j) {
      exact += x[row * kColumns + j];
      magnitude += std::fabs(x[row * kColumns + j]);
    }
    if (std::fabs(sums[row] - exact) > kColumns * std::ldexp(1.0, -24) * magnitude) return false;
  }
  return true;
}

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  using hlocheck::g_threads;
  if (!hlocheck::InitializeWithThreads(argc, argv, g_threads)) return 1;
  std::printf("threads: %d; f32 tensor of %lld x %lld\n", g_threads,
              static_cast<long long>(hlocheck::kRows), static_cast<long long>(hlocheck::kColumns));
  if (!hlocheck::CheckSums()) {
    std::fprintf(stderr, "adapter reduce disagrees with the row sums\n");
    return 1;
  }
  hlocheck::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  const double copy = reporter.time("BM_Memcpy");
  auto report = [&](const char* label, const char* name) {
    const double op = reporter.time(name);
    // The reduce moves one array (reads it), memcpy two.
    std::printf("%-34s %8.2f ms  bandwidth / memcpy's: %.2f  (time / memcpy's: %.2f)\n", label, op,
                0.5 * copy / op, op / copy);
  };
  std::printf("memcpy (2 arrays)                  %8.2f ms\n", copy);
  report("sum over the last axis, threads", "BM_ReduceSumLastAxis");
  report("sum over the last axis, 1 thread", "BM_ReduceSumLastAxisOneThread");
  report("sum over the first axis, threads", "BM_ReduceSumFirstAxis");
  report("max over the last axis, threads", "BM_ReduceMaxLastAxis");
  return 0;
}
