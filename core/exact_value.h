// An exact binary number (or a special value) that every element of every
// element type converts to without loss, and the one rounding step from it
// into any float format. All conversions between element types go through
// here, so each result is rounded exactly once.
#ifndef HLOCHECK_CORE_EXACT_VALUE_H_
#define HLOCHECK_CORE_EXACT_VALUE_H_

#include <cstdint>
#include <string>

#include "core/element_type.h"

namespace hlocheck {

// value = (-1)^negative * significand * 2^exponent
struct ExactValue {
  enum class Class : uint8_t { kZero, kFinite, kInfinity, kNaN };
  Class cls = Class::kZero;
  bool negative = false;
  uint64_t significand = 0;  // non-zero exactly when cls == kFinite
  int32_t exponent = 0;

  static ExactValue Zero(bool negative) { return {Class::kZero, negative, 0, 0}; }
  static ExactValue Infinity(bool negative) { return {Class::kInfinity, negative, 0, 0}; }
  static ExactValue NaN(bool negative = false) { return {Class::kNaN, negative, 0, 0}; }
  // Normalises significand == 0 to a zero.
  static ExactValue Finite(bool negative, uint64_t significand, int32_t exponent);
  static ExactValue FromDouble(double value);
  static ExactValue FromLongDouble(long double value);
  static ExactValue FromInt64(int64_t value);
  static ExactValue FromUint64(uint64_t value);

  bool is_nan() const { return cls == Class::kNaN; }
  bool is_infinity() const { return cls == Class::kInfinity; }
  bool is_zero() const { return cls == Class::kZero; }
  bool is_finite() const { return cls == Class::kZero || cls == Class::kFinite; }
  // Exact whenever the value fits a double (always true for values decoded
  // from any format of up to 64 bits); otherwise correctly rounded.
  double ToDouble() const;
  std::string DebugString() const;
};

// Result flags of one rounding or conversion step; several may be set.
enum ConversionFlag : uint8_t {
  kConversionExact = 0,
  kConversionInexact = 1,   // the result is a rounded value
  kConversionOverflow = 2,  // beyond the largest finite value: the format's overflow rule applied
  kConversionUnrepresentable = 4,  // NaN, Inf, sign or zero that the target cannot hold; or an
                                   // integer target's range exceeded (the spec leaves these open)
};

enum class RoundingMode : uint8_t { kNearestEven, kTowardZero };

// Bit pattern (in the low total_bits() bits) -> exact value.
ExactValue DecodeFloat(const FloatFormat& format, uint64_t bits);

// Exact value -> bit pattern, rounded once. `flags` receives ConversionFlag bits.
uint64_t EncodeFloat(const FloatFormat& format, const ExactValue& value, RoundingMode mode,
                     uint8_t* flags);

// EncodeFloat(format, ExactValue::FromDouble(value), mode, flags), with a
// fast path for the common case: a double in the normal range of a format
// narrower than f64, below its top binade, rounded to nearest even
// (ConversionFastPathTest holds the two to the same bits and flags).
uint64_t EncodeDouble(const FloatFormat& format, double value, RoundingMode mode, uint8_t* flags);

inline uint64_t EncodeFloat(const FloatFormat& format, const ExactValue& value) {
  uint8_t flags = 0;
  return EncodeFloat(format, value, RoundingMode::kNearestEven, &flags);
}

// Classification of a bit pattern without decoding it fully.
bool IsNaNBits(const FloatFormat& format, uint64_t bits);
bool IsInfinityBits(const FloatFormat& format, uint64_t bits);

// A monotonic integer for every non-NaN bit pattern: consecutive values of
// the format get consecutive ordinals and both zeros get 0, so the distance
// in ULPs between two values is the difference of their ordinals.
int64_t FloatOrdinal(const FloatFormat& format, uint64_t bits);

// Distance in units in the last place; NaN against NaN is 0, NaN against a
// number is INT64_MAX.
int64_t UlpDistance(const FloatFormat& format, uint64_t a_bits, uint64_t b_bits);

// The next representable value towards +Inf (or -Inf when `down`), saturating
// at the ends of the format; NaN stays NaN.
uint64_t NextFloatBits(const FloatFormat& format, uint64_t bits, bool down);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_EXACT_VALUE_H_
