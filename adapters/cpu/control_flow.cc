// Control flow of the spec: if, case and while. Their regions run on whole
// tensors through this adapter's own op table (adapters/region/: the
// semantics every backend shares, control_flow.h), each op of a region a
// case of its own, as the adapter runs any other case; a region op the
// adapter lacks makes the case unsupported, by name. Nothing here calls the
// oracle (the interpreter is the oracle's).
#include <vector>

#include "adapters/cpu/tensor_region.h"
#include "adapters/region/control_flow.h"

namespace hlocheck::cpu {
namespace {

AdapterSupport SupportsControlFlow(const Case& c) { return SupportsRegionOp(c, CpuRegionOps()); }

absl::StatusOr<Results> RunControlFlow(const Case& c, const Device& device) {
  return RunRegionOp(c, CpuRegionOps(&device), "CPU");
}

}  // namespace

std::vector<OpEntry> ControlFlowOps() {
  return {
      {"case", kVariadic, &SupportsControlFlow, &RunControlFlow},
      {"if", kVariadic, &SupportsControlFlow, &RunControlFlow},
      {"while", kVariadic, &SupportsControlFlow, &RunControlFlow},
  };
}

}  // namespace hlocheck::cpu
