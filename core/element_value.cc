#include "core/element_value.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace hlocheck {
namespace {

// Truncates an exact value towards zero into [min, max] of an integer type.
// Out-of-range values (the spec leaves them open) saturate; NaN gives 0.
template <ElementType T>
ContainerT<T> TruncateToInteger(const ExactValue& value, uint8_t* flags) {
  using C = ContainerT<T>;
  constexpr int kBits = BitWidth(T);
  constexpr bool kSigned = IsSignedInt(T);
  const uint64_t max_magnitude_positive =
      kSigned ? (uint64_t{1} << (kBits - 1)) - 1
              : (kBits == 64 ? ~uint64_t{0} : (uint64_t{1} << kBits) - 1);
  const uint64_t max_magnitude_negative = kSigned ? uint64_t{1} << (kBits - 1) : 0;
  auto saturate = [&](bool negative) -> C {
    *flags |= kConversionUnrepresentable;
    // Two's complement minimum, computed without negating INT64_MIN.
    if (negative) return kSigned ? static_cast<C>(uint64_t{0} - max_magnitude_negative) : 0;
    return static_cast<C>(max_magnitude_positive);
  };
  switch (value.cls) {
    case ExactValue::Class::kNaN:
      *flags |= kConversionUnrepresentable;
      return 0;
    case ExactValue::Class::kInfinity:
      return saturate(value.negative);
    case ExactValue::Class::kZero:
      return 0;
    case ExactValue::Class::kFinite:
      break;
  }
  uint64_t magnitude;
  if (value.exponent >= 0) {
    int width = 64 - std::countl_zero(value.significand);
    if (value.exponent + width > 64) return saturate(value.negative);
    magnitude = value.significand << value.exponent;
  } else {
    // The significand is odd, so any negative exponent drops a fraction.
    *flags |= kConversionInexact;
    magnitude = value.exponent <= -64 ? 0 : value.significand >> -value.exponent;
  }
  if (value.negative) {
    if (magnitude > max_magnitude_negative) return saturate(true);
    return static_cast<C>(uint64_t{0} - magnitude);
  }
  if (magnitude > max_magnitude_positive) return saturate(false);
  return static_cast<C>(magnitude);
}

// Integer -> integer: the value when it fits; two's complement wrap-around
// otherwise (flagged, since the spec leaves it open).
template <ElementType From, ElementType To>
ContainerT<To> ConvertInteger(ContainerT<From> value, uint8_t* flags) {
  ContainerT<To> result = WrapInteger<To>(IntegerBits<From>(value));
  if (static_cast<__int128>(value) != static_cast<__int128>(result)) {
    *flags |= kConversionUnrepresentable;
  }
  return result;
}

}  // namespace

template <ElementType T>
ContainerT<T> FromExact(const ExactValue& value, RoundingMode mode, uint8_t* flags) {
  if constexpr (IsBool(T)) {
    return value.is_zero() ? 0 : 1;
  } else if constexpr (IsInteger(T)) {
    return TruncateToInteger<T>(value, flags);
  } else if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    auto real = FloatFromBits<kPart>(EncodeFloat(Format(kPart), value, mode, flags));
    return ContainerT<T>(real, 0);
  } else {
    return FloatFromBits<T>(EncodeFloat(Format(T), value, mode, flags));
  }
}

namespace {

template <ElementType From, ElementType To>
void ConvertLoop(const ContainerT<From>* source, ContainerT<To>* destination, int64_t count,
                 uint8_t* flags_out, RoundingMode mode) {
  for (int64_t i = 0; i < count; ++i) {
    uint8_t flags = 0;
    if constexpr (From == To) {
      destination[i] = source[i];
    } else if constexpr (IsComplex(From) && IsComplex(To)) {
      using Part = typename ContainerT<To>::value_type;
      constexpr ElementType kPart = ComponentType(To);
      auto real = FloatFromBits<kPart>(EncodeDouble(Format(kPart), source[i].real(), mode, &flags));
      auto imag = FloatFromBits<kPart>(EncodeDouble(Format(kPart), source[i].imag(), mode, &flags));
      destination[i] = ContainerT<To>(static_cast<Part>(real), static_cast<Part>(imag));
    } else if constexpr (IsInteger(From) && IsInteger(To)) {
      destination[i] = ConvertInteger<From, To>(source[i], &flags);
    } else if constexpr (IsFloat(From) && (To == ElementType::kF32 || To == ElementType::kF64)) {
      // A finite value that f32 or f64 holds exactly (every value of a
      // narrower format, most of the rest): the hardware's conversion gives
      // the same bits, with no flags, as the exact path below, without
      // building an ExactValue. The range check keeps the cast defined.
      const double d = ToDouble<From>(source[i]);
      const bool in_range = std::isfinite(d) && (To == ElementType::kF64 ||
                                                 std::fabs(d) <= std::numeric_limits<float>::max());
      if (in_range && static_cast<double>(static_cast<ContainerT<To>>(d)) == d) {
        destination[i] = static_cast<ContainerT<To>>(d);
      } else {
        destination[i] = FromExact<To>(ToExact<From>(source[i]), mode, &flags);
      }
    } else if constexpr ((From == ElementType::kF32 || From == ElementType::kF64) && IsFloat(To)) {
      // A double (or float) into a narrower float format.
      destination[i] = FloatFromBits<To>(EncodeDouble(Format(To), source[i], mode, &flags));
    } else {
      destination[i] = FromExact<To>(ToExact<From>(source[i]), mode, &flags);
    }
    if (flags_out != nullptr) flags_out[i] = flags;
  }
}

}  // namespace

void ConvertElements(ElementType from, const void* source, ElementType to, void* destination,
                     int64_t count, uint8_t* flags, RoundingMode mode) {
  DispatchElementType(from, [&]<ElementType From>() {
    DispatchElementType(to, [&]<ElementType To>() {
      ConvertLoop<From, To>(static_cast<const ContainerT<From>*>(source),
                            static_cast<ContainerT<To>*>(destination), count, flags, mode);
    });
  });
}

uint8_t ConvertElement(ElementType from, const void* source, ElementType to, void* destination,
                       RoundingMode mode) {
  uint8_t flags = 0;
  ConvertElements(from, source, to, destination, 1, &flags, mode);
  return flags;
}

double RoundedToFloatType(ElementType type, double value) {
  if (type == ElementType::kF64) return value;
  if (type == ElementType::kF32 && std::isfinite(value) &&
      std::fabs(value) <= std::numeric_limits<float>::max()) {
    // The hardware's round to nearest even (the oracle runs with the
    // default environment: no flush to zero), the same value as the exact
    // path; beyond f32's largest finite value the exact path decides.
    return static_cast<double>(static_cast<float>(value));
  }
  double result = value;
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      ContainerT<T> narrow{};
      ConvertElement(ElementType::kF64, &value, T, &narrow);
      result = ToDouble<T>(narrow);
    }
  });
  return result;
}

// Explicit instantiations for every element type.
#define HLOCHECK_INSTANTIATE_FROM_EXACT(T)                                                       \
  template ContainerT<ElementType::T> FromExact<ElementType::T>(const ExactValue&, RoundingMode, \
                                                                uint8_t*);
HLOCHECK_INSTANTIATE_FROM_EXACT(kI1)
HLOCHECK_INSTANTIATE_FROM_EXACT(kSI2)
HLOCHECK_INSTANTIATE_FROM_EXACT(kSI4)
HLOCHECK_INSTANTIATE_FROM_EXACT(kSI8)
HLOCHECK_INSTANTIATE_FROM_EXACT(kSI16)
HLOCHECK_INSTANTIATE_FROM_EXACT(kSI32)
HLOCHECK_INSTANTIATE_FROM_EXACT(kSI64)
HLOCHECK_INSTANTIATE_FROM_EXACT(kUI2)
HLOCHECK_INSTANTIATE_FROM_EXACT(kUI4)
HLOCHECK_INSTANTIATE_FROM_EXACT(kUI8)
HLOCHECK_INSTANTIATE_FROM_EXACT(kUI16)
HLOCHECK_INSTANTIATE_FROM_EXACT(kUI32)
HLOCHECK_INSTANTIATE_FROM_EXACT(kUI64)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF4E2M1FN)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF6E2M3FN)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF6E3M2FN)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF8E3M4)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF8E4M3)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF8E4M3FN)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF8E4M3FNUZ)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF8E4M3B11FNUZ)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF8E5M2)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF8E5M2FNUZ)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF8E8M0FNU)
HLOCHECK_INSTANTIATE_FROM_EXACT(kBF16)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF16)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF32)
HLOCHECK_INSTANTIATE_FROM_EXACT(kF64)
HLOCHECK_INSTANTIATE_FROM_EXACT(kComplexF32)
HLOCHECK_INSTANTIATE_FROM_EXACT(kComplexF64)
#undef HLOCHECK_INSTANTIATE_FROM_EXACT

bool IsExactConversion(ElementType from, ElementType to) {
  if (from == to) return true;
  if (IsBool(from) || IsBool(to) || (IsComplex(from) && !IsComplex(to))) return false;
  const ElementType target = IsComplex(to) ? ComponentType(to) : to;
  if (IsInteger(from)) {
    const int magnitude_bits = BitWidth(from) - (IsSignedInt(from) ? 1 : 0);
    if (IsInteger(target)) {
      if (IsSignedInt(from) && !IsSignedInt(target)) return false;
      return magnitude_bits <= BitWidth(target) - (IsSignedInt(target) ? 1 : 0);
    }
    const FloatFormat& f = Format(target);
    return f.has_zero_and_subnormals && magnitude_bits <= f.mantissa_bits + 1 &&
           std::ldexp(1.0, magnitude_bits) <= DecodeFloat(f, f.max_finite_bits()).ToDouble();
  }
  if (IsInteger(target)) return false;
  const ElementType source = IsComplex(from) ? ComponentType(from) : from;
  if (source == target) return true;
  const FloatFormat& a = Format(source);
  const FloatFormat& b = Format(target);
  const bool zeros = !a.has_zero_and_subnormals || b.has_zero_and_subnormals;
  const bool specials = (!a.has_infinity || b.has_infinity) && (!a.has_nan() || b.has_nan());
  const int a_smallest =
      a.min_normal_exponent() - (a.has_zero_and_subnormals ? a.mantissa_bits : 0);
  const int b_smallest =
      b.min_normal_exponent() - (b.has_zero_and_subnormals ? b.mantissa_bits : 0);
  return zeros && specials && b.mantissa_bits >= a.mantissa_bits && b_smallest <= a_smallest &&
         DecodeFloat(a, a.max_finite_bits()).ToDouble() <=
             DecodeFloat(b, b.max_finite_bits()).ToDouble();
}

}  // namespace hlocheck
