// Which component implements which spec op: the oracle (or the issue that
// will bring it) and every backend. `hlocheck spec` prints it, and
// OpRegistryTest checks both sides' registries against spec/ops through it.
#ifndef HLOCHECK_RUNNERS_OP_SUPPORT_H_
#define HLOCHECK_RUNNERS_OP_SUPPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "spec/registry.h"

namespace hlocheck {

struct OpSupport {
  std::string op;
  bool oracle = false;
  int planned_issue = 0;       // not in the oracle yet: the issue that brings it, 0 if unlisted
  std::vector<bool> backends;  // parallel to OpSupportTable::backends
};

struct OpSupportTable {
  std::vector<std::string> backends;  // the real backends, in registry order
  std::vector<OpSupport> ops;         // every op of spec/ops, in its order
  // Names a registry reports that spec/ops does not know: "oracle: foo",
  // "cpu: bar". Empty when both sides agree with the spec.
  std::vector<std::string> unknown;
};

// Asks the oracle and every non-self-test backend (built with one thread)
// which ops they implement.
absl::StatusOr<OpSupportTable> BuildOpSupportTable(const spec::SpecRegistry& registry);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_OP_SUPPORT_H_
