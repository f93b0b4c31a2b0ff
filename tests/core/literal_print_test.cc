// Printing of dense literals and of case attributes.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/literal.h"
#include "tests/core/literal_test_util.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::ElementFromBits;
using ::hlocheck::testing::MakeTensor;
using ET = ElementType;

template <ElementType T>
std::string PrintBits(uint64_t low, uint64_t high = 0) {
  const ContainerT<T> value = ElementFromBits<T>(low, high);
  return PrintElementLiteral(T, &value);
}

template <ElementType T>
std::string PrintValue(ContainerT<T> value) {
  return PrintElementLiteral(T, &value);
}

TEST(PrintElementLiteralTest, BoolsAndIntegers) {
  EXPECT_EQ(PrintValue<ET::kI1>(1), "true");
  EXPECT_EQ(PrintValue<ET::kI1>(0), "false");
  EXPECT_EQ(PrintValue<ET::kSI4>(-8), "-8");
  EXPECT_EQ(PrintValue<ET::kSI8>(-128), "-128");
  EXPECT_EQ(PrintValue<ET::kUI8>(255), "255");
  EXPECT_EQ(PrintValue<ET::kUI2>(3), "3");
  EXPECT_EQ(PrintValue<ET::kSI64>(std::numeric_limits<int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(PrintValue<ET::kUI64>(std::numeric_limits<uint64_t>::max()), "18446744073709551615");
}

TEST(PrintElementLiteralTest, F32AndF64AreShortestRoundTripAndLookLikeFloats) {
  EXPECT_EQ(PrintValue<ET::kF32>(1.0f), "1.0");
  EXPECT_EQ(PrintValue<ET::kF32>(-0.0f), "-0.0");
  EXPECT_EQ(PrintValue<ET::kF32>(2.5f), "2.5");
  EXPECT_EQ(PrintValue<ET::kF32>(0.1f), "0.1");
  EXPECT_EQ(PrintValue<ET::kF32>(1e20f), "1.0e+20");
  // Equally short, the exact digits win over 123456790.
  EXPECT_EQ(PrintValue<ET::kF32>(123456792.0f), "123456792.0");
  EXPECT_EQ(PrintValue<ET::kF64>(0.1), "0.1");
  EXPECT_EQ(PrintValue<ET::kF64>(3.141592653589793), "3.141592653589793");
  EXPECT_EQ(PrintValue<ET::kF64>(5e-324), "5.0e-324");
}

TEST(PrintElementLiteralTest, NaNAndInfinityAreHexPatternsOfTheTypesWidth) {
  EXPECT_EQ(PrintValue<ET::kF32>(std::numeric_limits<float>::quiet_NaN()), "0x7FC00000");
  EXPECT_EQ(PrintBits<ET::kF32>(0xFFC00001), "0xFFC00001");
  EXPECT_EQ(PrintValue<ET::kF32>(-std::numeric_limits<float>::infinity()), "0xFF800000");
  EXPECT_EQ(PrintValue<ET::kF64>(std::numeric_limits<double>::quiet_NaN()), "0x7FF8000000000000");
  EXPECT_EQ(PrintBits<ET::kF16>(0x7C00), "0x7C00");
  EXPECT_EQ(PrintBits<ET::kF16>(0x7E01), "0x7E01");
  EXPECT_EQ(PrintBits<ET::kBF16>(0xFF80), "0xFF80");
  EXPECT_EQ(PrintBits<ET::kF8E4M3FN>(0x7F), "0x7F");
  EXPECT_EQ(PrintBits<ET::kF8E5M2>(0x7C), "0x7C");
  EXPECT_EQ(PrintBits<ET::kF8E4M3FNUZ>(0x80), "0x80");
  EXPECT_EQ(PrintBits<ET::kF8E8M0FNU>(0xFF), "0xFF");
}

TEST(PrintElementLiteralTest, NarrowFloatsAreTheShortestDecimalThatReadsBack) {
  EXPECT_EQ(PrintBits<ET::kF16>(0x3C00), "1.0");
  EXPECT_EQ(PrintBits<ET::kF16>(0x8000), "-0.0");
  EXPECT_EQ(PrintBits<ET::kF16>(0x2E66), "0.1");
  EXPECT_EQ(PrintBits<ET::kF16>(0x3555), "0.3333");
  EXPECT_EQ(PrintBits<ET::kF16>(0x0001), "6.0e-08");
  // Shortest significant digits, laid out as %g does: 65504 needs only 655.
  EXPECT_EQ(PrintBits<ET::kF16>(0x7BFF), "6.55e+04");
  EXPECT_EQ(PrintBits<ET::kF16>(0x6400), "1024.0");
  EXPECT_EQ(PrintBits<ET::kBF16>(0x3DCD), "0.1");
  EXPECT_EQ(PrintBits<ET::kBF16>(0x4049), "3.14");
  EXPECT_EQ(PrintBits<ET::kF8E4M3FN>(0x7E), "4.5e+02");  // 448
  EXPECT_EQ(PrintBits<ET::kF8E5M2FNUZ>(0x7F), "6.0e+04");
  EXPECT_EQ(PrintBits<ET::kF4E2M1FN>(0x7), "6.0");
  EXPECT_EQ(PrintBits<ET::kF4E2M1FN>(0x1), "0.5");
  EXPECT_EQ(PrintBits<ET::kF4E2M1FN>(0x8), "-0.0");
  EXPECT_EQ(PrintBits<ET::kF6E3M2FN>(0x1F), "3.0e+01");  // 28
  EXPECT_EQ(PrintBits<ET::kF6E3M2FN>(0x1E), "24.0");
  EXPECT_EQ(PrintBits<ET::kF8E8M0FNU>(0x7F), "1.0");
  EXPECT_EQ(PrintBits<ET::kF8E8M0FNU>(0x00), "6.0e-39");
}

TEST(PrintElementLiteralTest, ComplexIsAPairOfParts) {
  EXPECT_EQ(PrintValue<ET::kComplexF32>({1.0f, -2.0f}), "(1.0, -2.0)");
  EXPECT_EQ(PrintBits<ET::kComplexF32>(0x7FC00000, 0x80000000), "(0x7FC00000, -0.0)");
  EXPECT_EQ(PrintValue<ET::kComplexF64>({0.1, 1e300}), "(0.1, 1.0e+300)");
}

TEST(PrintDenseBodyTest, ListsSplatsAndRankZero) {
  const Tensor matrix = MakeTensor<ET::kSI32>({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(PrintDenseBody(matrix), "dense<[[1, 2], [3, 4]]>");
  EXPECT_EQ(PrintDenseAttribute(matrix), "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>");

  const Tensor splat = MakeTensor<ET::kF32>({2, 3}, std::vector<float>(6, 1.5f));
  EXPECT_EQ(PrintDenseBody(splat), "dense<1.5>");
  EXPECT_EQ(PrintDenseBody(splat, LiteralForm::kList), "dense<[[1.5, 1.5, 1.5], [1.5, 1.5, 1.5]]>");

  // Splats need at least two elements, and bitwise equality.
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kSI8>({1}, {5})), "dense<[5]>");
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kF32>({2}, {0.0f, -0.0f})), "dense<[0.0, -0.0]>");
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kI1>({3}, {1, 1, 1})), "dense<true>");

  const Tensor scalar = MakeTensor<ET::kSI32>({}, {5});
  EXPECT_EQ(PrintDenseBody(scalar), "dense<5>");
  EXPECT_EQ(PrintDenseBody(scalar, LiteralForm::kList), "dense<5>");
  EXPECT_EQ(PrintDenseAttribute(scalar), "dense<5> : tensor<i32>");

  EXPECT_EQ(PrintDenseAttribute(MakeTensor<ET::kComplexF64>({2}, {{1.0, 2.0}, {3.0, -4.5}})),
            "dense<[(1.0, 2.0), (3.0, -4.5)]> : tensor<2xcomplex<f64>>");
}

TEST(PrintDenseBodyTest, ZeroElementTensorsAreEmpty) {
  const Tensor empty(Shape{2, 0}, ET::kF32);
  EXPECT_EQ(PrintDenseBody(empty), "dense<>");
  EXPECT_EQ(PrintDenseBody(empty, LiteralForm::kList), "dense<>");
  EXPECT_EQ(PrintDenseBody(empty, LiteralForm::kHex), "dense<\"0x\">");
  EXPECT_EQ(PrintDenseAttribute(empty), "dense<> : tensor<2x0xf32>");
}

TEST(PrintDenseBodyTest, HexIsUppercaseLittleEndianElementBytes) {
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kF32>({2}, {1.0f, 2.0f}), LiteralForm::kHex),
            "dense<\"0x0000803F00000040\">");
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kSI4>({3}, {-1, 1, -8}), LiteralForm::kHex),
            "dense<\"0x0F0108\">");
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kBF16>({}, {0x3C80}), LiteralForm::kHex),
            "dense<\"0x803C\">");
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kComplexF32>({1}, {{1.0f, 2.0f}}), LiteralForm::kHex),
            "dense<\"0x0000803F00000040\">");
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kSI64>({}, {0x0123456789ABCDEF}), LiteralForm::kHex),
            "dense<\"0xEFCDAB8967452301\">");
  // i1 is bit-packed, element i in bit i % 8 of byte i / 8.
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kI1>({4}, {1, 0, 1, 0}), LiteralForm::kHex),
            "dense<\"0x05\">");
  EXPECT_EQ(
      PrintDenseBody(MakeTensor<ET::kI1>({10}, {1, 0, 0, 0, 0, 0, 0, 0, 0, 1}), LiteralForm::kHex),
      "dense<\"0x0102\">");
  // A splat is written out in full.
  EXPECT_EQ(PrintDenseBody(MakeTensor<ET::kUI8>({3}, {7, 7, 7}), LiteralForm::kHex),
            "dense<\"0x070707\">");
}

TEST(AttributeToStringTest, EveryAlternative) {
  EXPECT_EQ(AttributeToString(Attribute(true)), "true");
  EXPECT_EQ(AttributeToString(Attribute(false)), "false");
  EXPECT_EQ(AttributeToString(Attribute(int64_t{-42})), "-42");
  EXPECT_EQ(AttributeToString(Attribute(1.0)), "1.0");
  EXPECT_EQ(AttributeToString(Attribute(0.1)), "0.1");
  EXPECT_EQ(AttributeToString(Attribute(-2.5e-300)), "-2.5e-300");
  EXPECT_EQ(AttributeToString(Attribute(std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(AttributeToString(Attribute(std::string("a \"b\"\n"))), "\"a \\\"b\\\"\\n\"");
  EXPECT_EQ(AttributeToString(Attribute(EnumValue{"HIGHEST"})), "HIGHEST");
  EXPECT_EQ(AttributeToString(Attribute(std::vector<int64_t>{1, -2})), "[1, -2]");
  EXPECT_EQ(AttributeToString(Attribute(std::vector<int64_t>{})), "[]");
  EXPECT_EQ(AttributeToString(Attribute(std::vector<bool>{true, false})), "[true, false]");
  EXPECT_EQ(AttributeToString(Attribute(std::vector<EnumValue>{{"DEFAULT"}, {"HIGH"}})),
            "[DEFAULT, HIGH]");
  EXPECT_EQ(AttributeToString(Attribute(MakeTensor<ET::kSI64>({2}, {1, 2}))),
            "dense<[1, 2]> : tensor<2xi64>");
}

}  // namespace
}  // namespace hlocheck
