#include "core/exact_value.h"

#include <bit>
#include <cassert>
#include <climits>
#include <cmath>
#include <cstring>
#include <sstream>

namespace hlocheck {

ExactValue ExactValue::Finite(bool negative, uint64_t significand, int32_t exponent) {
  if (significand == 0) return Zero(negative);
  // Keep the representation canonical: an odd significand.
  int trailing = std::countr_zero(significand);
  return {Class::kFinite, negative, significand >> trailing, exponent + trailing};
}

ExactValue ExactValue::FromDouble(double value) {
  uint64_t bits = std::bit_cast<uint64_t>(value);
  static constexpr FloatFormat kF64 = {11, 52, 1023, true, true, true, NanEncoding::kIeee};
  return DecodeFloat(kF64, bits);
}

ExactValue ExactValue::FromLongDouble(long double value) {
  bool negative = std::signbit(value);
  if (std::isnan(value)) return NaN(negative);
  if (std::isinf(value)) return Infinity(negative);
  if (value == 0) return Zero(negative);
  int exponent = 0;
  long double fraction = std::frexp(std::fabs(value), &exponent);  // in [0.5, 1)
  // 64 bits hold the x87 extended significand; wider long doubles are rounded
  // here, which callers that need exactness must avoid.
  long double scaled = std::ldexp(fraction, 64);
  uint64_t significand;
  if (scaled >= 18446744073709551615.0L) {
    significand = ~uint64_t{0};
  } else {
    significand = static_cast<uint64_t>(scaled);
  }
  return Finite(negative, significand, exponent - 64);
}

ExactValue ExactValue::FromInt64(int64_t value) {
  if (value == 0) return Zero(false);
  uint64_t magnitude =
      value < 0 ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  return Finite(value < 0, magnitude, 0);
}

ExactValue ExactValue::FromUint64(uint64_t value) { return Finite(false, value, 0); }

double ExactValue::ToDouble() const {
  switch (cls) {
    case Class::kZero:
      return negative ? -0.0 : 0.0;
    case Class::kInfinity:
      return negative ? -HUGE_VAL : HUGE_VAL;
    case Class::kNaN:
      return negative ? -std::nan("") : std::nan("");
    case Class::kFinite:
      break;
  }
  // A significand of at most 53 bits whose lowest bit is at least 2^-1074
  // and whose value is below 2^1024 is a double: ldexp places it exactly.
  if (significand < (uint64_t{1} << 53) && exponent >= -1074 && exponent <= 1024 &&
      exponent + std::bit_width(significand) <= 1024) {
    const double magnitude = std::ldexp(static_cast<double>(significand), exponent);
    return negative ? -magnitude : magnitude;
  }
  static constexpr FloatFormat kF64 = {11, 52, 1023, true, true, true, NanEncoding::kIeee};
  uint64_t bits = EncodeFloat(kF64, *this);
  return std::bit_cast<double>(bits);
}

std::string ExactValue::DebugString() const {
  std::ostringstream out;
  switch (cls) {
    case Class::kZero:
      out << (negative ? "-0" : "+0");
      break;
    case Class::kInfinity:
      out << (negative ? "-inf" : "+inf");
      break;
    case Class::kNaN:
      out << (negative ? "-nan" : "nan");
      break;
    case Class::kFinite:
      out << (negative ? "-" : "") << significand << "*2^" << exponent;
      break;
  }
  return out.str();
}

bool IsNaNBits(const FloatFormat& f, uint64_t bits) {
  uint64_t magnitude = bits & ~f.sign_mask();
  switch (f.nan_encoding) {
    case NanEncoding::kNone:
      return false;
    case NanEncoding::kIeee:
      return (magnitude >> f.mantissa_bits) == f.exponent_field_max() &&
             (magnitude & f.mantissa_mask()) != 0;
    case NanEncoding::kAllOnes:
      return magnitude == ((f.exponent_field_max() << f.mantissa_bits) | f.mantissa_mask());
    case NanEncoding::kNegativeZero:
      return bits == f.sign_mask();
  }
  return false;
}

bool IsInfinityBits(const FloatFormat& f, uint64_t bits) {
  return f.has_infinity && (bits & ~f.sign_mask()) == f.infinity_bits();
}

ExactValue DecodeFloat(const FloatFormat& f, uint64_t bits) {
  bool negative = (bits & f.sign_mask()) != 0;
  if (IsNaNBits(f, bits)) return ExactValue::NaN(negative);
  if (IsInfinityBits(f, bits)) return ExactValue::Infinity(negative);
  uint64_t magnitude = bits & ~f.sign_mask();
  uint64_t exponent_field = magnitude >> f.mantissa_bits;
  uint64_t mantissa = magnitude & f.mantissa_mask();
  if (exponent_field == 0 && f.has_zero_and_subnormals) {
    if (mantissa == 0) return ExactValue::Zero(negative);
    return ExactValue::Finite(negative, mantissa, 1 - f.bias - f.mantissa_bits);
  }
  uint64_t significand = (uint64_t{1} << f.mantissa_bits) | mantissa;
  int32_t exponent = static_cast<int32_t>(exponent_field) - f.bias - f.mantissa_bits;
  return ExactValue::Finite(negative, significand, exponent);
}

namespace {

uint64_t OverflowResult(const FloatFormat& f, bool negative, RoundingMode mode) {
  uint64_t sign = negative ? f.sign_mask() : 0;
  if (mode == RoundingMode::kTowardZero) return sign | f.max_finite_bits();
  switch (f.overflow_rule()) {
    case OverflowRule::kInfinity:
      return sign | f.infinity_bits();
    case OverflowRule::kNaN:
      return f.nan_encoding == NanEncoding::kNegativeZero ? f.nan_bits() : sign | f.nan_bits();
    case OverflowRule::kSaturate:
      return sign | f.max_finite_bits();
  }
  return 0;
}

// Zero of the given sign, where the format has it.
uint64_t ZeroResult(const FloatFormat& f, bool negative, uint8_t* flags) {
  if (!f.has_zero_and_subnormals) {
    // f8E8M0FNU has no zero; like LLVM's APFloat we answer its smallest value.
    *flags |= kConversionUnrepresentable;
    return 0;
  }
  if (negative && f.has_negative_zero()) return f.sign_mask();
  return 0;
}

}  // namespace

uint64_t EncodeDouble(const FloatFormat& f, double value, RoundingMode mode, uint8_t* flags) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
  const int exponent = biased - 1023;  // value in [2^exponent, 2^(exponent + 1))
  const bool negative = (bits >> 63) != 0;
  const int top_exponent =
      static_cast<int>((f.max_finite_bits() >> f.mantissa_bits) & f.exponent_field_max()) - f.bias;
  // A normal double of f's normal range below its top binade rounds, to
  // nearest even, to a normal value of f at most 2^top_exponent: only the
  // significand is rounded (a carry moves to the next exponent field, still
  // below the largest finite value and any NaN or infinity pattern).
  // (Formats without stored significand bits, f8E8M0FNU, take the exact
  // path: there the implicit bit decides ties.)
  if (mode == RoundingMode::kNearestEven && f.mantissa_bits > 0 && f.mantissa_bits < 52 &&
      biased != 0 && biased != 0x7ff && (!negative || f.has_sign) &&
      exponent >= f.min_normal_exponent() && exponent < top_exponent) {
    const int shift = 52 - f.mantissa_bits;
    const uint64_t significand = bits & ((uint64_t{1} << 52) - 1);
    uint64_t kept = significand >> shift;
    const uint64_t remainder = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    auto field = static_cast<uint64_t>(exponent + f.bias);
    if (remainder > half || (remainder == half && (kept & 1) != 0)) {
      ++kept;
      if ((kept >> f.mantissa_bits) != 0) {
        kept = 0;
        ++field;
      }
    }
    if (remainder != 0) *flags |= kConversionInexact;
    return (negative ? f.sign_mask() : 0) | (field << f.mantissa_bits) | kept;
  }
  return EncodeFloat(f, ExactValue::FromDouble(value), mode, flags);
}

uint64_t EncodeFloat(const FloatFormat& f, const ExactValue& v, RoundingMode mode, uint8_t* flags) {
  const uint64_t sign = v.negative ? f.sign_mask() : 0;
  switch (v.cls) {
    case ExactValue::Class::kNaN:
      if (f.has_nan()) {
        if (f.nan_encoding == NanEncoding::kNegativeZero || !f.has_sign) return f.nan_bits();
        return sign | f.nan_bits();
      }
      *flags |= kConversionUnrepresentable;
      return 0;
    case ExactValue::Class::kInfinity:
      if (f.has_infinity) return sign | f.infinity_bits();
      if (f.has_nan()) {
        // The overflow rule of a format with NaN but no Inf.
        *flags |= kConversionOverflow;
        return OverflowResult(f, v.negative, RoundingMode::kNearestEven);
      }
      *flags |= kConversionUnrepresentable;
      return sign | f.max_finite_bits();
    case ExactValue::Class::kZero:
      return ZeroResult(f, v.negative, flags);
    case ExactValue::Class::kFinite:
      break;
  }
  if (v.negative && !f.has_sign) {
    *flags |= kConversionUnrepresentable;
    return f.nan_bits();
  }

  const int mbits = f.mantissa_bits;
  const uint64_t m = v.significand;
  const int64_t msb = 63 - std::countl_zero(m);
  const int64_t value_exponent = msb + v.exponent;  // value in [2^x, 2^(x+1))
  int64_t quantum = std::max<int64_t>(value_exponent, f.min_normal_exponent()) - mbits;
  const int64_t shift = quantum - v.exponent;

  uint64_t n;
  bool inexact = false;
  if (shift <= 0) {
    n = m << -shift;  // exact: n < 2^(mbits+1)
  } else {
    uint64_t remainder;
    uint64_t half;
    bool above_half;
    bool at_half;
    if (shift > 64) {
      n = 0;
      remainder = m;
      above_half = false;  // m < 2^64 <= 2^(shift-1)
      at_half = false;
    } else if (shift == 64) {
      n = 0;
      remainder = m;
      half = uint64_t{1} << 63;
      above_half = remainder > half;
      at_half = remainder == half;
    } else {
      n = m >> shift;
      remainder = m & ((uint64_t{1} << shift) - 1);
      half = uint64_t{1} << (shift - 1);
      above_half = remainder > half;
      at_half = remainder == half;
    }
    inexact = remainder != 0;
    if (mode == RoundingMode::kNearestEven && (above_half || (at_half && (n & 1) != 0))) {
      ++n;
    }
  }
  if (inexact) *flags |= kConversionInexact;
  if (n == (uint64_t{1} << (mbits + 1))) {
    n >>= 1;
    ++quantum;
  }
  if (n == 0) return ZeroResult(f, v.negative, flags);

  uint64_t exponent_field;
  uint64_t mantissa;
  if (n < (uint64_t{1} << mbits)) {
    exponent_field = 0;  // subnormal
    mantissa = n;
  } else {
    int64_t biased = quantum + mbits + f.bias;
    if (biased > static_cast<int64_t>(f.exponent_field_max())) {
      *flags |= kConversionOverflow | kConversionInexact;
      return OverflowResult(f, v.negative, mode);
    }
    exponent_field = static_cast<uint64_t>(biased);
    mantissa = n - (uint64_t{1} << mbits);
  }
  uint64_t magnitude = (exponent_field << mbits) | mantissa;
  if (magnitude > f.max_finite_bits()) {
    *flags |= kConversionOverflow | kConversionInexact;
    return OverflowResult(f, v.negative, mode);
  }
  return sign | magnitude;
}

int64_t FloatOrdinal(const FloatFormat& f, uint64_t bits) {
  uint64_t magnitude = bits & ~f.sign_mask();
  int64_t ordinal = static_cast<int64_t>(magnitude);
  return (bits & f.sign_mask()) ? -ordinal : ordinal;
}

int64_t UlpDistance(const FloatFormat& f, uint64_t a, uint64_t b) {
  bool a_nan = IsNaNBits(f, a);
  bool b_nan = IsNaNBits(f, b);
  if (a_nan || b_nan) return a_nan && b_nan ? 0 : INT64_MAX;
  // Values of opposite signs far apart (f64) are further apart than int64
  // holds: the difference in uint64 (exact, as x >= y), saturated.
  const int64_t x = FloatOrdinal(f, a);
  const int64_t y = FloatOrdinal(f, b);
  const uint64_t d = x >= y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y)
                            : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
  return d > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(d);
}

uint64_t NextFloatBits(const FloatFormat& f, uint64_t bits, bool down) {
  if (IsNaNBits(f, bits)) return bits;
  uint64_t top = f.has_infinity ? f.infinity_bits() : f.max_finite_bits();
  int64_t ordinal = FloatOrdinal(f, bits);
  // -0 moves like +0.
  int64_t lowest = f.has_sign ? -static_cast<int64_t>(top) : 0;
  int64_t next =
      down ? std::max(ordinal - 1, lowest) : std::min(ordinal + 1, static_cast<int64_t>(top));
  if (next >= 0) return static_cast<uint64_t>(next);
  return f.sign_mask() | static_cast<uint64_t>(-next);
}

}  // namespace hlocheck
