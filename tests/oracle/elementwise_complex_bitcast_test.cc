// complex/real/imag, and bitcast_convert across widths (little-endian).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "core/element_value.h"
#include "tests/oracle/elementwise_test_util.h"

namespace hlocheck::testing {
namespace {

TEST(ElementwiseComplexTest, ComplexRealImag) {
  Tensor re = Literal("dense<[1.0, -0.0, 0x7FC00001]> : tensor<3xf32>");
  Tensor im = Literal("dense<[2.0, 0x7F800000, -0.0]> : tensor<3xf32>");
  ResultExpectation z = RunOp("complex", {re, im}, Type("tensor<3xcomplex<f32>>"));
  ResultExpectation r = RunOp("real", {z.reference}, re.type());
  ResultExpectation i = RunOp("imag", {z.reference}, im.type());
  EXPECT_TRUE(r.reference.BitwiseEquals(re));  // NaN payloads and signs of zero too
  EXPECT_TRUE(i.reference.BitwiseEquals(im));
  // Of a float: the value itself, and +0.
  ResultExpectation fr = RunSame("real", {re});
  EXPECT_TRUE(fr.reference.BitwiseEquals(re));
  ResultExpectation fi = RunSame("imag", {Literal("dense<[-3.0, 0x7E00]> : tensor<2xf16>")});
  EXPECT_EQ(fi.reference.values<ElementType::kF16>()[0], 0);
  EXPECT_EQ(fi.reference.values<ElementType::kF16>()[1], 0);
}

TEST(BitcastConvertTest, AcrossWidthsLittleEndian) {
  // The spec's example: one f64 into four f16, lowest bits first.
  ResultExpectation e =
      RunOp("bitcast_convert", {Literal("dense<0x0123456789ABCDEF> : tensor<f64>")},
            Type("tensor<4xf16>"));
  auto h = e.reference.values<ElementType::kF16>();
  EXPECT_EQ(h[0], 0xCDEF);
  EXPECT_EQ(h[3], 0x0123);
  // And back.
  ResultExpectation back = RunOp("bitcast_convert", {e.reference}, Type("tensor<f64>"));
  EXPECT_EQ(std::bit_cast<uint64_t>(back.reference.values<ElementType::kF64>()[0]),
            0x0123456789ABCDEFull);
  // Eight booleans are the bits of one i8, lowest first.
  ResultExpectation bits = RunOp(
      "bitcast_convert",
      {Literal("dense<[[true, false, false, false, false, false, false, true]]> : tensor<1x8xi1>")},
      Type("tensor<1xi8>"));
  EXPECT_EQ(bits.reference.values<ElementType::kSI8>()[0], -127);  // 0x81
  // si8 into two ui4: low nibble first.
  ResultExpectation nibbles =
      RunOp("bitcast_convert", {Literal("dense<[-94]> : tensor<1xi8>")}, Type("tensor<1x2xui4>"));
  EXPECT_EQ(nibbles.reference.values<ElementType::kUI4>()[0], 0x2);  // 0xA2
  EXPECT_EQ(nibbles.reference.values<ElementType::kUI4>()[1], 0xA);
  // complex<f64> into complex<f64> (complex only bitcasts to complex, C2).
  Tensor z = Literal("dense<(1.0, -2.0)> : tensor<complex<f64>>");
  ResultExpectation words = RunOp("bitcast_convert", {z}, z.type());
  EXPECT_TRUE(words.reference.BitwiseEquals(z));
  // Same width: the bit pattern, NaN payload included.
  ResultExpectation same = RunOp("bitcast_convert", {Literal("dense<[-1, 31745]> : tensor<2xi16>")},
                                 Type("tensor<2xf16>"));
  EXPECT_EQ(same.reference.values<ElementType::kF16>()[0], 0xFFFF);
  EXPECT_EQ(same.reference.values<ElementType::kF16>()[1], 0x7C01);
}

// Bitcasting to a narrower type and back gives the same bits, for every
// pair of types whose widths divide each other.
RC_GTEST_PROP(BitcastConvertProperty, NarrowAndBackIsTheIdentity, ()) {
  std::vector<std::pair<ElementType, ElementType>> pairs;
  for (ElementType wide : AllElementTypes()) {
    for (ElementType narrow : AllElementTypes()) {
      if (BitWidth(narrow) < BitWidth(wide) && BitWidth(wide) % BitWidth(narrow) == 0 &&
          !IsComplex(narrow) && !IsComplex(wide)) {
        pairs.push_back({wide, narrow});
      }
    }
  }
  const auto [wide, narrow] = *rc::gen::elementOf(pairs);
  const int n = *rc::gen::inRange(0, 20);
  const int ratio = BitWidth(wide) / BitWidth(narrow);
  const auto raw = *rc::gen::container<std::vector<uint64_t>>(static_cast<size_t>(n * ratio),
                                                              rc::gen::arbitrary<uint64_t>());
  Tensor x(Shape{n, ratio}, narrow);
  DispatchElementType(narrow, [&]<ElementType T>() {
    auto v = x.values<T>();
    for (size_t i = 0; i < v.size(); ++i) {
      if constexpr (IsBool(T))
        v[i] = raw[i] & 1;
      else if constexpr (IsInteger(T))
        v[i] = WrapInteger<T>(raw[i]);
      else if constexpr (IsFloat(T)) {
        constexpr int kBits = BitWidth(T);
        v[i] =
            FloatFromBits<T>(kBits == 64 ? raw[i] : raw[i] & ((uint64_t{1} << (kBits % 64)) - 1));
      }
    }
  });
  ResultExpectation up = RunOp("bitcast_convert", {x}, TensorType(Shape{n}, wide));
  ResultExpectation down = RunOp("bitcast_convert", {up.reference}, x.type());
  RC_ASSERT(down.reference.BitwiseEquals(x));
}

}  // namespace
}  // namespace hlocheck::testing
