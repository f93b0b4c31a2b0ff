// The fast correctly rounded functions (Ziv's test over libm) must give
// exactly what MPFR alone gives, in every float type: exhaustively for the
// types of up to 16 bits, on large random samples and near-tie inputs for
// f32 and f64. The error bounds they rely on are measured here too.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/exact_value.h"
#include "oracle/precise/elementary.h"
#include "oracle/precise/round_to_odd.h"

namespace hlocheck::precise {
namespace {

const FloatFormat& F32() { return Format(ElementType::kF32); }
const FloatFormat& F64() { return Format(ElementType::kF64); }

template <class F, typename... Doubles>
::testing::AssertionResult SameAsMpfr(const FloatFormat& format, Doubles... x) {
  uint64_t fast = CorrectlyRounded<F>(format, x...);
  uint64_t slow = ByMpfr<F>(format, x...);
  if (fast == slow || (IsNaNBits(format, fast) && IsNaNBits(format, slow))) {
    return ::testing::AssertionSuccess();
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << "at";
  ((failure << " " << std::hexfloat << x), ...);
  return failure << ": fast 0x" << std::hex << fast << ", MPFR 0x" << slow;
}

std::vector<ElementType> NarrowFloatTypes() {
  std::vector<ElementType> types;
  for (ElementType type : AllElementTypes()) {
    if (IsFloat(type) && BitWidth(type) <= 16) types.push_back(type);
  }
  return types;
}

// Every input of every float type of up to 16 bits.
template <class F>
void ExhaustiveUnary() {
  for (ElementType type : NarrowFloatTypes()) {
    const FloatFormat& format = Format(type);
    for (uint64_t bits = 0; bits < (uint64_t{1} << format.total_bits()); ++bits) {
      ASSERT_TRUE(SameAsMpfr<F>(format, DecodeFloat(format, bits).ToDouble())) << Name(type);
    }
  }
}

// Every pair for the types of up to 8 bits; for f16 and bf16 every value
// against 24 partners on either side (special values, signs, integers and
// halves, which is where pow and atan2 have their special cases).
template <class F>
void ExhaustiveBinary() {
  for (ElementType type : NarrowFloatTypes()) {
    const FloatFormat& format = Format(type);
    const uint64_t count = uint64_t{1} << format.total_bits();
    auto value = [&](uint64_t bits) { return DecodeFloat(format, bits).ToDouble(); };
    if (format.total_bits() <= 8) {
      for (uint64_t a = 0; a < count; ++a) {
        for (uint64_t b = 0; b < count; ++b) {
          ASSERT_TRUE(SameAsMpfr<F>(format, value(a), value(b))) << Name(type);
        }
      }
      continue;
    }
    const double partners[] = {0.0,   -0.0, 1.0, -1.0, 2.0,      -2.0,      0.5,  -0.5,
                               3.0,   -3.0, 1.5, -1.5, 10.0,     -7.0,      0.25, 1e-3,
                               -65.0, 33.5, 1e4, -1e4, HUGE_VAL, -HUGE_VAL, NAN,  0.1};
    for (uint64_t a = 0; a < count; ++a) {
      for (double partner : partners) {
        uint64_t p = EncodeFloat(format, ExactValue::FromDouble(partner));
        ASSERT_TRUE(SameAsMpfr<F>(format, value(a), value(p))) << Name(type);
        ASSERT_TRUE(SameAsMpfr<F>(format, value(p), value(a))) << Name(type);
      }
    }
  }
}

TEST(TranscendentalExhaustiveTest, Expm1) { ExhaustiveUnary<Expm1>(); }
TEST(TranscendentalExhaustiveTest, Log) { ExhaustiveUnary<Log>(); }
TEST(TranscendentalExhaustiveTest, Log1p) { ExhaustiveUnary<Log1p>(); }
TEST(TranscendentalExhaustiveTest, Sin) { ExhaustiveUnary<Sin>(); }
TEST(TranscendentalExhaustiveTest, Cos) { ExhaustiveUnary<Cos>(); }
TEST(TranscendentalExhaustiveTest, Tan) { ExhaustiveUnary<Tan>(); }
TEST(TranscendentalExhaustiveTest, Tanh) { ExhaustiveUnary<Tanh>(); }
TEST(TranscendentalExhaustiveTest, Cbrt) { ExhaustiveUnary<Cbrt>(); }
TEST(TranscendentalExhaustiveTest, Rsqrt) { ExhaustiveUnary<Rsqrt>(); }
TEST(TranscendentalExhaustiveTest, Logistic) { ExhaustiveUnary<Logistic>(); }
TEST(TranscendentalExhaustiveTest, Atan2) { ExhaustiveBinary<Atan2>(); }
TEST(TranscendentalExhaustiveTest, Pow) { ExhaustiveBinary<Pow>(); }

// A float value from random bits, or a value in [-range, range] (log-uniform
// magnitude), half and half.
double RandomF32(std::mt19937_64& random, double range) {
  if (random() & 1) return std::bit_cast<float>(static_cast<uint32_t>(random()));
  double magnitude = range * std::ldexp(1.0, -static_cast<int>(random() % 40)) *
                     std::uniform_real_distribution<double>(0.5, 1.0)(random);
  return static_cast<float>((random() & 1) ? -magnitude : magnitude);
}
double RandomF64(std::mt19937_64& random, double range) {
  if (random() & 1) return std::bit_cast<double>(random());
  double magnitude = range * std::ldexp(1.0, -static_cast<int>(random() % 60)) *
                     std::uniform_real_distribution<double>(0.5, 1.0)(random);
  return (random() & 1) ? -magnitude : magnitude;
}

// The identity of the fast path and MPFR on 10^6 f32 and 10^5 f64 inputs
// (pairs for binary functions), where the function's values are interesting.
template <class F>
void RandomIdentity(double range, uint64_t seed) {
  std::mt19937_64 random(seed);
  for (int i = 0; i < 1000000; ++i) {
    if constexpr (requires { F::InDouble(0.0); }) {
      ASSERT_TRUE(SameAsMpfr<F>(F32(), RandomF32(random, range)));
      if (i % 10 == 0) {
        ASSERT_TRUE(SameAsMpfr<F>(F64(), RandomF64(random, range)));
      }
    } else {
      ASSERT_TRUE(SameAsMpfr<F>(F32(), RandomF32(random, range), RandomF32(random, range)));
      if (i % 10 == 0) {
        ASSERT_TRUE(SameAsMpfr<F>(F64(), RandomF64(random, range), RandomF64(random, range)));
      }
    }
  }
}

TEST(TranscendentalRandomTest, Exp) { RandomIdentity<Exp>(100, 1); }
TEST(TranscendentalRandomTest, Expm1) { RandomIdentity<Expm1>(100, 2); }
TEST(TranscendentalRandomTest, Log) { RandomIdentity<Log>(1e30, 3); }
TEST(TranscendentalRandomTest, Log1p) { RandomIdentity<Log1p>(4, 4); }
TEST(TranscendentalRandomTest, Sin) { RandomIdentity<Sin>(1e4, 5); }
TEST(TranscendentalRandomTest, Cos) { RandomIdentity<Cos>(1e4, 6); }
TEST(TranscendentalRandomTest, Tan) { RandomIdentity<Tan>(1e4, 7); }
TEST(TranscendentalRandomTest, Tanh) { RandomIdentity<Tanh>(20, 8); }
TEST(TranscendentalRandomTest, Cbrt) { RandomIdentity<Cbrt>(1e30, 9); }
TEST(TranscendentalRandomTest, Rsqrt) { RandomIdentity<Rsqrt>(1e30, 10); }
TEST(TranscendentalRandomTest, Logistic) { RandomIdentity<Logistic>(100, 11); }
TEST(TranscendentalRandomTest, Atan2) { RandomIdentity<Atan2>(1e10, 12); }
TEST(TranscendentalRandomTest, Pow) { RandomIdentity<Pow>(30, 13); }

// Distance of `y` from the nearest rounding boundary (midpoint) of a format
// with `precision` bits, in units of that format's ulp at y.
template <typename Wide>
double TieDistance(Wide y, int precision) {
  int exponent = 0;
  Wide fraction = std::frexp(std::fabs(y), &exponent);  // [0.5, 1)
  Wide scaled = std::ldexp(fraction, precision);        // ulps of the format
  Wide offset = scaled - std::floor(scaled);
  return static_cast<double>(std::fabs(offset - static_cast<Wide>(0.5)));
}

// Inputs whose value lies near a tie of the target (the hard cases of the
// rounding), found with the fast function itself and checked against MPFR:
// the fast path must reject or decide them correctly.
template <class F>
void NearTies(double range, uint64_t seed) {
  std::mt19937_64 random(seed);
  int f32_hard = 0;
  int f64_hard = 0;
  for (int i = 0; i < 4000000 && (f32_hard < 2000 || f64_hard < 2000); ++i) {
    double x = RandomF32(random, range);
    double y = F::InDouble(x);
    if (std::isfinite(y) && y != 0 && TieDistance(y, 24) < 3e-5) {
      ++f32_hard;
      ASSERT_TRUE(SameAsMpfr<F>(F32(), x));
    }
    double x64 = RandomF64(random, range);
    long double y64 = F::InLongDouble(x64);
    if (std::isfinite(y64) && y64 != 0 && TieDistance(y64, 53) < 0.02) {
      ++f64_hard;
      ASSERT_TRUE(SameAsMpfr<F>(F64(), x64));
    }
  }
  EXPECT_GT(f32_hard, 20);
  EXPECT_GT(f64_hard, 1000);
}

TEST(TranscendentalNearTieTest, Exp) { NearTies<Exp>(100, 21); }
TEST(TranscendentalNearTieTest, Sin) { NearTies<Sin>(1e4, 22); }
TEST(TranscendentalNearTieTest, Log) { NearTies<Log>(1e30, 23); }
TEST(TranscendentalNearTieTest, Tanh) { NearTies<Tanh>(20, 24); }
TEST(TranscendentalNearTieTest, Logistic) { NearTies<Logistic>(100, 25); }
TEST(TranscendentalNearTieTest, Cbrt) { NearTies<Cbrt>(1e30, 26); }

// Error of a wide approximation against MPFR, in ulps of the wide format.
double UlpError(long double approximation, double x, MpfrUnary f) {
  MpfrNumber in(53);
  MpfrNumber exact(256);
  MpfrNumber error(256);
  mpfr_set_d(in.get(), x, MPFR_RNDN);
  f(exact.get(), in.get(), MPFR_RNDN);
  MpfrNumber approx(64);
  mpfr_set_ld(approx.get(), approximation, MPFR_RNDN);
  mpfr_sub(error.get(), approx.get(), exact.get(), MPFR_RNDN);
  long exponent = mpfr_get_exp(exact.get());                         // |exact| in [2^(e-1), 2^e)
  mpfr_div_2si(error.get(), error.get(), exponent - 64, MPFR_RNDN);  // in ulps of 64 bits
  return std::fabs(mpfr_get_d(error.get(), MPFR_RNDN));
}

// The long double functions stay well inside the bounds the fast path for
// f64 assumes (glibc's published maxima are measured, not proved).
template <class F>
void LongDoubleWithinHalfTheBound(MpfrUnary f, double range, uint64_t seed) {
  std::mt19937_64 random(seed);
  double worst = 0;
  for (int i = 0; i < 100000; ++i) {
    double x = RandomF64(random, range);
    long double y = F::InLongDouble(x);
    if (!std::isfinite(y) || std::fabs(y) < LDBL_MIN) continue;
    worst = std::max(worst, UlpError(y, x, f));
  }
  EXPECT_LE(worst, F::kLongDoubleUlps / 2.0);
  ::testing::Test::RecordProperty("worst_ulps", std::to_string(worst));
}

TEST(LongDoubleBoundTest, Exp) { LongDoubleWithinHalfTheBound<Exp>(mpfr_exp, 11000, 31); }
TEST(LongDoubleBoundTest, Expm1) { LongDoubleWithinHalfTheBound<Expm1>(mpfr_expm1, 100, 32); }
TEST(LongDoubleBoundTest, Log) { LongDoubleWithinHalfTheBound<Log>(mpfr_log, 1e300, 33); }
TEST(LongDoubleBoundTest, Log1p) { LongDoubleWithinHalfTheBound<Log1p>(mpfr_log1p, 4, 34); }
TEST(LongDoubleBoundTest, Sin) { LongDoubleWithinHalfTheBound<Sin>(mpfr_sin, 1e22, 35); }
TEST(LongDoubleBoundTest, Cos) { LongDoubleWithinHalfTheBound<Cos>(mpfr_cos, 1e22, 36); }
TEST(LongDoubleBoundTest, Tan) { LongDoubleWithinHalfTheBound<Tan>(mpfr_tan, 1e22, 37); }
TEST(LongDoubleBoundTest, Tanh) { LongDoubleWithinHalfTheBound<Tanh>(mpfr_tanh, 40, 38); }
TEST(LongDoubleBoundTest, Cbrt) { LongDoubleWithinHalfTheBound<Cbrt>(mpfr_cbrt, 1e300, 39); }

// The fast path decides nearly always: f32 from double, f64 from long double.
template <class F>
ZivStatistics HitRate(const FloatFormat& format, double lo, double hi) {
  ZivStatistics before = ThreadZivStatistics(F::kId);
  std::mt19937_64 random(99);
  std::uniform_real_distribution<double> in_range(lo, hi);
  std::uniform_real_distribution<double> exponent(-4, 4);
  auto input = [&](double x) { return format.mantissa_bits < 52 ? static_cast<float>(x) : x; };
  for (int i = 0; i < 100000; ++i) {
    if constexpr (requires { F::InDouble(0.0); }) {
      CorrectlyRounded<F>(format, input(in_range(random)));
    } else {
      CorrectlyRounded<F>(format, input(in_range(random)), input(exponent(random)));
    }
  }
  ZivStatistics after = ThreadZivStatistics(F::kId);
  return {after.fast - before.fast, after.mpfr - before.mpfr};
}

template <class F>
void ExpectHighHitRates(double lo, double hi) {
  ZivStatistics f32 = HitRate<F>(F32(), lo, hi);
  ZivStatistics f64 = HitRate<F>(F64(), lo, hi);
  // A near-exact result (log(1), pow(4, 0.5)) goes to MPFR: allow a few.
  EXPECT_LE(f32.mpfr, 10u) << "f32: fast " << f32.fast << ", MPFR " << f32.mpfr;
  EXPECT_LE(f64.mpfr, 5000u) << "f64: fast " << f64.fast << ", MPFR " << f64.mpfr;
  ::testing::Test::RecordProperty("f32_mpfr_per_100000", std::to_string(f32.mpfr));
  ::testing::Test::RecordProperty("f64_mpfr_per_100000", std::to_string(f64.mpfr));
}

TEST(ZivHitRateTest, EveryFunction) {
  ExpectHighHitRates<Exp>(-80, 80);
  ExpectHighHitRates<Expm1>(-80, 80);
  ExpectHighHitRates<Log>(0, 1e6);
  ExpectHighHitRates<Log1p>(-0.99, 1e6);
  ExpectHighHitRates<Sin>(-100, 100);
  ExpectHighHitRates<Cos>(-100, 100);
  ExpectHighHitRates<Tan>(-100, 100);
  ExpectHighHitRates<Tanh>(-10, 10);
  ExpectHighHitRates<Cbrt>(-1e6, 1e6);
  ExpectHighHitRates<Rsqrt>(0, 1e6);
  ExpectHighHitRates<Logistic>(-30, 30);
  ExpectHighHitRates<Atan2>(-1e3, 1e3);
  ExpectHighHitRates<Pow>(0, 10);
}

}  // namespace
}  // namespace hlocheck::precise
