// Small exact-arithmetic helpers shared by the oracle's op files.
#ifndef HLOCHECK_ORACLE_ARITHMETIC_H_
#define HLOCHECK_ORACLE_ARITHMETIC_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "oracle/expectation.h"

namespace hlocheck::oracle {

// A real float type's element rounded once from a double holding the exact
// value, or a value whose rounding to T is known to be innocuous.
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
    return FloatFromBits<T>(EncodeFloat(Format(T), ExactValue::FromDouble(value)));
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
    return FloatFromBits<T>(
        EncodeFloat(Format(T), ExactValue::FromDouble(value), RoundingMode::kNearestEven, flags));
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

// Elements of one result whose value the spec leaves to the implementation,
// each with why.
class FreeElements {
 public:
  explicit FreeElements(size_t count) : count_(count) {}

  void Mark(size_t index, std::string_view reason) {
    if (mask_.empty()) mask_.assign(count_, 0);
    mask_[index] = 1;
    if (reason_.find(reason) == std::string::npos) {
      if (!reason_.empty()) reason_ += "; ";
      reason_ += reason;
    }
  }
  bool any() const { return !mask_.empty(); }

  void MoveInto(ResultExpectation& expectation) && {
    expectation.free = std::move(mask_);
    expectation.free_reason = std::move(reason_);
  }

 private:
  size_t count_;
  std::vector<uint8_t> mask_;  // empty until an element is marked
  std::string reason_;
};

// What a float result that T cannot hold (see RoundDouble) is marked free with.
inline constexpr std::string_view kUnrepresentableReason =
    "the result (NaN, an infinity, zero or a negative value) does not exist in the element "
    "type; the spec does not say what it becomes";

// The one result of an element-wise op.
inline std::vector<ResultExpectation> OneResult(Tensor reference, Check check, FreeElements free) {
  std::vector<ResultExpectation> results(1);
  results[0].reference = std::move(reference);
  results[0].check = check;
  std::move(free).MoveInto(results[0]);
  return results;
}

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_ARITHMETIC_H_
