// Data movement ops that change a tensor's shape, with static index maps
// (broadcast_in_dim, concatenate, pad, reshape, reverse, slice, transpose).
// Each op computes, for every result index, the operand index its spec
// names, and copies that element's bytes.
#include <algorithm>
#include <cstring>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"
#include "oracle/data_movement_helpers.h"

namespace hlocheck::oracle {
namespace {

// transpose: result[result_index] = operand[operand_index] where
// result_index[d] = operand_index[permutation[d]].
Results Transpose(const Case& c) {
  const Tensor& operand = c.operands[0];
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> permutation,
                            IntListAttribute(c, "permutation"));
  ElementView in(operand);
  std::vector<int64_t> operand_index(operand.rank());
  return Exactly(ResultFrom(c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    for (size_t d = 0; d < result_index.size(); ++d) {
      operand_index[permutation[d]] = result_index[d];
    }
    return in.at(operand_index);
  }));
}

// slice: result[result_index] = operand[start_indices + result_index * strides].
Results Slice(const Case& c) {
  const Tensor& operand = c.operands[0];
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> start_indices,
                            IntListAttribute(c, "start_indices"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> strides, IntListAttribute(c, "strides"));
  ElementView in(operand);
  std::vector<int64_t> operand_index(operand.rank());
  return Exactly(ResultFrom(c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    for (size_t d = 0; d < result_index.size(); ++d) {
      operand_index[d] = start_indices[d] + result_index[d] * strides[d];
    }
    return in.at(operand_index);
  }));
}

// broadcast_in_dim: result[result_index] = operand[operand_index] where for
// every d in axes(operand), operand_index[d] = 0 if dim(operand, d) = 1 and
// result_index[broadcast_dimensions[d]] otherwise.
Results BroadcastInDim(const Case& c) {
  const Tensor& operand = c.operands[0];
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> broadcast_dimensions,
                            IntListAttribute(c, "broadcast_dimensions"));
  ElementView in(operand);
  std::vector<int64_t> operand_index(operand.rank());
  return Exactly(ResultFrom(c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    for (int64_t d = 0; d < operand.rank(); ++d) {
      operand_index[d] = operand.shape()[d] == 1 ? 0 : result_index[broadcast_dimensions[d]];
    }
    return in.at(operand_index);
  }));
}

// reshape: result[result_index] = operand[operand_index] where the two
// indices have the same position in the lexicographic orders of
// index_space(result) and index_space(operand).
Results Reshape(const Case& c) {
  ElementView in(c.operands[0]);
  Tensor result(c.result_types[0]);
  const size_t bytes = ContainerBytes(result.element_type());
  for (IndexIterator it(result.shape()); !it.done(); it.Next()) {
    std::memcpy(result.bytes().data() + it.linear() * bytes, in.at_linear(it.linear()), bytes);
  }
  return Exactly(std::move(result));
}

// reverse: result[result_index] = operand[operand_index] where
// operand_index[d] = dim(result, d) - result_index[d] - 1 if d is in
// dimensions, and result_index[d] otherwise.
Results Reverse(const Case& c) {
  const Tensor& operand = c.operands[0];
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> dimensions,
                            IntListAttribute(c, "dimensions"));
  const TensorType& result_type = c.result_types[0];
  std::vector<bool> reversed(result_type.rank(), false);
  for (int64_t d : dimensions) reversed[d] = true;
  ElementView in(operand);
  std::vector<int64_t> operand_index(operand.rank());
  return Exactly(ResultFrom(result_type, [&](const std::vector<int64_t>& result_index) {
    for (size_t d = 0; d < result_index.size(); ++d) {
      operand_index[d] = reversed[d] ? result_type.shape[d] - result_index[d] - 1 : result_index[d];
    }
    return in.at(operand_index);
  }));
}

// concatenate: result[i0, ..., id, ..., iR-1] = inputs[k][i0, ..., kd, ...,
// iR-1] where d = dimension and id = d0 + ... + dk-1 + kd, with d0, ... the
// sizes of dimension d of the inputs.
Results Concatenate(const Case& c) {
  std::span<const Tensor> inputs = InputTensors(c, 0);
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t dimension_attribute, IntAttribute(c, "dimension"));
  const auto dimension = static_cast<size_t>(dimension_attribute);
  std::vector<ElementView> views;
  // first[k] = d0 + ... + dk-1: where input k starts along dimension.
  std::vector<int64_t> first;
  int64_t offset = 0;
  for (const Tensor& input : inputs) {
    views.emplace_back(input);
    first.push_back(offset);
    offset += input.shape()[dimension];
  }
  std::vector<int64_t> input_index;
  return Exactly(ResultFrom(c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    const int64_t id = result_index[dimension];
    // The last input starting at or before id that is not empty there: an
    // input of size 0 along dimension starts where the next one does.
    size_t k = 0;
    while (k + 1 < inputs.size() && first[k + 1] <= id) ++k;
    input_index = result_index;
    input_index[dimension] = id - first[k];  // kd
    return views[k].at(input_index);
  }));
}

// pad: result[result_index] = operand[operand_index] if
//   result_index = edge_padding_low + operand_index * (interior_padding + 1)
// for an operand_index in index_space(operand), and padding_value otherwise.
// Negative edge padding moves operand elements below index 0 or beyond the
// last result index, which drops them: they match no result_index.
Results Pad(const Case& c) {
  const Tensor& operand = c.operands[0];
  const Tensor& padding_value = c.operands[1];
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> edge_padding_low,
                            IntListAttribute(c, "edge_padding_low"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> interior_padding,
                            IntListAttribute(c, "interior_padding"));
  ElementView in(operand);
  const std::byte* padding = padding_value.bytes().data();
  std::vector<int64_t> operand_index(operand.rank());
  return Exactly(ResultFrom(c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    // Solve result_index = edge_padding_low + operand_index * (interior_padding + 1)
    // for operand_index, dimension by dimension.
    for (size_t d = 0; d < result_index.size(); ++d) {
      const int64_t from_low = result_index[d] - edge_padding_low[d];
      const int64_t step = interior_padding[d] + 1;
      if (from_low < 0 || from_low % step != 0 || from_low / step >= operand.shape()[d]) {
        return padding;
      }
      operand_index[d] = from_low / step;
    }
    return in.at(operand_index);
  }));
}

}  // namespace

std::vector<OpEntry> DataMovementShapeOps() {
  return {{"broadcast_in_dim", BroadcastInDim},
          {"concatenate", Concatenate},
          {"pad", Pad},
          {"reshape", Reshape},
          {"reverse", Reverse},
          {"slice", Slice},
          {"transpose", Transpose}};
}

}  // namespace hlocheck::oracle
