// The CPU adapter's select_and_scatter: the spec's example; random windows,
// strides and padding of both signs against a reference written here from
// the spec's definition (the first maximum of each window's operand
// elements takes the window's source value, added into init_value); the
// typed scatter kernel against the general evaluator; a promoted scatter;
// malformed cases.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "tests/adapters/cpu_region_test_util.h"

namespace hlocheck::cpu_test {
namespace {

using ::hlocheck::testing::SelectAndScatterCase;

TEST(CpuSelectAndScatterTest, SpecExample) {
  Case c = SelectAndScatterCase(Make<ET::kSI64>({4, 2}, {1, 5, 2, 5, 3, 6, 4, 4}),
                                Make<ET::kSI64>({2, 2}, {5, 6, 7, 8}), Make<ET::kSI64>({}, {0}),
                                {3, 1}, {2, 1}, {{0, 1}, {0, 0}}, Comparator("GE", {ET::kSI64}),
                                Combiner("add", {ET::kSI64}));
  std::vector<Tensor> results = RunAll(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<ET::kSI64>(results[0]), (std::vector<int64_t>{0, 0, 0, 0, 5, 14, 7, 0}));
}

// The definition for si32 with select = GE (the first maximum of the
// window's operand elements in row-major order wins) and scatter = add.
std::vector<int32_t> Reference(const Tensor& operand, const Tensor& source, int32_t init,
                               const std::vector<int64_t>& window,
                               const std::vector<int64_t>& strides,
                               const std::vector<std::pair<int64_t, int64_t>>& padding) {
  std::vector<int32_t> out(static_cast<size_t>(operand.num_elements()), init);
  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.shape());
  const Shape window_shape(window.begin(), window.end());
  auto x = operand.values<ET::kSI32>();
  for (IndexIterator s(source.shape()); !s.done(); s.Next()) {
    int64_t best = -1;
    for (IndexIterator w(window_shape); !w.done(); w.Next()) {
      int64_t at = 0;
      bool inside = true;
      for (size_t d = 0; d < window.size(); ++d) {
        const int64_t i = s.index()[d] * strides[d] + w.index()[d] - padding[d].first;
        inside = inside && i >= 0 && i < operand.shape()[d];
        at += i * operand_strides[d];
      }
      if (inside && (best < 0 || !(x[best] >= x[at]))) best = at;
    }
    if (best >= 0) out[best] += source.values<ET::kSI32>()[s.linear()];
  }
  return out;
}

TEST(CpuSelectAndScatterTest, RandomWindowsFollowTheDefinition) {
  std::mt19937_64 rng(47);
  auto draw = [&](int64_t low, int64_t high) {
    return low + static_cast<int64_t>(rng() % static_cast<uint64_t>(high - low + 1));
  };
  for (int trial = 0; trial < 200; ++trial) {
    const int rank = static_cast<int>(draw(1, 3));
    Shape shape;
    std::vector<int64_t> window, strides;
    std::vector<std::pair<int64_t, int64_t>> padding;
    Shape source_shape;
    for (int d = 0; d < rank; ++d) {
      shape.push_back(draw(1, 6));
      window.push_back(draw(1, 4));
      strides.push_back(draw(1, 3));
      const int64_t low = std::max<int64_t>(draw(-2, 2), 1 - shape.back());
      const int64_t high = std::max<int64_t>(draw(-2, 2), 1 - shape.back() - low);
      padding.push_back({low, high});
      const int64_t padded = low + shape.back() + high;
      source_shape.push_back(
          padded < window.back() ? 0 : (padded - window.back()) / strides.back() + 1);
    }
    // Few distinct values: windows hold ties, which GE gives to the first.
    const Tensor operand = RandomInts(shape, -3, 3, rng);
    const Tensor source = RandomInts(source_shape, -100, 100, rng);
    const std::vector<int32_t> want = Reference(operand, source, 1, window, strides, padding);
    for (bool hidden : {false, true}) {
      std::vector<Tensor> results = RunAll(SelectAndScatterCase(
          operand, source, Make<ET::kSI32>({}, {1}), window, strides, padding,
          Comparator("GE", {ET::kSI32}), Combiner("add", {ET::kSI32}, hidden)));
      ASSERT_EQ(results.size(), 1u);
      EXPECT_EQ(Values<ET::kSI32>(results[0]), want) << "trial " << trial << " hidden " << hidden;
    }
  }
}

// si8 source values scattered by an si32 add do not wrap at 8 bits.
TEST(CpuSelectAndScatterTest, APromotedScatterComputesInItsType) {
  Case c = SelectAndScatterCase(
      Make<ET::kSI8>({2}, {5, 1}), Make<ET::kSI8>({2}, {100, 100}), Make<ET::kSI8>({}, {0}), {2},
      {1}, {{0, 1}}, Comparator("GE", {ET::kSI8}), Combiner("add", {ET::kSI32}), ET::kSI32);
  // Windows [5, 1] and [1, (padding)]: 5 is selected first, then 1.
  std::vector<Tensor> results = RunAll(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<ET::kSI32>(results[0]), (std::vector<int32_t>{100, 100}));
}

TEST(CpuSelectAndScatterTest, MalformedCasesAreInvalid) {
  Case wrong_source = SelectAndScatterCase(
      Make<ET::kSI32>({4}, {1, 2, 3, 4}), Make<ET::kSI32>({2}, {1, 1}), Make<ET::kSI32>({}, {0}),
      {2}, {1}, {}, Comparator("GE", {ET::kSI32}), Combiner("add", {ET::kSI32}));
  absl::StatusOr<std::vector<Tensor>> results = SharedAdapter().Run(wrong_source);
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument) << results.status();
  EXPECT_NE(results.status().message().find("the windows give 3"), std::string::npos)
      << results.status();
}

}  // namespace
}  // namespace hlocheck::cpu_test
