// The CUDA adapter's ops that call something the op names: call and
// composite (the callee or decomposition run through this adapter's op
// table, adapters/region/tensor_region.h) and custom_call's hlocheck.*
// targets (docs/custom-call-targets.md; any other target is unsupported, by
// name).
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
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<const Tensor*> sources, PassThroughSources(c));
  for (const Tensor* source : sources) {
    HLOCHECK_ASSIGN_OR_RETURN(Tensor copy, ThroughMachine(context, *source));
    results.push_back(std::move(copy));
  }
  return results;
}

// composite's decomposition, func.call's callee: the case's first region.
absl::StatusOr<TensorRegion> Decomposition(const Case& c) {
  const std::string what = c.op == "call" ? "callee" : "decomposition";
  if (c.regions.empty()) return absl::InvalidArgumentError(c.op + ": no " + what);
  return TensorRegion::Create(c.regions[0], c.OperandValueTypes(), c.op + ": " + what,
                              CudaRegionOps());
}

AdapterSupport SupportsComposite(const Case& c) {
  absl::StatusOr<TensorRegion> decomposition = Decomposition(c);
  if (!decomposition.ok()) return AdapterSupport::No(std::string(decomposition.status().message()));
  return decomposition->support();
}

// composite: results = decomposition(inputs) (its other regions ignored,
// as when the decomposition is inlined); call: results = callee(inputs).
absl::StatusOr<Results> RunComposite(const Case& c, Context& context) {
  HLOCHECK_ASSIGN_OR_RETURN(TensorRegion decomposition, Decomposition(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> inputs, OperandValues(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> results,
                            decomposition.Run(std::move(inputs), CudaRegionOps(&context)));
  return ResultTensors(c, std::move(results));
}

}  // namespace

std::vector<OpEntry> CallsOps() {
  return {
      {"call", &SupportsComposite, &RunComposite},
      {"composite", &SupportsComposite, &RunComposite},
      {"custom_call", &SupportsPassThrough, &RunCustomCall},
  };
}

}  // namespace hlocheck::cuda
