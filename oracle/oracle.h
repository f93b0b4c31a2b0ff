// The reference oracle: every op of the spec, computed exactly or correctly
// rounded, returning with each result what a conforming implementation may
// return instead (a ULP bound, an error bound, or "any value").
//
// Independence rule: the oracle never calls adapter code; it shares only
// core/ with the adapters.
#ifndef HLOCHECK_ORACLE_ORACLE_H_
#define HLOCHECK_ORACLE_ORACLE_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "oracle/expectation.h"
#include "spec/registry.h"

namespace hlocheck {

class Oracle {
 public:
  explicit Oracle(const spec::SpecRegistry* registry) : registry_(registry) {}
  // Virtual so that a test can stand in an oracle that fails in ways the
  // real one does not (throwing, say) and prove the gate survives it.
  virtual ~Oracle() = default;

  // Whether the oracle implements the op.
  bool Implements(std::string_view op) const;
  std::vector<std::string> ImplementedOps() const;

  // Verifies the case against the op's constraints, then computes it. An
  // invalid case is an InvalidArgument error that names every violated
  // constraint; an op the oracle does not implement is Unimplemented.
  absl::StatusOr<std::vector<ResultExpectation>> Run(const Case& c) const;

  // Computes without verifying (the caller has verified). Each result's
  // allowed_ulp is the op's YAML bound for its element type.
  virtual absl::StatusOr<std::vector<ResultExpectation>> Compute(const Case& c) const;

 private:
  const spec::SpecRegistry* registry_;
};

namespace oracle {

using OpFunction = absl::StatusOr<std::vector<ResultExpectation>> (*)(const Case&);

// One entry per op, from the topic files: one table per file, named after
// it (elementwise_arithmetic.cc: ElementwiseArithmeticOps(), ...). The CPU
// adapter's files have the same names (adapters/cpu/).
struct OpEntry {
  const char* name;
  OpFunction function;
};
std::vector<OpEntry> ElementwiseArithmeticOps();
std::vector<OpEntry> ElementwiseBitwiseOps();
std::vector<OpEntry> ElementwiseCompareSelectOps();
std::vector<OpEntry> ElementwiseComplexOps();
std::vector<OpEntry> ElementwiseConversionOps();
std::vector<OpEntry> ElementwiseRoundingOps();
std::vector<OpEntry> ElementwiseTranscendentalOps();
std::vector<OpEntry> ContractionOps();
std::vector<OpEntry> DataMovementIndexingOps();
std::vector<OpEntry> DataMovementScatterOps();
std::vector<OpEntry> DataMovementShapeOps();
std::vector<OpEntry> DataMovementSortOps();
std::vector<OpEntry> DataMovementTuplesOps();
std::vector<OpEntry> DataMovementValuesOps();

// A spec op the oracle does not implement yet, and the issue that brings it
// (oracle/not_yet_implemented.cc holds the one list of them).
struct NotYetImplemented {
  std::string_view op;
  int issue;
  std::string_view family;
};
std::span<const NotYetImplemented> OpsNotYetImplemented();
const NotYetImplemented* FindNotYetImplemented(std::string_view op);  // null if not listed

// Runs a region (a reduce body, a sort comparator, ...) on the oracle, for
// the ops that take one; defined with the interpreter.
absl::StatusOr<std::vector<Tensor>> CallRegion(const Region& region,
                                               const std::vector<Tensor>& arguments);

}  // namespace oracle
}  // namespace hlocheck

#endif  // HLOCHECK_ORACLE_ORACLE_H_
