// The CPU adapter's batch_norm_inference: the spec's example, random data
// against the formula in double, and malformed cases.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

using ::hlocheck::testing::BatchNormCase;

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

}  // namespace
}  // namespace hlocheck::cpu_test
