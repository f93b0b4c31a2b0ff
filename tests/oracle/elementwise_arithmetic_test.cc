// The element-wise arithmetic oracle against independent computations:
// MPFR at each format's own precision and exponent range (so no double
// rounding can hide), brute-force integer semantics, and the spec's edge
// cases (division by zero, min / -1) marked free.
#include <gtest/gtest.h>
#include <mpfr.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "core/element_value.h"
#include "core/exact_value.h"
#include "oracle/compare.h"
#include "oracle/element_encoding.h"
#include "tests/oracle/elementwise_test_util.h"

namespace hlocheck::testing {
namespace {

Tensor FromBits(ElementType type, const std::vector<uint64_t>& bits) {
  Tensor t(Shape{static_cast<int64_t>(bits.size())}, type);
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      auto out = t.values<T>();
      for (size_t i = 0; i < bits.size(); ++i) out[i] = FloatFromBits<T>(bits[i]);
    }
  });
  return t;
}

uint64_t BitsAt(const Tensor& t, size_t i) {
  return DispatchElementType(t.element_type(), [&]<ElementType T>() -> uint64_t {
    if constexpr (IsFloat(T)) return FloatBits<T>(t.values<T>()[i]);
    return 0;
  });
}

// Every element of op(xs, ys) on the oracle equals MPFR's result in the
// format, except overflow (a format rule, tested elsewhere) and free ones.
void ExpectMatchesMpfr(ElementType type, const std::string& op, MpfrOp mpfr_op,
                       const std::vector<uint64_t>& xs, const std::vector<uint64_t>& ys,
                       bool unary = false) {
  const FloatFormat& format = Format(type);
  std::vector<Tensor> operands = {FromBits(type, xs)};
  if (!unary) operands.push_back(FromBits(type, ys));
  ResultExpectation e = RunSame(op, std::move(operands));
  ASSERT_EQ(e.reference.num_elements(), static_cast<int64_t>(xs.size()));
  const double max_finite = DecodeFloat(format, format.max_finite_bits()).ToDouble();
  int64_t checked = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    double x = DecodeFloat(format, xs[i]).ToDouble();
    double y = DecodeFloat(format, ys[i]).ToDouble();
    double expected = MpfrInFormat(format, mpfr_op, x, y);
    if (IsFree(e, i) || std::fabs(expected) > max_finite) continue;
    uint64_t actual = BitsAt(e.reference, i);
    if (std::isnan(expected)) {
      ASSERT_TRUE(IsNaNBits(format, actual))
          << Name(type) << " " << op << "(" << x << ", " << y << ")";
      continue;
    }
    uint64_t expected_bits = EncodeFloat(format, ExactValue::FromDouble(expected));
    ASSERT_EQ(actual, expected_bits)
        << Name(type) << " " << op << "(" << x << ", " << y << "): MPFR " << expected;
    ++checked;
  }
  EXPECT_GT(checked, static_cast<int64_t>(xs.size() / 4)) << Name(type) << " " << op;
}

int MpfrSqrt(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr, mpfr_rnd_t rnd) {
  return mpfr_sqrt(r, x, rnd);
}

bool MpfrComparable(ElementType type) {
  return IsFloat(type) && Format(type).has_zero_and_subnormals;  // not f8E8M0FNU
}

// Every pair of values of every format of up to 8 bits: the traps where a
// rounding through a wider format would round twice are all among them.
TEST(ElementwiseArithmeticTest, NarrowFormatsExhaustivelyMatchMpfr) {
  for (ElementType type : AllElementTypes()) {
    if (!MpfrComparable(type) || BitWidth(type) > 8) continue;
    const uint64_t count = uint64_t{1} << Format(type).total_bits();
    std::vector<uint64_t> xs, ys;
    for (uint64_t x = 0; x < count; ++x) {
      for (uint64_t y = 0; y < count; ++y) {
        xs.push_back(x);
        ys.push_back(y);
      }
    }
    ExpectMatchesMpfr(type, "multiply", mpfr_mul, xs, ys);
    ExpectMatchesMpfr(type, "divide", mpfr_div, xs, ys);
    ExpectMatchesMpfr(type, "subtract", mpfr_sub, xs, ys);
  }
}

TEST(ElementwiseArithmeticTest, SqrtOfEveryValueOfUpTo16BitsMatchesMpfr) {
  for (ElementType type : AllElementTypes()) {
    if (!MpfrComparable(type) || BitWidth(type) > 16) continue;
    std::vector<uint64_t> xs;
    for (uint64_t x = 0; x < (uint64_t{1} << Format(type).total_bits()); ++x) xs.push_back(x);
    ExpectMatchesMpfr(type, "sqrt", MpfrSqrt, xs, xs, /*unary=*/true);
  }
}

TEST(ElementwiseArithmeticTest, RandomPairsOfF16Bf16F32MatchMpfr) {
  std::mt19937_64 random(42);
  for (ElementType type : {ElementType::kF16, ElementType::kBF16, ElementType::kF32}) {
    const uint64_t mask = (uint64_t{1} << Format(type).total_bits()) - 1;
    std::vector<uint64_t> xs, ys;
    for (int i = 0; i < 100000; ++i) {
      xs.push_back(random() & mask);
      // Half of the divisors / factors near the dividend's magnitude, where
      // results are normal and every bit of the quotient counts.
      ys.push_back(i % 2 ? random() & mask : (xs.back() ^ (random() & 0xFFF)));
    }
    ExpectMatchesMpfr(type, "multiply", mpfr_mul, xs, ys);
    ExpectMatchesMpfr(type, "divide", mpfr_div, xs, ys);
    ExpectMatchesMpfr(type, "subtract", mpfr_sub, xs, ys);
  }
}

RC_GTEST_PROP(ElementwiseArithmeticProperty, SqrtOfF32IsCorrectlyRounded, ()) {
  const auto bits = *rc::gen::container<std::vector<uint32_t>>(rc::gen::arbitrary<uint32_t>());
  std::vector<uint64_t> xs(bits.begin(), bits.end());
  const FloatFormat& f32 = Format(ElementType::kF32);
  ResultExpectation e = RunSame("sqrt", {FromBits(ElementType::kF32, xs)});
  for (size_t i = 0; i < xs.size(); ++i) {
    double x = DecodeFloat(f32, xs[i]).ToDouble();
    float expected = static_cast<float>(MpfrInFormat(f32, MpfrSqrt, x, x));
    float actual = e.reference.values<ElementType::kF32>()[i];
    RC_ASSERT((std::isnan(expected) && std::isnan(actual)) ||
              std::bit_cast<uint32_t>(expected) == std::bit_cast<uint32_t>(actual));
  }
}

// subtract(a, b) == add(a, negate(b)) bit for bit, for every integer type.
RC_GTEST_PROP(ElementwiseArithmeticProperty, IntegerSubtractIsAddOfNegate, ()) {
  std::vector<ElementType> types;
  for (ElementType t : AllElementTypes()) {
    if (IsInteger(t)) types.push_back(t);
  }
  const ElementType type = *rc::gen::elementOf(types);
  const auto raw = *rc::gen::container<std::vector<uint64_t>>(rc::gen::arbitrary<uint64_t>());
  const auto raw2 =
      *rc::gen::container<std::vector<uint64_t>>(raw.size(), rc::gen::arbitrary<uint64_t>());
  Tensor a(Shape{static_cast<int64_t>(raw.size())}, type);
  Tensor b(Shape{static_cast<int64_t>(raw.size())}, type);
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      for (size_t i = 0; i < raw.size(); ++i) {
        a.values<T>()[i] = WrapInteger<T>(raw[i]);
        b.values<T>()[i] = WrapInteger<T>(raw2[i]);
      }
    }
  });
  ResultExpectation difference = RunSame("subtract", {a, b});
  ResultExpectation negated = RunSame("negate", {b});
  ResultExpectation sum = RunSame("add", {a, negated.reference});
  RC_ASSERT(difference.reference.BitwiseEquals(sum.reference));
}

TEST(ElementwiseArithmeticTest, IntegerDivisionTruncatesAndMarksTheOpenCasesFree) {
  Tensor lhs = Literal("dense<[17, -17, 17, -17, 5, -128, -128, 0]> : tensor<8xi8>");
  Tensor rhs = Literal("dense<[3, 3, -3, -3, 0, -1, 1, 0]> : tensor<8xi8>");
  ResultExpectation q = RunSame("divide", {lhs, rhs});
  ResultExpectation r = RunSame("remainder", {lhs, rhs});
  auto quotient = q.reference.values<ElementType::kSI8>();
  auto remainder = r.reference.values<ElementType::kSI8>();
  std::vector<int> expected_q = {5, -5, -5, 5}, expected_r = {2, -2, 2, -2};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(quotient[i], expected_q[i]);
    EXPECT_EQ(remainder[i], expected_r[i]);  // the sign of the dividend
    EXPECT_FALSE(IsFree(q, i));
    EXPECT_FALSE(IsFree(r, i));
  }
  EXPECT_EQ(quotient[6], -128);
  EXPECT_FALSE(IsFree(q, 6));
  for (size_t i : {4, 5, 7}) {
    EXPECT_TRUE(IsFree(q, i)) << i;
    EXPECT_TRUE(IsFree(r, i)) << i;
  }
  EXPECT_NE(q.free_reason.find("division by zero"), std::string::npos);
  EXPECT_NE(q.free_reason.find("min / -1"), std::string::npos);
  // Unsigned: only division by zero is open.
  ResultExpectation u = RunSame("divide", {Literal("dense<[255, 7]> : tensor<2xui8>"),
                                           Literal("dense<[0, 2]> : tensor<2xui8>")});
  EXPECT_TRUE(IsFree(u, 0));
  EXPECT_EQ(u.reference.values<ElementType::kUI8>()[1], 3);
}

TEST(ElementwiseArithmeticTest, FloatRemainderIsFmodWithTheDividendsSign) {
  ResultExpectation r =
      RunSame("remainder",
              {Literal("dense<[5.5, -5.5, 5.5, -0.0, 1.0, 0x7FF0000000000000]> : tensor<6xf64>"),
               Literal("dense<[2.0, 2.0, -2.0, 3.0, 0.0, 1.0]> : tensor<6xf64>")});
  auto v = r.reference.values<ElementType::kF64>();
  EXPECT_EQ(v[0], 1.5);
  EXPECT_EQ(v[1], -1.5);
  EXPECT_EQ(v[2], 1.5);
  EXPECT_TRUE(std::signbit(v[3]) && v[3] == 0);
  EXPECT_TRUE(std::isnan(v[4]));
  EXPECT_TRUE(std::isnan(v[5]));
}

TEST(ElementwiseArithmeticTest, IntegerWrapAround) {
  ResultExpectation m = RunSame("multiply", {Literal("dense<[100, -128, 7]> : tensor<3xi8>"),
                                             Literal("dense<[3, -1, 5]> : tensor<3xi8>")});
  auto v = m.reference.values<ElementType::kSI8>();
  EXPECT_EQ(v[0], 44);  // 300 - 256
  EXPECT_EQ(v[1], -128);
  EXPECT_EQ(v[2], 35);
  ResultExpectation n = RunSame("negate", {Literal("dense<[-8, 7, 0]> : tensor<3xi4>")});
  EXPECT_EQ(n.reference.values<ElementType::kSI4>()[0], -8);
  EXPECT_EQ(n.reference.values<ElementType::kSI4>()[1], -7);
  ResultExpectation un = RunSame("negate", {Literal("dense<[1, 0, 255]> : tensor<3xui8>")});
  EXPECT_EQ(un.reference.values<ElementType::kUI8>()[0], 255);
  EXPECT_EQ(un.reference.values<ElementType::kUI8>()[2], 1);
  ResultExpectation a = RunSame("abs", {Literal("dense<[-128, -3, 5]> : tensor<3xi8>")});
  EXPECT_EQ(a.reference.values<ElementType::kSI8>()[0], -128);
  EXPECT_EQ(a.reference.values<ElementType::kSI8>()[1], 3);
}

TEST(ElementwiseArithmeticTest, NegateAndAbsRespectFormatsWithoutNegativeZeroOrSign) {
  // f8E4M3FNUZ: 0x80 is its NaN, so neither negate(0) nor abs(NaN) may
  // produce or clear that bit.
  Tensor fnuz = FromBits(ElementType::kF8E4M3FNUZ, {0x00, 0x80, 0x38});
  ResultExpectation n = RunSame("negate", {fnuz});
  EXPECT_EQ(n.reference.values<ElementType::kF8E4M3FNUZ>()[0], 0x00);
  EXPECT_EQ(n.reference.values<ElementType::kF8E4M3FNUZ>()[1], 0x80);
  EXPECT_EQ(n.reference.values<ElementType::kF8E4M3FNUZ>()[2], 0xB8);
  ResultExpectation a = RunSame("abs", {fnuz});
  EXPECT_EQ(a.reference.values<ElementType::kF8E4M3FNUZ>()[1], 0x80);
  // f8E8M0FNU has no negative values: negate is open, except for NaN.
  ResultExpectation e = RunSame("negate", {FromBits(ElementType::kF8E8M0FNU, {0x7F, 0xFF})});
  EXPECT_TRUE(IsFree(e, 0));
  EXPECT_FALSE(IsFree(e, 1));
  // IEEE formats flip the sign bit, of NaN and zero too.
  ResultExpectation h = RunSame("negate", {FromBits(ElementType::kF16, {0x0000, 0x7E00})});
  EXPECT_EQ(h.reference.values<ElementType::kF16>()[0], 0x8000);
  EXPECT_EQ(h.reference.values<ElementType::kF16>()[1], 0xFE00);
}

TEST(ElementwiseArithmeticTest, ResultsAFormatCannotHoldAreFree) {
  // f4E2M1FN has neither NaN nor Inf; its largest value is 6.
  Tensor x = FromBits(ElementType::kF4E2M1FN, {0x2, 0x2, 0x7, 0x0});  // 1, 1, 6, 0
  Tensor y = FromBits(ElementType::kF4E2M1FN, {0x0, 0xA, 0x7, 0x0});  // 0, -1, 6, 0
  ResultExpectation d = RunSame("divide", {x, y});
  EXPECT_TRUE(IsFree(d, 0));   // 1 / 0 = Inf
  EXPECT_FALSE(IsFree(d, 1));  // -1
  EXPECT_TRUE(IsFree(d, 3));   // 0 / 0 = NaN
  ResultExpectation m = RunSame("multiply", {x, y});
  EXPECT_EQ(m.reference.values<ElementType::kF4E2M1FN>()[2], 0x7);  // 36 saturates to 6
  EXPECT_FALSE(IsFree(m, 2));
  ResultExpectation s = RunSame("sqrt", {y});
  EXPECT_TRUE(IsFree(s, 1));  // sqrt(-1) = NaN
}

TEST(ElementwiseArithmeticTest, SignOfEveryKind) {
  ResultExpectation i = RunSame("sign", {Literal("dense<[-5, 0, 9]> : tensor<3xi32>")});
  EXPECT_EQ(i.reference.values<ElementType::kSI32>()[0], -1);
  EXPECT_EQ(i.reference.values<ElementType::kSI32>()[1], 0);
  EXPECT_EQ(i.reference.values<ElementType::kSI32>()[2], 1);
  ResultExpectation f =
      RunSame("sign", {Literal("dense<[-0.0, 0.0, -3.5, 1e-40, 0x7FC00000]> : tensor<5xf32>")});
  auto v = f.reference.values<ElementType::kF32>();
  EXPECT_TRUE(v[0] == 0 && std::signbit(v[0]));
  EXPECT_TRUE(v[1] == 0 && !std::signbit(v[1]));
  EXPECT_EQ(v[2], -1.0f);
  EXPECT_EQ(v[3], 1.0f);
  EXPECT_TRUE(std::isnan(v[4]));
  ResultExpectation c =
      RunSame("sign", {Literal("dense<[(3.0, 4.0), (0.0, 0.0), (0x7FF8000000000000, 1.0)]> : "
                               "tensor<3xcomplex<f64>>")});
  auto z = c.reference.values<ElementType::kComplexF64>();
  EXPECT_EQ(z[0], std::complex<double>(0.6, 0.8));
  EXPECT_EQ(z[1], std::complex<double>(0, 0));
  EXPECT_TRUE(std::isnan(z[2].real()) && std::isnan(z[2].imag()));
}

TEST(ElementwiseArithmeticTest, ComplexModulusIsCorrectlyRounded) {
  std::mt19937 random(3);
  std::uniform_real_distribution<float> value(-1e3f, 1e3f);
  const int n = 20000;
  Tensor z(Shape{n}, ElementType::kComplexF32);
  for (auto& e : z.values<ElementType::kComplexF32>()) e = {value(random), value(random)};
  z.values<ElementType::kComplexF32>()[0] = {3, 4};
  ResultExpectation a = RunOp("abs", {z}, TensorType(Shape{n}, ElementType::kF32));
  EXPECT_EQ(a.reference.values<ElementType::kF32>()[0], 5.0f);
  mpfr_t x, y, r;
  mpfr_inits2(24, x, y, r, static_cast<mpfr_ptr>(nullptr));
  for (int i = 0; i < n; ++i) {
    auto e = z.values<ElementType::kComplexF32>()[i];
    mpfr_set_flt(x, e.real(), MPFR_RNDN);
    mpfr_set_flt(y, e.imag(), MPFR_RNDN);
    mpfr_hypot(r, x, y, MPFR_RNDN);  // 24 bits, normal range: the f32 result
    ASSERT_EQ(a.reference.values<ElementType::kF32>()[i], mpfr_get_flt(r, MPFR_RNDN)) << i;
  }
  mpfr_clears(x, y, r, static_cast<mpfr_ptr>(nullptr));
}

TEST(ElementwiseArithmeticTest, ComplexProductCancelsExactly) {
  // (1 + 2^-23)(1 - 2^-23) - 1 * 1 = -2^-46 exactly; f32 products round
  // the first to 1 and give 0.
  const float a = 1 + 0x1p-23f, c = 1 - 0x1p-23f;
  Tensor x = Vector<ElementType::kComplexF32>({{a, 1.0f}});
  Tensor y = Vector<ElementType::kComplexF32>({{c, 1.0f}});
  ResultExpectation m = RunSame("multiply", {x, y});
  EXPECT_EQ(m.check, Check::kErrorBound);
  auto product = m.reference.values<ElementType::kComplexF32>()[0];
  EXPECT_EQ(product.real(), -0x1p-46f);
  EXPECT_EQ(product.imag(), a + c);  // 2 exactly
  // The textbook formula's answer (0) is within the bound; a wrong sign is not.
  Tensor naive = Vector<ElementType::kComplexF32>({{a * c - 1.0f * 1.0f, a * 1.0f + 1.0f * c}});
  EXPECT_TRUE(CompareResult(m, naive).ok());
  Tensor wrong = Vector<ElementType::kComplexF32>({{0x1p-20f, 2.0f}});
  EXPECT_FALSE(CompareResult(m, wrong).ok());
}

TEST(ElementwiseArithmeticTest, ComplexQuotientAndSqrtAreCorrectlyRoundedPerPart) {
  ResultExpectation d =
      RunSame("divide", {Literal("dense<[(1.0, 2.0), (1.0, 1.0)]> : tensor<2xcomplex<f64>>"),
                         Literal("dense<[(3.0, 4.0), (0.0, 0.0)]> : tensor<2xcomplex<f64>>")});
  auto q = d.reference.values<ElementType::kComplexF64>()[0];
  EXPECT_EQ(q.real(), 11.0 / 25);  // one IEEE division of exact integers
  EXPECT_EQ(q.imag(), 2.0 / 25);
  EXPECT_TRUE(IsFree(d, 1));  // division by zero
  ResultExpectation s =
      RunSame("sqrt", {Literal("dense<[(-4.0, 0.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>")});
  auto r = s.reference.values<ElementType::kComplexF32>();
  EXPECT_EQ(r[0], std::complex<float>(0, 2));
  EXPECT_EQ(r[1], std::complex<float>(2, 1));
}

}  // namespace
}  // namespace hlocheck::testing

namespace hlocheck::testing {
namespace {

// RoundDouble<kF32> takes the host's conversion for every non-NaN double:
// it must give the general encoder's bits and flags, at the ties, the
// subnormal boundary, overflow and on random bit patterns.
TEST(RoundDoubleTest, F32FastPathMatchesTheGeneralEncoder) {
  auto general = [](double value) {
    return FloatBits<ElementType::kF32>(FloatFromBits<ElementType::kF32>(
        EncodeFloat(Format(ElementType::kF32), ExactValue::FromDouble(value))));
  };
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::denorm_min()};
  for (float f : {std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                  std::numeric_limits<float>::denorm_min(), 1.0f, 3.0f}) {
    for (double sign : {1.0, -1.0}) {
      const double d = sign * f;
      // The value, the ties next to it (half an f32 ulp away) and their neighbours.
      const double up = std::nextafter(f, std::numeric_limits<float>::infinity());
      const double tie = sign * (static_cast<double>(f) + (up - f) / 2);
      values.insert(values.end(), {d, tie, std::nextafter(tie, 0.0), std::nextafter(tie, 2 * tie)});
    }
  }
  std::mt19937_64 random(17);
  for (int i = 0; i < 1'000'000; ++i) {
    uint64_t bits = random();
    // Most draws within f32's exponent range, so that rounding is exercised.
    if (i % 2 == 0)
      bits = (bits & 0x800FFFFFFFFFFFFFull) | (uint64_t{(random() % 300) + 1023 - 150} << 52);
    values.push_back(std::bit_cast<double>(bits));
  }
  int64_t checked = 0;
  for (double value : values) {
    if (std::isnan(value)) continue;
    ASSERT_EQ(FloatBits<ElementType::kF32>(oracle::RoundDouble<ElementType::kF32>(value)),
              general(value))
        << std::hexfloat << value;
    uint8_t fast_flags = 0;
    uint8_t general_flags = 0;
    const float fast = oracle::RoundDouble<ElementType::kF32>(value, &fast_flags);
    EncodeFloat(Format(ElementType::kF32), ExactValue::FromDouble(value),
                RoundingMode::kNearestEven, &general_flags);
    ASSERT_EQ(FloatBits<ElementType::kF32>(fast), general(value)) << std::hexfloat << value;
    ASSERT_EQ(fast_flags, general_flags) << std::hexfloat << value;
    ++checked;
  }
  EXPECT_GT(checked, 900'000);
}

}  // namespace
}  // namespace hlocheck::testing
