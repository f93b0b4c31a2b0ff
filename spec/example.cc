#include "spec/example.h"

#include "absl/status/status.h"
#include "core/literal.h"
#include "spec/attributes.h"

namespace hlocheck::spec {

absl::StatusOr<ExampleCase> ExampleAsCase(const OpSpec& op) {
  if (!op.example.present) return absl::NotFoundError(op.name + " has no example");
  auto error = [&](const std::string& what, const absl::Status& status) {
    return absl::InvalidArgumentError(op.file + ": example " + what + ": " +
                                      std::string(status.message()));
  };
  ExampleCase example;
  example.c.op = op.name;
  for (const ValueSpec& operand : op.operands) {
    bool found = false;
    for (const auto& [name, text] : op.example.inputs) {
      if (name != operand.name) continue;
      auto tensor = ParseDenseAttribute(text);
      if (!tensor.ok()) return error("input " + name, tensor.status());
      example.c.operands.push_back(*std::move(tensor));
      found = true;
    }
    if (!found) {
      return absl::InvalidArgumentError(op.file + ": the example gives no value for " +
                                        operand.name);
    }
  }
  for (const auto& [name, text] : op.example.inputs) {
    const AttributeSpec* attribute = op.FindAttribute(name);
    if (attribute == nullptr) continue;
    auto value = AttributeFromYaml(*attribute, text);
    if (!value.ok()) return error("attribute " + name, value.status());
    example.c.attributes[name] = *std::move(value);
  }
  for (const ValueSpec& result : op.results) {
    bool found = false;
    for (const auto& [name, text] : op.example.expected) {
      if (name != result.name) continue;
      auto tensor = ParseDenseAttribute(text);
      if (!tensor.ok()) return error("result " + name, tensor.status());
      example.c.result_types.push_back(tensor->type());
      example.expected.push_back(*std::move(tensor));
      found = true;
    }
    if (!found) {
      return absl::InvalidArgumentError(op.file + ": the example gives no value for " +
                                        result.name);
    }
  }
  return example;
}

}  // namespace hlocheck::spec
