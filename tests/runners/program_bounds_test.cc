// Bounds carried past freedom through sums and contractions
// (runners/program_bounds.h): sound — whatever point of the operands' boxes
// a backend met, every value the oracle allows it there lies within the
// carried bound — and not vacuous: they are carried where nothing overflows.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "core/element_value.h"
#include "core/exact_value.h"
#include "oracle/oracle.h"
#include "runners/program_bounds.h"
#include "tests/oracle/oracle_test_util.h"
#include "tests/support/case_builders.h"

namespace hlocheck {
namespace {

const Oracle& TheOracle() {
  static Oracle* oracle = new Oracle(*spec::DefaultRegistry());
  return *oracle;
}

CaseCompute OracleCompute() {
  return [](const Case& c) { return TheOracle().Compute(c); };
}

// An f32 tensor of `shape` holding `values`.
Tensor F32(const Shape& shape, const std::vector<float>& values) {
  Tensor t(shape, ElementType::kF32);
  std::copy(values.begin(), values.end(), t.values<ElementType::kF32>().begin());
  return t;
}

// Random bounds on an f32 tensor: lower ends of moderate magnitude (a few
// zeros among them), widths from none (a fixed element) to a few units.
ElementBounds RandomBounds(const Shape& shape) {
  const int64_t n = Tensor(shape, ElementType::kF32).num_elements();
  std::vector<float> lo, hi;
  for (int64_t i = 0; i < n; ++i) {
    const float l = *rc::gen::oneOf(rc::gen::just(0.0f),
                                    rc::gen::map(rc::gen::inRange(-4000, 4000),
                                                 [](int x) { return static_cast<float>(x) / 64; }));
    const float w = *rc::gen::oneOf(
        rc::gen::just(0.0f),
        rc::gen::map(rc::gen::inRange(0, 300), [](int x) { return static_cast<float>(x) / 37; }));
    if (*rc::gen::inRange(0, 4) == 0) {  // around zero: signs change inside
      lo.push_back(-w / 3);
      hi.push_back(w / 2);
      continue;
    }
    lo.push_back(l);
    hi.push_back(l + w);  // rounded to nearest: still >= l
  }
  return {F32(shape, lo), F32(shape, hi), std::vector<uint8_t>(static_cast<size_t>(n), 1)};
}

// A point of the box: each element at an end, in between, or at zero
// where the interval holds it (where x != 0 and signs change).
Tensor PointIn(const ElementBounds& b) {
  Tensor point = b.lo;
  auto lo = b.lo.values<ElementType::kF32>();
  auto hi = b.hi.values<ElementType::kF32>();
  auto out = point.values<ElementType::kF32>();
  for (size_t i = 0; i < out.size(); ++i) {
    const int where = *rc::gen::inRange(0, 4);
    out[i] = where == 0 ? lo[i] : where == 1 ? hi[i] : lo[i] + (hi[i] - lo[i]) * 0.37f;
    if (where == 3 && lo[i] <= 0 && hi[i] >= 0) out[i] = 0;
    if (out[i] > hi[i]) out[i] = hi[i];
  }
  return point;
}

// Every f32 value the expectation allows at element i lies in [lo, hi].
void AssertAllowedWithin(const ResultExpectation& e, int64_t i, const ElementBounds& b) {
  const size_t k = static_cast<size_t>(i);
  RC_ASSERT(e.check == Check::kErrorBound);
  const long double center = static_cast<long double>(e.center_hi[k]) + e.center_lo[k];
  const float lo = b.lo.values<ElementType::kF32>()[k];
  const float hi = b.hi.values<ElementType::kF32>()[k];
  // The least and greatest f32 within the bound of the center.
  float least = static_cast<float>(center - e.bound[k]);
  if (least < center - e.bound[k]) least = std::nextafter(least, HUGE_VALF);
  float greatest = static_cast<float>(center + e.bound[k]);
  if (greatest > center + e.bound[k]) greatest = std::nextafter(greatest, -HUGE_VALF);
  RC_ASSERT(lo <= least);
  RC_ASSERT(greatest <= hi);
}

Case Dot(Tensor lhs, Tensor rhs, Shape result) {
  Case c;
  c.op = "dot_general";
  c.operands = {std::move(lhs), std::move(rhs)};
  c.attributes["lhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["rhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["lhs_contracting_dimensions"] = std::vector<int64_t>{1};
  c.attributes["rhs_contracting_dimensions"] = std::vector<int64_t>{0};
  c.result_types.push_back({std::move(result), ElementType::kF32});
  return c;
}

RC_GTEST_PROP(ProgramBoundsProperty, ContractionBoundsHoldEveryPointOfTheBox, ()) {
  const int64_t m = *rc::gen::inRange(1, 4);
  const int64_t k = *rc::gen::inRange(1, 5);
  const int64_t n = *rc::gen::inRange(1, 4);
  const ElementBounds x = RandomBounds(Shape{m, k});
  const ElementBounds y = RandomBounds(Shape{k, n});
  const Case c = Dot(x.lo, y.lo, Shape{m, n});
  const std::vector<ElementBounds> out =
      PropagateBounds(c, {x, y}, CornerPolicyOf("dot_general"), OracleCompute());
  RC_ASSERT(out.size() == 1u);
  for (uint8_t bounded : out[0].bounded) RC_ASSERT(bounded == 1);  // nothing overflows here
  for (int sample = 0; sample < 4; ++sample) {
    Case at = c;
    at.operands = {PointIn(x), PointIn(y)};
    auto e = TheOracle().Compute(at);
    RC_ASSERT(e.ok());
    for (int64_t i = 0; i < m * n; ++i) AssertAllowedWithin((*e)[0], i, out[0]);
  }
}

RC_GTEST_PROP(ProgramBoundsProperty, SumBoundsHoldEveryPointOfTheBox, ()) {
  const int64_t m = *rc::gen::inRange(1, 4);
  const int64_t k = *rc::gen::inRange(1, 7);
  const ElementBounds x = RandomBounds(Shape{m, k});
  const Tensor zero = F32(Shape{}, {0.0f});
  const Region add = testing::RegionOf(
      {"tensor<f32>", "tensor<f32>"}, "tensor<f32>",
      R"(%0 = "stablehlo.add"(%a0, %a1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  "func.return"(%0) : (tensor<f32>) -> ())");
  const Case c = testing::ReduceCase({x.lo}, {zero}, {1}, add);
  const std::vector<ElementBounds> out = PropagateBounds(c, {x, ElementBounds::Exact(zero)},
                                                         CornerPolicyOf("reduce"), OracleCompute());
  RC_ASSERT(out.size() == 1u);
  for (uint8_t bounded : out[0].bounded) RC_ASSERT(bounded == 1);
  for (int sample = 0; sample < 4; ++sample) {
    Case at = c;
    at.operands[0] = PointIn(x);
    auto e = TheOracle().Compute(at);
    RC_ASSERT(e.ok());
    for (int64_t i = 0; i < m; ++i) AssertAllowedWithin((*e)[0], i, out[0]);
  }
}

RC_GTEST_PROP(ProgramBoundsProperty, IntegerAndBooleanBoundsHoldEveryPointOfTheBox, ()) {
  const int64_t n = *rc::gen::inRange(1, 6);
  const ElementBounds x = RandomBounds(Shape{n});
  const ElementBounds y = RandomBounds(Shape{n});
  const int which = *rc::gen::inRange(0, 4);
  Case c;
  if (which < 2) {
    c = testing::MakeCase("convert", {x.lo},
                          {Shape{n}, which == 0 ? ElementType::kSI16 : ElementType::kI1});
  } else {
    c = testing::MakeCase("compare", {x.lo, y.lo}, {Shape{n}, ElementType::kI1});
    c.attributes["comparison_direction"] = EnumValue{which == 2 ? "LT" : "GE"};
  }
  std::vector<ElementBounds> operands = {x};
  if (which >= 2) operands.push_back(y);
  const std::vector<ElementBounds> out =
      PropagateBounds(c, operands, CornerPolicyOf(c.op), OracleCompute());
  RC_ASSERT(out.size() == 1u);
  for (int sample = 0; sample < 12; ++sample) {
    Case at = c;
    at.operands[0] = PointIn(x);
    if (which >= 2) at.operands[1] = PointIn(y);
    auto e = TheOracle().Compute(at);
    RC_ASSERT(e.ok());
    for (int64_t i = 0; i < n; ++i) {
      if ((*e)[0].FreeCount() > 0 && (*e)[0].free[static_cast<size_t>(i)]) continue;
      RC_ASSERT(out[0].Holds(i, (*e)[0].reference));
    }
  }
}

// The bound is tight enough to catch a wrong sum: [1, 2] + [10, 10] + [-3,
// -1] lies in [8, 11], and a backend's 12 is outside it.
TEST(ProgramBoundsTest, ASumOutsideTheCarriedBoundFails) {
  const Region add = testing::RegionOf(
      {"tensor<f32>", "tensor<f32>"}, "tensor<f32>",
      R"(%0 = "stablehlo.add"(%a0, %a1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  "func.return"(%0) : (tensor<f32>) -> ())");
  const ElementBounds x{F32(Shape{3}, {1, 10, -3}), F32(Shape{3}, {2, 10, -1}), {1, 1, 1}};
  const Tensor zero = F32(Shape{}, {0.0f});
  const Case c = testing::ReduceCase({x.lo}, {zero}, {0}, add);
  const std::vector<ElementBounds> out = PropagateBounds(c, {x, ElementBounds::Exact(zero)},
                                                         CornerPolicyOf("reduce"), OracleCompute());
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].bounded[0], 1);
  EXPECT_TRUE(out[0].Holds(0, F32(Shape{}, {8.0f})));
  EXPECT_TRUE(out[0].Holds(0, F32(Shape{}, {11.0f})));
  EXPECT_TRUE(out[0].Holds(0, F32(Shape{}, {9.5f})));
  EXPECT_FALSE(out[0].Holds(0, F32(Shape{}, {12.0f})));
  EXPECT_FALSE(out[0].Holds(0, F32(Shape{}, {7.5f})));
}

// x.y with x in [[1, 2], [-1, 0]] (one row, two columns) and y = [3, -2]
// fixed: the exact value ranges over [1*3 + 0*(-2) ... ] = [3 - 0, 6 + 2] =
// [3, 8]; with y in [[3, 4], [-2, -2]] too: up to 2*4 + 1*2 = 10.
TEST(ProgramBoundsTest, AContractionOfIntervalsIsBoundedByItsExtremes) {
  const ElementBounds x{F32(Shape{1, 2}, {1, -1}), F32(Shape{1, 2}, {2, 0}), {1, 1}};
  const ElementBounds fixed_y = ElementBounds::Exact(F32(Shape{2, 1}, {3, -2}));
  const Case c = Dot(x.lo, fixed_y.lo, Shape{1, 1});
  std::vector<ElementBounds> out =
      PropagateBounds(c, {x, fixed_y}, CornerPolicyOf("dot_general"), OracleCompute());
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].bounded[0], 1);
  // [3, 8] widened by the rounding a backend may do (a few ulps).
  auto near_below = [](float bound, float exact) {
    return bound <= exact && bound > exact - 1e-5f;
  };
  auto near_above = [](float bound, float exact) {
    return bound >= exact && bound < exact + 1e-5f;
  };
  EXPECT_TRUE(near_below(out[0].lo.values<ElementType::kF32>()[0], 3.0f));
  EXPECT_TRUE(near_above(out[0].hi.values<ElementType::kF32>()[0], 8.0f));
  const ElementBounds y{F32(Shape{2, 1}, {3, -2}), F32(Shape{2, 1}, {4, -2}), {1, 1}};
  out = PropagateBounds(c, {x, y}, CornerPolicyOf("dot_general"), OracleCompute());
  ASSERT_EQ(out[0].bounded[0], 1);
  EXPECT_TRUE(near_below(out[0].lo.values<ElementType::kF32>()[0], 3.0f));
  // 10 is the exact greatest; the sum of the terms' separate maxima
  // (6 + 2 + 1 * 1 + ...) may give a little more, never less.
  EXPECT_GE(out[0].hi.values<ElementType::kF32>()[0], 10.0f);
  EXPECT_LE(out[0].hi.values<ElementType::kF32>()[0], 12.0f);
  EXPECT_FALSE(out[0].Holds(0, F32(Shape{}, {13.0f})));
}

// Infinite ends bound nothing (inf - inf inside the box), nor does an
// algorithm (its centers are of rounded operands).
TEST(ProgramBoundsTest, InfiniteEndsAndAlgorithmsBoundNothing) {
  const ElementBounds x{F32(Shape{1, 2}, {1, -1}), F32(Shape{1, 2}, {HUGE_VALF, 0}), {1, 1}};
  const ElementBounds y = ElementBounds::Exact(F32(Shape{2, 1}, {3, -2}));
  Case c = Dot(x.lo, y.lo, Shape{1, 1});
  EXPECT_EQ(
      PropagateBounds(c, {x, y}, CornerPolicyOf("dot_general"), OracleCompute())[0].bounded[0], 0);
  const ElementBounds finite{F32(Shape{1, 2}, {1, -1}), F32(Shape{1, 2}, {2, 0}), {1, 1}};
  testing::SetDotAlgorithm(c, "bf16", "f32", 1, 1);
  EXPECT_EQ(
      PropagateBounds(c, {finite, y}, CornerPolicyOf("dot_general"), OracleCompute())[0].bounded[0],
      0);
}

// Integer intervals: a conversion truncates monotonically, so [1.5, 7.9]
// becomes [1, 7]; to a boolean (x != 0) only an interval without zero, or
// zero alone, is bounded; a comparison where both extreme corners agree.
TEST(ProgramBoundsTest, ConversionsAndComparisonsCarryIntegerBounds) {
  const ElementBounds x{
      F32(Shape{3}, {1.5f, -0.5f, 0.0f}), F32(Shape{3}, {7.9f, 0.5f, 0.0f}), {1, 1, 1}};
  Case to_int = testing::MakeCase("convert", {x.lo}, {Shape{3}, ElementType::kSI32});
  std::vector<ElementBounds> out =
      PropagateBounds(to_int, {x}, CornerPolicyOf("convert"), OracleCompute());
  ASSERT_EQ(out[0].bounded, (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_EQ(out[0].lo.values<ElementType::kSI32>()[0], 1);
  EXPECT_EQ(out[0].hi.values<ElementType::kSI32>()[0], 7);
  Tensor five(Shape{3}, ElementType::kSI32);
  five.values<ElementType::kSI32>()[0] = 5;
  EXPECT_TRUE(out[0].Holds(0, five));
  five.values<ElementType::kSI32>()[0] = 8;
  EXPECT_FALSE(out[0].Holds(0, five));

  Case to_bool = testing::MakeCase("convert", {x.lo}, {Shape{3}, ElementType::kI1});
  out = PropagateBounds(to_bool, {x}, CornerPolicyOf("convert"), OracleCompute());
  EXPECT_EQ(out[0].bounded, (std::vector<uint8_t>{1, 0, 1}));  // [-0.5, 0.5] holds 0

  const ElementBounds y = ElementBounds::Exact(F32(Shape{3}, {8.0f, 0.25f, 1.0f}));
  Case less = testing::MakeCase("compare", {x.lo, y.lo}, {Shape{3}, ElementType::kI1});
  less.attributes["comparison_direction"] = EnumValue{"LT"};
  less.attributes["compare_type"] = EnumValue{"FLOAT"};
  out = PropagateBounds(less, {x, y}, CornerPolicyOf("compare"), OracleCompute());
  // [1.5, 7.9] < 8 always; [-0.5, 0.5] < 0.25 either way; 0 < 1 always.
  EXPECT_EQ(out[0].bounded, (std::vector<uint8_t>{1, 0, 1}));
  less.attributes["comparison_direction"] = EnumValue{"EQ"};
  out = PropagateBounds(less, {x, y}, CornerPolicyOf("compare"), OracleCompute());
  EXPECT_EQ(out[0].bounded, (std::vector<uint8_t>{0, 0, 0}));
}

}  // namespace
}  // namespace hlocheck
