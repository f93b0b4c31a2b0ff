// Ops that only pass values through (optimization_barrier, tuple,
// get_tuple_element): the only ops whose operands and results are tokens and
// tuples (Case's structure); grouped with data movement because their
// results are exact.
#include "core/case_attributes.h"
#include "core/status_macros.h"
#include "oracle/data_movement_helpers.h"

namespace hlocheck::oracle {
namespace {

// Every tensor the operands hold, unchanged, as the results.
Results PassThrough(const Case& c) {
  std::vector<ResultExpectation> results(c.operands.size());
  for (size_t i = 0; i < c.operands.size(); ++i) {
    results[i].reference = c.operands[i];
    results[i].check = Check::kExact;
  }
  return results;
}

// optimization_barrier: result = operand, one for one. The barrier only
// constrains how a compiler may move ops across it; on values it is the
// identity. A token operand is a token result and holds no tensor, so the
// tensors of the results are those of the operands in the same order.
Results OptimizationBarrier(const Case& c) { return PassThrough(c); }

// tuple: result = (val[0], ..., val[N-1]). The result's tensors, depth-first,
// are those of the values in order.
Results Tuple(const Case& c) { return PassThrough(c); }

// get_tuple_element: result = operand[index], the tensors of that element.
Results GetTupleElement(const Case& c) {
  const std::vector<ValueType> operand = c.OperandValueTypes();
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t index, IntAttribute(c, "index"));
  if (operand.size() != 1 || operand[0].kind != ValueType::Kind::kTuple || index < 0 ||
      index >= static_cast<int64_t>(operand[0].elements.size())) {
    return absl::InvalidArgumentError("get_tuple_element needs a tuple with an element at index " +
                                      std::to_string(index));
  }
  const int64_t first = LeafOffset(operand[0].elements, static_cast<size_t>(index));
  const int64_t count = LeafCount(operand[0].elements[index]);
  std::vector<ResultExpectation> results(count);
  for (int64_t i = 0; i < count; ++i) {
    results[i].reference = c.operands.at(first + i);
    results[i].check = Check::kExact;
  }
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementTuplesOps() {
  return {{"get_tuple_element", GetTupleElement},
          {"optimization_barrier", OptimizationBarrier},
          {"tuple", Tuple}};
}

}  // namespace hlocheck::oracle
