// The oracle attaches each result's allowed ULP distance from the op's YAML,
// and the comparison holds a backend to exactly that bound.
#include <gtest/gtest.h>

#include <cmath>

#include "oracle/compare.h"
#include "tests/oracle/elementwise_test_util.h"

namespace hlocheck::testing {
namespace {

TEST(AllowedUlpTest, ComputeFillsTheBoundFromTheYamlOfEachResultType) {
  const spec::OpSpec* exp = (*spec::DefaultRegistry())->Find("exponential");
  ASSERT_NE(exp, nullptr);
  for (ElementType type : {ElementType::kF32, ElementType::kF64, ElementType::kBF16}) {
    Tensor x(Shape{2}, type);
    ResultExpectation e = RunSame("exponential", {x});
    EXPECT_EQ(e.check, Check::kUlp) << Name(type);
    EXPECT_EQ(e.allowed_ulp, exp->numerics.AllowedUlp(type)) << Name(type);
  }
  // f32 exponentials may be off (the faulty-backend tests rely on it).
  EXPECT_GT(exp->numerics.AllowedUlp(ElementType::kF32), 0);
}

TEST(AllowedUlpTest, CompareResultHoldsTheBackendToTheAttachedBound) {
  ResultExpectation e = RunSame("exponential", {Vector<ElementType::kF32>({1.0f})});
  ASSERT_GT(e.allowed_ulp, 0);
  const float reference = e.reference.values<ElementType::kF32>()[0];
  Tensor one_off = Vector<ElementType::kF32>({std::nextafter(reference, 10.0f)});
  EXPECT_TRUE(CompareResult(e, one_off).ok());
  ResultComparison strict_view = [&] {
    ResultExpectation strict = e;
    strict.allowed_ulp = 0;
    return CompareResult(strict, one_off);
  }();
  EXPECT_FALSE(strict_view.ok());
  ASSERT_EQ(strict_view.first_mismatches.size(), 1u);
  EXPECT_EQ(strict_view.first_mismatches[0].ulp, 1);
  EXPECT_EQ(strict_view.first_mismatches[0].allowed, "correctly rounded (0 ULP)");
  // Beyond the bound, the text says by how much.
  float far = reference;
  for (int i = 0; i <= e.allowed_ulp; ++i) far = std::nextafter(far, 10.0f);
  ResultComparison beyond = CompareResult(e, Vector<ElementType::kF32>({far}));
  ASSERT_EQ(beyond.first_mismatches.size(), 1u);
  EXPECT_EQ(beyond.first_mismatches[0].allowed, "<= " + std::to_string(e.allowed_ulp) +
                                                    " ULP (was " +
                                                    std::to_string(e.allowed_ulp + 1) + ")");
}

// The farthest element is kept whether or not it passes: it is how close a
// backend comes to its bound, and the gate reports it with its case.
TEST(AllowedUlpTest, CompareResultKeepsTheFarthestElement) {
  ResultExpectation e =
      RunSame("exponential", {Vector<ElementType::kF32>({0.5f, 1.0f, 2.0f, 3.0f})});
  ASSERT_GT(e.allowed_ulp, 0);
  auto reference = e.reference.values<ElementType::kF32>();
  auto step = [](float x, int ulps) {
    for (int i = 0; i < ulps; ++i) x = std::nextafter(x, 100.0f);
    return x;
  };
  Tensor exact = e.reference;
  EXPECT_EQ(CompareResult(e, exact).worst.index, -1) << "nothing is off: no worst element";

  Tensor off = Vector<ElementType::kF32>(
      {reference[0], step(reference[1], 1), reference[2], step(reference[3], e.allowed_ulp)});
  ResultComparison within = CompareResult(e, off);
  EXPECT_TRUE(within.ok());
  EXPECT_EQ(within.worst.index, 3);
  EXPECT_EQ(within.worst.ulp, e.allowed_ulp);
  EXPECT_EQ(within.worst.allowed, std::to_string(e.allowed_ulp) + " ULP");

  Tensor beyond_first = Vector<ElementType::kF32>(
      {step(reference[0], e.allowed_ulp + 2), reference[1], reference[2], reference[3]});
  ResultComparison beyond = CompareResult(e, beyond_first);
  EXPECT_FALSE(beyond.ok());
  EXPECT_EQ(beyond.worst.index, 0);
  EXPECT_EQ(beyond.worst.ulp, e.allowed_ulp + 2);
}

}  // namespace
// A boolean byte other than 0 or 1 prints as "true" like 1 does: the
// mismatch says what the backend stored, so "expected true, got true" never
// stands alone.
TEST(AllowedUlpTest, ABooleanStoredAsAnotherByteSaysSo) {
  ResultExpectation e;
  e.reference = Tensor({2}, ElementType::kI1);
  e.reference.values<ElementType::kI1>()[0] = 1;
  Tensor actual({2}, ElementType::kI1);
  actual.values<ElementType::kI1>()[0] = 2;
  ResultComparison c = CompareResult(e, actual);
  ASSERT_EQ(c.mismatches, 1);
  ASSERT_EQ(c.first_mismatches.size(), 1u);
  EXPECT_EQ(c.first_mismatches[0].expected, "true");
  EXPECT_EQ(c.first_mismatches[0].actual, "true (stored as the byte 2, not 0 or 1)");
}

}  // namespace hlocheck::testing
