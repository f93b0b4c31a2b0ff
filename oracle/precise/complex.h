// Complex transcendental functions with each part correctly rounded into a
// float format, never rounding twice: MPC (or MPFR on the parts) computes at
// 64 bits towards zero and the result is rounded to odd, then once into the
// part format (round_to_odd.h). Functions MPC has are used as they are;
// the others are composed in a Ziv loop whose error bound is derived next
// to each formula.
//
// Inputs are exact doubles (every part of every complex type is one). The
// callers mark non-finite inputs free: the spec leaves the exceptional
// cases of complex functions to the implementation.
#ifndef HLOCHECK_ORACLE_PRECISE_COMPLEX_H_
#define HLOCHECK_ORACLE_PRECISE_COMPLEX_H_

#include <cstdint>

#include "core/element_type.h"

namespace hlocheck::precise {

struct ComplexBits {
  uint64_t real;
  uint64_t imag;
};

// The functions below are correctly rounded through MPC and MPFR; where
// the long double fast path of complex_fast.h decides, it gives the same
// bits sooner.
ComplexBits ComplexExp(const FloatFormat& part, double re, double im);
ComplexBits ComplexLog(const FloatFormat& part, double re, double im);
ComplexBits ComplexSin(const FloatFormat& part, double re, double im);
ComplexBits ComplexCos(const FloatFormat& part, double re, double im);
ComplexBits ComplexTan(const FloatFormat& part, double re, double im);
ComplexBits ComplexTanh(const FloatFormat& part, double re, double im);
// log(1 + z), with 1 + z formed exactly.
ComplexBits ComplexLog1p(const FloatFormat& part, double re, double im);
// e^z - 1.
ComplexBits ComplexExpm1(const FloatFormat& part, double re, double im);
// 1 / (1 + e^-z).
ComplexBits ComplexLogistic(const FloatFormat& part, double re, double im);
// 1 / sqrt(z) on the principal branch of sqrt (cut along the negative reals,
// the sign of a zero imaginary part choosing the side); z must not be 0.
ComplexBits ComplexRsqrt(const FloatFormat& part, double re, double im);
// The principal cube root, e^(log(z) / 3).
ComplexBits ComplexCbrt(const FloatFormat& part, double re, double im);
// atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)), the formula of the
// public interpreter and of XLA (the spec names "complex atan2" without
// defining it). Its real part is arg w and its imaginary part -ln|w| for
// w = (x + iy) / sqrt(x^2 + y^2). *open is set where the value is left to
// the implementation: a non-finite input, x^2 + y^2 = 0 or x + iy = 0
// (w is 0/0, 1/0 or 0), and the two branch cuts: x^2 + y^2 on the negative
// real axis (sqrt's) and w on it (log's), where the sign of a zero that
// rounding produces picks the side.
ComplexBits ComplexAtan2(const FloatFormat& part, double y_re, double y_im, double x_re,
                         double x_im, bool* open);
// x^y = e^(y log x) on the principal branch of log; x must not be 0.
ComplexBits ComplexPow(const FloatFormat& part, double x_re, double x_im, double y_re, double y_im);

// The functions of one argument (all but atan2 and pow), by name.
enum class ComplexFunction : uint8_t {
  kExp,
  kSin,
  kCos,
  kTan,
  kTanh,
  kExpm1,
  kLogistic,
  kRsqrt,
  kCbrt,
  kPow,    // for the statistics: ComplexPow and FastComplexPow
  kAtan2,  // likewise
  kCount,
};

// The same values through MPC and MPFR alone, never the fast path: the
// reference its tests hold it to.
ComplexBits ComplexWithoutFastPath(ComplexFunction f, const FloatFormat& part, double re,
                                   double im);
ComplexBits ComplexPowWithoutFastPath(const FloatFormat& part, double x_re, double x_im,
                                      double y_re, double y_im);
ComplexBits ComplexAtan2WithoutFastPath(const FloatFormat& part, double y_re, double y_im,
                                        double x_re, double x_im, bool* open);

}  // namespace hlocheck::precise

#endif  // HLOCHECK_ORACLE_PRECISE_COMPLEX_H_
