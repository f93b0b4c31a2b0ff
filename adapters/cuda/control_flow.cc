// The CUDA adapter's control flow: if, case and while, driven from the
// host as XLA:GPU drives them (the predicate, index or loop condition read
// back, then the next region launched). Their regions run on whole tensors
// through this adapter's own op table (adapters/region/tensor_region.h),
// each op a case of its own on the machine; a region op the adapter lacks
// makes the case unsupported, by name.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

// A loop the adapter gives up on rather than spin forever: the spec leaves
// an infinite loop's behaviour open (#383).
constexpr int64_t kMaxIterations = int64_t{1} << 24;

AdapterSupport SupportsBranches(const Case& c) {
  if (c.operands.size() != 1 || c.regions.empty()) {
    return AdapterSupport::No(c.op + " needs 1 operand and branches");
  }
  for (size_t i = 0; i < c.regions.size(); ++i) {
    absl::StatusOr<TensorRegion> branch =
        TensorRegion::Create(c.regions[i], {}, absl::StrCat(c.op, ": branch ", i), CudaRegionOps());
    if (!branch.ok()) return AdapterSupport::No(std::string(branch.status().message()));
    if (!branch->support().supported) return branch->support();
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunBranch(const Case& c, size_t branch, Context& context) {
  HLOCHECK_ASSIGN_OR_RETURN(
      TensorRegion region,
      TensorRegion::Create(c.regions[branch], {}, absl::StrCat(c.op, ": branch ", branch),
                           CudaRegionOps()));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> values, region.Run({}, CudaRegionOps(&context)));
  return ResultTensors(c, std::move(values));
}

AdapterSupport SupportsIf(const Case& c) {
  if (c.regions.size() != 2) return AdapterSupport::No("if needs two branches");
  return SupportsBranches(c);
}

// if: result = true_branch() if pred else false_branch().
absl::StatusOr<Results> RunIf(const Case& c, Context& context) {
  if (c.operands.size() != 1 || c.regions.size() != 2 ||
      c.operands[0].type() != TensorType{{}, ElementType::kI1}) {
    return absl::InvalidArgumentError("if needs a tensor<i1> pred and two branches");
  }
  const bool pred = c.operands[0].values<ElementType::kI1>()[0] != 0;
  return RunBranch(c, pred ? 0 : 1, context);
}

// case: result = branches[index]() if 0 <= index < size(branches), else
// branches[-1]().
absl::StatusOr<Results> RunCaseOp(const Case& c, Context& context) {
  if (c.operands.size() != 1 || c.regions.empty() ||
      c.operands[0].type() != TensorType{{}, ElementType::kSI32}) {
    return absl::InvalidArgumentError("case needs a tensor<i32> index and branches");
  }
  const int64_t index = c.operands[0].values<ElementType::kSI32>()[0];
  const auto count = static_cast<int64_t>(c.regions.size());
  return RunBranch(c, static_cast<size_t>(index < 0 || index >= count ? count - 1 : index),
                   context);
}

struct Loop {
  TensorRegion cond;
  TensorRegion body;
};

absl::StatusOr<Loop> MakeLoop(const Case& c) {
  if (c.regions.size() != 2) return absl::InvalidArgumentError("while needs cond and body");
  const std::vector<ValueType> types = c.OperandValueTypes();
  HLOCHECK_ASSIGN_OR_RETURN(
      TensorRegion cond, TensorRegion::Create(c.regions[0], types, "while: cond", CudaRegionOps()));
  HLOCHECK_ASSIGN_OR_RETURN(
      TensorRegion body, TensorRegion::Create(c.regions[1], types, "while: body", CudaRegionOps()));
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
absl::StatusOr<Results> RunWhile(const Case& c, Context& context) {
  HLOCHECK_ASSIGN_OR_RETURN(Loop loop, MakeLoop(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> state, OperandValues(c));
  const CudaRegionOps ops(&context);
  for (int64_t iteration = 0;; ++iteration) {
    HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> condition, loop.cond.Run(state, ops));
    if (condition.size() != 1 || condition[0].type != ValueType::Of({{}, ElementType::kI1})) {
      return absl::InvalidArgumentError("while: cond must return a tensor<i1>");
    }
    if (condition[0].tensor.values<ElementType::kI1>()[0] == 0) break;
    if (iteration == kMaxIterations) {
      return absl::DeadlineExceededError(absl::StrCat("while: still looping after ", kMaxIterations,
                                                      " iterations; the CUDA adapter stops"));
    }
    HLOCHECK_ASSIGN_OR_RETURN(state, loop.body.Run(std::move(state), ops));
  }
  return ResultTensors(c, std::move(state));
}

}  // namespace

std::vector<OpEntry> ControlFlowOps() {
  return {
      {"case", &SupportsBranches, &RunCaseOp},
      {"if", &SupportsIf, &RunIf},
      {"while", &SupportsWhile, &RunWhile},
  };
}

}  // namespace hlocheck::cuda
