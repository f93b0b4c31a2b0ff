// The CPU adapter's sort and scatter against plain C++ in the same run:
// - sort of 16M random f32 (one row) by compare LT, the typed key path,
//   against std::sort of a copy (the copy is timed: the adapter writes a
//   fresh result too);
// - the same comparator hidden behind select(true, p, p), which the adapter
//   does not recognise, so that its general evaluator runs the body for
//   every comparison: on 64K elements, against the key path and std::sort on
//   the same 64K;
// - scatter-add of 1M f32 updates at random indices into a 1M table,
//   against a loop that adds each update into a copy of the table.
//
// Measured (2-core VM shared with other builds, load ~3, Release,
// --threads=2, medians of 3): std::sort 16M 1681 ms, the key path 779 ms
// (0.46; one row, so one thread does the work: an LSD radix sort of
// (key, position) pairs); on 64K std::sort 4.5 ms, the key path 0.67 ms, the
// general evaluator 280 ms (418x the key path: every comparison runs compare
// and select through the op table). Scatter-add: plain loop 1.7 ms, the
// adapter 9.7 ms on one thread (5.5x: result positions for any dimension
// numbers, then the updates) and 20 ms on two (the pool's threads compete
// with the caller for the two cores).
//
//   cpu_scatter_sort_bench [--threads=N] [benchmark flags]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "adapters/cpu/cpu_adapter.h"
#include "bench/ratio_reporter.h"
#include "bench/threads_flag.h"
#include "benchmark/benchmark.h"

namespace hlocheck {
namespace {

constexpr int64_t kSortElements = int64_t{16} << 20;
constexpr int64_t kSmallSortElements = int64_t{64} << 10;
constexpr int64_t kTable = int64_t{1} << 20;
constexpr int64_t kUpdates = int64_t{1} << 20;
int g_threads = 0;

ValueType Scalar(ElementType type) { return ValueType::Of(TensorType{{}, type}); }

Operation MakeOp(std::string name, std::vector<ValueId> operands, ValueId result, ElementType type,
                 std::map<std::string, Attribute> attributes = {}) {
  Operation op;
  op.name = std::move(name);
  op.operands = std::move(operands);
  op.results = {result};
  op.result_types = {Scalar(type)};
  op.attributes = std::move(attributes);
  return op;
}

Region Body(std::vector<ElementType> arguments, std::vector<Operation> ops, ValueId returned) {
  Block block;
  for (size_t i = 0; i < arguments.size(); ++i) {
    block.arguments.push_back(static_cast<ValueId>(i));
    block.argument_types.push_back(Scalar(arguments[i]));
  }
  block.operations = std::move(ops);
  Operation ret;
  ret.name = "stablehlo.return";
  ret.operands = {returned};
  block.operations.push_back(std::move(ret));
  Region region;
  region.blocks.push_back(std::move(block));
  return region;
}

// compare LT of the pair; `hidden` passes it through select(true, p, p).
Region LessThan(bool hidden) {
  const ElementType f32 = ElementType::kF32;
  std::vector<Operation> ops = {
      MakeOp("stablehlo.compare", {0, 1}, 2, ElementType::kI1,
             {{"comparison_direction", EnumValue{"LT"}}, {"compare_type", EnumValue{"FLOAT"}}})};
  if (!hidden) return Body({f32, f32}, std::move(ops), 2);
  Tensor yes(Shape{}, ElementType::kI1);
  yes.values<ElementType::kI1>()[0] = 1;
  ops.push_back(MakeOp("stablehlo.constant", {}, 3, ElementType::kI1, {{"value", yes}}));
  ops.push_back(MakeOp("stablehlo.select", {3, 2, 2}, 4, ElementType::kI1));
  return Body({f32, f32}, std::move(ops), 4);
}

Tensor RandomFloats(int64_t n, uint32_t seed) {
  Tensor t({n}, ElementType::kF32);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1000.0f, 1000.0f);
  for (float& v : t.values<ElementType::kF32>()) v = uniform(rng);
  return t;
}

Case SortCase(int64_t n, bool hidden) {
  Case c;
  c.op = "sort";
  c.operands.push_back(RandomFloats(n, 1));
  c.result_types.push_back(c.operands[0].type());
  c.attributes["dimension"] = int64_t{0};
  c.attributes["is_stable"] = false;
  c.regions.push_back(LessThan(hidden));
  return c;
}

const Case& BigSort() {
  static const Case* c = new Case(SortCase(kSortElements, false));
  return *c;
}
const Case& SmallSort(bool hidden) {
  static const Case* fast = new Case(SortCase(kSmallSortElements, false));
  static const Case* general = new Case(SortCase(kSmallSortElements, true));
  return hidden ? *general : *fast;
}

const Case& ScatterAdd() {
  static const Case* c = [] {
    auto* s = new Case;
    s->op = "scatter";
    s->operands.push_back(RandomFloats(kTable, 2));
    Tensor indices({kUpdates, 1}, ElementType::kSI32);
    std::mt19937 rng(3);
    std::uniform_int_distribution<int32_t> index(0, static_cast<int32_t>(kTable) - 1);
    for (int32_t& i : indices.values<ElementType::kSI32>()) i = index(rng);
    s->operands.push_back(std::move(indices));
    s->operands.push_back(RandomFloats(kUpdates, 4));
    s->operand_segments = {1, 1, 1};
    s->result_types.push_back(s->operands[0].type());
    s->attributes["update_window_dims"] = std::vector<int64_t>{};
    s->attributes["inserted_window_dims"] = std::vector<int64_t>{0};
    s->attributes["scatter_dims_to_operand_dims"] = std::vector<int64_t>{0};
    s->attributes["index_vector_dim"] = int64_t{1};
    const ElementType f32 = ElementType::kF32;
    s->regions.push_back(Body({f32, f32}, {MakeOp("stablehlo.add", {0, 1}, 2, f32)}, 2));
    return s;
  }();
  return *c;
}

void RunCase(benchmark::State& state, const Case& c, int threads) {
  CpuAdapter adapter{AdapterOptions(threads)};
  for (auto _ : state) {
    absl::StatusOr<std::vector<Tensor>> result = adapter.Run(c);
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(result->front().raw());
  }
  state.counters["threads"] = threads;
}

void StdSort(benchmark::State& state, const Tensor& input) {
  auto values = input.values<ElementType::kF32>();
  for (auto _ : state) {
    std::vector<float> copy(values.begin(), values.end());
    std::sort(copy.begin(), copy.end());
    benchmark::DoNotOptimize(copy.data());
  }
}

void BM_StdSort16M(benchmark::State& state) { StdSort(state, BigSort().operands[0]); }
void BM_CpuSort16M(benchmark::State& state) { RunCase(state, BigSort(), g_threads); }
void BM_CpuSort16MOneThread(benchmark::State& state) { RunCase(state, BigSort(), 1); }
void BM_StdSort64K(benchmark::State& state) { StdSort(state, SmallSort(false).operands[0]); }
void BM_CpuSort64K(benchmark::State& state) { RunCase(state, SmallSort(false), g_threads); }
void BM_CpuSort64KGeneral(benchmark::State& state) { RunCase(state, SmallSort(true), g_threads); }

void BM_PlainScatterAdd(benchmark::State& state) {
  const Case& c = ScatterAdd();
  auto table = c.operands[0].values<ElementType::kF32>();
  auto indices = c.operands[1].values<ElementType::kSI32>();
  auto updates = c.operands[2].values<ElementType::kF32>();
  for (auto _ : state) {
    std::vector<float> result(table.begin(), table.end());
    for (int64_t u = 0; u < kUpdates; ++u) {
      const int32_t i = indices[u];
      if (i >= 0 && i < kTable) result[i] += updates[u];
    }
    benchmark::DoNotOptimize(result.data());
  }
}
void BM_CpuScatterAdd(benchmark::State& state) { RunCase(state, ScatterAdd(), g_threads); }
void BM_CpuScatterAddOneThread(benchmark::State& state) { RunCase(state, ScatterAdd(), 1); }

BENCHMARK(BM_StdSort16M)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuSort16M)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuSort16MOneThread)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_StdSort64K)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuSort64K)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuSort64KGeneral)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PlainScatterAdd)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuScatterAdd)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuScatterAddOneThread)->Unit(benchmark::kMillisecond)->UseRealTime();

// The results must be right before their speed means anything: the sorts
// sorted (the general one equal to the key one), the scatter the plain sums
// (one order of the same float additions, element by element).
bool Check() {
  CpuAdapter adapter{AdapterOptions(g_threads)};
  absl::StatusOr<std::vector<Tensor>> sorted = adapter.Run(BigSort());
  if (!sorted.ok()) return false;
  auto s = sorted->front().values<ElementType::kF32>();
  if (!std::is_sorted(s.begin(), s.end())) return false;
  absl::StatusOr<std::vector<Tensor>> fast = adapter.Run(SmallSort(false));
  absl::StatusOr<std::vector<Tensor>> general = adapter.Run(SmallSort(true));
  if (!fast.ok() || !general.ok() || !(fast->front() == general->front())) return false;

  const Case& c = ScatterAdd();
  absl::StatusOr<std::vector<Tensor>> scattered = adapter.Run(c);
  if (!scattered.ok()) return false;
  std::vector<float> want(c.operands[0].values<ElementType::kF32>().begin(),
                          c.operands[0].values<ElementType::kF32>().end());
  auto indices = c.operands[1].values<ElementType::kSI32>();
  auto updates = c.operands[2].values<ElementType::kF32>();
  for (int64_t u = 0; u < kUpdates; ++u) want[indices[u]] += updates[u];
  auto got = scattered->front().values<ElementType::kF32>();
  return std::equal(got.begin(), got.end(), want.begin());
}

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  using hlocheck::g_threads;
  if (!hlocheck::InitializeWithThreads(argc, argv, g_threads)) return 1;
  std::printf("threads: %d\n", g_threads);
  if (!hlocheck::Check()) {
    std::fprintf(stderr, "the adapter's sort or scatter gives wrong results\n");
    return 1;
  }
  hlocheck::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  auto time = [&](const char* name) { return reporter.time(name); };
  auto ratio = [&](const char* label, const char* name, const char* baseline) {
    std::printf("%-44s %10.2f ms  / %s: %.2f\n", label, time(name), baseline,
                time(name) / time(baseline));
  };
  ratio("sort 16M f32, key path, threads", "BM_CpuSort16M", "BM_StdSort16M");
  ratio("sort 16M f32, key path, 1 thread", "BM_CpuSort16MOneThread", "BM_StdSort16M");
  ratio("sort 64K f32, key path, threads", "BM_CpuSort64K", "BM_StdSort64K");
  ratio("sort 64K f32, general evaluator, threads", "BM_CpuSort64KGeneral", "BM_CpuSort64K");
  ratio("scatter-add 1M into 1M f32, threads", "BM_CpuScatterAdd", "BM_PlainScatterAdd");
  ratio("scatter-add 1M into 1M f32, 1 thread", "BM_CpuScatterAddOneThread", "BM_PlainScatterAdd");
  return 0;
}
