// Correct rounding of a real function into any float format, never rounding
// twice (Ziv's strategy).
//
// A function is described by a traits struct (see elementary.h):
//
//   struct F {
//     static constexpr ZivFunction kId;            // for the statistics
//     static double InDouble(double...);          // fast, within kDoubleUlps ulps of double
//     static constexpr int kDoubleUlps;
//     static long double InLongDouble(long double...);  // within kLongDoubleUlps (x87)
//     static constexpr int kLongDoubleUlps;
//     static ExactValue ToOdd(double...);          // MPFR: the exact value rounded to odd
//   };
//
// CorrectlyRounded<F> evaluates the fast function in a format wider than the
// target (double for formats of up to 24 significand bits, x87 long double
// for f64) and accepts the result only when every value within the
// function's error bound rounds to the same value of the target format.
// Otherwise it asks MPFR, which computes at 64 bits and rounds to odd, so
// that the one rounding into the target is exact (round_to_odd.h). The
// answer is always the one ByMpfr<F> gives; tests check that claim.
#ifndef HLOCHECK_ORACLE_PRECISE_ZIV_H_
#define HLOCHECK_ORACLE_PRECISE_ZIV_H_

#include <mpfr.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/element_type.h"
#include "core/exact_value.h"

namespace hlocheck::precise {

// The functions whose fast path is counted separately.
enum class ZivFunction : uint8_t {
  kExp,
  kExpm1,
  kLog,
  kLog1p,
  kSin,
  kCos,
  kTan,
  kTanh,
  kCbrt,
  kRsqrt,
  kLogistic,
  kAtan2,
  kPow,
  kCount,
};

// How often the fast path decided, and how often MPFR was needed, on the
// calling thread since it started.
struct ZivStatistics {
  uint64_t fast = 0;
  uint64_t mpfr = 0;
};
inline thread_local ZivStatistics thread_ziv_statistics[static_cast<int>(ZivFunction::kCount)];
inline ZivStatistics& ThreadZivStatistics(ZivFunction function) {
  return thread_ziv_statistics[static_cast<int>(function)];
}

// x87 extended precision (64 significand bits) is what makes long double a
// fast path for f64; elsewhere f64 goes to MPFR directly.
inline constexpr bool kLongDoubleIsExtended = LDBL_MANT_DIG >= 64;

// True when every value within `ulps` units in the last place of `y` (an
// approximation in the wide format) rounds to the same value of `format`;
// that value, the correctly rounded result, goes to `bits`. Zeros,
// subnormals, infinities and NaN of the wide format are never accepted: the
// error bounds of the fast functions are relative, and exact zeros or
// special values are MPFR's to decide.
template <typename Wide>
inline bool RoundsUnambiguously(const FloatFormat& format, Wide y, int ulps, uint64_t* bits) {
  const Wide magnitude = std::fabs(y);
  if (!(magnitude >= std::numeric_limits<Wide>::min() &&
        magnitude <= std::numeric_limits<Wide>::max())) {
    return false;
  }
  // ulps of either y or the true value are at most |y| 2^(1-digits) (the
  // true value is within a hair of y); two more ulps cover the rounding of
  // the radius and of the two ends.
  constexpr int kDigits = std::numeric_limits<Wide>::digits;
  const Wide radius =
      magnitude * (static_cast<Wide>(ulps + 2) * std::ldexp(static_cast<Wide>(1), 1 - kDigits));
  const Wide lo = y - radius;
  const Wide hi = y + radius;
  // The host's own conversions round to nearest even into binary32 and
  // binary64 exactly as EncodeFloat does, at a fraction of the cost.
  if constexpr (sizeof(Wide) == sizeof(double)) {
    if (format.exponent_bits == 8 && format.mantissa_bits == 23 && format.has_infinity) {
      uint32_t lo_bits = std::bit_cast<uint32_t>(static_cast<float>(lo));
      if (lo_bits != std::bit_cast<uint32_t>(static_cast<float>(hi))) return false;
      *bits = lo_bits;
      return true;
    }
    uint64_t lo_bits = EncodeFloat(format, ExactValue::FromDouble(lo));
    if (lo_bits != EncodeFloat(format, ExactValue::FromDouble(hi))) return false;
    *bits = lo_bits;
    return true;
  } else {
    if (format.exponent_bits == 11 && format.mantissa_bits == 52 && format.has_infinity) {
      uint64_t lo_bits = std::bit_cast<uint64_t>(static_cast<double>(lo));
      if (lo_bits != std::bit_cast<uint64_t>(static_cast<double>(hi))) return false;
      *bits = lo_bits;
      return true;
    }
    uint64_t lo_bits = EncodeFloat(format, ExactValue::FromLongDouble(lo));
    if (lo_bits != EncodeFloat(format, ExactValue::FromLongDouble(hi))) return false;
    *bits = lo_bits;
    return true;
  }
}

// The result through MPFR alone: the reference the fast path is tested
// against, and its fallback.
template <class F, typename... Doubles>
uint64_t ByMpfr(const FloatFormat& format, Doubles... x) {
  return EncodeFloat(format, F::ToOdd(x...));
}

// F(x...) correctly rounded into `format`; the inputs are exact (every value
// of every float type is a double).
template <class F, typename... Doubles>
uint64_t CorrectlyRounded(const FloatFormat& format, Doubles... x) {
  const int precision = format.mantissa_bits + 1;
  uint64_t bits = 0;
  ZivStatistics& statistics = ThreadZivStatistics(F::kId);
  if (precision <= 24) {
    const double wide = F::InDouble(x...);
    if (RoundsUnambiguously(format, wide, F::kDoubleUlps, &bits)) {
      ++statistics.fast;
      return bits;
    }
    // A function positive on finite arguments whose double result overflows
    // or falls below double's normal range is far beyond the range of every
    // format of up to 24 significand bits and 8 exponent bits, where any
    // value so large (or so small) rounds alike.
    if constexpr (requires { requires F::kPositiveOnFiniteArguments; }) {
      if (format.exponent_bits <= 8 && (std::isfinite(x) && ...) && !std::isnan(wide) &&
          !(wide >= std::numeric_limits<double>::min() &&
            wide <= std::numeric_limits<double>::max())) {
        ++statistics.fast;
        return EncodeFloat(
            format, ExactValue::FromDouble(wide > 1 ? std::numeric_limits<double>::max()
                                                    : std::numeric_limits<double>::denorm_min()));
      }
    }
  } else if constexpr (kLongDoubleIsExtended) {
    if (precision <= 53 &&
        RoundsUnambiguously(format, F::InLongDouble(static_cast<long double>(x)...),
                            F::kLongDoubleUlps, &bits)) {
      ++statistics.fast;
      return bits;
    }
  }
  ++statistics.mpfr;
  return ByMpfr<F>(format, x...);
}

// MPFR building blocks for the ToOdd functions: f evaluated at 64 bits
// towards zero on exact double inputs, then rounded to odd.
using MpfrUnary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using MpfrBinary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
ExactValue MpfrToOdd(MpfrUnary f, double x);
ExactValue MpfrToOdd(MpfrBinary f, double x, double y);

}  // namespace hlocheck::precise

#endif  // HLOCHECK_ORACLE_PRECISE_ZIV_H_
