// e^x correctly rounded into any float format.
//
// The fast path evaluates exp in a wider format (double for formats of up
// to 24 significand bits, x87 long double for f64) and accepts the result
// only when the whole error interval of that approximation rounds to the
// same value of the target format (Ziv's test). Otherwise it asks MPFR. The
// answer is therefore always the one MPFR alone would give, at close to libm
// speed; tests check both claims.
#ifndef HLOCHECK_ORACLE_PRECISE_EXPONENTIAL_H_
#define HLOCHECK_ORACLE_PRECISE_EXPONENTIAL_H_

#include <cstdint>

#include "core/element_type.h"

namespace hlocheck::precise {

// x is exact (every float type's values are doubles). Returns the bit
// pattern in `format`; `flags` gets ConversionFlag bits of the final rounding.
uint64_t ExpCorrectlyRounded(const FloatFormat& format, double x, uint8_t* flags);

// The same through MPFR only: the reference the fast path is tested against.
uint64_t ExpByMpfr(const FloatFormat& format, double x, uint8_t* flags);

// e^(re + i*im), each part correctly rounded into `part_format` (MPC).
void ComplexExpCorrectlyRounded(const FloatFormat& part_format, double re, double im,
                                uint64_t* real_bits, uint64_t* imag_bits);

// How often the fast path decided, and how often MPFR was needed, since start.
struct ZivStatistics {
  uint64_t fast = 0;
  uint64_t mpfr = 0;
};
ZivStatistics ExpStatistics();

}  // namespace hlocheck::precise

#endif  // HLOCHECK_ORACLE_PRECISE_EXPONENTIAL_H_
