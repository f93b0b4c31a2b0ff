// The ops of the spec's side effects: after_all, and the transfers across
// an op's boundary, infeed and recv (a message in) and outfeed and send (a
// message out). A case carries the message that comes in
// (Case::incoming) and observes the one that goes out as its last result
// tensors (Case::outgoing); who is at the other end, the host or a peer
// process, is the case's environment, not the op's semantics. In a program
// the interpreter wires them to the grid's queues and channels
// (oracle/process_rendezvous.h). Tokens hold no tensors, so a token result
// adds nothing to the results.
#include "absl/strings/str_cat.h"
#include "oracle/data_movement_helpers.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

ResultExpectation Exactly(const Tensor& t) {
  ResultExpectation e;
  e.reference = t;
  e.check = Check::kExact;
  return e;
}

// after_all: result = a token after every input token. Its only observable
// is ordering, which a single op cannot show: no tensors.
Results AfterAll(const Case&) { return std::vector<ResultExpectation>{}; }

// infeed and recv: results = the message that arrived, then a token. The
// message must be the values the results' types say, in order; a message
// of other types is the case's (the host's, the sender's) error, not the
// op's.
Results Received(const Case& c) {
  const auto own = static_cast<size_t>(c.result_types.size() - c.outgoing);
  if (c.incoming.size() != own) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": a message of ", c.incoming.size(),
                                                   " tensors arrived for ", own, " results"));
  }
  std::vector<ResultExpectation> results;
  for (size_t i = 0; i < own; ++i) {
    if (c.incoming[i].type() != c.result_types[i]) {
      return absl::InvalidArgumentError(absl::StrCat(
          c.op, ": tensor ", i, " of the message that arrived is ", c.incoming[i].type().ToString(),
          " where the result is ", c.result_types[i].ToString()));
    }
    results.push_back(Exactly(c.incoming[i]));
  }
  return results;
}

// outfeed and send: result = a token; the message given away is the
// inputs, bit for bit, in order (the last `outgoing` result tensors).
Results Sent(const Case& c) {
  if (static_cast<size_t>(c.outgoing) != c.operands.size() ||
      c.result_types.size() != c.operands.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        c.op, ": the case observes ", c.outgoing, " outgoing tensors of ", c.operands.size(),
        " inputs (and ", c.result_types.size(), " result tensors)"));
  }
  std::vector<ResultExpectation> results;
  for (size_t i = 0; i < c.operands.size(); ++i) {
    if (c.operands[i].type() != c.result_types[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.op, ": outgoing tensor ", i, " is observed as ",
                       c.result_types[i].ToString(), ", not ", c.operands[i].type().ToString()));
    }
    results.push_back(Exactly(c.operands[i]));
  }
  return results;
}

}  // namespace

std::vector<OpEntry> SideEffectsOps() {
  return {{"after_all", AfterAll},
          {"infeed", Received},
          {"outfeed", Sent},
          {"recv", Received},
          {"send", Sent}};
}

}  // namespace hlocheck::oracle
