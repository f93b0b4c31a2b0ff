// Parsing of tensor types and dense literals: every accepted form, the
// public corpus' own literals, correct rounding, and rejected input.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "core/literal.h"
#include "tests/core/literal_test_util.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::BodyError;
using ::hlocheck::testing::Contains;
using ::hlocheck::testing::ElementBits;
using ::hlocheck::testing::ParseOrFail;
using ET = ElementType;
using Bits = std::vector<uint64_t>;

TensorType Type(Shape shape, ElementType element_type) { return {std::move(shape), element_type}; }

Bits BodyBits(std::string_view body, const TensorType& type) {
  absl::StatusOr<Tensor> parsed = ParseDenseBody(body, type);
  EXPECT_TRUE(parsed.ok()) << body << "\n" << parsed.status();
  return parsed.ok() ? ElementBits(*parsed) : Bits{};
}

uint64_t ElementLiteralBits(std::string_view text, ElementType type) {
  Tensor one(Shape{}, type);
  absl::Status status = ParseElementLiteral(text, type, one.raw());
  EXPECT_TRUE(status.ok()) << text << "\n" << status;
  return ElementBits(one).front();
}

std::string ElementLiteralError(std::string_view text, ElementType type) {
  Tensor one(Shape{}, type);
  absl::Status status = ParseElementLiteral(text, type, one.raw());
  return status.ok() ? "" : std::string(status.message());
}

// --- Tensor types -----------------------------------------------------------

TEST(ParseTensorTypeTest, ShapesAndElementTypes) {
  absl::StatusOr<TensorType> type = ParseTensorType("tensor<2x3xf32>");
  ASSERT_TRUE(type.ok()) << type.status();
  EXPECT_EQ(*type, Type({2, 3}, ET::kF32));
  EXPECT_EQ(*ParseTensorType("tensor<f32>"), Type({}, ET::kF32));
  EXPECT_EQ(*ParseTensorType("tensor<0x4xcomplex<f64>>"), Type({0, 4}, ET::kComplexF64));
  EXPECT_EQ(*ParseTensorType("tensor<2xi32>"), Type({2}, ET::kSI32));
  EXPECT_EQ(*ParseTensorType("tensor<7xi1>"), Type({7}, ET::kI1));
  EXPECT_EQ(*ParseTensorType("tensor<1x1x1xui4>"), Type({1, 1, 1}, ET::kUI4));
  EXPECT_EQ(*ParseTensorType("  tensor<3xf8E4M3FNUZ>\n"), Type({3}, ET::kF8E4M3FNUZ));
}

TEST(ParseTensorTypeTest, ReadsBackEveryPrintedType) {
  for (ElementType element_type : AllElementTypes()) {
    for (const Shape& shape : {Shape{}, Shape{5}, Shape{2, 0, 3}}) {
      const TensorType type = Type(shape, element_type);
      absl::StatusOr<TensorType> parsed = ParseTensorType(type.ToString());
      ASSERT_TRUE(parsed.ok()) << type.ToString() << "\n" << parsed.status();
      EXPECT_EQ(*parsed, type);
    }
  }
}

TEST(ParseTensorTypeTest, RejectsMalformedTypes) {
  const struct {
    const char* text;
    const char* message;
  } kCases[] = {
      {"", "expected a type"},
      {"vector<2xf32>", "expected a type"},
      {"tensor<2xf32", "expected '>' closing the tensor type"},
      {"tensor<>", "missing element type"},
      {"tensor<2x3>", "expected 'x' after a dimension"},
      {"tensor<2xf33>", "unknown element type 'f33'"},
      {"tensor<?xf32>", "dynamic dimensions"},
      {"tensor<2x?xf32>", "dynamic dimensions"},
      {"tensor<-1xf32>", "missing element type"},
      {"tensor<2xf32, #enc>", "expected '>' closing the tensor type"},
      {"!stablehlo.token", "expected a tensor type"},
      {"tensor<99999999999999999999xf32>", "dimension too large"},
      {"tensor<4294967296x4294967296xf32>", "too many elements"},
  };
  for (const auto& c : kCases) {
    absl::StatusOr<TensorType> type = ParseTensorType(c.text);
    ASSERT_FALSE(type.ok()) << c.text;
    EXPECT_EQ(type.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Contains(std::string(type.status().message()), c.message)) << c.text;
  }
}

// --- The forms of a dense body ----------------------------------------------

TEST(ParseDenseBodyTest, NestedListsFillRowMajor) {
  EXPECT_EQ(BodyBits("[[1, 2], [3, 4]]", Type({2, 2}, ET::kSI32)), (Bits{1, 2, 3, 4}));
  EXPECT_EQ(BodyBits("[[[1], [2], [3]], [[4], [5], [6]]]", Type({2, 3, 1}, ET::kUI8)),
            (Bits{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(BodyBits("[true, false, 1, 0]", Type({4}, ET::kI1)), (Bits{1, 0, 1, 0}));
}

TEST(ParseDenseBodyTest, WhitespaceAndLineBreaksAnywhereBetweenTokens) {
  EXPECT_EQ(BodyBits("\n  [ [1 ,\n 2\t] ,\r\n[3,4]\n]  \n", Type({2, 2}, ET::kSI64)),
            (Bits{1, 2, 3, 4}));
  EXPECT_EQ(BodyBits(" ( 1.0 ,\n-2.0 ) ", Type({}, ET::kComplexF32)),
            (Bits{0x3F800000, 0xC0000000}));
}

TEST(ParseDenseBodyTest, BareValueIsSplat) {
  EXPECT_EQ(BodyBits("1.5", Type({2, 3}, ET::kF32)), Bits(6, 0x3FC00000));
  EXPECT_EQ(BodyBits("5", Type({}, ET::kSI32)), (Bits{5}));
  EXPECT_EQ(BodyBits("true", Type({3}, ET::kI1)), (Bits{1, 1, 1}));
  EXPECT_EQ(BodyBits("(1.0, 2.0)", Type({2}, ET::kComplexF64)),
            (Bits{0x3FF0000000000000, 0x4000000000000000, 0x3FF0000000000000, 0x4000000000000000}));
  // A splat of a zero-element tensor fills nothing.
  EXPECT_EQ(BodyBits("7", Type({0, 3}, ET::kSI8)), Bits{});
}

TEST(ParseDenseBodyTest, ZeroElementTensors) {
  EXPECT_EQ(BodyBits("", Type({0}, ET::kF32)), Bits{});
  EXPECT_EQ(BodyBits("  ", Type({2, 0}, ET::kF32)), Bits{});
  EXPECT_EQ(BodyBits("[]", Type({0}, ET::kF32)), Bits{});
  EXPECT_EQ(BodyBits("[]", Type({0, 3}, ET::kF32)), Bits{});
  EXPECT_EQ(BodyBits("[[], []]", Type({2, 0}, ET::kF32)), Bits{});
  EXPECT_EQ(BodyBits("\"0x\"", Type({0}, ET::kI1)), Bits{});
}

TEST(ParseDenseBodyTest, HexDataIsLittleEndianElementBytes) {
  EXPECT_EQ(BodyBits("\"0x0000803F00000040\"", Type({2}, ET::kF32)),
            (Bits{0x3F800000, 0x40000000}));
  EXPECT_EQ(BodyBits("\"0x0000803f00000040\"", Type({2}, ET::kF32)),
            (Bits{0x3F800000, 0x40000000}));
  // complex<f32>: real part, then imaginary part.
  EXPECT_EQ(BodyBits("\"0x0000803F00000040\"", Type({}, ET::kComplexF32)),
            (Bits{0x3F800000, 0x40000000}));
  // Sub-byte types take one byte each; the value sits in the low bits.
  EXPECT_EQ(BodyBits("\"0x0F0108\"", Type({3}, ET::kSI4)), (Bits{0xF, 0x1, 0x8}));
  EXPECT_EQ(BodyBits("\"0x0F0108\"", Type({3}, ET::kUI4)), (Bits{15, 1, 8}));
  EXPECT_EQ(BodyBits("\"0x07\"", Type({}, ET::kF4E2M1FN)), (Bits{0x7}));
  EXPECT_EQ(BodyBits("\"0x3F\"", Type({}, ET::kF6E3M2FN)), (Bits{0x3F}));
  EXPECT_EQ(BodyBits("\"0x803C\"", Type({}, ET::kBF16)), (Bits{0x3C80}));
  EXPECT_EQ(BodyBits("\"0xEFCDAB8967452301\"", Type({}, ET::kSI64)), (Bits{0x0123456789ABCDEF}));
}

TEST(ParseDenseBodyTest, HexSplatIsOneElementsBytes) {
  EXPECT_EQ(BodyBits("\"0x0000803F\"", Type({2, 2}, ET::kF32)), Bits(4, 0x3F800000));
  EXPECT_EQ(BodyBits("\"0x0000803F00000000\"", Type({3}, ET::kComplexF32)),
            (Bits{0x3F800000, 0, 0x3F800000, 0, 0x3F800000, 0}));
  EXPECT_EQ(BodyBits("\"0x0000803F\"", Type({0}, ET::kF32)), Bits{});
}

TEST(ParseDenseBodyTest, HexBoolsAreBitPackedOrOneBytePerElement) {
  // Bit-packed: element i is bit i % 8 of byte i / 8.
  EXPECT_EQ(BodyBits("\"0x05\"", Type({4}, ET::kI1)), (Bits{1, 0, 1, 0}));
  EXPECT_EQ(BodyBits("\"0x0102\"", Type({10}, ET::kI1)), (Bits{1, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(BodyBits("\"0x01\"", Type({}, ET::kI1)), (Bits{1}));
  // One byte per element.
  EXPECT_EQ(BodyBits("\"0x00010100\"", Type({4}, ET::kI1)), (Bits{0, 1, 1, 0}));
  // MLIR's one-byte splats.
  EXPECT_EQ(BodyBits("\"0xFF\"", Type({16}, ET::kI1)), Bits(16, 1));
  EXPECT_EQ(BodyBits("\"0x00\"", Type({16}, ET::kI1)), Bits(16, 0));
  EXPECT_TRUE(Contains(BodyError("\"0x02\"", Type({16}, ET::kI1)), "bit-packed"));
  EXPECT_TRUE(Contains(BodyError("\"0x0102\"", Type({3}, ET::kI1)), "2 bytes does not fit"));
}

// --- Elements ---------------------------------------------------------------

TEST(ParseElementLiteralTest, IntegersDecimalAndHexBitPatterns) {
  EXPECT_EQ(ElementLiteralBits("-128", ET::kSI8), 0x80u);
  EXPECT_EQ(ElementLiteralBits("127", ET::kSI8), 0x7Fu);
  EXPECT_EQ(ElementLiteralBits("0xFF", ET::kSI8), 0xFFu);  // -1
  EXPECT_EQ(ElementLiteralBits("0x7f", ET::kSI8), 0x7Fu);
  EXPECT_EQ(ElementLiteralBits("-0x80", ET::kSI8), 0x80u);
  EXPECT_EQ(ElementLiteralBits("0xFF", ET::kUI8), 0xFFu);
  EXPECT_EQ(ElementLiteralBits("+7", ET::kUI8), 7u);
  EXPECT_EQ(ElementLiteralBits("-0", ET::kUI8), 0u);
  EXPECT_EQ(ElementLiteralBits("0xF", ET::kSI4), 0xFu);
  EXPECT_EQ(ElementLiteralBits("-2", ET::kSI2), 0x2u);
  EXPECT_EQ(ElementLiteralBits("3", ET::kUI2), 3u);
  EXPECT_EQ(ElementLiteralBits("0xFFFFFFFFFFFFFFFF", ET::kSI64), ~uint64_t{0});
  EXPECT_EQ(ElementLiteralBits("-9223372036854775808", ET::kSI64), uint64_t{1} << 63);
  EXPECT_EQ(ElementLiteralBits("18446744073709551615", ET::kUI64), ~uint64_t{0});
  EXPECT_EQ(ElementLiteralBits("000123", ET::kSI16), 123u);
  EXPECT_EQ(ElementLiteralBits("true", ET::kI1), 1u);
  EXPECT_EQ(ElementLiteralBits("false", ET::kI1), 0u);
  EXPECT_EQ(ElementLiteralBits("1", ET::kI1), 1u);
  EXPECT_EQ(ElementLiteralBits("0x0", ET::kI1), 0u);
}

TEST(ParseElementLiteralTest, FloatSpellings) {
  EXPECT_EQ(ElementLiteralBits("1.0", ET::kF32), 0x3F800000u);
  EXPECT_EQ(ElementLiteralBits("3", ET::kF32), 0x40400000u);
  EXPECT_EQ(ElementLiteralBits(".5", ET::kF32), 0x3F000000u);
  EXPECT_EQ(ElementLiteralBits("5.", ET::kF32), 0x40A00000u);
  EXPECT_EQ(ElementLiteralBits("+1.0", ET::kF32), 0x3F800000u);
  EXPECT_EQ(ElementLiteralBits("-2.5e-3", ET::kF64), std::bit_cast<uint64_t>(-2.5e-3));
  EXPECT_EQ(ElementLiteralBits("1E3", ET::kF64), std::bit_cast<uint64_t>(1000.0));
  EXPECT_EQ(ElementLiteralBits("-0.0", ET::kF32), 0x80000000u);
  EXPECT_EQ(ElementLiteralBits("-0", ET::kF16), 0x8000u);
  EXPECT_EQ(ElementLiteralBits("nan", ET::kF32), 0x7FC00000u);
  EXPECT_EQ(ElementLiteralBits("-nan", ET::kF32), 0xFFC00000u);
  EXPECT_EQ(ElementLiteralBits("NaN", ET::kF16), 0x7E00u);
  EXPECT_EQ(ElementLiteralBits("inf", ET::kF32), 0x7F800000u);
  EXPECT_EQ(ElementLiteralBits("+inf", ET::kBF16), 0x7F80u);
  EXPECT_EQ(ElementLiteralBits("-inf", ET::kF64), 0xFFF0000000000000u);
  EXPECT_EQ(ElementLiteralBits("nan", ET::kF8E4M3FN), 0x7Fu);
  EXPECT_EQ(ElementLiteralBits("-nan", ET::kF8E4M3FNUZ), 0x80u);
  EXPECT_EQ(ElementLiteralBits("nan", ET::kF8E8M0FNU), 0xFFu);
  // Hex is the raw pattern of exactly this type; padding is optional.
  EXPECT_EQ(ElementLiteralBits("0x7FC00001", ET::kF32), 0x7FC00001u);
  EXPECT_EQ(ElementLiteralBits("0x1", ET::kF32), 0x1u);
  EXPECT_EQ(ElementLiteralBits("0x0001", ET::kBF16), 0x1u);
  EXPECT_EQ(ElementLiteralBits("0x7FF0000000000001", ET::kF64), 0x7FF0000000000001u);
  EXPECT_EQ(ElementLiteralBits("0x07", ET::kF4E2M1FN), 0x7u);
  EXPECT_EQ(ElementLiteralBits("(0x89ABCDEF, -1.5)", ET::kComplexF32),
            0x89ABCDEFu);  // the real part
}

TEST(ParseElementLiteralTest, ComplexTakesBothParts) {
  Tensor one(Shape{}, ET::kComplexF64);
  ASSERT_TRUE(ParseElementLiteral("(1.0, -2.0)", ET::kComplexF64, one.raw()).ok());
  EXPECT_EQ(one.values<ET::kComplexF64>()[0], std::complex<double>(1.0, -2.0));
  ASSERT_TRUE(ParseElementLiteral("(nan,inf)", ET::kComplexF32, one.raw()).ok());
}

TEST(ParseElementLiteralTest, DecimalsRoundOnceToNearestEven) {
  // f16 neighbours 1.0 (0x3C00) and 1 + 2^-10 (0x3C01); the tie is 1 + 2^-11.
  EXPECT_EQ(ElementLiteralBits("1.00048828125", ET::kF16), 0x3C00u);
  // Just above the tie. Through a double this would first round onto the tie
  // and then to even (0x3C00): the double rounding a single rounding avoids.
  EXPECT_EQ(ElementLiteralBits("1.000488281250000000000000001", ET::kF16), 0x3C01u);
  EXPECT_EQ(ElementLiteralBits("1.000488281249999999999999999", ET::kF16), 0x3C00u);
  EXPECT_EQ(ElementLiteralBits("1.00146484375", ET::kF16), 0x3C02u);  // tie to even
  EXPECT_EQ(ElementLiteralBits("1.003906250000000000000000001", ET::kBF16), 0x3F81u);
  EXPECT_EQ(ElementLiteralBits("1.00390625", ET::kBF16), 0x3F80u);
  EXPECT_EQ(ElementLiteralBits("1.000000059604644775390625", ET::kF32), 0x3F800000u);
  EXPECT_EQ(ElementLiteralBits("1.0000000596046447753906250001", ET::kF32), 0x3F800001u);
  EXPECT_EQ(ElementLiteralBits("0.1", ET::kF16), 0x2E66u);
  EXPECT_EQ(ElementLiteralBits("3.141", ET::kF16), 0x4248u);
  EXPECT_EQ(ElementLiteralBits("0.1", ET::kBF16), 0x3DCDu);
}

TEST(ParseElementLiteralTest, OverflowFollowsEachTypesRule) {
  EXPECT_EQ(ElementLiteralBits("65520", ET::kF16), 0x7C00u);  // the overflow threshold
  EXPECT_EQ(ElementLiteralBits("65519.99", ET::kF16), 0x7BFFu);
  EXPECT_EQ(ElementLiteralBits("1e39", ET::kF32), 0x7F800000u);
  EXPECT_EQ(ElementLiteralBits("-1e400", ET::kF64), 0xFFF0000000000000u);
  EXPECT_EQ(ElementLiteralBits("1e-400", ET::kF64), 0u);
  EXPECT_EQ(ElementLiteralBits("-1e-50", ET::kF32), 0x80000000u);
  EXPECT_EQ(ElementLiteralBits("7.1e-46", ET::kF32), 0x1u);  // above half the smallest subnormal
  EXPECT_EQ(ElementLiteralBits("7e-46", ET::kF32), 0x0u);
  EXPECT_EQ(ElementLiteralBits("464", ET::kF8E4M3FN), 0x7Eu);
  EXPECT_EQ(ElementLiteralBits("465", ET::kF8E4M3FN), 0x7Fu);  // NaN: no Inf
  EXPECT_EQ(ElementLiteralBits("-1e9", ET::kF8E5M2FNUZ), 0x80u);
  EXPECT_EQ(ElementLiteralBits("100", ET::kF4E2M1FN), 0x7u);  // saturates
  EXPECT_EQ(ElementLiteralBits("-100", ET::kF6E2M3FN), 0x3Fu);
  // Exponents far beyond any format, and beyond MPFR's default range.
  EXPECT_EQ(ElementLiteralBits("1e999999999999", ET::kF16), 0x7C00u);
  EXPECT_EQ(ElementLiteralBits("1e99999999999999999999", ET::kF8E4M3FN), 0x7Fu);
  EXPECT_EQ(ElementLiteralBits("-1e-99999999999999999999", ET::kBF16), 0x8000u);
}

TEST(ParseElementLiteralTest, E8M0TakesZeroAsItsSmallestValueLikeApFloat) {
  // The public corpus writes 0.0 for f8E8M0FNU, which has no zero.
  EXPECT_EQ(ElementLiteralBits("0.0", ET::kF8E8M0FNU), 0x00u);
  EXPECT_EQ(ElementLiteralBits("1.0", ET::kF8E8M0FNU), 0x7Fu);
  EXPECT_EQ(ElementLiteralBits("-1.0", ET::kF8E8M0FNU), 0xFFu);  // NaN: no sign
}

TEST(ParseElementLiteralTest, RejectsAnythingButOneElement) {
  EXPECT_EQ(ElementLiteralBits("  -3 \n", ET::kSI32), 0xFFFFFFFDu);
  EXPECT_EQ(ElementLiteralError("1 2", ET::kSI32), "column 3: unexpected '2' after the literal");
  EXPECT_EQ(ElementLiteralError("[1]", ET::kSI32), "column 1: expected a si32 literal, found '['");
  EXPECT_EQ(ElementLiteralError("", ET::kF16),
            "column 1: expected a f16 literal, found the end of the literal");
  EXPECT_EQ(ElementLiteralError("(1.0, 2.0) x", ET::kComplexF64),
            "column 12: unexpected 'x' after the literal");
  EXPECT_EQ(ElementLiteralError("300", ET::kUI8), "column 1: 300 is out of range for ui8 [0, 255]");
}

// --- The public corpus' own literals ------------------------------------------

TEST(CorpusLiteralTest, F4E2M1FNConstant) {
  const Tensor tensor = ParseOrFail(
      "dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x07, 0x0F, 0x01, 0x09]> : "
      "tensor<10xf4E2M1FN>");
  // [0, -0, 1, 0, 0, 3, 6, -6, 0.5, -0.5]
  EXPECT_EQ(ElementBits(tensor), (Bits{0x0, 0x8, 0x2, 0x0, 0x0, 0x5, 0x7, 0xF, 0x1, 0x9}));
  std::vector<double> values;
  for (uint8_t bits : tensor.values<ET::kF4E2M1FN>())
    values.push_back(ToDouble<ET::kF4E2M1FN>(bits));
  EXPECT_EQ(values, (std::vector<double>{0, -0.0, 1, 0, 0, 3, 6, -6, 0.5, -0.5}));
  EXPECT_TRUE(std::signbit(values[1]));
}

TEST(CorpusLiteralTest, F8E8M0FNUConstant) {
  const Tensor tensor =
      ParseOrFail("dense<[0.0, 1.0, 0.125, 0.1, 3.1415, 0x00, 0x80, 0xFF]> : tensor<8xf8E8M0FNU>");
  EXPECT_EQ(ElementBits(tensor), (Bits{0x00, 0x7F, 0x7C, 0x7C, 0x81, 0x00, 0x80, 0xFF}));
}

// Each constant test of the corpus writes its input and the expected value;
// both must denote the same bits.
TEST(CorpusLiteralTest, InputsAndExpectedValuesAgree) {
  const struct {
    const char* input;
    const char* expected;
  } kPairs[] = {
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x07, 0x0F, 0x01, 0x09]> : tensor<10xf4E2M1FN>",
       "dense<[0.0, -0.0, 1.0, 0.0, 0.0, 3.0, 6.0, -6.0, 0.5, -0.5]> : tensor<10xf4E2M1FN>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x1F, 0x3F, 0x01, 0x21]> : tensor<10xf6E2M3FN>",
       "dense<[0.0, -0.0, 1.0, 0.125, 0.125, 3.25, 7.5, -7.5, 0.125, -0.125]> : "
       "tensor<10xf6E2M3FN>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x1F, 0x3F, 0x01, 0x21]> : tensor<10xf6E3M2FN>",
       "dense<[0.0, -0.0, 1.0, 0.125, 0.125, 3.0, 28.0, -28.0, 0.0625, -0.0625]> : "
       "tensor<10xf6E3M2FN>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x7F, 0xFF, 0x01, 0x81]> : tensor<10xf8E3M4>",
       "dense<[0.0, -0.0, 1.0, 0.125, 0.09375, 3.125, 0x7F, 0xFF, 0.015625, -0.015625]> : "
       "tensor<10xf8E3M4>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x7F, 0xFF, 0x01, 0x81]> : tensor<10xf8E4M3>",
       "dense<[0.0, -0.0, 1.0, 0.125, 0.1015630, 3.25, 0x7F, 0xFF, 0.001953130, -0.001953130]> : "
       "tensor<10xf8E4M3>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x7F, 0xFF, 0x01, 0x81]> : tensor<10xf8E4M3FN>",
       "dense<[0.0, -0.0, 1.0, 0.125, 0.1015630, 3.25, 0x7F, 0xFF, 0.001953130, -0.001953130]> : "
       "tensor<10xf8E4M3FN>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x7F, 0xFF, 0x01, 0x81]> : tensor<10xf8E5M2>",
       "dense<[0.0, -0.0, 1.0, 0.125, 0.09375, 3.0, 0x7F, 0xFF, 0.0000152588, -0.0000152588]> : "
       "tensor<10xf8E5M2>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x7F, 0xFF, 0x01, 0x81]> : "
       "tensor<10xf8E5M2FNUZ>",
       "dense<[0.0, 0.0, 1.0, 0.125, 0.09375, 3.0, 57344.0, -57344.0, 0.00000762939, "
       "-0.00000762939]> : tensor<10xf8E5M2FNUZ>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x7F, 0xFF, 0x01, 0x81]> : "
       "tensor<10xf8E4M3FNUZ>",
       "dense<[0.0, 0.0, 1.0, 0.125, 0.101563, 3.25, 240.0, -240.0, 0.000976562, -0.0009765620]> : "
       "tensor<10xf8E4M3FNUZ>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x7F, 0xFF, 0x01, 0x81]> : "
       "tensor<10xf8E4M3B11FNUZ>",
       "dense<[0.0, 0.0, 1.0, 0.125, 0.101563, 3.25, 30.0, -30.0, 0.00012207, -0.00012207]> : "
       "tensor<10xf8E4M3B11FNUZ>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.140630, 0x7F80, 0xFF80, 0x7FFF, 0x0001, 0x8001]> : "
       "tensor<11xbf16>",
       "dense<[0.000000e+00, -0.000000e+00, 1.000000e+00, 1.250000e-01, 1.000980e-01, "
       "3.140630e+00, 0x7F80, 0xFF80, 0x7FFF, 9.183550e-41, -9.183550e-41]> : tensor<11xbf16>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.140630, 0x7C00, 0xFC00, 0x7FFF, 0x0001, 0x8001]> : "
       "tensor<11xf16>",
       "dense<[0.000000e+00, -0.000000e+00, 1.000000e+00, 1.250000e-01, 9.997550e-02, "
       "3.140630e+00, 0x7C00, 0xFC00, 0x7FFF, 5.960460e-08, -5.960460e-08]> : tensor<11xf16>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.14159274, 0x7F800000, 0xFF800000, 0x7FFFFFFF, "
       "0x00000001, 0x80000001]> : tensor<11xf32>",
       "dense<[0.000000e+00, -0.000000e+00, 1.000000e+00, 1.250000e-01, 1.000000e-01, 3.14159274, "
       "0x7F800000, 0xFF800000, 0x7FFFFFFF, 1.401300e-45, -1.401300e-45]> : tensor<11xf32>"},
      {"dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415926535897931, 0x7FF0000000000000, "
       "0xFFF0000000000000, 0x7FFFFFFFFFFFFFFF, 0x0000000000000001, 0x8000000000000001]> : "
       "tensor<11xf64>",
       "dense<[0.000000e+00, -0.000000e+00, 1.000000e+00, 1.250000e-01, 1.000000e-01, "
       "3.1415926535897931, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FFFFFFFFFFFFFFF, "
       "4.940660e-324, -4.940660e-324]> : tensor<11xf64>"},
      {"dense<[(1.5, 2.5), (3.5, 4.5)]> : tensor<2xcomplex<f32>>",
       "dense<[(1.500000e+00, 2.500000e+00), (3.500000e+00, 4.500000e+00)]> : "
       "tensor<2xcomplex<f32>>"},
  };
  for (const auto& pair : kPairs) {
    const Tensor input = ParseOrFail(pair.input);
    const Tensor expected = ParseOrFail(pair.expected);
    EXPECT_TRUE(input.BitwiseEquals(expected)) << pair.input << "\nvs\n" << pair.expected;
  }
}

TEST(CorpusLiteralTest, IntegerBoolAndComplexConstants) {
  EXPECT_EQ(ElementBits(ParseOrFail("dense<[-8, -1, 2, -3, 0]> : tensor<5xi4>")),
            (Bits{0x8, 0xF, 0x2, 0xD, 0x0}));
  EXPECT_EQ(ElementBits(ParseOrFail("dense<[15, 3]> : tensor<2xui4>")), (Bits{15, 3}));
  EXPECT_EQ(ElementBits(ParseOrFail("dense<[0, 1, 128, -129, 0]> : tensor<5xi16>")),
            (Bits{0, 1, 128, 0xFF7F, 0}));
  EXPECT_EQ(
      ElementBits(ParseOrFail(
          "dense<[-9223372036854775808, -1, 2147483648, -2147483649, 9223372036854775807]> "
          ": tensor<5xi64>")),
      (Bits{uint64_t{1} << 63, ~uint64_t{0}, 2147483648u, 0xFFFFFFFF7FFFFFFF, 0x7FFFFFFFFFFFFFFF}));
  EXPECT_EQ(ElementBits(ParseOrFail("dense<0x0123456789ABCDEF> : tensor<i64>")),
            (Bits{0x0123456789ABCDEF}));
  EXPECT_EQ(ElementBits(ParseOrFail("dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>")),
            (Bits{1, 0, 0, 1}));
  EXPECT_EQ(ElementBits(ParseOrFail("dense<false> : tensor<2xi1>")), (Bits{0, 0}));
  EXPECT_EQ(ElementBits(ParseOrFail("dense<[false, true, true, false]> : tensor<4xi1>")),
            (Bits{0, 1, 1, 0}));
  EXPECT_EQ(ElementBits(ParseOrFail(
                "dense<(0x0123456789ABCDEF, 0x0000000011111111)> : tensor<complex<f64>>")),
            (Bits{0x0123456789ABCDEF, 0x11111111}));
  EXPECT_EQ(ElementBits(ParseOrFail("dense<[(0x89ABCDEF, 0x01234567), (0x11111111, 0x00000000)]> "
                                    ": tensor<2xcomplex<f32>>")),
            (Bits{0x89ABCDEF, 0x01234567, 0x11111111, 0}));
  EXPECT_EQ(ElementBits(ParseOrFail("dense<(3.140000e+00,1.000000e+00)> : tensor<2xcomplex<f64>>")),
            (Bits{std::bit_cast<uint64_t>(3.14), 0x3FF0000000000000, std::bit_cast<uint64_t>(3.14),
                  0x3FF0000000000000}));
  EXPECT_EQ(ElementBits(ParseOrFail(
                "dense<[0xFF80, -2.5, 0x8001, -0.0, 0.0, 0x0001, 2.5, 0x7F80, 0x7FC0]> : "
                "tensor<9xbf16>")),
            (Bits{0xFF80, 0xC020, 0x8001, 0x8000, 0, 1, 0x4020, 0x7F80, 0x7FC0}));
}

// --- Rejected input -----------------------------------------------------------

TEST(ParseDenseBodyErrorTest, ListLengthsAndNestingMustMatchTheShape) {
  const TensorType two_by_two = Type({2, 2}, ET::kSI32);
  EXPECT_EQ(BodyError("[[1, 2],[3, 4, 5]]", two_by_two),
            "column 9: expected 2 elements in dimension 1, found 3");
  EXPECT_EQ(BodyError("[[1, 2], [3]]", two_by_two),
            "column 10: expected 2 elements in dimension 1, found 1");
  EXPECT_EQ(BodyError("[[1, 2], [3, 4], [5, 6]]", two_by_two),
            "column 1: expected 2 elements in dimension 0, found 3");
  EXPECT_EQ(BodyError("[[1, 2], [3, 4], [5, 6", two_by_two),
            "column 1: expected 2 elements in dimension 0, found more");
  EXPECT_EQ(BodyError("[]", two_by_two), "column 1: expected 2 elements in dimension 0, found 0");
  EXPECT_EQ(BodyError("[1]", Type({0}, ET::kSI32)),
            "column 1: expected 0 elements in dimension 0, found 1");
  EXPECT_TRUE(Contains(BodyError("[1, 2, 3, 4]", two_by_two),
                       "column 2: expected '[' opening a list for dimension 1"));
  EXPECT_TRUE(Contains(BodyError("[[[1], [2]], [[3], [4]]]", two_by_two),
                       "column 3: expected a si32 literal, found '[': the list nests deeper"));
  EXPECT_TRUE(Contains(BodyError("[5]", Type({}, ET::kSI32)), "rank-0 tensor"));
  EXPECT_TRUE(Contains(BodyError("", two_by_two), "empty literal"));
}

TEST(ParseDenseBodyErrorTest, IntegersOutOfRange) {
  EXPECT_EQ(BodyError("[1, 128]", Type({2}, ET::kSI8)),
            "column 5: 128 is out of range for si8 [-128, 127]");
  EXPECT_TRUE(Contains(BodyError("-129", Type({}, ET::kSI8)), "out of range"));
  EXPECT_TRUE(Contains(BodyError("-1", Type({}, ET::kUI8)), "out of range for ui8 [0, 255]"));
  EXPECT_TRUE(Contains(BodyError("256", Type({}, ET::kUI8)), "out of range"));
  EXPECT_TRUE(Contains(BodyError("8", Type({}, ET::kSI4)), "out of range"));
  EXPECT_TRUE(Contains(BodyError("2", Type({}, ET::kI1)), "out of range"));
  EXPECT_TRUE(Contains(BodyError("9223372036854775808", Type({}, ET::kSI64)), "out of range"));
  EXPECT_TRUE(Contains(BodyError("99999999999999999999", Type({}, ET::kUI64)), "out of range"));
  EXPECT_TRUE(Contains(BodyError("0x100", Type({}, ET::kUI8)), "does not fit in the 8 bits"));
  EXPECT_TRUE(Contains(BodyError("0x10", Type({}, ET::kSI4)), "does not fit"));
  EXPECT_TRUE(Contains(BodyError("0x1FFFF", Type({}, ET::kF16)), "does not fit in the 16 bits"));
  EXPECT_TRUE(Contains(BodyError("0x10", Type({}, ET::kF4E2M1FN)), "does not fit"));
  EXPECT_TRUE(Contains(BodyError("0x10000000000000000", Type({}, ET::kF64)), "does not fit"));
}

TEST(ParseDenseBodyErrorTest, MalformedElementsAndStructure) {
  const struct {
    const char* body;
    ElementType type;
    const char* message;
  } kCases[] = {
      {"abc", ET::kF32, "column 1: expected a f32 literal, found 'abc'"},
      {"[1, abc]", ET::kSI32, "column 5: expected a si32 literal, found 'abc'"},
      {"[1.0, 2]", ET::kSI32, "column 2: expected a si32 literal, found '1.0'"},
      {"[1,, 2]", ET::kSI32, "column 4: expected a si32 literal, found ','"},
      {"[1, 2,]", ET::kSI32, "column 7: expected a si32 literal, found ']'"},
      {"[1 2]", ET::kSI32, "column 4: expected ',' or ']', found '2'"},
      {"[1, 2", ET::kSI32, "column 6: expected ',' or ']', found the end of the literal"},
      {"[1, 2] 3", ET::kSI32, "column 8: unexpected '3' after the literal"},
      {"1.0 2.0", ET::kF32, "column 5: unexpected '2.0' after the literal"},
      {"(1.0, 2.0)", ET::kF32, "column 1: expected a f32 literal, found '('"},
      {"1.0", ET::kComplexF32, "column 1: expected '(' opening a complex<f32> literal (re, im)"},
      {"(1.0)", ET::kComplexF64, "column 5: expected ',' between the parts"},
      {"(1.0, 2.0", ET::kComplexF64, "column 10: expected ')' closing"},
      {"(1.0, )", ET::kComplexF64, "column 7: expected a f64 literal, found ')'"},
      {"1e", ET::kF32, "expected a f32 literal, found '1e'"},
      {"--1", ET::kF32, "expected a f32 literal"},
      {"1.2.3", ET::kF64, "expected a f64 literal"},
      {"0x", ET::kF32, "expected a f32 literal, found '0x'"},
      {"0xG1", ET::kSI32, "expected a si32 literal"},
      {"-0x7FC00000", ET::kF32, "takes no sign"},
      {"nan", ET::kF4E2M1FN, "f4E2M1FN has no NaN"},
      {"inf", ET::kF8E4M3FN, "f8E4M3FN has no infinity"},
      {"-inf", ET::kF8E8M0FNU, "has no infinity"},
      {"truee", ET::kI1, "expected a i1 literal, found 'truee'"},
      {"True", ET::kI1, "expected a i1 literal"},
      {"\"0x0000", ET::kF32, "column 1: unterminated hex string"},
      {"\"0x000\"", ET::kF32, "odd number of digits"},
      {"\"0xZZ\"", ET::kUI8, "column 4: invalid hex digit 'Z'"},
      {"\"abc\"", ET::kUI8, "must be hex data"},
      {"\"0x000000\"", ET::kF32, "hex data of 3 bytes does not fit tensor<2xf32>"},
      {"\"0x00\" 1", ET::kSI8, "unexpected '1' after the literal"},
      {"#", ET::kSI8, "found '#'"},
  };
  for (const auto& c : kCases) {
    // Lists and hex data describe two elements, single values one.
    const bool two_elements = c.body[0] == '[' || c.body[0] == '"';
    EXPECT_TRUE(
        Contains(BodyError(c.body, Type(two_elements ? Shape{2} : Shape{}, c.type)), c.message))
        << c.body;
  }
}

TEST(ParseDenseBodyErrorTest, LineAndColumnInMultiLineLiterals) {
  EXPECT_EQ(BodyError("[\n  [1, 2],\n  [3, x]\n]", Type({2, 2}, ET::kSI32)),
            "line 3, column 7: expected a si32 literal, found 'x'");
  EXPECT_EQ(BodyError("[1,\n2", Type({2}, ET::kSI32)),
            "line 2, column 2: expected ',' or ']', found the end of the literal");
}

TEST(ParseDenseBodyErrorTest, ImpossibleTypesAreRejectedBeforeAllocating) {
  EXPECT_TRUE(Contains(BodyError("1", Type({-1}, ET::kF32)), "negative dimension"));
  EXPECT_TRUE(Contains(BodyError("1", Type({int64_t{1} << 40}, ET::kF32)), "too large"));
  EXPECT_TRUE(Contains(BodyError("1", Type({int64_t{1} << 62, 8}, ET::kF32)), "too large"));
}

TEST(ParseDenseAttributeTest, ParsesWholeAttributes) {
  EXPECT_EQ(ElementBits(ParseOrFail("dense<[1, 2]> : tensor<2xi32>")), (Bits{1, 2}));
  EXPECT_EQ(ElementBits(ParseOrFail("  dense<\"0x0100\">:tensor<2xui8>  ")), (Bits{1, 0}));
  EXPECT_EQ(ElementBits(ParseOrFail("dense<> : tensor<0x3xf32>")), Bits{});
  const Tensor tensor = ParseOrFail("dense<1.5> : tensor<2x3xf16>");
  EXPECT_EQ(tensor.type(), Type({2, 3}, ET::kF16));
}

TEST(ParseDenseAttributeTest, ErrorsPointIntoTheWholeText) {
  const struct {
    const char* text;
    const char* message;
  } kCases[] = {
      {"dense<[1, x]> : tensor<2xi32>", "column 11: expected a si32 literal, found 'x'"},
      {"[1, 2] : tensor<2xi32>", "column 1: expected 'dense<', found '['"},
      {"dense<[1, 2] : tensor<2xi32>", "'dense<' is never closed"},
      {"dense<[1, 2]>", "column 14: expected ': tensor<...>' after the dense literal"},
      {"dense<[1, 2]> tensor<2xi32>", "column 15: expected ': tensor<...>'"},
      {"dense<[1, 2]> : ", "column 17: expected a type"},
      {"dense<[1, 2]> : tensor<2xq8>", "column 17: unknown element type 'q8'"},
      {"dense<[1, 2]> : tensor<3xi32>", "column 7: expected 3 elements in dimension 0, found 2"},
      {"dense<\"0x>\"> : tensor<i8>", "invalid hex digit '>'"},
      {"", "column 1: expected 'dense<', found the end of the literal"},
  };
  for (const auto& c : kCases) {
    absl::StatusOr<Tensor> parsed = ParseDenseAttribute(c.text);
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Contains(std::string(parsed.status().message()), c.message)) << c.text;
  }
}

// Every prefix of a valid literal either parses or fails cleanly.
TEST(ParseDenseAttributeTest, TruncatedInputNeverCrashes) {
  const char* kLiterals[] = {
      "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>",
      "dense<[(1.5, -2.5), (0x7FC00000, inf)]> : tensor<2xcomplex<f32>>",
      "dense<\"0x0000803F00000040\"> : tensor<2xf32>",
      "dense<[true, false, 1]> : tensor<3xi1>",
      "dense<[0.0, -0.0, 1.0, 0.125, 0.1, 3.1415, 0x07, 0x0F]> : tensor<8xf4E2M1FN>",
  };
  for (std::string_view literal : kLiterals) {
    ASSERT_TRUE(ParseDenseAttribute(literal).ok()) << literal;
    for (size_t length = 0; length < literal.size(); ++length) {
      const std::string_view prefix = literal.substr(0, length);
      absl::StatusOr<Tensor> parsed = ParseDenseAttribute(prefix);
      EXPECT_FALSE(parsed.ok()) << prefix;
      const size_t body_end = literal.find('>');
      if (length > 6 && length < body_end) {
        // The body alone, cut short, must not crash either.
        absl::StatusOr<TensorType> type = ParseTensorType(literal.substr(literal.rfind(':') + 1));
        ASSERT_TRUE(type.ok());
        (void)ParseDenseBody(literal.substr(6, length - 6), *type);
      }
    }
  }
}

}  // namespace
}  // namespace hlocheck
