// The elementary functions of the spec's transcendental ops, as traits for
// the Ziv driver (ziv.h): CorrectlyRounded<Sin>(format, x) is sin(x)
// correctly rounded into `format`.
//
// Error bounds of the fast functions, in ulps of the wide format:
// - double (targets of up to 24 significand bits): glibc's documented
//   maxima for double are 1 ulp, 2 for tanh and 4 for cbrt (manual,
//   "Errors in Math Functions"; sysdeps/x86_64/fpu/libm-test-ulps); the
//   compositions below are within 3. We use 16 throughout: double has 29
//   bits more than f32, so the margin costs about one MPFR call in 10^7.
// - x87 long double (f64): glibc's x86_64 maxima for ldouble are exp 1,
//   expm1 3, log 1, log1p 2, sin 2, cos 1, tan 2, tanh 3, cbrt 1, pow 1,
//   atan2 1 (the same table). These are measured, not proved, so we take
//   four times them and at least 4 (pow: 16, for its wide exponent range);
//   tests measure the functions against MPFR and check the margin. Each
//   ulp costs about 0.1% more MPFR calls for f64.
#ifndef HLOCHECK_ORACLE_PRECISE_ELEMENTARY_H_
#define HLOCHECK_ORACLE_PRECISE_ELEMENTARY_H_

#include <cmath>

#include "oracle/precise/ziv.h"

namespace hlocheck::precise {

inline constexpr int kDoubleUlps = 16;

struct Exp {
  static constexpr ZivFunction kId = ZivFunction::kExp;
  static double InDouble(double x) { return std::exp(x); }
  static long double InLongDouble(long double x) { return std::exp(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 4;
  static ExactValue ToOdd(double x) { return MpfrToOdd(mpfr_exp, x); }
};

struct Expm1 {
  static constexpr ZivFunction kId = ZivFunction::kExpm1;
  static double InDouble(double x) { return std::expm1(x); }
  static long double InLongDouble(long double x) { return std::expm1(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 12;
  static ExactValue ToOdd(double x) { return MpfrToOdd(mpfr_expm1, x); }
};

// log(±0) = -Inf, log of a negative number is NaN (MPFR, as C and IEEE).
struct Log {
  static constexpr ZivFunction kId = ZivFunction::kLog;
  static double InDouble(double x) { return std::log(x); }
  static long double InLongDouble(long double x) { return std::log(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 4;
  static ExactValue ToOdd(double x) { return MpfrToOdd(mpfr_log, x); }
};

struct Log1p {
  static constexpr ZivFunction kId = ZivFunction::kLog1p;
  static double InDouble(double x) { return std::log1p(x); }
  static long double InLongDouble(long double x) { return std::log1p(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 8;
  static ExactValue ToOdd(double x) { return MpfrToOdd(mpfr_log1p, x); }
};

struct Sin {
  static constexpr ZivFunction kId = ZivFunction::kSin;
  static double InDouble(double x) { return std::sin(x); }
  static long double InLongDouble(long double x) { return std::sin(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 8;
  static ExactValue ToOdd(double x) { return MpfrToOdd(mpfr_sin, x); }
};

struct Cos {
  static constexpr ZivFunction kId = ZivFunction::kCos;
  static double InDouble(double x) { return std::cos(x); }
  static long double InLongDouble(long double x) { return std::cos(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 4;
  static ExactValue ToOdd(double x) { return MpfrToOdd(mpfr_cos, x); }
};

struct Tan {
  static constexpr ZivFunction kId = ZivFunction::kTan;
  static double InDouble(double x) { return std::tan(x); }
  static long double InLongDouble(long double x) { return std::tan(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 8;
  static ExactValue ToOdd(double x) { return MpfrToOdd(mpfr_tan, x); }
};

struct Tanh {
  static constexpr ZivFunction kId = ZivFunction::kTanh;
  static double InDouble(double x) { return std::tanh(x); }
  static long double InLongDouble(long double x) { return std::tanh(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 12;
  static ExactValue ToOdd(double x) { return MpfrToOdd(mpfr_tanh, x); }
};

// The real cube root: cbrt(-8) = -2.
struct Cbrt {
  static constexpr ZivFunction kId = ZivFunction::kCbrt;
  static double InDouble(double x) { return std::cbrt(x); }
  static long double InLongDouble(long double x) { return std::cbrt(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 4;
  static ExactValue ToOdd(double x) { return MpfrToOdd(mpfr_cbrt, x); }
};

// 1/sqrt(x), IEEE 754's rSqrt: rsqrt(±0) = ±Inf, rsqrt(+Inf) = +0, NaN for
// x < 0. The fast paths are two correctly rounded operations (1 ulp).
struct Rsqrt {
  static constexpr ZivFunction kId = ZivFunction::kRsqrt;
  static double InDouble(double x) { return 1 / std::sqrt(x); }
  static long double InLongDouble(long double x) { return 1 / std::sqrt(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 4;
  static ExactValue ToOdd(double x);
};

// 1/(1 + e^-x) as one function, rounded once. The fast paths evaluate it
// as 1/(1 + e^-x) for x >= 0 and e^x/(1 + e^x) below, so that e never
// overflows: the error is at most twice exp's plus two roundings, 3 ulps
// with glibc's exp and expl (taken as 16 and 12).
struct Logistic {
  static constexpr ZivFunction kId = ZivFunction::kLogistic;
  template <typename Wide>
  static Wide Evaluate(Wide x) {
    if (x >= 0) return 1 / (1 + std::exp(-x));
    Wide e = std::exp(x);
    return e / (1 + e);
  }
  static double InDouble(double x) { return Evaluate(x); }
  static long double InLongDouble(long double x) { return Evaluate(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 12;
  static ExactValue ToOdd(double x);
};

// atan2(y, x) with C's and IEEE 754's special values (MPFR follows them).
struct Atan2 {
  static constexpr ZivFunction kId = ZivFunction::kAtan2;
  static double InDouble(double y, double x) { return std::atan2(y, x); }
  static long double InLongDouble(long double y, long double x) { return std::atan2(y, x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 4;
  static ExactValue ToOdd(double y, double x) { return MpfrToOdd(mpfr_atan2, y, x); }
};

// x^y with the special values of C's pow and IEEE 754's pow (MPFR follows
// them): pow(x, ±0) = 1 and pow(1, y) = 1 even for NaN, pow(-1, ±Inf) = 1,
// a negative x with a finite non-integer y gives NaN.
struct Pow {
  static constexpr ZivFunction kId = ZivFunction::kPow;
  static double InDouble(double x, double y) { return std::pow(x, y); }
  static long double InLongDouble(long double x, long double y) { return std::pow(x, y); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = 16;
  static ExactValue ToOdd(double x, double y) { return MpfrToOdd(mpfr_pow, x, y); }
};

}  // namespace hlocheck::precise

#endif  // HLOCHECK_ORACLE_PRECISE_ELEMENTARY_H_
