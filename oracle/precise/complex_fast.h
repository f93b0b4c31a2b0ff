// A fast path for the complex functions of complex.h: each part evaluated
// in x87 long double (64 significand bits) together with a rigorous bound
// on its error, accepted only when every value within that bound rounds to
// the same value of the part's format (f32 or f64). Otherwise the callers
// go on to MPC and MPFR, whose answer is the reference: the fast path
// gives that very answer or none (ComplexFastPathTest checks it against
// them on inputs near poles, zeros, overflow and ties).
//
// The bounds are carried through each formula by interval-like arithmetic
// on (value, error) pairs (complex_fast.cc); the only facts taken on trust
// are the error bounds of glibc's long double functions, the same
// measured-not-proved maxima (times four) as the real functions' fast path
// (elementary.h), and LongDoubleBoundTest measures each one against MPFR.
//
// The fast path declines (std::nullopt) where a part is exactly zero or
// the formula loses too much, near long double's overflow and underflow,
// for non-finite inputs, and on hosts without x87 long double.
#ifndef HLOCHECK_ORACLE_PRECISE_COMPLEX_FAST_H_
#define HLOCHECK_ORACLE_PRECISE_COMPLEX_FAST_H_

#include <cstdint>
#include <optional>

#include "core/element_type.h"
#include "oracle/precise/complex.h"

namespace hlocheck::precise {

// Error bounds, in ulps of long double, assumed for glibc's x86_64 long
// double functions: elementary.h's (four times glibc's published maxima,
// at least 4); for sinh and cosh, which elementary.h does not use, about
// four times the worst LongDoubleBoundTest measures (2.57 and 1.58 ulps).
struct LongDoubleUlps {
  static constexpr int kExp = 4;
  static constexpr int kExpm1 = 12;
  static constexpr int kLog = 4;
  static constexpr int kLog1p = 8;
  static constexpr int kSin = 8;
  static constexpr int kCos = 8;
  static constexpr int kTan = 8;
  static constexpr int kSinh = 12;
  static constexpr int kCosh = 8;
  static constexpr int kAtan2 = 4;
  static constexpr int kCbrt = 4;
};

// f(re + i im) with both parts correctly rounded into `part`, or nullopt
// where the fast path cannot tell. `error_scale` multiplies every error
// bound: 1 in use; tests set 0 to show that the bounds are what keeps the
// answers right.
std::optional<ComplexBits> FastComplex(ComplexFunction f, const FloatFormat& part, double re,
                                       double im, long double error_scale = 1);
// x^y, likewise.
std::optional<ComplexBits> FastComplexPow(const FloatFormat& part, double x_re, double x_im,
                                          double y_re, double y_im, long double error_scale = 1);

// complex atan2(y, x) (complex.h), only where the value is not open: an
// element it decides is never one ComplexAtan2 marks open.
std::optional<ComplexBits> FastComplexAtan2(const FloatFormat& part, double y_re, double y_im,
                                            double x_re, double x_im, long double error_scale = 1);

// How often the fast path decided, and how often it declined, on the
// calling thread since it started.
struct ComplexFastStatistics {
  uint64_t fast = 0;
  uint64_t declined = 0;
};
ComplexFastStatistics& ThreadComplexFastStatistics(ComplexFunction f);

}  // namespace hlocheck::precise

#endif  // HLOCHECK_ORACLE_PRECISE_COMPLEX_FAST_H_
