// Ops that call something the op names: custom_call (hlocheck's documented
// targets, docs/custom-call-targets.md; any other target is unsupported, by
// name) and composite (its decomposition, run through tensor_region.h).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/data_movement_internal.h"
#include "adapters/cpu/tensor_region.h"
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
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<const Tensor*> sources, PassThroughSources(c));
  Results results;
  for (const Tensor* source : sources) {
    Tensor result = NewResult(source->type());
    ParallelCopy(source->raw(), result.raw(), static_cast<int64_t>(source->bytes().size()), device);
    results.push_back(std::move(result));
  }
  return results;
}

// composite's decomposition, func.call's callee: the case's first region.
absl::StatusOr<TensorRegion> Decomposition(const Case& c) {
  const std::string what = c.op == "call" ? "callee" : "decomposition";
  if (c.regions.empty()) return absl::InvalidArgumentError(c.op + ": no " + what);
  return TensorRegion::Create(c.regions[0], c.OperandValueTypes(), c.op + ": " + what,
                              CpuRegionOps());
}

AdapterSupport SupportsComposite(const Case& c) {
  absl::StatusOr<TensorRegion> decomposition = Decomposition(c);
  if (!decomposition.ok()) return AdapterSupport::No(std::string(decomposition.status().message()));
  return decomposition->support();
}

// composite: results = decomposition(inputs); its other regions are
// ignored, as when the decomposition is inlined. func.call: results =
// callee(inputs).
absl::StatusOr<Results> RunComposite(const Case& c, const Device& device) {
  HLOCHECK_ASSIGN_OR_RETURN(TensorRegion decomposition, Decomposition(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> inputs, OperandValues(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> results,
                            decomposition.Run(std::move(inputs), CpuRegionOps(&device)));
  return ResultTensors(c, std::move(results));
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
