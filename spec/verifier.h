// The verifier: evaluates every constraint of an op on an op instance and
// names each one that does not hold, with the values that made it false.
#ifndef HLOCHECK_SPEC_VERIFIER_H_
#define HLOCHECK_SPEC_VERIFIER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "spec/formula/evaluator.h"
#include "spec/instance.h"
#include "spec/op_spec.h"

namespace hlocheck::spec {

class SpecRegistry;

enum class Outcome {
  kHolds,
  kViolated,
  kNotApplicable,  // a conditional constraint whose condition is false
  kNotEvaluable,   // the formula failed to evaluate, usually because another
                   // constraint is violated (an index out of range, say)
};

struct ConstraintResult {
  // "C3", "C18 (public)", an input label ("I1") for the Inputs table's
  // rules, or "quantized type C6 (operand lhs)" for a type-level constraint.
  std::string id;
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

// Binds the instance's names into an evaluator: operands and results as
// their types (lists for variadic ones), regions as function types,
// attributes as values (defaults for absent optional ones, None otherwise),
// num_replicas, num_partitions, num_processes, and the op's definitions.
absl::Status BindInstance(const OpSpec& op, const OpInstance& instance, Evaluator* evaluator);

// Checks the Inputs/Outputs tables (arity, value kinds, element types,
// attribute presence and types), the type-level constraints of every
// quantized type (when `registry` has them), then every numbered constraint.
VerifyResult Verify(const OpSpec& op, const OpInstance& instance,
                    const SpecRegistry* registry = nullptr);
VerifyResult Verify(const OpSpec& op, const Case& c, const SpecRegistry* registry = nullptr);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_VERIFIER_H_
