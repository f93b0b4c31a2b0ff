// uniform_quantize and uniform_dequantize on the oracle: the spec's
// examples, seed 002's order of steps against the public spec's (both
// accepted where they differ, nothing else), saturation, per-axis
// parameters.
#include <gtest/gtest.h>

#include "tests/oracle/oracle_test_util.h"
#include "tests/support/case_builders.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::Accepts;
using ::hlocheck::testing::Literal;
using ::hlocheck::testing::MakeCase;
using ::hlocheck::testing::QuantizedLiteral;
using ::hlocheck::testing::RunOk;
using ::hlocheck::testing::TestRegistry;
using ::hlocheck::testing::ValueTypeOf;

// The spec's examples: per-axis quantize of [4.0, 15.0] and its dequantize.
TEST(QuantizationTest, TheSpecsExamples) {
  const std::string type = "tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>";
  auto quantized =
      RunOk(MakeCase("uniform_quantize", {Literal("dense<[4.0, 15.0]> : tensor<2xf32>")},
                     ValueTypeOf(type).tensor()));
  ASSERT_EQ(quantized.size(), 1u);
  EXPECT_TRUE(Accepts(quantized[0], QuantizedLiteral(type, "dense<[10, 10]> : tensor<2xi8>")));
  EXPECT_FALSE(Accepts(quantized[0], QuantizedLiteral(type, "dense<[10, 11]> : tensor<2xi8>")));
  auto dequantized = RunOk(MakeCase("uniform_dequantize",
                                    {QuantizedLiteral(type, "dense<[10, 10]> : tensor<2xi8>")},
                                    TensorType({2}, ElementType::kF32)));
  ASSERT_EQ(dequantized.size(), 1u);
  // (10 + 30) * 0.1 and (10 + 20) * 0.5, each step rounded to f32.
  EXPECT_TRUE(Accepts(dequantized[0], Literal("dense<[4.0, 15.0]> : tensor<2xf32>")));
  EXPECT_FALSE(Accepts(dequantized[0], Literal("dense<[4.0, 15.5]> : tensor<2xf32>")));
}

// x / scale = 0.5 with zero point 1: seed 002 rounds first (0 + 1 = 1), the
// public spec after (round(1.5) = 2). Either passes, and only those.
TEST(QuantizationTest, SeedAndPublicSpecOrdersAreBothAccepted) {
  const std::string type = "tensor<2x!quant.uniform<i8:f32, 1.0:1>>";
  auto results = RunOk(MakeCase("uniform_quantize", {Literal("dense<[0.5, 2.0]> : tensor<2xf32>")},
                                ValueTypeOf(type).tensor()));
  ASSERT_EQ(results.size(), 1u);
  const ResultExpectation& e = results[0];
  ASSERT_NE(e.other_reading, nullptr);
  EXPECT_EQ(e.reading_differs, (std::vector<uint8_t>{1, 0}));
  EXPECT_TRUE(Accepts(e, QuantizedLiteral(type, "dense<[1, 3]> : tensor<2xi8>")));   // seed
  EXPECT_TRUE(Accepts(e, QuantizedLiteral(type, "dense<[2, 3]> : tensor<2xi8>")));   // public
  EXPECT_FALSE(Accepts(e, QuantizedLiteral(type, "dense<[3, 3]> : tensor<2xi8>")));  // neither
  EXPECT_FALSE(Accepts(e, QuantizedLiteral(type, "dense<[1, 4]> : tensor<2xi8>")));
}

// Values beyond the storage range saturate (the public spec's clamp; the
// seed's overflow taken saturated): a kernel that wraps fails. A NaN has
// no quantized value.
TEST(QuantizationTest, OutOfRangeValuesSaturateAndNaNIsFree) {
  const std::string type = "tensor<4x!quant.uniform<i8:f32, 0.5:100>>";
  auto results = RunOk(MakeCase(
      "uniform_quantize", {Literal("dense<[1000.0, -1000.0, 20.0, 0x7FC00000]> : tensor<4xf32>")},
      ValueTypeOf(type).tensor()));
  ASSERT_EQ(results.size(), 1u);
  const ResultExpectation& e = results[0];
  // 20 / 0.5 + 100 = 140: beyond si8 in the sum.
  EXPECT_TRUE(Accepts(e, QuantizedLiteral(type, "dense<[127, -128, 127, 5]> : tensor<4xi8>")));
  EXPECT_FALSE(Accepts(e, QuantizedLiteral(type, "dense<[127, -128, -116, 5]> : tensor<4xi8>")));
  ASSERT_EQ(e.free.size(), 4u);
  EXPECT_EQ(e.free[3], kFreeAnyValue);
  EXPECT_EQ(e.free[2], 0);
}

// Per-axis parameters follow the quantization dimension: dimension 1 of a
// 2 x 2 tensor, so each column has its own scale.
TEST(QuantizationTest, PerAxisParametersFollowTheQuantizationDimension) {
  const std::string type = "tensor<2x2x!quant.uniform<i8:f32:1, {1.0:0,4.0:0}>>";
  auto results = RunOk(MakeCase("uniform_quantize",
                                {Literal("dense<[[8.0, 8.0], [-4.0, -4.0]]> : tensor<2x2xf32>")},
                                ValueTypeOf(type).tensor()));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(
      Accepts(results[0], QuantizedLiteral(type, "dense<[[8, 2], [-4, -1]]> : tensor<2x2xi8>")));
  // Scales by row instead of by column: the wrong axis fails.
  EXPECT_FALSE(
      Accepts(results[0], QuantizedLiteral(type, "dense<[[8, 8], [-1, -1]]> : tensor<2x2xi8>")));
}

}  // namespace
}  // namespace hlocheck
