// Inputs that the libFuzzer targets of tests/fuzz (formula_fuzz, op_spec_fuzz)
// found to crash or misbehave, each kept as a test once fixed.
#include <gtest/gtest.h>

#include <string>

#include "spec/formula/evaluator.h"
#include "spec/formula/parser.h"

namespace hlocheck::spec {
namespace {

// range() checked its length as stop - start, which overflows int64 (undefined
// behaviour) when the bounds are far apart; the wrapped length passed the
// 2^24 limit and the loop went on to allocate ~2^63 elements.
TEST(FuzzFindingsTest, RangeWithFarApartBoundsIsTooLarge) {
  Evaluator evaluator;
  for (const char* formula :
       {"range(-9223372036854775807, 9223372036854775807)", "range(-9223372036854775807 - 1, 1)",
        "range(-2, 9223372036854775807)"}) {
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

std::string Repeat(const std::string& part, int times) {
  std::string text;
  for (int i = 0; i < times; ++i) text += part;
  return text;
}

// The parser recursed once per nesting level without a limit: 607 '[' (the
// fuzzer's input) overflowed the stack under ASan, and a long operator chain,
// parsed in a loop, made a tree as deep as the chain, which the evaluator and
// the tree's destructor then recursed through. Nesting is now an error past
// 256 levels, at the offset where it happens.
TEST(FuzzFindingsTest, DeepNestingIsAParseError) {
  for (const std::string& formula :
       {Repeat("[", 607) + "1" + Repeat("]", 607), Repeat("(", 5000) + "1" + Repeat(")", 5000),
        "1" + Repeat(" + 1", 20000), Repeat("-", 20000) + "1", Repeat("not ", 20000) + "true",
        "x" + Repeat("[0]", 20000), "f" + Repeat("()", 20000),
        Repeat("1 if true else ", 20000) + "0"}) {
    ParseError error;
    auto expr = ParseFormula(formula, &error);
    ASSERT_FALSE(expr.ok()) << formula.substr(0, 40);
    EXPECT_NE(error.message.find("nested more than 256 levels"), std::string::npos)
        << formula.substr(0, 40) << ": " << error.message;
    EXPECT_GT(error.offset, 0);
    EXPECT_LT(error.offset, static_cast<int>(formula.size()));
  }
  // Nesting as deep as any spec formula's, and much deeper, still parses and evaluates.
  Evaluator evaluator;
  auto nested = evaluator.EvaluateText(Repeat("[", 60) + "1" + Repeat("]", 60));
  ASSERT_TRUE(nested.ok()) << nested.status();
  auto chain = evaluator.EvaluateText("0" + Repeat(" + 1", 100));
  ASSERT_TRUE(chain.ok()) << chain.status();
  EXPECT_EQ(*chain, Value(int64_t{100}));
  auto negations = evaluator.EvaluateText(Repeat("-", 100) + "7");
  ASSERT_TRUE(negations.ok()) << negations.status();
  EXPECT_EQ(*negations, Value(int64_t{7}));
}

}  // namespace
}  // namespace hlocheck::spec
