// Batch norm on the oracle. batch_norm_inference: the spec's example; the
// bound passes the spec's own chain of f32 operations and the reassociated
// form backends use ((x - mean) * (scale * rsqrt(variance + epsilon)) +
// offset), and fails a backend that drops epsilon or divides by the variance
// instead of the standard deviation. batch_norm_training and batch_norm_grad:
// the spec's examples; the bounds pass f32 evaluations in two summation
// orders and fail sums kept in bf16, a dropped term and E[x^2] - E[x]^2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "oracle/compare.h"
#include "tests/oracle/oracle_test_util.h"

namespace hlocheck {
namespace {

using testing::AllPass;
using testing::BatchNormCase;
using testing::BatchNormGradCase;
using testing::BatchNormTrainingCase;
using testing::Literal;
using testing::Passes;
using testing::RoundToBf16;
using testing::RunOk;
using testing::TheOracle;
using ET = ElementType;

Tensor F32(Shape shape, const std::vector<float>& values) {
  Tensor t(std::move(shape), ET::kF32);
  std::copy(values.begin(), values.end(), t.values<ET::kF32>().begin());
  return t;
}

// Whether result `index` of a three-result op passes.
bool ResultPasses(const std::vector<ResultExpectation>& e, size_t index, const Tensor& actual) {
  std::vector<ResultComparison> comparisons = CompareResults({e[index]}, {actual});
  return comparisons.size() == 1 && comparisons[0].ok();
}

TEST(BatchNormOracleTest, SpecExample) {
  std::vector<ResultExpectation> e = RunOk(BatchNormCase(
      Literal("dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf64>"),
      Literal("dense<[1.0, 1.0]> : tensor<2xf64>"), Literal("dense<[1.0, 1.0]> : tensor<2xf64>"),
      Literal("dense<[2.0, 3.0]> : tensor<2xf64>"), Literal("dense<[1.0, 1.0]> : tensor<2xf64>"),
      0.0, 2));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(Passes(
      e,
      Literal("dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf64>")));
}

TEST(BatchNormOracleTest, TheBoundPassesBothOrdersAndCatchesWrongFormulas) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> unit(-4.0f, 4.0f);
  std::uniform_real_distribution<float> positive(0.01f, 2.0f);
  const int n = 64, features = 4;
  std::vector<float> x(n * features), scale(features), offset(features), mean(features),
      variance(features);
  for (float& v : x) v = unit(rng);
  for (int f = 0; f < features; ++f) {
    scale[f] = unit(rng);
    offset[f] = unit(rng);
    mean[f] = unit(rng);
    variance[f] = positive(rng);
  }
  const float epsilon = 0.001f;
  std::vector<ResultExpectation> e =
      RunOk(BatchNormCase(F32({n, features}, x), F32({features}, scale), F32({features}, offset),
                          F32({features}, mean), F32({features}, variance), epsilon, 1));
  ASSERT_EQ(e.size(), 1u);
  std::vector<float> chain(x.size()), fused(x.size()), no_epsilon(x.size()), by_variance(x.size());
  for (int i = 0; i < n * features; ++i) {
    const int f = i % features;
    chain[i] = scale[f] * ((x[i] - mean[f]) / std::sqrt(variance[f] + epsilon)) + offset[f];
    fused[i] =
        std::fma(x[i] - mean[f], scale[f] * (1.0f / std::sqrt(variance[f] + epsilon)), offset[f]);
    no_epsilon[i] = scale[f] * ((x[i] - mean[f]) / std::sqrt(variance[f])) + offset[f];
    by_variance[i] = scale[f] * ((x[i] - mean[f]) / (variance[f] + epsilon)) + offset[f];
  }
  EXPECT_TRUE(Passes(e, F32({n, features}, chain)));
  EXPECT_TRUE(Passes(e, F32({n, features}, fused)));
  EXPECT_FALSE(Passes(e, F32({n, features}, no_epsilon)));
  EXPECT_FALSE(Passes(e, F32({n, features}, by_variance)));
}

// epsilon is an f32 constant: 0.001 is 0.0010000000474974513 before it
// becomes an f64 (found against IREE, which reads it so).
TEST(BatchNormOracleTest, EpsilonIsAnF32Constant) {
  std::vector<ResultExpectation> e = RunOk(BatchNormCase(
      Literal("dense<[0.0]> : tensor<1xf64>"), Literal("dense<[1.0]> : tensor<1xf64>"),
      Literal("dense<[0.0]> : tensor<1xf64>"), Literal("dense<[1.0]> : tensor<1xf64>"),
      Literal("dense<[0.0]> : tensor<1xf64>"), 0.001, 0));
  ASSERT_EQ(e.size(), 1u);
  const double want = -1 / std::sqrt(static_cast<double>(0.001f));
  EXPECT_NEAR(e[0].center_hi[0], want, 1e-13);
  EXPECT_GT(std::fabs(e[0].center_hi[0] - (-1 / std::sqrt(0.001))), 1e-7);
}

TEST(BatchNormTrainingOracleTest, SpecExample) {
  std::vector<ResultExpectation> e = RunOk(BatchNormTrainingCase(
      Literal("dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf64>"),
      Literal("dense<[1.0, 1.0]> : tensor<2xf64>"), Literal("dense<[1.0, 1.0]> : tensor<2xf64>"),
      0.0, 2));
  ASSERT_EQ(e.size(), 3u);
  std::vector<ResultComparison> comparisons = CompareResults(
      e,
      {Literal("dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf64>"),
       Literal("dense<[2.0, 3.0]> : tensor<2xf64>"), Literal("dense<[1.0, 1.0]> : tensor<2xf64>")});
  ASSERT_EQ(comparisons.size(), 3u);
  for (const ResultComparison& c : comparisons) EXPECT_TRUE(c.ok());
}

TEST(BatchNormGradOracleTest, SpecExample) {
  std::vector<ResultExpectation> e = RunOk(BatchNormGradCase(
      Literal("dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf64>"),
      Literal("dense<[1.0, 1.0]> : tensor<2xf64>"), Literal("dense<[2.0, 3.0]> : tensor<2xf64>"),
      Literal("dense<[1.0, 1.0]> : tensor<2xf64>"),
      Literal("dense<[[[0.1, 0.1], [0.1, 0.1]], [[0.1, 0.1], [0.1, 0.1]]]> : tensor<2x2x2xf64>"),
      0.0, 2));
  ASSERT_EQ(e.size(), 3u);
  std::vector<ResultComparison> comparisons = CompareResults(
      e,
      {Literal("dense<[[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]]> : tensor<2x2x2xf64>"),
       Literal("dense<[0.0, 0.0]> : tensor<2xf64>"), Literal("dense<[0.4, 0.4]> : tensor<2xf64>")});
  ASSERT_EQ(comparisons.size(), 3u);
  for (const ResultComparison& c : comparisons) EXPECT_TRUE(c.ok());
}

// Sums of f32 values as a backend may form them: in order, as a pairwise
// tree, in bf16 (rounding every partial sum to bf16's 8 bits), or without
// the last term.
enum class SumKind { kSequential, kPairwise, kBf16, kDropLast };

float SumAs(const std::vector<float>& terms, SumKind kind, size_t first = 0,
            size_t last = SIZE_MAX) {
  last = std::min(last, terms.size());
  if (kind == SumKind::kPairwise && last - first > 1) {
    const size_t middle = first + (last - first) / 2;
    return SumAs(terms, kind, first, middle) + SumAs(terms, kind, middle, last);
  }
  if (kind == SumKind::kDropLast) --last;
  float sum = 0;
  for (size_t i = first; i < last; ++i) {
    sum += terms[i];
    if (kind == SumKind::kBf16) sum = RoundToBf16(sum);
  }
  return sum;
}

// Data whose mean is large against its spread: what separates the spec's
// variance (of the deviations from the computed mean) from E[x^2] -
// E[x]^2, and what makes a dropped term or a bf16 sum visible in the mean.
struct TrainingData {
  static constexpr int kRows = 96, kFeatures = 3;
  std::vector<float> x, scale, offset;
  TrainingData() {
    std::mt19937 rng(43);
    std::normal_distribution<float> spread(0.0f, 1.0f);
    const float centers[kFeatures] = {300.0f, -20.0f, 0.5f};
    for (int r = 0; r < kRows; ++r) {
      for (int f = 0; f < kFeatures; ++f) x.push_back(centers[f] + spread(rng));
    }
    scale = {1.5f, -0.75f, 2.0f};
    offset = {0.25f, 1.0f, -3.0f};
  }
  Case MakeCase() const {
    return BatchNormTrainingCase(F32({kRows, kFeatures}, x), F32({kFeatures}, scale),
                                 F32({kFeatures}, offset), 0.001, 1);
  }
  // batch_norm_training in f32 with the given sums; `naive` computes the
  // variance as E[x^2] - E[x]^2.
  std::vector<Tensor> Evaluate(SumKind kind, bool naive) const {
    std::vector<float> mean(kFeatures), variance(kFeatures), output(x.size());
    for (int f = 0; f < kFeatures; ++f) {
      std::vector<float> column, squares, deviations;
      for (int r = 0; r < kRows; ++r) column.push_back(x[r * kFeatures + f]);
      mean[f] = SumAs(column, kind) / kRows;
      for (float v : column) {
        squares.push_back(v * v);
        deviations.push_back((v - mean[f]) * (v - mean[f]));
      }
      variance[f] = naive ? SumAs(squares, kind) / kRows - mean[f] * mean[f]
                          : SumAs(deviations, kind) / kRows;
      for (int r = 0; r < kRows; ++r) {
        const int i = r * kFeatures + f;
        output[i] = scale[f] * ((x[i] - mean[f]) / std::sqrt(variance[f] + 0.001f)) + offset[f];
      }
    }
    return {F32({kRows, kFeatures}, output), F32({kFeatures}, mean), F32({kFeatures}, variance)};
  }
};

TEST(BatchNormTrainingOracleTest, TheBoundsPassBothOrdersAndCatchWrongSums) {
  const TrainingData data;
  std::vector<ResultExpectation> e = RunOk(data.MakeCase());
  ASSERT_EQ(e.size(), 3u);
  EXPECT_TRUE(AllPass(e, data.Evaluate(SumKind::kSequential, false)));
  EXPECT_TRUE(AllPass(e, data.Evaluate(SumKind::kPairwise, false)));
  // Each wrong evaluation is caught in the mean, the variance or both.
  const std::vector<Tensor> bf16 = data.Evaluate(SumKind::kBf16, false);
  EXPECT_FALSE(ResultPasses(e, 1, bf16[1]));
  const std::vector<Tensor> dropped = data.Evaluate(SumKind::kDropLast, false);
  EXPECT_FALSE(ResultPasses(e, 1, dropped[1]));
  EXPECT_FALSE(ResultPasses(e, 2, dropped[2]));
  // E[x^2] - E[x]^2 loses the variance of the feature centred at 300 to
  // cancellation (and the outputs with it); the spec's formula does not.
  const std::vector<Tensor> naive = data.Evaluate(SumKind::kSequential, true);
  EXPECT_TRUE(ResultPasses(e, 1, naive[1]));
  EXPECT_FALSE(ResultPasses(e, 2, naive[2]));
  EXPECT_FALSE(ResultPasses(e, 0, naive[0]));
}

// batch_norm_grad in f32 following the spec's i1..i6 with the given sums.
std::vector<Tensor> GradAs(SumKind kind, int rows, int features, const std::vector<float>& x,
                           const std::vector<float>& scale, const std::vector<float>& mean,
                           const std::vector<float>& variance, const std::vector<float>& g,
                           float epsilon) {
  std::vector<float> grad_operand(x.size()), grad_scale(features), grad_offset(features);
  const float n = static_cast<float>(rows);
  for (int f = 0; f < features; ++f) {
    const float stddev = std::sqrt(variance[f] + epsilon);
    std::vector<float> gs, g_centered, g_normalized;
    for (int r = 0; r < rows; ++r) {
      const int i = r * features + f;
      gs.push_back(g[i]);
      g_centered.push_back(g[i] * (x[i] - mean[f]));
      g_normalized.push_back(g[i] * ((x[i] - mean[f]) / stddev));
    }
    const float i2 = SumAs(gs, kind), i3 = SumAs(g_centered, kind);
    for (int r = 0; r < rows; ++r) {
      const int i = r * features + f;
      const float i5 = i3 * (x[i] - mean[f]) / (variance[f] + epsilon);
      grad_operand[i] = scale[f] / stddev / n * ((g[i] * n - i2) - i5);
    }
    grad_scale[f] = SumAs(g_normalized, kind);
    grad_offset[f] = i2;
  }
  return {F32({rows, features}, grad_operand), F32({features}, grad_scale),
          F32({features}, grad_offset)};
}

TEST(BatchNormGradOracleTest, TheBoundsPassBothOrdersAndCatchWrongSums) {
  constexpr int kRows = 80, kFeatures = 3;
  std::mt19937 rng(47);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> x, g;
  for (int i = 0; i < kRows * kFeatures; ++i) {
    x.push_back(2.0f + normal(rng));
    // Gradients with a common offset, so that a lost term or bf16 partial
    // sums move i2 and grad_offset well beyond an f32 error.
    g.push_back(1.0f + 0.1f * normal(rng));
  }
  const std::vector<float> scale = {1.25f, -0.5f, 3.0f}, mean = {2.0f, 1.75f, 2.5f},
                           variance = {1.0f, 0.8f, 1.3f};
  std::vector<ResultExpectation> e = RunOk(
      BatchNormGradCase(F32({kRows, kFeatures}, x), F32({kFeatures}, scale), F32({kFeatures}, mean),
                        F32({kFeatures}, variance), F32({kRows, kFeatures}, g), 0.001, 1));
  ASSERT_EQ(e.size(), 3u);
  auto grad = [&](SumKind kind) {
    return GradAs(kind, kRows, kFeatures, x, scale, mean, variance, g, 0.001f);
  };
  EXPECT_TRUE(AllPass(e, grad(SumKind::kSequential)));
  EXPECT_TRUE(AllPass(e, grad(SumKind::kPairwise)));
  const std::vector<Tensor> bf16 = grad(SumKind::kBf16);
  EXPECT_FALSE(ResultPasses(e, 2, bf16[2]));
  EXPECT_FALSE(ResultPasses(e, 0, bf16[0]));
  const std::vector<Tensor> dropped = grad(SumKind::kDropLast);
  EXPECT_FALSE(ResultPasses(e, 1, dropped[1]));
  EXPECT_FALSE(ResultPasses(e, 2, dropped[2]));
  EXPECT_FALSE(ResultPasses(e, 0, dropped[0]));
}

// A feature with zero variance and zero epsilon divides by an exact zero:
// every order gives the same infinities, so they are checked, not freed.
TEST(BatchNormGradOracleTest, AnExactZeroStandardDeviationGivesInfinitiesInEveryOrder) {
  std::vector<ResultExpectation> e =
      RunOk(BatchNormGradCase(F32({2, 2}, {1, 2, 3, 4}), F32({2}, {1, 1}), F32({2}, {2, 3}),
                              F32({2}, {0, 1}), F32({2, 2}, {0.5f, 0.25f, -0.5f, 1}), 0.0, 1));
  ASSERT_EQ(e.size(), 3u);
  EXPECT_TRUE(e[0].free.empty()) << e[0].free_reason;
  EXPECT_EQ(e[0].center_hi[0], -HUGE_VAL);
  EXPECT_EQ(e[0].center_hi[2], HUGE_VAL);
  EXPECT_TRUE(std::isfinite(e[0].center_hi[1]) && std::isfinite(e[0].center_hi[3]));
  EXPECT_EQ(e[1].center_hi[0], -HUGE_VAL);
  EXPECT_EQ(e[2].center_hi[0], 0.0);
}

// A constant feature with epsilon 0: its deviations from the computed mean
// are zero or not depending on the summation order, and its standard
// deviation with them, so its outputs are free (0 / 0 or a huge quotient);
// its mean and variance are still bounded.
TEST(BatchNormTrainingOracleTest, AConstantFeatureWithoutEpsilonIsFree) {
  std::vector<ResultExpectation> e = RunOk(BatchNormTrainingCase(
      F32({3, 2}, {0.1f, 1, 0.1f, 2, 0.1f, 4}), F32({2}, {1, 1}), F32({2}, {0, 0}), 0.0, 1));
  ASSERT_EQ(e.size(), 3u);
  ASSERT_EQ(e[0].free.size(), 6u);
  EXPECT_TRUE(e[0].free[0] && e[0].free[2] && e[0].free[4]);
  EXPECT_FALSE(e[0].free[1] || e[0].free[3] || e[0].free[5]);
  EXPECT_NE(e[0].free_reason.find("divides by a value that may be zero"), std::string::npos)
      << e[0].free_reason;
  EXPECT_TRUE(e[1].free.empty());
  EXPECT_TRUE(e[2].free.empty());
  EXPECT_NEAR(e[1].center_hi[0], 0.1f, 1e-9);
  EXPECT_LT(e[2].bound[0], 1e-14);
}

}  // namespace
}  // namespace hlocheck
