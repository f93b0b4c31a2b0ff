#include "adapters/program/program_adapter.h"

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "mlir/writer.h"

namespace hlocheck {

ProgramAdapter::ProgramAdapter(std::string name, const spec::SpecRegistry& registry,
                               std::unique_ptr<ProgramBackend> backend, bool inputs_as_constants,
                               std::function<bool(ElementType)> transferable)
    : name_(std::move(name)),
      registry_(registry),
      backend_(std::move(backend)),
      inputs_as_constants_(inputs_as_constants),
      transferable_(std::move(transferable)) {}

std::vector<std::string> ProgramAdapter::ImplementedOps() const {
  // A compiler is asked about every op of the spec: what it cannot compile
  // it says so, and the gate reports that as its error, not as a skip.
  std::vector<std::string> ops;
  for (const spec::OpSpec& op : registry_.ops()) ops.push_back(op.name);
  return ops;
}

AdapterSupport ProgramAdapter::Supports(const Case& c) const {
  if (registry_.Find(c.op) == nullptr) return AdapterSupport::No("no spec for " + c.op);
  auto check = [&](const TensorType& type) -> std::string {
    if (type.quantization) {
      return "quantized tensors are not passed to compilers yet (the quantization issue)";
    }
    if (!transferable_(type.element_type)) {
      return absl::StrCat("the backend cannot take or return ",
                          std::string(Name(type.element_type)), " tensors");
    }
    return "";
  };
  for (const Tensor& operand : c.operands) {
    if (std::string why = check(operand.type()); !why.empty()) return AdapterSupport::No(why);
  }
  for (const TensorType& result : c.result_types) {
    if (std::string why = check(result); !why.empty()) return AdapterSupport::No(why);
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<std::string> ProgramAdapter::ModuleText(const Case& c) const {
  const spec::OpSpec* op = registry_.Find(c.op);
  if (op == nullptr) return absl::NotFoundError("no spec for " + c.op);
  return mlir::PrintCaseProgram(
      registry_, *op, c,
      inputs_as_constants_ ? mlir::ProgramInputs::kConstants : mlir::ProgramInputs::kArguments);
}

absl::StatusOr<std::vector<Tensor>> ProgramAdapter::Run(const Case& c) {
  auto module = ModuleText(c);
  HLOCHECK_RETURN_IF_ERROR(module.status());
  std::span<const Tensor> inputs;
  if (!inputs_as_constants_) inputs = c.operands;
  return backend_->Run(*module, inputs, c.result_types);
}

}  // namespace hlocheck
