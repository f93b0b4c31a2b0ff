#include "adapters/region/control_flow.h"

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace {

// A loop a backend gives up on rather than spin forever.
constexpr int64_t kMaxIterations = int64_t{1} << 24;

AdapterSupport SupportsBranches(const Case& c, const RegionOps& ops) {
  if (c.operands.size() != 1 || c.regions.empty()) {
    return AdapterSupport::No(c.op + " needs 1 operand and branches");
  }
  if (c.op == "if" && c.regions.size() != 2) return AdapterSupport::No("if needs two branches");
  for (size_t i = 0; i < c.regions.size(); ++i) {
    absl::StatusOr<TensorRegion> branch =
        TensorRegion::Create(c.regions[i], {}, absl::StrCat(c.op, ": branch ", i), ops);
    if (!branch.ok()) return AdapterSupport::No(std::string(branch.status().message()));
    if (!branch->support().supported) return branch->support();
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<std::vector<Tensor>> RunBranch(const Case& c, size_t branch, const RegionOps& ops) {
  HLOCHECK_ASSIGN_OR_RETURN(
      TensorRegion region,
      TensorRegion::Create(c.regions[branch], {}, absl::StrCat(c.op, ": branch ", branch), ops));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> values, region.Run({}, ops));
  return ResultTensors(c, std::move(values));
}

// if: result = true_branch() if pred else false_branch().
absl::StatusOr<std::vector<Tensor>> RunIf(const Case& c, const RegionOps& ops) {
  if (c.operands.size() != 1 || c.regions.size() != 2 ||
      c.operands[0].type() != TensorType{{}, ElementType::kI1}) {
    return absl::InvalidArgumentError("if needs a tensor<i1> pred and two branches");
  }
  const bool pred = c.operands[0].values<ElementType::kI1>()[0] != 0;
  return RunBranch(c, pred ? 0 : 1, ops);
}

// case: result = branches[index]() if 0 <= index < size(branches), else
// branches[-1]().
absl::StatusOr<std::vector<Tensor>> RunCaseOp(const Case& c, const RegionOps& ops) {
  if (c.operands.size() != 1 || c.regions.empty() ||
      c.operands[0].type() != TensorType{{}, ElementType::kSI32}) {
    return absl::InvalidArgumentError("case needs a tensor<i32> index and branches");
  }
  const int64_t index = c.operands[0].values<ElementType::kSI32>()[0];
  const auto count = static_cast<int64_t>(c.regions.size());
  return RunBranch(c, static_cast<size_t>(index < 0 || index >= count ? count - 1 : index), ops);
}

struct Loop {
  TensorRegion cond;
  TensorRegion body;
};

absl::StatusOr<Loop> MakeLoop(const Case& c, const RegionOps& ops) {
  if (c.regions.size() != 2) return absl::InvalidArgumentError("while needs cond and body");
  const std::vector<ValueType> types = c.OperandValueTypes();
  HLOCHECK_ASSIGN_OR_RETURN(TensorRegion cond,
                            TensorRegion::Create(c.regions[0], types, "while: cond", ops));
  HLOCHECK_ASSIGN_OR_RETURN(TensorRegion body,
                            TensorRegion::Create(c.regions[1], types, "while: body", ops));
  return Loop{std::move(cond), std::move(body)};
}

AdapterSupport SupportsWhile(const Case& c, const RegionOps& ops) {
  absl::StatusOr<Loop> loop = MakeLoop(c, ops);
  if (!loop.ok()) return AdapterSupport::No(std::string(loop.status().message()));
  if (!loop->cond.support().supported) return loop->cond.support();
  return loop->body.support();
}

// while: internal_state = operand; while cond(*internal_state):
// internal_state = body(*internal_state); results = internal_state.
absl::StatusOr<std::vector<Tensor>> RunWhile(const Case& c, const RegionOps& ops,
                                             const std::string& backend) {
  HLOCHECK_ASSIGN_OR_RETURN(Loop loop, MakeLoop(c, ops));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> state, OperandValues(c));
  for (int64_t iteration = 0;; ++iteration) {
    HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> condition, loop.cond.Run(state, ops));
    if (condition.size() != 1 || condition[0].type != ValueType::Of({{}, ElementType::kI1})) {
      return absl::InvalidArgumentError("while: cond must return a tensor<i1>");
    }
    if (condition[0].tensor.values<ElementType::kI1>()[0] == 0) break;
    if (iteration == kMaxIterations) {
      return absl::DeadlineExceededError(absl::StrCat("while: still looping after ", kMaxIterations,
                                                      " iterations; the ", backend,
                                                      " adapter stops"));
    }
    HLOCHECK_ASSIGN_OR_RETURN(state, loop.body.Run(std::move(state), ops));
  }
  return ResultTensors(c, std::move(state));
}

// composite's decomposition, func.call's callee: the case's first region.
absl::StatusOr<TensorRegion> Decomposition(const Case& c, const RegionOps& ops) {
  const std::string what = c.op == "call" ? "callee" : "decomposition";
  if (c.regions.empty()) return absl::InvalidArgumentError(c.op + ": no " + what);
  return TensorRegion::Create(c.regions[0], c.OperandValueTypes(), c.op + ": " + what, ops);
}

// composite: results = decomposition(inputs) (its other regions ignored, as
// when the decomposition is inlined); call: results = callee(inputs).
absl::StatusOr<std::vector<Tensor>> RunComposite(const Case& c, const RegionOps& ops) {
  HLOCHECK_ASSIGN_OR_RETURN(TensorRegion decomposition, Decomposition(c, ops));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> inputs, OperandValues(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> results, decomposition.Run(std::move(inputs), ops));
  return ResultTensors(c, std::move(results));
}

}  // namespace

AdapterSupport SupportsRegionOp(const Case& c, const RegionOps& ops) {
  if (c.op == "if" || c.op == "case") return SupportsBranches(c, ops);
  if (c.op == "while") return SupportsWhile(c, ops);
  absl::StatusOr<TensorRegion> decomposition = Decomposition(c, ops);
  if (!decomposition.ok()) return AdapterSupport::No(std::string(decomposition.status().message()));
  return decomposition->support();
}

absl::StatusOr<std::vector<Tensor>> RunRegionOp(const Case& c, const RegionOps& ops,
                                                const std::string& backend) {
  if (c.op == "if") return RunIf(c, ops);
  if (c.op == "case") return RunCaseOp(c, ops);
  if (c.op == "while") return RunWhile(c, ops, backend);
  if (c.op == "call" || c.op == "composite") return RunComposite(c, ops);
  return absl::InternalError("not an op that runs regions: " + c.op);
}

}  // namespace hlocheck
