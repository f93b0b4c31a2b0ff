// The CPU adapter's data movement against a plain memcpy of the same bytes,
// in the same run: transpose of a 3-D f32 tensor by {2, 0, 1}, a row gather
// from a 2-D f32 table, and concatenate of 3 inputs along the middle
// dimension. Every result is 64 MiB (16M f32 elements), and each benchmark
// reports the result's bytes per second (SetBytesProcessed), so that
// bandwidth / memcpy's = t_memcpy / t_op.
//
// Inputs are built once, outside the timing. The loop calls RunInto with
// the previous call's results, which transpose, gather and concatenate
// build on. With --fresh-result every call gets a new, zero-filled result
// tensor as Run() gives, and that allocation is part of its time. glibc serves
// 64 MiB with mmap and returns it with munmap, so each call also takes
// ~16K page faults; --keep-heap raises glibc's mmap and trim thresholds
// (mallopt) so that freed results are reused, which isolates the kernels.
//
// Measured (Release, --threads=2, results built on the previous call's
// buffers, bandwidth / memcpy's; runs differ by up to +-30%):
//   2-core AMD EPYC VM, 2026-11-25: memcpy 3.4-5.5 ms; transpose 0.25-0.34,
//   gather 0.57-0.68, concatenate 0.77-1.78. Reading the tile through a
//   buffer (0.13-0.23) or writing its columns instead of its rows (0.03)
//   was slower there.
//   The 2-core VM of 2026-11-24: transpose 0.50-0.58, gather 0.74-0.89,
//   concatenate 1.14-1.48.
// --fresh-result adds ~16K page faults and a zero fill to every call.
//
//   cpu_data_movement_bench [--threads=N] [--keep-heap] [--fresh-result] [benchmark flags]
#include <malloc.h>

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
#include "benchmark/benchmark.h"

namespace hlocheck {
namespace {

constexpr int64_t kElements = int64_t{16} << 20;
constexpr int64_t kBytes = kElements * 4;
int g_threads = 0;
bool g_fresh_result = false;

Tensor RandomF32(Shape shape, uint32_t seed) {
  Tensor t(std::move(shape), ElementType::kF32);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-10.0f, 10.0f);
  for (float& v : t.values<ElementType::kF32>()) v = uniform(rng);
  return t;
}

// transpose: 256 x 256 x 256 by {2, 0, 1}.
Case TransposeCase() {
  Case c;
  c.op = "transpose";
  c.operands.push_back(RandomF32({256, 256, 256}, 1));
  c.attributes["permutation"] = std::vector<int64_t>{2, 0, 1};
  c.result_types.push_back({{256, 256, 256}, ElementType::kF32});
  return c;
}

// gather: 65536 random rows of 256 f32 (1 KiB each) from a 65536 x 256
// table, start indices [65536, 1] of si32.
constexpr int64_t kTableRows = 65536;
constexpr int64_t kRowWidth = 256;
Case GatherCase() {
  Case c;
  c.op = "gather";
  c.operands.push_back(RandomF32({kTableRows, kRowWidth}, 2));
  Tensor rows({kTableRows, 1}, ElementType::kSI32);
  std::mt19937 rng(3);
  for (int32_t& row : rows.values<ElementType::kSI32>()) {
    row = static_cast<int32_t>(rng() % kTableRows);
  }
  c.operands.push_back(std::move(rows));
  c.attributes["offset_dims"] = std::vector<int64_t>{1};
  c.attributes["collapsed_slice_dims"] = std::vector<int64_t>{0};
  c.attributes["start_index_map"] = std::vector<int64_t>{0};
  c.attributes["index_vector_dim"] = int64_t{1};
  c.attributes["slice_sizes"] = std::vector<int64_t>{1, kRowWidth};
  c.attributes["indices_are_sorted"] = false;
  c.result_types.push_back({{kTableRows, kRowWidth}, ElementType::kF32});
  return c;
}

// concatenate: 64 x {128, 256, 128} x 512 along dimension 1.
Case ConcatenateCase() {
  Case c;
  c.op = "concatenate";
  uint32_t seed = 4;
  for (int64_t middle : {128, 256, 128}) c.operands.push_back(RandomF32({64, middle, 512}, seed++));
  c.operand_segments = {3};
  c.attributes["dimension"] = int64_t{1};
  c.result_types.push_back({{64, 512, 512}, ElementType::kF32});
  return c;
}

const Case& OpCase(const std::string& op) {
  static std::map<std::string, Case>* cases = [] {
    auto* m = new std::map<std::string, Case>;
    (*m)["transpose"] = TransposeCase();
    (*m)["gather"] = GatherCase();
    (*m)["concatenate"] = ConcatenateCase();
    return m;
  }();
  return cases->at(op);
}

void RunOp(benchmark::State& state, const std::string& op) {
  CpuAdapter adapter{AdapterOptions(g_threads)};
  const Case& c = OpCase(op);
  // --fresh-result: a new result every call, as Run gives.
  TimeRunInto(state, adapter, c, g_fresh_result);
  state.SetBytesProcessed(state.iterations() * kBytes);
  state.counters["threads"] = g_threads;
}

void BM_Memcpy(benchmark::State& state) {
  const Tensor& source = OpCase("transpose").operands[0];
  std::vector<char> destination(static_cast<size_t>(kBytes));
  std::memset(destination.data(), 1, destination.size());  // fault the pages in
  for (auto _ : state) {
    std::memcpy(destination.data(), source.raw(), destination.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}

void BM_CpuTransposeF32(benchmark::State& state) { RunOp(state, "transpose"); }
void BM_CpuGatherRowsF32(benchmark::State& state) { RunOp(state, "gather"); }
void BM_CpuConcatenateF32(benchmark::State& state) { RunOp(state, "concatenate"); }

BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuTransposeF32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuGatherRowsF32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuConcatenateF32)->Unit(benchmark::kMillisecond)->UseRealTime();

// The results must be right before their speed means anything: sampled
// elements against the index formulas.
bool CheckResults() {
  CpuAdapter adapter{AdapterOptions(g_threads)};
  auto run = [&](const std::string& op) {
    absl::StatusOr<std::vector<Tensor>> got = adapter.Run(OpCase(op));
    return got.ok() ? std::move(got->front()) : Tensor();
  };
  const Tensor transposed = run("transpose");
  const auto in = OpCase("transpose").operands[0].values<ElementType::kF32>();
  const auto out = transposed.values<ElementType::kF32>();
  if (out.size() != in.size()) return false;
  for (int64_t i = 0; i < kElements; i += 4099) {
    // result[a, b, c] = operand[b, c, a]
    const int64_t a = i / 65536, b = i / 256 % 256, c = i % 256;
    if (out[i] != in[(b * 256 + c) * 256 + a]) return false;
  }
  const Tensor gathered = run("gather");
  const auto table = OpCase("gather").operands[0].values<ElementType::kF32>();
  const auto rows = OpCase("gather").operands[1].values<ElementType::kSI32>();
  const auto got = gathered.values<ElementType::kF32>();
  if (got.size() != table.size()) return false;
  for (int64_t i = 0; i < kElements; i += 4099) {
    if (got[i] != table[rows[i / kRowWidth] * kRowWidth + i % kRowWidth]) return false;
  }
  const Tensor joined = run("concatenate");
  const auto middle = OpCase("concatenate").operands[1].values<ElementType::kF32>();
  const auto all = joined.values<ElementType::kF32>();
  if (all.size() != static_cast<size_t>(kElements)) return false;
  for (int64_t i = 0; i < 64 * 256 * 512; i += 4099) {
    // middle[x, y, z] is result[x, 128 + y, z]
    const int64_t x = i / (256 * 512), yz = i % (256 * 512);
    if (all[x * 512 * 512 + 128 * 512 + yz] != middle[i]) return false;
  }
  return true;
}

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  using hlocheck::g_threads;
  g_threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  bool keep_heap = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--threads=", 10) == 0) {
      g_threads = std::max(1, std::atoi(argv[i] + 10));
    } else if (std::strcmp(argv[i], "--keep-heap") == 0) {
      keep_heap = true;
    } else if (std::strcmp(argv[i], "--fresh-result") == 0) {
      hlocheck::g_fresh_result = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  if (keep_heap) {
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  std::printf("threads: %d; results of %lld f32 elements (64 MiB)%s\n", g_threads,
              static_cast<long long>(hlocheck::kElements),
              keep_heap ? "; heap kept (mallopt)" : "");
  if (!hlocheck::CheckResults()) {
    std::fprintf(stderr, "an adapter result disagrees with its index formula\n");
    return 1;
  }
  hlocheck::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  const double copy = reporter.time("BM_Memcpy");
  std::printf("memcpy of 64 MiB                 %8.2f ms\n", copy);
  for (auto [label, name] : {std::pair{"transpose {2, 0, 1}", "BM_CpuTransposeF32"},
                             std::pair{"gather of rows", "BM_CpuGatherRowsF32"},
                             std::pair{"concatenate of 3", "BM_CpuConcatenateF32"}}) {
    const double op = reporter.time(name);
    std::printf("%-32s %8.2f ms  bandwidth / memcpy's: %.2f\n", label, op, copy / op);
  }
  return 0;
}
