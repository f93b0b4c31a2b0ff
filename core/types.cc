#include "core/types.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/literal.h"
#include "core/status_macros.h"
#include "core/tensor.h"

namespace hlocheck {
namespace {

// A scale as the shortest literal of its expressed type ("0.1" for f32's
// nearest value to 0.1, not that value's 17 decimal digits).
std::string ScaleText(double scale, ElementType expressed) {
  alignas(16) unsigned char element[16] = {};
  ConvertElement(ElementType::kF64, &scale, expressed, element);
  return PrintElementLiteral(expressed, element);
}

// MLIR's quant dialect spells signed storage iN and unsigned uN.
std::string StorageName(ElementType storage) {
  std::string name(MlirName(storage));
  if (IsUnsignedInt(storage)) name = "u" + name.substr(2);
  return name;
}

class TypeParser {
 public:
  explicit TypeParser(std::string_view text) : text_(text) {}

  absl::StatusOr<ValueType> ParseValueType() {
    SkipSpace();
    if (Accept("!stablehlo.token") || AcceptWord("token")) return ValueType::Token();
    if (Accept("tuple<")) {
      std::vector<ValueType> elements;
      SkipSpace();
      if (!Accept(">")) {
        while (true) {
          auto element = ParseValueType();
          if (!element.ok()) return element;
          elements.push_back(*std::move(element));
          SkipSpace();
          if (Accept(">")) break;
          if (!Accept(",")) return Expected("',' or '>' in a tuple type");
        }
      }
      return ValueType::Tuple(std::move(elements));
    }
    if (!Accept("tensor<")) return Expected("a type (tensor<...>, !stablehlo.token or tuple<...>)");
    ValueType type;
    // Dimensions: digits followed by 'x'.
    while (position_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[position_]))) {
      size_t start = position_;
      while (position_ < text_.size() &&
             std::isdigit(static_cast<unsigned char>(text_[position_]))) {
        ++position_;
      }
      int64_t dimension = 0;
      auto [ptr, ec] = std::from_chars(text_.data() + start, text_.data() + position_, dimension);
      if (ec != std::errc()) return Error(start, "dimension too large");
      if (!Accept("x")) return Expected("'x' after a dimension");
      type.shape.push_back(dimension);
    }
    if (Peek() == '?') return Error(position_, "dynamic dimensions are not supported");
    auto element = ParseElement();
    if (!element.ok()) return element;
    type.element_type = element->element_type;
    type.quantization = element->quantization;
    if (!Accept(">")) return Expected("'>' closing the tensor type");
    int64_t elements = 1;
    for (int64_t d : type.shape) {
      if (__builtin_mul_overflow(elements, d, &elements)) {
        return Error(position_, "too many elements in the tensor type");
      }
    }
    return type;
  }

  // A builtin element type or !quant.uniform<...>, as a rank-0 tensor type.
  absl::StatusOr<ValueType> ParseElement() {
    SkipSpace();
    ValueType type;
    if (Accept("!quant.uniform<")) return ParseQuantized();
    size_t start = position_;
    // complex<f32> contains '<' '>'; other names are letters and digits.
    if (text_.substr(position_).starts_with("complex<")) {
      size_t close = text_.find('>', position_);
      if (close == std::string_view::npos) return Expected("'>' closing complex<...>");
      position_ = close + 1;
    } else {
      while (position_ < text_.size() &&
             std::isalnum(static_cast<unsigned char>(text_[position_]))) {
        ++position_;
      }
    }
    std::string_view name = text_.substr(start, position_ - start);
    if (name.empty()) return Error(start, "missing element type");
    auto parsed = ParseElementType(name);
    if (!parsed) {
      return Error(start, "unknown element type '" + std::string(name) + "'");
    }
    type.element_type = *parsed;
    return type;
  }

  absl::StatusOr<FunctionType> ParseFunctionType() {
    FunctionType function;
    SkipSpace();
    if (!Accept("(")) return Expected("'(' starting a function type");
    auto inputs = ParseTypeList(")");
    HLOCHECK_RETURN_IF_ERROR(inputs.status());
    function.inputs = *std::move(inputs);
    SkipSpace();
    if (!Accept("->")) return Expected("'->' in a function type");
    SkipSpace();
    if (Accept("(")) {
      auto outputs = ParseTypeList(")");
      HLOCHECK_RETURN_IF_ERROR(outputs.status());
      function.outputs = *std::move(outputs);
    } else {
      auto output = ParseValueType();
      HLOCHECK_RETURN_IF_ERROR(output.status());
      function.outputs.push_back(*std::move(output));
    }
    return function;
  }

  absl::Status Finish() {
    SkipSpace();
    if (position_ != text_.size()) return Expected("the end of the type");
    return absl::OkStatus();
  }

 private:
  absl::StatusOr<std::vector<ValueType>> ParseTypeList(std::string_view close) {
    std::vector<ValueType> types;
    SkipSpace();
    if (Accept(close)) return types;
    while (true) {
      auto type = ParseValueType();
      HLOCHECK_RETURN_IF_ERROR(type.status());
      types.push_back(*std::move(type));
      SkipSpace();
      if (Accept(close)) return types;
      if (!Accept(",")) return Expected("',' or '" + std::string(close) + "'");
    }
  }

  // After "!quant.uniform<".
  absl::StatusOr<ValueType> ParseQuantized() {
    ValueType type;
    UniformQuantization q;
    SkipSpace();
    size_t start = position_;
    while (position_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    }
    std::string name(text_.substr(start, position_ - start));
    if (name.size() > 1 && name[0] == 'u' && std::isdigit(static_cast<unsigned char>(name[1]))) {
      name = "ui" + name.substr(1);
    }
    auto storage = ParseElementType(name);
    if (!storage || !IsInteger(*storage)) {
      return Error(start, "expected an integer storage type (i8, u8, ...), found '" + name + "'");
    }
    type.element_type = *storage;
    q.storage_min = IntegerMin(*storage);
    q.storage_max =
        static_cast<int64_t>(std::min<uint64_t>(IntegerMaxUnsigned(*storage), INT64_MAX));
    if (Accept("<")) {
      auto min = ParseInteger();
      HLOCHECK_RETURN_IF_ERROR(min.status());
      if (!Accept(":")) return Expected("':' between storage_min and storage_max");
      auto max = ParseInteger();
      HLOCHECK_RETURN_IF_ERROR(max.status());
      if (!Accept(">")) return Expected("'>' after storage_max");
      q.storage_min = *min;
      q.storage_max = *max;
    }
    if (!Accept(":")) return Expected("':' before the expressed type");
    auto expressed = ParseElement();
    HLOCHECK_RETURN_IF_ERROR(expressed.status());
    if (expressed->quantization) return Error(position_, "a quantized expressed type");
    q.expressed_type = expressed->element_type;
    SkipSpace();
    if (Accept(":")) {
      auto dimension = ParseInteger();
      HLOCHECK_RETURN_IF_ERROR(dimension.status());
      q.quantization_dimension = *dimension;
    }
    SkipSpace();
    if (!Accept(",")) return Expected("',' before the quantization parameters");
    SkipSpace();
    bool braced = Accept("{");
    while (true) {
      auto scale = ParseScale(q.expressed_type);
      HLOCHECK_RETURN_IF_ERROR(scale.status());
      int64_t zero_point = 0;
      SkipSpace();
      if (Accept(":")) {
        auto parsed = ParseInteger();
        HLOCHECK_RETURN_IF_ERROR(parsed.status());
        zero_point = *parsed;
      }
      q.scales.push_back(*scale);
      q.zero_points.push_back(zero_point);
      SkipSpace();
      if (!braced || !Accept(",")) break;
    }
    if (braced && !Accept("}")) return Expected("'}' closing the quantization parameters");
    SkipSpace();
    if (!Accept(">")) return Expected("'>' closing !quant.uniform");
    type.quantization = std::move(q);
    return type;
  }

  absl::StatusOr<int64_t> ParseInteger() {
    SkipSpace();
    size_t start = position_;
    if (Peek() == '-' || Peek() == '+') ++position_;
    while (position_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    }
    int64_t value = 0;
    std::string_view digits = text_.substr(start, position_ - start);
    if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || ptr != digits.data() + digits.size()) {
      return Error(start, "expected an integer");
    }
    return value;
  }

  // A scale, rounded once to the expressed type (scales are constants of it).
  absl::StatusOr<double> ParseScale(ElementType expressed) {
    SkipSpace();
    size_t start = position_;
    while (position_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[position_])) || text_[position_] == '.' ||
            text_[position_] == '-' || text_[position_] == '+')) {
      ++position_;
    }
    std::string_view digits = text_.substr(start, position_ - start);
    double value = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc::result_out_of_range)
      value = digits.starts_with('-') ? -HUGE_VAL : HUGE_VAL;
    if ((ec != std::errc() && ec != std::errc::result_out_of_range) ||
        ptr != digits.data() + digits.size()) {
      return Error(start, "expected a scale (a float constant)");
    }
    if (!IsFloat(expressed)) return value;
    // from_chars gave the nearest double; the nearest value of a narrower
    // expressed type from it can differ from rounding the decimal directly
    // only on exact ties, which scales in practice never are.
    return DecodeFloat(Format(expressed),
                       EncodeFloat(Format(expressed), ExactValue::FromDouble(value)))
        .ToDouble();
  }

  char Peek() const { return position_ < text_.size() ? text_[position_] : '\0'; }
  void SkipSpace() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    }
  }
  bool Accept(std::string_view token) {
    if (text_.substr(position_).starts_with(token)) {
      position_ += token.size();
      return true;
    }
    return false;
  }
  // A keyword not followed by more of a name.
  bool AcceptWord(std::string_view word) {
    if (!text_.substr(position_).starts_with(word)) return false;
    size_t end = position_ + word.size();
    if (end < text_.size() &&
        (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '<')) {
      return false;
    }
    position_ = end;
    return true;
  }
  absl::Status Error(size_t at, const std::string& message) const {
    return absl::InvalidArgumentError(message + " (column " + std::to_string(at + 1) + " of '" +
                                      std::string(text_) + "')");
  }
  absl::Status Expected(const std::string& what) const {
    std::string found =
        position_ < text_.size() ? "'" + std::string(text_.substr(position_, 12)) + "'" : "the end";
    return Error(position_, "expected " + what + ", found " + found);
  }

  std::string_view text_;
  size_t position_ = 0;
};

}  // namespace

std::string QuantizedTypeToString(ElementType storage, const UniformQuantization& q) {
  std::string text = "!quant.uniform<" + StorageName(storage);
  bool default_range = q.storage_min == IntegerMin(storage) &&
                       static_cast<uint64_t>(q.storage_max) ==
                           std::min<uint64_t>(IntegerMaxUnsigned(storage), INT64_MAX);
  if (!default_range) {
    text += "<" + std::to_string(q.storage_min) + ":" + std::to_string(q.storage_max) + ">";
  }
  text += ":" + std::string(MlirName(q.expressed_type));
  if (q.quantization_dimension) text += ":" + std::to_string(*q.quantization_dimension);
  text += ", ";
  bool braced = q.quantization_dimension.has_value() || q.scales.size() != 1;
  if (braced) text += "{";
  for (size_t i = 0; i < q.scales.size(); ++i) {
    if (i > 0) text += ",";
    text += ScaleText(q.scales[i], q.expressed_type);
    int64_t zero_point = i < q.zero_points.size() ? q.zero_points[i] : 0;
    if (zero_point != 0 || braced) text += ":" + std::to_string(zero_point);
  }
  if (braced) text += "}";
  return text + ">";
}

ValueType ValueType::Of(const TensorType& tensor) {
  return {Kind::kTensor, tensor.shape, tensor.element_type, tensor.quantization, {}};
}

TensorType ValueType::tensor() const { return {shape, element_type, quantization}; }

std::string ValueType::ToString() const {
  switch (kind) {
    case Kind::kTensor:
      return tensor().ToString();
    case Kind::kToken:
      return "!stablehlo.token";
    case Kind::kTuple: {
      std::string text = "tuple<";
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) text += ", ";
        text += elements[i].ToString();
      }
      return text + ">";
    }
  }
  return "?";
}

std::string FunctionType::ToString() const {
  std::string text = "(";
  for (size_t i = 0; i < inputs.size(); ++i) text += (i ? ", " : "") + inputs[i].ToString();
  text += ") -> ";
  if (outputs.size() == 1 && !outputs[0].is_tensor()) return text + outputs[0].ToString();
  if (outputs.size() == 1) return text + outputs[0].ToString();
  text += "(";
  for (size_t i = 0; i < outputs.size(); ++i) text += (i ? ", " : "") + outputs[i].ToString();
  return text + ")";
}

absl::StatusOr<ValueType> ParseValueType(std::string_view text) {
  TypeParser parser(text);
  auto type = parser.ParseValueType();
  if (!type.ok()) return type;
  if (auto status = parser.Finish(); !status.ok()) return status;
  return type;
}

absl::StatusOr<FunctionType> ParseFunctionType(std::string_view text) {
  TypeParser parser(text);
  auto type = parser.ParseFunctionType();
  if (!type.ok()) return type;
  if (auto status = parser.Finish(); !status.ok()) return status;
  return type;
}

absl::StatusOr<ValueType> ParseElementTypeText(std::string_view text) {
  TypeParser parser(text);
  auto type = parser.ParseElement();
  if (!type.ok()) return type;
  if (auto status = parser.Finish(); !status.ok()) return status;
  return type;
}

}  // namespace hlocheck
