// Ops that pass values through unchanged: optimization_barrier, tuple and
// get_tuple_element. Tokens and tuples reach the adapter flattened (Case's
// structure): the results are some run of the operands' tensors, copied bit
// for bit. Only bits move, so quantized tensors pass as their storage.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/data_movement_internal.h"
#include "adapters/region/pass_through.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {

// The results: their tensors copied bit for bit from the operands'
// (adapters/region/pass_through.h says which).
absl::StatusOr<Results> PassThroughCopies(const Case& c, const Device& device) {
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<const Tensor*> sources, PassThroughSources(c));
  Results results;
  for (const Tensor* source : sources) {
    Tensor result = NewResult(source->type());
    ParallelCopy(source->raw(), result.raw(), static_cast<int64_t>(source->bytes().size()), device);
    results.push_back(std::move(result));
  }
  return results;
}

std::vector<OpEntry> DataMovementTuplesOps() {
  return {
      {"optimization_barrier", kVariadic, &SupportsPassThrough, &PassThroughCopies},
      {"tuple", kVariadic, &SupportsPassThrough, &PassThroughCopies},
      {"get_tuple_element", kVariadic, &SupportsPassThrough, &PassThroughCopies},
  };
}

}  // namespace hlocheck::cpu
