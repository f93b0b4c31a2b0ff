#include "spec/formula/value.h"

#include <charconv>
#include <cmath>
#include <functional>

#include "core/element_value.h"

namespace hlocheck::spec {

std::string ElementTypeValue::ToString() const {
  if (quantization) return QuantizedTypeToString(type, *quantization);
  return std::string(Name(type));
}

bool ListValue::operator==(const ListValue& other) const { return items == other.items; }

Value Value::IntList(const std::vector<int64_t>& values) {
  std::vector<Value> items;
  items.reserve(values.size());
  for (int64_t v : values) items.emplace_back(v);
  return Value(std::move(items));
}

namespace {

// One element of a tensor constant as a formula value.
template <ElementType T>
Value ElementValue(const ContainerT<T>& element) {
  if constexpr (IsBool(T)) {
    return Value(element != 0);
  } else if constexpr (IsInteger(T)) {
    if constexpr (T == ElementType::kUI64) {
      if (element > static_cast<uint64_t>(INT64_MAX)) return Value(static_cast<double>(element));
    }
    return Value(static_cast<int64_t>(element));
  } else if constexpr (IsComplex(T)) {
    return Value(std::vector<Value>{Value(static_cast<double>(element.real())),
                                    Value(static_cast<double>(element.imag()))});
  } else {
    return Value(ToDouble<T>(element));
  }
}

}  // namespace

Value Value::FromTensor(const Tensor& tensor) {
  return DispatchElementType(tensor.element_type(), [&]<ElementType T>() {
    auto values = tensor.values<T>();
    const Shape& shape = tensor.shape();
    if (shape.empty()) {
      // A 0-d tensor keeps its type (type(value) of `dense<1> : tensor<f32>`).
      ListValue scalar;
      scalar.items.push_back(ElementValue<T>(values[0]));
      scalar.tensor_type = ValueType::Of(tensor.type());
      return Value(std::move(scalar));
    }
    // Nested lists, dimension by dimension; an empty dimension still nests
    // (tensor<2x0xi64> is [[], []]).
    std::function<Value(size_t, int64_t&)> build = [&](size_t d, int64_t& next) -> Value {
      std::vector<Value> items;
      items.reserve(static_cast<size_t>(shape[d]));
      for (int64_t i = 0; i < shape[d]; ++i) {
        items.push_back(d + 1 == shape.size() ? ElementValue<T>(values[next++])
                                              : build(d + 1, next));
      }
      return Value(std::move(items));
    };
    int64_t next = 0;
    Value list = build(0, next);  // moved, not copied: a constant has up to 4,096 elements
    std::get<ListValue>(list.storage_).tensor_type = ValueType::Of(tensor.type());
    return list;
  });
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
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          std::vector<Value> items;
          for (const std::string& s : v) items.emplace_back(s);
          return Value(std::move(items));
        } else if constexpr (std::is_same_v<T, Tensor>) {
          return FromTensor(v);
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
  // An enumerator equals its name written as a string.
  if (is_enum() && other.is_string()) return as_enum().name == other.as_string();
  if (is_string() && other.is_enum()) return as_string() == other.as_enum().name;
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
        } else {
          return v.ToString();
        }
      },
      storage_);
}

}  // namespace hlocheck::spec
