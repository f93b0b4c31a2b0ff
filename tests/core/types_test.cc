#include "core/types.h"

#include <gtest/gtest.h>

#include "core/tensor.h"

namespace hlocheck {
namespace {

TEST(TypesTest, QuantizedTensorTypesParseAndPrint) {
  auto type = ParseValueType("tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>");
  ASSERT_TRUE(type.ok()) << type.status();
  ASSERT_TRUE(type->is_quantized());
  EXPECT_EQ(type->element_type, ElementType::kSI8);
  const UniformQuantization& q = *type->quantization;
  EXPECT_EQ(q.expressed_type, ElementType::kF32);
  EXPECT_EQ(q.quantization_dimension, 0);
  EXPECT_EQ(q.scales, (std::vector<double>{static_cast<float>(0.1), 0.5}));
  EXPECT_EQ(q.zero_points, (std::vector<int64_t>{-30, -20}));
  EXPECT_EQ(q.storage_min, -128);
  EXPECT_EQ(q.storage_max, 127);
  EXPECT_EQ(type->ToString(), "tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>");
  EXPECT_EQ(*ParseValueType(type->ToString()), *type);

  auto narrow = ParseValueType("tensor<!quant.uniform<u8<1:200>:bf16, 2.0:7>>");
  ASSERT_TRUE(narrow.ok()) << narrow.status();
  EXPECT_EQ(narrow->element_type, ElementType::kUI8);
  EXPECT_EQ(narrow->quantization->storage_min, 1);
  EXPECT_EQ(narrow->quantization->storage_max, 200);
  EXPECT_EQ(narrow->ToString(), "tensor<!quant.uniform<u8<1:200>:bf16, 2.0:7>>");
  EXPECT_EQ(*ParseValueType(narrow->ToString()), *narrow);
}

TEST(TypesTest, TokensTuplesAndFunctions) {
  EXPECT_EQ(*ParseValueType("!stablehlo.token"), ValueType::Token());
  auto tuple = ParseValueType("tuple<tensor<2xf32>, tuple<!stablehlo.token>>");
  ASSERT_TRUE(tuple.ok()) << tuple.status();
  EXPECT_EQ(tuple->elements.size(), 2u);
  EXPECT_EQ(tuple->ToString(), "tuple<tensor<2xf32>, tuple<!stablehlo.token>>");

  auto function = ParseFunctionType("(tensor<i64>, tensor<i64>) -> tensor<i64>");
  ASSERT_TRUE(function.ok()) << function.status();
  EXPECT_EQ(function->inputs.size(), 2u);
  EXPECT_EQ(function->outputs.size(), 1u);
  EXPECT_EQ(function->ToString(), "(tensor<i64>, tensor<i64>) -> tensor<i64>");
  auto several = ParseFunctionType("() -> (tensor<f32>, !stablehlo.token)");
  ASSERT_TRUE(several.ok()) << several.status();
  EXPECT_TRUE(several->inputs.empty());
  EXPECT_EQ(several->ToString(), "() -> (tensor<f32>, !stablehlo.token)");
}

TEST(TypesTest, ErrorsSayWhatWasExpected) {
  for (const char* text :
       {"tensor<2x!quant.uniform<f32:f32, 1.0>>", "tensor<!quant.uniform<i8:f32 1.0>>",
        "tuple<tensor<f32>", "(tensor<f32>) tensor<f32>", "tensor<2xf32> extra"}) {
    auto type = std::string(text).starts_with("(") ? ParseFunctionType(text).status()
                                                   : ParseValueType(text).status();
    EXPECT_FALSE(type.ok()) << text;
    EXPECT_NE(type.message().find("column"), std::string::npos) << type.message();
  }
}

}  // namespace
}  // namespace hlocheck
