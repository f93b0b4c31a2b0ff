#include "oracle/precise/complex_arithmetic.h"

#include "core/exact_value.h"
#include "oracle/precise/round_to_odd.h"

namespace hlocheck::precise {
namespace {

uint64_t RoundOnce(const FloatFormat& format, mpfr_srcptr value, int ternary) {
  return EncodeFloat(format, FromRoundedToOdd(value, ternary));
}

}  // namespace

PreciseComplex::PreciseComplex(const FloatFormat& part_format) : format_(part_format) {
  // Inputs are doubles: 53 bits hold them exactly.
  mpfr_inits2(53, a_, b_, c_, d_, static_cast<mpfr_ptr>(nullptr));
  mpfr_init2(out_, kOddPrecision);
  mpc_init2(x_, 53);
  mpc_init2(y_, 53);
  mpc_init2(z_, kOddPrecision);
}

PreciseComplex::~PreciseComplex() {
  mpfr_clears(a_, b_, c_, d_, out_, static_cast<mpfr_ptr>(nullptr));
  mpc_clear(x_);
  mpc_clear(y_);
  mpc_clear(z_);
}

uint64_t PreciseComplex::Modulus(double re, double im) {
  mpfr_set_d(a_, re, MPFR_RNDN);  // exact
  mpfr_set_d(b_, im, MPFR_RNDN);
  int ternary = mpfr_hypot(out_, a_, b_, MPFR_RNDZ);
  return RoundOnce(format_, out_, ternary);
}

ComplexBits PreciseComplex::Multiply(double a, double b, double c, double d) {
  mpfr_set_d(a_, a, MPFR_RNDN);
  mpfr_set_d(b_, b, MPFR_RNDN);
  mpfr_set_d(c_, c, MPFR_RNDN);
  mpfr_set_d(d_, d, MPFR_RNDN);
  ComplexBits result;
  int ternary = mpfr_fmms(out_, a_, c_, b_, d_, MPFR_RNDZ);  // ac - bd
  result.real = RoundOnce(format_, out_, ternary);
  ternary = mpfr_fmma(out_, a_, d_, b_, c_, MPFR_RNDZ);  // ad + bc
  result.imag = RoundOnce(format_, out_, ternary);
  return result;
}

ComplexBits PreciseComplex::Divide(double a, double b, double c, double d) {
  mpc_set_d_d(x_, a, b, MPC_RNDNN);
  mpc_set_d_d(y_, c, d, MPC_RNDNN);
  int inexact = mpc_div(z_, x_, y_, MPC_RNDZZ);
  return {RoundOnce(format_, mpc_realref(z_), MPC_INEX_RE(inexact)),
          RoundOnce(format_, mpc_imagref(z_), MPC_INEX_IM(inexact))};
}

ComplexBits PreciseComplex::Sqrt(double re, double im) {
  mpc_set_d_d(x_, re, im, MPC_RNDNN);
  int inexact = mpc_sqrt(z_, x_, MPC_RNDZZ);
  return {RoundOnce(format_, mpc_realref(z_), MPC_INEX_RE(inexact)),
          RoundOnce(format_, mpc_imagref(z_), MPC_INEX_IM(inexact))};
}

}  // namespace hlocheck::precise
