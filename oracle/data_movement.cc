// Data movement ops with static index maps (transpose, slice,
// broadcast_in_dim, reshape, reverse, concatenate), and what the data
// movement files share (data_movement.h). Each op computes, for every result
// index, the operand index its spec names, and copies that element's bytes.
#include <algorithm>
#include <cstring>
#include <limits>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "oracle/data_movement.h"

namespace hlocheck::oracle {

Results Exactly(Tensor result) {
  std::vector<ResultExpectation> results(1);
  results[0].reference = std::move(result);
  results[0].check = Check::kExact;
  return results;
}

std::span<const Tensor> InputTensors(const Case& c, size_t input) {
  std::span<const Tensor> all(c.operands);
  if (c.operand_segments.empty()) return all.subspan(input, 1);
  size_t start = 0;
  for (size_t i = 0; i < input; ++i) start += static_cast<size_t>(c.operand_segments[i]);
  return all.subspan(start, static_cast<size_t>(c.operand_segments[input]));
}

std::vector<int64_t> SaturatedIndexValues(const Tensor& indices) {
  std::vector<int64_t> values(static_cast<size_t>(indices.num_elements()));
  DispatchElementType(indices.element_type(), [&]<ElementType T>() {
    if constexpr (IsSignedInt(T)) {
      auto in = indices.values<T>();
      for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(in[i]);
    } else if constexpr (IsUnsignedInt(T)) {
      auto in = indices.values<T>();
      constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
      for (size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<int64_t>(std::min<uint64_t>(in[i], kMax));
      }
    }
    // The spec allows only integer start indices; the verifier has checked.
  });
  return values;
}

namespace {

// transpose: result[result_index] = operand[operand_index] where
// result_index[d] = operand_index[permutation[d]].
Results Transpose(const Case& c) {
  const Tensor& operand = c.operands[0];
  const auto& permutation = c.attribute<std::vector<int64_t>>("permutation");
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
  const auto& start_indices = c.attribute<std::vector<int64_t>>("start_indices");
  const auto& strides = c.attribute<std::vector<int64_t>>("strides");
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
  const auto& broadcast_dimensions = c.attribute<std::vector<int64_t>>("broadcast_dimensions");
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
  const auto& dimensions = c.attribute<std::vector<int64_t>>("dimensions");
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
  const auto dimension = static_cast<size_t>(c.attribute<int64_t>("dimension"));
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

}  // namespace

std::vector<OpEntry> DataMovementOps() {
  std::vector<OpEntry> ops = {{"broadcast_in_dim", BroadcastInDim},
                              {"concatenate", Concatenate},
                              {"reshape", Reshape},
                              {"reverse", Reverse},
                              {"slice", Slice},
                              {"transpose", Transpose}};
  for (auto family : {DynamicIndexingOps, PaddingOps, ValueOps, SortOps, ScatterOps}) {
    for (const OpEntry& entry : family()) ops.push_back(entry);
  }
  return ops;
}

}  // namespace hlocheck::oracle
