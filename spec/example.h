// The spec's own example of an op as a case: its inputs parsed from the
// YAML's StableHLO literals and attribute values, and its expected results.
#ifndef HLOCHECK_SPEC_EXAMPLE_H_
#define HLOCHECK_SPEC_EXAMPLE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "spec/op_spec.h"

namespace hlocheck::spec {

struct ExampleCase {
  Case c;
  std::vector<Tensor> expected;  // one per result
};

// An error if the op has no example or it does not parse.
absl::StatusOr<ExampleCase> ExampleAsCase(const OpSpec& op);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_EXAMPLE_H_
