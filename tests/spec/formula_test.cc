#include <gtest/gtest.h>

#include "spec/formula/evaluator.h"
#include "spec/formula/parser.h"

namespace hlocheck::spec {
namespace {

Value Eval(Evaluator& evaluator, const std::string& text) {
  auto value = evaluator.EvaluateText(text);
  EXPECT_TRUE(value.ok()) << text << ": " << value.status();
  return value.ok() ? *value : Value();
}

class FormulaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    evaluator_.SetMember("lhs", Value::TensorTypeValue({{4, 128, 256}, ElementType::kF32}));
    evaluator_.SetMember("rhs", Value::TensorTypeValue({{4, 256, 64}, ElementType::kF32}));
    evaluator_.SetMember("lhs_batching_dimensions", Value::IntList({0}));
    evaluator_.SetMember("lhs_contracting_dimensions", Value::IntList({2}));
    evaluator_.SetMember("rhs_batching_dimensions", Value::IntList({0}));
    evaluator_.SetMember("rhs_contracting_dimensions", Value::IntList({1}));
  }
  Evaluator evaluator_;
};

TEST_F(FormulaTest, EqualityIsEqualsSignAndChains) {
  EXPECT_TRUE(Eval(evaluator_, "rank(lhs) = rank(rhs) = 3").Holds());
  EXPECT_FALSE(Eval(evaluator_, "rank(lhs) = 3 = 4").Holds());
  EXPECT_TRUE(Eval(evaluator_, "element_type(lhs) = element_type(rhs)").Holds());
  EXPECT_TRUE(Eval(evaluator_, "baseline_type(lhs) != baseline_type(rhs)").Holds());
}

TEST_F(FormulaTest, EllipsisMapsOverALists) {
  EXPECT_EQ(Eval(evaluator_, "dim(lhs, lhs_contracting_dimensions...)"), Value::IntList({256}));
  EXPECT_TRUE(
      Eval(evaluator_,
           "dim(lhs, lhs_contracting_dimensions...) = dim(rhs, rhs_contracting_dimensions...)")
          .Holds());
  EXPECT_EQ(Eval(evaluator_, "dim(lhs, [2, 0, 1]...)"), Value::IntList({256, 4, 128}));
}

TEST_F(FormulaTest, ImplicitBroadcastingOfScalars) {
  EXPECT_TRUE(Eval(evaluator_, "0 <= lhs_batching_dimensions < rank(lhs)").Holds());
  EXPECT_FALSE(Eval(evaluator_, "0 <= [0, 3] < rank(lhs)").Holds());
  EXPECT_EQ(Eval(evaluator_, "shape(lhs) - 1"), Value::IntList({3, 127, 255}));
  EXPECT_EQ(Eval(evaluator_, "ceil(([5, 20, 50] - [0, 3, 0]) / [1, 7, 2])"),
            Value::IntList({5, 3, 25}));
}

TEST_F(FormulaTest, PlusConcatenatesListsAndAddIsElementWise) {
  EXPECT_EQ(Eval(evaluator_, "lhs_batching_dimensions + lhs_contracting_dimensions"),
            Value::IntList({0, 2}));
  EXPECT_EQ(Eval(evaluator_, "add([1, 2], [10, 20])"), Value::IntList({11, 22}));
  EXPECT_EQ(Eval(evaluator_, "[1, 2] + 1"), Value::IntList({2, 3}));
}

TEST_F(FormulaTest, ComprehensionsIndexingAndSlicing) {
  EXPECT_EQ(Eval(evaluator_,
                 "[d for d in axes(lhs) if d not in lhs_batching_dimensions and d not in "
                 "lhs_contracting_dimensions]"),
            Value::IntList({1}));
  EXPECT_EQ(Eval(evaluator_, "shape(lhs)[-1]"), Value(int64_t{256}));
  EXPECT_EQ(Eval(evaluator_, "shape(lhs)[:-1]"), Value::IntList({4, 128}));
  EXPECT_EQ(Eval(evaluator_, "[[1, 2], [3, 4], [5, 6]][:, 0]"), Value::IntList({1, 3, 5}));
  EXPECT_EQ(Eval(evaluator_, "[s + d for s, d in zip([1, 2], [10, 20])]"),
            Value::IntList({11, 22}));
  EXPECT_EQ(Eval(evaluator_, "[4, 5, 6][[2, 0]]"), Value::IntList({6, 4}));
  EXPECT_EQ(Eval(evaluator_, "[4, 5, 6][[2, 0]...]"), Value::IntList({6, 4}));
}

TEST_F(FormulaTest, LogicAndConditionals) {
  EXPECT_TRUE(Eval(evaluator_, "not is_quantized(lhs) and rank(lhs) = 3").Holds());
  EXPECT_EQ(Eval(evaluator_, "1 if rank(lhs) = 3 else 2"), Value(int64_t{1}));
  EXPECT_EQ(Eval(evaluator_, "rank(lhs) = 2 ? 1 : 2"), Value(int64_t{2}));
  EXPECT_TRUE(Eval(evaluator_, "!is_per_axis_quantized(lhs)").Holds());
}

TEST_F(FormulaTest, SpecFunctions) {
  EXPECT_TRUE(Eval(evaluator_, "is_unique([1, 2, 3])").Holds());
  EXPECT_FALSE(Eval(evaluator_, "is_unique([1, 2, 1])").Holds());
  EXPECT_TRUE(Eval(evaluator_, "is_sorted([1, 2, 2])").Holds());
  EXPECT_TRUE(Eval(evaluator_, "same([3, 3, 3])").Holds());
  EXPECT_EQ(Eval(evaluator_, "size(lhs)"), Value(int64_t{4 * 128 * 256}));
  EXPECT_EQ(Eval(evaluator_, "range(3)"), Value::IntList({0, 1, 2}));
  EXPECT_EQ(Eval(evaluator_, "max(shape(lhs) - 200, 0)"), Value::IntList({0, 0, 56}));
  EXPECT_EQ(Eval(evaluator_, "num_bits(element_type(lhs))"), Value(int64_t{32}));
  EXPECT_EQ(Eval(evaluator_, "7 // 2"), Value(int64_t{3}));
  EXPECT_EQ(Eval(evaluator_, "-7 % 3"), Value(int64_t{2}));
}

TEST(FormulaParserTest, ErrorsSayWhereAndWhat) {
  ParseError error;
  auto parsed = ParseFormula("rank(lhs) = = 3", &error);
  EXPECT_FALSE(parsed.ok());
  EXPECT_EQ(error.offset, 12);
  EXPECT_NE(error.message.find("expected a value"), std::string::npos) << error.message;

  parsed = ParseFormula("dim(lhs, 0", &error);
  EXPECT_FALSE(parsed.ok());
  EXPECT_NE(error.message.find("expected ')'"), std::string::npos) << error.message;

  parsed = ParseFormula("rank(lhs) $ 2", &error);
  EXPECT_FALSE(parsed.ok());
  EXPECT_EQ(error.offset, 10);
}

TEST(FormulaEvaluatorTest, UnknownNamesAndTypeErrorsAreErrorsNotCrashes) {
  Evaluator evaluator;
  EXPECT_FALSE(evaluator.EvaluateText("rank(nothing)").ok());
  EXPECT_FALSE(evaluator.EvaluateText("element_type(3)").ok());
  EXPECT_FALSE(evaluator.EvaluateText("[1, 2] - [1]").ok());
  EXPECT_FALSE(evaluator.EvaluateText("[1, 2][5]").ok());
  EXPECT_FALSE(evaluator.EvaluateText("[1, 2] < [1, 2, 3]").ok());
  EXPECT_FALSE(evaluator.EvaluateText("1 // 0").ok());
  EXPECT_FALSE(evaluator.EvaluateText("frobnicate(1)").ok());
}

TEST(FormulaEvaluatorTest, TraceRecordsTheDecidingValues) {
  Evaluator evaluator;
  evaluator.SetMember("slice_sizes", Value::IntList({2, 5}));
  evaluator.SetMember("operand", Value::TensorTypeValue({{4, 4}, ElementType::kSI32}));
  Trace trace;
  auto value = evaluator.EvaluateText("0 <= slice_sizes <= shape(operand)", &trace);
  ASSERT_TRUE(value.ok());
  EXPECT_FALSE(value->Holds());
  ASSERT_EQ(trace.size(), 3u);
  EXPECT_EQ(trace[0].text, "slice_sizes");
  EXPECT_EQ(trace[0].value.ToString(), "[2, 5]");
  EXPECT_EQ(trace[2].text, "shape(operand)");
  EXPECT_EQ(trace[2].value.ToString(), "[4, 4]");
}

}  // namespace
}  // namespace hlocheck::spec
