// Metamorphic variants of a program: programs the spec says compute the
// same outputs, so that a backend that answers one of them differently has
// a bug even where it gets the original right. Each variant keeps @main's
// outputs in order, so the original's reference (program_check.h) judges
// it unchanged.
//   constants  the arguments folded in as constants (compilers fold them:
//              a code path of its own, openxla/xla#21461)
//   barriers   an optimization_barrier after every op (nothing fuses)
//   reordered  the ops in another topological order (independent
//              subgraphs swapped)
//   rewritten  identities the spec guarantees bit for bit inserted at
//              values: transpose then its inverse, reshape to one dimension
//              and back, select with a constant predicate, and a
//              multiplication by 2^k then 2^-k where the oracle's values
//              show that nothing overflows or becomes subnormal
#ifndef HLOCHECK_RUNNERS_PROGRAM_VARIANTS_H_
#define HLOCHECK_RUNNERS_PROGRAM_VARIANTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/program.h"
#include "runners/program_check.h"

namespace hlocheck {

struct ProgramVariant {
  std::string relation;     // constants, barriers, reordered, rewritten
  std::string description;  // what was changed, in words
  Module module;
  std::vector<Tensor> arguments;
};

// The relations, in the order they are tried.
const std::vector<std::string>& ProgramRelations();

// The variant of `relation`; `seed` picks the order or the rewrites.
// `reference` is the original's (rewrites read the oracle's values).
absl::StatusOr<ProgramVariant> MakeVariant(const std::string& relation, const Module& module,
                                           const std::vector<Tensor>& arguments,
                                           const ProgramReference& reference, uint64_t seed);

// The program with its arguments as stablehlo.constant ops: @main takes
// none. What a reproducer file holds.
Module WithConstantArguments(const Module& module, const std::vector<Tensor>& arguments);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_PROGRAM_VARIANTS_H_
