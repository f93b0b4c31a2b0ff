// Small exact-arithmetic helpers shared by the oracle's op files.
#ifndef HLOCHECK_ORACLE_ARITHMETIC_H_
#define HLOCHECK_ORACLE_ARITHMETIC_H_

#include <cstdint>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"

namespace hlocheck::oracle {

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

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_ARITHMETIC_H_
