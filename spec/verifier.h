// The verifier: evaluates every constraint of an op on a concrete op
// instance and names each one that does not hold, with the values that
// made it false.
#ifndef HLOCHECK_SPEC_VERIFIER_H_
#define HLOCHECK_SPEC_VERIFIER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "spec/formula/evaluator.h"
#include "spec/op_spec.h"

namespace hlocheck::spec {

enum class Outcome {
  kHolds,
  kViolated,
  kNotApplicable,  // a conditional constraint whose condition is false
  kNotEvaluable,   // the formula failed to evaluate, usually because another
                   // constraint is violated (an index out of range, say)
};

struct ConstraintResult {
  std::string id;    // "C3", or an input label ("I1") for the Inputs table's type rules
  std::string text;  // English
  std::string formula;
  Outcome outcome = Outcome::kHolds;
  Trace values;       // the sub-expressions that decided a violation
  std::string error;  // kNotEvaluable: why
  std::string ToString() const;
};

struct VerifyResult {
  std::vector<ConstraintResult> results;  // input checks first, then C1..Cn

  bool valid() const;
  std::vector<const ConstraintResult*> Violations() const;  // kViolated and kNotEvaluable
  std::vector<std::string> ViolatedIds() const;             // kViolated only
  std::string Report() const;
};

// Binds the op instance's names (operands and results as types, attributes
// as values, defaults for absent optional attributes, the spec's local
// definitions) into an evaluator.
absl::Status BindInstance(const OpSpec& op, const Case& c, Evaluator* evaluator);

// Checks the Inputs/Outputs tables (arity, value kinds, element types,
// attribute presence) and then every numbered constraint.
VerifyResult Verify(const OpSpec& op, const Case& c);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_VERIFIER_H_
