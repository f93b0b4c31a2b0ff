#include "oracle/precise/complex.h"

#include <mpc.h>
#include <mpfr.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/exact_value.h"
#include "oracle/precise/complex_fast.h"
#include "oracle/precise/elementary.h"
#include "oracle/precise/round_to_odd.h"

namespace hlocheck::precise {
namespace {

using MpcUnary = int (*)(mpc_ptr, mpc_srcptr, mpc_rnd_t);

class MpcNumber {
 public:
  explicit MpcNumber(mpfr_prec_t precision) { mpc_init2(value_, precision); }
  ~MpcNumber() { mpc_clear(value_); }
  MpcNumber(const MpcNumber&) = delete;
  MpcNumber& operator=(const MpcNumber&) = delete;
  mpc_ptr get() { return value_; }

 private:
  mpc_t value_;
};

// Precision that holds 1 + x exactly for every double x (exponents from
// -1074 to 1023, plus the significand).
constexpr mpfr_prec_t kExactSumPrecision = 2200;
// Ziv loops stop here; no inexact part has needed more than a few thousand
// bits. An exact part (cbrt(-2 + 2i) = 1 + i) never passes the rounding
// test and ends here too: its approximation, rounded to odd, still rounds
// to that value in every format that holds it, unless the value is a tie
// of the format.
constexpr mpfr_prec_t kMaxPrecision = mpfr_prec_t{1} << 13;
// The value of e^x for |x| beyond this no longer matters to any format
// (below 2^-1400000, or an overflow in every format).
constexpr double kHugeExponent = 1e6;

ComplexBits Encode(const FloatFormat& part, const ExactValue& re, const ExactValue& im) {
  return {EncodeFloat(part, re), EncodeFloat(part, im)};
}

ComplexBits EncodeOdd(const FloatFormat& part, mpc_ptr value, int inexact) {
  return Encode(part, FromRoundedToOdd(mpc_realref(value), MPC_INEX_RE(inexact)),
                FromRoundedToOdd(mpc_imagref(value), MPC_INEX_IM(inexact)));
}

ComplexBits ByMpc(MpcUnary f, const FloatFormat& part, double re, double im) {
  MpcNumber z(53);
  MpcNumber result(kOddPrecision);
  mpc_set_d_d(z.get(), re, im, MPC_RNDNN);  // exact
  return EncodeOdd(part, result.get(), f(result.get(), z.get(), MPC_RNDZZ));
}

// Non-finite inputs of the composed functions: the spec leaves them to the
// implementation and the callers mark them free; this is C++'s value, for
// display only.
ComplexBits Unspecified(const FloatFormat& part, std::complex<double> value) {
  return Encode(part, ExactValue::FromDouble(value.real()), ExactValue::FromDouble(value.imag()));
}

// A value of magnitude far below every format's smallest, with a sign.
ExactValue Tiny(bool negative) { return ExactValue::Finite(negative, 1, INT32_MIN / 2); }

ExactValue Negated(ExactValue value) {
  value.negative = !value.negative;
  return value;
}

ExactValue SignedZero(double zero) { return ExactValue::Zero(std::signbit(zero)); }

// The exponent of a non-zero MPFR number (|v| < 2^Exponent(v)); zero counts
// as very small.
long Exponent(mpfr_srcptr v) { return mpfr_regular_p(v) ? mpfr_get_exp(v) : LONG_MIN / 4; }

// ceil(log2(x)) for x >= 1.
long CeilLog2(double x) { return std::ilogb(x) + 1; }

constexpr long kNoBound = LONG_MAX;

// One part of a composed function, correctly rounded to odd at 64 bits by a
// Ziv loop: `evaluate(precision, value)` sets `value` (of `precision` bits)
// to an approximation and returns E with |error| <= 2^E (kNoBound when it
// cannot bound it yet). The part must not be exactly representable: callers
// handle the inputs where it is.
template <typename Evaluate>
ExactValue ZivPart(Evaluate evaluate) {
  MpfrNumber rounded(kOddPrecision);
  for (mpfr_prec_t precision = 128;; precision *= 2) {
    MpfrNumber value(precision);
    long error_exponent = evaluate(precision, value.get());
    // Beyond MPFR's exponent range only where the value is beyond every format's.
    if (mpfr_inf_p(value.get())) return ExactValue::Infinity(mpfr_signbit(value.get()) != 0);
    if (mpfr_regular_p(value.get()) && error_exponent != kNoBound) {
      long correct_bits = mpfr_get_exp(value.get()) - error_exponent;
      if (correct_bits > 0 &&
          mpfr_can_round(value.get(), correct_bits, MPFR_RNDN, MPFR_RNDZ, kOddPrecision + 1)) {
        mpfr_set(rounded.get(), value.get(), MPFR_RNDZ);
        return FromRoundedToOdd(rounded.get(), /*ternary=*/-1);
      }
    }
    if (precision >= kMaxPrecision) {
      mpfr_set(rounded.get(), value.get(), MPFR_RNDZ);
      return FromRoundedToOdd(rounded.get(), -1);
    }
  }
}

// e^x cos y, e^x sin y and the like at `precision` bits: the pieces the
// composed functions share.
struct Trig {
  explicit Trig(mpfr_prec_t precision, double y) : c(precision), s(precision) {
    mpfr_set_d(c.get(), y, MPFR_RNDN);  // exact
    mpfr_sin_cos(s.get(), c.get(), c.get(), MPFR_RNDN);
  }
  MpfrNumber c;  // cos y, relative error <= 2^-precision
  MpfrNumber s;  // sin y, likewise
};

// Trig of one y at each precision the Ziv loops ask for, computed once for
// the real and the imaginary part: MPFR's argument reduction of a large y
// costs more than the rest of the function.
class TrigCache {
 public:
  explicit TrigCache(double y) : y_(y) {}
  const Trig& At(mpfr_prec_t precision) {
    for (const auto& [p, trig] : cache_) {
      if (p == precision) return *trig;
    }
    cache_.emplace_back(precision, std::make_unique<Trig>(precision, y_));
    return *cache_.back().second;
  }

 private:
  double y_;
  std::vector<std::pair<mpfr_prec_t, std::unique_ptr<Trig>>> cache_;
};

// Precision that holds a sum of products of two doubles exactly (product
// exponents from -2148 to 2046, 106-bit significands, and carries).
constexpr mpfr_prec_t kExactProductPrecision = 4400;

// log(z) or log(1 + z) from MPFR's correctly rounded log1p and atan2 on
// exact arguments. MPC 1.3.1's mpc_log is not correctly rounded near
// |z| = 1 (log(1 + 2.0958744540697963e-31 + 6.8e-37i) at 64 bits gives a
// real part of 2.0958932...e-31; 256 of 50,000 points of the unit circle
// are off by an ulp), which the CPU adapter's log1p showed up.
ComplexBits LogOf(const FloatFormat& part, double re, double im, bool plus_one) {
  MpfrNumber norm_minus_one(kExactProductPrecision);
  MpfrNumber square(kExactProductPrecision);
  MpfrNumber real_part(kExactSumPrecision);
  mpfr_set_d(real_part.get(), re, MPFR_RNDN);
  mpfr_sqr(norm_minus_one.get(), real_part.get(), MPFR_RNDN);
  mpfr_set_d(square.get(), im, MPFR_RNDN);
  mpfr_sqr(square.get(), square.get(), MPFR_RNDN);
  mpfr_add(norm_minus_one.get(), norm_minus_one.get(), square.get(), MPFR_RNDN);
  if (plus_one) {
    mpfr_mul_2ui(square.get(), real_part.get(), 1, MPFR_RNDN);
    mpfr_add(norm_minus_one.get(), norm_minus_one.get(), square.get(), MPFR_RNDN);
    mpfr_add_ui(real_part.get(), real_part.get(), 1, MPFR_RNDN);
  } else {
    mpfr_sub_ui(norm_minus_one.get(), norm_minus_one.get(), 1, MPFR_RNDN);
  }  // all exact
  MpfrNumber log_norm(kOddPrecision);
  MpfrNumber angle(kOddPrecision);
  MpfrNumber imag_part(53);
  mpfr_set_d(imag_part.get(), im, MPFR_RNDN);
  ExactValue real =
      FromRoundedToOdd(log_norm.get(), mpfr_log1p(log_norm.get(), norm_minus_one.get(), MPFR_RNDZ));
  if (real.cls == ExactValue::Class::kFinite) real.exponent -= 1;  // halving keeps it odd
  ExactValue imag = FromRoundedToOdd(
      angle.get(), mpfr_atan2(angle.get(), imag_part.get(), real_part.get(), MPFR_RNDZ));
  return Encode(part, real, imag);
}

enum class Path { kFastFirst, kMpcOnly };

std::optional<ComplexBits> FastFirst(Path path, ComplexFunction f, const FloatFormat& part,
                                     double re, double im) {
  if (path == Path::kMpcOnly) return std::nullopt;
  return FastComplex(f, part, re, im);
}

}  // namespace

ComplexBits EvaluateExp(const FloatFormat& part, double re, double im, Path path) {
  if (auto fast = FastFirst(path, ComplexFunction::kExp, part, re, im)) return *fast;
  return ByMpc(mpc_exp, part, re, im);
}
ComplexBits ComplexLog(const FloatFormat& part, double re, double im) {
  // log|z| = log1p(re^2 + im^2 - 1) / 2, arg z = atan2(im, re).
  return LogOf(part, re, im, /*plus_one=*/false);
}
ComplexBits EvaluateSin(const FloatFormat& part, double re, double im, Path path) {
  if (auto fast = FastFirst(path, ComplexFunction::kSin, part, re, im)) return *fast;
  return ByMpc(mpc_sin, part, re, im);
}
ComplexBits EvaluateCos(const FloatFormat& part, double re, double im, Path path) {
  if (auto fast = FastFirst(path, ComplexFunction::kCos, part, re, im)) return *fast;
  return ByMpc(mpc_cos, part, re, im);
}
// tanh(x + iy) for |x| > kTanhSaturation: 1 - 2e^{-2|x|}(...) rounds to
// sign(x) in every format, and the imaginary part, 4e^{-2|x|} sin(2y) / (...)
// in magnitude, to a zero with the sign of sin(2y) (y's sign when y = 0).
// MPC would need about 2|x| bits to find that out, which for large x never
// ends; the limit is the correctly rounded value.
constexpr double kTanhSaturation = 400;  // e^-800 is below every format's smallest subnormal

ComplexBits SaturatedTanh(const FloatFormat& part, double x, double y) {
  bool negative_imag = std::signbit(y);
  if (y != 0) {
    MpfrNumber twice(64);
    mpfr_set_d(twice.get(), y, MPFR_RNDN);
    mpfr_mul_2ui(twice.get(), twice.get(), 1, MPFR_RNDN);  // exact
    mpfr_sin(twice.get(), twice.get(), MPFR_RNDN);         // never exactly 0 for y != 0
    negative_imag = mpfr_sgn(twice.get()) < 0;
  }
  return Encode(part, ExactValue::FromDouble(std::copysign(1.0, x)),
                ExactValue::FromDouble(negative_imag ? -0.0 : 0.0));
}

ComplexBits EvaluateTan(const FloatFormat& part, double re, double im, Path path) {
  // tan(z) = -i tanh(iz), iz = -im + i re.
  if (std::isfinite(re) && std::isfinite(im) && std::fabs(im) > kTanhSaturation) {
    ComplexBits t = SaturatedTanh(part, -im, re);
    return {t.imag, t.real ^ part.sign_mask()};
  }
  if (auto fast = FastFirst(path, ComplexFunction::kTan, part, re, im)) return *fast;
  return ByMpc(mpc_tan, part, re, im);
}
ComplexBits EvaluateTanh(const FloatFormat& part, double re, double im, Path path) {
  if (std::isfinite(re) && std::isfinite(im) && std::fabs(re) > kTanhSaturation) {
    return SaturatedTanh(part, re, im);
  }
  if (auto fast = FastFirst(path, ComplexFunction::kTanh, part, re, im)) return *fast;
  return ByMpc(mpc_tanh, part, re, im);
}

ComplexBits ComplexLog1p(const FloatFormat& part, double re, double im) {
  // log|1 + z| = log1p(2 re + re^2 + im^2) / 2, arg(1 + z) = atan2(im, 1 + re).
  return LogOf(part, re, im, /*plus_one=*/true);
}

ComplexBits EvaluatePow(const FloatFormat& part, double x_re, double x_im, double y_re, double y_im,
                        Path path) {
  if (x_re == 0 && x_im == 0) {
    return Unspecified(
        part, std::pow(std::complex<double>(x_re, x_im), std::complex<double>(y_re, y_im)));
  }
  if (path == Path::kFastFirst) {
    if (auto fast = FastComplexPow(part, x_re, x_im, y_re, y_im)) return *fast;
  }
  MpcNumber x(53);
  MpcNumber y(53);
  MpcNumber result(kOddPrecision);
  mpc_set_d_d(x.get(), x_re, x_im, MPC_RNDNN);
  mpc_set_d_d(y.get(), y_re, y_im, MPC_RNDNN);
  return EncodeOdd(part, result.get(), mpc_pow(result.get(), x.get(), y.get(), MPC_RNDZZ));
}

ComplexBits EvaluateRsqrt(const FloatFormat& part, double re, double im, Path path) {
  if (re == 0 && im == 0) return Unspecified(part, 1.0 / std::sqrt(std::complex<double>(re, im)));
  if (im == 0 && !std::isnan(re)) {
    // On the real axis: 1/sqrt(x ± 0i) = 1/sqrt(x) ∓ 0i for x > 0, and
    // 1/(±i sqrt(-x)) = ∓i/sqrt(-x) for x < 0 (the zero's sign picks the side).
    if (re > 0) return Encode(part, Rsqrt::ToOdd(re), Negated(SignedZero(im)));
    ExactValue magnitude = Rsqrt::ToOdd(-re);
    return Encode(part, ExactValue::Zero(false), std::signbit(im) ? magnitude : Negated(magnitude));
  }
  if (auto fast = FastFirst(path, ComplexFunction::kRsqrt, part, re, im)) return *fast;
  // Elsewhere neither part is zero; MPC's pow detects exact results (1/sqrt(2i) = (1 - i)/2).
  MpcNumber z(53);
  MpcNumber exponent(53);
  MpcNumber result(kOddPrecision);
  mpc_set_d_d(z.get(), re, im, MPC_RNDNN);
  mpc_set_d_d(exponent.get(), -0.5, 0.0, MPC_RNDNN);
  return EncodeOdd(part, result.get(), mpc_pow(result.get(), z.get(), exponent.get(), MPC_RNDZZ));
}

// e^z - 1 = (e^x cos y - 1) + i e^x sin y, the real part written as
// expm1(x) cos y - 2 sin^2(y/2) so that it keeps its relative accuracy near 0.
ComplexBits EvaluateExpm1(const FloatFormat& part, double re, double im, Path path) {
  if (!std::isfinite(re) || !std::isfinite(im)) {
    return Unspecified(part, std::exp(std::complex<double>(re, im)) - 1.0);
  }
  // Real z: expm1(x) + i(±0) (e^x sin(±0) = ±0).
  if (im == 0) return Encode(part, Expm1::ToOdd(re), SignedZero(im));
  if (auto fast = FastFirst(path, ComplexFunction::kExpm1, part, re, im)) return *fast;
  const bool cos_negative = std::cos(im) < 0;  // |cos y| > 2^-70 for every double y
  if (re < -kHugeExponent) {
    // -1 + e^x cos y with e^x < 2^-1400000, truncated to 64 bits and odd.
    ExactValue real = cos_negative ? ExactValue::Finite(true, (uint64_t{1} << 63) | 1, -63)
                                   : ExactValue::Finite(true, ~uint64_t{0}, -64);
    return Encode(part, real, Tiny(std::sin(im) < 0));
  }
  // Each MPFR operation rounds to nearest: relative error eps = 2^-precision.
  TrigCache trigs(im);
  ExactValue real = ZivPart([&](mpfr_prec_t precision, mpfr_ptr value) {
    const Trig& trig = trigs.At(precision);
    MpfrNumber t1(precision);
    MpfrNumber t2(precision);
    mpfr_set_d(t1.get(), re, MPFR_RNDN);
    mpfr_expm1(t1.get(), t1.get(), MPFR_RNDN);
    mpfr_mul(t1.get(), t1.get(), trig.c.get(), MPFR_RNDN);  // relative error <= 3 eps
    mpfr_set_d(t2.get(), im, MPFR_RNDN);
    mpfr_div_2ui(t2.get(), t2.get(), 1, MPFR_RNDN);  // exact
    mpfr_sin(t2.get(), t2.get(), MPFR_RNDN);
    mpfr_sqr(t2.get(), t2.get(), MPFR_RNDN);
    mpfr_mul_2ui(t2.get(), t2.get(), 1, MPFR_RNDN);  // 2 sin^2(y/2), relative error <= 3 eps
    mpfr_sub(value, t1.get(), t2.get(), MPFR_RNDN);
    // |error| <= 3 eps |t1| + 3 eps |t2| + eps |value| (+ second order).
    long largest = std::max({Exponent(t1.get()), Exponent(t2.get()), Exponent(value)});
    return largest + 4 - static_cast<long>(precision);
  });
  ExactValue imag = ZivPart([&](mpfr_prec_t precision, mpfr_ptr value) {
    const Trig& trig = trigs.At(precision);
    mpfr_set_d(value, re, MPFR_RNDN);
    mpfr_exp(value, value, MPFR_RNDN);
    mpfr_mul(value, value, trig.s.get(), MPFR_RNDN);  // relative error <= 3 eps
    return Exponent(value) + 3 - static_cast<long>(precision);
  });
  return Encode(part, real, imag);
}

// 1/(1 + e^-z). With w = e^-|x|, c = cos y, s = sin y and
// D = 1 + 2wc + w^2 (= |1 + e^-z|^2 for x >= 0, |1 + e^z|^2 for x < 0):
//   x >= 0: (1 + wc)/D + i ws/D;   x < 0: w(c + w)/D + i ws/D,
// the second from e^z/(1 + e^z), so that nothing overflows or cancels
// needlessly.
ComplexBits EvaluateLogistic(const FloatFormat& part, double re, double im, Path path) {
  if (!std::isfinite(re) || !std::isfinite(im)) {
    return Unspecified(part, 1.0 / (1.0 + std::exp(-std::complex<double>(re, im))));
  }
  // Real z: logistic(x) + i(±0), the sign of ws/D with s = sin(±0).
  if (im == 0) return Encode(part, Logistic::ToOdd(re), SignedZero(im));
  const bool cos_negative = std::cos(im) < 0;
  const bool sin_negative = std::sin(im) < 0;  // neither is zero for a double y != 0
  // 1 - wc (+ smaller terms): just below 1 for c > 0, just above for c < 0,
  // rounded to odd.
  const ExactValue next_to_one = cos_negative
                                     ? ExactValue::Finite(false, (uint64_t{1} << 63) | 1, -63)
                                     : ExactValue::Finite(false, ~uint64_t{0}, -64);
  if (re > kHugeExponent) return Encode(part, next_to_one, Tiny(sin_negative));
  if (re < -kHugeExponent) return Encode(part, Tiny(cos_negative), Tiny(sin_negative));
  if (re == 0) {
    // logistic(iy) = 1/2 + (i/2) tan(y/2): the real part is exact, which a
    // Ziv loop could never round (it would climb to kMaxPrecision for each
    // such element); tan(y/2) of a double y != 0 is irrational.
    ExactValue imag = ZivPart([&](mpfr_prec_t precision, mpfr_ptr value) {
      mpfr_set_d(value, im, MPFR_RNDN);
      mpfr_div_2ui(value, value, 1, MPFR_RNDN);  // y/2, exact in MPFR's exponent range
      mpfr_tan(value, value, MPFR_RNDN);
      mpfr_div_2ui(value, value, 1, MPFR_RNDN);  // relative error <= eps
      return Exponent(value) + 1 - static_cast<long>(precision);
    });
    return Encode(part, ExactValue::FromDouble(0.5), imag);
  }
  if (auto fast = FastFirst(path, ComplexFunction::kLogistic, part, re, im)) return *fast;
  const bool positive = re >= 0;
  TrigCache trigs(im);
  auto evaluate = [&](mpfr_prec_t precision, mpfr_ptr value, bool real_part) -> long {
    const long p = static_cast<long>(precision);
    const Trig& trig = trigs.At(precision);
    MpfrNumber w(precision);
    MpfrNumber wc(precision);
    MpfrNumber d(precision);
    MpfrNumber n(precision);
    mpfr_set_d(w.get(), -std::fabs(re), MPFR_RNDN);
    mpfr_exp(w.get(), w.get(), MPFR_RNDN);                 // w <= 1, relative error eps
    mpfr_mul(wc.get(), w.get(), trig.c.get(), MPFR_RNDN);  // |error| <= 3 eps w
    mpfr_sqr(d.get(), w.get(), MPFR_RNDN);                 // |error| <= 3 eps w^2
    mpfr_mul_2ui(n.get(), wc.get(), 1, MPFR_RNDN);         // 2wc exactly from wc
    mpfr_add_ui(n.get(), n.get(), 1, MPFR_RNDN);           // |1 + 2wc| <= 3
    mpfr_add(d.get(), d.get(), n.get(), MPFR_RNDN);        // D: |error| <= 17 eps
    const double d_lower = mpfr_get_d(d.get(), MPFR_RNDD) - std::ldexp(20.0, -p);
    if (!(d_lower > 0)) return kNoBound;  // too close to a pole yet
    const double m = std::max(1.0, 1 / (d_lower * d_lower));
    if (!(m < 1e300)) return kNoBound;
    if (real_part) {
      if (positive) {
        mpfr_add_ui(n.get(), wc.get(), 1, MPFR_RNDN);  // 1 + wc: |error| <= 5 eps
      } else {
        mpfr_add(n.get(), trig.c.get(), w.get(), MPFR_RNDN);
        mpfr_mul(n.get(), n.get(), w.get(), MPFR_RNDN);  // w(c + w): |error| <= 8 eps w
      }
      mpfr_div(value, n.get(), d.get(), MPFR_RNDN);
      // |N| <= 2 (x >= 0) or 2w (x < 0): |error| <= 42 eps m (times w for
      // x < 0) + eps |value|.
      long scale = positive ? 0 : Exponent(w.get());
      return std::max(scale + CeilLog2(42 * m), Exponent(value)) + 2 - p;
    }
    mpfr_mul(n.get(), w.get(), trig.s.get(), MPFR_RNDN);  // ws: |error| <= 3 eps w
    mpfr_div(value, n.get(), d.get(), MPFR_RNDN);
    // |error| <= 3 eps w / D + w 17 eps / D^2 + eps |value| <= 20 eps w m + eps |value|.
    return std::max(Exponent(w.get()) + CeilLog2(20 * m), Exponent(value)) + 2 - p;
  };
  // For x > 100, w < 2^-144 and |c| > 2^-70 (for every double y): the real
  // part is next_to_one, which a Ziv loop could only tell from 1 at about
  // x / ln 2 bits (it would climb to kMaxPrecision for each such element).
  constexpr double kRealPartNextToOne = 100;
  ExactValue real =
      re > kRealPartNextToOne ? next_to_one : ZivPart([&](mpfr_prec_t precision, mpfr_ptr value) {
        return evaluate(precision, value, true);
      });
  ExactValue imag = ZivPart(
      [&](mpfr_prec_t precision, mpfr_ptr value) { return evaluate(precision, value, false); });
  return Encode(part, real, imag);
}

ComplexBits EvaluateCbrt(const FloatFormat& part, double re, double im, Path path) {
  if (!std::isfinite(re) || !std::isfinite(im)) {
    return Unspecified(part, std::pow(std::complex<double>(re, im), 1.0 / 3));
  }
  if (re == 0 && im == 0) return Encode(part, ExactValue::Zero(false), SignedZero(im));
  // The positive real axis: the real cube root, arg 0.
  if (im == 0 && !std::signbit(re)) return Encode(part, Cbrt::ToOdd(re), SignedZero(im));
  if (im == 0) {
    // arg = ±π: cbrt(|x|) (1/2 ± i sqrt(3)/2); halving keeps rounding to odd.
    ExactValue magnitude = Cbrt::ToOdd(-re);
    ExactValue real = magnitude;
    if (real.cls == ExactValue::Class::kFinite) real.exponent -= 1;
    ExactValue imag = ZivPart([&](mpfr_prec_t precision, mpfr_ptr value) {
      MpfrNumber root3(precision);
      mpfr_set_d(value, -re, MPFR_RNDN);
      mpfr_cbrt(value, value, MPFR_RNDN);
      mpfr_sqrt_ui(root3.get(), 3, MPFR_RNDN);
      mpfr_mul(value, value, root3.get(), MPFR_RNDN);
      mpfr_div_2ui(value, value, 1, MPFR_RNDN);  // relative error <= 3 eps
      return Exponent(value) + 3 - static_cast<long>(precision);
    });
    return Encode(part, real, std::signbit(im) ? Negated(imag) : imag);
  }
  if (auto fast = FastFirst(path, ComplexFunction::kCbrt, part, re, im)) return *fast;
  // r (cos φ + i sin φ) with r = |z|^(1/3) and φ = atan2(y, x)/3, |φ| < π/3:
  // cos φ >= 1/2, and sin φ keeps the relative accuracy of φ; both parts are
  // within 7 eps relative (derivation in the report of issue 7).
  auto evaluate = [&](mpfr_prec_t precision, mpfr_ptr value, bool real_part) -> long {
    MpfrNumber x(precision);
    MpfrNumber y(precision);
    MpfrNumber r(precision);
    mpfr_set_d(x.get(), re, MPFR_RNDN);
    mpfr_set_d(y.get(), im, MPFR_RNDN);
    mpfr_hypot(r.get(), x.get(), y.get(), MPFR_RNDN);
    mpfr_cbrt(r.get(), r.get(), MPFR_RNDN);
    mpfr_atan2(y.get(), y.get(), x.get(), MPFR_RNDN);
    mpfr_div_ui(y.get(), y.get(), 3, MPFR_RNDN);
    if (real_part) {
      mpfr_cos(value, y.get(), MPFR_RNDN);
    } else {
      mpfr_sin(value, y.get(), MPFR_RNDN);
    }
    mpfr_mul(value, value, r.get(), MPFR_RNDN);
    return Exponent(value) + 4 - static_cast<long>(precision);
  };
  ExactValue real = ZivPart(
      [&](mpfr_prec_t precision, mpfr_ptr value) { return evaluate(precision, value, true); });
  ExactValue imag = ZivPart(
      [&](mpfr_prec_t precision, mpfr_ptr value) { return evaluate(precision, value, false); });
  return Encode(part, real, imag);
}

ComplexBits ComplexExp(const FloatFormat& part, double re, double im) {
  return EvaluateExp(part, re, im, Path::kFastFirst);
}
ComplexBits ComplexSin(const FloatFormat& part, double re, double im) {
  return EvaluateSin(part, re, im, Path::kFastFirst);
}
ComplexBits ComplexCos(const FloatFormat& part, double re, double im) {
  return EvaluateCos(part, re, im, Path::kFastFirst);
}
ComplexBits ComplexTan(const FloatFormat& part, double re, double im) {
  return EvaluateTan(part, re, im, Path::kFastFirst);
}
ComplexBits ComplexTanh(const FloatFormat& part, double re, double im) {
  return EvaluateTanh(part, re, im, Path::kFastFirst);
}
ComplexBits ComplexRsqrt(const FloatFormat& part, double re, double im) {
  return EvaluateRsqrt(part, re, im, Path::kFastFirst);
}
ComplexBits ComplexExpm1(const FloatFormat& part, double re, double im) {
  return EvaluateExpm1(part, re, im, Path::kFastFirst);
}
ComplexBits ComplexLogistic(const FloatFormat& part, double re, double im) {
  return EvaluateLogistic(part, re, im, Path::kFastFirst);
}
ComplexBits ComplexCbrt(const FloatFormat& part, double re, double im) {
  return EvaluateCbrt(part, re, im, Path::kFastFirst);
}
ComplexBits ComplexPow(const FloatFormat& part, double x_re, double x_im, double y_re,
                       double y_im) {
  return EvaluatePow(part, x_re, x_im, y_re, y_im, Path::kFastFirst);
}

ComplexBits ComplexWithoutFastPath(ComplexFunction f, const FloatFormat& part, double re,
                                   double im) {
  switch (f) {
    case ComplexFunction::kExp:
      return EvaluateExp(part, re, im, Path::kMpcOnly);
    case ComplexFunction::kSin:
      return EvaluateSin(part, re, im, Path::kMpcOnly);
    case ComplexFunction::kCos:
      return EvaluateCos(part, re, im, Path::kMpcOnly);
    case ComplexFunction::kTan:
      return EvaluateTan(part, re, im, Path::kMpcOnly);
    case ComplexFunction::kTanh:
      return EvaluateTanh(part, re, im, Path::kMpcOnly);
    case ComplexFunction::kRsqrt:
      return EvaluateRsqrt(part, re, im, Path::kMpcOnly);
    case ComplexFunction::kExpm1:
      return EvaluateExpm1(part, re, im, Path::kMpcOnly);
    case ComplexFunction::kLogistic:
      return EvaluateLogistic(part, re, im, Path::kMpcOnly);
    case ComplexFunction::kCbrt:
      return EvaluateCbrt(part, re, im, Path::kMpcOnly);
    case ComplexFunction::kPow:
    case ComplexFunction::kAtan2:
    case ComplexFunction::kCount:
      break;
  }
  return Unspecified(part, std::complex<double>(NAN, NAN));  // not a function of one argument
}

ComplexBits ComplexPowWithoutFastPath(const FloatFormat& part, double x_re, double x_im,
                                      double y_re, double y_im) {
  return EvaluatePow(part, x_re, x_im, y_re, y_im, Path::kMpcOnly);
}

}  // namespace hlocheck::precise

namespace hlocheck::precise {
namespace {

// a * b + sign * c * d, exactly.
void ExactProductSum(mpfr_ptr out, double a, double b, int sign, double c, double d) {
  MpfrNumber first(kExactProductPrecision);
  MpfrNumber second(kExactProductPrecision);
  mpfr_set_d(first.get(), a, MPFR_RNDN);
  mpfr_mul_d(first.get(), first.get(), b, MPFR_RNDN);
  mpfr_set_d(second.get(), c, MPFR_RNDN);
  mpfr_mul_d(second.get(), second.get(), d, MPFR_RNDN);
  if (sign < 0) {
    mpfr_sub(out, first.get(), second.get(), MPFR_RNDN);
  } else {
    mpfr_add(out, first.get(), second.get(), MPFR_RNDN);
  }
}

// The exact ingredients of atan2(y, x): w = num / sqrt(s) with
// num = x + iy and s = x^2 + y^2, and x̄y, whose parts say where a part of
// the result is exactly zero: |w| = 1 iff Im(x̄y) = 0, and w is real or
// imaginary iff Re(x̄y) = 0.
struct Atan2Terms {
  Atan2Terms()
      : num_re(kExactProductPrecision),
        num_im(kExactProductPrecision),
        s_re(kExactProductPrecision),
        s_im(kExactProductPrecision),
        p_re(kExactProductPrecision),
        p_im(kExactProductPrecision) {}
  MpfrNumber num_re, num_im, s_re, s_im, p_re, p_im;
};

void ComputeAtan2Terms(Atan2Terms& t, double yr, double yi, double xr, double xi) {
  mpfr_set_d(t.num_re.get(), xr, MPFR_RNDN);
  mpfr_sub_d(t.num_re.get(), t.num_re.get(), yi, MPFR_RNDN);
  mpfr_set_d(t.num_im.get(), xi, MPFR_RNDN);
  mpfr_add_d(t.num_im.get(), t.num_im.get(), yr, MPFR_RNDN);
  MpfrNumber y_part(kExactProductPrecision);
  ExactProductSum(t.s_re.get(), xr, xr, -1, xi, xi);
  ExactProductSum(y_part.get(), yr, yr, -1, yi, yi);
  mpfr_add(t.s_re.get(), t.s_re.get(), y_part.get(), MPFR_RNDN);
  ExactProductSum(t.s_im.get(), xr, xi, +1, yr, yi);
  mpfr_mul_2ui(t.s_im.get(), t.s_im.get(), 1, MPFR_RNDN);
  ExactProductSum(t.p_re.get(), xr, yr, +1, xi, yi);
  ExactProductSum(t.p_im.get(), xr, yi, -1, xi, yr);
}

// Where Re(x̄y) = 0, w is real or imaginary; a few bits of w tell which
// and its sign.
enum class AxisOfW { kPositiveReal, kNegativeReal, kImaginary };

AxisOfW FindAxisOfW(Atan2Terms& t) {
  MpcNumber s(kExactProductPrecision);
  MpcNumber num(kExactProductPrecision);
  MpcNumber w(128);
  mpc_set_fr_fr(s.get(), t.s_re.get(), t.s_im.get(), MPC_RNDNN);
  mpc_set_fr_fr(num.get(), t.num_re.get(), t.num_im.get(), MPC_RNDNN);
  mpc_sqrt(w.get(), s.get(), MPC_RNDNN);
  mpc_div(w.get(), num.get(), w.get(), MPC_RNDNN);
  if (mpfr_cmpabs(mpc_realref(w.get()), mpc_imagref(w.get())) < 0) return AxisOfW::kImaginary;
  return mpfr_sgn(mpc_realref(w.get())) > 0 ? AxisOfW::kPositiveReal : AxisOfW::kNegativeReal;
}

}  // namespace

ComplexBits ComplexAtan2(const FloatFormat& part, double y_re, double y_im, double x_re,
                         double x_im, bool* open) {
  if (std::optional<ComplexBits> fast = FastComplexAtan2(part, y_re, y_im, x_re, x_im)) {
    *open = false;
    return *fast;
  }
  return ComplexAtan2WithoutFastPath(part, y_re, y_im, x_re, x_im, open);
}

ComplexBits ComplexAtan2WithoutFastPath(const FloatFormat& part, double y_re, double y_im,
                                        double x_re, double x_im, bool* open) {
  const std::complex<double> y(y_re, y_im);
  const std::complex<double> x(x_re, x_im);
  auto by_formula = [&] {
    const std::complex<double> i(0, 1);
    return Unspecified(part, -i * std::log((x + i * y) / std::sqrt(x * x + y * y)));
  };
  *open = false;
  if (!std::isfinite(y_re) || !std::isfinite(y_im) || !std::isfinite(x_re) ||
      !std::isfinite(x_im)) {
    *open = true;
    return by_formula();
  }
  Atan2Terms t;
  ComputeAtan2Terms(t, y_re, y_im, x_re, x_im);
  const bool s_zero = mpfr_zero_p(t.s_re.get()) && mpfr_zero_p(t.s_im.get());
  const bool num_zero = mpfr_zero_p(t.num_re.get()) && mpfr_zero_p(t.num_im.get());
  // On the negative real axis, s has the branch cut of sqrt: w changes sign
  // with the sign of a zero imaginary part of s that rounding produces.
  const bool s_on_cut = mpfr_zero_p(t.s_im.get()) && mpfr_sgn(t.s_re.get()) < 0;
  if (s_zero || num_zero || s_on_cut) {
    *open = true;
    return by_formula();
  }

  ExactValue real = ExactValue::Zero(false);  // arg w = 0
  bool real_is_zero = false;
  if (mpfr_zero_p(t.p_re.get())) {
    switch (FindAxisOfW(t)) {
      case AxisOfW::kPositiveReal:
        real_is_zero = true;
        break;
      case AxisOfW::kNegativeReal:
        *open = true;
        return by_formula();
      case AxisOfW::kImaginary:
        break;
    }
  }
  if (!real_is_zero) {
    // arg w = arg(num) - arg(s)/2, brought into (-π, π]. Each atan2 is
    // within eps |value| <= 4 eps, 2π within 8 eps; w is off the negative
    // real axis here, so a value within the error of ±π only means the
    // precision is too low yet.
    real = ZivPart([&](mpfr_prec_t precision, mpfr_ptr value) -> long {
      const long p = static_cast<long>(precision);
      MpfrNumber arg_s(precision);
      MpfrNumber pi(precision);
      mpfr_atan2(value, t.num_im.get(), t.num_re.get(), MPFR_RNDN);
      mpfr_atan2(arg_s.get(), t.s_im.get(), t.s_re.get(), MPFR_RNDN);
      mpfr_div_2ui(arg_s.get(), arg_s.get(), 1, MPFR_RNDN);
      mpfr_sub(value, value, arg_s.get(), MPFR_RNDN);
      mpfr_const_pi(pi.get(), MPFR_RNDN);
      MpfrNumber distance(precision);
      mpfr_abs(distance.get(), value, MPFR_RNDN);
      mpfr_sub(distance.get(), distance.get(), pi.get(), MPFR_RNDN);
      if (Exponent(distance.get()) < 5 - p || mpfr_zero_p(distance.get())) return kNoBound;
      if (mpfr_sgn(distance.get()) > 0) {
        mpfr_mul_2ui(pi.get(), pi.get(), 1, MPFR_RNDN);
        if (mpfr_sgn(value) > 0) {
          mpfr_sub(value, value, pi.get(), MPFR_RNDN);
        } else {
          mpfr_add(value, value, pi.get(), MPFR_RNDN);
        }
      }
      return std::max(4L, Exponent(value)) + 1 - p;
    });
  }

  ExactValue imag = ExactValue::Zero(false);  // |w| = 1
  if (!mpfr_zero_p(t.p_im.get())) {
    // -ln|w| = -ln(q)/4 with q = |num|^4 / |s|^2 = 1 + t and
    // t = -4 Im(x̄y) |num|^2 / |s|^2 (the identity |num|^4 - |s|^2 =
    // -4 Im(x̄y) |num|^2). Near q = 1 log1p(t) keeps the relative accuracy
    // that ln(q) would lose.
    imag = ZivPart([&](mpfr_prec_t precision, mpfr_ptr value) -> long {
      const long p = static_cast<long>(precision);
      MpfrNumber num_norm(precision);
      MpfrNumber s_norm(precision);
      MpfrNumber ratio(precision);
      mpfr_sqr(num_norm.get(), t.num_re.get(), MPFR_RNDN);
      mpfr_fma(num_norm.get(), t.num_im.get(), t.num_im.get(), num_norm.get(), MPFR_RNDN);
      mpfr_sqr(s_norm.get(), t.s_re.get(), MPFR_RNDN);
      mpfr_fma(s_norm.get(), t.s_im.get(), t.s_im.get(), s_norm.get(), MPFR_RNDN);
      // Each norm within 3 eps relative; the ratio within 9 eps.
      mpfr_mul(ratio.get(), t.p_im.get(), num_norm.get(), MPFR_RNDN);
      mpfr_div(ratio.get(), ratio.get(), s_norm.get(), MPFR_RNDN);
      mpfr_mul_si(ratio.get(), ratio.get(), -4, MPFR_RNDN);
      long error_exponent;
      if (mpfr_cmpabs_ui(ratio.get(), 1) < 0 && Exponent(ratio.get()) <= -1) {
        // |t| < 1/2: |t / ((1 + t) log1p(t))| <= 1.45, so log1p(t) is within
        // 9 * 1.45 + 1 < 16 eps relative.
        mpfr_log1p(value, ratio.get(), MPFR_RNDN);
        error_exponent = Exponent(value) + 4 - p;
      } else {
        // |ln q| > 0.4: 2 ln|num|^2 - ln|s|^2, each logarithm within
        // 3 eps + eps |ln| absolute.
        MpfrNumber log_num(precision);
        mpfr_log(log_num.get(), num_norm.get(), MPFR_RNDN);
        mpfr_log(ratio.get(), s_norm.get(), MPFR_RNDN);
        mpfr_mul_2ui(value, log_num.get(), 1, MPFR_RNDN);
        mpfr_sub(value, value, ratio.get(), MPFR_RNDN);
        error_exponent =
            std::max({Exponent(log_num.get()) + 1, Exponent(ratio.get()), 4L, Exponent(value)}) +
            2 - p;
      }
      mpfr_div_2ui(value, value, 2, MPFR_RNDN);
      mpfr_neg(value, value, MPFR_RNDN);
      return error_exponent;
    });
  }
  return Encode(part, real, imag);
}

}  // namespace hlocheck::precise
