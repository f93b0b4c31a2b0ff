// Cases per second of the whole loop for each op at small shapes: generate
// a case, verify it, run the oracle and the CPU backend, compare. The
// baseline in the same run is generation alone, so the ratio says what the
// checking costs on top of making the case.
#include <benchmark/benchmark.h>

#include "runners/session.h"

namespace hlocheck {
namespace {

// RapidCheck sizes 0..max_size, as the gate sweeps them (the gate uses 0..100:
// up to a few thousand elements per case).
void BM_Case(benchmark::State& state, const char* op_name, ElementType type, bool check) {
  auto session = OpenSession("cpu", 0);
  if (!session.ok()) {
    state.SkipWithError(std::string(session.status().message()).c_str());
    return;
  }
  const int max_size = static_cast<int>(state.range(0));
  const spec::OpSpec* op = (*session)->registry->Find(op_name);
  GenerationOptions options;
  options.primary_type = type;
  rc::Gen<Case> generator = CaseGenerator(*op, options);
  uint64_t seed = 0;
  int64_t failures = 0;
  int64_t elements = 0;
  for (auto _ : state) {
    ++seed;
    Case c = generator(rc::Random(seed), static_cast<int>(seed % (max_size + 1))).value();
    for (const Tensor& t : c.operands) elements += t.num_elements();
    if (check) {
      CaseOutcome outcome = (*session)->gate->CheckCase(*op, c);
      failures += outcome.failed();
      benchmark::DoNotOptimize(outcome);
    }
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["failures"] = static_cast<double>(failures);
  state.counters["elements_per_case"] =
      static_cast<double>(elements) / static_cast<double>(std::max<int64_t>(1, state.iterations()));
}

void BM_Check(benchmark::State& state, const char* op, ElementType type) {
  BM_Case(state, op, type, true);
}
void BM_GenerateOnly(benchmark::State& state, const char* op, ElementType type) {
  BM_Case(state, op, type, false);
}

#define HLOCHECK_CASE_BENCHMARKS(name, op, type)                         \
  BENCHMARK_CAPTURE(BM_GenerateOnly, name, op, type)->Arg(30)->Arg(100); \
  BENCHMARK_CAPTURE(BM_Check, name, op, type)->Arg(30)->Arg(100);

HLOCHECK_CASE_BENCHMARKS(add_f32, "add", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(add_si32, "add", ElementType::kSI32)
HLOCHECK_CASE_BENCHMARKS(exponential_f32, "exponential", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(exponential_f64, "exponential", ElementType::kF64)
HLOCHECK_CASE_BENCHMARKS(convert_f32, "convert", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(transpose_f32, "transpose", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(slice_f32, "slice", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(dot_general_f32, "dot_general", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(dot_general_si32, "dot_general", ElementType::kSI32)
// Ops with a region body, evaluated once per comparison or update.
HLOCHECK_CASE_BENCHMARKS(sort_f32, "sort", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(sort_si32, "sort", ElementType::kSI32)
HLOCHECK_CASE_BENCHMARKS(scatter_f32, "scatter", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(reduce_f32, "reduce", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(reduce_si32, "reduce", ElementType::kSI32)
// Windows and contractions over them.
HLOCHECK_CASE_BENCHMARKS(reduce_window_f32, "reduce_window", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(convolution_f32, "convolution", ElementType::kF32)
HLOCHECK_CASE_BENCHMARKS(convolution_si32, "convolution", ElementType::kSI32)

}  // namespace
}  // namespace hlocheck

BENCHMARK_MAIN();
