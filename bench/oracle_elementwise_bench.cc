// Correctly rounded transcendental functions (Ziv's fast path over libm,
// MPFR for hard cases) against libm's double functions in the same run.
// The target (BRIEF.md, issue 7): f32 exp, log, sin and tanh at >= 0.3x the
// throughput of libm's double version. Compare items_per_second of
// BM_CorrectlyRoundedF32<F> with BM_LibmDouble<F> of the same function.
#include <benchmark/benchmark.h>

#include <cmath>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "core/element_type.h"
#include "oracle/precise/complex.h"
#include "oracle/precise/complex_fast.h"
#include "oracle/precise/elementary.h"

namespace hlocheck::precise {
namespace {

constexpr int kInputs = 4096;

// Inputs where the function is interesting, as f32 values (exact doubles).
template <class F>
std::vector<double> Inputs(bool as_float) {
  double lo = -80;
  double hi = 80;
  if constexpr (std::is_same_v<F, Log>) lo = 1e-3, hi = 1e6;
  if constexpr (std::is_same_v<F, Sin>) lo = -100, hi = 100;
  if constexpr (std::is_same_v<F, Tanh>) lo = -10, hi = 10;
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> value(lo, hi);
  std::vector<double> inputs(kInputs);
  for (double& x : inputs) {
    x = value(random);
    if (as_float) x = static_cast<float>(x);
  }
  return inputs;
}

template <class F>
void BM_LibmDouble(benchmark::State& state) {
  std::vector<double> inputs = Inputs<F>(true);
  for (auto _ : state) {
    for (double x : inputs) benchmark::DoNotOptimize(F::InDouble(x));
  }
  state.SetItemsProcessed(state.iterations() * kInputs);
}

template <class F>
void BM_CorrectlyRounded(benchmark::State& state, ElementType type) {
  const FloatFormat& format = Format(type);
  std::vector<double> inputs = Inputs<F>(type != ElementType::kF64);
  ZivStatistics before = ThreadZivStatistics(F::kId);
  for (auto _ : state) {
    for (double x : inputs) benchmark::DoNotOptimize(CorrectlyRounded<F>(format, x));
  }
  state.SetItemsProcessed(state.iterations() * kInputs);
  ZivStatistics after = ThreadZivStatistics(F::kId);
  double total = static_cast<double>(after.fast - before.fast + after.mpfr - before.mpfr);
  state.counters["mpfr_fraction"] = static_cast<double>(after.mpfr - before.mpfr) / total;
}

// The all-MPFR reference, for scale.
template <class F>
void BM_MpfrOnly(benchmark::State& state) {
  const FloatFormat& format = Format(ElementType::kF32);
  std::vector<double> inputs = Inputs<F>(true);
  for (auto _ : state) {
    for (double x : inputs) benchmark::DoNotOptimize(ByMpfr<F>(format, x));
  }
  state.SetItemsProcessed(state.iterations() * kInputs);
}

template <class F>
void BM_CorrectlyRoundedF32(benchmark::State& state) {
  BM_CorrectlyRounded<F>(state, ElementType::kF32);
}
template <class F>
void BM_CorrectlyRoundedBF16(benchmark::State& state) {
  BM_CorrectlyRounded<F>(state, ElementType::kBF16);
}
template <class F>
void BM_CorrectlyRoundedF64(benchmark::State& state) {
  BM_CorrectlyRounded<F>(state, ElementType::kF64);
}

#define HLOCHECK_TRANSCENDENTAL_BENCHMARKS(F) \
  BENCHMARK(BM_LibmDouble<F>);                \
  BENCHMARK(BM_CorrectlyRoundedF32<F>);       \
  BENCHMARK(BM_CorrectlyRoundedBF16<F>);      \
  BENCHMARK(BM_CorrectlyRoundedF64<F>);       \
  BENCHMARK(BM_MpfrOnly<F>);

HLOCHECK_TRANSCENDENTAL_BENCHMARKS(Exp)
HLOCHECK_TRANSCENDENTAL_BENCHMARKS(Log)
HLOCHECK_TRANSCENDENTAL_BENCHMARKS(Sin)
HLOCHECK_TRANSCENDENTAL_BENCHMARKS(Tanh)

// The complex functions (parts uniform in [-10, 10]): the public functions,
// long double fast path first, against MPC and MPFR alone in the same run
// (the ratio of their items_per_second is the fast path's gain), with the
// fraction of elements the fast path declines.
std::vector<std::pair<double, double>> ComplexInputs(bool as_float) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> part(-10, 10);
  std::vector<std::pair<double, double>> inputs(kInputs / 16);
  for (auto& [re, im] : inputs) {
    re = part(random);
    im = part(random);
    if (as_float) re = static_cast<float>(re), im = static_cast<float>(im);
  }
  return inputs;
}

void BM_Complex(benchmark::State& state, ComplexFunction f, ElementType part_type, bool fast) {
  const FloatFormat& part = Format(part_type);
  const auto inputs = ComplexInputs(part_type == ElementType::kF32);
  ComplexFastStatistics before = ThreadComplexFastStatistics(f);
  for (auto _ : state) {
    for (auto [re, im] : inputs) {
      if (fast) {
        std::optional<ComplexBits> bits = FastComplex(f, part, re, im);
        benchmark::DoNotOptimize(bits ? *bits : ComplexWithoutFastPath(f, part, re, im));
      } else {
        benchmark::DoNotOptimize(ComplexWithoutFastPath(f, part, re, im));
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(inputs.size()));
  ComplexFastStatistics after = ThreadComplexFastStatistics(f);
  const double decided = static_cast<double>(after.fast - before.fast);
  const double declined = static_cast<double>(after.declined - before.declined);
  if (fast) state.counters["declined_fraction"] = declined / (decided + declined);
}

#define HLOCHECK_COMPLEX_BENCHMARKS(name, f)                                        \
  BENCHMARK_CAPTURE(BM_Complex, name##_c64_fast_path, f, ElementType::kF32, true);  \
  BENCHMARK_CAPTURE(BM_Complex, name##_c64_mpc_only, f, ElementType::kF32, false);  \
  BENCHMARK_CAPTURE(BM_Complex, name##_c128_fast_path, f, ElementType::kF64, true); \
  BENCHMARK_CAPTURE(BM_Complex, name##_c128_mpc_only, f, ElementType::kF64, false);

HLOCHECK_COMPLEX_BENCHMARKS(exp, ComplexFunction::kExp)
HLOCHECK_COMPLEX_BENCHMARKS(tanh, ComplexFunction::kTanh)
HLOCHECK_COMPLEX_BENCHMARKS(expm1, ComplexFunction::kExpm1)
HLOCHECK_COMPLEX_BENCHMARKS(rsqrt, ComplexFunction::kRsqrt)
HLOCHECK_COMPLEX_BENCHMARKS(cbrt, ComplexFunction::kCbrt)

}  // namespace
}  // namespace hlocheck::precise

BENCHMARK_MAIN();
