// The CUDA adapter's custom_call: hlocheck's own targets
// (docs/custom-call-targets.md; any other target is unsupported, by name).
// call and composite run their regions with control flow (control_flow.cc).
#include <string>
#include <vector>

#include "adapters/cuda/cuda_internal.h"
#include "adapters/region/pass_through.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

// custom_call: hlocheck.identity and hlocheck.reverse copy their inputs
// through the machine; hlocheck.zeros gives every result all zero bits.
absl::StatusOr<Results> RunCustomCall(const Case& c, Context& context) {
  Results results;
  if (CustomCallTarget(c) == "hlocheck.zeros") {
    if (std::string why; !LeavesMatchStructure(c, &why)) {
      return absl::InvalidArgumentError("custom_call: " + why);
    }
    for (const TensorType& type : c.result_types) {
      HLOCHECK_ASSIGN_OR_RETURN(Tensor zeros, ThroughMachine(context, Tensor(type)));
      results.push_back(std::move(zeros));
    }
    return results;
  }
  return PassThroughCopies(c, context);
}

}  // namespace

std::vector<OpEntry> CallsOps() {
  return {
      {"custom_call", &SupportsPassThrough, &RunCustomCall},
  };
}

}  // namespace hlocheck::cuda
