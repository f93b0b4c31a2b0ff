// Element types of StableHLO tensors: the 22 of seed 002 and the 8 that the
// newer public spec adds. Each type has one in-memory "container" (the C++
// type a tensor stores it in) and, for floating-point types, an exact
// description of its bit format.
#ifndef HLOCHECK_CORE_ELEMENT_TYPE_H_
#define HLOCHECK_CORE_ELEMENT_TYPE_H_

#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace hlocheck {

enum class ElementType : uint8_t {
  kI1,
  kSI2,
  kSI4,
  kSI8,
  kSI16,
  kSI32,
  kSI64,
  kUI2,
  kUI4,
  kUI8,
  kUI16,
  kUI32,
  kUI64,
  kF4E2M1FN,
  kF6E2M3FN,
  kF6E3M2FN,
  kF8E3M4,
  kF8E4M3,
  kF8E4M3FN,
  kF8E4M3FNUZ,
  kF8E4M3B11FNUZ,
  kF8E5M2,
  kF8E5M2FNUZ,
  kF8E8M0FNU,
  kBF16,
  kF16,
  kF32,
  kF64,
  kComplexF32,
  kComplexF64,
};

inline constexpr int kNumElementTypes = 30;

enum class TypeKind : uint8_t { kBool, kSignedInt, kUnsignedInt, kFloat, kComplex };

// Where a float format keeps its NaN, if it has one.
enum class NanEncoding : uint8_t {
  kNone,          // finite-only formats (f4E2M1FN, f6*): no NaN at all
  kIeee,          // exponent all ones, mantissa non-zero
  kAllOnes,       // exponent and mantissa all ones (f8E4M3FN, f8E8M0FNU)
  kNegativeZero,  // the bit pattern of -0 (the FNUZ types)
};

// What a correctly rounded result larger than the largest finite value becomes.
enum class OverflowRule : uint8_t {
  kInfinity,  // IEEE-like types
  kNaN,       // types with NaN but no Inf (FN, FNUZ, E8M0)
  kSaturate,  // finite-only types
};

struct FloatFormat {
  int exponent_bits;
  int mantissa_bits;  // stored fraction bits, without the implicit leading one
  int bias;
  bool has_sign;
  bool has_infinity;
  bool has_zero_and_subnormals;  // false only for f8E8M0FNU
  NanEncoding nan_encoding;

  constexpr int total_bits() const { return (has_sign ? 1 : 0) + exponent_bits + mantissa_bits; }
  constexpr bool has_nan() const { return nan_encoding != NanEncoding::kNone; }
  constexpr bool has_negative_zero() const {
    return has_sign && has_zero_and_subnormals && nan_encoding != NanEncoding::kNegativeZero;
  }
  constexpr OverflowRule overflow_rule() const {
    if (has_infinity) return OverflowRule::kInfinity;
    if (has_nan()) return OverflowRule::kNaN;
    return OverflowRule::kSaturate;
  }
  constexpr uint64_t sign_mask() const {
    return has_sign ? uint64_t{1} << (exponent_bits + mantissa_bits) : 0;
  }
  constexpr uint64_t exponent_field_max() const { return (uint64_t{1} << exponent_bits) - 1; }
  constexpr uint64_t mantissa_mask() const { return (uint64_t{1} << mantissa_bits) - 1; }
  // Unbiased exponent of the smallest normal number.
  constexpr int min_normal_exponent() const { return has_zero_and_subnormals ? 1 - bias : -bias; }
  // Bit pattern of the largest finite positive value.
  uint64_t max_finite_bits() const;
  // Bit pattern of the canonical (positive, quiet) NaN; only if has_nan().
  uint64_t nan_bits() const;
  // Bit pattern of +Inf; only if has_infinity.
  uint64_t infinity_bits() const { return exponent_field_max() << mantissa_bits; }
};

struct ElementTypeInfo {
  ElementType type;
  std::string_view name;  // the spelling of the StableHLO spec, e.g. "si32", "f8E4M3FN"
  TypeKind kind;
  int bits;                           // bit width of one value (for complex: of both parts)
  int container_bytes;                // bytes one element occupies in a Tensor
  bool in_seed_spec;                  // false for the types only the newer public spec has
  std::optional<FloatFormat> format;  // for floats, and for the parts of complex types
};

const ElementTypeInfo& Info(ElementType type);
std::span<const ElementType> AllElementTypes();

inline std::string_view Name(ElementType type) { return Info(type).name; }
// How MLIR text (and so every StableHLO program) spells the type: signed
// integers are signless there, "i32" for si32; everything else as Name().
std::string_view MlirName(ElementType type);
constexpr int BitWidth(ElementType t) {
  switch (t) {
    case ElementType::kI1:
      return 1;
    case ElementType::kSI2:
    case ElementType::kUI2:
      return 2;
    case ElementType::kSI4:
    case ElementType::kUI4:
    case ElementType::kF4E2M1FN:
      return 4;
    case ElementType::kF6E2M3FN:
    case ElementType::kF6E3M2FN:
      return 6;
    case ElementType::kSI16:
    case ElementType::kUI16:
    case ElementType::kBF16:
    case ElementType::kF16:
      return 16;
    case ElementType::kSI32:
    case ElementType::kUI32:
    case ElementType::kF32:
      return 32;
    case ElementType::kSI64:
    case ElementType::kUI64:
    case ElementType::kF64:
    case ElementType::kComplexF32:
      return 64;
    case ElementType::kComplexF64:
      return 128;
    default:
      return 8;  // si8, ui8 and the f8 types
  }
}
inline int ContainerBytes(ElementType type) { return Info(type).container_bytes; }
// The enumerators are ordered by kind, so the kind is known at compile time.
constexpr TypeKind Kind(ElementType t) {
  if (t == ElementType::kI1) return TypeKind::kBool;
  if (t <= ElementType::kSI64) return TypeKind::kSignedInt;
  if (t <= ElementType::kUI64) return TypeKind::kUnsignedInt;
  if (t <= ElementType::kF64) return TypeKind::kFloat;
  return TypeKind::kComplex;
}
constexpr bool IsBool(ElementType t) { return Kind(t) == TypeKind::kBool; }
constexpr bool IsSignedInt(ElementType t) { return Kind(t) == TypeKind::kSignedInt; }
constexpr bool IsUnsignedInt(ElementType t) { return Kind(t) == TypeKind::kUnsignedInt; }
constexpr bool IsInteger(ElementType t) { return IsSignedInt(t) || IsUnsignedInt(t); }
constexpr bool IsFloat(ElementType t) { return Kind(t) == TypeKind::kFloat; }
constexpr bool IsComplex(ElementType t) { return Kind(t) == TypeKind::kComplex; }
// The format of a float type, or of each part of a complex type.
const FloatFormat& Format(ElementType type);
// f32 for complex<f32>, f64 for complex<f64>; the type itself otherwise.
constexpr ElementType ComponentType(ElementType type) {
  if (type == ElementType::kComplexF32) return ElementType::kF32;
  if (type == ElementType::kComplexF64) return ElementType::kF64;
  return type;
}

// Accepts the spec's spellings ("si32", "complex<f64>") and the MLIR ones
// the spec's examples use ("i32" for si32, "i8" in quantized types).
std::optional<ElementType> ParseElementType(std::string_view text);

// Smallest and largest values of an integer type, as 64-bit integers
// (ui64's maximum does not fit int64: use IntegerMaxUnsigned).
int64_t IntegerMin(ElementType type);
uint64_t IntegerMaxUnsigned(ElementType type);

// The C++ type a Tensor stores each element of a type in. Sub-byte integers
// are kept sign- or zero-extended in one byte; float formats narrower than
// f32 are kept as their raw bit pattern in the low bits of an unsigned integer.
template <ElementType T>
struct Container;
// clang-format off
template <> struct Container<ElementType::kI1> { using type = uint8_t; };
template <> struct Container<ElementType::kSI2> { using type = int8_t; };
template <> struct Container<ElementType::kSI4> { using type = int8_t; };
template <> struct Container<ElementType::kSI8> { using type = int8_t; };
template <> struct Container<ElementType::kSI16> { using type = int16_t; };
template <> struct Container<ElementType::kSI32> { using type = int32_t; };
template <> struct Container<ElementType::kSI64> { using type = int64_t; };
template <> struct Container<ElementType::kUI2> { using type = uint8_t; };
template <> struct Container<ElementType::kUI4> { using type = uint8_t; };
template <> struct Container<ElementType::kUI8> { using type = uint8_t; };
template <> struct Container<ElementType::kUI16> { using type = uint16_t; };
template <> struct Container<ElementType::kUI32> { using type = uint32_t; };
template <> struct Container<ElementType::kUI64> { using type = uint64_t; };
template <> struct Container<ElementType::kF4E2M1FN> { using type = uint8_t; };
template <> struct Container<ElementType::kF6E2M3FN> { using type = uint8_t; };
template <> struct Container<ElementType::kF6E3M2FN> { using type = uint8_t; };
template <> struct Container<ElementType::kF8E3M4> { using type = uint8_t; };
template <> struct Container<ElementType::kF8E4M3> { using type = uint8_t; };
template <> struct Container<ElementType::kF8E4M3FN> { using type = uint8_t; };
template <> struct Container<ElementType::kF8E4M3FNUZ> { using type = uint8_t; };
template <> struct Container<ElementType::kF8E4M3B11FNUZ> { using type = uint8_t; };
template <> struct Container<ElementType::kF8E5M2> { using type = uint8_t; };
template <> struct Container<ElementType::kF8E5M2FNUZ> { using type = uint8_t; };
template <> struct Container<ElementType::kF8E8M0FNU> { using type = uint8_t; };
template <> struct Container<ElementType::kBF16> { using type = uint16_t; };
template <> struct Container<ElementType::kF16> { using type = uint16_t; };
template <> struct Container<ElementType::kF32> { using type = float; };
template <> struct Container<ElementType::kF64> { using type = double; };
template <> struct Container<ElementType::kComplexF32> { using type = std::complex<float>; };
template <> struct Container<ElementType::kComplexF64> { using type = std::complex<double>; };
// clang-format on
template <ElementType T>
using ContainerT = typename Container<T>::type;

// True for float types stored as a bit pattern rather than a host float.
template <ElementType T>
inline constexpr bool kIsBitPatternFloat = T >= ElementType::kF4E2M1FN&& T <= ElementType::kF16;

// Calls fn.template operator()<T>() with T the compile-time constant for
// `type`. This is how code dispatches on the element type once per tensor
// instead of once per element.
template <typename Fn>
decltype(auto) DispatchElementType(ElementType type, Fn&& fn) {
  switch (type) {
#define HLOCHECK_DISPATCH_CASE(T) \
  case ElementType::T:            \
    return fn.template operator()<ElementType::T>();
    HLOCHECK_DISPATCH_CASE(kI1)
    HLOCHECK_DISPATCH_CASE(kSI2)
    HLOCHECK_DISPATCH_CASE(kSI4)
    HLOCHECK_DISPATCH_CASE(kSI8)
    HLOCHECK_DISPATCH_CASE(kSI16)
    HLOCHECK_DISPATCH_CASE(kSI32)
    HLOCHECK_DISPATCH_CASE(kSI64)
    HLOCHECK_DISPATCH_CASE(kUI2)
    HLOCHECK_DISPATCH_CASE(kUI4)
    HLOCHECK_DISPATCH_CASE(kUI8)
    HLOCHECK_DISPATCH_CASE(kUI16)
    HLOCHECK_DISPATCH_CASE(kUI32)
    HLOCHECK_DISPATCH_CASE(kUI64)
    HLOCHECK_DISPATCH_CASE(kF4E2M1FN)
    HLOCHECK_DISPATCH_CASE(kF6E2M3FN)
    HLOCHECK_DISPATCH_CASE(kF6E3M2FN)
    HLOCHECK_DISPATCH_CASE(kF8E3M4)
    HLOCHECK_DISPATCH_CASE(kF8E4M3)
    HLOCHECK_DISPATCH_CASE(kF8E4M3FN)
    HLOCHECK_DISPATCH_CASE(kF8E4M3FNUZ)
    HLOCHECK_DISPATCH_CASE(kF8E4M3B11FNUZ)
    HLOCHECK_DISPATCH_CASE(kF8E5M2)
    HLOCHECK_DISPATCH_CASE(kF8E5M2FNUZ)
    HLOCHECK_DISPATCH_CASE(kF8E8M0FNU)
    HLOCHECK_DISPATCH_CASE(kBF16)
    HLOCHECK_DISPATCH_CASE(kF16)
    HLOCHECK_DISPATCH_CASE(kF32)
    HLOCHECK_DISPATCH_CASE(kF64)
    HLOCHECK_DISPATCH_CASE(kComplexF32)
    HLOCHECK_DISPATCH_CASE(kComplexF64)
#undef HLOCHECK_DISPATCH_CASE
  }
  __builtin_unreachable();
}

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_ELEMENT_TYPE_H_
