#include "spec/formula/value.h"

#include <charconv>
#include <cmath>

namespace hlocheck::spec {

std::string TypeValue::ToString() const {
  switch (kind) {
    case Kind::kTensor:
      return tensor.ToString();
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

bool ListValue::operator==(const ListValue& other) const { return items == other.items; }

Value Value::IntList(const std::vector<int64_t>& values) {
  std::vector<Value> items;
  items.reserve(values.size());
  for (int64_t v : values) items.emplace_back(v);
  return Value(std::move(items));
}

Value Value::FromAttribute(const Attribute& attribute) {
  return std::visit(
      [](const auto& v) -> Value {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          return IntList(v);
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          std::vector<Value> items;
          for (bool b : v) items.emplace_back(b);
          return Value(std::move(items));
        } else if constexpr (std::is_same_v<T, std::vector<EnumValue>>) {
          std::vector<Value> items;
          for (const EnumValue& e : v) items.emplace_back(e);
          return Value(std::move(items));
        } else if constexpr (std::is_same_v<T, Tensor>) {
          // A tensor constant is known in full, but constraints only look at its type.
          return TensorTypeValue(v.type());
        } else {
          return Value(v);
        }
      },
      attribute);
}

double Value::ToDouble() const {
  if (is_int()) return static_cast<double>(as_int());
  if (is_float()) return as_float();
  if (is_bool()) return as_bool() ? 1.0 : 0.0;
  return std::nan("");
}

bool Value::Holds() const {
  if (is_bool()) return as_bool();
  if (is_list()) {
    for (const Value& item : items()) {
      if (!item.Holds()) return false;
    }
    return true;
  }
  if (is_int()) return as_int() != 0;
  if (is_float()) return as_float() != 0;
  return false;
}

bool Value::operator==(const Value& other) const {
  if (is_number() && other.is_number() && !is_bool() && !other.is_bool()) {
    if (is_int() && other.is_int()) return as_int() == other.as_int();
    return ToDouble() == other.ToDouble();
  }
  return storage_ == other.storage_;
}

std::string Value::ToString() const {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, NoneValue>) {
          return "None";
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, double>) {
          char buffer[64];
          auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), v);
          return std::string(buffer, end);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return "\"" + v + "\"";
        } else if constexpr (std::is_same_v<T, EnumValue>) {
          return v.name;
        } else if constexpr (std::is_same_v<T, ListValue>) {
          std::string text = "[";
          for (size_t i = 0; i < v.items.size(); ++i) {
            if (i > 0) text += ", ";
            text += v.items[i].ToString();
          }
          return text + "]";
        } else if constexpr (std::is_same_v<T, TypeValue>) {
          return v.ToString();
        } else {
          return std::string(Name(v));
        }
      },
      storage_);
}

}  // namespace hlocheck::spec
