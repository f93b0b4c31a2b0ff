#include "oracle/precise/complex_fast.h"

#include <bit>
#include <cmath>
#include <limits>

#include "oracle/precise/ziv.h"

namespace hlocheck::precise {
namespace {

using Ld = long double;

// One ulp of long double relative to the value it belongs to, at most; a
// correctly rounded operation is within half of it, so kUlp |rounded
// value| bounds its rounding error with room to spare.
constexpr Ld kUlp = 0x1p-63L;
// Below this magnitude a long double result may be subnormal, where
// relative error bounds no longer hold: the fast path declines.
constexpr Ld kSmallest = 0x1p-16000L;
// |x| up to which e^x and e^-x stay far inside long double's normal range
// (2^±14427), with room for the products the formulas take of them.
constexpr Ld kExpArgumentLimit = 10000;
// Likewise for sinh and cosh, which overflow at 11356.5.
constexpr Ld kHyperbolicArgumentLimit = 11000;
constexpr Ld kInfinity = std::numeric_limits<Ld>::infinity();

// A real number known to within an absolute error: |exact - value| <= error.
// An infinite error (or a NaN anywhere) means the bound is lost; it
// propagates through every operation below to RoundedPart, which declines.
struct Bounded {
  Ld value;
  Ld error;
};

constexpr Bounded kOne{1, 0};
constexpr Bounded kLost{0, kInfinity};

Bounded Exact(Ld x) { return {x, 0}; }

// `value`, the rounded result of an operation on the approximations, whose
// own errors add up to `propagated`.
Bounded Rounded(Ld value, Ld propagated) {
  Ld magnitude = std::fabs(value);
  if (value != 0 && magnitude < kSmallest) return kLost;
  // An infinite value makes the error infinite too.
  return {value, propagated + kUlp * magnitude};
}

// A libm function of an exact argument, within `ulps` ulps.
Bounded FromLibm(Ld value, int ulps) {
  Ld magnitude = std::fabs(value);
  if (value != 0 && magnitude < kSmallest) return kLost;
  return {value, ulps * kUlp * magnitude};
}

Bounded Sum(Bounded a, Bounded b) { return Rounded(a.value + b.value, a.error + b.error); }
Bounded Difference(Bounded a, Bounded b) { return Rounded(a.value - b.value, a.error + b.error); }
Bounded Negated(Bounded a) { return {-a.value, a.error}; }

// a * 2^exponent: exact away from underflow.
Bounded Scaled(Bounded a, int exponent) {
  Bounded scaled{std::ldexp(a.value, exponent), std::ldexp(a.error, exponent)};
  if (scaled.value != 0 && std::fabs(scaled.value) < kSmallest) return kLost;
  return scaled;
}

// |ab - ãb̃| <= |ã| β + |b̃| α + αβ.
Bounded Product(Bounded a, Bounded b) {
  Ld value = a.value * b.value;
  if (value == 0 && a.value != 0 && b.value != 0) return kLost;  // underflow
  return Rounded(value,
                 std::fabs(a.value) * b.error + std::fabs(b.value) * a.error + a.error * b.error);
}

Bounded Square(double x) { return Product(Exact(x), Exact(x)); }

// a/b - ã/b̃ = (α - (ã/b̃) β) / b, and |b| >= |b̃| - β.
Bounded Quotient(Bounded a, Bounded b) {
  Ld divisor_low = std::fabs(b.value) - b.error;
  if (!(divisor_low > 0)) return kLost;
  Ld value = a.value / b.value;
  if (value == 0 && a.value != 0) return kLost;  // underflow
  return Rounded(value, (a.error + std::fabs(value) * (1 + 2 * kUlp) * b.error) / divisor_low);
}

// |sqrt(a) - sqrt(ã)| = |α| / (sqrt(a) + sqrt(ã)) <= α / sqrt(ã).
Bounded SquareRoot(Bounded a) {
  if (!(a.value >= 0)) return kLost;
  Ld value = std::sqrt(a.value);
  if (value == 0) return a.error == 0 ? Bounded{0, 0} : kLost;
  return Rounded(value, a.error / (value * (1 - 2 * kUlp)));
}

// The functions of exact arguments (long double holds every double, and
// y/2 of one, exactly).
Bounded ExpOfExact(Ld x) {
  if (!(std::fabs(x) <= kExpArgumentLimit)) return kLost;
  return FromLibm(std::exp(x), LongDoubleUlps::kExp);
}
Bounded Expm1OfExact(Ld x) {
  if (!(std::fabs(x) <= kExpArgumentLimit)) return kLost;
  return FromLibm(std::expm1(x), LongDoubleUlps::kExpm1);
}
Bounded SinOfExact(Ld x) { return FromLibm(std::sin(x), LongDoubleUlps::kSin); }
Bounded CosOfExact(Ld x) { return FromLibm(std::cos(x), LongDoubleUlps::kCos); }
Bounded TanOfExact(Ld x) { return FromLibm(std::tan(x), LongDoubleUlps::kTan); }
Bounded SinhOfExact(Ld x) {
  if (!(std::fabs(x) <= kHyperbolicArgumentLimit)) return kLost;
  return FromLibm(std::sinh(x), LongDoubleUlps::kSinh);
}
Bounded CoshOfExact(Ld x) {
  if (!(std::fabs(x) <= kHyperbolicArgumentLimit)) return kLost;
  return FromLibm(std::cosh(x), LongDoubleUlps::kCosh);
}
Bounded Atan2OfExact(Ld y, Ld x) { return FromLibm(std::atan2(y, x), LongDoubleUlps::kAtan2); }

// The functions of approximate arguments add what the argument's error can
// move the function: sin and cos by at most that error.
Bounded SinOf(Bounded a) {
  Bounded result = SinOfExact(a.value);
  result.error += a.error;
  return result;
}
Bounded CosOf(Bounded a) {
  Bounded result = CosOfExact(a.value);
  result.error += a.error;
  return result;
}

// The factor by which an error bound computed in long double (a few
// roundings, each within 2^-63 relative) might fall short: "errors of
// errors", covered with plenty to spare.
constexpr Ld kErrorOfError = 1 + 0x1p-56L;

// |e^a - e^ã| <= e^ã (e^α - 1).
Bounded ExpOf(Bounded a) {
  Bounded result = ExpOfExact(a.value);
  result.error += result.value * std::expm1(a.error) * kErrorOfError;
  return result;
}

// |log a - log ã| <= α / min(a, ã) <= α / (ã - α).
Bounded LogOf(Bounded a) {
  Ld low = a.value - a.error;
  if (!(low > 0)) return kLost;
  Bounded result = FromLibm(std::log(a.value), LongDoubleUlps::kLog);
  result.error += a.error / low * kErrorOfError;
  return result;
}

// |log1p a - log1p ã| <= α / min(1 + a, 1 + ã) <= α / (1 + ã - α).
Bounded Log1pOf(Bounded a) {
  Ld low = 1 + a.value - a.error;
  if (!(low > 0)) return kLost;
  Bounded result = FromLibm(std::log1p(a.value), LongDoubleUlps::kLog1p);
  result.error += a.error / low * kErrorOfError;
  return result;
}

// atan2(b, a) of a point known to within δ = α + β: along the segment to
// the exact point, at least |(ã, b̃)| - δ from the origin, the gradient
// of the angle is at most 1 / that distance. Where the disc around the
// point reaches the negative real axis the angle may jump by 2π there:
// the bound is lost.
Bounded Atan2Of(Bounded b, Bounded a) {
  const Ld spread = a.error + b.error;
  if (std::fabs(b.value) <= b.error && a.value - a.error <= 0) return kLost;
  Bounded result = FromLibm(std::atan2(b.value, a.value), LongDoubleUlps::kAtan2);
  if (spread == 0) return result;
  const Ld distance = std::hypot(a.value, b.value) * (1 - 2 * kUlp) - spread;
  if (!(distance > 0)) return kLost;
  result.error += spread / distance * kErrorOfError;
  return result;
}

// cbrt's derivative x^(-2/3) / 3 is largest at the low end of the interval.
Bounded CbrtOf(Bounded a) {
  if (a.error == 0) return FromLibm(std::cbrt(a.value), LongDoubleUlps::kCbrt);
  Ld low = a.value - a.error;
  if (!(low > 0)) return kLost;
  Ld root_low = std::cbrt(low);
  Bounded result = FromLibm(std::cbrt(a.value), LongDoubleUlps::kCbrt);
  result.error += a.error / (3 * root_low * root_low) * kErrorOfError * kErrorOfError;
  return result;
}

struct BoundedComplex {
  Bounded re;
  Bounded im;
};

// e^x cos y + i e^x sin y.
BoundedComplex Exp(double x, double y) {
  Bounded magnitude = ExpOfExact(x);
  return {Product(magnitude, CosOfExact(y)), Product(magnitude, SinOfExact(y))};
}

// sin x cosh y + i cos x sinh y.
BoundedComplex Sin(double x, double y) {
  return {Product(SinOfExact(x), CoshOfExact(y)), Product(CosOfExact(x), SinhOfExact(y))};
}

// cos x cosh y - i sin x sinh y.
BoundedComplex Cos(double x, double y) {
  return {Product(CosOfExact(x), CoshOfExact(y)), Negated(Product(SinOfExact(x), SinhOfExact(y)))};
}

// Of two enclosures of the same number, the tighter.
Bounded Tighter(Bounded a, Bounded b) { return a.error <= b.error ? a : b; }

// Two formulas, each part taken from the one with the smaller error:
// sinh 2x / (cosh 2x + cos 2y) + i sin 2y / (cosh 2x + cos 2y), short
// but cancelling near the poles (x = 0, cos 2y = -1); and Kahan's
// ("Branch cuts for complex elementary functions", 1987): with t = tan y,
// β = 1 + t², s = sinh x and ρ = cosh x = sqrt(1 + s²),
// tanh(x + iy) = (β ρ s + i t) / (1 + β s²), whose denominator is at
// least 1 and a sum of non-negative terms, but with more roundings.
BoundedComplex Tanh(double x, double y) {
  const Ld twice_x = 2 * static_cast<Ld>(x);  // exact
  const Ld twice_y = 2 * static_cast<Ld>(y);
  const Bounded d = Sum(CoshOfExact(twice_x), CosOfExact(twice_y));
  const BoundedComplex direct = {Quotient(SinhOfExact(twice_x), d),
                                 Quotient(SinOfExact(twice_y), d)};

  const Bounded t = TanOfExact(y);
  const Bounded beta = Sum(kOne, Product(t, t));
  const Bounded s = SinhOfExact(x);
  const Bounded s_squared = Product(s, s);
  const Bounded rho = SquareRoot(Sum(kOne, s_squared));
  const Bounded denominator = Sum(kOne, Product(beta, s_squared));
  const BoundedComplex kahan = {Quotient(Product(Product(beta, rho), s), denominator),
                                Quotient(t, denominator)};
  return {Tighter(direct.re, kahan.re), Tighter(direct.im, kahan.im)};
}

// tan z = -i tanh(iz), iz = -y + ix.
BoundedComplex Tan(double x, double y) {
  BoundedComplex t = Tanh(-y, x);
  return {t.im, Negated(t.re)};
}

// (e^x cos y - 1) + i e^x sin y, the real part as expm1(x) cos y -
// 2 sin²(y/2) (complex.cc's formula): it cancels only where the result is
// far below both terms, and then the error bound says so.
BoundedComplex Expm1(double x, double y) {
  Bounded half_chord = SinOfExact(static_cast<Ld>(y) / 2);
  Bounded real = Difference(Product(Expm1OfExact(x), CosOfExact(y)),
                            Scaled(Product(half_chord, half_chord), 1));
  return {real, Product(ExpOfExact(x), SinOfExact(y))};
}

// complex.cc's formula: with w = e^-|x|, c = cos y, s = sin y and
// D = 1 + 2wc + w², 1/(1 + e^-z) is (1 + wc)/D + i ws/D for x >= 0 and
// w(c + w)/D + i ws/D for x < 0. D vanishes at the poles (x = 0,
// y = π (2k + 1)), where its error bound rejects the quotient.
BoundedComplex Logistic(double x, double y) {
  Bounded w = ExpOfExact(-std::fabs(static_cast<Ld>(x)));
  Bounded c = CosOfExact(y);
  Bounded s = SinOfExact(y);
  Bounded wc = Product(w, c);
  Bounded d = Sum(Sum(kOne, Scaled(wc, 1)), Product(w, w));
  Bounded real = x >= 0 ? Quotient(Sum(kOne, wc), d) : Quotient(Product(w, Sum(c, w)), d);
  return {real, Quotient(Product(w, s), d)};
}

// 1/sqrt z = conj(sqrt z) / |z|, sqrt z by Kahan's algorithm: with r = |z|
// and t = sqrt((|x| + r)/2), sqrt z = t + i y/(2t) for x >= 0 and
// |y|/(2t) + i sign(y) t for x < 0; no step cancels.
BoundedComplex Rsqrt(double x, double y) {
  Bounded r = SquareRoot(Sum(Square(x), Square(y)));
  Bounded t = SquareRoot(Scaled(Sum(Exact(std::fabs(x)), r), -1));
  Bounded sqrt_re = t;
  Bounded sqrt_im = Quotient(Exact(y), Scaled(t, 1));
  if (std::signbit(x)) {
    sqrt_re = Quotient(Exact(std::fabs(y)), Scaled(t, 1));
    sqrt_im = std::signbit(y) ? Negated(t) : t;
  }
  return {Quotient(sqrt_re, r), Negated(Quotient(sqrt_im, r))};
}

// r (cos φ + i sin φ), r = |z|^(1/3) and φ = atan2(y, x)/3.
BoundedComplex Cbrt(double x, double y) {
  Bounded r = CbrtOf(SquareRoot(Sum(Square(x), Square(y))));
  Bounded phi = Quotient(Atan2OfExact(y, x), Exact(3));
  return {Product(r, CosOf(phi)), Product(r, SinOf(phi))};
}

// x^y = e^w, w = y log x on the principal branch:
// log x = log(|x|²)/2 + i atan2(x_im, x_re).
BoundedComplex Pow(double x_re, double x_im, double y_re, double y_im) {
  Bounded log_modulus = Scaled(LogOf(Sum(Square(x_re), Square(x_im))), -1);
  Bounded arg = Atan2OfExact(x_im, x_re);
  Bounded w_re = Difference(Product(Exact(y_re), log_modulus), Product(Exact(y_im), arg));
  Bounded w_im = Sum(Product(Exact(y_re), arg), Product(Exact(y_im), log_modulus));
  Bounded magnitude = ExpOf(w_re);
  return {Product(magnitude, CosOf(w_im)), Product(magnitude, SinOf(w_im))};
}

// The real and imaginary parts of complex atan2(y, x) = -i log(w),
// w = num / sqrt(s), num = x + iy and s = x² + y² (complex.cc):
// arg(num) - arg(s)/2 brought into (-π, π], and -ln|w| = -ln(q)/4 with
// q = |num|⁴/|s|² = 1 + t, t = -4 Im(x̄y) |num|²/|s|², through log1p
// where |t| < 1/2. Nothing here decides an open element: s near the
// negative real axis (sqrt's cut, s = 0) and num near 0 lose arg's bound,
// and a real part within its error of ±π (log's cut) is not accepted.
BoundedComplex Atan2(double y_re, double y_im, double x_re, double x_im) {
  const Bounded num_re = Difference(Exact(x_re), Exact(y_im));
  const Bounded num_im = Sum(Exact(x_im), Exact(y_re));
  const Bounded s_re =
      Sum(Difference(Square(x_re), Square(x_im)), Difference(Square(y_re), Square(y_im)));
  const Bounded s_im =
      Scaled(Sum(Product(Exact(x_re), Exact(x_im)), Product(Exact(y_re), Exact(y_im))), 1);
  const Bounded p_im =
      Difference(Product(Exact(x_re), Exact(y_im)), Product(Exact(x_im), Exact(y_re)));

  Bounded real = Difference(Atan2Of(num_im, num_re), Scaled(Atan2Of(s_im, s_re), -1));
  // π rounded to long double, within 2^-64 π.
  constexpr Bounded kPi{3.14159265358979323846264338327950288L, 0x1p-62L};
  const Bounded two_pi = Scaled(kPi, 1);
  if (real.value - real.error > kPi.value + kPi.error) {
    real = Difference(real, two_pi);
  } else if (real.value + real.error < -kPi.value - kPi.error) {
    real = Sum(real, two_pi);
  } else if (!(std::fabs(real.value) + real.error < kPi.value - kPi.error)) {
    real = kLost;  // within its error of ±π
  }

  const Bounded num_norm = Sum(Product(num_re, num_re), Product(num_im, num_im));
  const Bounded s_norm = Sum(Product(s_re, s_re), Product(s_im, s_im));
  const Bounded t = Quotient(Scaled(Product(p_im, num_norm), 2), Negated(s_norm));
  const Bounded log_q = std::fabs(t.value) + t.error < 0.5L
                            ? Log1pOf(t)
                            : Difference(Scaled(LogOf(num_norm), 1), LogOf(s_norm));
  return {real, Negated(Scaled(log_q, -2))};
}

bool IsBinary32(const FloatFormat& f) {
  return f.exponent_bits == 8 && f.mantissa_bits == 23 && f.has_infinity;
}
bool IsBinary64(const FloatFormat& f) {
  return f.exponent_bits == 11 && f.mantissa_bits == 52 && f.has_infinity;
}

// The bits of `part` that every value within b's error rounds to, if there
// is one such value and b's bound holds.
std::optional<uint64_t> RoundedPart(const FloatFormat& part, Bounded b, Ld error_scale) {
  if (!std::isfinite(b.value) || !std::isfinite(b.error)) return std::nullopt;
  // kUlp |value| more makes the two ends below computed with rounding to
  // nearest still enclose the exact interval.
  Ld radius = (b.error * (1 + 0x1p-50L) + kUlp * std::fabs(b.value)) * error_scale;
  Ld low = b.value - radius;
  Ld high = b.value + radius;
  // A part exactly zero, or possibly so, takes the sign MPC gives it.
  if (!(low > 0 || high < 0)) return std::nullopt;
  // The host's conversions round once, to nearest even, as EncodeFloat does.
  if (IsBinary32(part)) {
    uint32_t low_bits = std::bit_cast<uint32_t>(static_cast<float>(low));
    if (low_bits != std::bit_cast<uint32_t>(static_cast<float>(high))) return std::nullopt;
    return low_bits;
  }
  if (IsBinary64(part)) {
    uint64_t low_bits = std::bit_cast<uint64_t>(static_cast<double>(low));
    if (low_bits != std::bit_cast<uint64_t>(static_cast<double>(high))) return std::nullopt;
    return low_bits;
  }
  return std::nullopt;
}

std::optional<uint64_t> BitsOf(const FloatFormat& part, Ld exactly_representable) {
  if (IsBinary32(part)) return std::bit_cast<uint32_t>(static_cast<float>(exactly_representable));
  if (IsBinary64(part)) return std::bit_cast<uint64_t>(static_cast<double>(exactly_representable));
  return std::nullopt;
}

// ±magnitude with b's sign, where that sign is certain.
std::optional<Ld> WithSignOf(Bounded b, Ld magnitude) {
  if (!(std::fabs(b.value) > b.error)) return std::nullopt;
  return std::copysign(magnitude, b.value);
}

// Far beyond the range of the exponential, where the formulas above lose
// their bounds, each part of exp, expm1 and logistic rounds in f32 and f64
// to ±Inf, ±0, 1 or -1, with the sign of cos y or sin y (|cos y| and
// |sin y| exceed 2^-70 for a double y unless y = 0, where the sign of
// sin y is not certain and the fast path declines): e^x > 2^14427 or
// < 2^-14427 beyond kExpArgumentLimit, and w = e^-|x| < 2^-7213 beyond
// kLogisticSaturation.
constexpr Ld kLogisticSaturation = 5000;

std::optional<ComplexBits> Saturated(ComplexFunction f, const FloatFormat& part, double x,
                                     double y) {
  const Ld limit = f == ComplexFunction::kLogistic ? kLogisticSaturation : kExpArgumentLimit;
  if (!(std::fabs(x) > limit)) return std::nullopt;
  const bool huge = x > 0;
  const Bounded c = CosOfExact(y);
  const Bounded s = SinOfExact(y);
  std::optional<Ld> re;
  std::optional<Ld> im;
  switch (f) {
    case ComplexFunction::kExp:  // e^x cos y + i e^x sin y
      re = WithSignOf(c, huge ? kInfinity : 0);
      im = WithSignOf(s, huge ? kInfinity : 0);
      break;
    case ComplexFunction::kExpm1:  // (e^x cos y - 1) + i e^x sin y
      re = huge ? WithSignOf(c, kInfinity) : std::optional<Ld>(-1);
      im = WithSignOf(s, huge ? kInfinity : 0);
      break;
    case ComplexFunction::kLogistic:  // (1 - wc + ...) + i ws/D, or w(c + w)/D + i ws/D
      re = huge ? std::optional<Ld>(1) : WithSignOf(c, 0);
      im = WithSignOf(s, 0);
      break;
    default:
      return std::nullopt;
  }
  if (!re || !im) return std::nullopt;
  std::optional<uint64_t> re_bits = BitsOf(part, *re);
  std::optional<uint64_t> im_bits = BitsOf(part, *im);
  if (!re_bits || !im_bits) return std::nullopt;
  return ComplexBits{*re_bits, *im_bits};
}

std::optional<ComplexBits> Decide(const FloatFormat& part, BoundedComplex z, Ld error_scale) {
  std::optional<uint64_t> re = RoundedPart(part, z.re, error_scale);
  if (!re) return std::nullopt;
  std::optional<uint64_t> im = RoundedPart(part, z.im, error_scale);
  if (!im) return std::nullopt;
  return ComplexBits{*re, *im};
}

std::optional<ComplexBits> Counted(ComplexFunction f, std::optional<ComplexBits> bits) {
  ComplexFastStatistics& statistics = ThreadComplexFastStatistics(f);
  ++(bits ? statistics.fast : statistics.declined);
  return bits;
}

thread_local ComplexFastStatistics thread_statistics[static_cast<int>(ComplexFunction::kCount)];

}  // namespace

ComplexFastStatistics& ThreadComplexFastStatistics(ComplexFunction f) {
  return thread_statistics[static_cast<int>(f)];
}

std::optional<ComplexBits> FastComplex(ComplexFunction f, const FloatFormat& part, double re,
                                       double im, long double error_scale) {
  if (!kLongDoubleIsExtended || !std::isfinite(re) || !std::isfinite(im)) return std::nullopt;
  if (std::optional<ComplexBits> saturated = Saturated(f, part, re, im)) {
    return Counted(f, saturated);
  }
  BoundedComplex z;
  switch (f) {
    case ComplexFunction::kExp:
      z = Exp(re, im);
      break;
    case ComplexFunction::kSin:
      z = Sin(re, im);
      break;
    case ComplexFunction::kCos:
      z = Cos(re, im);
      break;
    case ComplexFunction::kTan:
      z = Tan(re, im);
      break;
    case ComplexFunction::kTanh:
      z = Tanh(re, im);
      break;
    case ComplexFunction::kExpm1:
      z = Expm1(re, im);
      break;
    case ComplexFunction::kLogistic:
      z = Logistic(re, im);
      break;
    case ComplexFunction::kRsqrt:
      z = Rsqrt(re, im);
      break;
    case ComplexFunction::kCbrt:
      z = Cbrt(re, im);
      break;
    case ComplexFunction::kPow:
    case ComplexFunction::kAtan2:
    case ComplexFunction::kCount:
      return std::nullopt;  // functions of two arguments
  }
  return Counted(f, Decide(part, z, error_scale));
}

std::optional<ComplexBits> FastComplexPow(const FloatFormat& part, double x_re, double x_im,
                                          double y_re, double y_im, long double error_scale) {
  if (!kLongDoubleIsExtended || !std::isfinite(x_re) || !std::isfinite(x_im) ||
      !std::isfinite(y_re) || !std::isfinite(y_im)) {
    return std::nullopt;
  }
  return Counted(ComplexFunction::kPow, Decide(part, Pow(x_re, x_im, y_re, y_im), error_scale));
}

std::optional<ComplexBits> FastComplexAtan2(const FloatFormat& part, double y_re, double y_im,
                                            double x_re, double x_im, long double error_scale) {
  if (!kLongDoubleIsExtended || !std::isfinite(y_re) || !std::isfinite(y_im) ||
      !std::isfinite(x_re) || !std::isfinite(x_im)) {
    return std::nullopt;
  }
  return Counted(ComplexFunction::kAtan2, Decide(part, Atan2(y_re, y_im, x_re, x_im), error_scale));
}

}  // namespace hlocheck::precise
