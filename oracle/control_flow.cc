// Control flow of the spec: if, case and while, as semantics both callers
// share (control_flow.h) and as the oracle's ops for a gate case, whose
// regions stand alone and run through an interpreter of their own.
//
// A region's ops are verified and computed by the oracle like any other op,
// but the interpreter carries only their reference values from op to op.
// That is exact only where every op of the regions is: a rounding bound, a
// value the spec leaves free, a permutable order or a distribution inside a
// region would be lost at the next op, so the control-flow op then says it
// is unsupported instead of comparing against a value it cannot stand by.
#include "oracle/control_flow.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "oracle/data_movement_helpers.h"

namespace hlocheck::oracle {

absl::StatusOr<size_t> IfBranch(const Tensor& pred) {
  if (pred.element_type() != ElementType::kI1 || pred.num_elements() != 1) {
    return absl::InvalidArgumentError("if: pred must be a tensor<i1> (spec C1)");
  }
  return pred.values<ElementType::kI1>()[0] != 0 ? 0 : 1;
}

absl::StatusOr<size_t> CaseBranch(const Tensor& index, size_t branch_count) {
  if (index.element_type() != ElementType::kSI32 || index.num_elements() != 1) {
    return absl::InvalidArgumentError("case: index must be a tensor<i32> (spec I1)");
  }
  if (branch_count == 0) return absl::InvalidArgumentError("case: no branches (spec C1)");
  const int64_t i = index.values<ElementType::kSI32>()[0];
  return i < 0 || i >= static_cast<int64_t>(branch_count) ? branch_count - 1
                                                          : static_cast<size_t>(i);
}

absl::StatusOr<std::vector<RuntimeValue>> WhileLoop(const Region& cond, const Region& body,
                                                    std::vector<RuntimeValue> operands,
                                                    const RegionRunner& run) {
  std::vector<RuntimeValue> state = std::move(operands);
  for (int64_t iteration = 0;; ++iteration) {
    HLOCHECK_ASSIGN_OR_RETURN(std::vector<RuntimeValue> condition, run(cond, state));
    if (condition.size() != 1 || !condition[0].type.is_tensor() ||
        condition[0].tensor.element_type() != ElementType::kI1 ||
        condition[0].tensor.num_elements() != 1) {
      return absl::InvalidArgumentError("while: cond must return a tensor<i1> (spec C1)");
    }
    if (condition[0].tensor.values<ElementType::kI1>()[0] == 0) return state;
    if (iteration == kMaxLoopIterations) {
      return absl::UnimplementedError(
          absl::StrCat("unsupported: while loop still running after ", kMaxLoopIterations,
                       " iterations (the spec leaves an infinite loop's behaviour open, #383)"));
    }
    HLOCHECK_ASSIGN_OR_RETURN(state, run(body, std::move(state)));
  }
}

absl::StatusOr<std::vector<RuntimeValue>> OperandValues(const Case& c) {
  const std::vector<ValueType> types = c.OperandValueTypes();
  std::vector<RuntimeValue> values;
  size_t leaf = 0;
  for (size_t i = 0; i < types.size(); ++i) {
    const ValueType& type = types[i];
    if (type.kind == ValueType::Kind::kToken) {
      values.push_back(RuntimeValue::Token());
      continue;
    }
    if (!type.is_tensor()) {
      return absl::UnimplementedError("unsupported: " + c.op + " with a tuple operand");
    }
    if (leaf >= c.operands.size()) {
      return absl::InvalidArgumentError(c.op + ": fewer tensors than its operand types");
    }
    values.push_back(RuntimeValue::Of(c.operands[leaf]));
    ++leaf;
  }
  return values;
}

CaseRegions::CaseRegions(std::string op)
    : op_(std::move(op)),
      interpreter_(NewDefaultInterpreter()),
      inexact_(std::make_shared<std::string>()) {
  if (interpreter_ == nullptr) return;
  interpreter_->set_observer(
      [inexact = inexact_](const Operation& operation,
                           const std::vector<ResultExpectation>& expectations) {
        if (!inexact->empty()) return;
        for (const ResultExpectation& e : expectations) {
          std::string why;
          // A quantized result whose every element has one storage value
          // allowed is exact.
          const bool ranged = e.check == Check::kStorageRange && e.storage_low != e.storage_high;
          if (e.check == Check::kErrorBound || ranged ||
              (e.check == Check::kUlp && e.allowed_ulp > 0)) {
            why = "is only bounded, not exact";
          } else if (e.FreeCount() > 0) {
            why = "has elements the spec leaves to the implementation";
          } else if (e.permutable != nullptr) {
            why = "may come back reordered";
          } else if (e.distribution != nullptr) {
            why = "follows a distribution";
          } else if (e.other_reading != nullptr) {
            why = "has a second reading of the spec";
          }
          if (!why.empty()) {
            *inexact = absl::StrCat(operation.name, "'s result ", why);
            return;
          }
        }
      });
}

RegionRunner CaseRegions::runner() {
  return [this](const Region& region,
                std::vector<RuntimeValue> arguments) -> absl::StatusOr<std::vector<RuntimeValue>> {
    if (interpreter_ == nullptr) {
      return absl::FailedPreconditionError("the spec could not be loaded");
    }
    auto results = interpreter_->RunRegion(region, std::move(arguments));
    HLOCHECK_RETURN_IF_ERROR(results.status());
    if (!inexact_->empty()) {
      return absl::UnimplementedError(
          absl::StrCat("unsupported: ", op_, " whose region has an op that the oracle does not ",
                       "carry exactly from op to op: ", *inexact_));
    }
    return results;
  };
}

std::unique_ptr<Interpreter::LoopScope> CaseRegions::LoopScope() {
  if (interpreter_ == nullptr) return nullptr;
  return std::make_unique<Interpreter::LoopScope>(interpreter_.get());
}

absl::StatusOr<std::vector<ResultExpectation>> CaseRegions::Expectations(
    const std::vector<RuntimeValue>& values) const {
  std::vector<ResultExpectation> results;
  for (const RuntimeValue& value : values) {
    if (value.type.kind == ValueType::Kind::kToken) continue;
    if (!value.type.is_tensor()) {
      return absl::UnimplementedError("unsupported: " + op_ + " with a tuple result");
    }
    ResultExpectation e;
    e.reference = value.tensor;
    e.check = Check::kExact;
    results.push_back(std::move(e));
  }
  return results;
}

namespace {

// if: result = true_branch() if pred else false_branch().
Results If(const Case& c) {
  if (c.operands.size() != 1 || c.regions.size() != 2) {
    return absl::InvalidArgumentError("if needs pred and two branches");
  }
  HLOCHECK_ASSIGN_OR_RETURN(const size_t branch, IfBranch(c.operands[0]));
  CaseRegions regions("if");
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<RuntimeValue> results,
                            regions.runner()(c.regions[branch], {}));
  return regions.Expectations(results);
}

// case: result = branches[index]() if 0 <= index < size(branches), else
// branches[-1]().
Results CaseOp(const Case& c) {
  if (c.operands.size() != 1) return absl::InvalidArgumentError("case needs one index");
  HLOCHECK_ASSIGN_OR_RETURN(const size_t branch, CaseBranch(c.operands[0], c.regions.size()));
  CaseRegions regions("case");
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<RuntimeValue> results,
                            regions.runner()(c.regions[branch], {}));
  return regions.Expectations(results);
}

// while: internal_state = operand; while cond(*internal_state):
// internal_state = body(*internal_state); results = internal_state.
Results While(const Case& c) {
  if (c.regions.size() != 2) return absl::InvalidArgumentError("while needs cond and body");
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<RuntimeValue> operands, OperandValues(c));
  CaseRegions regions("while");
  const auto loop = regions.LoopScope();
  HLOCHECK_ASSIGN_OR_RETURN(
      std::vector<RuntimeValue> results,
      WhileLoop(c.regions[0], c.regions[1], std::move(operands), regions.runner()));
  return regions.Expectations(results);
}

}  // namespace

std::vector<OpEntry> ControlFlowOps() { return {{"case", CaseOp}, {"if", If}, {"while", While}}; }

}  // namespace hlocheck::oracle
