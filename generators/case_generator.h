// Random valid cases for any op, built by one engine from the op's YAML
// recipe: the recipe's formulas run in the spec's notation, with random
// choice functions (gen_shape, gen_int, gen_permutation, ...) that draw from
// RapidCheck, so every choice shrinks.
#ifndef HLOCHECK_GENERATORS_CASE_GENERATOR_H_
#define HLOCHECK_GENERATORS_CASE_GENERATOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/case.h"
#include "generators/data.h"
#include "rapidcheck.h"
#include "spec/op_spec.h"

namespace hlocheck {

struct GenerationOptions {
  // The element type of the op's first operand; any type it accepts if unset.
  std::optional<ElementType> primary_type;
  int max_rank = 6;
  int64_t max_elements = 4096;  // per tensor
  std::vector<DataPolicy> data_policies = AllDataPolicies();
};

// Element types the op's first operand accepts (the "type" of a case in reports).
std::vector<ElementType> PrimaryTypes(const spec::OpSpec& op);

rc::Gen<Case> CaseGenerator(const spec::OpSpec& op, const GenerationOptions& options);

// One case, deterministically: the same (seed, size) gives the same case on
// every machine.
rc::Shrinkable<Case> GenerateCase(const spec::OpSpec& op, const GenerationOptions& options,
                                  uint64_t seed, int size);

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_CASE_GENERATOR_H_
