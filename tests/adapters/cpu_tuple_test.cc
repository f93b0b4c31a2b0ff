// tuple, get_tuple_element and optimization_barrier on the CPU adapter with
// tokens, nested tuples and quantized tensors (Case's structure): which of
// the flat tensors each result is, and cases that must be refused.
#include <gtest/gtest.h>

#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

std::vector<Tensor> RunAll(const Case& c) {
  CpuAdapter& adapter = SharedAdapter();
  AdapterSupport support = adapter.Supports(c);
  EXPECT_TRUE(support.supported) << support.reason;
  absl::StatusOr<std::vector<Tensor>> results = adapter.Run(c);
  EXPECT_TRUE(results.ok()) << results.status();
  return results.ok() ? *std::move(results) : std::vector<Tensor>{};
}

// Three tensors in a tuple<token, tuple<si8, 2xsi16>, f64>.
Case NestedGetTupleElement(int64_t index) {
  return GetTupleElementCase(
      {Make<ET::kSI8>({}, {1}), Make<ET::kSI16>({2}, {2, 3}), Make<ET::kF64>({}, {4.0})},
      ValueTypeOf("tuple<!stablehlo.token, tuple<tensor<i8>, tensor<2xi16>>, tensor<f64>>"), index);
}

TEST(CpuTupleTest, GetTupleElementPicksTheElementsTensors) {
  Case last = NestedGetTupleElement(2);
  last.result_types = {last.operands[2].type()};
  std::vector<Tensor> results = RunAll(last);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].BitwiseEquals(last.operands[2]));

  Case nested = NestedGetTupleElement(1);
  nested.result_structure = {ValueTypeOf("tuple<tensor<i8>, tensor<2xi16>>")};
  nested.result_types = {nested.operands[0].type(), nested.operands[1].type()};
  results = RunAll(nested);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].BitwiseEquals(nested.operands[0]));
  EXPECT_TRUE(results[1].BitwiseEquals(nested.operands[1]));

  Case token = NestedGetTupleElement(0);
  token.result_structure = {ValueType::Token()};
  EXPECT_TRUE(RunAll(token).empty());
}

TEST(CpuTupleTest, TupleKeepsTheValuesTensorsInOrder) {
  UniformQuantization q;
  q.expressed_type = ET::kF32;
  q.storage_min = -128;
  q.storage_max = 127;
  q.scales = {0.5};
  q.zero_points = {-1};
  Tensor quantized =
      Tensor::Reusing(TensorType({3}, ET::kSI8, q), Make<ET::kSI8>({3}, {-128, 0, 127}));
  Tensor floats = Make<ET::kF32>({2}, {1.0f, 2.0f});
  Case c = TupleCase({floats, quantized}, {ValueType::Of(floats.type()), ValueType::Token(),
                                           ValueType::Of(quantized.type())});
  std::vector<Tensor> results = RunAll(c);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].BitwiseEquals(c.operands[0]));
  EXPECT_TRUE(results[1].BitwiseEquals(quantized));
  EXPECT_EQ(results[1].type(), quantized.type());
}

TEST(CpuTupleTest, OptimizationBarrierWithATokenIsTheIdentity) {
  Tensor operand = Make<ET::kUI4>({3}, {0, 15, 7});
  Case c = OptimizationBarrierCase({operand}, {ValueType::Token(), ValueType::Of(operand.type())});
  std::vector<Tensor> results = RunAll(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].BitwiseEquals(c.operands[0]));
}

TEST(CpuTupleTest, MalformedStructuresAreRefused) {
  // The result's type is not the element's at index.
  Case wrong_type = NestedGetTupleElement(2);
  wrong_type.result_types = {TensorType({}, ET::kF32)};
  EXPECT_FALSE(SharedAdapter().Run(wrong_type).ok());
  // Fewer tensors than the tuple type holds.
  Case missing = NestedGetTupleElement(2);
  missing.operands.pop_back();
  missing.result_types = {TensorType({}, ET::kF64)};
  EXPECT_FALSE(SharedAdapter().Supports(missing).supported);
  EXPECT_FALSE(SharedAdapter().Run(missing).ok());
  // An op that computes takes no tuples.
  Case add;
  add.op = "add";
  add.operands = {Make<ET::kF32>({}, {1.0f}), Make<ET::kF32>({}, {2.0f})};
  add.operand_structure = {ValueType::Of(add.operands[0].type()), ValueType::Token()};
  add.result_types = {TensorType({}, ET::kF32)};
  EXPECT_FALSE(SharedAdapter().Supports(add).supported);
}

}  // namespace
}  // namespace hlocheck::cpu_test
