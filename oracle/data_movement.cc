// Data movement ops (seed 002: transpose, slice). Each result element is
// copied from the operand element the spec's index formula names; values
// are moved as raw bytes, so every element type behaves identically.
#include <cstring>

#include "absl/status/status.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

// result[result_index] = operand[operand_offset(result_index)] for every
// result index, in row-major order.
template <typename OperandOffset>
Tensor Gather(const Tensor& operand, const TensorType& result_type, OperandOffset operand_offset) {
  Tensor result(result_type);
  const size_t bytes = ContainerBytes(operand.element_type());
  const std::byte* in = operand.bytes().data();
  std::byte* out = result.bytes().data();
  for (IndexIterator it(result.shape()); !it.done(); it.Next()) {
    std::memcpy(out + it.linear() * bytes, in + operand_offset(it.index()) * bytes, bytes);
  }
  return result;
}

Results Exactly(Tensor result) {
  std::vector<ResultExpectation> results(1);
  results[0].reference = std::move(result);
  results[0].check = Check::kExact;
  return results;
}

// transpose: result[result_index] = operand[operand_index] where
// result_index[d] = operand_index[permutation[d]].
Results Transpose(const Case& c) {
  const Tensor& operand = c.operands[0];
  const auto& permutation = c.attribute<std::vector<int64_t>>("permutation");
  std::vector<int64_t> operand_strides = RowMajorStrides(operand.shape());
  return Exactly(Gather(operand, c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    int64_t offset = 0;
    for (size_t d = 0; d < result_index.size(); ++d) {
      offset += result_index[d] * operand_strides[permutation[d]];
    }
    return offset;
  }));
}

// slice: result[result_index] = operand[start_indices + result_index * strides].
Results Slice(const Case& c) {
  const Tensor& operand = c.operands[0];
  const auto& start_indices = c.attribute<std::vector<int64_t>>("start_indices");
  const auto& strides = c.attribute<std::vector<int64_t>>("strides");
  std::vector<int64_t> operand_strides = RowMajorStrides(operand.shape());
  return Exactly(Gather(operand, c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    int64_t offset = 0;
    for (size_t d = 0; d < result_index.size(); ++d) {
      offset += (start_indices[d] + result_index[d] * strides[d]) * operand_strides[d];
    }
    return offset;
  }));
}

}  // namespace

std::vector<OpEntry> DataMovementOps() { return {{"slice", Slice}, {"transpose", Transpose}}; }

}  // namespace hlocheck::oracle
