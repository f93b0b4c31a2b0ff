// convolution on the oracle: the spec's example; window reversal pairing
// kernel element k with window element K - 1 - k; the zeros of padding as
// terms (0 times Inf is NaN); batch groups keeping a NaN of one group's
// kernel out of the others; and float sums bounded so that every order
// passes and a lost term does not.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "oracle/compare.h"
#include "tests/oracle/oracle_test_util.h"
#include "tests/support/case_builders.h"

namespace hlocheck {
namespace {

using testing::ConvolutionCase;
using testing::Literal;
using testing::Passes;
using testing::RunOk;
using testing::TheOracle;
using ET = ElementType;

Tensor F32(Shape shape, const std::vector<float>& values) {
  Tensor t(std::move(shape), ET::kF32);
  std::copy(values.begin(), values.end(), t.values<ET::kF32>().begin());
  return t;
}

TEST(ConvolutionOracleTest, SpecExample) {
  std::vector<ResultExpectation> e = RunOk(ConvolutionCase(
      Literal("dense<[[[[1], [2], [5], [6]], [[3], [4], [7], [8]], [[10], [11], [14], [15]], "
              "[[12], [13], [16], [17]]]]> : tensor<1x4x4x1xi64>"),
      Literal("dense<1> : tensor<3x3x1x1xi64>"),
      {.spatial = 2, .window_strides = {4, 4}, .lhs_dilation = {2, 2}}, {1, 2, 2, 1}, ET::kSI64));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].check, Check::kExact);
  auto v = e[0].reference.values<ET::kSI64>();
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()), (std::vector<int64_t>{10, 26, 46, 62}));
}

// lhs [1, 3] (b, 0, f) with kernel [1, 10]: reversed, the window [a, b]
// pairs b with 1 and a with 10.
TEST(ConvolutionOracleTest, WindowReversalFlipsThePairing) {
  const Tensor lhs = Literal("dense<[[[1], [2], [3]]]> : tensor<1x3x1xi32>");
  const Tensor rhs = Literal("dense<[[[1]], [[10]]]> : tensor<2x1x1xi32>");
  std::vector<ResultExpectation> plain =
      RunOk(ConvolutionCase(lhs, rhs, {.spatial = 1}, {1, 2, 1}, ET::kSI32));
  std::vector<ResultExpectation> reversed = RunOk(
      ConvolutionCase(lhs, rhs, {.spatial = 1, .window_reversal = {true}}, {1, 2, 1}, ET::kSI32));
  auto p = plain.at(0).reference.values<ET::kSI32>();
  auto r = reversed.at(0).reference.values<ET::kSI32>();
  EXPECT_EQ(std::vector<int32_t>(p.begin(), p.end()), (std::vector<int32_t>{21, 32}));
  EXPECT_EQ(std::vector<int32_t>(r.begin(), r.end()), (std::vector<int32_t>{12, 23}));
}

// pad-then-dot: the window [2, 0] with kernel [1, Inf] is 2 + 0 * Inf = NaN;
// a backend that skips the padding returns 2 and fails.
TEST(ConvolutionOracleTest, AZeroOfPaddingTimesInfinityIsNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<ResultExpectation> e =
      RunOk(ConvolutionCase(F32({1, 1, 1}, {2}), F32({2, 1, 1}, {1, inf}),
                            {.spatial = 1, .padding = {{0, 1}}}, {1, 1, 1}, ET::kF32));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(Passes(e, F32({1, 1, 1}, {NAN})));
  EXPECT_FALSE(Passes(e, F32({1, 1, 1}, {2})));
}

// batch_group_count 3: output feature g sees only lhs batch group g, so a
// NaN in the kernel of feature 2 leaves features 0 and 1 finite.
TEST(ConvolutionOracleTest, BatchGroupsKeepANaNInItsGroup) {
  std::vector<ResultExpectation> e =
      RunOk(ConvolutionCase(F32({6, 1, 1}, {1, 2, 3, 4, 5, 6}), F32({1, 1, 3}, {1, 1, NAN}),
                            {.spatial = 1, .batch_group_count = 3}, {2, 1, 3}, ET::kF32));
  ASSERT_EQ(e.size(), 1u);
  // result[b, 0, g] = lhs[2 g + b] * kernel[g].
  EXPECT_TRUE(Passes(e, F32({2, 1, 3}, {1, 3, NAN, 2, 4, NAN})));
  EXPECT_FALSE(Passes(e, F32({2, 1, 3}, {NAN, NAN, NAN, NAN, NAN, NAN})));
}

// A 1-D f32 convolution of 64 terms per element: sequential sums in either
// direction pass, a sum that loses its last term fails.
TEST(ConvolutionOracleTest, FloatSumsAreBoundedForEveryOrder) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<float> x(80), w(64);
  for (float& v : x) v = unit(rng);
  for (float& v : w) v = unit(rng);
  std::vector<ResultExpectation> e = RunOk(ConvolutionCase(F32({1, 80, 1}, x), F32({64, 1, 1}, w),
                                                           {.spatial = 1}, {1, 17, 1}, ET::kF32));
  ASSERT_EQ(e.size(), 1u);
  ASSERT_EQ(e[0].check, Check::kErrorBound);
  std::vector<float> forward(17), backward(17), lost(17);
  for (int o = 0; o < 17; ++o) {
    for (int k = 0; k < 64; ++k) forward[o] += x[o + k] * w[k];
    for (int k = 63; k >= 0; --k) backward[o] += x[o + k] * w[k];
    for (int k = 0; k < 63; ++k) lost[o] += x[o + k] * w[k];
  }
  EXPECT_TRUE(Passes(e, F32({1, 17, 1}, forward)));
  EXPECT_TRUE(Passes(e, F32({1, 17, 1}, backward)));
  EXPECT_FALSE(Passes(e, F32({1, 17, 1}, lost)));
}

}  // namespace
}  // namespace hlocheck
