// Ops that call something the op names: custom_call (an implementation-
// defined target), composite (its decomposition) and func.call (its
// callee; the func dialect's op, checked as the case `call`).
//
// custom_call's targets are the implementation's to define; the oracle
// knows hlocheck's own, documented in docs/custom-call-targets.md, which a
// backend team maps onto theirs. Any other target is reported unsupported
// by name, never guessed. The check dialect's targets (check.expect_eq, ...)
// are assertions inside programs, evaluated by `interpret` (runners/
// interpret.cc), not values a case could compare.
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "oracle/control_flow.h"
#include "oracle/data_movement_helpers.h"

namespace hlocheck::oracle {
namespace {

absl::StatusOr<std::string> TargetName(const Case& c) {
  const Attribute* target = c.FindAttribute("call_target_name");
  if (target == nullptr || !std::holds_alternative<std::string>(*target)) {
    return absl::InvalidArgumentError("custom_call without a call_target_name (spec I2)");
  }
  return std::get<std::string>(*target);
}

// The tensors of operand value `index`, in order.
std::vector<Tensor> TensorsOfValue(const Case& c, const std::vector<ValueType>& values,
                                   size_t index) {
  const int64_t first = LeafOffset(values, index);
  const int64_t count = LeafCount(values[index]);
  return {c.operands.begin() + first, c.operands.begin() + first + count};
}

Results ExactlyThese(std::vector<Tensor> tensors) {
  std::vector<ResultExpectation> results(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    results[i].reference = std::move(tensors[i]);
    results[i].check = Check::kExact;
  }
  return results;
}

// hlocheck.identity: results = inputs, value for value (tensors, quantized
// tensors as their storage, tokens, tuples).
Results Identity(const Case& c) {
  if (c.ResultValueTypes() != c.OperandValueTypes()) {
    return absl::InvalidArgumentError(
        "custom_call @hlocheck.identity: the results must have the inputs' types");
  }
  return ExactlyThese(c.operands);
}

// hlocheck.reverse: results = inputs in reverse order (results[i] =
// inputs[N - 1 - i]).
Results Reverse(const Case& c) {
  const std::vector<ValueType> inputs = c.OperandValueTypes();
  const std::vector<ValueType> reversed(inputs.rbegin(), inputs.rend());
  if (c.ResultValueTypes() != reversed) {
    return absl::InvalidArgumentError(
        "custom_call @hlocheck.reverse: the results must have the inputs' types, reversed");
  }
  std::vector<Tensor> tensors;
  for (size_t i = inputs.size(); i-- > 0;) {
    for (Tensor& t : TensorsOfValue(c, inputs, i)) tensors.push_back(std::move(t));
  }
  return ExactlyThese(std::move(tensors));
}

// hlocheck.zeros: every result tensor all zero bits, whatever the inputs
// (0 for integers and floats, 2^-127 for f8E8M0FNU, which has no zero; a
// quantized result's storage zero).
Results Zeros(const Case& c) {
  std::vector<Tensor> tensors;
  for (const TensorType& type : c.result_types) tensors.emplace_back(type);
  return ExactlyThese(std::move(tensors));
}

// custom_call: results = call_target_name(inputs), for hlocheck's targets.
Results CustomCall(const Case& c) {
  HLOCHECK_ASSIGN_OR_RETURN(const std::string target, TargetName(c));
  if (std::string why; !LeavesMatchStructure(c, &why)) {
    return absl::InvalidArgumentError("custom_call: " + why);
  }
  if (target == "hlocheck.identity") return Identity(c);
  if (target == "hlocheck.reverse") return Reverse(c);
  if (target == "hlocheck.zeros") return Zeros(c);
  if (target.starts_with("check.")) {
    return absl::UnimplementedError(
        absl::StrCat("unsupported: custom_call @", target,
                     " outside a program (the check targets are assertions that `interpret` "
                     "evaluates)"));
  }
  return absl::UnimplementedError(
      absl::StrCat("unsupported: custom_call @", target,
                   " (not one of hlocheck's targets: docs/custom-call-targets.md)"));
}

// results = function(inputs), the function given as the case's first
// region.
Results CallRegion(const Case& c, const char* function) {
  if (c.regions.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": the case gives no ", function));
  }
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<RuntimeValue> inputs, OperandValues(c));
  CaseRegions regions(c.op);
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<RuntimeValue> results,
                            regions.runner()(c.regions[0], std::move(inputs)));
  return regions.Expectations(results);
}

// composite: results = decomposition(inputs). A case gives the
// decomposition as its first region; the other regions are ignored, as
// when the decomposition is inlined.
Results Composite(const Case& c) { return CallRegion(c, "decomposition"); }

// func.call: results = callee(inputs), the callee given as the region.
Results Call(const Case& c) { return CallRegion(c, "callee"); }

}  // namespace

std::vector<OpEntry> CallsOps() {
  return {{"call", Call}, {"composite", Composite}, {"custom_call", CustomCall}};
}

}  // namespace hlocheck::oracle
