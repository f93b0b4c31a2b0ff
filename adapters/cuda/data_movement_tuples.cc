// The CUDA adapter's ops that pass values through unchanged:
// optimization_barrier, tuple and get_tuple_element, and after_all and the
// transfers (infeed, outfeed, send, recv). Tokens and tuples reach the
// adapter flattened (Case's structure); adapters/region/pass_through.h says
// which tensor each result is, and each is copied through the machine.
#include <vector>

#include "adapters/cuda/cuda_internal.h"
#include "adapters/region/pass_through.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

absl::StatusOr<Results> RunPassThrough(const Case& c, Context& context) {
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<const Tensor*> sources, PassThroughSources(c));
  Results results;
  for (const Tensor* source : sources) {
    HLOCHECK_ASSIGN_OR_RETURN(Tensor copy, ThroughMachine(context, *source));
    results.push_back(std::move(copy));
  }
  return results;
}

absl::StatusOr<Results> RunAfterAll(const Case&, Context&) { return Results{}; }

}  // namespace

std::vector<OpEntry> DataMovementTuplesOps() {
  return {
      {"optimization_barrier", &SupportsPassThrough, &RunPassThrough},
      {"tuple", &SupportsPassThrough, &RunPassThrough},
      {"get_tuple_element", &SupportsPassThrough, &RunPassThrough},
  };
}

// after_all and the transfers: no kernels, only the message's copies.
std::vector<OpEntry> SideEffectsOps() {
  return {
      {"after_all", &SupportsPassThrough, &RunAfterAll},
      {"infeed", &SupportsPassThrough, &RunPassThrough},
      {"outfeed", &SupportsPassThrough, &RunPassThrough},
      {"recv", &SupportsPassThrough, &RunPassThrough},
      {"send", &SupportsPassThrough, &RunPassThrough},
  };
}

}  // namespace hlocheck::cuda
