// convert, as reviewed for issue 7: booleans, float -> integer truncation,
// complex -> real, and every float -> float pair against MPFR rounding at
// the target's precision.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/element_value.h"
#include "tests/oracle/elementwise_test_util.h"

namespace hlocheck::testing {
namespace {

ResultExpectation Convert(const Tensor& x, ElementType to) {
  return RunOp("convert", {x}, TensorType(x.shape(), to));
}

TEST(ConvertTest, Booleans) {
  Tensor f = Literal("dense<[0.0, -0.0, 0x7FC00000, 1e-45, 0x7F800000]> : tensor<5xf32>");
  ResultExpectation b = Convert(f, ElementType::kI1);
  auto v = b.reference.values<ElementType::kI1>();
  EXPECT_EQ(std::vector<int>(v.begin(), v.end()), (std::vector<int>{0, 0, 1, 1, 1}));
  // complex -> bool looks at the real part only (the imaginary part is ignored).
  ResultExpectation c = Convert(Literal("dense<[(0.0, 1.0), (2.0, 0.0)]> : tensor<2xcomplex<f32>>"),
                                ElementType::kI1);
  EXPECT_EQ(c.reference.values<ElementType::kI1>()[0], 0);
  EXPECT_EQ(c.reference.values<ElementType::kI1>()[1], 1);
  ResultExpectation back =
      Convert(Literal("dense<[true, false]> : tensor<2xi1>"), ElementType::kComplexF64);
  EXPECT_EQ(back.reference.values<ElementType::kComplexF64>()[0], std::complex<double>(1, 0));
}

TEST(ConvertTest, FloatToIntegerTruncates) {
  Tensor f = Literal("dense<[-1.9, 2.9, -0.5, -1.5, 0x7FF8000000000000, 300.0]> : tensor<6xf64>");
  ResultExpectation s = Convert(f, ElementType::kSI8);
  auto v = s.reference.values<ElementType::kSI8>();
  EXPECT_EQ(v[0], -1);
  EXPECT_EQ(v[1], 2);
  EXPECT_EQ(v[2], 0);
  EXPECT_EQ(v[3], -1);
  EXPECT_TRUE(IsFree(s, 4));  // NaN
  EXPECT_TRUE(IsFree(s, 5));  // out of range: #180
  ResultExpectation u = Convert(f, ElementType::kUI8);
  EXPECT_FALSE(IsFree(u, 2));  // -0.5 truncates to 0, which ui8 holds
  EXPECT_EQ(u.reference.values<ElementType::kUI8>()[2], 0);
  EXPECT_TRUE(IsFree(u, 3));  // -1
}

TEST(ConvertTest, ComplexToRealDropsTheImaginaryPart) {
  ResultExpectation r =
      Convert(Literal("dense<[(1.5, 7.0), (0x7FF8000000000000, 1.0)]> : tensor<2xcomplex<f64>>"),
              ElementType::kF16);
  EXPECT_EQ(r.reference.values<ElementType::kF16>()[0], 0x3E00);  // 1.5
  EXPECT_TRUE(IsNaNBits(Format(ElementType::kF16), r.reference.values<ElementType::kF16>()[1]));
}

int MpfrSet(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_rnd_t rnd) { return mpfr_set(r, x, rnd); }

// Every value of every float type of up to 16 bits, and random f32/f64
// values, into every float type: one rounding to nearest even, as MPFR
// rounds at the target's precision and exponent range.
TEST(ConvertTest, EveryFloatPairMatchesMpfr) {
  std::vector<std::pair<ElementType, std::vector<uint64_t>>> sources;
  std::mt19937_64 random(11);
  for (ElementType from : AllElementTypes()) {
    if (!IsFloat(from)) continue;
    std::vector<uint64_t> bits;
    if (BitWidth(from) <= 16) {
      for (uint64_t b = 0; b < (uint64_t{1} << Format(from).total_bits()); ++b) bits.push_back(b);
    } else {
      for (int i = 0; i < 20000; ++i)
        bits.push_back(from == ElementType::kF32 ? random() & 0xFFFFFFFF : random());
    }
    sources.push_back({from, bits});
  }
  for (const auto& [from, bits] : sources) {
    Tensor x(Shape{static_cast<int64_t>(bits.size())}, from);
    DispatchElementType(from, [&]<ElementType T>() {
      if constexpr (IsFloat(T)) {
        for (size_t i = 0; i < bits.size(); ++i) x.values<T>()[i] = FloatFromBits<T>(bits[i]);
      }
    });
    for (ElementType to : AllElementTypes()) {
      if (!IsFloat(to) || !Format(to).has_zero_and_subnormals) continue;
      const FloatFormat& format = Format(to);
      const double max_finite = DecodeFloat(format, format.max_finite_bits()).ToDouble();
      ResultExpectation e = Convert(x, to);
      DispatchElementType(to, [&]<ElementType T>() {
        if constexpr (IsFloat(T)) {
          for (size_t i = 0; i < bits.size(); ++i) {
            double v = DecodeFloat(Format(from), bits[i]).ToDouble();
            double expected = MpfrInFormat(format, MpfrSet, v, v);
            if (IsFree(e, i) || std::isnan(expected) || std::fabs(expected) > max_finite) continue;
            uint64_t actual = FloatBits<T>(e.reference.values<T>()[i]);
            ASSERT_EQ(actual, EncodeFloat(format, ExactValue::FromDouble(expected)))
                << Name(from) << " -> " << Name(to) << ": " << v;
          }
        }
      });
    }
  }
}

}  // namespace
}  // namespace hlocheck::testing
