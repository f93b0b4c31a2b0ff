// Exhaustive checking: every input of a unary elementwise op for a type of
// at most 16 bits, every input pair of a binary one for an 8-bit type, as one
// case run on the oracle and a backend; the worst ULP distance and where.
#ifndef HLOCHECK_RUNNERS_EXHAUSTIVE_H_
#define HLOCHECK_RUNNERS_EXHAUSTIVE_H_

#include <string>

#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "oracle/oracle.h"

namespace hlocheck {

struct ExhaustiveResult {
  std::string op;
  ElementType type = ElementType::kF32;
  int64_t inputs = 0;      // elements (unary) or pairs (binary) checked
  int64_t free = 0;        // left to the implementation by the spec
  int64_t mismatches = 0;  // beyond the allowed distance
  int64_t worst_ulp = -1;  // -1: the result type has no ULPs (integers, booleans)
  int allowed_ulp = 0;
  std::string worst_input;  // the input(s) of the worst element, as literals
  std::string worst_expected;
  std::string worst_actual;
  std::string first_mismatch;  // as CompareResult renders it
};

// Builds the all-inputs case for `op` on `type`, runs it on the oracle and
// on `backend`, and compares. Errors: an op that is not elementwise with
// one or two operands of `type`, a type too wide, or a backend that does not
// support the case.
absl::StatusOr<ExhaustiveResult> RunExhaustive(const spec::SpecRegistry& registry,
                                               const Oracle& oracle, Adapter& backend,
                                               const std::string& op, ElementType type);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_EXHAUSTIVE_H_
