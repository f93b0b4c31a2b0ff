// Ops that call something the op names: custom_call (hlocheck's documented
// targets, docs/custom-call-targets.md; any other target is unsupported, by
// name) and composite (its decomposition, run through tensor_region.h).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/data_movement_internal.h"
#include "adapters/cpu/tensor_region.h"
#include "adapters/region/control_flow.h"
#include "adapters/region/pass_through.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// custom_call: hlocheck.identity and hlocheck.reverse copy their inputs
// (adapters/region/pass_through.h says which to which); hlocheck.zeros
// gives every result all zero bits.
absl::StatusOr<Results> RunCustomCall(const Case& c, const Device& device) {
  if (CustomCallTarget(c) == "hlocheck.zeros") {
    if (std::string why; !LeavesMatchStructure(c, &why)) {
      return absl::InvalidArgumentError("custom_call: " + why);
    }
    Results results;
    for (const TensorType& type : c.result_types) results.emplace_back(type);
    return results;
  }
  return PassThroughCopies(c, device);
}

AdapterSupport SupportsComposite(const Case& c) { return SupportsRegionOp(c, CpuRegionOps()); }

// composite and call run their region (adapters/region/control_flow.h).
absl::StatusOr<Results> RunComposite(const Case& c, const Device& device) {
  return RunRegionOp(c, CpuRegionOps(&device), "CPU");
}

}  // namespace

std::vector<OpEntry> CallsOps() {
  return {
      {"call", kVariadic, &SupportsComposite, &RunComposite},
      {"composite", kVariadic, &SupportsComposite, &RunComposite},
      {"custom_call", kVariadic, &SupportsPassThrough, &RunCustomCall},
  };
}

}  // namespace hlocheck::cpu
