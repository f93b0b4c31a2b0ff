// after_all, and the ops that move a message across their boundary, on the
// CPU: infeed and recv copy the message that arrived (Case::incoming: the
// host's queue, or what the channel's sender posted) into the results'
// buffers; outfeed and send copy their inputs into the buffers the host (or
// the receiver) reads, observed as the case's last result tensors
// (Case::outgoing). A token is nothing at run time: no buffer.
#include "absl/strings/str_cat.h"
#include "adapters/cpu/cpu_internal.h"
#include "adapters/cpu/data_movement_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

AdapterSupport SupportsSideEffect(const Case& c) {
  if (c.ProcessCount() != 1) return AdapterSupport::No(c.op + " on a grid of processes");
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunAfterAll(const Case&, const Device&) { return Results{}; }

// Each tensor of `message` into a new buffer of the type the case expects.
absl::StatusOr<Results> CopyMessage(const Case& c, const std::vector<Tensor>& message,
                                    size_t first_type, const Device& device) {
  if (c.result_types.size() != first_type + message.size()) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": a message of ", message.size(),
                                                   " tensors for ",
                                                   c.result_types.size() - first_type));
  }
  Results results;
  for (size_t i = 0; i < message.size(); ++i) {
    const TensorType& type = c.result_types[first_type + i];
    if (message[i].type() != type) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": message tensor ", i, " is ",
                                                     message[i].type().ToString(), ", not ",
                                                     type.ToString()));
    }
    Tensor copy = NewResult(type);
    ParallelCopy(message[i].raw(), copy.raw(), static_cast<int64_t>(message[i].bytes().size()),
                 device);
    results.push_back(std::move(copy));
  }
  return results;
}

// infeed, recv: the results are the message that arrived.
absl::StatusOr<Results> RunReceive(const Case& c, const Device& device) {
  return CopyMessage(c, c.incoming, 0, device);
}

// outfeed, send: the message given away is the inputs (the token holds no
// tensor, so the operands are exactly the payload).
absl::StatusOr<Results> RunSend(const Case& c, const Device& device) {
  if (static_cast<size_t>(c.outgoing) != c.operands.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        c.op, ": ", c.outgoing, " outgoing tensors observed for ", c.operands.size(), " inputs"));
  }
  return CopyMessage(c, c.operands, c.result_types.size() - c.operands.size(), device);
}

}  // namespace

std::vector<OpEntry> SideEffectsOps() {
  return {
      {"after_all", kVariadic, &SupportsSideEffect, &RunAfterAll},
      {"infeed", kVariadic, &SupportsSideEffect, &RunReceive},
      {"outfeed", kVariadic, &SupportsSideEffect, &RunSend},
      {"recv", kVariadic, &SupportsSideEffect, &RunReceive},
      {"send", kVariadic, &SupportsSideEffect, &RunSend},
  };
}

}  // namespace hlocheck::cpu
