#include "adapters/region/pass_through.h"

#include "absl/strings/str_cat.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace {

// Where the results' tensors start among the operands', for a case whose
// types fit the op; else why they do not.
using FirstResultTensor = absl::StatusOr<int64_t>;

// optimization_barrier: result = operand, one value for one.
FirstResultTensor OptimizationBarrierResults(const Case& c) {
  if (c.OperandValueTypes() != c.ResultValueTypes()) {
    return absl::InvalidArgumentError(
        "optimization_barrier: results must have the operands' types");
  }
  return 0;
}

// tuple: result = (val...), whose tensors are the values' in order.
FirstResultTensor TupleResults(const Case& c) {
  const std::vector<ValueType> results = c.ResultValueTypes();
  if (results.size() != 1 || results[0] != ValueType::Tuple(c.OperandValueTypes())) {
    return absl::InvalidArgumentError("tuple: the result must be the tuple of the operands' types");
  }
  return 0;
}

// get_tuple_element: result = operand[index], the tensors of that element,
// which follow those of elements 0 .. index - 1.
FirstResultTensor GetTupleElementResults(const Case& c) {
  absl::StatusOr<int64_t> index = IntAttribute(c, "index");
  HLOCHECK_RETURN_IF_ERROR(index.status());
  const std::vector<ValueType> operand = c.OperandValueTypes();
  const std::vector<ValueType> result = c.ResultValueTypes();
  if (operand.size() != 1 || operand[0].kind != ValueType::Kind::kTuple || *index < 0 ||
      *index >= static_cast<int64_t>(operand[0].elements.size()) || result.size() != 1 ||
      result[0] != operand[0].elements[*index]) {
    return absl::InvalidArgumentError(
        absl::StrCat("get_tuple_element: index ", *index,
                     " of a tuple whose element there has the result's type"));
  }
  int64_t first = 0;
  for (int64_t i = 0; i < *index; ++i) first += LeafCount(operand[0].elements[i]);
  return first;
}

// The results of the tuple ops: a run of the operands' tensors.
absl::StatusOr<std::vector<const Tensor*>> TupleOpSources(const Case& c) {
  // Segments count values (a tuple or a token is one): all of them are the
  // one variadic operand of tuple and optimization_barrier.
  const int64_t values = static_cast<int64_t>(c.OperandValueTypes().size());
  if (!c.operand_segments.empty() && c.operand_segments != std::vector<int64_t>{values}) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, ": operand segments should be [", values, "]"));
  }
  FirstResultTensor first = c.op == "tuple"               ? TupleResults(c)
                            : c.op == "get_tuple_element" ? GetTupleElementResults(c)
                                                          : OptimizationBarrierResults(c);
  HLOCHECK_RETURN_IF_ERROR(first.status());
  const int64_t count = static_cast<int64_t>(c.result_types.size());
  if (*first + count > static_cast<int64_t>(c.operands.size())) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": results ", *first, "..", *first + count,
                                                   " of ", c.operands.size(), " operand tensors"));
  }
  std::vector<const Tensor*> sources;
  for (int64_t i = 0; i < count; ++i) sources.push_back(&c.operands[*first + i]);
  return sources;
}

// custom_call @hlocheck.identity (results = inputs) and @hlocheck.reverse
// (results = inputs in reverse order, value by value).
absl::StatusOr<std::vector<const Tensor*>> CustomCallSources(const Case& c) {
  const std::string target = CustomCallTarget(c);
  const std::vector<ValueType> inputs = c.OperandValueTypes();
  std::vector<const Tensor*> sources;
  if (target == "hlocheck.identity") {
    if (c.ResultValueTypes() != inputs) {
      return absl::InvalidArgumentError("custom_call @hlocheck.identity: types differ");
    }
    for (const Tensor& operand : c.operands) sources.push_back(&operand);
    return sources;
  }
  if (target == "hlocheck.reverse") {
    for (size_t value = inputs.size(); value-- > 0;) {
      const auto first = static_cast<size_t>(LeafOffset(inputs, value));
      for (int64_t k = 0; k < LeafCount(inputs[value]); ++k) {
        sources.push_back(&c.operands[first + k]);
      }
    }
    const std::vector<ValueType> reversed(inputs.rbegin(), inputs.rend());
    if (c.ResultValueTypes() != reversed) {
      return absl::InvalidArgumentError("custom_call @hlocheck.reverse: types differ");
    }
    return sources;
  }
  return absl::UnimplementedError(absl::StrCat("unsupported: custom_call @", target));
}

// infeed, recv: the message that arrived; outfeed, send: their inputs,
// observed after their own results (a token: none).
absl::StatusOr<std::vector<const Tensor*>> TransferSources(const Case& c) {
  const bool incoming = TransferOf(c.op) == Transfer::kIncoming;
  const std::vector<Tensor>& message = incoming ? c.incoming : c.operands;
  if (!incoming && static_cast<size_t>(c.outgoing) != c.operands.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        c.op, ": ", c.outgoing, " outgoing tensors observed for ", c.operands.size(), " inputs"));
  }
  const size_t first_type = incoming ? 0 : c.result_types.size() - c.operands.size();
  if (c.result_types.size() != first_type + message.size()) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": a message of ", message.size(),
                                                   " tensors for ",
                                                   c.result_types.size() - first_type));
  }
  std::vector<const Tensor*> sources;
  for (const Tensor& tensor : message) sources.push_back(&tensor);
  return sources;
}

}  // namespace

std::string CustomCallTarget(const Case& c) {
  const Attribute* target = c.FindAttribute("call_target_name");
  return target != nullptr && std::holds_alternative<std::string>(*target)
             ? std::get<std::string>(*target)
             : std::string();
}

absl::StatusOr<std::vector<const Tensor*>> PassThroughSources(const Case& c) {
  if (std::string why; !LeavesMatchStructure(c, &why)) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": ", why));
  }
  absl::StatusOr<std::vector<const Tensor*>> sources;
  if (c.op == "custom_call") {
    sources = CustomCallSources(c);
  } else if (TransferOf(c.op) != Transfer::kNone) {
    sources = TransferSources(c);
  } else {
    sources = TupleOpSources(c);
  }
  HLOCHECK_RETURN_IF_ERROR(sources.status());
  // The result tensors a transfer observes follow its own (none: a token).
  const size_t first_type = c.result_types.size() - sources->size();
  for (size_t i = 0; i < sources->size(); ++i) {
    if ((*sources)[i]->type() != c.result_types[first_type + i]) {
      return absl::InvalidArgumentError(absl::StrCat(
          c.op, ": result ", first_type + i, " is ", c.result_types[first_type + i].ToString(),
          ", its tensor ", (*sources)[i]->type().ToString()));
    }
  }
  return sources;
}

AdapterSupport SupportsPassThrough(const Case& c) {
  if (c.ProcessCount() != 1) return AdapterSupport::No(c.op + " on a grid of processes");
  if (c.op == "custom_call") {
    const std::string target = CustomCallTarget(c);
    if (target == "hlocheck.zeros") return AdapterSupport::Yes();
    if (target != "hlocheck.identity" && target != "hlocheck.reverse") {
      return AdapterSupport::No(absl::StrCat("unsupported: custom_call @", target));
    }
  }
  if (c.op == "after_all" || TransferOf(c.op) != Transfer::kNone || c.op == "custom_call") {
    return AdapterSupport::Yes();  // the types are checked when it runs
  }
  absl::StatusOr<std::vector<const Tensor*>> sources = PassThroughSources(c);
  return sources.ok() ? AdapterSupport::Yes()
                      : AdapterSupport::No(std::string(sources.status().message()));
}

}  // namespace hlocheck
