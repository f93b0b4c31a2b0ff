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

absl::StatusOr<Results> PassThroughCopies(const Case& c, Context& context) {
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<const Tensor*> sources, PassThroughSources(c));
  Results results;
  for (const Tensor* source : sources) {
    HLOCHECK_ASSIGN_OR_RETURN(Tensor copy, ThroughMachine(context, *source));
    results.push_back(std::move(copy));
  }
  return results;
}

namespace {

absl::StatusOr<Results> RunAfterAll(const Case&, Context&) { return Results{}; }

}  // namespace

std::vector<OpEntry> DataMovementTuplesOps() {
  return {
      {"optimization_barrier", &SupportsPassThrough, &PassThroughCopies},
      {"tuple", &SupportsPassThrough, &PassThroughCopies},
      {"get_tuple_element", &SupportsPassThrough, &PassThroughCopies},
  };
}

// after_all and the transfers: no kernels, only the message's copies.
std::vector<OpEntry> SideEffectsOps() {
  return {
      {"after_all", &SupportsPassThrough, &RunAfterAll},
      {"infeed", &SupportsPassThrough, &PassThroughCopies},
      {"outfeed", &SupportsPassThrough, &PassThroughCopies},
      {"recv", &SupportsPassThrough, &PassThroughCopies},
      {"send", &SupportsPassThrough, &PassThroughCopies},
  };
}

}  // namespace hlocheck::cuda
