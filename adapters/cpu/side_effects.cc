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

}  // namespace

std::vector<OpEntry> SideEffectsOps() {
  return {
      {"after_all", kVariadic, &SupportsPassThrough, &RunAfterAll},
      {"infeed", kVariadic, &SupportsPassThrough, &PassThroughCopies},
      {"outfeed", kVariadic, &SupportsPassThrough, &PassThroughCopies},
      {"recv", kVariadic, &SupportsPassThrough, &PassThroughCopies},
      {"send", kVariadic, &SupportsPassThrough, &PassThroughCopies},
  };
}

}  // namespace hlocheck::cpu
