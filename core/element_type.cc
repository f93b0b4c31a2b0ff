#include "core/element_type.h"

#include <cassert>

namespace hlocheck {
namespace {

using ET = ElementType;
using TK = TypeKind;

constexpr FloatFormat Ieee(int e, int m, int bias) {
  return {e, m, bias, true, true, true, NanEncoding::kIeee};
}
constexpr FloatFormat NanAllOnes(int e, int m, int bias) {
  return {e, m, bias, true, false, true, NanEncoding::kAllOnes};
}
constexpr FloatFormat Fnuz(int e, int m, int bias) {
  return {e, m, bias, true, false, true, NanEncoding::kNegativeZero};
}
constexpr FloatFormat FiniteOnly(int e, int m, int bias) {
  return {e, m, bias, true, false, true, NanEncoding::kNone};
}
// OCP MX E8M0 scale: no sign, no zero, no subnormals, no Inf, NaN = 0xFF.
constexpr FloatFormat kE8M0 = {8, 0, 127, false, false, false, NanEncoding::kAllOnes};

const std::array<ElementTypeInfo, kNumElementTypes> kInfos = {{
    {ET::kI1, "i1", TK::kBool, 1, 1, true, std::nullopt},
    {ET::kSI2, "si2", TK::kSignedInt, 2, 1, false, std::nullopt},
    {ET::kSI4, "si4", TK::kSignedInt, 4, 1, true, std::nullopt},
    {ET::kSI8, "si8", TK::kSignedInt, 8, 1, true, std::nullopt},
    {ET::kSI16, "si16", TK::kSignedInt, 16, 2, true, std::nullopt},
    {ET::kSI32, "si32", TK::kSignedInt, 32, 4, true, std::nullopt},
    {ET::kSI64, "si64", TK::kSignedInt, 64, 8, true, std::nullopt},
    {ET::kUI2, "ui2", TK::kUnsignedInt, 2, 1, false, std::nullopt},
    {ET::kUI4, "ui4", TK::kUnsignedInt, 4, 1, true, std::nullopt},
    {ET::kUI8, "ui8", TK::kUnsignedInt, 8, 1, true, std::nullopt},
    {ET::kUI16, "ui16", TK::kUnsignedInt, 16, 2, true, std::nullopt},
    {ET::kUI32, "ui32", TK::kUnsignedInt, 32, 4, true, std::nullopt},
    {ET::kUI64, "ui64", TK::kUnsignedInt, 64, 8, true, std::nullopt},
    {ET::kF4E2M1FN, "f4E2M1FN", TK::kFloat, 4, 1, false, FiniteOnly(2, 1, 1)},
    {ET::kF6E2M3FN, "f6E2M3FN", TK::kFloat, 6, 1, false, FiniteOnly(2, 3, 1)},
    {ET::kF6E3M2FN, "f6E3M2FN", TK::kFloat, 6, 1, false, FiniteOnly(3, 2, 3)},
    {ET::kF8E3M4, "f8E3M4", TK::kFloat, 8, 1, false, Ieee(3, 4, 3)},
    {ET::kF8E4M3, "f8E4M3", TK::kFloat, 8, 1, false, Ieee(4, 3, 7)},
    {ET::kF8E4M3FN, "f8E4M3FN", TK::kFloat, 8, 1, true, NanAllOnes(4, 3, 7)},
    {ET::kF8E4M3FNUZ, "f8E4M3FNUZ", TK::kFloat, 8, 1, true, Fnuz(4, 3, 8)},
    {ET::kF8E4M3B11FNUZ, "f8E4M3B11FNUZ", TK::kFloat, 8, 1, true, Fnuz(4, 3, 11)},
    {ET::kF8E5M2, "f8E5M2", TK::kFloat, 8, 1, true, Ieee(5, 2, 15)},
    {ET::kF8E5M2FNUZ, "f8E5M2FNUZ", TK::kFloat, 8, 1, true, Fnuz(5, 2, 16)},
    {ET::kF8E8M0FNU, "f8E8M0FNU", TK::kFloat, 8, 1, false, kE8M0},
    {ET::kBF16, "bf16", TK::kFloat, 16, 2, true, Ieee(8, 7, 127)},
    {ET::kF16, "f16", TK::kFloat, 16, 2, true, Ieee(5, 10, 15)},
    {ET::kF32, "f32", TK::kFloat, 32, 4, true, Ieee(8, 23, 127)},
    {ET::kF64, "f64", TK::kFloat, 64, 8, true, Ieee(11, 52, 1023)},
    {ET::kComplexF32, "complex<f32>", TK::kComplex, 64, 8, true, Ieee(8, 23, 127)},
    {ET::kComplexF64, "complex<f64>", TK::kComplex, 128, 16, true, Ieee(11, 52, 1023)},
}};

const std::array<ElementType, kNumElementTypes> kAllTypes = [] {
  std::array<ElementType, kNumElementTypes> all{};
  for (int i = 0; i < kNumElementTypes; ++i) all[i] = static_cast<ElementType>(i);
  return all;
}();

}  // namespace

uint64_t FloatFormat::max_finite_bits() const {
  uint64_t exponent = exponent_field_max();
  uint64_t mantissa = mantissa_mask();
  switch (nan_encoding) {
    case NanEncoding::kIeee:
      exponent -= 1;
      break;
    case NanEncoding::kAllOnes:
      // All ones is NaN; the largest finite value is one step below it.
      if (mantissa_bits == 0) {
        exponent -= 1;
      } else {
        mantissa -= 1;
      }
      break;
    case NanEncoding::kNegativeZero:
    case NanEncoding::kNone:
      break;
  }
  return (exponent << mantissa_bits) | mantissa;
}

uint64_t FloatFormat::nan_bits() const {
  switch (nan_encoding) {
    case NanEncoding::kIeee:
      // Quiet NaN: top mantissa bit set.
      return (exponent_field_max() << mantissa_bits) | (uint64_t{1} << (mantissa_bits - 1));
    case NanEncoding::kAllOnes:
      return (exponent_field_max() << mantissa_bits) | mantissa_mask();
    case NanEncoding::kNegativeZero:
      return sign_mask();
    case NanEncoding::kNone:
      break;
  }
  assert(false && "format has no NaN");
  return 0;
}

const ElementTypeInfo& Info(ElementType type) { return kInfos[static_cast<int>(type)]; }

std::span<const ElementType> AllElementTypes() { return kAllTypes; }

const FloatFormat& Format(ElementType type) {
  const ElementTypeInfo& info = Info(type);
  assert(info.format.has_value());
  return *info.format;
}

std::string_view MlirName(ElementType type) {
  std::string_view name = Name(type);
  // "si32" -> "i32": drop the leading 's' of signed integer types.
  return IsSignedInt(type) ? name.substr(1) : name;
}

std::optional<ElementType> ParseElementType(std::string_view text) {
  for (const ElementTypeInfo& info : kInfos) {
    if (info.name == text) return info.type;
  }
  // MLIR spells signless integers iN; StableHLO treats them as signed.
  static constexpr std::pair<std::string_view, ElementType> kMlirAliases[] = {
      {"i2", ET::kSI2},   {"i4", ET::kSI4},   {"i8", ET::kSI8},
      {"i16", ET::kSI16}, {"i32", ET::kSI32}, {"i64", ET::kSI64},
  };
  for (const auto& [alias, type] : kMlirAliases) {
    if (alias == text) return type;
  }
  return std::nullopt;
}

int64_t IntegerMin(ElementType type) {
  assert(IsInteger(type) || IsBool(type));
  if (!IsSignedInt(type)) return 0;
  // Two's complement: all bits from the sign bit upwards set.
  return static_cast<int64_t>(~uint64_t{0} << (BitWidth(type) - 1));
}

uint64_t IntegerMaxUnsigned(ElementType type) {
  assert(IsInteger(type) || IsBool(type));
  int bits = BitWidth(type);
  if (IsSignedInt(type)) return (uint64_t{1} << (bits - 1)) - 1;
  return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

}  // namespace hlocheck
