// Negative cases: instances that violate exactly one constraint. A negative
// generator draws a valid case from the op's recipe and mutates the values
// the constraint speaks about (an attribute, an operand's or result's type, a
// region signature, the process grid) until the verifier reports that
// constraint and no other. Backends' verifiers must reject every such case.
#ifndef HLOCHECK_GENERATORS_NEGATIVE_H_
#define HLOCHECK_GENERATORS_NEGATIVE_H_

#include <string>
#include <vector>

#include "generators/case_generator.h"
#include "rapidcheck.h"
#include "spec/op_spec.h"
#include "spec/registry.h"

namespace hlocheck {

struct NegativeCase {
  GeneratedCase generated;  // the mutated instance (regions rebuilt where their types changed)
  std::vector<std::string> mutations;  // what was changed, in words
  int attempts = 0;                    // draws tried before this one
  // No mutation of a generated case worked within the attempts, and this is
  // the spec's own violating instance (the constraint's `violated_by`).
  bool from_spec_instance = false;
};

struct NegativeOptions {
  GenerationOptions generation;  // for the valid case each attempt starts from
  int max_attempts = 500;
};

// The names (operands, results, attributes, regions, grid) a constraint's
// formula and condition read, through the op's definitions, plus what its
// `violated_by` instance changes.
std::vector<std::string> ConstraintTargets(const spec::OpSpec& op,
                                           const spec::ConstraintSpec& constraint);

// Mutates generated cases; when no attempt succeeds, falls back to the
// constraint's `violated_by` instance (marked as such). Fails generation
// (rc::GenerationFailure) when that does not exist or does not violate the
// constraint alone either.
rc::Gen<NegativeCase> NegativeCaseGenerator(const spec::SpecRegistry& registry,
                                            const spec::OpSpec& op,
                                            const spec::ConstraintSpec& constraint,
                                            const NegativeOptions& options);

rc::Shrinkable<NegativeCase> GenerateNegative(const spec::SpecRegistry& registry,
                                              const spec::OpSpec& op,
                                              const spec::ConstraintSpec& constraint,
                                              const NegativeOptions& options, uint64_t seed,
                                              int size);

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_NEGATIVE_H_
