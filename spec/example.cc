#include "spec/example.h"

#include "absl/status/status.h"
#include "core/literal.h"
#include "spec/instance.h"

namespace hlocheck::spec {

absl::StatusOr<ExampleCase> ExampleAsCase(const OpSpec& op) {
  if (op.example.instance == nullptr) return absl::NotFoundError(op.name + " has no example");
  if (!op.example.runnable) {
    return absl::FailedPreconditionError(op.name +
                                         "'s example has values that are not tensors "
                                         "or has regions; it cannot run as a case");
  }
  auto error = [&](const std::string& what, const absl::Status& status) {
    return absl::InvalidArgumentError(op.file + ": example " + what + ": " +
                                      std::string(status.message()));
  };
  ExampleCase example;
  example.c.op = op.name;
  bool variadic = false;
  for (const ValueSpec& operand : op.operands) {
    int64_t count = 0;
    for (const auto& [name, text] : op.example.operand_literals) {
      if (name != operand.name) continue;
      auto tensor = ParseDenseAttribute(text);
      if (!tensor.ok()) return error("operand " + name, tensor.status());
      example.c.operands.push_back(*std::move(tensor));
      ++count;
    }
    variadic = variadic || operand.variadic;
    example.c.operand_segments.push_back(count);
  }
  if (!variadic) example.c.operand_segments.clear();
  example.c.attributes = op.example.instance->attributes;
  bool variadic_results = false;
  for (const ValueSpec& result : op.results) {
    int64_t count = 0;
    for (const auto& [name, text] : op.example.result_literals) {
      if (name != result.name) continue;
      auto tensor = ParseDenseAttribute(text);
      if (!tensor.ok()) return error("result " + name, tensor.status());
      example.c.result_types.push_back(tensor->type());
      example.expected.push_back(*std::move(tensor));
      ++count;
    }
    variadic_results = variadic_results || result.variadic;
    example.c.result_segments.push_back(count);
  }
  if (!variadic_results) example.c.result_segments.clear();
  return example;
}

}  // namespace hlocheck::spec
