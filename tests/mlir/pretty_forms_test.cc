// Each op's custom (pretty) syntax reads to the same op as its generic form:
// same operand and result types, same attributes, same regions.
#include <gtest/gtest.h>

#include "mlir/reader.h"
#include "spec/registry.h"

namespace hlocheck::mlir {
namespace {

struct FormPair {
  std::string pretty;
  std::string generic;
};

const Operation& LastOp(const Region& region) { return region.blocks[0].operations.back(); }

TEST(PrettyFormsTest, CustomSyntaxReadsAsTheGenericForm) {
  const spec::SpecRegistry& registry = **spec::DefaultRegistry();
  const std::vector<FormPair> pairs = {
      {"%r = stablehlo.add %a, %b : tensor<2xf32>",
       "%r = \"stablehlo.add\"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>"},
      {"%r = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> "
       "tensor<3xf32>",
       "%r = \"stablehlo.clamp\"(%lo, %x, %hi) : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> "
       "tensor<3xf32>"},
      {"%r = stablehlo.compare  LT, %a, %b,  TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> "
       "tensor<2xi1>",
       "%r = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction "
       "LT>, compare_type = #stablehlo<comparison_type TOTALORDER>} : (tensor<2xf32>, "
       "tensor<2xf32>) -> tensor<2xi1>"},
      {"%r = stablehlo.constant dense<[1, 2]> : tensor<2xi32>",
       "%r = \"stablehlo.constant\"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> "
       "tensor<2xi32>"},
      {"%r = stablehlo.iota dim = 1 : tensor<2x3xf32>",
       "%r = \"stablehlo.iota\"() {iota_dimension = 1 : i64} : () -> tensor<2x3xf32>"},
      {"%r = stablehlo.slice %x [1:3, 0:4:2] : (tensor<3x4xi8>) -> tensor<2x2xi8>",
       "%r = \"stablehlo.slice\"(%x) {start_indices = array<i64: 1, 0>, limit_indices = "
       "array<i64: 3, 4>, strides = array<i64: 1, 2>} : (tensor<3x4xi8>) -> tensor<2x2xi8>"},
      {"%r = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>",
       "%r = \"stablehlo.broadcast_in_dim\"(%x) {broadcast_dimensions = array<i64: 1>} : "
       "(tensor<3xf32>) -> tensor<2x3xf32>"},
      {"%r = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>",
       "%r = \"stablehlo.transpose\"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> "
       "tensor<3x2xf32>"},
      {"%r = stablehlo.reverse %x, dims = [0] : tensor<2x3xf32>",
       "%r = \"stablehlo.reverse\"(%x) {dimensions = array<i64: 0>} : (tensor<2x3xf32>) -> "
       "tensor<2x3xf32>"},
      {"%r = stablehlo.pad %x, %p, low = [0, 1], high = [2, -1], interior = [1, 0] : "
       "(tensor<2x3xf32>, tensor<f32>) -> tensor<5x3xf32>",
       "%r = \"stablehlo.pad\"(%x, %p) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = "
       "array<i64: 2, -1>, interior_padding = array<i64: 1, 0>} : (tensor<2x3xf32>, tensor<f32>) "
       "-> tensor<5x3xf32>"},
      {"%r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1x2xi64>, tensor<3x2xi64>) -> "
       "tensor<4x2xi64>",
       "%r = \"stablehlo.concatenate\"(%a, %b) {dimension = 0 : i64} : (tensor<1x2xi64>, "
       "tensor<3x2xi64>) -> tensor<4x2xi64>"},
      {"%r = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<4x4xi32>, tensor<i64>, "
       "tensor<i64>) -> tensor<2x2xi32>",
       "%r = \"stablehlo.dynamic_slice\"(%x, %i, %j) {slice_sizes = array<i64: 2, 2>} : "
       "(tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>"},
      {"%r = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>",
       "%r = \"stablehlo.get_dimension_size\"(%x) {dimension = 1 : i64} : (tensor<2x3xf32>) -> "
       "tensor<i32>"},
      {"%r = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> "
       "tensor<4xcomplex<f32>>",
       "%r = \"stablehlo.fft\"(%x) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: "
       "4>} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>"},
      {"%r = stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf32>",
       "%r = \"stablehlo.reduce_precision\"(%x) {exponent_bits = 5 : i32, mantissa_bits = 10 : "
       "i32} : (tensor<6xf32>) -> tensor<6xf32>"},
      {"%r = stablehlo.select %p, %a, %b : tensor<2xi1>, tensor<2xf32>",
       "%r = \"stablehlo.select\"(%p, %a, %b) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> "
       "tensor<2xf32>"},
      {"%r = stablehlo.complex %a, %b : tensor<2xcomplex<f32>>",
       "%r = \"stablehlo.complex\"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> "
       "tensor<2xcomplex<f32>>"},
      {"%r = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>",
       "%r = \"stablehlo.cholesky\"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>"},
      {"%r:2 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<3xui64>) -> "
       "(tensor<3xui64>, tensor<2x2xui32>)",
       "%r:2 = \"stablehlo.rng_bit_generator\"(%s) {rng_algorithm = #stablehlo<rng_algorithm "
       "PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xui32>)"},
      {"%r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x "
       "[1], precision = [DEFAULT, HIGHEST], algorithm = <lhs_precision_type = tf32, "
       "rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, "
       "rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = "
       "false> : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>",
       "%r = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<"
       "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions "
       "= [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision "
       "DEFAULT>, #stablehlo<precision HIGHEST>], algorithm = #stablehlo.dot_algorithm<"
       "lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, "
       "lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, "
       "allow_imprecise_accumulation = false>} : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> "
       "tensor<2x2x2xf32>"},
      {"%r = stablehlo.convolution(%l, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, "
       "f], window = {stride = [4, 4], pad = [[0, 0], [1, 1]], lhs_dilate = [2, 2], reverse = "
       "[0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
       "(tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>",
       "%r = \"stablehlo.convolution\"(%l, %k) {dimension_numbers = #stablehlo.conv<raw "
       "input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, "
       "2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, "
       "kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, "
       "output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, window_strides = "
       "array<i64: 4, 4>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, lhs_dilation = "
       "array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, "
       "true>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
       "(tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>"},
      {"%r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : "
       "(tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>",
       "%r = \"stablehlo.reduce\"(%x, %z) ({\n ^bb0(%p: tensor<i64>, %q: tensor<i64>):\n  %s = "
       "stablehlo.add %p, %q : tensor<i64>\n  stablehlo.return %s : tensor<i64>\n}) {dimensions "
       "= array<i64: 1>} : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>"},
      {"%r = stablehlo.custom_call @foo(%x) {has_side_effect = true} : (tensor<f64>) -> "
       "tensor<f64>",
       "%r = \"stablehlo.custom_call\"(%x) {call_target_name = \"foo\", has_side_effect = true} "
       ": (tensor<f64>) -> tensor<f64>"},
      {"%r = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, "
       "0.5:-3>>",
       "%r = \"stablehlo.uniform_quantize\"(%x) : (tensor<2xf32>) -> "
       "tensor<2x!quant.uniform<i8:f32, 0.5:-3>>"},
      {"%r = stablehlo.bitcast_convert %x : (tensor<f64>) -> tensor<2xf32>",
       "%r = \"stablehlo.bitcast_convert\"(%x) : (tensor<f64>) -> tensor<2xf32>"},
  };
  for (const FormPair& pair : pairs) {
    auto pretty = ReadSnippet(pair.pretty, "pretty.mlir", registry);
    ASSERT_TRUE(pretty.ok()) << pretty.status() << "\n" << pair.pretty;
    auto generic = ReadSnippet(pair.generic, "generic.mlir", registry);
    ASSERT_TRUE(generic.ok()) << generic.status() << "\n" << pair.generic;
    const Operation& a = LastOp(*pretty);
    const Operation& b = LastOp(*generic);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.operand_types, b.operand_types) << pair.pretty;
    EXPECT_EQ(a.result_types, b.result_types) << pair.pretty;
    EXPECT_TRUE(a.attributes == b.attributes) << pair.pretty;
    ASSERT_EQ(a.regions.size(), b.regions.size()) << pair.pretty;
    for (size_t i = 0; i < a.regions.size(); ++i) {
      EXPECT_EQ(a.regions[i].type(), b.regions[i].type()) << pair.pretty;
      EXPECT_EQ(a.regions[i].blocks[0].operations.size(), b.regions[i].blocks[0].operations.size());
    }
  }
}

TEST(PrettyFormsTest, WhileReadsItsLoopVariablesAsBlockArguments) {
  const spec::SpecRegistry& registry = **spec::DefaultRegistry();
  const std::string text = R"(
%r0, %r1 = stablehlo.while(%i = %init_i, %s = %init_s) : tensor<i64>, tensor<i64>
cond {
  %c = stablehlo.compare LT, %i, %s : (tensor<i64>, tensor<i64>) -> tensor<i1>
  stablehlo.return %c : tensor<i1>
} do {
  %n = stablehlo.add %i, %s : tensor<i64>
  stablehlo.return %n, %s : tensor<i64>, tensor<i64>
}
)";
  auto read = ReadSnippet(text, "while.mlir", registry);
  ASSERT_TRUE(read.ok()) << read.status();
  const Operation& loop = LastOp(*read);
  ASSERT_EQ(loop.regions.size(), 2u);
  EXPECT_EQ(loop.regions[0].type().ToString(), "(tensor<i64>, tensor<i64>) -> tensor<i1>");
  EXPECT_EQ(loop.regions[1].type().ToString(),
            "(tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)");
  EXPECT_EQ(loop.result_types.size(), 2u);
}

}  // namespace
}  // namespace hlocheck::mlir
