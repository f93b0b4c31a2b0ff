// The CUDA adapter's control flow and calls: if, case, while, call and
// composite, driven from the host as XLA:GPU drives them (the predicate,
// index or loop condition read back, then the next region launched). Their
// regions run on whole tensors through this adapter's own op table, with
// the semantics every backend shares (adapters/region/control_flow.h); a
// region op the adapter lacks makes the case unsupported, by name.
#include <vector>

#include "adapters/cuda/cuda_internal.h"
#include "adapters/region/control_flow.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsControlFlow(const Case& c) { return SupportsRegionOp(c, CudaRegionOps()); }

absl::StatusOr<Results> RunControlFlow(const Case& c, Context& context) {
  return RunRegionOp(c, CudaRegionOps(&context), "CUDA");
}

}  // namespace

std::vector<OpEntry> ControlFlowOps() {
  return {
      {"case", &SupportsControlFlow, &RunControlFlow},
      {"if", &SupportsControlFlow, &RunControlFlow},
      {"while", &SupportsControlFlow, &RunControlFlow},
      {"call", &SupportsControlFlow, &RunControlFlow},
      {"composite", &SupportsControlFlow, &RunControlFlow},
  };
}

}  // namespace hlocheck::cuda
