// Correctly rounded results from MPFR and MPC without rounding twice.
//
// MPFR computes at 64 bits, rounding towards zero, and the sticky bit of an
// inexact result is forced into the last place ("round to odd"). Rounding
// that value once more, to nearest even in any format of at most 62 bits of
// precision (f64 has 53), gives the correctly rounded result of the exact
// value (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums:
// proved algorithms using rounding to odd", 2008).
#ifndef HLOCHECK_ORACLE_PRECISE_ROUND_TO_ODD_H_
#define HLOCHECK_ORACLE_PRECISE_ROUND_TO_ODD_H_

#include <mpfr.h>

#include "core/exact_value.h"

namespace hlocheck::precise {

inline constexpr mpfr_prec_t kOddPrecision = 64;

// `value` holds a result computed at kOddPrecision with MPFR_RNDZ and
// `ternary` is what that computation returned.
ExactValue FromRoundedToOdd(mpfr_srcptr value, int ternary);

// An exact value as an mpfr_t; the caller has initialised `out` with at
// least 64 bits of precision.
void ToMpfr(const ExactValue& value, mpfr_ptr out);

// RAII holder of one mpfr_t.
class MpfrNumber {
 public:
  explicit MpfrNumber(mpfr_prec_t precision = kOddPrecision) { mpfr_init2(value_, precision); }
  ~MpfrNumber() { mpfr_clear(value_); }
  MpfrNumber(const MpfrNumber&) = delete;
  MpfrNumber& operator=(const MpfrNumber&) = delete;
  mpfr_ptr get() { return value_; }
  mpfr_srcptr get() const { return value_; }

 private:
  mpfr_t value_;
};

}  // namespace hlocheck::precise

#endif  // HLOCHECK_ORACLE_PRECISE_ROUND_TO_ODD_H_
