#include "core/case.h"

#include <charconv>
#include <string>
#include <type_traits>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/literal.h"

namespace hlocheck {
namespace {

std::string DoubleToString(double value) {
  char buffer[64];
  // Without a precision, to_chars gives the shortest text that round-trips.
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, result.ptr);
  // "2" would read as an integer attribute; "inf" and "nan" are fine as is.
  if (text.find_first_of(".ein") == std::string::npos) text += ".0";
  return text;
}

template <typename T, typename Format>
std::string ListToString(const std::vector<T>& values, Format format) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += format(values[i]);
  }
  text += ']';
  return text;
}

}  // namespace

std::string AttributeToString(const Attribute& attribute) {
  return std::visit(
      [](const auto& value) -> std::string {
        using V = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<V, bool>) {
          return value ? "true" : "false";
        } else if constexpr (std::is_same_v<V, int64_t>) {
          return std::to_string(value);
        } else if constexpr (std::is_same_v<V, double>) {
          return DoubleToString(value);
        } else if constexpr (std::is_same_v<V, std::string>) {
          // StrCat rather than operator+: g++ 12 warns falsely (-Wrestrict, PR105651) on
          // a literal + std::string&& at -O3.
          return absl::StrCat("\"", absl::CEscape(value), "\"");
        } else if constexpr (std::is_same_v<V, EnumValue>) {
          return value.name;
        } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
          return ListToString(value, [](int64_t v) { return std::to_string(v); });
        } else if constexpr (std::is_same_v<V, std::vector<bool>>) {
          return ListToString(value, [](bool v) { return std::string(v ? "true" : "false"); });
        } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
          return ListToString(value, [](const std::string& v) {
            return absl::StrCat("\"", absl::CEscape(v), "\"");
          });
        } else if constexpr (std::is_same_v<V, std::vector<EnumValue>>) {
          return ListToString(value, [](const EnumValue& v) { return v.name; });
        } else {
          static_assert(std::is_same_v<V, Tensor>);
          return PrintDenseAttribute(value);
        }
      },
      attribute);
}

}  // namespace hlocheck
