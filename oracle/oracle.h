// The reference oracle: every op of the spec, computed exactly or correctly
// rounded, returning with each result what a conforming implementation may
// return instead (a ULP bound, an error bound, or "any value").
//
// Independence rule: the oracle never calls adapter code; it shares only
// core/ with the adapters.
#ifndef HLOCHECK_ORACLE_ORACLE_H_
#define HLOCHECK_ORACLE_ORACLE_H_

#include <memory>
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
std::vector<OpEntry> ElementwiseMapOps();
std::vector<OpEntry> ElementwiseConversionOps();
std::vector<OpEntry> ElementwiseRoundingOps();
std::vector<OpEntry> ElementwiseTranscendentalOps();
std::vector<OpEntry> BatchNormOps();
std::vector<OpEntry> RandomNumbersOps();
std::vector<OpEntry> ContractionOps();
std::vector<OpEntry> ControlFlowOps();
std::vector<OpEntry> CallsOps();
std::vector<OpEntry> CollectivesOps();
std::vector<OpEntry> FftOps();
std::vector<OpEntry> LinearAlgebraOps();
std::vector<OpEntry> QuantizationOps();
std::vector<OpEntry> ReductionOps();
std::vector<OpEntry> SideEffectsOps();
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

// The function of an op, or null when the oracle lacks it: for a caller
// that runs the op many times on cases it has had verified (PreparedRegion).
OpFunction FindOpFunction(std::string_view op);

// The op on quantized tensors as its spec's quantized_semantics say
// (oracle/quantized_ops.cc): `function` computes the op on floats (or, for
// the ops that move storage or define their own quantized semantics, on
// the case as it is).
absl::StatusOr<std::vector<ResultExpectation>> ComputeQuantized(const Case& c,
                                                                const spec::OpSpec& op,
                                                                OpFunction function);

// FailedPrecondition when the floating-point environment flushes
// subnormals (the oracle relies on the host's IEEE arithmetic).
absl::Status CheckFloatingPointEnvironment();

// Runs a region (a reduce body, a sort comparator, ...) on the oracle, for
// the ops that take one; defined with the interpreter.
absl::StatusOr<std::vector<Tensor>> CallRegion(const Region& region,
                                               const std::vector<Tensor>& arguments);

// A region body that an op calls many times (a sort comparator at every
// comparison, a scatter combiner at every update), made ready once.
//
// The first call runs the body through the interpreter, as CallRegion does:
// every op is verified against its spec there, and any error is that call's.
// Verification reads only types and attributes, never values, so later calls
// with arguments of the same types would pass it again; they skip it and run
// the body's ops straight through their oracle functions, on cases built at
// the first call, with no map, no copy of the region and no re-verification.
// A body the fast path does not cover (control flow, nested regions, calls,
// tuples, tokens, quantized values) keeps going through the interpreter.
class PreparedRegion {
 public:
  explicit PreparedRegion(const Region& region);
  ~PreparedRegion();
  PreparedRegion(const PreparedRegion&) = delete;
  PreparedRegion& operator=(const PreparedRegion&) = delete;

  // The region's results for `arguments`; they stay valid until the next call.
  absl::StatusOr<std::span<const Tensor>> Call(std::span<const Tensor> arguments);

  // Whether the calls after the first skip the interpreter (for tests).
  bool prepared() const { return body_ != nullptr; }

  // Whether the last call's results may depend on a value the spec leaves
  // to the implementation: some op of the body gave a free element (a
  // compare of the FNUZ NaN under TOTALORDER, say). Known only where the
  // body is prepared (else false).
  bool last_call_open() const { return open_; }

 private:
  struct Body;
  const Region& region_;
  std::unique_ptr<Body> body_;  // null until a first call succeeded on a body it covers
  std::vector<Tensor> results_;
  bool open_ = false;
};

}  // namespace oracle
}  // namespace hlocheck

#endif  // HLOCHECK_ORACLE_ORACLE_H_
