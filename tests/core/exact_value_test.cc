#include "core/exact_value.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/element_value.h"

namespace hlocheck {
namespace {

uint64_t Encode(ElementType type, double value, uint8_t* flags) {
  *flags = 0;
  return EncodeFloat(Format(type), ExactValue::FromDouble(value), RoundingMode::kNearestEven,
                     flags);
}

TEST(EncodeFloatTest, OverflowRulePerFormat) {
  uint8_t flags;
  // f8E4M3FN: 464 is the midpoint between 448 and the NaN slot: ties to even 448.
  EXPECT_EQ(Encode(ElementType::kF8E4M3FN, 464.0, &flags), 0x7Eu);
  EXPECT_EQ(Encode(ElementType::kF8E4M3FN, 465.0, &flags), 0x7Fu);
  EXPECT_TRUE(flags & kConversionOverflow);
  EXPECT_EQ(Encode(ElementType::kF8E4M3FN, -1e9, &flags), 0xFFu);
  // f16 overflows to Inf at 65520.
  EXPECT_EQ(Encode(ElementType::kF16, 65519.0, &flags), 0x7BFFu);
  EXPECT_EQ(Encode(ElementType::kF16, 65520.0, &flags), 0x7C00u);
  // FNUZ NaN has a single encoding regardless of sign.
  EXPECT_EQ(Encode(ElementType::kF8E5M2FNUZ, -1e9, &flags), 0x80u);
  // Finite-only formats saturate.
  EXPECT_EQ(Encode(ElementType::kF4E2M1FN, 100.0, &flags), 0x7u);
  EXPECT_EQ(Encode(ElementType::kF4E2M1FN, -100.0, &flags), 0xFu);
}

TEST(EncodeFloatTest, SubnormalsAndSignedZeros) {
  uint8_t flags;
  EXPECT_EQ(Encode(ElementType::kF16, std::ldexp(1.0, -24), &flags), 0x0001u);
  EXPECT_EQ(flags, kConversionExact);
  // Exactly half the smallest subnormal rounds to even (zero).
  EXPECT_EQ(Encode(ElementType::kF16, std::ldexp(1.0, -25), &flags), 0x0000u);
  EXPECT_EQ(flags, kConversionInexact);
  EXPECT_EQ(Encode(ElementType::kF16, -std::ldexp(1.0, -26), &flags), 0x8000u);
  // FNUZ types have no -0.
  EXPECT_EQ(Encode(ElementType::kF8E4M3FNUZ, -0.0, &flags), 0x00u);
  // f4E2M1FN: 0.125 -> 0, 0.25 ties to 0, 0.3 -> 0.5 (from the public corpus).
  EXPECT_EQ(Encode(ElementType::kF4E2M1FN, 0.125, &flags), 0x0u);
  EXPECT_EQ(Encode(ElementType::kF4E2M1FN, 0.25, &flags), 0x0u);
  EXPECT_EQ(Encode(ElementType::kF4E2M1FN, 0.3, &flags), 0x1u);
  EXPECT_EQ(Encode(ElementType::kF4E2M1FN, 3.1415, &flags), 0x5u);  // 3.0
}

TEST(EncodeFloatTest, E8M0RoundsTiesUpAndHasNoZeroOrSign) {
  uint8_t flags;
  EXPECT_EQ(Encode(ElementType::kF8E8M0FNU, 1.0, &flags), 0x7Fu);
  EXPECT_EQ(Encode(ElementType::kF8E8M0FNU, 1.5, &flags), 0x80u);
  EXPECT_EQ(Encode(ElementType::kF8E8M0FNU, 1.49, &flags), 0x7Fu);
  EXPECT_EQ(Encode(ElementType::kF8E8M0FNU, -1.0, &flags), 0xFFu);
  EXPECT_TRUE(flags & kConversionUnrepresentable);
  Encode(ElementType::kF8E8M0FNU, 0.0, &flags);
  EXPECT_TRUE(flags & kConversionUnrepresentable);
}

TEST(EncodeFloatTest, RoundTripsDoubleExactly) {
  for (double value : {1.0, -2.5, 1e-310, 5e-324, 1.7976931348623157e308, 0.1}) {
    EXPECT_EQ(ExactValue::FromDouble(value).ToDouble(), value);
  }
}

TEST(UlpTest, DistanceAcrossZeroAndToInfinity) {
  const FloatFormat& f16 = Format(ElementType::kF16);
  EXPECT_EQ(UlpDistance(f16, 0x0000, 0x8000), 0);
  EXPECT_EQ(UlpDistance(f16, 0x0001, 0x8001), 2);
  EXPECT_EQ(UlpDistance(f16, 0x7BFF, 0x7C00), 1);
  EXPECT_EQ(UlpDistance(f16, 0x7E00, 0x7C01), 0);  // two NaNs
  EXPECT_EQ(UlpDistance(f16, 0x7E00, 0x3C00), INT64_MAX);
  EXPECT_EQ(NextFloatBits(f16, 0x8000, false), 0x0001u);
  EXPECT_EQ(NextFloatBits(f16, 0x0000, true), 0x8001u);
  EXPECT_EQ(NextFloatBits(f16, 0x7C00, false), 0x7C00u);
}

TEST(ConvertElementsTest, SpecExample) {
  // %operand: [-1, 0, 1] : si64 -> complex<f64>: [(-1.0, 0.0), (0.0, 0.0), (1.0, 0.0)]
  int64_t source[3] = {-1, 0, 1};
  std::complex<double> result[3];
  uint8_t flags[3];
  ConvertElements(ElementType::kSI64, source, ElementType::kComplexF64, result, 3, flags);
  EXPECT_EQ(result[0], std::complex<double>(-1.0, 0.0));
  EXPECT_EQ(result[1], std::complex<double>(0.0, 0.0));
  EXPECT_EQ(result[2], std::complex<double>(1.0, 0.0));
  EXPECT_EQ(flags[0] | flags[1] | flags[2], 0);
}

TEST(ConvertElementsTest, FloatToIntegerTruncatesAndFlagsOutOfRange) {
  double source[5] = {-2.7, 2.7, 300.0, std::nan(""), -0.5};
  int8_t result[5];
  uint8_t flags[5];
  ConvertElements(ElementType::kF64, source, ElementType::kSI8, result, 5, flags);
  EXPECT_EQ(result[0], -2);
  EXPECT_EQ(result[1], 2);
  EXPECT_EQ(flags[1] & kConversionUnrepresentable, 0);
  EXPECT_TRUE(flags[2] & kConversionUnrepresentable);
  EXPECT_TRUE(flags[3] & kConversionUnrepresentable);
  EXPECT_EQ(result[4], 0);
}

TEST(ConvertElementsTest, IntegerNarrowingWrapsAndIsFlagged) {
  int32_t source[3] = {7, 8, -9};
  int8_t result[3];
  uint8_t flags[3];
  ConvertElements(ElementType::kSI32, source, ElementType::kSI4, result, 3, flags);
  EXPECT_EQ(result[0], 7);
  EXPECT_EQ(flags[0], 0);
  EXPECT_EQ(result[1], -8);
  EXPECT_TRUE(flags[1] & kConversionUnrepresentable);
  EXPECT_EQ(result[2], 7);
}

TEST(ConvertElementsTest, NoDoubleRoundingFromF64ToF16) {
  // 1 + 2^-11 + 2^-40: f64 -> f32 gives 1 + 2^-11 (a f16 tie, to even 1.0),
  // but the direct rounding sees it is above the tie and rounds up.
  double source = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  uint16_t result;
  ConvertElement(ElementType::kF64, &source, ElementType::kF16, &result);
  EXPECT_EQ(result, 0x3C01u);
}

}  // namespace
}  // namespace hlocheck
