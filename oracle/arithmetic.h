// Small exact-arithmetic helpers shared by the oracle's op files.
#ifndef HLOCHECK_ORACLE_ARITHMETIC_H_
#define HLOCHECK_ORACLE_ARITHMETIC_H_

#include <cstdint>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"

namespace hlocheck::oracle {

// The integer type's value congruent to `raw` modulo 2^bits (two's
// complement wrap-around), in its container.
template <ElementType T>
ContainerT<T> WrapToWidth(uint64_t raw) {
  static_assert(IsInteger(T));
  constexpr int kBits = BitWidth(T);
  if constexpr (kBits < 64) raw &= (uint64_t{1} << kBits) - 1;
  if constexpr (IsSignedInt(T)) {
    return static_cast<ContainerT<T>>(static_cast<int64_t>(raw << (64 - kBits)) >> (64 - kBits));
  } else {
    return static_cast<ContainerT<T>>(raw);
  }
}

// An integer element as the 64-bit pattern of its value.
template <ElementType T>
uint64_t IntegerBits(ContainerT<T> value) {
  if constexpr (IsSignedInt(T)) {
    return static_cast<uint64_t>(static_cast<int64_t>(value));
  } else {
    return static_cast<uint64_t>(value);
  }
}

// A real float type's element rounded once from a double holding the exact
// value, or a value whose rounding to T is known to be innocuous.
template <ElementType T>
ContainerT<T> RoundDouble(double value) {
  static_assert(IsFloat(T));
  if constexpr (T == ElementType::kF64) {
    return value;
  } else {
    return FloatFromBits<T>(EncodeFloat(Format(T), ExactValue::FromDouble(value)));
  }
}

// The real-valued part type of a complex type (f32 for complex<f32>).
template <ElementType T>
inline constexpr ElementType kPartType =
    T == ElementType::kComplexF32 ? ElementType::kF32 : ElementType::kF64;

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_ARITHMETIC_H_
