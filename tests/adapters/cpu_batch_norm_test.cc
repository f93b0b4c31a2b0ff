// The CPU adapter's batch norm ops: the spec's examples, random data
// against the formulas in double, and malformed cases.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

using ::hlocheck::testing::BatchNormCase;
using ::hlocheck::testing::BatchNormGradCase;
using ::hlocheck::testing::BatchNormTrainingCase;

TEST(CpuBatchNormTest, SpecExample) {
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(
      BatchNormCase(Make<ET::kF64>({2, 2, 2}, {1, 2, 3, 4, 3, 4, 1, 2}),
                    Make<ET::kF64>({2}, {1, 1}), Make<ET::kF64>({2}, {1, 1}),
                    Make<ET::kF64>({2}, {2, 3}), Make<ET::kF64>({2}, {1, 1}), 0.0, 2));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<ET::kF64>((*r)[0]), (std::vector<double>{0, 0, 2, 2, 2, 2, 0, 0}));
}

TEST(CpuBatchNormTest, RandomDataFollowsTheFormula) {
  std::mt19937 rng(37);
  std::uniform_real_distribution<double> unit(-3, 3), positive(0.1, 2);
  for (int64_t feature_index : {0, 1, 2}) {
    const Shape shape = {3, 4, 5};
    const int64_t features = shape[feature_index];
    std::vector<double> x(60), scale(features), offset(features), mean(features),
        variance(features);
    for (double& v : x) v = unit(rng);
    for (int64_t f = 0; f < features; ++f) {
      scale[f] = unit(rng);
      offset[f] = unit(rng);
      mean[f] = unit(rng);
      variance[f] = positive(rng);
    }
    absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(
        BatchNormCase(Make<ET::kF64>(shape, x), Make<ET::kF64>({features}, scale),
                      Make<ET::kF64>({features}, offset), Make<ET::kF64>({features}, mean),
                      Make<ET::kF64>({features}, variance), 0.25, feature_index));
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<int64_t> strides = RowMajorStrides(shape);
    const std::vector<double> got = Values<ET::kF64>((*r)[0]);
    for (int64_t i = 0; i < 60; ++i) {
      const int64_t f = (i / strides[feature_index]) % features;
      const double want = scale[f] * (x[i] - mean[f]) / std::sqrt(variance[f] + 0.25) + offset[f];
      EXPECT_NEAR(got[i], want, 1e-12) << "feature_index " << feature_index << " element " << i;
    }
  }
}

TEST(CpuBatchNormTest, MalformedCasesAreInvalid) {
  Case wrong_features =
      BatchNormCase(Make<ET::kF32>({2, 3}, {1, 2, 3, 4, 5, 6}), Make<ET::kF32>({2}, {1, 1}),
                    Make<ET::kF32>({2}, {0, 0}), Make<ET::kF32>({2}, {0, 0}),
                    Make<ET::kF32>({2}, {1, 1}), 0.0, 1);
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(wrong_features);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
}

TEST(CpuBatchNormTest, TrainingSpecExample) {
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(
      BatchNormTrainingCase(Make<ET::kF64>({2, 2, 2}, {1, 2, 3, 4, 3, 4, 1, 2}),
                            Make<ET::kF64>({2}, {1, 1}), Make<ET::kF64>({2}, {1, 1}), 0.0, 2));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ(Values<ET::kF64>((*r)[0]), (std::vector<double>{0, 0, 2, 2, 2, 2, 0, 0}));
  EXPECT_EQ(Values<ET::kF64>((*r)[1]), (std::vector<double>{2, 3}));
  EXPECT_EQ(Values<ET::kF64>((*r)[2]), (std::vector<double>{1, 1}));
}

TEST(CpuBatchNormTest, GradSpecExample) {
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(BatchNormGradCase(
      Make<ET::kF64>({2, 2, 2}, {1, 2, 3, 4, 3, 4, 1, 2}), Make<ET::kF64>({2}, {1, 1}),
      Make<ET::kF64>({2}, {2, 3}), Make<ET::kF64>({2}, {1, 1}),
      Make<ET::kF64>({2, 2, 2}, std::vector<double>(8, 0.1)), 0.0, 2));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 3u);
  for (double v : Values<ET::kF64>((*r)[0])) EXPECT_NEAR(v, 0.0, 1e-15);
  for (double v : Values<ET::kF64>((*r)[1])) EXPECT_NEAR(v, 0.0, 1e-15);
  for (double v : Values<ET::kF64>((*r)[2])) EXPECT_NEAR(v, 0.4, 1e-15);
}

// Mean and variance per feature, whichever dimension holds the features,
// against the textbook formulas; the output then normalises with them.
TEST(CpuBatchNormTest, TrainingFollowsTheFormula) {
  std::mt19937 rng(53);
  std::uniform_real_distribution<double> unit(-3, 3);
  for (int64_t feature_index : {0, 1, 2}) {
    const Shape shape = {3, 4, 5};
    const int64_t features = shape[feature_index];
    std::vector<double> x(60), scale(features), offset(features);
    for (double& v : x) v = unit(rng);
    for (int64_t f = 0; f < features; ++f) {
      scale[f] = unit(rng);
      offset[f] = unit(rng);
    }
    absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(
        BatchNormTrainingCase(Make<ET::kF64>(shape, x), Make<ET::kF64>({features}, scale),
                              Make<ET::kF64>({features}, offset), 0.25, feature_index));
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<int64_t> strides = RowMajorStrides(shape);
    const double n = 60.0 / features;
    std::vector<double> mean(features), variance(features);
    for (int64_t i = 0; i < 60; ++i) mean[(i / strides[feature_index]) % features] += x[i] / n;
    for (int64_t i = 0; i < 60; ++i) {
      const int64_t f = (i / strides[feature_index]) % features;
      variance[f] += (x[i] - mean[f]) * (x[i] - mean[f]) / n;
    }
    const std::vector<double> output = Values<ET::kF64>((*r)[0]);
    const std::vector<double> got_mean = Values<ET::kF64>((*r)[1]);
    const std::vector<double> got_variance = Values<ET::kF64>((*r)[2]);
    for (int64_t f = 0; f < features; ++f) {
      EXPECT_NEAR(got_mean[f], mean[f], 1e-13);
      EXPECT_NEAR(got_variance[f], variance[f], 1e-13);
    }
    for (int64_t i = 0; i < 60; ++i) {
      const int64_t f = (i / strides[feature_index]) % features;
      EXPECT_NEAR(output[i],
                  scale[f] * (x[i] - mean[f]) / std::sqrt(variance[f] + 0.25) + offset[f], 1e-12);
    }
  }
}

// batch_norm_grad against the closed form of the gradients of
// y = scale * xhat + offset, xhat = (x - mean) / sqrt(variance + epsilon),
// with mean and variance the batch's own.
TEST(CpuBatchNormTest, GradIsTheGradientOfTraining) {
  std::mt19937 rng(59);
  std::uniform_real_distribution<double> unit(-2, 2);
  const int64_t rows = 7, features = 3;
  std::vector<double> x(rows * features), g(rows * features), scale(features);
  for (double& v : x) v = unit(rng);
  for (double& v : g) v = unit(rng);
  for (double& v : scale) v = unit(rng);
  std::vector<double> mean(features), variance(features);
  for (int64_t i = 0; i < rows * features; ++i) mean[i % features] += x[i] / rows;
  for (int64_t i = 0; i < rows * features; ++i) {
    variance[i % features] += (x[i] - mean[i % features]) * (x[i] - mean[i % features]) / rows;
  }
  const double epsilon = 0.5;
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(
      BatchNormGradCase(Make<ET::kF64>({rows, features}, x), Make<ET::kF64>({features}, scale),
                        Make<ET::kF64>({features}, mean), Make<ET::kF64>({features}, variance),
                        Make<ET::kF64>({rows, features}, g), epsilon, 1));
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<double> grad_operand = Values<ET::kF64>((*r)[0]);
  const std::vector<double> grad_scale = Values<ET::kF64>((*r)[1]);
  const std::vector<double> grad_offset = Values<ET::kF64>((*r)[2]);
  for (int64_t f = 0; f < features; ++f) {
    const double stddev = std::sqrt(variance[f] + epsilon);
    double sum_g = 0, sum_g_xhat = 0;
    for (int64_t row = 0; row < rows; ++row) {
      const int64_t i = row * features + f;
      sum_g += g[i];
      sum_g_xhat += g[i] * (x[i] - mean[f]) / stddev;
    }
    EXPECT_NEAR(grad_offset[f], sum_g, 1e-12);
    EXPECT_NEAR(grad_scale[f], sum_g_xhat, 1e-12);
    for (int64_t row = 0; row < rows; ++row) {
      const int64_t i = row * features + f;
      const double xhat = (x[i] - mean[f]) / stddev;
      // i5 = sum(g (x - mean)) (x - mean) / stddev^2 = sum(g xhat) xhat.
      const double want = scale[f] / stddev / rows * (rows * g[i] - sum_g - xhat * sum_g_xhat);
      EXPECT_NEAR(grad_operand[i], want, 1e-12) << i;
    }
  }
}

TEST(CpuBatchNormTest, MalformedTrainingAndGradCasesAreInvalid) {
  Case training =
      BatchNormTrainingCase(Make<ET::kF32>({2, 3}, {1, 2, 3, 4, 5, 6}), Make<ET::kF32>({2}, {1, 1}),
                            Make<ET::kF32>({2}, {0, 0}), 0.0, 1);
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(training);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  Case grad = BatchNormGradCase(Make<ET::kF32>({2, 2}, {1, 2, 3, 4}), Make<ET::kF32>({2}, {1, 1}),
                                Make<ET::kF32>({2}, {0, 0}), Make<ET::kF32>({2}, {1, 1}),
                                Make<ET::kF32>({2, 2}, {1, 1, 1, 1}), 0.0, 1);
  grad.result_types.pop_back();
  r = SharedAdapter().Run(grad);
  ASSERT_FALSE(r.ok());
}

}  // namespace
}  // namespace hlocheck::cpu_test
