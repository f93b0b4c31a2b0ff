// sort on the oracle: the spec's example, the public interpreter's
// sort.mlir, and targeted cases checked against std::stable_sort, written
// independently of the oracle. The freedom the spec leaves (the order of
// ties of an unstable sort) is checked through CompareResults: every allowed
// answer passes, a wrong one fails.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "tests/oracle/oracle_test_util.h"

namespace hlocheck {
namespace {

using testing::Literal;
using testing::PassesExactly;
using testing::References;
using testing::RegionOf;
using testing::RunOk;
using testing::SortCase;
using testing::TheOracle;

// ---------------------------------------------------------------- sort

// comparator(lhs0, rhs0, lhs1, rhs1, ...) that compares input `which` only.
Region CompareInput(const std::vector<std::string>& element_types, size_t which,
                    const std::string& direction, const std::string& compare_type = "") {
  std::vector<std::string> arguments;
  for (const std::string& e : element_types) {
    arguments.push_back("tensor<" + e + ">");
    arguments.push_back("tensor<" + e + ">");
  }
  const std::string t = "tensor<" + element_types[which] + ">";
  std::string body = "  %p = stablehlo.compare " + direction + ", %a" + std::to_string(2 * which) +
                     ", %a" + std::to_string(2 * which + 1) +
                     (compare_type.empty() ? "" : ", " + compare_type) + " : (" + t + ", " + t +
                     ") -> tensor<i1>\n  func.return %p : tensor<i1>";
  return RegionOf(arguments, "tensor<i1>", body);
}

TEST(SortTest, SpecExample) {
  Case c = SortCase({Literal("dense<[[1, 2, 3], [3, 2, 1]]> : tensor<2x3xi64>"),
                     Literal("dense<[[3, 2, 1], [1, 2, 3]]> : tensor<2x3xi64>")},
                    0, true, CompareInput({"i64", "i64"}, 0, "GT"));
  auto e = RunOk(c);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].reference, Literal("dense<[[3, 2, 3], [1, 2, 1]]> : tensor<2x3xi64>"));
  EXPECT_EQ(e[1].reference, Literal("dense<[[1, 2, 1], [3, 2, 3]]> : tensor<2x3xi64>"));
  EXPECT_EQ(e[0].permutable, nullptr);
}

TEST(SortTest, NegativeDimensionCountsFromTheEnd) {
  Tensor keys = Literal("dense<[[3, 1, 2], [0, 5, 4]]> : tensor<2x3xi32>");
  auto minus_one = RunOk(SortCase({keys}, -1, true, CompareInput({"i32"}, 0, "LT")));
  auto one = RunOk(SortCase({keys}, 1, true, CompareInput({"i32"}, 0, "LT")));
  ASSERT_EQ(minus_one.size(), 1u);
  EXPECT_EQ(minus_one[0].reference, Literal("dense<[[1, 2, 3], [0, 4, 5]]> : tensor<2x3xi32>"));
  EXPECT_EQ(minus_one[0].reference, one[0].reference);
  auto minus_two = RunOk(SortCase({keys}, -2, true, CompareInput({"i32"}, 0, "LT")));
  EXPECT_EQ(minus_two[0].reference, Literal("dense<[[0, 1, 2], [3, 5, 4]]> : tensor<2x3xi32>"));
}

TEST(SortTest, StableKeepsTiesInOrderUnstableAcceptsAnyConsistentOrder) {
  Tensor keys = Literal("dense<[2, 1, 2, 1, 3]> : tensor<5xi32>");
  Tensor values = Literal("dense<[10, 11, 12, 13, 14]> : tensor<5xi32>");
  Region by_key = CompareInput({"i32", "i32"}, 0, "LT");
  auto stable = RunOk(SortCase({keys, values}, 0, true, by_key));
  ASSERT_EQ(stable.size(), 2u);
  EXPECT_EQ(stable[0].reference, Literal("dense<[1, 1, 2, 2, 3]> : tensor<5xi32>"));
  EXPECT_EQ(stable[1].reference, Literal("dense<[11, 13, 10, 12, 14]> : tensor<5xi32>"));
  EXPECT_EQ(stable[0].permutable, nullptr);
  Tensor swapped = Literal("dense<[13, 11, 12, 10, 14]> : tensor<5xi32>");
  EXPECT_FALSE(PassesExactly(stable, {stable[0].reference, swapped}));

  auto unstable = RunOk(SortCase({keys, values}, 0, false, by_key));
  ASSERT_EQ(unstable.size(), 2u);
  ASSERT_NE(unstable[0].permutable, nullptr);
  EXPECT_EQ(unstable[0].permutable, unstable[1].permutable);
  EXPECT_EQ(unstable[0].reference, stable[0].reference);
  EXPECT_TRUE(PassesExactly(unstable, References(unstable)));
  EXPECT_TRUE(PassesExactly(unstable, {unstable[0].reference, swapped}));
  // A dropped or duplicated element, or a tie moved out of its run, fails.
  EXPECT_FALSE(PassesExactly(
      unstable, {unstable[0].reference, Literal("dense<[11, 11, 10, 12, 14]> : tensor<5xi32>")}));
  EXPECT_FALSE(PassesExactly(
      unstable, {unstable[0].reference, Literal("dense<[11, 10, 13, 12, 14]> : tensor<5xi32>")}));
  EXPECT_FALSE(PassesExactly(
      unstable, {Literal("dense<[1, 2, 1, 2, 3]> : tensor<5xi32>"), unstable[1].reference}));
}

TEST(SortTest, UnstableTiesMustBeReorderedTogether) {
  // -0 and +0 are equivalent under LT but different elements: the key and
  // the value must move together.
  Tensor keys = Literal("dense<[0.0, -0.0, -1.0]> : tensor<3xf32>");
  Tensor values = Literal("dense<[1, 2, 3]> : tensor<3xi32>");
  auto e = RunOk(SortCase({keys, values}, 0, false, CompareInput({"f32", "i32"}, 0, "LT")));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].reference, Literal("dense<[-1.0, 0.0, -0.0]> : tensor<3xf32>"));
  EXPECT_TRUE(PassesExactly(e, References(e)));
  Tensor other_keys = Literal("dense<[-1.0, -0.0, 0.0]> : tensor<3xf32>");
  EXPECT_TRUE(PassesExactly(e, {other_keys, Literal("dense<[3, 2, 1]> : tensor<3xi32>")}));
  // Each result alone is a valid reordering, but not the same one.
  EXPECT_TRUE(CompareResult(e[0], other_keys).ok());
  EXPECT_TRUE(CompareResult(e[1], e[1].reference).ok());
  EXPECT_FALSE(PassesExactly(e, {other_keys, e[1].reference}));
}

TEST(SortTest, CustomComparatorOnTheSecondInput) {
  Tensor a = Literal("dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>");
  Tensor b = Literal("dense<[[0.5, -2.0, 7.0], [3.0, 3.5, -1.0]]> : tensor<2x3xf32>");
  auto e = RunOk(SortCase({a, b}, 1, true, CompareInput({"i8", "f32"}, 1, "GT")));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].reference, Literal("dense<[[3, 1, 2], [5, 4, 6]]> : tensor<2x3xi8>"));
  EXPECT_EQ(e[1].reference,
            Literal("dense<[[7.0, 0.5, -2.0], [3.5, 3.0, -1.0]]> : tensor<2x3xf32>"));
}

// IEEE totalOrder position of an f32, computed from its bits.
int64_t TotalOrder(float x) {
  int32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits < 0 ? -static_cast<int64_t>(bits & 0x7fffffff) - 1 : bits;
}

TEST(SortTest, DescendingTotalOrderWithNaNs) {
  const float nan = std::nanf("");
  std::vector<float> in = {1.0f, -nan,  -INFINITY, -0.0f,  0.0f,   nan,
                           3.0f, -2.5f, INFINITY,  1e-45f, -1e-45f};
  Tensor keys(Shape{static_cast<int64_t>(in.size())}, ElementType::kF32);
  std::copy(in.begin(), in.end(), keys.values<ElementType::kF32>().begin());
  for (bool stable : {true, false}) {
    auto e = RunOk(SortCase({keys}, 0, stable, CompareInput({"f32"}, 0, "GT", "TOTALORDER")));
    ASSERT_EQ(e.size(), 1u);
    // totalOrder is a total order: no ties, so nothing is permutable.
    EXPECT_EQ(e[0].permutable, nullptr);
    std::vector<float> expected = in;
    std::stable_sort(expected.begin(), expected.end(),
                     [](float x, float y) { return TotalOrder(x) > TotalOrder(y); });
    auto got = e[0].reference.values<ElementType::kF32>();
    for (size_t i = 0; i < in.size(); ++i) {
      EXPECT_EQ(TotalOrder(got[i]), TotalOrder(expected[i])) << i;
    }
    EXPECT_TRUE(std::isnan(got[0]) && !std::signbit(got[0]));
    EXPECT_TRUE(std::isnan(got[in.size() - 1]) && std::signbit(got[in.size() - 1]));
  }
}

TEST(SortTest, ComparatorThatIsNotAStrictWeakOrderAcceptsAnyPermutation) {
  // LT with NaN: NaN is "equivalent" to every number, so the order is
  // undefined; any permutation of the slice passes, a lost element does not.
  Tensor keys = Literal("dense<[2.0, 0x7FC00000, 1.0]> : tensor<3xf32>");
  auto e = RunOk(SortCase({keys}, 0, true, CompareInput({"f32"}, 0, "LT")));
  ASSERT_EQ(e.size(), 1u);
  ASSERT_NE(e[0].permutable, nullptr);
  EXPECT_NE(e[0].permutable->reason.find("strict weak order"), std::string::npos);
  EXPECT_TRUE(CompareResult(e[0], Literal("dense<[1.0, 2.0, 0x7FC00000]> : tensor<3xf32>")).ok());
  EXPECT_FALSE(CompareResult(e[0], Literal("dense<[1.0, 1.0, 0x7FC00000]> : tensor<3xf32>")).ok());
}

// A long slice (beyond the all-pairs check) where GT with a NaN joins
// elements that are not equivalent into one run of neighbours: [1.0, 0 x23,
// NaN, 1.0, 0 x3] sorts (merge sort) with the second 1.0 after the NaN,
// among the zeros. The run's ends tell; any permutation is then accepted.
// (XLA:CPU's answer to this case, from hlocheck's run, failed before.)
TEST(SortTest, ALongSliceWhoseComparatorIsNotAStrictWeakOrderAcceptsAnyPermutation) {
  std::vector<float> in(40, 0.0f);
  in[24] = std::nanf("");
  in[25] = 1.0f;
  in[39] = 1.0f;
  Tensor keys(Shape{40}, ElementType::kF32);
  std::copy(in.begin(), in.end(), keys.values<ElementType::kF32>().begin());
  auto e = RunOk(SortCase({keys}, 0, false, CompareInput({"f32"}, 0, "GT")));
  ASSERT_EQ(e.size(), 1u);
  ASSERT_NE(e[0].permutable, nullptr);
  EXPECT_NE(e[0].permutable->reason.find("strict weak order"), std::string::npos)
      << e[0].permutable->reason;
  // The input itself, unsorted, is one of the accepted permutations.
  EXPECT_TRUE(CompareResult(e[0], keys).ok());
}

// compare of the FNUZ NaN under TOTALORDER is left open by the spec (the
// NaN is the -0 pattern and has no sign), so a sort by it may put the NaN
// anywhere in its slice; a slice without it keeps its one order.
TEST(SortTest, TheFnuzNaNUnderTotalOrderMayGoAnywhere) {
  Region gt = CompareInput({"f8E4M3B11FNUZ"}, 0, "GT", "TOTALORDER");
  Tensor keys =
      Literal("dense<[[0.0, 0.75], [-1.0, 0.5], [0x80, 0.25]]> : tensor<3x2xf8E4M3B11FNUZ>");
  auto e = RunOk(SortCase({keys}, 0, true, gt));
  ASSERT_EQ(e.size(), 1u);
  ASSERT_NE(e[0].permutable, nullptr);
  EXPECT_NE(e[0].permutable->reason.find("left open"), std::string::npos)
      << e[0].permutable->reason;
  // XLA:CPU's order (the NaN last) and the oracle's (the NaN below +0) both pass.
  EXPECT_TRUE(CompareResult(e[0], Literal("dense<[[0.0, 0.75], [-1.0, 0.5], [0x80, 0.25]]> : "
                                          "tensor<3x2xf8E4M3B11FNUZ>"))
                  .ok());
  EXPECT_TRUE(CompareResult(e[0], Literal("dense<[[0.0, 0.75], [0x80, 0.5], [-1.0, 0.25]]> : "
                                          "tensor<3x2xf8E4M3B11FNUZ>"))
                  .ok());
  // The second column holds no NaN: its order is fixed.
  EXPECT_FALSE(CompareResult(e[0], Literal("dense<[[0.0, 0.5], [-1.0, 0.75], [0x80, 0.25]]> : "
                                           "tensor<3x2xf8E4M3B11FNUZ>"))
                   .ok());
}

TEST(SortTest, EmptyAndUnitSlices) {
  Region lt = CompareInput({"i32"}, 0, "LT");
  auto empty = RunOk(SortCase({Tensor(Shape{2, 0}, ElementType::kSI32)}, 1, false, lt));
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_EQ(empty[0].reference.num_elements(), 0);
  auto unit = RunOk(SortCase({Literal("dense<[[5], [4]]> : tensor<2x1xi32>")}, 1, false, lt));
  EXPECT_EQ(unit[0].reference, Literal("dense<[[5], [4]]> : tensor<2x1xi32>"));
}

// Property: a comparator that is one compare of the keys is not
// interpreted but compared with compare's own function (sort's oracle
// spends most of its time there otherwise); the expectation is the
// interpreted comparator's, to the byte and the run, for every direction
// and comparison type, on random bit patterns (NaN, infinities, signed zeros
// and the FNUZ NaN among them). The interpreted one is the same compare
// followed by and(p, p), which the oracle does not recognise.
RC_GTEST_PROP(SortProperty, ARecognisedComparatorGivesTheInterpretedOnesExpectation, ()) {
  struct Type {
    std::string name;
    ElementType type;
    std::vector<std::string> compare_types;
  };
  const std::vector<Type> types = {
      {"i8", ElementType::kSI8, {"", "SIGNED"}},
      {"ui16", ElementType::kUI16, {"", "UNSIGNED"}},
      {"i1", ElementType::kI1, {""}},
      {"f32", ElementType::kF32, {"", "FLOAT", "TOTALORDER"}},
      {"bf16", ElementType::kBF16, {"FLOAT", "TOTALORDER"}},
      {"f8E4M3B11FNUZ", ElementType::kF8E4M3B11FNUZ, {"FLOAT", "TOTALORDER"}},
      {"complex<f32>", ElementType::kComplexF32, {"", "FLOAT"}}};
  const Type& t = *rc::gen::elementOf(types);
  const std::string direction = *rc::gen::element<std::string>("LT", "GT", "LE", "GE", "EQ", "NE");
  const std::string compare_type = *rc::gen::elementOf(t.compare_types);
  const bool swapped = *rc::gen::arbitrary<bool>();
  const bool stable = *rc::gen::arbitrary<bool>();
  const Shape shape = {testing::Uniform<int64_t>(1, 3), testing::Uniform<int64_t>(0, 40)};
  Tensor keys(shape, t.type);
  for (std::byte& b : keys.bytes()) {
    const auto random = *rc::gen::arbitrary<uint8_t>();
    b = static_cast<std::byte>(t.type == ElementType::kI1 ? random & 1 : random);  // i1: 0 or 1
  }
  const Tensor values = testing::Numbered(shape);
  const std::string k = "tensor<" + t.name + ">";
  auto comparator = [&](bool hidden) {
    const std::string compare = "  %p = stablehlo.compare " + direction + ", " +
                                (swapped ? "%a1, %a0" : "%a0, %a1") +
                                (compare_type.empty() ? "" : ", " + compare_type) + " : (" + k +
                                ", " + k + ") -> tensor<i1>\n";
    return RegionOf({k, k, "tensor<i32>", "tensor<i32>"}, "tensor<i1>",
                    hidden ? compare +
                                 "  %q = stablehlo.and %p, %p : tensor<i1>\n"
                                 "  func.return %q : tensor<i1>"
                           : compare + "  func.return %p : tensor<i1>");
  };
  const auto direct = TheOracle().Run(SortCase({keys, values}, 1, stable, comparator(false)));
  const auto interpreted = TheOracle().Run(SortCase({keys, values}, 1, stable, comparator(true)));
  RC_ASSERT(direct.ok() && interpreted.ok());
  RC_ASSERT(direct->size() == 2u && interpreted->size() == 2u);
  for (size_t r = 0; r < 2; ++r) {
    const ResultExpectation& a = (*direct)[r];
    const ResultExpectation& b = (*interpreted)[r];
    RC_ASSERT(a.reference.bytes().size() == b.reference.bytes().size());
    RC_ASSERT(std::equal(a.reference.bytes().begin(), a.reference.bytes().end(),
                         b.reference.bytes().begin()));
    RC_ASSERT((a.permutable == nullptr) == (b.permutable == nullptr));
    if (a.permutable != nullptr) {
      RC_ASSERT(a.permutable->run == b.permutable->run);
      RC_ASSERT(a.permutable->reason == b.permutable->reason);
    }
  }
}

// Random keys with many ties, sorted along a random dimension, against
// std::stable_sort; the unstable sort accepts the tie-respecting reversal.
RC_GTEST_PROP(SortProperty, MatchesStableSortAndAcceptsReorderedTies, ()) {
  const Shape shape = {testing::Uniform<int64_t>(1, 4), testing::Uniform<int64_t>(1, 6)};
  const int64_t dimension = testing::Uniform<int64_t>(-2, 2);
  const bool stable = *rc::gen::arbitrary<bool>();
  Tensor keys(shape, ElementType::kSI32), values = testing::Numbered(shape);
  for (auto& k : keys.values<ElementType::kSI32>()) k = testing::Uniform<int32_t>(0, 3);
  auto e = TheOracle().Run(
      SortCase({keys, values}, dimension, stable, CompareInput({"i32", "i32"}, 0, "LT")));
  RC_ASSERT(e.ok());
  const int64_t d = dimension < 0 ? dimension + 2 : dimension;
  const int64_t n = shape[d], stride = d == 0 ? shape[1] : 1, other = shape[1 - d];
  Tensor expected_keys = keys, expected_values = values, reversed_values = values;
  auto k_in = keys.values<ElementType::kSI32>();
  auto v_in = values.values<ElementType::kSI32>();
  for (int64_t s = 0; s < other; ++s) {
    const int64_t base = d == 0 ? s : s * shape[1];
    std::vector<std::pair<int32_t, int32_t>> slice, reversed;
    for (int64_t k = 0; k < n; ++k)
      slice.push_back({k_in[base + k * stride], v_in[base + k * stride]});
    reversed = slice;
    std::stable_sort(slice.begin(), slice.end(), [](auto x, auto y) { return x.first < y.first; });
    // Ties in the opposite order: a valid unstable result.
    std::reverse(reversed.begin(), reversed.end());
    std::stable_sort(reversed.begin(), reversed.end(),
                     [](auto x, auto y) { return x.first < y.first; });
    for (int64_t k = 0; k < n; ++k) {
      expected_keys.values<ElementType::kSI32>()[base + k * stride] = slice[k].first;
      expected_values.values<ElementType::kSI32>()[base + k * stride] = slice[k].second;
      reversed_values.values<ElementType::kSI32>()[base + k * stride] = reversed[k].second;
    }
  }
  RC_ASSERT((*e)[0].reference == expected_keys);
  RC_ASSERT((*e)[1].reference == expected_values);
  const bool ties_reversed_differ = !(reversed_values == expected_values);
  RC_ASSERT(PassesExactly(*e, {expected_keys, reversed_values}) ==
            (!stable || !ties_reversed_differ));
}

}  // namespace
}  // namespace hlocheck
