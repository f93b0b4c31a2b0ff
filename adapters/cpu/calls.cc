// Ops that call something the op names: custom_call (hlocheck's documented
// targets, docs/custom-call-targets.md; any other target is unsupported, by
// name) and composite (its decomposition, run through tensor_region.h).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/data_movement_internal.h"
#include "adapters/cpu/tensor_region.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

std::string TargetName(const Case& c) {
  const Attribute* target = c.FindAttribute("call_target_name");
  return target != nullptr && std::holds_alternative<std::string>(*target)
             ? std::get<std::string>(*target)
             : std::string();
}

AdapterSupport SupportsCustomCall(const Case& c) {
  const std::string target = TargetName(c);
  if (target == "hlocheck.identity" || target == "hlocheck.reverse" || target == "hlocheck.zeros") {
    return AdapterSupport::Yes();
  }
  return AdapterSupport::No(absl::StrCat("unsupported: custom_call @", target));
}

// Each result a copy of the operand tensor `sources[i]`, after checking the
// types agree.
absl::StatusOr<Results> CopiesOf(const Case& c, const std::vector<size_t>& sources,
                                 const Device& device) {
  if (sources.size() != c.result_types.size()) {
    return absl::InvalidArgumentError(absl::StrCat("custom_call @", TargetName(c), ": ",
                                                   c.result_types.size(), " result tensors for ",
                                                   sources.size(), " input tensors"));
  }
  Results results;
  for (size_t i = 0; i < sources.size(); ++i) {
    const Tensor& from = c.operands[sources[i]];
    if (from.type() != c.result_types[i]) {
      return absl::InvalidArgumentError(absl::StrCat("custom_call @", TargetName(c), ": result ", i,
                                                     " is ", c.result_types[i].ToString(),
                                                     ", its input ", from.type().ToString()));
    }
    Tensor result = NewResult(c.result_types[i]);
    ParallelCopy(from.raw(), result.raw(), static_cast<int64_t>(from.bytes().size()), device);
    results.push_back(std::move(result));
  }
  return results;
}

// custom_call: hlocheck.identity (results = inputs), hlocheck.reverse
// (results = inputs in reverse order, value by value) or hlocheck.zeros
// (every result all zero bits).
absl::StatusOr<Results> RunCustomCall(const Case& c, const Device& device) {
  if (std::string why; !LeavesMatchStructure(c, &why)) {
    return absl::InvalidArgumentError("custom_call: " + why);
  }
  const std::string target = TargetName(c);
  if (target == "hlocheck.zeros") {
    Results results;
    for (const TensorType& type : c.result_types) results.emplace_back(type);
    return results;
  }
  const std::vector<ValueType> inputs = c.OperandValueTypes();
  if (target == "hlocheck.identity") {
    if (c.ResultValueTypes() != inputs) {
      return absl::InvalidArgumentError("custom_call @hlocheck.identity: types differ");
    }
    std::vector<size_t> sources(c.operands.size());
    for (size_t i = 0; i < sources.size(); ++i) sources[i] = i;
    return CopiesOf(c, sources, device);
  }
  if (target == "hlocheck.reverse") {
    std::vector<size_t> sources;
    for (size_t value = inputs.size(); value-- > 0;) {
      const auto first = static_cast<size_t>(LeafOffset(inputs, value));
      for (int64_t k = 0; k < LeafCount(inputs[value]); ++k) sources.push_back(first + k);
    }
    const std::vector<ValueType> reversed(inputs.rbegin(), inputs.rend());
    if (c.ResultValueTypes() != reversed) {
      return absl::InvalidArgumentError("custom_call @hlocheck.reverse: types differ");
    }
    return CopiesOf(c, sources, device);
  }
  return absl::UnimplementedError(absl::StrCat("unsupported: custom_call @", target));
}

// composite's decomposition, func.call's callee: the case's first region.
absl::StatusOr<TensorRegion> Decomposition(const Case& c) {
  const std::string what = c.op == "call" ? "callee" : "decomposition";
  if (c.regions.empty()) return absl::InvalidArgumentError(c.op + ": no " + what);
  return TensorRegion::Create(c.regions[0], c.OperandValueTypes(), c.op + ": " + what);
}

AdapterSupport SupportsComposite(const Case& c) {
  absl::StatusOr<TensorRegion> decomposition = Decomposition(c);
  if (!decomposition.ok()) return AdapterSupport::No(std::string(decomposition.status().message()));
  return decomposition->support();
}

// composite: results = decomposition(inputs); its other regions are
// ignored, as when the decomposition is inlined. func.call: results =
// callee(inputs).
absl::StatusOr<Results> RunComposite(const Case& c, const Device& device) {
  HLOCHECK_ASSIGN_OR_RETURN(TensorRegion decomposition, Decomposition(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> inputs, OperandValues(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> results,
                            decomposition.Run(std::move(inputs), device));
  return ResultTensors(c, std::move(results));
}

}  // namespace

std::vector<OpEntry> CallsOps() {
  return {
      {"call", kVariadic, &SupportsComposite, &RunComposite},
      {"composite", kVariadic, &SupportsComposite, &RunComposite},
      {"custom_call", kVariadic, &SupportsCustomCall, &RunCustomCall},
  };
}

}  // namespace hlocheck::cpu
