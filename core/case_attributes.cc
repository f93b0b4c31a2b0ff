#include "core/case_attributes.h"

#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace {

// What an attribute holds, in the words of the error messages.
std::string_view Holds(const Attribute& attribute) {
  static constexpr std::string_view kNames[] = {"a boolean",
                                                "an integer",
                                                "a float",
                                                "a string",
                                                "an enumerator",
                                                "a list of integers",
                                                "a list of booleans",
                                                "a list of enumerators",
                                                "a list of strings",
                                                "a tensor"};
  static_assert(std::variant_size_v<Attribute> == std::size(kNames));
  return kNames[attribute.index()];
}

absl::Status Missing(const Case& c, std::string_view name, std::string_view expected) {
  return absl::InvalidArgumentError(c.op + ": attribute " + std::string(name) +
                                    " is missing (expected " + std::string(expected) + ")");
}

absl::Status Mistyped(const Case& c, std::string_view name, const Attribute& attribute,
                      std::string_view expected) {
  return absl::InvalidArgumentError(c.op + ": attribute " + std::string(name) + " is " +
                                    std::string(Holds(attribute)) + ", not " +
                                    std::string(expected));
}

// The attribute as T, or null when it is missing; Mistyped when it holds
// something else.
template <typename T>
absl::StatusOr<const T*> Find(const Case& c, std::string_view name, std::string_view expected) {
  const Attribute* attribute = c.FindAttribute(std::string(name));
  if (attribute == nullptr) return nullptr;
  const T* value = std::get_if<T>(attribute);
  if (value == nullptr) return Mistyped(c, name, *attribute, expected);
  return value;
}

constexpr std::string_view kInteger = "an integer";
constexpr std::string_view kIntegers = "a list of integers";
constexpr std::string_view kBoolean = "a boolean";
constexpr std::string_view kEnumerator = "an enumerator";
constexpr std::string_view kTensor = "a tensor";

// An enumerator's name from an EnumValue or a string; null when missing.
absl::StatusOr<const std::string*> FindEnum(const Case& c, std::string_view name) {
  const Attribute* attribute = c.FindAttribute(std::string(name));
  if (attribute == nullptr) return nullptr;
  if (const auto* value = std::get_if<EnumValue>(attribute)) return &value->name;
  if (const auto* value = std::get_if<std::string>(attribute)) return value;
  return Mistyped(c, name, *attribute, kEnumerator);
}

}  // namespace

absl::StatusOr<int64_t> IntAttribute(const Case& c, std::string_view name) {
  absl::StatusOr<const int64_t*> value = Find<int64_t>(c, name, kInteger);
  HLOCHECK_RETURN_IF_ERROR(value.status());
  if (*value == nullptr) return Missing(c, name, kInteger);
  return **value;
}

absl::StatusOr<std::vector<int64_t>> IntListAttribute(const Case& c, std::string_view name) {
  absl::StatusOr<const std::vector<int64_t>*> value =
      Find<std::vector<int64_t>>(c, name, kIntegers);
  HLOCHECK_RETURN_IF_ERROR(value.status());
  if (*value == nullptr) return Missing(c, name, kIntegers);
  return **value;
}

absl::StatusOr<std::vector<int64_t>> IntListAttribute(const Case& c, std::string_view name,
                                                      std::vector<int64_t> missing) {
  absl::StatusOr<const std::vector<int64_t>*> value =
      Find<std::vector<int64_t>>(c, name, kIntegers);
  HLOCHECK_RETURN_IF_ERROR(value.status());
  if (*value == nullptr) return missing;
  return **value;
}

absl::StatusOr<std::vector<int64_t>> IntMatrixAttribute(const Case& c, std::string_view name,
                                                        int64_t rows, int64_t columns) {
  constexpr std::string_view kMatrix = "a 2-dimensional si64 tensor";
  absl::StatusOr<const Tensor*> value = Find<Tensor>(c, name, kMatrix);
  HLOCHECK_RETURN_IF_ERROR(value.status());
  if (*value == nullptr) return std::vector<int64_t>(static_cast<size_t>(rows * columns), 0);
  const Tensor& t = **value;
  if (t.element_type() != ElementType::kSI64 || t.shape() != Shape{rows, columns}) {
    return absl::InvalidArgumentError(c.op + ": attribute " + std::string(name) + " is " +
                                      t.type().ToString() + ", not tensor<" + std::to_string(rows) +
                                      "x" + std::to_string(columns) + "xi64>");
  }
  auto values = t.values<ElementType::kSI64>();
  return std::vector<int64_t>(values.begin(), values.end());
}

absl::StatusOr<bool> BoolAttribute(const Case& c, std::string_view name, bool missing) {
  absl::StatusOr<const bool*> value = Find<bool>(c, name, kBoolean);
  HLOCHECK_RETURN_IF_ERROR(value.status());
  if (*value == nullptr) return missing;
  return **value;
}

absl::StatusOr<std::string> EnumAttribute(const Case& c, std::string_view name) {
  absl::StatusOr<const std::string*> value = FindEnum(c, name);
  HLOCHECK_RETURN_IF_ERROR(value.status());
  if (*value == nullptr) return Missing(c, name, kEnumerator);
  return **value;
}

absl::StatusOr<std::string> EnumAttribute(const Case& c, std::string_view name,
                                          std::string_view missing) {
  absl::StatusOr<const std::string*> value = FindEnum(c, name);
  HLOCHECK_RETURN_IF_ERROR(value.status());
  if (*value == nullptr) return std::string(missing);
  return **value;
}

absl::StatusOr<const Tensor*> TensorAttribute(const Case& c, std::string_view name) {
  absl::StatusOr<const Tensor*> value = Find<Tensor>(c, name, kTensor);
  HLOCHECK_RETURN_IF_ERROR(value.status());
  if (*value == nullptr) return Missing(c, name, kTensor);
  return *value;
}

absl::StatusOr<ComparisonDirection> ComparisonDirectionAttribute(const Case& c,
                                                                 std::string_view name) {
  absl::StatusOr<std::string> value = EnumAttribute(c, name);
  HLOCHECK_RETURN_IF_ERROR(value.status());
  static constexpr std::pair<std::string_view, ComparisonDirection> kDirections[] = {
      {"EQ", ComparisonDirection::kEq}, {"NE", ComparisonDirection::kNe},
      {"GE", ComparisonDirection::kGe}, {"GT", ComparisonDirection::kGt},
      {"LE", ComparisonDirection::kLe}, {"LT", ComparisonDirection::kLt}};
  for (const auto& [spelling, direction] : kDirections) {
    if (*value == spelling) return direction;
  }
  return absl::InvalidArgumentError(c.op + ": attribute " + std::string(name) + " is " + *value +
                                    ", not one of EQ, NE, GE, GT, LE, LT");
}

}  // namespace hlocheck
