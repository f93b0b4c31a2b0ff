// Reading and writing one element of any type as an ExactValue, and the
// conversion of whole buffers between element types (one dispatch per
// buffer, one rounding per element).
#ifndef HLOCHECK_CORE_ELEMENT_VALUE_H_
#define HLOCHECK_CORE_ELEMENT_VALUE_H_

#include <bit>
#include <cstdint>
#include <vector>

#include "core/element_type.h"
#include "core/exact_value.h"

namespace hlocheck {

// Bit pattern of a real float container value (f32, f64 or a bit-pattern type).
template <ElementType T>
inline uint64_t FloatBits(ContainerT<T> value) {
  static_assert(IsFloat(T));
  if constexpr (T == ElementType::kF32) {
    return std::bit_cast<uint32_t>(value);
  } else if constexpr (T == ElementType::kF64) {
    return std::bit_cast<uint64_t>(value);
  } else {
    return value;
  }
}

template <ElementType T>
inline ContainerT<T> FloatFromBits(uint64_t bits) {
  static_assert(IsFloat(T));
  if constexpr (T == ElementType::kF32) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  } else if constexpr (T == ElementType::kF64) {
    return std::bit_cast<double>(bits);
  } else {
    return static_cast<ContainerT<T>>(bits);
  }
}

// The integer element congruent to `bits` modulo 2^BitWidth(T) (two's
// complement wrap-around), kept sign- or zero-extended in its container.
// Integer arithmetic done on uint64_t, where wrap-around is defined, comes
// back to its type through here.
template <ElementType T>
inline ContainerT<T> WrapInteger(uint64_t bits) {
  static_assert(IsInteger(T));
  constexpr int kBits = BitWidth(T);
  if constexpr (kBits < 64) bits &= (uint64_t{1} << kBits) - 1;
  if constexpr (IsSignedInt(T) && kBits < 64) {
    // Arithmetic right shift of a signed value is defined in C++20.
    return static_cast<ContainerT<T>>(static_cast<int64_t>(bits << (64 - kBits)) >> (64 - kBits));
  } else {
    return static_cast<ContainerT<T>>(bits);
  }
}

// An integer element as the 64-bit pattern of its value (sign-extended).
template <ElementType T>
inline uint64_t IntegerBits(ContainerT<T> value) {
  static_assert(IsInteger(T));
  if constexpr (IsSignedInt(T)) {
    return static_cast<uint64_t>(static_cast<int64_t>(value));
  } else {
    return static_cast<uint64_t>(value);
  }
}

// The exact value of one element; for complex types, of the real part.
template <ElementType T>
inline ExactValue ToExact(ContainerT<T> value) {
  if constexpr (IsBool(T)) {
    return ExactValue::FromUint64(value != 0 ? 1 : 0);
  } else if constexpr (IsSignedInt(T)) {
    return ExactValue::FromInt64(static_cast<int64_t>(value));
  } else if constexpr (IsUnsignedInt(T)) {
    return ExactValue::FromUint64(static_cast<uint64_t>(value));
  } else if constexpr (IsComplex(T)) {
    return ExactValue::FromDouble(static_cast<double>(value.real()));
  } else if constexpr (T == ElementType::kF32 || T == ElementType::kF64) {
    return ExactValue::FromDouble(static_cast<double>(value));
  } else {
    return DecodeFloat(Format(T), value);
  }
}

// `value` as an element of type T, rounded once; for complex types, the real
// part (the imaginary part is zero). `flags` receives ConversionFlag bits.
template <ElementType T>
ContainerT<T> FromExact(const ExactValue& value, RoundingMode mode, uint8_t* flags);

// The double of every container value of a float type stored in at most 16
// bits, decoded once: the oracle and the adapters read such elements as
// doubles millions of times per gate.
template <ElementType T>
const std::vector<double>& NarrowFloatDoubles() {
  static_assert(IsFloat(T) && sizeof(ContainerT<T>) <= 2);
  static const std::vector<double> table = [] {
    std::vector<double> doubles(size_t{1} << (8 * sizeof(ContainerT<T>)));
    for (size_t bits = 0; bits < doubles.size(); ++bits) {
      doubles[bits] = DecodeFloat(Format(T), bits).ToDouble();
    }
    return doubles;
  }();
  return table;
}

// The double value of a real element (exact for every float type; integers
// beyond 2^53 are rounded); for complex types, of the real part.
template <ElementType T>
inline double ToDouble(ContainerT<T> value) {
  if constexpr (T == ElementType::kF32 || T == ElementType::kF64) {
    return static_cast<double>(value);
  } else if constexpr (IsComplex(T)) {
    return static_cast<double>(value.real());
  } else if constexpr (IsFloat(T) && sizeof(ContainerT<T>) <= 2) {
    return NarrowFloatDoubles<T>()[static_cast<size_t>(value)];
  } else if constexpr (IsFloat(T)) {
    return DecodeFloat(Format(T), value).ToDouble();
  } else {
    return static_cast<double>(value);
  }
}

// Converts `count` elements from `from` to `to` as the spec's `convert` does:
// bool <-> numbers, float -> integer truncates, complex -> real drops the
// imaginary part, real -> complex zeroes it, and every rounding is to nearest
// even, once. `flags`, when not null, receives one ConversionFlag byte per
// element.
void ConvertElements(ElementType from, const void* source, ElementType to, void* destination,
                     int64_t count, uint8_t* flags = nullptr,
                     RoundingMode mode = RoundingMode::kNearestEven);

// Whether every value of `from` is a value of `to` (the conversion is exact
// for every element): integers into wider integers or into floats with
// enough significand bits, floats into floats with at least their
// significand and exponent range, real into complex with such parts. Booleans
// convert exactly only to themselves here.
bool IsExactConversion(ElementType from, ElementType to);

// One element, through the same code as ConvertElements; returns its flags.
uint8_t ConvertElement(ElementType from, const void* source, ElementType to, void* destination,
                       RoundingMode mode = RoundingMode::kNearestEven);

// `value` rounded once to the float type `type` (as convert does, nearest
// even), as a double: every value of a float type of at most 64 bits is
// one. f64 gives `value` itself.
double RoundedToFloatType(ElementType type, double value);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_ELEMENT_VALUE_H_
