// The ops on quantized tensors on the oracle (oracle/quantized_ops.cc):
// dequantize_op_quantize's value, the storage integers an integer kernel
// may give instead (and no others), compare and select's forms, the ops
// that move storage, iota and is_finite.
#include <gtest/gtest.h>

#include "tests/oracle/oracle_test_util.h"
#include "tests/support/case_builders.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::Accepts;
using ::hlocheck::testing::Literal;
using ::hlocheck::testing::MakeCase;
using ::hlocheck::testing::QuantizedLiteral;
using ::hlocheck::testing::RunOk;
using ::hlocheck::testing::ValueTypeOf;

// The corpus's quantized add (quantized_ops.mlir): 1.0 and 2.0 at scale 0.1,
// zero point -30, plus 3.0 and 4.0 at 0.5, -20, into 0.5, -20: [-12, -8].
TEST(QuantizedOpsTest, AddIsDequantizeAddQuantize) {
  const std::string lhs = "tensor<2x!quant.uniform<i8:f32, 0.1:-30>>";
  const std::string rhs = "tensor<2x!quant.uniform<i8:f32, 0.5:-20>>";
  auto results = RunOk(MakeCase("add",
                                {QuantizedLiteral(lhs, "dense<[-20, -10]> : tensor<2xi8>"),
                                 QuantizedLiteral(rhs, "dense<[-14, -12]> : tensor<2xi8>")},
                                ValueTypeOf(rhs).tensor()));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].check, Check::kStorageRange);
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral(rhs, "dense<[-12, -8]> : tensor<2xi8>")));
  // An off-by-one zero point, a result left in the lhs's units: wrong.
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(rhs, "dense<[-11, -7]> : tensor<2xi8>")));
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(rhs, "dense<[-12, -9]> : tensor<2xi8>")));
  EXPECT_EQ(results[0].storage_low, (std::vector<int64_t>{-12, -8}));
  EXPECT_EQ(results[0].storage_high, (std::vector<int64_t>{-12, -8}));
}

// A result exactly halfway between two storage integers: the spec rounds
// to even (2.5 -> 2); an integer kernel may round the tie either way, and
// nothing beyond.
TEST(QuantizedOpsTest, ATieMayRoundEitherWayAndNoFurther) {
  const std::string t = "tensor<1x!quant.uniform<i8:f32, 0.5:0>>";
  const std::string out = "tensor<1x!quant.uniform<i8:f32, 1.0:0>>";
  auto results = RunOk(MakeCase("add",
                                {QuantizedLiteral(t, "dense<[2]> : tensor<1xi8>"),
                                 QuantizedLiteral(t, "dense<[3]> : tensor<1xi8>")},
                                ValueTypeOf(out).tensor()));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral(out, "dense<[2]> : tensor<1xi8>")));
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral(out, "dense<[3]> : tensor<1xi8>")));
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(out, "dense<[1]> : tensor<1xi8>")));
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(out, "dense<[4]> : tensor<1xi8>")));
}

// Results beyond the storage range saturate; a kernel that wraps fails.
TEST(QuantizedOpsTest, ResultsSaturate) {
  const std::string t = "tensor<2x!quant.uniform<i8:f32, 1.0:0>>";
  auto results = RunOk(MakeCase("multiply",
                                {QuantizedLiteral(t, "dense<[100, -100]> : tensor<2xi8>"),
                                 QuantizedLiteral(t, "dense<[3, 3]> : tensor<2xi8>")},
                                ValueTypeOf(t).tensor()));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral(t, "dense<[127, -128]> : tensor<2xi8>")));
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(t, "dense<[44, -44]> : tensor<2xi8>")));
}

// Per-axis: each slice's scale applies to its own elements; the scales
// applied along the wrong dimension fail.
TEST(QuantizedOpsTest, PerAxisParametersApplyAlongTheirDimension) {
  const std::string lhs = "tensor<2x2x!quant.uniform<i8:f32:0, {1.0:0,2.0:0}>>";
  const std::string out = "tensor<2x2x!quant.uniform<i8:f32:0, {1.0:0,1.0:0}>>";
  auto results = RunOk(MakeCase("add",
                                {QuantizedLiteral(lhs, "dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>"),
                                 QuantizedLiteral(lhs, "dense<[[0, 0], [0, 0]]> : tensor<2x2xi8>")},
                                ValueTypeOf(out).tensor()));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(
      Accepts(results[0], QuantizedLiteral(out, "dense<[[1, 2], [6, 8]]> : tensor<2x2xi8>")));
  EXPECT_FALSE(
      Accepts(results[0], QuantizedLiteral(out, "dense<[[1, 4], [3, 8]]> : tensor<2x2xi8>")));
}

// A transcendental: the float op's ULP bound widens the range only where a
// value within it quantizes elsewhere; far from a tie the result is one
// storage integer.
TEST(QuantizedOpsTest, ATranscendentalsBoundCarriesOver) {
  const std::string t = "tensor<1x!quant.uniform<i8:f32, 0.125:0>>";
  auto results = RunOk(MakeCase("exponential", {QuantizedLiteral(t, "dense<[8]> : tensor<1xi8>")},
                                ValueTypeOf(t).tensor()));
  ASSERT_EQ(results.size(), 1u);
  // e = 2.718... / 0.125 = 21.75 -> 22.
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral(t, "dense<[22]> : tensor<1xi8>")));
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(t, "dense<[21]> : tensor<1xi8>")));
}

// compare of quantized operands compares the dequantized values.
TEST(QuantizedOpsTest, CompareDequantizes) {
  const std::string lhs = "tensor<2x!quant.uniform<i8:f32, 0.5:0>>";
  const std::string rhs = "tensor<2x!quant.uniform<i8:f32, 1.0:3>>";
  Case c = MakeCase("compare",
                    {QuantizedLiteral(lhs, "dense<[4, 4]> : tensor<2xi8>"),
                     QuantizedLiteral(rhs, "dense<[5, 6]> : tensor<2xi8>")},
                    TensorType({2}, ElementType::kI1));
  c.attributes["comparison_direction"] = EnumValue{"EQ"};
  auto results = RunOk(c);
  ASSERT_EQ(results.size(), 1u);
  // 2.0 = 2.0, 2.0 != 3.0.
  EXPECT_TRUE(Accepts(results[0], Literal("dense<[true, false]> : tensor<2xi1>")));
  EXPECT_FALSE(Accepts(results[0], Literal("dense<[false, false]> : tensor<2xi1>")));
}

// The ops that move elements move the storage integers.
TEST(QuantizedOpsTest, TransposeMovesStorage) {
  const std::string in = "tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>";
  const std::string out = "tensor<3x2x!quant.uniform<i8:f32, 0.5:1>>";
  Case c = MakeCase("transpose",
                    {QuantizedLiteral(in, "dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>")},
                    ValueTypeOf(out).tensor());
  c.attributes["permutation"] = std::vector<int64_t>{1, 0};
  auto results = RunOk(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(Accepts(results[0],
                      QuantizedLiteral(out, "dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi8>")));
  EXPECT_FALSE(Accepts(results[0],
                       QuantizedLiteral(out, "dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>")));
}

// iota into a quantized type holds quantize(index); is_finite of a
// quantized tensor is true everywhere.
TEST(QuantizedOpsTest, IotaQuantizesItsIndicesAndIsFiniteIsTrue) {
  const std::string t = "tensor<4x!quant.uniform<i8:f32, 0.5:-2>>";
  Case iota = MakeCase("iota", {}, ValueTypeOf(t).tensor());
  iota.attributes["iota_dimension"] = int64_t{0};
  auto results = RunOk(iota);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral(t, "dense<[-2, 0, 2, 4]> : tensor<4xi8>")));
  auto finite =
      RunOk(MakeCase("is_finite", {QuantizedLiteral(t, "dense<[-128, 0, 1, 127]> : tensor<4xi8>")},
                     TensorType({4}, ElementType::kI1)));
  ASSERT_EQ(finite.size(), 1u);
  EXPECT_TRUE(Accepts(finite[0], Literal("dense<[true, true, true, true]> : tensor<4xi1>")));
}

// dot_general's quantized form: the dequantized operands' dot product,
// quantized; a kernel that forgets lhs's zero point fails.
TEST(QuantizedOpsTest, DotGeneralQuantizesTheDotProduct) {
  const std::string lhs = "tensor<1x2x!quant.uniform<i8:f32, 0.5:2>>";
  const std::string rhs = "tensor<2x1x!quant.uniform<i8:f32, 0.25:0>>";
  const std::string out = "tensor<1x1x!quant.uniform<i8:f32, 0.125:0>>";
  Case c = MakeCase("dot_general",
                    {QuantizedLiteral(lhs, "dense<[[4, 6]]> : tensor<1x2xi8>"),
                     QuantizedLiteral(rhs, "dense<[[4], [8]]> : tensor<2x1xi8>")},
                    ValueTypeOf(out).tensor());
  c.attributes["lhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["rhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["lhs_contracting_dimensions"] = std::vector<int64_t>{1};
  c.attributes["rhs_contracting_dimensions"] = std::vector<int64_t>{0};
  auto results = RunOk(c);
  ASSERT_EQ(results.size(), 1u);
  // (1.0 * 1.0 + 2.0 * 2.0) / 0.125 = 40.
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral(out, "dense<[[40]]> : tensor<1x1xi8>")));
  // Without lhs's zero point: (2.0 * 1.0 + 3.0 * 2.0) / 0.125 = 64.
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(out, "dense<[[64]]> : tensor<1x1xi8>")));
}

}  // namespace
}  // namespace hlocheck
