// Printing of StableHLO dense literals (core/literal.h). Everything printed
// here parses back to the same bits: finite floats as the shortest decimal
// that round-trips, NaN and Inf (whose payload and sign a decimal cannot
// carry) as hex bit patterns.
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "core/literal.h"
#include "core/literal_internal.h"

namespace hlocheck {
namespace {

using literal_internal::kHexElementBytes;
using literal_internal::RealElementBits;
using literal_internal::RoundDecimalToFloatBits;

constexpr char kHexDigits[] = "0123456789ABCDEF";

// `0x` and the pattern with a fixed number of digits, most significant first.
void AppendHexBitPattern(uint64_t bits, int digits, std::string& out) {
  out += "0x";
  for (int i = digits - 1; i >= 0; --i) out += kHexDigits[(bits >> (4 * i)) & 0xF];
}

int HexDigitsOf(const FloatFormat& format) { return (format.total_bits() + 3) / 4; }

// MLIR's float literal is `[-+]?[0-9]+[.][0-9]*([eE][-+]?[0-9]+)?`: the
// point is required, before any exponent. A decimal without one gets ".0"
// (1e-45 becomes 1.0e-45: XLA's MLIR parser rejects "1e-45", which hlocheck
// printed until the PJRT gate found it), so the literal reads as a float
// to MLIR and to people.
void AppendFloatDecimal(std::string_view text, std::string& out) {
  if (text.find('.') != std::string_view::npos) {
    out += text;
    return;
  }
  const size_t exponent = text.find_first_of("eE");
  out += text.substr(0, exponent);
  out += ".0";
  if (exponent != std::string_view::npos) out += text.substr(exponent);
}

template <typename Host>
void AppendHostFloat(Host value, std::string& out) {
  if (!std::isfinite(value)) {
    using Bits = std::conditional_t<sizeof(Host) == 4, uint32_t, uint64_t>;
    AppendHexBitPattern(std::bit_cast<Bits>(value), 2 * sizeof(Host), out);
    return;
  }
  char buffer[64];
  // Without a precision, to_chars gives the shortest text that round-trips.
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  AppendFloatDecimal(std::string_view(buffer, result.ptr - buffer), out);
}

// Formats narrower than f32: the value is exact in a double, so the double's
// correctly rounded p-digit decimals are tried for growing p until one reads
// back (through the parser's own rounding) as the same bits.
template <ElementType T>
void AppendNarrowFloat(uint64_t bits, std::string& out) {
  const FloatFormat& format = Format(T);
  if (IsNaNBits(format, bits) || IsInfinityBits(format, bits)) {
    AppendHexBitPattern(bits, HexDigitsOf(format), out);
    return;
  }
  const double value = DecodeFloat(format, bits).ToDouble();
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                                      std::chars_format::general, precision);
    const std::string_view text(buffer, result.ptr - buffer);
    const bool negative = text.front() == '-';
    if (RoundDecimalToFloatBits(T, text.substr(negative ? 1 : 0), negative) == bits) {
      AppendFloatDecimal(text, out);
      return;
    }
  }
  // Unreachable: 17 digits identify the double, which is the value itself.
  // The hex pattern still reads back exactly.
  AppendHexBitPattern(bits, HexDigitsOf(format), out);
}

template <ElementType T>
void AppendElement(const ContainerT<T>& value, std::string& out) {
  if constexpr (IsBool(T)) {
    out += value != 0 ? "true" : "false";
  } else if constexpr (IsInteger(T)) {
    char buffer[24];
    using Wide = std::conditional_t<IsSignedInt(T), int64_t, uint64_t>;
    const std::to_chars_result result =
        std::to_chars(buffer, buffer + sizeof(buffer), static_cast<Wide>(value));
    out.append(buffer, result.ptr);
  } else if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    out += '(';
    AppendElement<kPart>(value.real(), out);
    out += ", ";
    AppendElement<kPart>(value.imag(), out);
    out += ')';
  } else if constexpr (T == ElementType::kF32 || T == ElementType::kF64) {
    AppendHostFloat(value, out);
  } else {
    AppendNarrowFloat<T>(value, out);
  }
}

void AppendLittleEndianHex(uint64_t bits, int bytes, std::string& out) {
  for (int i = 0; i < bytes; ++i) {
    const unsigned byte = (bits >> (8 * i)) & 0xFF;
    out += kHexDigits[byte >> 4];
    out += kHexDigits[byte & 0xF];
  }
}

template <ElementType T>
void AppendHexElement(const ContainerT<T>& value, std::string& out) {
  if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    AppendLittleEndianHex(FloatBits<kPart>(value.real()), kHexElementBytes<kPart>, out);
    AppendLittleEndianHex(FloatBits<kPart>(value.imag()), kHexElementBytes<kPart>, out);
  } else {
    AppendLittleEndianHex(RealElementBits<T>(value), kHexElementBytes<T>, out);
  }
}

// `"0x..."` with every element (a splat is written out in full, which keeps
// i1 data unambiguous). i1 is bit-packed as MLIR stores it.
template <ElementType T>
void AppendHexBody(std::span<const ContainerT<T>> values, std::string& out) {
  out += "\"0x";
  if constexpr (IsBool(T)) {
    for (size_t first = 0; first < values.size(); first += 8) {
      unsigned byte = 0;
      for (size_t bit = 0; bit < 8 && first + bit < values.size(); ++bit) {
        if (values[first + bit] != 0) byte |= 1u << bit;
      }
      AppendLittleEndianHex(byte, 1, out);
    }
  } else {
    for (const ContainerT<T>& value : values) AppendHexElement<T>(value, out);
  }
  out += '"';
}

// Nested lists in row-major order.
template <ElementType T>
class ListPrinter {
 public:
  ListPrinter(const Shape& shape, std::span<const ContainerT<T>> values, std::string& out)
      : shape_(shape), values_(values), out_(out) {}

  void AppendList(size_t dimension) {
    const bool innermost = dimension + 1 == shape_.size();
    out_ += '[';
    for (int64_t i = 0; i < shape_[dimension]; ++i) {
      if (i > 0) out_ += ", ";
      if (innermost) {
        AppendElement<T>(values_[next_++], out_);
      } else {
        AppendList(dimension + 1);
      }
    }
    out_ += ']';
  }

 private:
  const Shape& shape_;
  std::span<const ContainerT<T>> values_;
  std::string& out_;
  size_t next_ = 0;
};

// All elements have the same bytes: the storage equals itself shifted by
// one element.
bool AllElementsBitwiseEqual(const Tensor& tensor) {
  const std::span<const std::byte> bytes = tensor.bytes();
  const size_t width = static_cast<size_t>(ContainerBytes(tensor.element_type()));
  if (bytes.size() <= width) return true;
  return std::memcmp(bytes.data() + width, bytes.data(), bytes.size() - width) == 0;
}

}  // namespace

std::string PrintDenseBody(const Tensor& tensor, LiteralForm form) {
  std::string out = "dense<";
  DispatchElementType(tensor.element_type(), [&]<ElementType T>() {
    const std::span<const ContainerT<T>> values = tensor.values<T>();
    if (form == LiteralForm::kHex) {
      out.reserve(out.size() + 4 + 2 * tensor.bytes().size());
      AppendHexBody<T>(values, out);
      return;
    }
    if (values.empty()) return;  // MLIR writes any zero-element tensor as dense<>.
    const bool splat =
        form == LiteralForm::kAuto && values.size() >= 2 && AllElementsBitwiseEqual(tensor);
    if (tensor.rank() == 0 || splat) {
      AppendElement<T>(values[0], out);
      return;
    }
    // A rough guess that saves most reallocations of large literals.
    out.reserve(out.size() + values.size() * (IsComplex(T) ? 24 : 12));
    ListPrinter<T>(tensor.shape(), values, out).AppendList(0);
  });
  out += '>';
  return out;
}

std::string PrintDenseAttribute(const Tensor& tensor, LiteralForm form) {
  std::string out = PrintDenseBody(tensor, form);
  out += " : ";
  out += tensor.type().ToString();
  return out;
}

std::string PrintElementLiteral(ElementType type, const void* element) {
  std::string out;
  DispatchElementType(type, [&]<ElementType T>() {
    ContainerT<T> value;
    std::memcpy(&value, element, sizeof(value));
    AppendElement<T>(value, out);
  });
  return out;
}

}  // namespace hlocheck
