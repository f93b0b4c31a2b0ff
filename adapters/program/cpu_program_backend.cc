#include "adapters/program/cpu_program_backend.h"

#include "adapters/cpu/cpu_adapter.h"
#include "core/status_macros.h"
#include "mlir/reader.h"

namespace hlocheck {
namespace {

class CpuProgramBackend : public ProgramBackend {
 public:
  CpuProgramBackend(const spec::SpecRegistry& registry, int threads, ProgramRewrite rewrite,
                    std::string description)
      : registry_(registry),
        adapter_(AdapterOptions(threads)),
        rewrite_(std::move(rewrite)),
        description_(std::move(description)) {}

  std::string Describe() const override {
    return description_.empty() ? "the CPU adapter, op by op" : description_;
  }

  absl::StatusOr<std::vector<Tensor>> Run(std::string_view module_text,
                                          std::span<const Tensor> inputs,
                                          std::span<const TensorType> result_types) override {
    HLOCHECK_ASSIGN_OR_RETURN(Module module,
                              mlir::ReadModule(module_text, "program.mlir", registry_));
    if (rewrite_) HLOCHECK_RETURN_IF_ERROR(rewrite_(module));
    HLOCHECK_ASSIGN_OR_RETURN(std::vector<Tensor> results, adapter_.RunProgram(module, inputs));
    if (results.size() != result_types.size()) {
      return absl::InternalError("@main returned " + std::to_string(results.size()) +
                                 " tensors for " + std::to_string(result_types.size()));
    }
    return results;
  }

 private:
  const spec::SpecRegistry& registry_;
  CpuAdapter adapter_;
  ProgramRewrite rewrite_;
  std::string description_;
};

}  // namespace

std::unique_ptr<ProgramBackend> CreateCpuProgramBackend(const spec::SpecRegistry& registry,
                                                        int threads, ProgramRewrite rewrite,
                                                        std::string description) {
  return std::make_unique<CpuProgramBackend>(registry, threads, std::move(rewrite),
                                             std::move(description));
}

}  // namespace hlocheck
