// What the spec says a multi-op program must return, and whether a
// backend did. The oracle runs the program op by op (oracle/interpreter.h);
// each value then carries which of its elements the spec determines bit for
// bit given the program's arguments:
//   - an op whose result the spec fixes exactly (integers, data movement,
//     comparisons, IEEE-basic arithmetic and conversions: 0-ULP ops) keeps
//     an element determined when the operand elements it reads are;
//   - an op with freedom (a ULP or error bound, elements left open, an
//     unstable sort's ties) makes its results undetermined downstream.
// A program output is compared with the oracle's expectation for the op
// that produced it, with every element it inherits freedom into left open:
// bit for bit along chains of exact ops, within the last op's own bound
// where only that op has freedom, and past an op with freedom within
// bounds carried through the ops that admit them (program_bounds.h),
// else not at all (docs/numerics.md, "Programs"). Elements are followed one by one through
// elementwise ops (and map), and as a whole through every other op.
//
// A backend's declared deviations (backend_profile.h) excuse an output
// element only where the deviation could have reached it: flush_subnormals
// where an op of a declared type read or produced a subnormal on its way,
// nan_min_max where a declared op saw a NaN, max_ulp past a declared op.
#ifndef HLOCHECK_RUNNERS_PROGRAM_CHECK_H_
#define HLOCHECK_RUNNERS_PROGRAM_CHECK_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/program.h"
#include "oracle/compare.h"
#include "oracle/expectation.h"
#include "oracle/oracle.h"
#include "runners/backend_profile.h"
#include "runners/program_bounds.h"

namespace hlocheck {

// What the oracle knows of one value of @main.
struct ValueFacts {
  Tensor value;                      // the oracle's (reference) value
  std::vector<uint8_t> determined;   // per element: fixed bit for bit by the spec
  std::vector<uint64_t> deviations;  // per element: bit k, profile deviation k may reach it
  // What a conforming backend's value may be, element by element, where it
  // is not fixed: carried past ops with freedom (program_bounds.h).
  ElementBounds bounds;
  // Per element without bounds: where it lost them (1 + an index into the
  // tracer's causes; 0, or empty for the whole value: it has them).
  std::vector<uint16_t> lost_at;
};

struct ProgramReference {
  // One per output of @main, in order: the producing op's expectation
  // (kExact for an argument) with every element that inherits freedom
  // marked free.
  std::vector<ResultExpectation> outputs;
  std::vector<std::vector<uint64_t>> output_deviations;  // as ValueFacts::deviations
  // Per output: bounds on the elements the expectation leaves free.
  std::vector<ElementBounds> output_bounds;
  // Every tensor value of @main (arguments and op results) by id.
  std::map<ValueId, ValueFacts> values;
  // Output elements in all, those fixed bit for bit, and those compared at
  // all (fixed, within the last op's bound, or within bounds carried past
  // freedom; the last counted again in bounded_elements).
  int64_t output_elements = 0;
  int64_t determined_elements = 0;
  int64_t compared_elements = 0;
  int64_t bounded_elements = 0;
  // Output elements not compared, by the op where their value lost its
  // bound ("sine (no bound carried through it)", "convert (elements left
  // open by the spec)"): what keeps the rest unchecked.
  std::map<std::string, int64_t> unchecked_by_cause;
};

// Runs @main on the oracle. `profile` may be null (no deviations).
// Unimplemented: an op the oracle does not run; InvalidArgument: the spec
// forbids one of the program's ops (the verifier's reason, naming it).
absl::StatusOr<ProgramReference> ReferenceOfProgram(const Oracle& oracle,
                                                    const spec::SpecRegistry& registry,
                                                    const Module& module,
                                                    const std::vector<Tensor>& arguments,
                                                    const BackendProfile* profile);

struct ProgramOutcome {
  enum class Kind {
    kPass,
    kMismatch,      // an output element outside what the spec allows
    kDeviation,     // mismatches, each excused by a declared deviation
    kBackendError,  // the backend rejected or failed the program
    kCrash,         // the backend's process died
    kHang,          // the backend did not answer in time
  };
  Kind kind = Kind::kPass;
  std::string message;  // the backend's error, or the first mismatches in words
  std::vector<ResultComparison> comparisons;  // one per output (when it ran)
  std::vector<int64_t> unexpected;            // per output: mismatches no deviation excuses
  std::vector<std::string> excused_by;        // ids of the deviations that excused some
};

const char* ProgramOutcomeKindName(ProgramOutcome::Kind kind);

// Judges what a backend returned for the program whose reference this is.
ProgramOutcome JudgeProgram(const ProgramReference& reference,
                            const absl::StatusOr<std::vector<Tensor>>& backend,
                            const BackendProfile* profile);

// Whether two outcomes are the same failure (a shrink step must keep the
// failure it started from): the same kind, for mismatches any output's
// mismatch surviving (the others are dropped first), for backend errors the
// same first line of the message but for its numbers.
bool SameFailure(const ProgramOutcome& a, const ProgramOutcome& b);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_PROGRAM_CHECK_H_
