// The control-flow ops' semantics (if, case, while), in one place for the
// two callers that run them: the interpreter, on a program's values with the
// regions' captures in scope (interpreter.cc), and the oracle's op table, on
// a gate case whose regions stand alone (control_flow.cc).
#ifndef HLOCHECK_ORACLE_CONTROL_FLOW_H_
#define HLOCHECK_ORACLE_CONTROL_FLOW_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
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

// The operand values of a case: its tensors, and tokens where its structure
// has them. Unimplemented for tuples and quantized tensors (the ops that run
// regions on a case take tensors and tokens: control flow, composite).
absl::StatusOr<std::vector<RuntimeValue>> OperandValues(const Case& c);

// Runs the regions of one case (a branch, a loop's cond and body, a
// decomposition) through an interpreter of its own on the default oracle,
// and notes every op inside them whose result is not one exact value.
//
// The interpreter carries only an op's reference values to the next op.
// That is exact only where every op of the regions is: a rounding bound, a
// value the spec leaves free, a permutable order or a distribution inside a
// region would be lost at the next op, so the runner then fails with
// Unimplemented ("unsupported: ...") rather than give a value the oracle
// cannot stand by.
class CaseRegions {
 public:
  explicit CaseRegions(std::string op);
  RegionRunner runner();
  // While the returned scope lives, the runner's regions are a loop's cond
  // and body: each op is verified at its first iteration only
  // (Interpreter::LoopScope). Null when the spec could not be loaded.
  std::unique_ptr<Interpreter::LoopScope> LoopScope();
  // The tensors of the values, in order (a token holds none), each to be
  // compared bit for bit.
  absl::StatusOr<std::vector<ResultExpectation>> Expectations(
      const std::vector<RuntimeValue>& values) const;

 private:
  std::string op_;
  std::unique_ptr<Interpreter> interpreter_;
  std::shared_ptr<std::string> inexact_;  // the first inexact op, or empty
};

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_CONTROL_FLOW_H_
