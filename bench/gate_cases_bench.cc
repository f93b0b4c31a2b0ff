// Cases per second of the whole loop for each op at small shapes: generate
// a case, verify it, run the oracle and the CPU backend, compare.
#include <benchmark/benchmark.h>

#include "runners/gate.h"

namespace hlocheck {
namespace {

void BM_GateCase(benchmark::State& state, const char* op_name, ElementType type) {
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) {
    state.SkipWithError(std::string(registry.status().message()).c_str());
    return;
  }
  const spec::OpSpec* op = (*registry)->Find(op_name);
  Oracle oracle(*registry);
  auto adapter = CreateAdapter("cpu", {});
  Gate gate(*registry, &oracle, adapter->get());
  GenerationOptions options;
  options.primary_type = type;
  rc::Gen<Case> generator = CaseGenerator(*op, options);
  uint64_t seed = 0;
  int64_t failures = 0;
  int64_t elements = 0;
  for (auto _ : state) {
    // "Small shapes": RapidCheck sizes 0..30, up to a few hundred elements.
    ++seed;
    Case c = generator(rc::Random(seed), static_cast<int>(seed % 31)).value();
    CaseOutcome outcome = gate.CheckCase(*op, c);
    failures += outcome.failed();
    for (const Tensor& t : c.operands) elements += t.num_elements();
    benchmark::DoNotOptimize(outcome);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["failures"] = static_cast<double>(failures);
  state.counters["input_elements_per_case"] =
      static_cast<double>(elements) / static_cast<double>(std::max<int64_t>(1, state.iterations()));
}

BENCHMARK_CAPTURE(BM_GateCase, add_f32, "add", ElementType::kF32);
BENCHMARK_CAPTURE(BM_GateCase, add_si32, "add", ElementType::kSI32);
BENCHMARK_CAPTURE(BM_GateCase, exponential_f32, "exponential", ElementType::kF32);
BENCHMARK_CAPTURE(BM_GateCase, exponential_f64, "exponential", ElementType::kF64);
BENCHMARK_CAPTURE(BM_GateCase, convert_f32, "convert", ElementType::kF32);
BENCHMARK_CAPTURE(BM_GateCase, transpose_f32, "transpose", ElementType::kF32);
BENCHMARK_CAPTURE(BM_GateCase, slice_f32, "slice", ElementType::kF32);
BENCHMARK_CAPTURE(BM_GateCase, dot_general_f32, "dot_general", ElementType::kF32);
BENCHMARK_CAPTURE(BM_GateCase, dot_general_si32, "dot_general", ElementType::kSI32);

}  // namespace
}  // namespace hlocheck

BENCHMARK_MAIN();
