#include "oracle/precise/elementary.h"

#include <climits>

#include "oracle/precise/round_to_odd.h"

namespace hlocheck::precise {

ExactValue Rsqrt::ToOdd(double x) {
  // MPFR's rec_sqrt gives +Inf for -0; IEEE 754's rSqrt gives -Inf.
  if (x == 0) return ExactValue::Infinity(std::signbit(x));
  return MpfrToOdd(mpfr_rec_sqrt, x);
}

ExactValue Logistic::ToOdd(double x) {
  if (std::isnan(x)) return ExactValue::NaN();
  if (x == 0) return ExactValue::FromDouble(0.5);
  if (std::isinf(x)) return x > 0 ? ExactValue::FromDouble(1.0) : ExactValue::Zero(false);
  // Above 64 the value lies in (1 - 2^-92, 1): truncated to 64 bits it is
  // 1 - 2^-64, already odd.
  if (x > 64) return ExactValue::Finite(false, ~uint64_t{0}, -64);
  // Below -10^6 it is under 2^-1400000, far beyond every format's smallest
  // value: keep it positive and inexact, as FromRoundedToOdd does.
  if (x < -1e6) return ExactValue::Finite(false, 1, INT32_MIN / 2);
  // Ziv's loop in MPFR: three roundings to nearest at `precision` bits keep
  // the relative error below 2^(3 - precision). For x != 0, e^-x is
  // transcendental, so the value is never exactly representable and the
  // rounding towards zero at 64 bits is always inexact.
  MpfrNumber rounded(kOddPrecision);
  for (mpfr_prec_t precision = 128;; precision *= 2) {
    MpfrNumber t(precision);
    mpfr_set_d(t.get(), -x, MPFR_RNDN);  // exact
    mpfr_exp(t.get(), t.get(), MPFR_RNDN);
    mpfr_add_ui(t.get(), t.get(), 1, MPFR_RNDN);
    mpfr_ui_div(t.get(), 1, t.get(), MPFR_RNDN);
    if (mpfr_can_round(t.get(), precision - 3, MPFR_RNDN, MPFR_RNDZ, kOddPrecision + 1)) {
      mpfr_set(rounded.get(), t.get(), MPFR_RNDZ);
      return FromRoundedToOdd(rounded.get(), /*ternary=*/-1);
    }
  }
}

}  // namespace hlocheck::precise
