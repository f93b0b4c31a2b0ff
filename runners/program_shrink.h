// Shrinks a program that fails on a backend to a small one that fails the
// same way: outputs that do not show the failure are dropped (all but one,
// else one at a time), ops are
// frozen (an op's results become new arguments holding the oracle's
// values, and whatever only fed it disappears) or bypassed (its result
// read from one of its operands instead), data movement is moved past the
// elementwise op that alone reads it (so that it reaches the outputs, where it
// is bypassed), dead ops and unused arguments
// are removed; a program of elementwise ops is cut to its failing element
// (every value of the output's shape made a scalar); then the arguments'
// data is zeroed, whole or in halves. Each step is kept only if the
// failure survives. Other programs have their shapes cut down to what the
// failing element is computed from (ShrinkShapes), as far as the ops allow.
#ifndef HLOCHECK_RUNNERS_PROGRAM_SHRINK_H_
#define HLOCHECK_RUNNERS_PROGRAM_SHRINK_H_

#include <functional>
#include <optional>
#include <vector>

#include "core/program.h"
#include "runners/program_check.h"

namespace hlocheck {

struct ProgramUnderTest {
  Module module;
  std::vector<Tensor> arguments;
};

// Runs a program on the oracle and the backend: the oracle's reference
// (an error if the oracle cannot run it) and the backend's outcome.
struct ProgramTrial {
  absl::StatusOr<ProgramReference> reference;
  ProgramOutcome outcome;
};
using ProgramTrialFn = std::function<ProgramTrial(const ProgramUnderTest&)>;

struct ShrunkProgram {
  ProgramUnderTest program;
  ProgramTrial trial;  // of `program`
  int steps = 0;       // shrinks kept
  int attempts = 0;    // trials run
};

// `failing` fails with `trial.outcome` (not a pass). At most
// `max_attempts` trials.
ShrunkProgram ShrinkProgram(ProgramUnderTest failing, ProgramTrial trial, const ProgramTrialFn& run,
                            int max_attempts);

// Every value of `program` cut down to the elements that its outputs'
// elements `elements` (row-major; nullopt: all of that output) are
// computed from, through the ops whose boxes of operands are known
// (program_shrink_shapes.cc); a slice gives a reader its part where the
// value holds more. Nullopt where nothing gets smaller.
std::optional<ProgramUnderTest> ShrinkShapes(const ProgramUnderTest& program,
                                             const std::vector<std::optional<int64_t>>& elements);

// Removes ops whose results nothing uses, then arguments nothing uses.
void RemoveDeadCode(ProgramUnderTest& program);

// The number of ops of @main, its return not counted.
int OpCount(const Module& module);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_PROGRAM_SHRINK_H_
