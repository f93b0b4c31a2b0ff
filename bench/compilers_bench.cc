// Cases per second on the real compilers (XLA:CPU through its PJRT plugin,
// IREE llvm-cpu through the external protocol), for small elementwise,
// data-movement and dot_general cases, with the CPU adapter on the same
// cases as the baseline in the same run:
//   Fresh:   the generator's small cases (size 10; 2,000 of them, cycled),
//            each as its own module: a module met before (small cases
//            repeat shapes, and inputs are arguments, so values are not in
//            the module) comes from the executable cache, a new one pays a
//            compile: what a gate of small cases pays one case at a time;
//   Batched: the same cases 32 at a time (Adapter::RunBatch, the gate's
//            default --batch): new modules compiled together, modules met
//            before run alone from the cache;
//   Cached:  one case again and again: only transfer, execution and (for
//            pjrt:) the worker round trip are paid.
//   Failing: si4 add cases 64 at a time on IREE, a third of which iree-
//            compile refuses (#23 of docs/findings/iree-llvm-cpu.md): a
//            failed batch narrowed by its diagnostics' lines against the
//            same narrowed in halves only (ProgramAdapter::
//            AttributeErrorsByLine(false)), in the same run.
// Run: build/bench/compilers_bench [--benchmark_filter=Xla]
#include <benchmark/benchmark.h>

#include "adapters/pjrt/pjrt_backend.h"
#include "adapters/program/program_adapter.h"
#include "runners/session.h"

namespace hlocheck {
namespace {

std::vector<Case> Cases(const spec::SpecRegistry& registry, const char* op_name, ElementType type,
                        int count) {
  const spec::OpSpec* op = registry.Find(op_name);
  GenerationOptions options;
  options.primary_type = type;
  rc::Gen<Case> generator = CaseGenerator(*op, options);
  std::vector<Case> cases;
  for (int i = 0; i < count; ++i) cases.push_back(generator(rc::Random(i + 1), 10).value());
  return cases;
}

// backend: "cpu", "pjrt:xla-cpu" (worker), "xla-in-process", "external:iree-llvm-cpu".
void BM_Cases(benchmark::State& state, const char* backend, const char* op, ElementType type,
              bool fresh, int batch = 1) {
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) return state.SkipWithError("no spec");
  std::unique_ptr<Adapter> adapter;
  AdapterOptions options(1);
  options.registry = *registry;
  options.worker_executable = HLOCHECK_BINARY;  // serves `hlocheck worker`
  if (std::string(backend) == "xla-in-process") {
    auto pjrt = pjrt::CreatePjrtBackend("xla-cpu", {});
    if (!pjrt.ok()) return state.SkipWithError(std::string(pjrt.status().message()).c_str());
    adapter = std::make_unique<ProgramAdapter>("xla-in-process", **registry, *std::move(pjrt),
                                               false, [](ElementType) { return true; });
  } else {
    auto created = CreateAdapter(backend, options);
    if (!created.ok()) return state.SkipWithError(std::string(created.status().message()).c_str());
    adapter = *std::move(created);
  }
  std::vector<Case> cases = Cases(**registry, op, type, fresh ? 100000 / 50 : 1);
  // Only what the backend takes (IREE: sub-byte tensors in whole bytes).
  std::erase_if(cases, [&](const Case& c) { return !adapter->Supports(c).supported; });
  if (cases.empty()) return state.SkipWithError("the backend takes none of these cases");
  size_t next = 0;
  int64_t errors = 0;
  std::vector<const Case*> chunk;
  for (auto _ : state) {
    if (batch > 1) {
      chunk.clear();
      for (int k = 0; k < batch; ++k) chunk.push_back(&cases[next++ % cases.size()]);
      auto out = adapter->RunBatch(chunk);
      for (const auto& answer : out) errors += !answer.ok();
      benchmark::DoNotOptimize(out);
      continue;
    }
    const Case& c = cases[next++ % cases.size()];
    auto out = adapter->Run(c);
    errors += !out.ok();
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * batch);
  state.counters["errors"] = static_cast<double>(errors);
}

// Wall time: the compilers work in other processes, which CPU time misses.
#define HLOCHECK_COMPILER_BENCHMARKS(name, op, type)                                              \
  BENCHMARK_CAPTURE(BM_Cases, cpu_##name, "cpu", op, type, true)->UseRealTime();                  \
  BENCHMARK_CAPTURE(BM_Cases, xla_fresh_##name, "pjrt:xla-cpu", op, type, true)                   \
      ->Unit(benchmark::kMillisecond)                                                             \
      ->UseRealTime();                                                                            \
  BENCHMARK_CAPTURE(BM_Cases, xla_batched_##name, "pjrt:xla-cpu", op, type, true, 32)             \
      ->Unit(benchmark::kMillisecond)                                                             \
      ->UseRealTime();                                                                            \
  BENCHMARK_CAPTURE(BM_Cases, xla_cached_##name, "pjrt:xla-cpu", op, type, false)->UseRealTime(); \
  BENCHMARK_CAPTURE(BM_Cases, xla_in_process_cached_##name, "xla-in-process", op, type, false)    \
      ->UseRealTime();                                                                            \
  BENCHMARK_CAPTURE(BM_Cases, iree_fresh_##name, "external:iree-llvm-cpu", op, type, true)        \
      ->Unit(benchmark::kMillisecond)                                                             \
      ->Iterations(20)                                                                            \
      ->UseRealTime();                                                                            \
  BENCHMARK_CAPTURE(BM_Cases, iree_batched_##name, "external:iree-llvm-cpu", op, type, true, 32)  \
      ->Unit(benchmark::kMillisecond)                                                             \
      ->Iterations(3)                                                                             \
      ->UseRealTime();                                                                            \
  BENCHMARK_CAPTURE(BM_Cases, iree_cached_##name, "external:iree-llvm-cpu", op, type, false)      \
      ->Unit(benchmark::kMillisecond)                                                             \
      ->Iterations(200)                                                                           \
      ->UseRealTime();

// Batches of 64 si4 add cases of distinct shapes [n] (never met before, so
// never run alone from a cache), every third of which iree-compile refuses
// (n = 16k + 2: a vector tail of sub-byte values, #23), the others
// (n = 16k) it compiles.
void BM_FailingBatches(benchmark::State& state, bool attribute_errors) {
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) return state.SkipWithError("no spec");
  AdapterOptions options(1);
  options.registry = *registry;
  auto created = CreateAdapter("external:iree-llvm-cpu", options);
  if (!created.ok()) return state.SkipWithError(std::string(created.status().message()).c_str());
  auto* adapter = dynamic_cast<ProgramAdapter*>(created->get());
  adapter->AttributeErrorsByLine(attribute_errors);
  std::vector<Case> cases;
  for (int64_t i = 0; i < 64 * 8; ++i) {
    const int64_t n = i % 3 == 2 ? 16 * i + 2 : 16 * (i + 1);
    Case c;
    c.op = "add";
    c.operands = {Tensor({n}, ElementType::kSI4), Tensor({n}, ElementType::kSI4)};
    c.result_types = {TensorType{{n}, ElementType::kSI4}};
    cases.push_back(std::move(c));
  }
  size_t next = 0;
  int64_t errors = 0;
  for (auto _ : state) {
    std::vector<const Case*> batch;
    for (int k = 0; k < 64; ++k) batch.push_back(&cases[next++ % cases.size()]);
    auto out = adapter->RunBatch(batch);
    for (const auto& answer : out) errors += !answer.ok();
  }
  state.SetItemsProcessed(state.iterations() * 64);
  state.counters["refused"] = static_cast<double>(errors);
  state.counters["narrowed"] = adapter->batches_narrowed();
  state.counters["by_lines"] = adapter->batches_attributed();
}
BENCHMARK_CAPTURE(BM_FailingBatches, iree_by_lines, true)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(4)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_FailingBatches, iree_by_halves, false)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(4)
    ->UseRealTime();

HLOCHECK_COMPILER_BENCHMARKS(add_f32, "add", ElementType::kF32)
HLOCHECK_COMPILER_BENCHMARKS(slice_f32, "slice", ElementType::kF32)
HLOCHECK_COMPILER_BENCHMARKS(dot_general_f32, "dot_general", ElementType::kF32)

}  // namespace
}  // namespace hlocheck

BENCHMARK_MAIN();
