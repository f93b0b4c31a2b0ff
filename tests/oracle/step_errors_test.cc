// StepErrors: chains of f32 steps evaluated in random orders stay within the
// tracked bound; the bound is not vacuous (a bf16 step breaks it); and the
// order-dependent cases are flagged.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "oracle/step_errors.h"

namespace hlocheck::oracle {
namespace {

const FloatFormat& F32Format() { return Format(ElementType::kF32); }

// A float from an integer mantissa and a small exponent: finite, varied
// magnitudes, both signs.
float MakeFloat(int mantissa, int exponent) {
  return std::ldexp(static_cast<float>(mantissa), exponent);
}

// mean = sum(x) / n, then (x0 - mean) / sqrt(sum((x - mean)^2) / n + 1),
// in f32 with the sums in a shuffled order: within the tracked bound of the
// exact value.
RC_GTEST_PROP(StepErrorsTest, AShuffledF32ChainStaysWithinTheBound, ()) {
  const auto mantissas = *rc::gen::container<std::vector<int>>(*rc::gen::inRange<size_t>(1, 40),
                                                               rc::gen::inRange(-100000, 100000));
  const int exponent = *rc::gen::inRange(-20, 20);
  std::vector<float> x;
  for (int m : mantissas) x.push_back(MakeFloat(m, exponent));
  std::vector<size_t> order(x.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<size_t> shuffled = order;
  const auto seed = *rc::gen::arbitrary<unsigned>();
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(seed));

  const StepErrors steps(F32Format());
  std::vector<Tracked> terms;
  for (float v : x) terms.push_back(StepErrors::Exact(v));
  const auto n = static_cast<float>(x.size());
  const Tracked mean = steps.Divide(steps.Sum(terms), StepErrors::Exact(n));
  std::vector<Tracked> squares;
  for (float v : x) {
    const Tracked d = steps.Subtract(StepErrors::Exact(v), mean);
    squares.push_back(steps.Multiply(d, d));
  }
  const Tracked variance = steps.Divide(steps.Sum(squares), StepErrors::Exact(n));
  const Tracked result = steps.Divide(steps.Subtract(StepErrors::Exact(x[0]), mean),
                                      steps.Sqrt(steps.Add(variance, StepErrors::Exact(1.0f))));
  // The analysis is free to give up (one large value: its mean's modelled
  // rounding reaches the variance + 1 divisor's zero); it must not be wrong.
  RC_PRE(steps.FreeReason(result).empty());

  float sum = 0;
  for (size_t i : shuffled) sum += x[i];
  const float computed_mean = sum / n;
  float sum_squares = 0;
  for (size_t i : shuffled) sum_squares += (x[i] - computed_mean) * (x[i] - computed_mean);
  const float computed = (x[0] - computed_mean) / std::sqrt(sum_squares / n + 1.0f);
  RC_ASSERT(std::fabs(computed_mean - static_cast<double>(mean.value)) <= steps.Bound(mean));
  RC_ASSERT(std::fabs(computed - static_cast<double>(result.value)) <= steps.Bound(result));
}

// A sum whose partial sums are kept in bf16 misses the f32 bound.
TEST(StepErrorsTest, ABf16SumIsOutsideTheF32Bound) {
  const StepErrors steps(F32Format());
  std::vector<Tracked> terms;
  float bf16_sum = 0;
  for (int i = 0; i < 32; ++i) {
    const float v = 1.0f + static_cast<float>(i) / 1024;
    terms.push_back(StepErrors::Exact(v));
    bf16_sum = std::nearbyint((bf16_sum + v) * 4) / 4;  // 8 significant bits near 32
  }
  const Tracked sum = steps.Sum(terms);
  EXPECT_GT(std::fabs(bf16_sum - static_cast<double>(sum.value)), steps.Bound(sum));
}

TEST(StepErrorsTest, OrderDependentStepsAreFlagged) {
  const StepErrors steps(F32Format());
  // A divisor whose error reaches zero.
  std::vector<Tracked> terms = {StepErrors::Exact(1.0f), StepErrors::Exact(-1.0f)};
  const Tracked maybe_zero = steps.Subtract(steps.Sum(terms), StepErrors::Exact(0.0f));
  EXPECT_FALSE(steps.FreeReason(steps.Divide(StepErrors::Exact(1.0f), maybe_zero)).empty());
  // An exact zero divisor: the same infinity in every order.
  const Tracked infinite = steps.Divide(StepErrors::Exact(1.0f), StepErrors::Exact(0.0f));
  EXPECT_TRUE(steps.FreeReason(infinite).empty());
  EXPECT_EQ(infinite.value, HUGE_VALL);
  // A sum near the largest finite value: some order overflows.
  const float big = 3e38f;
  terms = {StepErrors::Exact(big), StepErrors::Exact(big), StepErrors::Exact(-big)};
  EXPECT_FALSE(steps.FreeReason(steps.Sum(terms)).empty());
  // The square root of an exact -Inf is NaN in every order.
  const Tracked root = steps.Sqrt(StepErrors::Exact(-HUGE_VALL));
  EXPECT_TRUE(std::isnan(root.value));
  EXPECT_TRUE(steps.FreeReason(root).empty());
}

}  // namespace
}  // namespace hlocheck::oracle
