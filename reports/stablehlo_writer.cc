#include "reports/stablehlo_writer.h"

#include <map>
#include <variant>

#include "core/literal.h"

namespace hlocheck {
namespace {

// Attribute structs of the StableHLO dialect, by the name the op's YAML
// gives their group.
const std::map<std::string, std::string>& GroupMnemonics() {
  static const auto* map = new std::map<std::string, std::string>{
      {"dot_dimension_numbers", "#stablehlo.dot"},
      {"algorithm", "#stablehlo.dot_algorithm"},
      {"dimension_numbers", "#stablehlo.conv"},
      {"scatter_dimension_numbers", "#stablehlo.scatter"},
  };
  return *map;
}

std::string Join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) text += separator;
    text += parts[i];
  }
  return text;
}

std::string IntList(const std::vector<int64_t>& values) {
  std::vector<std::string> parts;
  for (int64_t v : values) parts.push_back(std::to_string(v));
  return Join(parts, ", ");
}

// The value of one attribute as MLIR writes it outside any group.
std::string AttributeValue(const spec::AttributeSpec& spec, const Attribute& attribute) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return std::to_string(v) + " : " + std::string(MlirName(spec.integer_type));
        } else if constexpr (std::is_same_v<T, double>) {
          return PrintElementLiteral(ElementType::kF32, &v) + " : f32";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return "\"" + v + "\"";
        } else if constexpr (std::is_same_v<T, EnumValue>) {
          return "#stablehlo<" + spec.mlir.enum_attr + " " + v.name + ">";
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          return v.empty() ? "array<i64>" : "array<i64: " + IntList(v) + ">";
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          std::vector<std::string> parts;
          for (bool b : v) parts.push_back(b ? "true" : "false");
          return v.empty() ? "array<i1>" : "array<i1: " + Join(parts, ", ") + ">";
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          // Symbol references, e.g. called_computations = [@f, @g].
          std::vector<std::string> parts;
          for (const std::string& name : v) parts.push_back("@" + name);
          return "[" + Join(parts, ", ") + "]";
        } else if constexpr (std::is_same_v<T, std::vector<EnumValue>>) {
          std::vector<std::string> parts;
          for (const EnumValue& e : v) {
            parts.push_back("#stablehlo<" + spec.mlir.enum_attr + " " + e.name + ">");
          }
          return "[" + Join(parts, ", ") + "]";
        } else {
          return PrintDenseAttribute(v);
        }
      },
      attribute);
}

// Inside a group struct, arrays are plain lists: `lhs_batching_dimensions = [0]`.
std::string GroupMemberValue(const spec::AttributeSpec& spec, const Attribute& attribute) {
  if (const auto* ints = std::get_if<std::vector<int64_t>>(&attribute)) {
    return "[" + IntList(*ints) + "]";
  }
  if (const auto* value = std::get_if<int64_t>(&attribute)) return std::to_string(*value);
  return AttributeValue(spec, attribute);
}

std::vector<std::string> OperandNames(const spec::OpSpec& op, const Case& c) {
  std::vector<std::string> names;
  size_t next = 0;
  for (size_t i = 0; i < op.operands.size() && next < c.operands.size(); ++i) {
    int64_t count = c.operand_segments.empty() ? 1 : c.operand_segments[i];
    for (int64_t k = 0; k < count; ++k, ++next) {
      names.push_back("%" + op.operands[i].name +
                      (op.operands[i].variadic ? std::to_string(k) : ""));
    }
  }
  return names;
}

}  // namespace

std::string PrintAttributes(const spec::OpSpec& op, const Case& c) {
  std::vector<std::string> entries;
  std::map<std::string, std::vector<std::string>> groups;
  std::vector<std::string> group_order;
  for (const spec::AttributeSpec& spec : op.attributes) {
    const Attribute* attribute = c.FindAttribute(spec.name);
    if (attribute == nullptr) continue;
    if (!spec.mlir.group.empty()) {
      if (!groups.count(spec.mlir.group)) group_order.push_back(spec.mlir.group);
      groups[spec.mlir.group].push_back(spec.name + " = " + GroupMemberValue(spec, *attribute));
      continue;
    }
    entries.push_back(spec.name + " = " + AttributeValue(spec, *attribute));
  }
  for (const std::string& group : group_order) {
    auto mnemonic = GroupMnemonics().find(group);
    std::string name =
        mnemonic == GroupMnemonics().end() ? "#stablehlo." + group : mnemonic->second;
    entries.insert(entries.begin(), group + " = " + name + "<\n      " +
                                        Join(groups[group], ",\n      ") + "\n    >");
  }
  if (entries.empty()) return "";
  return "{\n    " + Join(entries, ",\n    ") + "\n  }";
}

std::string PrintOpGeneric(const spec::OpSpec& op, const Case& c) {
  std::vector<std::string> operand_types;
  for (const Tensor& operand : c.operands) operand_types.push_back(operand.type().ToString());
  std::vector<std::string> result_types;
  for (const TensorType& type : c.result_types) result_types.push_back(type.ToString());
  std::string attributes = PrintAttributes(op, c);
  std::string results =
      result_types.size() == 1 ? Join(result_types, "") : "(" + Join(result_types, ", ") + ")";
  return "\"stablehlo." + op.name + "\"(" + Join(OperandNames(op, c), ", ") + ") " +
         (attributes.empty() ? "" : attributes + " ") + ": (" + Join(operand_types, ", ") +
         ") -> " + results;
}

std::string PrintReproducer(const spec::OpSpec& op, const Case& c,
                            const std::vector<ExpectedResult>& expected,
                            const std::vector<std::string>& comments) {
  std::string text;
  for (const std::string& comment : comments) text += "// " + comment + "\n";
  text += "func.func @main() {\n";
  std::vector<std::string> names = OperandNames(op, c);
  for (size_t i = 0; i < c.operands.size(); ++i) {
    text += "  " + names[i] + " = stablehlo.constant " + PrintDenseAttribute(c.operands[i]) + "\n";
  }
  std::string result =
      c.result_types.size() == 1 ? "%result" : "%result:" + std::to_string(c.result_types.size());
  text += "  " + result + " = " + PrintOpGeneric(op, c) + "\n";
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string value = c.result_types.size() == 1 ? "%result" : "%result#" + std::to_string(i);
    text += "  check." +
            std::string(expected[i].exact ? "expect_eq_const " : "expect_almost_eq_const ") +
            value + ", " + PrintDenseAttribute(expected[i].value) + "\n";
  }
  text += "  func.return\n}\n";
  return text;
}

}  // namespace hlocheck
