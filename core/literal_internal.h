// Pieces of the dense-literal layer (core/literal.h) that its parser, its
// printer and their tests share. Not part of the public interface.
#ifndef HLOCHECK_CORE_LITERAL_INTERNAL_H_
#define HLOCHECK_CORE_LITERAL_INTERNAL_H_

#include <bit>
#include <cstdint>
#include <string_view>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"

namespace hlocheck::literal_internal {

// True for decimal literals without their sign: `12`, `1.`, `.5`, `1.5e-3`.
bool IsUnsignedDecimalSyntax(std::string_view text);

// Rounds an unsigned decimal literal (IsUnsignedDecimalSyntax), negated when
// `negative`, once to nearest even into the real float type `type`, with the
// type's overflow rule. Values the type cannot hold at all follow
// EncodeFloat, as LLVM's APFloat does: in f8E8M0FNU zero becomes the
// smallest value (the public corpus writes 0.0 for it) and negatives NaN.
uint64_t RoundDecimalToFloatBits(ElementType type, std::string_view digits, bool negative);

// The same result computed only through MPFR: the reference the fast paths of
// RoundDecimalToFloatBits fall back on, exposed so tests can compare them.
uint64_t RoundDecimalToFloatBitsViaMpfr(ElementType type, std::string_view digits, bool negative);

// The decimal's value truncated to 64 significant bits with a sticky lowest
// bit (round to odd): rounding this once more to any format of at most 62
// significand bits gives the correctly rounded result of the decimal itself.
ExactValue DecimalRoundedToOdd(std::string_view digits, bool negative);

// True when `value` lies exactly halfway between two neighbours of `format`
// (including the halfway points at the overflow threshold and below the
// smallest subnormal): the only values where rounding first to double and
// then to `format` can differ from rounding once.
bool IsRoundingTie(const FloatFormat& format, const ExactValue& value);

// Bytes one element occupies in the hex form: ceil(bits / 8) (i1, which is
// bit-packed, is handled by the callers).
template <ElementType T>
inline constexpr int kHexElementBytes = (BitWidth(T) + 7) / 8;

// The low `bits` of a bit pattern.
inline uint64_t LowBits(uint64_t value, int bits) {
  return bits >= 64 ? value : value & ((uint64_t{1} << bits) - 1);
}

// Bit pattern of a real (non-complex) element in the type's width: two's
// complement for signed integers, the IEEE-style pattern for floats.
template <ElementType T>
inline uint64_t RealElementBits(ContainerT<T> value) {
  static_assert(!IsComplex(T));
  if constexpr (IsFloat(T)) {
    return FloatBits<T>(value);
  } else if constexpr (IsSignedInt(T)) {
    return LowBits(static_cast<uint64_t>(static_cast<int64_t>(value)), BitWidth(T));
  } else {
    return static_cast<uint64_t>(value);
  }
}

// Inverse of RealElementBits; bits above the type's width are ignored (as
// MLIR ignores them in hex data).
template <ElementType T>
inline ContainerT<T> RealElementFromBits(uint64_t bits) {
  static_assert(!IsComplex(T));
  constexpr int kBits = BitWidth(T);
  bits = LowBits(bits, kBits);
  if constexpr (IsFloat(T)) {
    return FloatFromBits<T>(bits);
  } else if constexpr (IsBool(T)) {
    return static_cast<ContainerT<T>>(bits != 0 ? 1 : 0);
  } else {
    return WrapInteger<T>(bits);
  }
}

}  // namespace hlocheck::literal_internal

#endif  // HLOCHECK_CORE_LITERAL_INTERNAL_H_
