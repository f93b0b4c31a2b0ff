// Control flow of the spec: if, case and while. Their regions run on whole
// tensors through this adapter's own op table (tensor_region.h), each op
// of a region a case of its own, as the adapter runs any other case; a
// region op the adapter lacks makes the case unsupported, by name. Nothing
// here calls the oracle (the interpreter is the oracle's).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/tensor_region.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// A loop the adapter gives up on rather than spin forever: the spec leaves
// an infinite loop's behaviour open (#383).
constexpr int64_t kMaxIterations = int64_t{1} << 24;

// Every region of the case, each run with no arguments (if's and case's
// branches).
AdapterSupport SupportsBranches(const Case& c, size_t operands) {
  if (c.operands.size() != operands || c.regions.empty()) {
    return AdapterSupport::No(absl::StrCat(c.op, " needs ", operands, " operand and branches"));
  }
  for (size_t i = 0; i < c.regions.size(); ++i) {
    absl::StatusOr<TensorRegion> branch =
        TensorRegion::Create(c.regions[i], {}, absl::StrCat(c.op, ": branch ", i), CpuRegionOps());
    if (!branch.ok()) return AdapterSupport::No(std::string(branch.status().message()));
    if (!branch->support().supported) return branch->support();
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunBranch(const Case& c, size_t branch, const Device& device) {
  HLOCHECK_ASSIGN_OR_RETURN(
      TensorRegion region,
      TensorRegion::Create(c.regions[branch], {}, absl::StrCat(c.op, ": branch ", branch),
                           CpuRegionOps()));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> values, region.Run({}, CpuRegionOps(&device)));
  return ResultTensors(c, std::move(values));
}

AdapterSupport SupportsIf(const Case& c) {
  if (c.regions.size() != 2) return AdapterSupport::No("if needs two branches");
  return SupportsBranches(c, 1);
}

// if: result = true_branch() if pred else false_branch().
absl::StatusOr<Results> RunIf(const Case& c, const Device& device) {
  if (c.operands.size() != 1 || c.regions.size() != 2 ||
      c.operands[0].type() != TensorType{{}, ElementType::kI1}) {
    return absl::InvalidArgumentError("if needs a tensor<i1> pred and two branches");
  }
  const bool pred = c.operands[0].values<ElementType::kI1>()[0] != 0;
  return RunBranch(c, pred ? 0 : 1, device);
}

AdapterSupport SupportsCaseOp(const Case& c) { return SupportsBranches(c, 1); }

// case: result = branches[index]() if 0 <= index < size(branches), else
// branches[-1]().
absl::StatusOr<Results> RunCaseOp(const Case& c, const Device& device) {
  if (c.operands.size() != 1 || c.regions.empty() ||
      c.operands[0].type() != TensorType{{}, ElementType::kSI32}) {
    return absl::InvalidArgumentError("case needs a tensor<i32> index and branches");
  }
  const int64_t index = c.operands[0].values<ElementType::kSI32>()[0];
  const auto count = static_cast<int64_t>(c.regions.size());
  return RunBranch(c, static_cast<size_t>(index < 0 || index >= count ? count - 1 : index), device);
}

struct Loop {
  TensorRegion cond;
  TensorRegion body;
};

absl::StatusOr<Loop> MakeLoop(const Case& c) {
  if (c.regions.size() != 2) return absl::InvalidArgumentError("while needs cond and body");
  const std::vector<ValueType> types = c.OperandValueTypes();
  HLOCHECK_ASSIGN_OR_RETURN(
      TensorRegion cond, TensorRegion::Create(c.regions[0], types, "while: cond", CpuRegionOps()));
  HLOCHECK_ASSIGN_OR_RETURN(
      TensorRegion body, TensorRegion::Create(c.regions[1], types, "while: body", CpuRegionOps()));
  return Loop{std::move(cond), std::move(body)};
}

AdapterSupport SupportsWhile(const Case& c) {
  absl::StatusOr<Loop> loop = MakeLoop(c);
  if (!loop.ok()) return AdapterSupport::No(std::string(loop.status().message()));
  if (!loop->cond.support().supported) return loop->cond.support();
  return loop->body.support();
}

// while: internal_state = operand; while cond(*internal_state):
// internal_state = body(*internal_state); results = internal_state.
absl::StatusOr<Results> RunWhile(const Case& c, const Device& device) {
  HLOCHECK_ASSIGN_OR_RETURN(Loop loop, MakeLoop(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> state, OperandValues(c));
  const CpuRegionOps ops(&device);
  for (int64_t iteration = 0;; ++iteration) {
    HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> condition, loop.cond.Run(state, ops));
    if (condition.size() != 1 || condition[0].type != ValueType::Of({{}, ElementType::kI1})) {
      return absl::InvalidArgumentError("while: cond must return a tensor<i1>");
    }
    if (condition[0].tensor.values<ElementType::kI1>()[0] == 0) break;
    if (iteration == kMaxIterations) {
      return absl::DeadlineExceededError(absl::StrCat("while: still looping after ", kMaxIterations,
                                                      " iterations; the CPU adapter stops"));
    }
    HLOCHECK_ASSIGN_OR_RETURN(state, loop.body.Run(std::move(state), ops));
  }
  return ResultTensors(c, std::move(state));
}

}  // namespace

std::vector<OpEntry> ControlFlowOps() {
  return {
      {"case", kVariadic, &SupportsCaseOp, &RunCaseOp},
      {"if", kVariadic, &SupportsIf, &RunIf},
      {"while", kVariadic, &SupportsWhile, &RunWhile},
  };
}

}  // namespace hlocheck::cpu
