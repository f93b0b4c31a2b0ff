// The CPU adapter's sort: the spec's example, stable ties along every
// dimension, NaN keys (FLOAT and TOTALORDER), comparators that are no order,
// and the typed key sort against the general body evaluator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/adapters/cpu_region_test_util.h"

namespace hlocheck::cpu_test {
namespace {

// The spec's example: two inputs sorted along dimension 0 by GT of the first.
TEST(CpuSortTest, SpecExample) {
  BodyBuilder b({ET::kSI64, ET::kSI64, ET::kSI64, ET::kSI64});
  Region gt = b.Return({b.Compare(0, 1, "GT", "SIGNED")});
  Case c = SortCase(
      {Make<ET::kSI64>({2, 3}, {1, 2, 3, 3, 2, 1}), Make<ET::kSI64>({2, 3}, {3, 2, 1, 1, 2, 3})}, 0,
      true, gt);
  std::vector<Tensor> got = RunAll(c);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(Values<ET::kSI64>(got[0]), (std::vector<int64_t>{3, 2, 3, 1, 2, 1}));
  EXPECT_EQ(Values<ET::kSI64>(got[1]), (std::vector<int64_t>{1, 2, 1, 3, 2, 3}));
}

// Keys with many ties and an iota payload, along each dimension of a 3-D
// tensor (counted from either end): the stable order, whatever is_stable
// says, ascending and descending.
TEST(CpuSortTest, StableTiesAlongEveryDimension) {
  std::mt19937_64 rng(9);
  const Shape shape = {3, 5, 4};
  Tensor keys = RandomInts(shape, 0, 2, rng);
  Tensor payload(shape, ET::kSI32);
  std::iota(payload.values<ET::kSI32>().begin(), payload.values<ET::kSI32>().end(), 0);
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  for (int64_t dimension = -3; dimension < 3; ++dimension) {
    const int64_t axis = dimension < 0 ? dimension + 3 : dimension;
    for (const std::string direction : {"LT", "GT"}) {
      std::vector<Tensor> got = RunAll(SortCase({keys, payload}, dimension, dimension % 2 == 0,
                                                Comparator(direction, {ET::kSI32, ET::kSI32})));
      ASSERT_EQ(got.size(), 2u);
      std::vector<int32_t> want_keys = Values<ET::kSI32>(keys);
      std::vector<int32_t> want_payload = Values<ET::kSI32>(payload);
      Shape starts = shape;
      starts[axis] = 1;
      for (IndexIterator it(starts); !it.done(); it.Next()) {
        int64_t base = 0;
        for (int d = 0; d < 3; ++d) base += it.index()[d] * strides[d];
        std::vector<std::pair<int32_t, int32_t>> row;
        for (int64_t k = 0; k < shape[axis]; ++k) {
          const int64_t at = base + k * strides[axis];
          row.push_back({want_keys[at], want_payload[at]});
        }
        std::stable_sort(row.begin(), row.end(), [&](const auto& a, const auto& b) {
          return direction == "LT" ? a.first < b.first : a.first > b.first;
        });
        for (int64_t k = 0; k < shape[axis]; ++k) {
          want_keys[base + k * strides[axis]] = row[k].first;
          want_payload[base + k * strides[axis]] = row[k].second;
        }
      }
      EXPECT_EQ(Values<ET::kSI32>(got[0]), want_keys) << dimension << " " << direction;
      EXPECT_EQ(Values<ET::kSI32>(got[1]), want_payload) << dimension << " " << direction;
    }
  }
}

// totalOrder: -NaN < -Inf < -1 < -0 < +0 < 1 < Inf < NaN, and a stable sort
// keeps the payload of equal keys in order.
TEST(CpuSortTest, TotalOrderPlacesNaNAndZeros) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  Tensor keys = Make<ET::kF32>({8}, {1.f, nan, -0.f, -inf, 0.f, -nan, -1.f, inf});
  Tensor payload = Make<ET::kSI32>({8}, {0, 1, 2, 3, 4, 5, 6, 7});
  std::vector<Tensor> got =
      RunAll(SortCase({keys, payload}, 0, true, Comparator("LT", {ET::kF32, ET::kSI32}, true)));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(Values<ET::kSI32>(got[1]), (std::vector<int32_t>{5, 3, 6, 2, 4, 0, 7, 1}));
}

// FLOAT comparisons: -0 and +0 are equal (stable ties); with a NaN the
// comparator is no strict weak order and the result is some permutation.
TEST(CpuSortTest, FloatComparisonZerosTieAndNaNsPermute) {
  Tensor keys = Make<ET::kF32>({5}, {0.f, 2.f, -0.f, 1.f, 0.f});
  Tensor payload = Make<ET::kSI32>({5}, {0, 1, 2, 3, 4});
  std::vector<Tensor> got =
      RunAll(SortCase({keys, payload}, 0, true, Comparator("LT", {ET::kF32, ET::kSI32})));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(Values<ET::kSI32>(got[1]), (std::vector<int32_t>{0, 2, 4, 3, 1}));

  std::mt19937_64 rng(1);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> values(300);
  for (float& v : values) v = (rng() % 4 == 0) ? nan : static_cast<float>(rng() % 50);
  std::vector<int32_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  for (bool hidden : {false, true}) {
    got = RunAll(SortCase({Make<ET::kF32>({300}, values), Make<ET::kSI32>({300}, order)}, 0, false,
                          Comparator("GT", {ET::kF32, ET::kSI32}, false, hidden)));
    ASSERT_EQ(got.size(), 2u);
    std::vector<int32_t> permutation = Values<ET::kSI32>(got[1]);
    std::vector<float> sorted_keys = Values<ET::kF32>(got[0]);
    for (size_t k = 0; k < permutation.size(); ++k) {
      ASSERT_TRUE(permutation[k] >= 0 && permutation[k] < 300);
      const float want = values[permutation[k]];
      EXPECT_TRUE(std::isnan(want) ? std::isnan(sorted_keys[k]) : sorted_keys[k] == want);
    }
    std::sort(permutation.begin(), permutation.end());
    EXPECT_EQ(permutation, order) << "not a permutation";
  }
}

// A comparator that is no order at all (NE) still gives a permutation.
TEST(CpuSortTest, NoOrderStillPermutes) {
  std::mt19937_64 rng(2);
  Tensor keys = RandomInts({257}, 0, 5, rng);
  std::vector<int32_t> order(257);
  std::iota(order.begin(), order.end(), 0);
  std::vector<Tensor> got = RunAll(SortCase({keys, Make<ET::kSI32>({257}, order)}, 0, false,
                                            Comparator("NE", {ET::kSI32, ET::kSI32})));
  ASSERT_EQ(got.size(), 2u);
  std::vector<int32_t> permutation = Values<ET::kSI32>(got[1]);
  std::sort(permutation.begin(), permutation.end());
  EXPECT_EQ(permutation, order);
}

template <ElementType T>
void CheckKeySortMatchesEvaluator(std::mt19937_64& rng) {
  const Shape shape = {7, 300};
  Tensor keys = RandomElements<T>(shape, rng);
  Tensor payload = RandomElements<ET::kF16>(shape, rng);
  const std::vector<bool> orders =
      IsFloat(T) ? std::vector<bool>{false, true} : std::vector<bool>{false};
  for (bool total : orders) {
    for (const std::string direction : {"LT", "GT"}) {
      for (int64_t dimension : {0, 1}) {
        const std::string what = std::string(Name(T)) + " " + direction + (total ? " total" : "") +
                                 " along " + std::to_string(dimension);
        std::vector<Tensor> fast = RunAll(SortCase({keys, payload}, dimension, false,
                                                   Comparator(direction, {T, ET::kF16}, total)));
        std::vector<Tensor> general = RunAll(SortCase(
            {keys, payload}, dimension, false, Comparator(direction, {T, ET::kF16}, total, true)));
        ASSERT_EQ(fast.size(), 2u) << what;
        ASSERT_EQ(general.size(), 2u) << what;
        EXPECT_TRUE(fast[0] == general[0]) << what;
        EXPECT_TRUE(fast[1] == general[1]) << what;
      }
    }
  }
}

// The key sort and the evaluator both sort stably, and on NaN keys both
// run the same merge sort on the same answers: they agree byte for byte.
TEST(CpuSortTest, KeySortMatchesTheEvaluator) {
  std::mt19937_64 rng(4);
  CheckKeySortMatchesEvaluator<ET::kI1>(rng);
  CheckKeySortMatchesEvaluator<ET::kSI2>(rng);
  CheckKeySortMatchesEvaluator<ET::kSI16>(rng);
  CheckKeySortMatchesEvaluator<ET::kSI64>(rng);
  CheckKeySortMatchesEvaluator<ET::kUI4>(rng);
  CheckKeySortMatchesEvaluator<ET::kUI32>(rng);
  CheckKeySortMatchesEvaluator<ET::kF4E2M1FN>(rng);
  CheckKeySortMatchesEvaluator<ET::kF8E4M3FNUZ>(rng);
  CheckKeySortMatchesEvaluator<ET::kF8E8M0FNU>(rng);
  CheckKeySortMatchesEvaluator<ET::kBF16>(rng);
  CheckKeySortMatchesEvaluator<ET::kF16>(rng);
  CheckKeySortMatchesEvaluator<ET::kF32>(rng);
  CheckKeySortMatchesEvaluator<ET::kF64>(rng);
}

// Complex keys have no compare LT fast path; a constant comparator (every
// pair equal) keeps the input order.
TEST(CpuSortTest, ConstantComparatorKeepsTheOrder) {
  BodyBuilder b({ET::kComplexF32, ET::kComplexF32});
  Tensor no(Shape{}, ET::kI1);
  Region never = b.Return({b.Op("constant", {}, ET::kI1, {{"value", no}})});
  Tensor keys = Make<ET::kComplexF32>({3}, {{3, 1}, {1, 2}, {2, 0}});
  std::vector<Tensor> got = RunAll(SortCase({keys}, 0, true, never));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0] == keys);
}

TEST(CpuSortTest, BadComparatorsAreInvalidOrUnsupported) {
  Tensor keys = Make<ET::kSI32>({3}, {3, 1, 2});
  // Returns an si32, not an i1.
  BodyBuilder b({ET::kSI32, ET::kSI32});
  Region not_bool = b.Return({b.Op("add", {0, 1}, ET::kSI32)});
  EXPECT_EQ(SharedAdapter().Run(SortCase({keys}, 0, true, not_bool)).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Takes the arguments of two inputs but sorts one.
  EXPECT_EQ(SharedAdapter()
                .Run(SortCase({keys}, 0, true, Comparator("LT", {ET::kSI32, ET::kSI32})))
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      SharedAdapter().Run(SortCase({keys}, 1, true, Comparator("LT", {ET::kSI32}))).status().code(),
      absl::StatusCode::kInvalidArgument);
  BodyBuilder unknown({ET::kSI32, ET::kSI32});
  Region odd = unknown.Return({unknown.Op("no_such_compare", {0, 1}, ET::kI1)});
  Case c = SortCase({keys}, 0, true, odd);
  EXPECT_FALSE(SharedAdapter().Supports(c).supported);
  EXPECT_EQ(SharedAdapter().Run(c).status().code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace hlocheck::cpu_test
