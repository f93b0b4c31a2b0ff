// batch_norm_inference on the oracle: the spec's example; the bound passes
// the spec's own chain of f32 operations and the reassociated form backends
// use ((x - mean) * (scale * rsqrt(variance + epsilon)) + offset), and fails
// a backend that drops epsilon or divides by the variance instead of the
// standard deviation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "oracle/compare.h"
#include "tests/oracle/data_movement_test_util.h"

namespace hlocheck {
namespace {

using testing::BatchNormCase;
using testing::Literal;
using testing::TheOracle;
using ET = ElementType;

Tensor F32(Shape shape, const std::vector<float>& values) {
  Tensor t(std::move(shape), ET::kF32);
  std::copy(values.begin(), values.end(), t.values<ET::kF32>().begin());
  return t;
}

std::vector<ResultExpectation> RunOk(const Case& c) {
  auto results = TheOracle().Run(c);
  EXPECT_TRUE(results.ok()) << results.status();
  return results.ok() ? *results : std::vector<ResultExpectation>{};
}

bool Passes(const std::vector<ResultExpectation>& e, const Tensor& actual) {
  std::vector<ResultComparison> comparisons = CompareResults(e, {actual});
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

}  // namespace
}  // namespace hlocheck
