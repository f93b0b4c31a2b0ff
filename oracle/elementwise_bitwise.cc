// Element-wise bitwise and logical ops (seed 002: and, or, xor, not, popcnt,
// count_leading_zeros, shift_left, shift_right_arithmetic,
// shift_right_logical). Integers are two's complement of their own width;
// booleans are 0 and 1. Every result is exact.
#include <bit>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

enum class Logic { kAnd, kOr, kXor };

// and, or, xor: logical for booleans, bitwise for integers.
template <Logic kLogic>
Results Bitwise(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result(c.result_types[0]);
  absl::Status status = DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsBool(T) || IsInteger(T)) {
      auto a = lhs.values<T>();
      auto b = rhs.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        // The containers hold the values sign- or zero-extended, so the
        // operation on the containers is the operation on the values.
        if constexpr (kLogic == Logic::kAnd) out[i] = a[i] & b[i];
        if constexpr (kLogic == Logic::kOr) out[i] = a[i] | b[i];
        if constexpr (kLogic == Logic::kXor) out[i] = a[i] ^ b[i];
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("unsupported: bitwise op on " + std::string(Name(T)));
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kExact, FreeElements(0));
}

// Applies fn to the bits of every integer element (within its width) and
// wraps the result back into the type.
template <typename Fn>
Results MapIntegerBits(const Case& c, std::string_view op, Fn fn) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  absl::Status status = DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      auto in = operand.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = WrapInteger<T>(fn(UnsignedBits<T>(in[i]), BitWidth(T)));
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("unsupported: " + std::string(op) + " of " +
                                        std::string(Name(T)));
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kExact, FreeElements(0));
}

// not: logical NOT for booleans, bitwise NOT for integers.
Results Not(const Case& c) {
  if (c.operands[0].element_type() == ElementType::kI1) {
    Tensor result(c.result_types[0]);
    auto in = c.operands[0].values<ElementType::kI1>();
    auto out = result.values<ElementType::kI1>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = in[i] != 0 ? 0 : 1;
    return OneResult(std::move(result), Check::kExact, FreeElements(0));
  }
  return MapIntegerBits(c, "not", [](uint64_t bits, int) { return ~bits; });
}

// popcnt: the number of bits set.
Results Popcnt(const Case& c) {
  return MapIntegerBits(c, "popcnt",
                        [](uint64_t bits, int) -> uint64_t { return std::popcount(bits); });
}

// count_leading_zeros: leading zero bits within the width (the width for 0).
Results CountLeadingZeros(const Case& c) {
  return MapIntegerBits(c, "count_leading_zeros", [](uint64_t bits, int width) -> uint64_t {
    return std::countl_zero(bits) - (64 - width);
  });
}

enum class Shift { kLeft, kRightArithmetic, kRightLogical };

// The shifts. The spec does not say what a shift amount outside [0, width)
// does (rhs is read as unsigned, so a negative amount is one of these):
// those elements are free, but carry the de facto convention that the
// StableHLO interpreter (APInt shifts by an amount clamped to the width)
// and XLA (elemental_ir_emitter's saturating shifts) agree on, the limit of
// shifting one bit at a time: 0, or all sign bits for an arithmetic right
// shift. A backend that masks the amount (x86's shift) differs from it.
template <Shift kShift>
Results ShiftOp(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      constexpr int kWidth = BitWidth(T);
      auto a = lhs.values<T>();
      auto b = rhs.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        uint64_t amount = UnsignedBits<T>(b[i]);
        uint64_t bits = UnsignedBits<T>(a[i]);
        bool negative = (bits >> (kWidth - 1)) & 1;
        if (amount >= kWidth) {
          free.MarkConventional(i,
                                "the spec does not define shift amounts outside [0, bit width); "
                                "de facto (interpreter and XLA): 0, or the sign bits");
          bool fill = kShift == Shift::kRightArithmetic && negative;
          out[i] = WrapInteger<T>(fill ? ~uint64_t{0} : 0);
        } else if constexpr (kShift == Shift::kLeft) {
          out[i] = WrapInteger<T>(bits << amount);
        } else if constexpr (kShift == Shift::kRightLogical) {
          out[i] = WrapInteger<T>(bits >> amount);
        } else {
          // Sign-extend to 64 bits, then shift (arithmetic in C++20).
          int64_t value = static_cast<int64_t>(bits << (64 - kWidth)) >> (64 - kWidth);
          out[i] = WrapInteger<T>(static_cast<uint64_t>(value >> amount));
        }
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("unsupported: shift of " + std::string(Name(T)));
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kExact, std::move(free));
}

}  // namespace

std::vector<OpEntry> ElementwiseBitwiseOps() {
  return {{"and", Bitwise<Logic::kAnd>},
          {"count_leading_zeros", CountLeadingZeros},
          {"not", Not},
          {"or", Bitwise<Logic::kOr>},
          {"popcnt", Popcnt},
          {"shift_left", ShiftOp<Shift::kLeft>},
          {"shift_right_arithmetic", ShiftOp<Shift::kRightArithmetic>},
          {"shift_right_logical", ShiftOp<Shift::kRightLogical>},
          {"xor", Bitwise<Logic::kXor>}};
}

}  // namespace hlocheck::oracle
