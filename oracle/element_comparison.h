// compare's, maximum's and minimum's semantics for one pair of elements,
// shared by those ops and by the bodies other ops' oracles recognise as one
// of them (sort's comparator, a reduction's combiner), so that both give
// the same answer by construction.
#ifndef HLOCHECK_ORACLE_ELEMENT_COMPARISON_H_
#define HLOCHECK_ORACLE_ELEMENT_COMPARISON_H_

#include <algorithm>
#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

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

// The value an order-based op chooses, and whether the spec leaves the
// choice open.
template <typename V>
struct Choice {
  V value;
  bool open = false;
};

// maximum (kMax) or minimum: logical OR / AND for booleans, the integer
// extremum, IEEE-754 maximum / minimum for floats (NaN propagates, -0 < +0),
// and the lexicographic extremum of (real, imaginary) for complex numbers.
template <ElementType T, bool kMax>
Choice<ContainerT<T>> Extremum(ContainerT<T> a, ContainerT<T> b) {
  if constexpr (IsBool(T)) {
    return {static_cast<ContainerT<T>>(kMax ? (a | b) & 1 : (a & b) & 1)};
  } else if constexpr (IsInteger(T)) {
    return {kMax ? std::max(a, b) : std::min(a, b)};
  } else if constexpr (IsFloat(T)) {
    if (IsNaNValue<T>(a)) return {a};
    if (IsNaNValue<T>(b)) return {b};
    double x = ToDouble<T>(a);
    double y = ToDouble<T>(b);
    if (x == y) {
      // Equal numbers differ at most in the sign of zero: -0 < +0.
      bool a_is_larger = !std::signbit(x) && std::signbit(y);
      return {a_is_larger == kMax ? a : b};
    }
    return {(x > y) == kMax ? a : b};
  } else {
    using Part = typename ContainerT<T>::value_type;
    double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (std::isnan(ar) || std::isnan(ai) || std::isnan(br) || std::isnan(bi)) {
      constexpr Part kNaN = std::numeric_limits<Part>::quiet_NaN();
      return {{kNaN, kNaN}, true};
    }
    int order = ar < br ? -1 : ar > br ? 1 : ai < bi ? -1 : ai > bi ? 1 : 0;
    bool open = (ar == br && std::signbit(ar) != std::signbit(br)) ||
                (order == 0 && std::signbit(ai) != std::signbit(bi));
    if (order == 0) return {a, open};
    return {(order > 0) == kMax ? a : b, open};
  }
}

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_ELEMENT_COMPARISON_H_
