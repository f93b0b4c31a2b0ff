// tuple, get_tuple_element and optimization_barrier with tokens and tuples
// on the oracle: the spec's examples, nested tuples, tokens that hold no
// tensor, and cases whose tensors do not fit their tuple types.
#include <gtest/gtest.h>

#include "tests/oracle/data_movement_test_util.h"

namespace hlocheck::testing {
namespace {

// The tensors of the oracle's results, which must all be exact.
std::vector<Tensor> RunAllExact(const Case& c) {
  auto results = TheOracle().Run(c);
  EXPECT_TRUE(results.ok()) << c.op << ": " << results.status();
  std::vector<Tensor> tensors;
  if (!results.ok()) return tensors;
  for (const ResultExpectation& e : *results) {
    EXPECT_EQ(e.check, Check::kExact);
    EXPECT_EQ(e.FreeCount(), 0);
    tensors.push_back(e.reference);
  }
  return tensors;
}

// The spec's example: %val0 = [1.0, 2.0], %val1 = (3);
// tuple(%val0, %val1) = ([1.0, 2.0], (3)).
TEST(OracleTupleTest, TupleSpecExample) {
  Case c =
      TupleCase({Literal("dense<[1.0, 2.0]> : tensor<2xf32>"), Literal("dense<3> : tensor<i32>")},
                {ValueTypeOf("tensor<2xf32>"), ValueTypeOf("tuple<tensor<i32>>")});
  std::vector<Tensor> results = RunAllExact(c);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].BitwiseEquals(c.operands[0]));
  EXPECT_TRUE(results[1].BitwiseEquals(c.operands[1]));
}

// The spec's example: %operand = ([1.0, 2.0], (3)); index 0 gives [1.0, 2.0].
// Index 1 gives the nested tuple (3), whose one tensor follows.
TEST(OracleTupleTest, GetTupleElementSpecExampleAndNestedElement) {
  Case c = GetTupleElementCase(
      {Literal("dense<[1.0, 2.0]> : tensor<2xf32>"), Literal("dense<3> : tensor<i32>")},
      ValueTypeOf("tuple<tensor<2xf32>, tuple<tensor<i32>>>"), 0);
  c.result_types = {c.operands[0].type()};
  std::vector<Tensor> first = RunAllExact(c);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_TRUE(first[0].BitwiseEquals(c.operands[0]));

  c.attributes["index"] = int64_t{1};
  c.result_structure = {ValueTypeOf("tuple<tensor<i32>>")};
  c.result_types = {c.operands[1].type()};
  std::vector<Tensor> second = RunAllExact(c);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_TRUE(second[0].BitwiseEquals(c.operands[1]));
}

// A token element holds no tensor: the element after it starts where the
// token would have been.
TEST(OracleTupleTest, GetTupleElementSkipsTokensAndEarlierTuples) {
  Case c = GetTupleElementCase(
      {Literal("dense<1> : tensor<i8>"), Literal("dense<[2, 3]> : tensor<2xi16>"),
       Literal("dense<4.0> : tensor<f64>")},
      ValueTypeOf("tuple<!stablehlo.token, tuple<tensor<i8>, tensor<2xi16>>, tensor<f64>>"), 2);
  c.result_types = {c.operands[2].type()};
  std::vector<Tensor> results = RunAllExact(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].BitwiseEquals(c.operands[2]));

  c.attributes["index"] = int64_t{0};
  c.result_structure = {ValueType::Token()};
  c.result_types = {};
  EXPECT_TRUE(RunAllExact(c).empty());
}

TEST(OracleTupleTest, OptimizationBarrierPassesTokensThrough) {
  Case c = OptimizationBarrierCase({Literal("dense<[1.5, -0.0]> : tensor<2xbf16>")},
                                   {ValueTypeOf("tensor<2xbf16>"), ValueType::Token()});
  std::vector<Tensor> results = RunAllExact(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].BitwiseEquals(c.operands[0]));
}

TEST(OracleTupleTest, TensorsThatDoNotFitTheTupleTypesAreRejected) {
  Case c = GetTupleElementCase({Literal("dense<1> : tensor<i8>")},
                               ValueTypeOf("tuple<tensor<i8>, tensor<f32>>"),  // one tensor missing
                               0);
  c.result_types = {c.operands[0].type()};
  auto results = TheOracle().Run(c);
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("tuple and token types"), std::string::npos)
      << results.status();
}

TEST(OracleTupleTest, AnIndexOutsideTheTupleViolatesC1) {
  Case c =
      GetTupleElementCase({Literal("dense<1> : tensor<i8>")}, ValueTypeOf("tuple<tensor<i8>>"), 1);
  c.result_types = {c.operands[0].type()};
  auto results = TheOracle().Run(c);
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("C1"), std::string::npos) << results.status();
}

}  // namespace
}  // namespace hlocheck::testing
