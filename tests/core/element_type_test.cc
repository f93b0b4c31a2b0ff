#include "core/element_type.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/element_value.h"
#include "core/exact_value.h"

namespace hlocheck {
namespace {

double MaxFinite(ElementType type) {
  const FloatFormat& format = Format(type);
  return DecodeFloat(format, format.max_finite_bits()).ToDouble();
}

TEST(ElementTypeTest, TableIsConsistentWithCompileTimeFacts) {
  for (ElementType type : AllElementTypes()) {
    const ElementTypeInfo& info = Info(type);
    EXPECT_EQ(info.type, type);
    EXPECT_EQ(info.kind, Kind(type)) << info.name;
    EXPECT_EQ(info.bits, BitWidth(type)) << info.name;
    if (IsFloat(type)) {
      EXPECT_EQ(Format(type).total_bits(), info.bits) << info.name;
    }
    EXPECT_EQ(ParseElementType(info.name), type);
  }
}

TEST(ElementTypeTest, LargestFiniteValues) {
  EXPECT_EQ(MaxFinite(ElementType::kF4E2M1FN), 6.0);
  EXPECT_EQ(MaxFinite(ElementType::kF6E2M3FN), 7.5);
  EXPECT_EQ(MaxFinite(ElementType::kF6E3M2FN), 28.0);
  EXPECT_EQ(MaxFinite(ElementType::kF8E3M4), 15.5);
  EXPECT_EQ(MaxFinite(ElementType::kF8E4M3), 240.0);
  EXPECT_EQ(MaxFinite(ElementType::kF8E4M3FN), 448.0);
  EXPECT_EQ(MaxFinite(ElementType::kF8E4M3FNUZ), 240.0);
  EXPECT_EQ(MaxFinite(ElementType::kF8E4M3B11FNUZ), 30.0);
  EXPECT_EQ(MaxFinite(ElementType::kF8E5M2), 57344.0);
  EXPECT_EQ(MaxFinite(ElementType::kF8E5M2FNUZ), 57344.0);
  EXPECT_EQ(MaxFinite(ElementType::kF8E8M0FNU), std::ldexp(1.0, 127));
  EXPECT_EQ(MaxFinite(ElementType::kBF16), 3.3895313892515355e38);
  EXPECT_EQ(MaxFinite(ElementType::kF16), 65504.0);
  EXPECT_EQ(MaxFinite(ElementType::kF32), 3.4028234663852886e38);
}

TEST(ElementTypeTest, SpecialEncodings) {
  const FloatFormat& e4m3fn = Format(ElementType::kF8E4M3FN);
  EXPECT_EQ(e4m3fn.nan_bits(), 0x7Fu);
  EXPECT_TRUE(IsNaNBits(e4m3fn, 0xFF));
  EXPECT_FALSE(IsNaNBits(e4m3fn, 0x7E));
  const FloatFormat& fnuz = Format(ElementType::kF8E5M2FNUZ);
  EXPECT_EQ(fnuz.nan_bits(), 0x80u);
  EXPECT_FALSE(fnuz.has_negative_zero());
  const FloatFormat& e8m0 = Format(ElementType::kF8E8M0FNU);
  EXPECT_EQ(e8m0.nan_bits(), 0xFFu);
  EXPECT_EQ(DecodeFloat(e8m0, 0x00).ToDouble(), std::ldexp(1.0, -127));
  EXPECT_EQ(DecodeFloat(e8m0, 0x7F).ToDouble(), 1.0);
  EXPECT_EQ(Format(ElementType::kF16).infinity_bits(), 0x7C00u);
  EXPECT_EQ(Format(ElementType::kBF16).nan_bits(), 0x7FC0u);
}

TEST(ElementTypeTest, IntegerRanges) {
  EXPECT_EQ(IntegerMin(ElementType::kSI2), -2);
  EXPECT_EQ(IntegerMin(ElementType::kSI4), -8);
  EXPECT_EQ(IntegerMin(ElementType::kSI64), INT64_MIN);
  EXPECT_EQ(IntegerMin(ElementType::kUI8), 0);
  EXPECT_EQ(IntegerMaxUnsigned(ElementType::kSI4), 7u);
  EXPECT_EQ(IntegerMaxUnsigned(ElementType::kUI2), 3u);
  EXPECT_EQ(IntegerMaxUnsigned(ElementType::kUI64), UINT64_MAX);
}

TEST(ElementTypeTest, MlirAliases) {
  EXPECT_EQ(ParseElementType("i32"), ElementType::kSI32);
  EXPECT_EQ(ParseElementType("i1"), ElementType::kI1);
  EXPECT_EQ(ParseElementType("f8E4M3"), ElementType::kF8E4M3);
  EXPECT_EQ(ParseElementType("tf32"), std::nullopt);
}

TEST(ElementTypeTest, ExactConversionsHoldEveryValue) {
  using ET = ElementType;
  EXPECT_TRUE(IsExactConversion(ET::kF16, ET::kF32));
  EXPECT_TRUE(IsExactConversion(ET::kBF16, ET::kF32));
  EXPECT_TRUE(IsExactConversion(ET::kF32, ET::kComplexF64));
  EXPECT_TRUE(IsExactConversion(ET::kSI8, ET::kSI32));
  EXPECT_TRUE(IsExactConversion(ET::kUI8, ET::kSI16));
  EXPECT_TRUE(IsExactConversion(ET::kSI16, ET::kF32));
  EXPECT_TRUE(IsExactConversion(ET::kF8E4M3FN, ET::kF16));
  EXPECT_FALSE(IsExactConversion(ET::kF16, ET::kBF16));  // bf16 has fewer significand bits
  EXPECT_FALSE(IsExactConversion(ET::kBF16, ET::kF16));  // f16 has a smaller range
  EXPECT_FALSE(IsExactConversion(ET::kSI8, ET::kUI16));  // negatives
  EXPECT_FALSE(IsExactConversion(ET::kSI32, ET::kF32));  // 2^31 - 1 is not an f32
  EXPECT_FALSE(IsExactConversion(ET::kF32, ET::kSI64));
  EXPECT_FALSE(IsExactConversion(ET::kComplexF32, ET::kF64));
  EXPECT_FALSE(IsExactConversion(ET::kF8E5M2, ET::kF8E4M3FN));  // infinities
  // Exhaustively for the 8-bit floats into f16: every value round-trips.
  for (ET from : {ET::kF8E4M3FN, ET::kF8E5M2, ET::kF8E3M4, ET::kF8E4M3B11FNUZ}) {
    ASSERT_TRUE(IsExactConversion(from, ET::kF16)) << Name(from);
    for (int bits = 0; bits < 256; ++bits) {
      const uint8_t in = static_cast<uint8_t>(bits);
      uint16_t wide = 0;
      uint8_t back = 0;
      ConvertElements(from, &in, ET::kF16, &wide, 1);
      EXPECT_EQ(ConvertElement(ET::kF16, &wide, from, &back) & kConversionInexact, 0)
          << Name(from) << " " << bits;
    }
  }
}

}  // namespace
}  // namespace hlocheck
