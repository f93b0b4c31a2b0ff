// after_all, and the ops that move a message across their boundary, on the
// CPU: infeed and recv copy the message that arrived (Case::incoming: the
// host's queue, or what the channel's sender posted) into the results'
// buffers; outfeed and send copy their inputs into the buffers the host (or
// the receiver) reads, observed as the case's last result tensors
// (Case::outgoing). A token is nothing at run time: no buffer.
#include "absl/strings/str_cat.h"
#include "adapters/cpu/cpu_internal.h"
#include "adapters/cpu/data_movement_internal.h"
#include "adapters/region/pass_through.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

absl::StatusOr<Results> RunAfterAll(const Case&, const Device&) { return Results{}; }

// infeed, recv: the results are the message that arrived; outfeed, send:
// the message given away is the inputs (adapters/region/pass_through.h).
absl::StatusOr<Results> RunTransfer(const Case& c, const Device& device) {
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<const Tensor*> sources, PassThroughSources(c));
  Results results;
  for (const Tensor* source : sources) {
    Tensor copy = NewResult(source->type());
    ParallelCopy(source->raw(), copy.raw(), static_cast<int64_t>(source->bytes().size()), device);
    results.push_back(std::move(copy));
  }
  return results;
}

}  // namespace

std::vector<OpEntry> SideEffectsOps() {
  return {
      {"after_all", kVariadic, &SupportsPassThrough, &RunAfterAll},
      {"infeed", kVariadic, &SupportsPassThrough, &RunTransfer},
      {"outfeed", kVariadic, &SupportsPassThrough, &RunTransfer},
      {"recv", kVariadic, &SupportsPassThrough, &RunTransfer},
      {"send", kVariadic, &SupportsPassThrough, &RunTransfer},
  };
}

}  // namespace hlocheck::cpu
