// The CPU adapter's all_reduce: 8 simulated processes (8 replicas, one
// group), 64 MiB of f32 each, summed, against a memcpy of the same 512 MiB
// in the same run. The adapter reduces the group's buffer once, its
// elements split among the pool's threads (reading the 512 MiB of operands
// once and writing 64 MiB), then builds the 8 results in parallel, each a
// copy of the buffer (reading 64 MiB eight times and writing the 512 MiB of
// results). The summary prints the time ratio to
// memcpy's.
//
//   cpu_collectives_bench [benchmark flags]
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "adapters/cpu/cpu_adapter.h"
#include "bench/bench_cases.h"
#include "bench/ratio_reporter.h"
#include "bench/run_into_loop.h"
#include "benchmark/benchmark.h"

namespace hlocheck {
namespace {

constexpr int64_t kProcesses = 8;
constexpr int64_t kElements = int64_t{16} << 20;  // f32: 64 MiB per process
constexpr double kBytes = kProcesses * kElements * 4.0;

const Case& AllReduceCase() {
  static const Case* c = [] {
    auto* made = new Case;
    made->op = "all_reduce";
    made->num_replicas = kProcesses;
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (int64_t p = 0; p < kProcesses; ++p) {
      Tensor operand(Shape{kElements}, ElementType::kF32);
      for (float& v : operand.values<ElementType::kF32>()) v = uniform(rng);
      made->operands.push_back(std::move(operand));
      made->result_types.push_back({{kElements}, ElementType::kF32});
    }
    Tensor groups(Shape{1, kProcesses}, ElementType::kSI64);
    for (int64_t p = 0; p < kProcesses; ++p) groups.values<ElementType::kSI64>()[p] = p;
    made->attributes["replica_groups"] = groups;
    made->regions.push_back(BinaryBody("add", ElementType::kF32));
    return made;
  }();
  return *c;
}

void BM_Memcpy(benchmark::State& state) { TimeMemcpy(state, static_cast<size_t>(kBytes)); }

void BM_AllReduce(benchmark::State& state) {
  CpuAdapter adapter{AdapterOptions(0)};
  TimeRunInto(state, adapter, AllReduceCase(), false);
}

BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AllReduce)->Unit(benchmark::kMillisecond)->UseRealTime();

// The sums must be right before their speed means anything: element e of
// every result is the left-to-right f32 sum of the 8 operands' element e.
bool CheckSums() {
  CpuAdapter adapter{AdapterOptions(0)};
  const Case& c = AllReduceCase();
  auto results = adapter.Run(c);
  if (!results.ok() || results->size() != static_cast<size_t>(kProcesses)) return false;
  for (int64_t e = 0; e < kElements; e += 4099) {
    float sum = c.operands[0].values<ElementType::kF32>()[e];
    for (int64_t p = 1; p < kProcesses; ++p) sum += c.operands[p].values<ElementType::kF32>()[e];
    for (const Tensor& r : *results) {
      if (r.values<ElementType::kF32>()[e] != sum) return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (!hlocheck::CheckSums()) {
    std::fprintf(stderr, "the adapter's all_reduce differs from the left-to-right sums\n");
    return 1;
  }
  hlocheck::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  const double copy = reporter.time("BM_Memcpy");
  const double all_reduce = reporter.time("BM_AllReduce");
  std::printf("memcpy of 512 MiB                %8.2f ms\n", copy);
  std::printf("all_reduce, 8 x 64 MiB f32       %8.2f ms  time / memcpy's: %.2f\n", all_reduce,
              all_reduce / copy);
  return 0;
}
