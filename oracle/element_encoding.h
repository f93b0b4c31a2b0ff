// Elements and their encodings, shared by the oracle's op files: a double
// holding an exact value rounded once into a float type, and the bits of
// float and integer elements.
#ifndef HLOCHECK_ORACLE_ELEMENT_ENCODING_H_
#define HLOCHECK_ORACLE_ELEMENT_ENCODING_H_

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"

namespace hlocheck::oracle {

// A real float type's element rounded once from a double holding the exact
// value, or a value whose rounding to T is known to be innocuous.
// An element of a real or complex float type as a complex long double
// (imaginary part 0 for a real type): what the oracle's transforms and
// factorisations compute in.
template <ElementType T>
std::complex<long double> ComplexLongDouble(ContainerT<T> x) {
  if constexpr (IsComplex(T)) {
    return {x.real(), x.imag()};
  } else {
    return {static_cast<long double>(ToDouble<T>(x)), 0};
  }
}

template <ElementType T>
ContainerT<T> RoundDouble(double value) {
  static_assert(IsFloat(T));
  if constexpr (T == ElementType::kF64) {
    return value;
  } else if constexpr (T == ElementType::kF32) {
    // The host's double-to-float conversion is IEEE-754's, rounding to
    // nearest even (the oracle never changes the rounding mode, nor flushes
    // subnormals), and is ~30x faster than the general encoder. NaNs take
    // the general encoder, which decides their payload.
    static_assert(std::numeric_limits<float>::is_iec559);
    if (!std::isnan(value)) return static_cast<float>(value);
    return FloatFromBits<T>(EncodeFloat(Format(T), ExactValue::FromDouble(value)));
  } else {
    uint8_t flags = 0;
    return FloatFromBits<T>(EncodeDouble(Format(T), value, RoundingMode::kNearestEven, &flags));
  }
}

// The same, reporting ConversionFlag bits: kConversionUnrepresentable when
// the value (a NaN, an infinity, a zero or a negative number) does not exist
// in T. Every double exists in f64.
template <ElementType T>
ContainerT<T> RoundDouble(double value, uint8_t* flags) {
  static_assert(IsFloat(T));
  if constexpr (T == ElementType::kF64) {
    return value;
  } else {
    if constexpr (T == ElementType::kF32) {
      // As above, with EncodeFloat's flags: f32 holds every NaN, Inf, sign
      // and zero, so only inexact and overflow can arise.
      if (!std::isnan(value)) {
        const float rounded = static_cast<float>(value);
        if (std::isinf(rounded) && !std::isinf(value)) {
          *flags |= kConversionOverflow | kConversionInexact;
        } else if (rounded != value) {
          *flags |= kConversionInexact;
        }
        return rounded;
      }
    }
    return FloatFromBits<T>(EncodeDouble(Format(T), value, RoundingMode::kNearestEven, flags));
  }
}

template <ElementType T>
bool IsNaNValue(ContainerT<T> value) {
  static_assert(IsFloat(T));
  return IsNaNBits(Format(T), FloatBits<T>(value));
}

// The bits of an integer element within its width (two's complement).
template <ElementType T>
uint64_t UnsignedBits(ContainerT<T> value) {
  static_assert(IsInteger(T));
  constexpr int kBits = BitWidth(T);
  uint64_t bits = IntegerBits<T>(value);
  if constexpr (kBits < 64) bits &= (uint64_t{1} << kBits) - 1;
  return bits;
}

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_ELEMENT_ENCODING_H_
