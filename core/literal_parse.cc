// Parsing of StableHLO dense literals and tensor types (core/literal.h).
#include <algorithm>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "core/literal.h"
#include "core/literal_internal.h"
#include "core/status_macros.h"
#include "core/types.h"

namespace hlocheck {
namespace {

using literal_internal::IsUnsignedDecimalSyntax;
using literal_internal::kHexElementBytes;
using literal_internal::RealElementFromBits;
using literal_internal::RoundDecimalToFloatBits;

// A literal that needs more memory than this is rejected rather than
// allocated: a splat or hex splat can describe any size in a few bytes.
constexpr int64_t kMaxLiteralBytes = int64_t{1} << 32;

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int HexDigitValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}
// The characters of one scalar token: numbers, keywords, hex patterns.
bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) || c == '_' || c == '.' ||
         c == '+' || c == '-';
}
bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (x != b[i]) return false;
  }
  return true;
}
std::string_view TrimWhitespace(std::string_view text) {
  while (!text.empty() && IsWhitespace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsWhitespace(text.back())) text.remove_suffix(1);
  return text;
}
bool IsHexPrefixed(std::string_view text) {
  return text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
}

// Accumulates digits into 64 bits; false when the number needs more.
bool ParseMagnitude(std::string_view digits, int base, uint64_t* out) {
  uint64_t value = 0;
  for (char c : digits) {
    const uint64_t digit = static_cast<uint64_t>(base == 16 ? HexDigitValue(c) : c - '0');
    if (value > (~uint64_t{0} - digit) / static_cast<uint64_t>(base)) return false;
    value = value * static_cast<uint64_t>(base) + digit;
  }
  *out = value;
  return true;
}
bool AllOf(std::string_view text, bool (*predicate)(char)) {
  return std::all_of(text.begin(), text.end(), predicate);
}

// A read position in a literal. Error positions refer to the whole `text`,
// of which [begin, end) is being parsed.
class Cursor {
 public:
  Cursor(std::string_view text, size_t begin, size_t end) : text_(text), pos_(begin), end_(end) {}
  explicit Cursor(std::string_view text) : Cursor(text, 0, text.size()) {}

  size_t position() const { return pos_; }
  bool AtEnd() const { return pos_ >= end_; }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  void Advance() { ++pos_; }
  void SkipWhitespace() {
    while (!AtEnd() && IsWhitespace(text_[pos_])) ++pos_;
  }
  // Skips whitespace, then consumes `c` if it is next.
  bool Consume(char c) {
    SkipWhitespace();
    if (AtEnd() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  std::string_view ReadWord() {
    const size_t start = pos_;
    while (!AtEnd() && IsWordChar(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  // Text from `start` up to the current position.
  std::string_view Since(size_t start) const { return text_.substr(start, pos_ - start); }

  // What stands at `position`, for "found ..." in messages.
  std::string DescribeAt(size_t position) const {
    if (position >= end_) return "the end of the literal";
    const char c = text_[position];
    if (c == '\n' || c == '\r') return "a line break";
    if (!IsWordChar(c)) return std::string("'") + c + "'";
    size_t stop = position;
    while (stop < end_ && IsWordChar(text_[stop])) ++stop;
    constexpr size_t kMaxShown = 32;
    std::string word(text_.substr(position, std::min(stop - position, kMaxShown)));
    if (stop - position > kMaxShown) word += "...";
    return "'" + word + "'";
  }
  std::string DescribeNext() const { return DescribeAt(pos_); }

  // "column C" on a single-line text, "line L, column C" past a line break.
  absl::Status ErrorAt(size_t position, const std::string& message) const {
    size_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < position && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    std::string where = "column " + std::to_string(position - line_start + 1);
    if (line > 1) where = "line " + std::to_string(line) + ", " + where;
    return absl::InvalidArgumentError(where + ": " + message);
  }
  absl::Status Error(const std::string& message) const { return ErrorAt(pos_, message); }

 private:
  std::string_view text_;
  size_t pos_;
  size_t end_;
};

std::string TypeName(ElementType type) { return std::string(Name(type)); }

absl::Status ExpectedLiteral(const Cursor& cursor, size_t position, ElementType type) {
  return cursor.ErrorAt(
      position, "expected a " + TypeName(type) + " literal, found " + cursor.DescribeAt(position));
}

// Splits an optional leading sign off a token.
struct SignedToken {
  bool has_sign;
  bool negative;
  std::string_view unsigned_part;
};
SignedToken SplitSign(std::string_view word) {
  const bool has_sign = !word.empty() && (word[0] == '-' || word[0] == '+');
  return {has_sign, has_sign && word[0] == '-', word.substr(has_sign ? 1 : 0)};
}

// Integers and i1: decimal values (range-checked) or hex bit patterns of the
// type's width; i1 also takes true/false.
template <ElementType T>
absl::Status ReadInteger(Cursor& cursor, ContainerT<T>* out) {
  using C = ContainerT<T>;
  constexpr int kBits = BitWidth(T);
  cursor.SkipWhitespace();
  const size_t start = cursor.position();
  const std::string_view word = cursor.ReadWord();
  if constexpr (IsBool(T)) {
    if (word == "true" || word == "false") {
      *out = word == "true" ? 1 : 0;
      return absl::OkStatus();
    }
  }
  const SignedToken token = SplitSign(word);
  const bool hex = IsHexPrefixed(token.unsigned_part);
  const std::string_view digits = token.unsigned_part.substr(hex ? 2 : 0);
  if (digits.empty() || !AllOf(digits, hex ? IsHexDigit : IsDigit)) {
    return ExpectedLiteral(cursor, start, T);
  }
  // Built only on failure: parsing large integer tensors stays allocation-free.
  const auto out_of_range = [&] {
    return cursor.ErrorAt(start, std::string(word) + " is out of range for " + TypeName(T) + " [" +
                                     std::to_string(IntegerMin(T)) + ", " +
                                     std::to_string(IntegerMaxUnsigned(T)) + "]");
  };
  uint64_t magnitude = 0;
  if (!ParseMagnitude(digits, hex ? 16 : 10, &magnitude)) return out_of_range();
  if (hex && !token.has_sign) {
    // A bit pattern: 0xFF is -1 in si8.
    if (literal_internal::LowBits(magnitude, kBits) != magnitude) {
      return cursor.ErrorAt(start, std::string(word) + " does not fit in the " +
                                       std::to_string(kBits) + " bits of " + TypeName(T));
    }
    *out = RealElementFromBits<T>(magnitude);
    return absl::OkStatus();
  }
  if (token.negative) {
    const uint64_t min_magnitude = uint64_t{0} - static_cast<uint64_t>(IntegerMin(T));
    if (magnitude > min_magnitude) return out_of_range();
    *out = static_cast<C>(static_cast<int64_t>(uint64_t{0} - magnitude));
    return absl::OkStatus();
  }
  if (magnitude > IntegerMaxUnsigned(T)) return out_of_range();
  *out = static_cast<C>(magnitude);
  return absl::OkStatus();
}

// Real floats: decimals rounded once, nan/inf keywords, hex bit patterns.
template <ElementType T>
absl::Status ReadFloat(Cursor& cursor, ContainerT<T>* out) {
  const FloatFormat& format = Format(T);
  cursor.SkipWhitespace();
  const size_t start = cursor.position();
  const std::string_view word = cursor.ReadWord();
  const SignedToken token = SplitSign(word);
  const std::string_view body = token.unsigned_part;
  if (IsHexPrefixed(body)) {
    const std::string_view digits = body.substr(2);
    if (digits.empty() || !AllOf(digits, IsHexDigit)) return ExpectedLiteral(cursor, start, T);
    if (token.has_sign) {
      return cursor.ErrorAt(start,
                            "a hex float literal is the bit pattern and takes no sign: "
                            "set the sign bit instead of writing " +
                                std::string(word));
    }
    uint64_t bits = 0;
    if (!ParseMagnitude(digits, 16, &bits) ||
        (format.total_bits() < 64 && (bits >> format.total_bits()) != 0)) {
      return cursor.ErrorAt(start, std::string(word) + " does not fit in the " +
                                       std::to_string(format.total_bits()) + " bits of " +
                                       TypeName(T));
    }
    *out = FloatFromBits<T>(bits);
    return absl::OkStatus();
  }
  if (EqualsIgnoringCase(body, "nan")) {
    if (!format.has_nan()) {
      return cursor.ErrorAt(start, TypeName(T) + " has no NaN: " + std::string(word));
    }
    *out = FloatFromBits<T>(EncodeFloat(format, ExactValue::NaN(token.negative)));
    return absl::OkStatus();
  }
  if (EqualsIgnoringCase(body, "inf") || EqualsIgnoringCase(body, "infinity")) {
    if (!format.has_infinity) {
      return cursor.ErrorAt(start, TypeName(T) + " has no infinity: " + std::string(word));
    }
    *out = FloatFromBits<T>(EncodeFloat(format, ExactValue::Infinity(token.negative)));
    return absl::OkStatus();
  }
  if (!IsUnsignedDecimalSyntax(body)) return ExpectedLiteral(cursor, start, T);
  *out = FloatFromBits<T>(RoundDecimalToFloatBits(T, body, token.negative));
  return absl::OkStatus();
}

// Complex: `(re, im)`, each part a literal of the part type.
template <ElementType T>
absl::Status ReadComplex(Cursor& cursor, ContainerT<T>* out) {
  constexpr ElementType kPart = ComponentType(T);
  const auto form = [] { return "a " + TypeName(T) + " literal (re, im)"; };
  if (!cursor.Consume('(')) {
    return cursor.Error("expected '(' opening " + form() + ", found " + cursor.DescribeNext());
  }
  ContainerT<kPart> real;
  ContainerT<kPart> imaginary;
  HLOCHECK_RETURN_IF_ERROR(ReadFloat<kPart>(cursor, &real));
  if (!cursor.Consume(',')) {
    return cursor.Error("expected ',' between the parts of " + form() + ", found " +
                        cursor.DescribeNext());
  }
  HLOCHECK_RETURN_IF_ERROR(ReadFloat<kPart>(cursor, &imaginary));
  if (!cursor.Consume(')')) {
    return cursor.Error("expected ')' closing " + form() + ", found " + cursor.DescribeNext());
  }
  *out = ContainerT<T>(real, imaginary);
  return absl::OkStatus();
}

template <ElementType T>
absl::Status ReadElement(Cursor& cursor, ContainerT<T>* out) {
  if constexpr (IsComplex(T)) {
    return ReadComplex<T>(cursor, out);
  } else if constexpr (IsFloat(T)) {
    return ReadFloat<T>(cursor, out);
  } else {
    return ReadInteger<T>(cursor, out);
  }
}

// Nested lists, filling the tensor in row-major order. Every list's length
// is checked as soon as it closes, so writes never pass the tensor's end.
template <ElementType T>
class ListParser {
 public:
  ListParser(Cursor& cursor, const TensorType& type, ContainerT<T>* out)
      : cursor_(cursor), type_(type), out_(out) {}

  // The cursor is at the '[' of the list for `dimension`.
  absl::Status ParseList(size_t dimension) {
    const size_t open = cursor_.position();
    cursor_.Advance();
    const int64_t expected = type_.shape[dimension];
    const bool innermost = dimension + 1 == type_.shape.size();
    int64_t found = 0;
    if (!cursor_.Consume(']')) {
      while (true) {
        // An element past the expected count is still checked, so that a
        // malformed one (or a trailing comma) gets its own message.
        const bool excess = found == expected;
        cursor_.SkipWhitespace();
        absl::Status status;
        if (innermost) {
          if (cursor_.Peek() == '[') {
            return cursor_.Error("expected a " + TypeName(T) +
                                 " literal, found '[': the list nests deeper than the rank " +
                                 std::to_string(type_.rank()) + " of " + type_.ToString());
          }
          ContainerT<T> excess_value;
          status = ReadElement<T>(cursor_, excess ? &excess_value : out_ + next_++);
        } else {
          if (cursor_.Peek() != '[') {
            return cursor_.Error("expected '[' opening a list for dimension " +
                                 std::to_string(dimension + 1) + " of " + type_.ToString() +
                                 ", found " + cursor_.DescribeNext());
          }
          if (excess) {
            if (!SkipElement()) return CountError(open, dimension, "more");
            return TooManyElements(open, dimension);
          }
          status = ParseList(dimension + 1);
        }
        HLOCHECK_RETURN_IF_ERROR(status);
        if (excess) return TooManyElements(open, dimension);
        ++found;
        if (cursor_.Consume(',')) continue;
        if (cursor_.Consume(']')) break;
        return cursor_.Error("expected ',' or ']', found " + cursor_.DescribeNext());
      }
    }
    if (found != expected) return CountError(open, dimension, std::to_string(found));
    return absl::OkStatus();
  }

 private:
  absl::Status CountError(size_t open, size_t dimension, const std::string& found) const {
    return cursor_.ErrorAt(open, "expected " + std::to_string(type_.shape[dimension]) +
                                     " elements in dimension " + std::to_string(dimension) +
                                     ", found " + found);
  }

  // Counts the rest of an over-long list, whose first element too many has
  // just been read, so that the message can say how long the list is.
  absl::Status TooManyElements(size_t open, size_t dimension) {
    int64_t found = type_.shape[dimension] + 1;
    while (true) {
      if (cursor_.Consume(',')) {
        if (!SkipElement()) break;
        ++found;
        continue;
      }
      if (cursor_.Consume(']')) return CountError(open, dimension, std::to_string(found));
      break;
    }
    return CountError(open, dimension, "more");
  }

  // Skips one element or sub-list without interpreting it.
  bool SkipElement() {
    cursor_.SkipWhitespace();
    const char first = cursor_.Peek();
    if (first != '[' && first != '(') return !cursor_.ReadWord().empty();
    int depth = 0;
    while (!cursor_.AtEnd()) {
      const char c = cursor_.Peek();
      cursor_.Advance();
      if (c == '[' || c == '(') ++depth;
      if ((c == ']' || c == ')') && --depth == 0) return true;
    }
    return false;
  }

  Cursor& cursor_;
  const TensorType& type_;
  ContainerT<T>* out_;
  int64_t next_ = 0;
};

uint64_t ReadLittleEndian(const uint8_t* bytes, int count) {
  uint64_t value = 0;
  for (int i = count - 1; i >= 0; --i) value = (value << 8) | bytes[i];
  return value;
}

template <ElementType T>
ContainerT<T> ElementFromHexBytes(const uint8_t* bytes) {
  if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    constexpr int kPartBytes = kHexElementBytes<kPart>;
    return ContainerT<T>(FloatFromBits<kPart>(ReadLittleEndian(bytes, kPartBytes)),
                         FloatFromBits<kPart>(ReadLittleEndian(bytes + kPartBytes, kPartBytes)));
  } else {
    return RealElementFromBits<T>(ReadLittleEndian(bytes, kHexElementBytes<T>));
  }
}

// i1 hex data: bit-packed (element i is bit i % 8 of byte i / 8), one byte
// per element, or a single byte 0x00 / 0x01 / 0xFF for a splat.
absl::Status FillBoolsFromHex(const Cursor& cursor, size_t open, const std::vector<uint8_t>& bytes,
                              Tensor& tensor) {
  std::span<uint8_t> values = tensor.values<ElementType::kI1>();
  const int64_t count = tensor.num_elements();
  const int64_t size = static_cast<int64_t>(bytes.size());
  if (size == (count + 7) / 8) {
    for (int64_t i = 0; i < count; ++i) values[i] = (bytes[i / 8] >> (i % 8)) & 1;
  } else if (size == count && count > 1) {
    for (int64_t i = 0; i < count; ++i) values[i] = bytes[i] != 0 ? 1 : 0;
  } else if (size == 1 && (bytes[0] == 0x00 || bytes[0] == 0x01 || bytes[0] == 0xFF)) {
    std::fill(values.begin(), values.end(), bytes[0] != 0 ? 1 : 0);
  } else {
    return cursor.ErrorAt(open, "hex data of " + std::to_string(size) + " bytes does not fit " +
                                    tensor.type().ToString() + ": i1 data takes " +
                                    std::to_string((count + 7) / 8) +
                                    " bytes bit-packed, one byte per element, or one byte "
                                    "0x00/0x01/0xFF for a splat");
  }
  return absl::OkStatus();
}

// `"0x..."`: raw little-endian element data, or one element for a splat.
absl::Status ParseHexBody(Cursor& cursor, Tensor& tensor) {
  const size_t open = cursor.position();
  cursor.Advance();
  const size_t start = cursor.position();
  while (!cursor.AtEnd() && cursor.Peek() != '"') cursor.Advance();
  if (cursor.AtEnd()) return cursor.ErrorAt(open, "unterminated hex string");
  const std::string_view content = cursor.Since(start);
  cursor.Advance();
  if (!IsHexPrefixed(content)) {
    return cursor.ErrorAt(start, "a quoted dense literal must be hex data \"0x...\"");
  }
  const std::string_view digits = content.substr(2);
  for (size_t i = 0; i < digits.size(); ++i) {
    if (!IsHexDigit(digits[i])) {
      return cursor.ErrorAt(start + 2 + i, std::string("invalid hex digit '") + digits[i] + "'");
    }
  }
  if (digits.size() % 2 != 0) {
    return cursor.ErrorAt(start, "hex data has an odd number of digits");
  }
  std::vector<uint8_t> bytes(digits.size() / 2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] =
        static_cast<uint8_t>(HexDigitValue(digits[2 * i]) * 16 + HexDigitValue(digits[2 * i + 1]));
  }
  return DispatchElementType(tensor.element_type(), [&]<ElementType T>() -> absl::Status {
    if constexpr (IsBool(T)) {
      return FillBoolsFromHex(cursor, open, bytes, tensor);
    } else {
      constexpr int64_t kWidth = kHexElementBytes<T>;
      std::span<ContainerT<T>> values = tensor.values<T>();
      const int64_t count = tensor.num_elements();
      const int64_t size = static_cast<int64_t>(bytes.size());
      if (size == count * kWidth) {
        for (int64_t i = 0; i < count; ++i) values[i] = ElementFromHexBytes<T>(&bytes[i * kWidth]);
      } else if (size == kWidth) {
        std::fill(values.begin(), values.end(), ElementFromHexBytes<T>(bytes.data()));
      } else {
        return cursor.ErrorAt(open, "hex data of " + std::to_string(size) + " bytes does not fit " +
                                        tensor.type().ToString() + ", which takes " +
                                        std::to_string(count * kWidth) + " bytes (" +
                                        std::to_string(kWidth) + " per element), or " +
                                        std::to_string(kWidth) + " for a splat");
      }
      return absl::OkStatus();
    }
  });
}

// Rejects shapes no tensor can have before anything is allocated.
absl::Status CheckLiteralSize(const TensorType& type) {
  int64_t bytes = ContainerBytes(type.element_type);
  for (int64_t dimension : type.shape) {
    if (dimension < 0) {
      return absl::InvalidArgumentError(type.ToString() + " has a negative dimension");
    }
    if (__builtin_mul_overflow(bytes, dimension, &bytes) || bytes > kMaxLiteralBytes) {
      return absl::InvalidArgumentError(type.ToString() + " is too large for a literal (over " +
                                        std::to_string(kMaxLiteralBytes) + " bytes)");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Tensor> ParseBody(Cursor& cursor, const TensorType& type) {
  HLOCHECK_RETURN_IF_ERROR(CheckLiteralSize(type));
  Tensor tensor(type);
  cursor.SkipWhitespace();
  if (cursor.AtEnd()) {
    if (tensor.num_elements() == 0) return tensor;
    return cursor.Error("empty literal for " + type.ToString() + ", which has " +
                        std::to_string(tensor.num_elements()) +
                        " elements (only a zero-element tensor is written dense<>)");
  }
  absl::Status status;
  if (cursor.Peek() == '"') {
    status = ParseHexBody(cursor, tensor);
  } else {
    status = DispatchElementType(type.element_type, [&]<ElementType T>() -> absl::Status {
      std::span<ContainerT<T>> values = tensor.values<T>();
      if (cursor.Peek() == '[') {
        if (type.rank() == 0) {
          return cursor.Error("a rank-0 tensor takes a single value, not a list");
        }
        return ListParser<T>(cursor, type, values.data()).ParseList(0);
      }
      // A single value fills the whole tensor.
      ContainerT<T> value;
      HLOCHECK_RETURN_IF_ERROR(ReadElement<T>(cursor, &value));
      std::fill(values.begin(), values.end(), value);
      return absl::OkStatus();
    });
  }
  HLOCHECK_RETURN_IF_ERROR(status);
  cursor.SkipWhitespace();
  if (!cursor.AtEnd()) {
    return cursor.Error("unexpected " + cursor.DescribeNext() + " after the literal");
  }
  return tensor;
}

}  // namespace

absl::StatusOr<TensorType> ParseTensorType(std::string_view text) {
  absl::StatusOr<ValueType> type = ParseValueType(text);
  HLOCHECK_RETURN_IF_ERROR(type.status());
  if (!type->is_tensor()) {
    return absl::InvalidArgumentError("expected a tensor type like tensor<2x3xf32>, found '" +
                                      std::string(TrimWhitespace(text)) + "'");
  }
  return type->tensor();
}

absl::StatusOr<Tensor> ParseDenseBody(std::string_view body, const TensorType& type) {
  Cursor cursor(body);
  return ParseBody(cursor, type);
}

absl::StatusOr<Tensor> ParseDenseAttribute(std::string_view text) {
  Cursor cursor(text);
  cursor.SkipWhitespace();
  constexpr std::string_view kOpen = "dense<";
  const size_t open = cursor.position();
  if (!text.substr(open).starts_with(kOpen)) {
    return cursor.Error("expected 'dense<', found " + cursor.DescribeNext());
  }
  const size_t body_begin = open + kOpen.size();
  // Outside its hex string, the body holds no '>', and no ':' or '<'
  // either: meeting those first means the '>' is missing.
  size_t body_end = body_begin;
  bool in_string = false;
  while (body_end < text.size() &&
         (in_string || (text[body_end] != '>' && text[body_end] != ':' && text[body_end] != '<'))) {
    if (text[body_end] == '"') in_string = !in_string;
    ++body_end;
  }
  if (body_end == text.size() || text[body_end] != '>') {
    return cursor.ErrorAt(open, "'dense<' is never closed by '>'");
  }
  Cursor after(text, body_end + 1, text.size());
  if (!after.Consume(':')) {
    return after.Error("expected ': tensor<...>' after the dense literal, found " +
                       after.DescribeNext());
  }
  after.SkipWhitespace();
  absl::StatusOr<TensorType> type = ParseTensorType(text.substr(after.position()));
  if (!type.ok()) {
    return after.Error(std::string(type.status().message()));
  }
  Cursor body(text, body_begin, body_end);
  return ParseBody(body, *type);
}

absl::Status ParseElementLiteral(std::string_view text, ElementType type, void* out) {
  Cursor cursor(text);
  return DispatchElementType(type, [&]<ElementType T>() -> absl::Status {
    ContainerT<T> value;
    HLOCHECK_RETURN_IF_ERROR(ReadElement<T>(cursor, &value));
    cursor.SkipWhitespace();
    if (!cursor.AtEnd()) {
      return cursor.Error("unexpected " + cursor.DescribeNext() + " after the literal");
    }
    std::memcpy(out, &value, sizeof(value));
    return absl::OkStatus();
  });
}

}  // namespace hlocheck
