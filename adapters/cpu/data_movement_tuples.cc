// Ops that pass values through unchanged: optimization_barrier, tuple and
// get_tuple_element. Tokens and tuples reach the adapter flattened (Case's
// structure): the results are some run of the operands' tensors, copied bit
// for bit. Only bits move, so quantized tensors pass as their storage.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/data_movement_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
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

FirstResultTensor ResultsOf(const Case& c) {
  if (std::string why; !LeavesMatchStructure(c, &why)) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": ", why));
  }
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
  if (!first.ok()) return first;
  const int64_t count = static_cast<int64_t>(c.result_types.size());
  if (*first + count > static_cast<int64_t>(c.operands.size())) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": results ", *first, "..", *first + count,
                                                   " of ", c.operands.size(), " operand tensors"));
  }
  for (int64_t i = 0; i < count; ++i) {
    if (c.operands[*first + i].type() != c.result_types[i]) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": result ", i, " is ",
                                                     c.result_types[i].ToString(), ", its tensor ",
                                                     c.operands[*first + i].type().ToString()));
    }
  }
  return first;
}

AdapterSupport SupportsPassThrough(const Case& c) {
  FirstResultTensor first = ResultsOf(c);
  return first.ok() ? AdapterSupport::Yes()
                    : AdapterSupport::No(std::string(first.status().message()));
}

// The results: their tensors copied bit for bit from the operands'.
absl::StatusOr<Results> RunPassThrough(const Case& c, const Device& device) {
  FirstResultTensor first = ResultsOf(c);
  HLOCHECK_RETURN_IF_ERROR(first.status());
  Results results;
  for (size_t i = 0; i < c.result_types.size(); ++i) {
    const Tensor& operand = c.operands[*first + i];
    Tensor result = NewResult(c.result_types[i]);
    ParallelCopy(operand.raw(), result.raw(), static_cast<int64_t>(operand.bytes().size()), device);
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementTuplesOps() {
  return {
      {"optimization_barrier", kVariadic, &SupportsPassThrough, &RunPassThrough},
      {"tuple", kVariadic, &SupportsPassThrough, &RunPassThrough},
      {"get_tuple_element", kVariadic, &SupportsPassThrough, &RunPassThrough},
  };
}

}  // namespace hlocheck::cpu
