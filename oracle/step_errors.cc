// Running error analysis of a chain of rounded steps (see step_errors.h).
#include "oracle/step_errors.h"

#include <cmath>

#include "core/element_value.h"
#include "core/exact_value.h"

namespace hlocheck::oracle {
namespace {

// Whether some evaluation may compute `t` as zero (or with the other sign)
// and another not: its error reaches past zero.
bool MayBeZero(const Tracked& t) {
  return std::isfinite(t.value) && t.error > 0 && fabsl(t.value) <= t.error;
}

Tracked Combine(long double value, long double error, const Tracked& a, const Tracked& b) {
  return {value, error, a.order_dependent || b.order_dependent};
}

}  // namespace

double Gamma(int64_t k, double unit_roundoff) {
  const double nu = static_cast<double>(k) * unit_roundoff;
  return nu < 1 ? nu / (1 - nu) : HUGE_VAL;
}

double UnitRoundoff(const FloatFormat& format) {
  return std::ldexp(1.0, -(format.mantissa_bits + 1));
}

double MaxFinite(const FloatFormat& format) {
  return DecodeFloat(format, format.max_finite_bits()).ToDouble();
}

StepErrors::StepErrors(const FloatFormat& format)
    : format_(format),
      unit_roundoff_(UnitRoundoff(format)),
      smallest_subnormal_(std::ldexp(1.0L, format.min_normal_exponent() - format.mantissa_bits)),
      largest_(MaxFinite(format)) {}

Tracked StepErrors::Rounded(Tracked t) const {
  if (!std::isfinite(t.value)) {
    t.error = 0;
    return t;
  }
  // A step whose operands are exact and whose exact value is zero gives
  // zero in every form (x - x, 0 * y, 0 / y, sqrt(0)).
  if (t.value == 0 && t.error == 0) return t;
  const long double magnitude = fabsl(t.value) + t.error;
  if (!(magnitude <= largest_)) t.order_dependent = true;
  // Two roundings of up to u |value| each, an underflow of up to half a
  // smallest subnormal each, and the long double reference's own rounding.
  t.error += 2 * unit_roundoff_ * magnitude + smallest_subnormal_ + ldexpl(fabsl(t.value), -60);
  return t;
}

Tracked StepErrors::Add(const Tracked& a, const Tracked& b) const {
  const bool finite = std::isfinite(a.value) && std::isfinite(b.value);
  return Rounded(Combine(a.value + b.value, finite ? a.error + b.error : 0, a, b));
}

Tracked StepErrors::Subtract(const Tracked& a, const Tracked& b) const {
  const bool finite = std::isfinite(a.value) && std::isfinite(b.value);
  return Rounded(Combine(a.value - b.value, finite ? a.error + b.error : 0, a, b));
}

Tracked StepErrors::Multiply(const Tracked& a, const Tracked& b) const {
  Tracked t = Combine(a.value * b.value, 0, a, b);
  if (std::isfinite(a.value) && std::isfinite(b.value)) {
    t.error = fabsl(a.value) * b.error + fabsl(b.value) * a.error + a.error * b.error;
  } else if ((std::isinf(a.value) && MayBeZero(b)) || (std::isinf(b.value) && MayBeZero(a))) {
    t.order_dependent = true;  // infinity times zero is NaN, times anything else infinite
  }
  return Rounded(t);
}

Tracked StepErrors::Divide(const Tracked& a, const Tracked& b) const {
  Tracked t = Combine(a.value / b.value, 0, a, b);
  if (MayBeZero(b) || (b.value == 0 && MayBeZero(a))) {
    // A divisor that may be zero makes the quotient unbounded; an exact
    // zero divisor gives an infinity of the dividend's sign, or NaN for a
    // dividend that may be zero.
    t.order_dependent = true;
  } else if (std::isfinite(a.value) && std::isfinite(b.value) && b.value != 0) {
    t.error = (a.error + fabsl(a.value / b.value) * b.error) / (fabsl(b.value) - b.error);
  }
  return Rounded(t);
}

Tracked StepErrors::Sqrt(const Tracked& a) const {
  Tracked t = a;
  if (std::isnan(a.value) || a.value == HUGE_VALL) return Rounded(t);
  if (a.value < 0) {  // -Inf included
    t.value = std::nanl("");
    if (a.value + a.error >= 0) t.order_dependent = true;
    return Rounded(t);
  }
  t.value = sqrtl(a.value);
  if (a.error <= a.value) {
    const long double denominator = t.value + sqrtl(a.value - a.error);
    t.error = denominator > 0 ? a.error / denominator : 0;
  } else {
    t.error = sqrtl(a.error);  // the computed argument lies in [0, value + error]
  }
  return Rounded(t);
}

Tracked StepErrors::Sum(std::span<const Tracked> terms) const {
  Tracked t;
  long double magnitude = 0, error = 0, reference = 0;
  bool nan = false, positive_infinity = false, negative_infinity = false;
  for (const Tracked& x : terms) {
    t.order_dependent |= x.order_dependent;
    if (std::isnan(x.value)) nan = true;
    if (std::isinf(x.value)) (x.value > 0 ? positive_infinity : negative_infinity) = true;
    if (!std::isfinite(x.value)) continue;
    t.value += x.value;
    magnitude += fabsl(x.value) + x.error;
    error += x.error;
    reference += fabsl(x.value);
  }
  if (nan || (positive_infinity && negative_infinity)) {
    t.value = std::nanl("");
    return t;
  }
  if (positive_infinity || negative_infinity) {
    // The finite terms may overflow to the other infinity in some order.
    t.value = positive_infinity ? HUGE_VALL : -HUGE_VALL;
    if (!(magnitude <= largest_)) t.order_dependent = true;
    return t;
  }
  const int64_t n = static_cast<int64_t>(terms.size());
  // Any order or tree of n - 1 rounded additions (additions are exact in
  // the subnormal range); the long double sum's own error on top.
  const double gamma = n > 1 ? Gamma(n - 1, static_cast<double>(unit_roundoff_)) : 0;
  t.error = error + static_cast<long double>(gamma) * magnitude * (1 + ldexpl(1, -40)) +
            n * ldexpl(reference, -63);
  if (!(magnitude + t.error <= largest_)) t.order_dependent = true;
  return t;
}

std::string_view StepErrors::FreeReason(const Tracked& t) const {
  if (t.order_dependent) {
    return "some evaluation of the spec's decomposition overflows, divides by a value that may "
           "be zero, or meets an infinity times zero, where another does not";
  }
  if (std::isnan(t.value)) return format_.has_nan() ? "" : "NaN does not exist in the element type";
  if (std::isinf(t.value)) {
    return format_.has_infinity ? "" : "an infinity does not exist in the element type";
  }
  if (!std::isfinite(t.error)) {
    return "the element type's precision leaves the error of this element unbounded (gamma_n u "
           ">= 1 for a sum of n terms)";
  }
  uint8_t flags = 0;
  const uint64_t bits = EncodeFloat(format_, ExactValue::FromDouble(static_cast<double>(t.value)),
                                    RoundingMode::kNearestEven, &flags);
  if (IsNaNBits(format_, bits)) return "the value is beyond the element type's finite range";
  return "";
}

double StepErrors::Bound(const Tracked& t) const {
  return static_cast<double>(t.error * (1 + ldexpl(1, -50)));
}

}  // namespace hlocheck::oracle
