// Correctly rounded complex arithmetic (and the real modulus) through MPFR
// and MPC: each part is computed at 64 bits, rounded to odd, and rounded once
// more into the part format, so no part is ever rounded twice (see
// round_to_odd.h).
//
// Why not host arithmetic: the real part of a product, ac - bd, cancels; the
// host's ac and bd are each rounded, and their difference can then be wrong
// in every bit. MPFR's fmms computes ac - bd exactly before its one rounding.
// Complex division and square root are not IEEE-754 basic operations; MPC's
// mpc_div and mpc_sqrt are correctly rounded in each part.
#ifndef HLOCHECK_ORACLE_PRECISE_COMPLEX_ARITHMETIC_H_
#define HLOCHECK_ORACLE_PRECISE_COMPLEX_ARITHMETIC_H_

#include <mpc.h>
#include <mpfr.h>

#include <cstdint>

#include "core/element_type.h"

namespace hlocheck::precise {

struct ComplexBits {
  uint64_t real;
  uint64_t imag;
};

// Scratch MPFR/MPC numbers for one op call: construct once, use for every
// element (no allocation per element). Inputs are doubles, which hold every
// value of f32 and f64 exactly.
class PreciseComplex {
 public:
  explicit PreciseComplex(const FloatFormat& part_format);
  ~PreciseComplex();
  PreciseComplex(const PreciseComplex&) = delete;
  PreciseComplex& operator=(const PreciseComplex&) = delete;

  // sqrt(re^2 + im^2), correctly rounded (mpfr_hypot).
  uint64_t Modulus(double re, double im);
  // (a + bi)(c + di) = (ac - bd) + (ad + bc)i, each part exact before its
  // one rounding (mpfr_fmms, mpfr_fmma).
  ComplexBits Multiply(double a, double b, double c, double d);
  // (a + bi) / (c + di), each part correctly rounded (mpc_div).
  ComplexBits Divide(double a, double b, double c, double d);
  // The principal square root, each part correctly rounded (mpc_sqrt).
  ComplexBits Sqrt(double re, double im);

 private:
  const FloatFormat& format_;
  mpfr_t a_, b_, c_, d_, out_;
  mpc_t x_, y_, z_;
};

}  // namespace hlocheck::precise

#endif  // HLOCHECK_ORACLE_PRECISE_COMPLEX_ARITHMETIC_H_
