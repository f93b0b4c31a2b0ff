// The control-flow ops' semantics (if, case, while), in one place for the
// two callers that run them: the interpreter, on a program's values with the
// regions' captures in scope (interpreter.cc), and the oracle's op table, on
// a gate case whose regions stand alone (control_flow.cc).
#ifndef HLOCHECK_ORACLE_CONTROL_FLOW_H_
#define HLOCHECK_ORACLE_CONTROL_FLOW_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "core/program.h"
#include "core/tensor.h"
#include "oracle/interpreter.h"

namespace hlocheck::oracle {

// Runs one region on values (a branch, a loop's cond or body).
using RegionRunner = std::function<absl::StatusOr<std::vector<RuntimeValue>>(
    const Region& region, std::vector<RuntimeValue> arguments)>;

// The spec leaves an infinite loop's behaviour open (TBD, #383); the oracle
// stops a loop after this many iterations and says so, rather than hang.
inline constexpr int64_t kMaxLoopIterations = int64_t{1} << 24;

// if: true_branch when pred is true, else false_branch (the index of the
// branch among the op's two regions). pred must be a tensor<i1>.
absl::StatusOr<size_t> IfBranch(const Tensor& pred);

// case: branches[index] when 0 <= index < size(branches), else the last
// branch. index must be a tensor<si32>.
absl::StatusOr<size_t> CaseBranch(const Tensor& index, size_t branch_count);

// while: internal_state = operand; while cond(*internal_state):
// internal_state = body(*internal_state); results = internal_state.
absl::StatusOr<std::vector<RuntimeValue>> WhileLoop(const Region& cond, const Region& body,
                                                    std::vector<RuntimeValue> operands,
                                                    const RegionRunner& run);

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_CONTROL_FLOW_H_
