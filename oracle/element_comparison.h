// compare's semantics for one pair of elements, shared by the compare op and
// by the bodies other ops' oracles recognise as one compare (sort's
// comparator), so that both give the same answer by construction.
#ifndef HLOCHECK_ORACLE_ELEMENT_COMPARISON_H_
#define HLOCHECK_ORACLE_ELEMENT_COMPARISON_H_

#include <compare>
#include <cstdint>

#include "core/case_attributes.h"
#include "oracle/element_encoding.h"

namespace hlocheck::oracle {

inline constexpr char kFnuzTotalOrderReason[] =
    "the FNUZ NaN has no sign, so its place in totalOrder is not defined";

inline bool Holds(ComparisonDirection direction, std::partial_ordering order) {
  switch (direction) {
    case ComparisonDirection::kEq:
      return order == 0;
    case ComparisonDirection::kNe:
      return order != 0;  // true for unordered (compareQuietNotEqual)
    case ComparisonDirection::kGe:
      return order >= 0;
    case ComparisonDirection::kGt:
      return order > 0;
    case ComparisonDirection::kLe:
      return order <= 0;
    case ComparisonDirection::kLt:
      return order < 0;
  }
  return false;
}

// Lexicographic comparison of (real, imaginary) pairs, each part compared as
// IEEE-754 compareQuiet* does.
inline bool HoldsLexicographically(ComparisonDirection direction, std::partial_ordering re,
                                   std::partial_ordering im) {
  bool equal = re == 0 && im == 0;
  switch (direction) {
    case ComparisonDirection::kEq:
      return equal;
    case ComparisonDirection::kNe:
      return !equal;
    case ComparisonDirection::kGe:
      return re > 0 || (re == 0 && im >= 0);
    case ComparisonDirection::kGt:
      return re > 0 || (re == 0 && im > 0);
    case ComparisonDirection::kLe:
      return re < 0 || (re == 0 && im <= 0);
    case ComparisonDirection::kLt:
      return re < 0 || (re == 0 && im < 0);
  }
  return false;
}

// The position of a value in IEEE-754 totalOrder: -NaN < -Inf < ... < -0 <
// +0 < ... < +Inf < +NaN, NaNs ordered by payload (a quiet NaN beyond a
// signalling one), i.e. the order of sign-magnitude bit patterns.
template <ElementType T>
int64_t TotalOrderKey(ContainerT<T> value) {
  const FloatFormat& format = Format(T);
  uint64_t bits = FloatBits<T>(value);
  auto magnitude = static_cast<int64_t>(bits & ~format.sign_mask());
  return (bits & format.sign_mask()) != 0 ? -magnitude - 1 : magnitude;
}

// compare: the numbers for booleans and integers; IEEE-754 compareQuiet*
// for floats, or IEEE-754 totalOrder with `total_order` (for every
// direction, as XLA's *TotalOrder comparisons: EQ means the same position in
// the total order, so -0 != +0 and a NaN equals itself); lexicographic on
// (real, imaginary) for complex numbers. *open is set where the spec leaves
// the answer open (the FNUZ NaN under totalOrder).
template <ElementType T>
bool CompareElements(ComparisonDirection direction, bool total_order, const ContainerT<T>& a,
                     const ContainerT<T>& b, bool* open) {
  if constexpr (IsBool(T) || IsInteger(T)) {
    return Holds(direction, a <=> b);
  } else if constexpr (IsFloat(T)) {
    if (total_order) {
      // The FNUZ NaN is the -0 pattern and has no sign: where it lies in
      // totalOrder is not defined.
      if (Format(T).nan_encoding == NanEncoding::kNegativeZero &&
          (IsNaNValue<T>(a) || IsNaNValue<T>(b))) {
        *open = true;
      }
      return Holds(direction, TotalOrderKey<T>(a) <=> TotalOrderKey<T>(b));
    }
    return Holds(direction, ToDouble<T>(a) <=> ToDouble<T>(b));
  } else {
    return HoldsLexicographically(direction, a.real() <=> b.real(), a.imag() <=> b.imag());
  }
}

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_ELEMENT_COMPARISON_H_
