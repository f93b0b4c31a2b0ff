// Values of the formula notation: what names, literals and functions
// evaluate to when a constraint or a generation recipe runs.
#ifndef HLOCHECK_SPEC_FORMULA_VALUE_H_
#define HLOCHECK_SPEC_FORMULA_VALUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/case.h"
#include "core/element_type.h"
#include "core/tensor.h"
#include "core/types.h"

namespace hlocheck::spec {

// Types as values. An operand of an op instance is its ValueType: its data
// is not known while constraints are checked (the spec's "Placeholder").
using TypeValue = ValueType;

// An element type: a TensorElementType or a QuantizedTensorElementType.
struct ElementTypeValue {
  ElementType type = ElementType::kF32;  // the storage type when quantized
  std::optional<UniformQuantization> quantization;

  bool operator==(const ElementTypeValue&) const = default;
  std::string ToString() const;
};

class Value;

struct NoneValue {
  bool operator==(const NoneValue&) const = default;
};

// A Python list; also a tensor constant (an attribute such as
// replica_groups), which then knows its tensor type.
struct ListValue {
  std::vector<Value> items;
  std::optional<ValueType> tensor_type;
  bool operator==(const ListValue&) const;
};

class Value {
 public:
  using Storage = std::variant<NoneValue, bool, int64_t, double, std::string, EnumValue, ListValue,
                               ValueType, FunctionType, ElementTypeValue>;

  Value() = default;
  Value(NoneValue v) : storage_(v) {}               // NOLINT: values convert
  Value(bool v) : storage_(v) {}                    // NOLINT
  Value(int64_t v) : storage_(v) {}                 // NOLINT
  Value(int v) : storage_(int64_t{v}) {}            // NOLINT
  Value(double v) : storage_(v) {}                  // NOLINT
  Value(std::string v) : storage_(std::move(v)) {}  // NOLINT
  Value(EnumValue v) : storage_(std::move(v)) {}    // NOLINT
  Value(ListValue v) : storage_(std::move(v)) {}    // NOLINT
  Value(std::vector<Value> items)
      : storage_(ListValue{std::move(items), std::nullopt}) {}           // NOLINT
  Value(ValueType v) : storage_(std::move(v)) {}                         // NOLINT
  Value(FunctionType v) : storage_(std::move(v)) {}                      // NOLINT
  Value(ElementTypeValue v) : storage_(std::move(v)) {}                  // NOLINT
  Value(ElementType v) : storage_(ElementTypeValue{v, std::nullopt}) {}  // NOLINT

  static Value IntList(const std::vector<int64_t>& values);
  static Value FromAttribute(const Attribute& attribute);
  // A tensor constant: its elements as nested lists, plus its type.
  static Value FromTensor(const Tensor& tensor);
  static Value TensorTypeValue(TensorType type) { return ValueType::Of(type); }

  bool is_none() const { return std::holds_alternative<NoneValue>(storage_); }
  bool is_bool() const { return std::holds_alternative<bool>(storage_); }
  bool is_int() const { return std::holds_alternative<int64_t>(storage_); }
  bool is_float() const { return std::holds_alternative<double>(storage_); }
  bool is_number() const { return is_int() || is_float() || is_bool(); }
  bool is_string() const { return std::holds_alternative<std::string>(storage_); }
  bool is_enum() const { return std::holds_alternative<EnumValue>(storage_); }
  bool is_list() const { return std::holds_alternative<ListValue>(storage_); }
  bool is_type() const { return std::holds_alternative<ValueType>(storage_); }
  bool is_function_type() const { return std::holds_alternative<FunctionType>(storage_); }
  bool is_element_type() const { return std::holds_alternative<ElementTypeValue>(storage_); }

  bool as_bool() const { return std::get<bool>(storage_); }
  int64_t as_int() const { return std::get<int64_t>(storage_); }
  double as_float() const { return std::get<double>(storage_); }
  const std::string& as_string() const { return std::get<std::string>(storage_); }
  const EnumValue& as_enum() const { return std::get<EnumValue>(storage_); }
  const std::vector<Value>& items() const { return std::get<ListValue>(storage_).items; }
  const ListValue& as_list() const { return std::get<ListValue>(storage_); }
  const ValueType& as_type() const { return std::get<ValueType>(storage_); }
  const FunctionType& as_function_type() const { return std::get<FunctionType>(storage_); }
  const ElementTypeValue& as_element_type_value() const {
    return std::get<ElementTypeValue>(storage_);
  }
  ElementType as_element_type() const { return as_element_type_value().type; }
  const Storage& storage() const { return storage_; }

  // Numeric view (bool counts as 0/1, as in Python).
  double ToDouble() const;

  // A constraint holds when its value is true, or a list whose elements all
  // hold (the spec's rule for tensors of booleans; an empty list holds).
  bool Holds() const;

  // Structural equality; ints and floats compare by value.
  bool operator==(const Value& other) const;

  // Readable rendering for violation reports: [1, 2], tensor<2xf32>, f32, DEFAULT.
  std::string ToString() const;

 private:
  Storage storage_;
};

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_FORMULA_VALUE_H_
