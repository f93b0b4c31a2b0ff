// The ops whose semantics is running regions, the same for every backend
// that runs its regions through TensorRegion: if, case and while (the
// predicate, index or condition read on the host, the chosen region run),
// call and composite (the callee or decomposition run on the inputs). A
// backend supplies its op table (RegionOps); the CPU and CUDA backends both
// use these.
#ifndef HLOCHECK_ADAPTERS_REGION_CONTROL_FLOW_H_
#define HLOCHECK_ADAPTERS_REGION_CONTROL_FLOW_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "adapters/region/tensor_region.h"
#include "core/case.h"

namespace hlocheck {

// Whether the backend whose table `ops` is runs every region of the case
// (if, case, while, call, composite), or why not.
AdapterSupport SupportsRegionOp(const Case& c, const RegionOps& ops);

// Runs the case's regions as its op says, each op of a region through
// `ops`. `backend` names the backend in the message of a loop it gives up
// on (the spec leaves an infinite loop's behaviour open, #383).
absl::StatusOr<std::vector<Tensor>> RunRegionOp(const Case& c, const RegionOps& ops,
                                                const std::string& backend);

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_REGION_CONTROL_FLOW_H_
