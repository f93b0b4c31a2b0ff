#include "spec/attributes.h"

#include <algorithm>

#include "absl/status/status.h"
#include "core/literal.h"
#include "core/status_macros.h"
#include "yaml-cpp/yaml.h"

namespace hlocheck::spec {
namespace {

absl::Status Mismatch(const AttributeSpec& spec, const Value& value) {
  return absl::InvalidArgumentError("attribute '" + spec.name + "' expects " +
                                    AttributeTypeName(spec.type) + ", got " + value.ToString());
}

absl::StatusOr<EnumValue> ToEnum(const AttributeSpec& spec, const Value& value) {
  std::string name;
  if (value.is_enum()) {
    name = value.as_enum().name;
  } else if (value.is_string()) {
    name = value.as_string();
  } else {
    return Mismatch(spec, value);
  }
  if (std::find(spec.enum_values.begin(), spec.enum_values.end(), name) == spec.enum_values.end()) {
    std::string allowed;
    for (const std::string& v : spec.enum_values) allowed += (allowed.empty() ? "" : ", ") + v;
    return absl::InvalidArgumentError("attribute '" + spec.name + "': unknown enumerator '" + name +
                                      "'; expected one of " + allowed);
  }
  return EnumValue{name};
}

Value FromYamlNode(const YAML::Node& node) {
  if (node.IsSequence()) {
    std::vector<Value> items;
    for (const YAML::Node& item : node) items.push_back(FromYamlNode(item));
    return Value(std::move(items));
  }
  if (!node.IsScalar()) return Value(NoneValue{});
  const std::string& text = node.Scalar();
  if (text == "true") return Value(true);
  if (text == "false") return Value(false);
  try {
    size_t used = 0;
    int64_t integer = std::stoll(text, &used);
    if (used == text.size()) return Value(integer);
  } catch (const std::exception&) {
  }
  try {
    size_t used = 0;
    double number = std::stod(text, &used);
    if (used == text.size()) return Value(number);
  } catch (const std::exception&) {
  }
  return Value(text);
}

}  // namespace

std::string AttributeTypeName(AttributeType type) {
  switch (type) {
    case AttributeType::kBool:
      return "i1";
    case AttributeType::kInt:
      return "si64";
    case AttributeType::kFloat:
      return "f32";
    case AttributeType::kString:
      return "string";
    case AttributeType::kEnum:
      return "enum";
    case AttributeType::kIntArray:
      return "si64[]";
    case AttributeType::kBoolArray:
      return "i1[]";
    case AttributeType::kEnumArray:
      return "enum[]";
    case AttributeType::kIntMatrix:
      return "si64[][]";
    case AttributeType::kTensor:
      return "tensor";
    case AttributeType::kStringArray:
      return "string[]";
  }
  return "?";
}

absl::StatusOr<Attribute> AttributeFromValue(const AttributeSpec& spec, const Value& value) {
  switch (spec.type) {
    case AttributeType::kBool:
      if (!value.is_bool()) return Mismatch(spec, value);
      return Attribute(value.as_bool());
    case AttributeType::kInt:
      if (!value.is_int()) return Mismatch(spec, value);
      return Attribute(value.as_int());
    case AttributeType::kFloat:
      if (!value.is_number() || value.is_bool()) return Mismatch(spec, value);
      return Attribute(value.ToDouble());
    case AttributeType::kString:
      if (!value.is_string()) return Mismatch(spec, value);
      return Attribute(value.as_string());
    case AttributeType::kEnum: {
      auto e = ToEnum(spec, value);
      HLOCHECK_RETURN_IF_ERROR(e.status());
      return Attribute(*e);
    }
    case AttributeType::kIntArray: {
      if (!value.is_list()) return Mismatch(spec, value);
      std::vector<int64_t> ints;
      for (const Value& item : value.items()) {
        if (!item.is_int()) return Mismatch(spec, value);
        ints.push_back(item.as_int());
      }
      return Attribute(std::move(ints));
    }
    case AttributeType::kBoolArray: {
      if (!value.is_list()) return Mismatch(spec, value);
      std::vector<bool> bools;
      for (const Value& item : value.items()) {
        if (!item.is_bool()) return Mismatch(spec, value);
        bools.push_back(item.as_bool());
      }
      return Attribute(std::move(bools));
    }
    case AttributeType::kEnumArray: {
      if (!value.is_list()) return Mismatch(spec, value);
      std::vector<EnumValue> enums;
      for (const Value& item : value.items()) {
        auto e = ToEnum(spec, item);
        HLOCHECK_RETURN_IF_ERROR(e.status());
        enums.push_back(*std::move(e));
      }
      return Attribute(std::move(enums));
    }
    case AttributeType::kIntMatrix: {
      // A 2-D si64 tensor constant given as a list of rows.
      if (!value.is_list()) return Mismatch(spec, value);
      if (value.as_list().tensor_type) {
        const ValueType& type = *value.as_list().tensor_type;
        if (type.shape.size() != 2 || type.element_type != ElementType::kSI64) {
          return Mismatch(spec, value);
        }
      }
      int64_t rows = static_cast<int64_t>(value.items().size());
      int64_t columns = rows == 0 ? 0 : -1;
      std::vector<int64_t> elements;
      for (const Value& row : value.items()) {
        if (!row.is_list()) return Mismatch(spec, value);
        if (columns >= 0 && static_cast<int64_t>(row.items().size()) != columns) {
          return absl::InvalidArgumentError("attribute '" + spec.name +
                                            "': rows of different lengths");
        }
        columns = static_cast<int64_t>(row.items().size());
        for (const Value& item : row.items()) {
          if (!item.is_int()) return Mismatch(spec, value);
          elements.push_back(item.as_int());
        }
      }
      if (value.as_list().tensor_type) columns = value.as_list().tensor_type->shape[1];
      Tensor tensor(Shape{rows, std::max<int64_t>(columns, 0)}, ElementType::kSI64);
      std::copy(elements.begin(), elements.end(), tensor.values<ElementType::kSI64>().begin());
      return Attribute(std::move(tensor));
    }
    case AttributeType::kTensor: {
      if (!value.is_string()) {
        return absl::InvalidArgumentError("attribute '" + spec.name +
                                          "' expects a dense literal such as \"dense<1.0> : "
                                          "tensor<f32>\", got " +
                                          value.ToString());
      }
      auto tensor = ParseDenseAttribute(value.as_string());
      if (!tensor.ok()) {
        return absl::InvalidArgumentError("attribute '" + spec.name +
                                          "': " + std::string(tensor.status().message()));
      }
      return Attribute(*std::move(tensor));
    }
    case AttributeType::kStringArray: {
      if (!value.is_list()) return Mismatch(spec, value);
      std::vector<std::string> names;
      for (const Value& item : value.items()) {
        if (!item.is_string()) return Mismatch(spec, value);
        names.push_back(item.as_string());
      }
      return Attribute(std::move(names));
    }
  }
  return Mismatch(spec, value);
}

absl::StatusOr<Attribute> AttributeFromYaml(const AttributeSpec& spec, const std::string& yaml) {
  YAML::Node node;
  try {
    node = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError("attribute '" + spec.name + "': malformed value '" + yaml +
                                      "': " + e.msg);
  }
  return AttributeFromValue(spec, FromYamlNode(node));
}

}  // namespace hlocheck::spec
