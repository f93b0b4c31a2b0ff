#include "oracle/precise/round_to_odd.h"

#include <gmp.h>

#include <climits>

namespace hlocheck::precise {

ExactValue FromRoundedToOdd(mpfr_srcptr value, int ternary) {
  bool negative = mpfr_signbit(value) != 0;
  if (mpfr_nan_p(value)) return ExactValue::NaN(negative);
  if (mpfr_inf_p(value)) return ExactValue::Infinity(negative);
  if (mpfr_zero_p(value)) {
    if (ternary == 0) return ExactValue::Zero(negative);
    // Underflow below MPFR's exponent range: a non-zero value far smaller
    // than any format's smallest subnormal.
    return ExactValue::Finite(negative, 1, INT32_MIN / 2);
  }
  mpz_t significand;
  mpz_init(significand);
  mpfr_exp_t exponent = mpfr_get_z_2exp(significand, value);
  mpz_abs(significand, significand);
  // The significand has exactly the precision of `value` in bits.
  uint64_t bits = mpz_get_ui(significand);
  mpz_clear(significand);
  if (ternary != 0) bits |= 1;  // round to odd: keep the inexactness visible
  // MPFR's exponent range is far wider than any format's; clamp so that the
  // int32 exponent of ExactValue keeps the value beyond every format's range.
  if (exponent > INT32_MAX / 2) exponent = INT32_MAX / 2;
  if (exponent < INT32_MIN / 2) exponent = INT32_MIN / 2;
  return ExactValue::Finite(negative, bits, static_cast<int32_t>(exponent));
}

void ToMpfr(const ExactValue& value, mpfr_ptr out) {
  switch (value.cls) {
    case ExactValue::Class::kNaN:
      mpfr_set_nan(out);
      return;
    case ExactValue::Class::kInfinity:
      mpfr_set_inf(out, value.negative ? -1 : 1);
      return;
    case ExactValue::Class::kZero:
      mpfr_set_zero(out, value.negative ? -1 : 1);
      return;
    case ExactValue::Class::kFinite:
      break;
  }
  static_assert(sizeof(unsigned long) == sizeof(uint64_t), "LP64 is assumed");
  mpfr_set_ui_2exp(out, value.significand, value.exponent, MPFR_RNDN);  // exact: 64 bits
  if (value.negative) mpfr_neg(out, out, MPFR_RNDN);
}

}  // namespace hlocheck::precise
