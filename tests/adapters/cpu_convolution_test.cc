// The CPU adapter's convolution: the spec's example; random strides,
// padding of both signs, dilations, reversal and feature or batch groups
// against a reference written here the way the spec defines the op (pad
// lhs with zeros, take each window, reverse it, dot it with the kernel);
// every layout of the dimension numbers giving the same values; the spec's
// NaN where a zero of padding meets an infinite kernel element; and
// malformed cases.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "tests/adapters/cpu_region_test_util.h"

namespace hlocheck::cpu_test {
namespace {

using ::hlocheck::testing::ConvolutionAttributes;
using ::hlocheck::testing::ConvolutionCase;

TEST(CpuConvolutionTest, SpecExample) {
  Case c = ConvolutionCase(
      Make<ET::kSI64>({1, 4, 4, 1}, {1, 2, 5, 6, 3, 4, 7, 8, 10, 11, 14, 15, 12, 13, 16, 17}),
      Make<ET::kSI64>({3, 3, 1, 1}, std::vector<int64_t>(9, 1)),
      {.spatial = 2, .window_strides = {4, 4}, .lhs_dilation = {2, 2}}, {1, 2, 2, 1}, ET::kSI64);
  std::vector<Tensor> results = RunAll(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<ET::kSI64>(results[0]), (std::vector<int64_t>{10, 26, 46, 62}));
}

// The definition, in the default layout lhs [N, spatial..., C], rhs
// [kernel..., C / G, O], result [N / B, windows..., O], for si32.
std::vector<int32_t> Reference(const Tensor& lhs, const Tensor& rhs, const ConvolutionAttributes& a,
                               Shape* result_shape) {
  const auto spatial = static_cast<size_t>(a.spatial);
  const Shape& x = lhs.shape();
  const Shape& w = rhs.shape();
  // padded_lhs = pad(lhs, 0, low, high, lhs_dilation - 1).
  Shape padded_shape = {x[0]};
  for (size_t s = 0; s < spatial; ++s) {
    const int64_t dilated = (x[1 + s] - 1) * a.lhs_dilation[s] + 1;
    padded_shape.push_back(a.padding[s].first + dilated + a.padding[s].second);
  }
  padded_shape.push_back(x.back());
  std::vector<int32_t> padded(static_cast<size_t>(NumElements(padded_shape)), 0);
  const std::vector<int64_t> padded_strides = RowMajorStrides(padded_shape);
  for (IndexIterator it(x); !it.done(); it.Next()) {
    int64_t at = it.index()[0] * padded_strides[0] + it.index().back() * padded_strides.back();
    bool inside = true;
    for (size_t s = 0; s < spatial; ++s) {
      const int64_t p = a.padding[s].first + it.index()[1 + s] * a.lhs_dilation[s];
      inside = inside && p >= 0 && p < padded_shape[1 + s];
      at += p * padded_strides[1 + s];
    }
    if (inside) padded[at] = lhs.values<ET::kSI32>()[it.linear()];
  }
  const int64_t groups = std::max(a.feature_group_count, a.batch_group_count);
  const int64_t outputs = w.back();
  const int64_t group_outputs = outputs / groups;
  const int64_t group_inputs = w[spatial];
  *result_shape = {x[0] / a.batch_group_count};
  Shape kernel;
  for (size_t s = 0; s < spatial; ++s) {
    kernel.push_back(w[s]);
    const int64_t window = (w[s] - 1) * a.rhs_dilation[s] + 1;
    result_shape->push_back(padded_shape[1 + s] < window
                                ? 0
                                : (padded_shape[1 + s] - window) / a.window_strides[s] + 1);
  }
  result_shape->push_back(outputs);
  const std::vector<int64_t> rhs_strides = RowMajorStrides(w);
  std::vector<int32_t> out;
  for (IndexIterator r(*result_shape); !r.done(); r.Next()) {
    const int64_t feature = r.index().back();
    const int64_t g = feature / group_outputs;
    const int64_t batch =
        a.batch_group_count > 1 ? g * result_shape->at(0) + r.index()[0] : r.index()[0];
    int32_t sum = 0;
    for (IndexIterator k(kernel); !k.done(); k.Next()) {
      for (int64_t i = 0; i < group_inputs; ++i) {
        int64_t at =
            batch * padded_strides[0] +
            ((a.feature_group_count > 1 ? g * group_inputs : 0) + i) * padded_strides.back();
        int64_t kernel_at = i * rhs_strides[spatial] + feature * rhs_strides[spatial + 1];
        for (size_t s = 0; s < spatial; ++s) {
          const int64_t in_window =
              a.window_reversal[s] ? kernel[s] - 1 - k.index()[s] : k.index()[s];
          at += (r.index()[1 + s] * a.window_strides[s] + in_window * a.rhs_dilation[s]) *
                padded_strides[1 + s];
          kernel_at += k.index()[s] * rhs_strides[s];
        }
        sum += padded[at] * rhs.values<ET::kSI32>()[kernel_at];
      }
    }
    out.push_back(sum);
  }
  return out;
}

TEST(CpuConvolutionTest, RandomAttributesFollowTheDefinition) {
  std::mt19937_64 rng(41);
  auto draw = [&](int64_t low, int64_t high) {
    return low + static_cast<int64_t>(rng() % static_cast<uint64_t>(high - low + 1));
  };
  int with_values = 0;
  for (int trial = 0; trial < 200; ++trial) {
    ConvolutionAttributes a;
    a.spatial = draw(1, 2);
    const int64_t groups = draw(1, 3);
    const bool batch_groups = groups > 1 && draw(0, 1) == 1;
    a.feature_group_count = batch_groups ? 1 : groups;
    a.batch_group_count = batch_groups ? groups : 1;
    const int64_t group_inputs = draw(1, 3);
    const int64_t features = batch_groups ? group_inputs : groups * group_inputs;
    const int64_t outputs = groups * draw(1, 2);
    Shape lhs_shape = {a.batch_group_count * draw(1, 2)};
    Shape rhs_shape;
    for (int64_t s = 0; s < a.spatial; ++s) {
      lhs_shape.push_back(draw(1, 6));
      rhs_shape.push_back(draw(1, 3));
      a.window_strides.push_back(draw(1, 3));
      a.lhs_dilation.push_back(draw(1, 2));
      a.rhs_dilation.push_back(draw(1, 2));
      a.window_reversal.push_back(draw(0, 1) == 1);
      const int64_t dilated = (lhs_shape.back() - 1) * a.lhs_dilation.back() + 1;
      const int64_t low = std::max<int64_t>(draw(-2, 2), 1 - dilated);
      const int64_t high = std::max<int64_t>(draw(-2, 2), 1 - dilated - low);
      a.padding.push_back({low, high});
    }
    lhs_shape.push_back(features);
    rhs_shape.push_back(group_inputs);
    rhs_shape.push_back(outputs);
    const Tensor lhs = RandomInts(lhs_shape, -9, 9, rng);
    const Tensor rhs = RandomInts(rhs_shape, -9, 9, rng);
    Shape result_shape;
    const std::vector<int32_t> want = Reference(lhs, rhs, a, &result_shape);
    std::vector<Tensor> results = RunAll(ConvolutionCase(lhs, rhs, a, result_shape, ET::kSI32));
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(Values<ET::kSI32>(results[0]), want) << "trial " << trial;
    with_values += want.empty() ? 0 : 1;
  }
  // Most windows fit: the comparison is not of empty results.
  EXPECT_GT(with_values, 120);
}

// The same convolution in permuted layouts gives the same values, moved.
TEST(CpuConvolutionTest, EveryLayoutGivesTheSameValues) {
  std::mt19937_64 rng(43);
  const Tensor lhs = RandomInts({2, 5, 4, 3}, -9, 9, rng);  // b, 0, 1, f
  const Tensor rhs = RandomInts({2, 3, 3, 4}, -9, 9, rng);  // 0, 1, i, o
  ConvolutionAttributes a = {
      .spatial = 2, .padding = {{1, 0}, {0, 1}}, .window_reversal = {true, false}};
  std::vector<Tensor> base = RunAll(ConvolutionCase(lhs, rhs, a, {2, 5, 3, 4}, ET::kSI32));
  ASSERT_EQ(base.size(), 1u);
  // lhs as [f, 1, b, 0], rhs as [o, 0, i, 1], result as [1, f, 0, b].
  auto transpose = [](const Tensor& t, const std::vector<int64_t>& perm) {
    Shape shape;
    for (int64_t d : perm) shape.push_back(t.shape()[d]);
    Tensor out(shape, t.element_type());
    const std::vector<int64_t> strides = RowMajorStrides(t.shape());
    for (IndexIterator it(shape); !it.done(); it.Next()) {
      int64_t at = 0;
      for (size_t d = 0; d < perm.size(); ++d) at += it.index()[d] * strides[perm[d]];
      out.values<ET::kSI32>()[it.linear()] = t.values<ET::kSI32>()[at];
    }
    return out;
  };
  a.input_dimensions = {2, 3, 1, 0};   // batch at 2, spatial 0 at 3, spatial 1 at 1, feature at 0
  a.kernel_dimensions = {1, 3, 2, 0};  // spatial at 1 and 3, input feature 2, output feature 0
  a.output_dimensions = {3, 2, 0, 1};  // batch 3, spatial 2 and 0, feature 1
  std::vector<Tensor> permuted = RunAll(ConvolutionCase(
      transpose(lhs, {3, 2, 0, 1}), transpose(rhs, {3, 0, 2, 1}), a, {3, 4, 5, 2}, ET::kSI32));
  ASSERT_EQ(permuted.size(), 1u);
  EXPECT_EQ(Values<ET::kSI32>(permuted[0]), Values<ET::kSI32>(transpose(base[0], {2, 3, 1, 0})));
}

// pad-then-dot: a zero of padding times an infinite kernel element is NaN.
TEST(CpuConvolutionTest, AZeroOfPaddingTimesInfinityIsNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<Tensor> results = RunAll(
      ConvolutionCase(Make<ET::kF32>({1, 1, 1}, {2.0f}), Make<ET::kF32>({2, 1, 1}, {1.0f, inf}),
                      {.spatial = 1, .padding = {{0, 1}}}, {1, 1, 1}, ET::kF32));
  ASSERT_EQ(results.size(), 1u);
  // The window is [2, 0 (padding)]: 2 * 1 + 0 * inf.
  EXPECT_TRUE(std::isnan(Values<ET::kF32>(results[0])[0]));
}

TEST(CpuConvolutionTest, MalformedCasesAreInvalid) {
  const Tensor lhs = Make<ET::kSI32>({1, 4, 1}, {1, 2, 3, 4});
  const Tensor rhs = Make<ET::kSI32>({2, 1, 1}, {1, 1});
  Case wrong_result = ConvolutionCase(lhs, rhs, {.spatial = 1}, {1, 2, 1}, ET::kSI32);
  Case repeated = ConvolutionCase(lhs, rhs, {.spatial = 1}, {1, 3, 1}, ET::kSI32);
  repeated.attributes["input_feature_dimension"] = int64_t{0};
  Case bad_groups = ConvolutionCase(lhs, rhs, {.spatial = 1}, {1, 3, 1}, ET::kSI32);
  bad_groups.attributes["feature_group_count"] = int64_t{2};
  for (const Case& c : {wrong_result, repeated, bad_groups}) {
    absl::StatusOr<std::vector<Tensor>> results = SharedAdapter().Run(c);
    ASSERT_FALSE(results.ok());
    EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument) << results.status();
  }
}

}  // namespace
}  // namespace hlocheck::cpu_test
