// Inputs that the libFuzzer targets of tests/fuzz (formula_fuzz, op_spec_fuzz)
// found to crash or misbehave, each kept as a test once fixed.
#include <gtest/gtest.h>

#include "spec/formula/evaluator.h"

namespace hlocheck::spec {
namespace {

// range() checked its length as stop - start, which overflows int64 (undefined
// behaviour) when the bounds are far apart; the wrapped length passed the
// 2^24 limit and the loop went on to allocate ~2^63 elements.
TEST(FuzzFindingsTest, RangeWithFarApartBoundsIsTooLarge) {
  Evaluator evaluator;
  for (const char* formula : {"range(-9223372036854775807, 9223372036854775807)",
                              "range(-9223372036854775807 - 1, 1)", "range(-2, 9223372036854775807)"}) {
    auto value = evaluator.EvaluateText(formula);
    ASSERT_FALSE(value.ok()) << formula;
    EXPECT_NE(value.status().message().find("range() too large"), std::string::npos)
        << formula << ": " << value.status();
  }
  auto empty = evaluator.EvaluateText("range(9223372036854775807, -9223372036854775807)");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(*empty, Value::IntList({}));
  auto small = evaluator.EvaluateText("range(-2, 2)");
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_EQ(*small, Value::IntList({-2, -1, 0, 1}));
}

}  // namespace
}  // namespace hlocheck::spec
