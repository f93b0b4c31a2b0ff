// The ops whose results are some of the tensors they were given, bit for
// bit: optimization_barrier, tuple, get_tuple_element, custom_call's
// hlocheck.identity and hlocheck.reverse targets (docs/custom-call-
// targets.md), and the transfers (infeed and recv give the message that
// arrived, outfeed and send give away their inputs). Which tensor each
// result is, after checking the case's types, is the same question for
// every backend; each backend then copies them its own way.
#ifndef HLOCHECK_ADAPTERS_REGION_PASS_THROUGH_H_
#define HLOCHECK_ADAPTERS_REGION_PASS_THROUGH_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "core/case.h"

namespace hlocheck {

// The tensor each result tensor of the case is (one per result type, in
// order): an operand's, or for infeed and recv an incoming one.
absl::StatusOr<std::vector<const Tensor*>> PassThroughSources(const Case& c);

// Yes for the ops and custom_call targets above (and hlocheck.zeros, whose
// results are all zero bits and have no source); else No, naming the target.
AdapterSupport SupportsPassThrough(const Case& c);

// custom_call's call_target_name ("" where it has none).
std::string CustomCallTarget(const Case& c);

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_REGION_PASS_THROUGH_H_
