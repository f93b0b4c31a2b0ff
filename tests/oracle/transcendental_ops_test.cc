// The transcendental ops: IEEE/C special values (written out here, not taken
// from MPFR), complex functions against an independent high-precision MPC
// evaluation of their defining formula, and integer power.
#include <gtest/gtest.h>

#include <mpc.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>

#include "core/element_value.h"
#include "oracle/compare.h"
#include "oracle/oracle.h"
#include "oracle/precise/complex.h"
#include "oracle/precise/elementary.h"
#include "tests/support/case_builders.h"

namespace hlocheck {
namespace {

using precise::ComplexBits;
using precise::CorrectlyRounded;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.141592653589793;

const FloatFormat& F64() { return Format(ElementType::kF64); }

// Bit-exact, NaN matching any NaN, zeros by sign.
::testing::AssertionResult Same(double actual, double expected) {
  if (std::isnan(actual) && std::isnan(expected)) return ::testing::AssertionSuccess();
  if (std::bit_cast<uint64_t>(actual) == std::bit_cast<uint64_t>(expected)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << std::hexfloat << actual << " != " << expected;
}

template <class F, typename... Doubles>
double In64(Doubles... x) {
  return std::bit_cast<double>(CorrectlyRounded<F>(F64(), x...));
}
template <class F, typename... Doubles>
double In32(Doubles... x) {
  return std::bit_cast<float>(
      static_cast<uint32_t>(CorrectlyRounded<F>(Format(ElementType::kF32), x...)));
}

TEST(TranscendentalSpecialValuesTest, UnaryFunctions) {
  using namespace precise;  // NOLINT
  EXPECT_TRUE(Same(In64<Log>(0.0), -kInf));
  EXPECT_TRUE(Same(In64<Log>(-0.0), -kInf));
  EXPECT_TRUE(Same(In64<Log>(-1.0), kNaN));
  EXPECT_TRUE(Same(In64<Log>(1.0), 0.0));
  EXPECT_TRUE(Same(In64<Log>(kInf), kInf));
  EXPECT_TRUE(Same(In64<Log1p>(-1.0), -kInf));
  EXPECT_TRUE(Same(In64<Log1p>(-2.0), kNaN));
  EXPECT_TRUE(Same(In64<Log1p>(-0.0), -0.0));
  EXPECT_TRUE(Same(In64<Expm1>(-kInf), -1.0));
  EXPECT_TRUE(Same(In64<Expm1>(-0.0), -0.0));
  EXPECT_TRUE(Same(In32<Expm1>(-100.0), -1.0f));
  EXPECT_TRUE(Same(In64<Sin>(-0.0), -0.0));
  EXPECT_TRUE(Same(In64<Sin>(kInf), kNaN));
  EXPECT_TRUE(Same(In64<Cos>(-0.0), 1.0));
  EXPECT_TRUE(Same(In64<Tan>(-0.0), -0.0));
  EXPECT_TRUE(Same(In64<Tanh>(-kInf), -1.0));
  EXPECT_TRUE(Same(In64<Tanh>(-0.0), -0.0));
  EXPECT_TRUE(Same(In64<Cbrt>(-8.0), -2.0));
  EXPECT_TRUE(Same(In64<Cbrt>(-kInf), -kInf));
  EXPECT_TRUE(Same(In64<Cbrt>(-0.0), -0.0));
  EXPECT_TRUE(Same(In64<Rsqrt>(-0.0), -kInf));  // IEEE 754 rSqrt; MPFR says +Inf
  EXPECT_TRUE(Same(In64<Rsqrt>(0.0), kInf));
  EXPECT_TRUE(Same(In64<Rsqrt>(kInf), 0.0));
  EXPECT_TRUE(Same(In64<Rsqrt>(-1.0), kNaN));
  EXPECT_TRUE(Same(In64<Rsqrt>(0.25), 2.0));
  EXPECT_TRUE(Same(In32<Rsqrt>(9.0), 0.333333343f));
  EXPECT_TRUE(Same(In64<Logistic>(0.0), 0.5));
  EXPECT_TRUE(Same(In64<Logistic>(-0.0), 0.5));
  EXPECT_TRUE(Same(In64<Logistic>(kInf), 1.0));
  EXPECT_TRUE(Same(In64<Logistic>(-kInf), 0.0));
  EXPECT_TRUE(Same(In64<Logistic>(1.0), 0.7310585786300049));
  EXPECT_TRUE(Same(In64<Logistic>(40.0), 1.0));
  // e^-800 / (1 + e^-800) is below f64's smallest subnormal/2; e^-700 is not.
  EXPECT_TRUE(Same(In64<Logistic>(-800.0), 0.0));
  EXPECT_TRUE(Same(In64<Logistic>(-700.0), std::exp(-700.0)));
  EXPECT_TRUE(Same(In32<Logistic>(-1e30), 0.0f));
}

TEST(TranscendentalSpecialValuesTest, Atan2) {
  using precise::Atan2;
  EXPECT_TRUE(Same(In64<Atan2>(0.0, -0.0), kPi));
  EXPECT_TRUE(Same(In64<Atan2>(-0.0, -0.0), -kPi));
  EXPECT_TRUE(Same(In64<Atan2>(0.0, 0.0), 0.0));
  EXPECT_TRUE(Same(In64<Atan2>(-0.0, 0.0), -0.0));
  EXPECT_TRUE(Same(In64<Atan2>(-0.0, -1.0), -kPi));
  EXPECT_TRUE(Same(In64<Atan2>(1.0, 0.0), kPi / 2));
  EXPECT_TRUE(Same(In64<Atan2>(-1.0, -0.0), -kPi / 2));
  EXPECT_TRUE(Same(In64<Atan2>(kInf, -kInf), 3 * kPi / 4));
  EXPECT_TRUE(Same(In64<Atan2>(-kInf, kInf), -kPi / 4));
  EXPECT_TRUE(Same(In64<Atan2>(1.0, kInf), 0.0));
  EXPECT_TRUE(Same(In64<Atan2>(-1.0, -kInf), -kPi));
  EXPECT_TRUE(Same(In64<Atan2>(kNaN, 1.0), kNaN));
  EXPECT_TRUE(Same(In32<Atan2>(1.0, 0.0), 1.57079637f));
}

TEST(TranscendentalSpecialValuesTest, Pow) {
  using precise::Pow;
  EXPECT_TRUE(Same(In64<Pow>(kNaN, 0.0), 1.0));
  EXPECT_TRUE(Same(In64<Pow>(kNaN, -0.0), 1.0));
  EXPECT_TRUE(Same(In64<Pow>(1.0, kNaN), 1.0));
  EXPECT_TRUE(Same(In64<Pow>(-1.0, kInf), 1.0));
  EXPECT_TRUE(Same(In64<Pow>(-1.0, -kInf), 1.0));
  EXPECT_TRUE(Same(In64<Pow>(-2.0, 0.5), kNaN));
  EXPECT_TRUE(Same(In64<Pow>(-36.0, 1.1), kNaN));
  EXPECT_TRUE(Same(In64<Pow>(0.0, -1.0), kInf));
  EXPECT_TRUE(Same(In64<Pow>(-0.0, -1.0), -kInf));
  EXPECT_TRUE(Same(In64<Pow>(-0.0, -2.0), kInf));
  EXPECT_TRUE(Same(In64<Pow>(-0.0, 3.0), -0.0));
  EXPECT_TRUE(Same(In64<Pow>(-0.0, 2.0), 0.0));
  EXPECT_TRUE(Same(In64<Pow>(-kInf, 3.0), -kInf));
  EXPECT_TRUE(Same(In64<Pow>(-kInf, -3.0), -0.0));
  EXPECT_TRUE(Same(In64<Pow>(0.5, -kInf), kInf));
  EXPECT_TRUE(Same(In64<Pow>(2.0, -kInf), 0.0));
  EXPECT_TRUE(Same(In64<Pow>(-2.0, 3.0), -8.0));
  EXPECT_TRUE(Same(In64<Pow>(3.0, -1.0), 1.0 / 3));
  EXPECT_TRUE(Same(In64<Pow>(1e4, 10.0), 1e40));
  EXPECT_TRUE(Same(In32<Pow>(1e4, 10.0), static_cast<float>(kInf)));
  // An exact square that is a tie of f32: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24.
  double x = 1 + std::ldexp(1.0, -12);
  EXPECT_TRUE(Same(In32<Pow>(x, 2.0), 1 + std::ldexp(1.0f, -11)));  // ties to even
}

// An independent reference for the composed complex functions: their
// defining formula in MPC at 1000 bits, rounded once to double.
std::complex<double> Mpc1000(double re, double im, void (*formula)(mpc_ptr out, mpc_srcptr z)) {
  mpc_t z;
  mpc_t out;
  mpc_init2(z, 1000);
  mpc_init2(out, 1000);
  mpc_set_d_d(z, re, im, MPC_RNDNN);
  formula(out, z);
  std::complex<double> result(mpfr_get_d(mpc_realref(out), MPFR_RNDN),
                              mpfr_get_d(mpc_imagref(out), MPFR_RNDN));
  mpc_clear(z);
  mpc_clear(out);
  return result;
}

std::complex<double> Of(ComplexBits bits) {
  return {std::bit_cast<double>(bits.real), std::bit_cast<double>(bits.imag)};
}

void CompareWithFormula(ComplexBits (*function)(const FloatFormat&, double, double),
                        void (*formula)(mpc_ptr, mpc_srcptr), double range) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> value(-range, range);
  for (int i = 0; i < 2000; ++i) {
    double re = value(random);
    double im = value(random);
    std::complex<double> expected = Mpc1000(re, im, formula);
    std::complex<double> actual = Of(function(F64(), re, im));
    ASSERT_TRUE(Same(actual.real(), expected.real())) << re << " " << im;
    ASSERT_TRUE(Same(actual.imag(), expected.imag())) << re << " " << im;
  }
}

TEST(ComplexTranscendentalTest, Expm1IsExpMinusOne) {
  CompareWithFormula(
      precise::ComplexExpm1,
      [](mpc_ptr out, mpc_srcptr z) {
        mpc_exp(out, z, MPC_RNDNN);
        mpc_sub_ui(out, out, 1, MPC_RNDNN);
      },
      3);
  // Near 0 the real part is -y^2/2 + x, far below 1: no cancellation loss.
  ComplexBits tiny = precise::ComplexExpm1(F64(), 1e-20, 1e-10);
  EXPECT_NEAR(std::bit_cast<double>(tiny.real), 1e-20 - 0.5e-20, 1e-35);
}

TEST(ComplexTranscendentalTest, LogisticIsOneOverOnePlusExp) {
  CompareWithFormula(
      precise::ComplexLogistic,
      [](mpc_ptr out, mpc_srcptr z) {
        mpc_neg(out, z, MPC_RNDNN);
        mpc_exp(out, out, MPC_RNDNN);
        mpc_add_ui(out, out, 1, MPC_RNDNN);
        mpc_ui_div(out, 1, out, MPC_RNDNN);
      },
      40);
  // The shortcuts: logistic(iy) = 1/2 + (i/2) tan(y/2), and for x > 100 a
  // real part next to 1 (rounding to 1.0) with ws/D computed as usual.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> y(-1e6, 1e6);
  std::uniform_real_distribution<double> large_x(100.0, 600.0);
  auto formula = [](mpc_ptr out, mpc_srcptr z) {
    mpc_neg(out, z, MPC_RNDNN);
    mpc_exp(out, out, MPC_RNDNN);
    mpc_add_ui(out, out, 1, MPC_RNDNN);
    mpc_ui_div(out, 1, out, MPC_RNDNN);
  };
  for (int i = 0; i < 300; ++i) {
    for (const double re : {0.0, large_x(random)}) {
      const double im = y(random);
      const std::complex<double> expected = Mpc1000(re, im, formula);
      const std::complex<double> actual = Of(precise::ComplexLogistic(F64(), re, im));
      ASSERT_TRUE(Same(actual.real(), expected.real())) << re << " " << im;
      ASSERT_TRUE(Same(actual.imag(), expected.imag())) << re << " " << im;
    }
  }
}

TEST(ComplexTranscendentalTest, RsqrtIsOneOverSqrt) {
  CompareWithFormula(
      precise::ComplexRsqrt,
      [](mpc_ptr out, mpc_srcptr z) {
        mpc_sqrt(out, z, MPC_RNDNN);
        mpc_ui_div(out, 1, out, MPC_RNDNN);
      },
      100);
  EXPECT_EQ(Of(precise::ComplexRsqrt(F64(), 0, 2)), std::complex<double>(0.5, -0.5));
  // The side of the cut follows the sign of the zero imaginary part.
  std::complex<double> upper = Of(precise::ComplexRsqrt(F64(), -4, 0.0));
  std::complex<double> lower = Of(precise::ComplexRsqrt(F64(), -4, -0.0));
  EXPECT_TRUE(Same(upper.real(), 0.0));
  EXPECT_TRUE(Same(upper.imag(), -0.5));
  EXPECT_TRUE(Same(lower.imag(), 0.5));
  EXPECT_TRUE(Same(Of(precise::ComplexRsqrt(F64(), 4, 0.0)).imag(), -0.0));
}

TEST(ComplexTranscendentalTest, CbrtIsThePrincipalRoot) {
  CompareWithFormula(
      precise::ComplexCbrt,
      [](mpc_ptr out, mpc_srcptr z) {
        mpc_t third;
        mpc_init2(third, 1000);
        mpc_set_ui(third, 1, MPC_RNDNN);
        mpc_div_ui(third, third, 3, MPC_RNDNN);
        mpc_pow(out, z, third, MPC_RNDNN);
        mpc_clear(third);
      },
      100);
  EXPECT_EQ(Of(precise::ComplexCbrt(F64(), -8, 0)), std::complex<double>(1, 1.7320508075688772));
  EXPECT_EQ(Of(precise::ComplexCbrt(F64(), 27, 0)), std::complex<double>(3, 0));
  // An exact root: (1 + i)^3 = -2 + 2i.
  EXPECT_EQ(Of(precise::ComplexCbrt(F64(), -2, 2)), std::complex<double>(1, 1));
}

TEST(ComplexTranscendentalTest, Log1pFormsOnePlusZExactly) {
  CompareWithFormula(
      precise::ComplexLog1p,
      [](mpc_ptr out, mpc_srcptr z) {
        mpc_add_ui(out, z, 1, MPC_RNDNN);
        mpc_log(out, out, MPC_RNDNN);
      },
      2);
  // log(1 + 1e-300 i) = 5e-601 + 1e-300 i: the real part underflows, the
  // imaginary part keeps its value.
  std::complex<double> z = Of(precise::ComplexLog1p(F64(), 0, 1e-300));
  EXPECT_EQ(z, std::complex<double>(0, 1e-300));
}

// atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)) at 1000 bits, each part
// rounded once to double.
std::complex<double> Atan2ByFormula(std::complex<double> y, std::complex<double> x,
                                    mpfr_prec_t precision = 1000) {
  mpc_t a, b, num, s, t;
  for (mpc_ptr v : {a, b, num, s, t}) mpc_init2(v, precision);
  mpc_set_d_d(a, y.real(), y.imag(), MPC_RNDNN);
  mpc_set_d_d(b, x.real(), x.imag(), MPC_RNDNN);
  mpc_mul_i(num, a, 1, MPC_RNDNN);
  mpc_add(num, num, b, MPC_RNDNN);  // x + iy
  mpc_sqr(s, b, MPC_RNDNN);
  mpc_sqr(t, a, MPC_RNDNN);
  mpc_add(s, s, t, MPC_RNDNN);
  mpc_sqrt(s, s, MPC_RNDNN);
  mpc_div(num, num, s, MPC_RNDNN);
  mpc_log(num, num, MPC_RNDNN);
  mpc_mul_i(num, num, -1, MPC_RNDNN);
  std::complex<double> result(mpfr_get_d(mpc_realref(num), MPFR_RNDN),
                              mpfr_get_d(mpc_imagref(num), MPFR_RNDN));
  for (mpc_ptr v : {a, b, num, s, t}) mpc_clear(v);
  return result;
}

std::complex<double> Atan2(std::complex<double> y, std::complex<double> x, bool* open) {
  return Of(precise::ComplexAtan2(F64(), y.real(), y.imag(), x.real(), x.imag(), open));
}

// Parts that are exactly zero compare equal whatever their sign (the
// formula's sign of zero is rounding noise; the gate's bound covers it).
bool SameNumber(double a, double b) { return a == b || Same(a, b); }

TEST(ComplexTranscendentalTest, Atan2IsTheInterpretersFormula) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(-10, 10);
  for (int i = 0; i < 2000; ++i) {
    std::complex<double> y(value(random), value(random));
    std::complex<double> x(value(random), value(random));
    bool open = true;
    std::complex<double> actual = Atan2(y, x, &open);
    EXPECT_FALSE(open);
    std::complex<double> expected = Atan2ByFormula(y, x);
    ASSERT_TRUE(SameNumber(actual.real(), expected.real())) << y << " " << x;
    ASSERT_TRUE(SameNumber(actual.imag(), expected.imag())) << y << " " << x;
  }
}

TEST(ComplexTranscendentalTest, Atan2ExactZerosCancellationAndOpenPoints) {
  bool open = true;
  // The public interpreter's examples: atan2(±1, 0) = ±π/2.
  std::complex<double> up = Atan2({1, 0}, {0, 0}, &open);  // s = 1, w = i
  EXPECT_FALSE(open);
  EXPECT_EQ(up.real(), M_PI / 2);
  EXPECT_EQ(up.imag(), 0);
  EXPECT_EQ(Atan2({-1, 0}, {0, 0}, &open).real(), -M_PI / 2);
  // Real inputs with x > 0: the real atan2, imaginary part 0.
  std::complex<double> real = Atan2({3, 0}, {4, 0}, &open);
  EXPECT_EQ(real.real(), std::atan2(3.0, 4.0));
  EXPECT_EQ(real.imag(), 0);
  // y = i c x with c real puts w on the real axis: arg w = 0 exactly when w > 0.
  std::complex<double> on_axis = Atan2({-0.5, 1}, {2, 1}, &open);  // y = i x / 2
  EXPECT_FALSE(open);
  EXPECT_EQ(on_axis.real(), 0);
  EXPECT_EQ(on_axis.imag(), Atan2ByFormula({-0.5, 1}, {2, 1}).imag());
  // Nearly proportional inputs: the imaginary part is tiny and still correct.
  std::complex<double> y(1, 1 + 0x1p-40);
  std::complex<double> x(1, 1);
  std::complex<double> near = Atan2(y, x, &open);
  EXPECT_FALSE(open);
  EXPECT_EQ(near.imag(), Atan2ByFormula(y, x, 4000).imag());
  EXPECT_EQ(near.real(), Atan2ByFormula(y, x, 4000).real());
  // Open: 0/0, x + iy = 0 (y = ix), x^2 + y^2 = 0 (y = -ix), the branch cut
  // (real x < 0, y = 0), and non-finite inputs.
  Atan2({0, 0}, {0, 0}, &open);
  EXPECT_TRUE(open);
  Atan2({0, 1}, {1, 0}, &open);  // x + iy = 1 - 1 = 0
  EXPECT_TRUE(open);
  Atan2({0, -1}, {1, 0}, &open);  // x^2 + y^2 = 1 - 1 = 0
  EXPECT_TRUE(open);
  Atan2({0, 0}, {-1, 0}, &open);
  EXPECT_TRUE(open);
  Atan2({0, 1}, {0, 1}, &open);  // x^2 + y^2 = -2, on sqrt's cut
  EXPECT_TRUE(open);
  Atan2({INFINITY, 0}, {1, 0}, &open);
  EXPECT_TRUE(open);
}

// MPC 1.3.1's mpc_log is off by an ulp at 64 bits near |z| = 1, and far
// more for 1 + z with tiny z; the oracle's log and log1p do not use it.
TEST(ComplexTranscendentalTest, LogIsCorrectlyRoundedNearTheUnitCircle) {
  const double re = 2.0958744540697963e-31;
  const double im = 6.78407195154933e-37;
  // log|1 + z| = re - re^2/2 + im^2/2 + ...: re itself in both formats.
  EXPECT_EQ(std::bit_cast<double>(precise::ComplexLog1p(F64(), re, im).real), re);
  EXPECT_EQ(precise::ComplexLog1p(Format(ElementType::kF32), re, im).real,
            std::bit_cast<uint32_t>(static_cast<float>(re)));
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> angle(-M_PI, M_PI);
  for (int i = 0; i < 5000; ++i) {
    const double t = angle(random);
    const double x = std::cos(t);
    const double y = std::sin(t);
    std::complex<double> expected =
        Mpc1000(x, y, [](mpc_ptr out, mpc_srcptr z) { mpc_log(out, z, MPC_RNDNN); });
    std::complex<double> actual = Of(precise::ComplexLog(F64(), x, y));
    ASSERT_TRUE(Same(actual.real(), expected.real())) << x << " " << y;
    ASSERT_TRUE(Same(actual.imag(), expected.imag())) << x << " " << y;
  }
}

// Integer power through the op: exact wrap-around, negative exponents open.
TEST(PowerOpTest, IntegerExponentiationBySquaring) {
  Case c;
  c.op = "power";
  Tensor lhs(Shape{6}, ElementType::kSI32);
  Tensor rhs(Shape{6}, ElementType::kSI32);
  std::vector<int32_t> bases = {3, 2, 3, -1, 1, 5};
  std::vector<int32_t> exponents = {5, 31, 64, -3, -7, -2};
  std::copy(bases.begin(), bases.end(), lhs.values<ElementType::kSI32>().begin());
  std::copy(exponents.begin(), exponents.end(), rhs.values<ElementType::kSI32>().begin());
  c.operands = {lhs, rhs};
  c.result_types.push_back({Shape{6}, ElementType::kSI32});
  Oracle oracle(*spec::DefaultRegistry());
  auto results = oracle.Run(c);
  ASSERT_TRUE(results.ok()) << results.status();
  auto out = (*results)[0].reference.values<ElementType::kSI32>();
  uint32_t three_to_64 = 1;
  for (int i = 0; i < 64; ++i) three_to_64 *= 3;  // modulo 2^32
  EXPECT_EQ(out[0], 243);
  EXPECT_EQ(out[1], std::numeric_limits<int32_t>::min());
  EXPECT_EQ(out[2], static_cast<int32_t>(three_to_64));
  EXPECT_EQ(out[3], -1);
  EXPECT_EQ(out[4], 1);
  EXPECT_EQ(out[5], 0);
  // 2^31 and 3^64 overflow si32: integer overflow is implementation-defined
  // (the spec's Errors section), so those elements are free; the reference
  // still holds the exact power wrapped around.
  EXPECT_EQ((*results)[0].free, (std::vector<uint8_t>{0, 1, 1, 1, 0, 1}));
}

// pow(x, +-0) and pow(+1, y) are 1 for quiet NaNs only (IEEE 754-2019
// 9.2.1): with a signaling NaN the reference is a quiet NaN, and C's 1 is
// accepted as the other reading there, nowhere else.
TEST(PowerOpTest, SignalingNaNsGiveNaNOrCsOne) {
  constexpr ElementType kBF16 = ElementType::kBF16;
  auto bf16 = [](std::vector<uint16_t> bits) {
    Tensor t(Shape{static_cast<int64_t>(bits.size())}, kBF16);
    for (size_t i = 0; i < bits.size(); ++i) t.values<kBF16>()[i] = FloatFromBits<kBF16>(bits[i]);
    return t;
  };
  // sNaN^0, qNaN^0, 1^sNaN, 1^qNaN, sNaN^2, sNaN^-0
  Case c;
  c.op = "power";
  c.operands = {bf16({0xFFB0, 0x7FC0, 0x3F80, 0x3F80, 0x7F81, 0x7FA0}),
                bf16({0x0000, 0x0000, 0x7F90, 0x7FC0, 0x4000, 0x8000})};
  c.result_types.push_back(c.operands[0].type());
  auto results = Oracle(*spec::DefaultRegistry()).Run(c);
  ASSERT_TRUE(results.ok()) << results.status();
  const ResultExpectation& e = (*results)[0];
  std::vector<double> reference;
  for (auto x : e.reference.values<kBF16>()) reference.push_back(ToDouble<kBF16>(x));
  EXPECT_TRUE(std::isnan(reference[0]));
  EXPECT_EQ(reference[1], 1.0);
  EXPECT_TRUE(std::isnan(reference[2]));
  EXPECT_EQ(reference[3], 1.0);
  EXPECT_TRUE(std::isnan(reference[4]));
  EXPECT_TRUE(std::isnan(reference[5]));
  EXPECT_EQ(e.reading_differs, (std::vector<uint8_t>{1, 0, 1, 0, 0, 1}));
  ASSERT_NE(e.other_reading, nullptr);
  EXPECT_NE(e.other_reading_reason.find("9.2.1"), std::string::npos);
  // Either reading passes; a 1 where only the NaN is allowed, or a third
  // value where either is, does not.
  const Tensor c_ones = bf16({0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x7FC0, 0x3F80});
  EXPECT_TRUE(CompareResult(e, c_ones).ok());
  EXPECT_TRUE(CompareResult(e, bf16({0x7FC0, 0x3F80, 0x7FC0, 0x3F80, 0x7FC0, 0x7FC0})).ok());
  EXPECT_FALSE(CompareResult(e, bf16({0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F80})).ok());
  EXPECT_FALSE(CompareResult(e, bf16({0x4000, 0x3F80, 0x3F80, 0x3F80, 0x7FC0, 0x3F80})).ok());
}

// A function value the element type cannot hold (NaN in a finite-only type,
// 0 or a negative value in f8E8M0FNU) is left open, as arithmetic leaves it:
// the spec does not say what it becomes. Everything else stays held.
TEST(TranscendentalOpsTest, AValueTheTypeCannotHoldIsFree) {
  auto run = [](const char* op, std::vector<std::string> operands) {
    Case c;
    c.op = op;
    for (const std::string& text : operands) c.operands.push_back(testing::Literal(text));
    c.result_types.push_back(c.operands[0].type());
    auto results = Oracle(*spec::DefaultRegistry()).Run(c);
    EXPECT_TRUE(results.ok()) << results.status();
    return results.ok() ? (*results)[0].free : std::vector<uint8_t>{};
  };
  const uint8_t kFree = kFreeAnyValue;
  // log(-1) = NaN and log(0) = -inf do not exist in f4E2M1FN; log(4) does.
  EXPECT_EQ(run("log", {"dense<[-1.0, 0.0, 4.0]> : tensor<3xf4E2M1FN>"}),
            (std::vector<uint8_t>{kFree, kFree, 0}));
  // log(1) = 0 and log(0.5) < 0 do not exist in f8E8M0FNU; log(16) does.
  EXPECT_EQ(run("log", {"dense<[1.0, 0.5, 16.0]> : tensor<3xf8E8M0FNU>"}),
            (std::vector<uint8_t>{kFree, kFree, 0}));
  // pow(-1, 0.5) = NaN in f6E3M2FN; pow(2, 2) = 4.
  EXPECT_EQ(run("power", {"dense<[-1.0, 2.0]> : tensor<2xf6E3M2FN>",
                          "dense<[0.5, 2.0]> : tensor<2xf6E3M2FN>"}),
            (std::vector<uint8_t>{kFree, 0}));
  // atan2(1, 1) = pi/4 rounds to a power of two in f8E8M0FNU: held.
  EXPECT_EQ(
      run("atan2", {"dense<[1.0]> : tensor<1xf8E8M0FNU>", "dense<[1.0]> : tensor<1xf8E8M0FNU>"}),
      (std::vector<uint8_t>{}));
  // Types with every special value: nothing is free.
  EXPECT_EQ(run("log", {"dense<[-1.0, 0.0, 4.0]> : tensor<3xf32>"}), (std::vector<uint8_t>{}));
}

// Every op runs on every element type its YAML allows, on an empty and on
// a rank-0 tensor, without an error.
TEST(TranscendentalOpsTest, EveryAllowedTypeRuns) {
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok());
  Oracle oracle(*registry);
  for (const char* op : {"atan2", "cbrt", "cosine", "exponential_minus_one", "log", "log_plus_one",
                         "logistic", "power", "rsqrt", "sine", "tan", "tanh"}) {
    const spec::OpSpec* spec = (*registry)->Find(op);
    ASSERT_NE(spec, nullptr) << op;
    for (ElementType type : AllElementTypes()) {
      if (!spec->operands[0].types.Contains(type)) continue;
      for (Shape shape : {Shape{}, Shape{0}, Shape{3}}) {
        Case c;
        c.op = op;
        for (size_t i = 0; i < spec->operands.size(); ++i) c.operands.emplace_back(shape, type);
        c.result_types.push_back({shape, type});
        auto results = oracle.Run(c);
        EXPECT_TRUE(results.ok()) << op << " " << Name(type) << ": " << results.status();
      }
    }
  }
}

}  // namespace
}  // namespace hlocheck
