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
//   four times them and at least 4 (pow: 16, for its wide exponent range;
//   cos: 8, as we measured 1.33 ulps); LongDoubleBoundTest measures the
//   functions against MPFR and checks that margin. Each ulp costs about
//   0.1% more MPFR calls for f64.
#ifndef HLOCHECK_ORACLE_PRECISE_ELEMENTARY_H_
#define HLOCHECK_ORACLE_PRECISE_ELEMENTARY_H_

#include <cmath>

#include "oracle/precise/ziv.h"

namespace hlocheck::precise {

inline constexpr int kDoubleUlps = 16;

// A function libm has in double and long double, with MPFR's counterpart.
// `Libm` calls the std:: overload for its argument type.
template <ZivFunction kFunction, class Libm, int kLongDouble, MpfrUnary kMpfr,
          bool kPositive = false>
struct LibmFunction {
  static constexpr ZivFunction kId = kFunction;
  static constexpr bool kPositiveOnFiniteArguments = kPositive;
  static double InDouble(double x) { return Libm{}(x); }
  static long double InLongDouble(long double x) { return Libm{}(x); }
  static constexpr int kDoubleUlps = precise::kDoubleUlps;
  static constexpr int kLongDoubleUlps = kLongDouble;
  static ExactValue ToOdd(double x) { return MpfrToOdd(kMpfr, x); }
};

#define HLOCHECK_LIBM_CALL(name, function) \
  struct name {                            \
    template <typename T>                  \
    T operator()(T x) const {              \
      return std::function(x);             \
    }                                      \
  }
HLOCHECK_LIBM_CALL(LibmExp, exp);
HLOCHECK_LIBM_CALL(LibmExpm1, expm1);
HLOCHECK_LIBM_CALL(LibmLog, log);
HLOCHECK_LIBM_CALL(LibmLog1p, log1p);
HLOCHECK_LIBM_CALL(LibmSin, sin);
HLOCHECK_LIBM_CALL(LibmCos, cos);
HLOCHECK_LIBM_CALL(LibmTan, tan);
HLOCHECK_LIBM_CALL(LibmTanh, tanh);
HLOCHECK_LIBM_CALL(LibmCbrt, cbrt);
#undef HLOCHECK_LIBM_CALL

using Exp = LibmFunction<ZivFunction::kExp, LibmExp, 4, mpfr_exp, /*kPositive=*/true>;
using Expm1 = LibmFunction<ZivFunction::kExpm1, LibmExpm1, 12, mpfr_expm1>;
// log(±0) = -Inf, log of a negative number is NaN (MPFR, as C and IEEE).
using Log = LibmFunction<ZivFunction::kLog, LibmLog, 4, mpfr_log>;
using Log1p = LibmFunction<ZivFunction::kLog1p, LibmLog1p, 8, mpfr_log1p>;
using Sin = LibmFunction<ZivFunction::kSin, LibmSin, 8, mpfr_sin>;
using Cos = LibmFunction<ZivFunction::kCos, LibmCos, 8, mpfr_cos>;
using Tan = LibmFunction<ZivFunction::kTan, LibmTan, 8, mpfr_tan>;
using Tanh = LibmFunction<ZivFunction::kTanh, LibmTanh, 12, mpfr_tanh>;
// The real cube root: cbrt(-8) = -2.
using Cbrt = LibmFunction<ZivFunction::kCbrt, LibmCbrt, 4, mpfr_cbrt>;

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
  static constexpr bool kPositiveOnFiniteArguments = true;
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
