// Data movement at run-time start indices (dynamic_slice,
// dynamic_update_slice, gather). Start indices may have any integer type;
// they are read once per op as saturated int64_t values and clamped as the
// spec's formulas say, so that every slice stays in bounds.
#include <algorithm>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"
#include "oracle/data_movement_helpers.h"

namespace hlocheck::oracle {
namespace {

// The values of variadic 0-dimensional start index tensors.
std::vector<int64_t> ScalarStartIndices(std::span<const Tensor> start_indices) {
  std::vector<int64_t> values;
  for (const Tensor& scalar : start_indices) values.push_back(SaturatedIndexValues(scalar)[0]);
  return values;
}

// dynamic_slice: result[result_index] = operand[operand_index] where
//   adjusted_start_indices = clamp(0, start_indices, shape(operand) - slice_sizes)
//   operand_index = adjusted_start_indices + result_index.
Results DynamicSlice(const Case& c) {
  const Tensor& operand = InputTensors(c, 0)[0];
  const std::vector<int64_t> start_indices = ScalarStartIndices(InputTensors(c, 1));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> slice_sizes,
                            IntListAttribute(c, "slice_sizes"));
  std::vector<int64_t> adjusted_start_indices(operand.rank());
  for (int64_t d = 0; d < operand.rank(); ++d) {
    adjusted_start_indices[d] =
        std::clamp<int64_t>(start_indices[d], 0, operand.shape()[d] - slice_sizes[d]);
  }
  ElementView in(operand);
  std::vector<int64_t> operand_index(operand.rank());
  return Exactly(ResultFrom(c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    for (size_t d = 0; d < result_index.size(); ++d) {
      operand_index[d] = adjusted_start_indices[d] + result_index[d];
    }
    return in.at(operand_index);
  }));
}

// dynamic_update_slice: result[result_index] = update[update_index] if
// 0 <= update_index < shape(update), and operand[result_index] otherwise, where
//   adjusted_start_indices = clamp(0, start_indices, shape(operand) - shape(update))
//   update_index = result_index - adjusted_start_indices.
Results DynamicUpdateSlice(const Case& c) {
  const Tensor& operand = InputTensors(c, 0)[0];
  const Tensor& update = InputTensors(c, 1)[0];
  const std::vector<int64_t> start_indices = ScalarStartIndices(InputTensors(c, 2));
  std::vector<int64_t> adjusted_start_indices(operand.rank());
  for (int64_t d = 0; d < operand.rank(); ++d) {
    adjusted_start_indices[d] =
        std::clamp<int64_t>(start_indices[d], 0, operand.shape()[d] - update.shape()[d]);
  }
  ElementView operand_elements(operand);
  ElementView update_elements(update);
  std::vector<int64_t> update_index(update.rank());
  return Exactly(ResultFrom(c.result_types[0], [&](const std::vector<int64_t>& result_index) {
    bool in_update = true;
    for (size_t d = 0; d < result_index.size(); ++d) {
      update_index[d] = result_index[d] - adjusted_start_indices[d];
      in_update = in_update && 0 <= update_index[d] && update_index[d] < update.shape()[d];
    }
    return in_update ? update_elements.at(update_index) : operand_elements.at(result_index);
  }));
}

// The reference value of elements the spec leaves free (any container).
constexpr std::byte kZeroElement[16] = {};

bool Contains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// gather: result[result_index] = operand[operand_index] where
//   batch_dims = [d for d in axes(result) and d not in offset_dims]
//   batch_index = result_index[batch_dims...]
//   start_index = start_indices[bi0, ..., :, ..., biN] (":" at
//     index_vector_dim) if index_vector_dim < rank(start_indices), and
//     [start_indices[batch_index]] otherwise
//   full_start_index[d_operand] = clamp(start_index[d_start], 0,
//     dim(operand, d_operand) - slice_sizes[d_operand]) if
//     d_operand = start_index_map[d_start], and 0 otherwise
//   full_batching_index[d_operand] = batch_index[d_start - (d_start <
//     index_vector_dim ? 0 : 1)] if d_operand = operand_batching_dims[i] and
//     d_start = start_indices_batching_dims[i], and 0 otherwise
//   offset_index = result_index[offset_dims...]
//   full_offset_index = offset_index with 0 inserted at the indices in
//     collapsed_slice_dims and operand_batching_dims
//   operand_index = full_start_index + full_batching_index + full_offset_index.
// With indices_are_sorted = true, start indices that are not sorted (for all
// i1 < i2 from indices(result), full_start_index(i1) <= full_start_index(i2))
// are undefined behaviour: then every element is free.
Results Gather(const Case& c) {
  const Tensor& operand = c.operands[0];
  const Tensor& start_indices = c.operands[1];
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> offset_dims,
                            IntListAttribute(c, "offset_dims"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> collapsed_slice_dims,
                            IntListAttribute(c, "collapsed_slice_dims"));
  // The batching dimensions are optional; absent, they are [] (the YAML's default).
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> operand_batching_dims,
                            IntListAttribute(c, "operand_batching_dims", {}));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> start_indices_batching_dims,
                            IntListAttribute(c, "start_indices_batching_dims", {}));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> start_index_map,
                            IntListAttribute(c, "start_index_map"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t index_vector_dim, IntAttribute(c, "index_vector_dim"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> slice_sizes,
                            IntListAttribute(c, "slice_sizes"));
  HLOCHECK_ASSIGN_OR_RETURN(const bool indices_are_sorted,
                            BoolAttribute(c, "indices_are_sorted", false));
  const TensorType& result_type = c.result_types[0];
  const int64_t operand_rank = operand.rank();

  std::vector<int64_t> batch_dims;
  for (int64_t d = 0; d < result_type.rank(); ++d) {
    if (!Contains(offset_dims, d)) batch_dims.push_back(d);
  }
  // The operand dimensions that full_offset_index takes from offset_index,
  // in order: those not collapsed and not batching dimensions.
  std::vector<int64_t> offset_operand_dims;
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (!Contains(collapsed_slice_dims, d) && !Contains(operand_batching_dims, d)) {
      offset_operand_dims.push_back(d);
    }
  }
  const std::vector<int64_t> index_values = SaturatedIndexValues(start_indices);
  const std::vector<int64_t> index_strides = RowMajorStrides(start_indices.shape());
  const bool has_index_vector_dim = index_vector_dim < start_indices.rank();

  ElementView in(operand);
  std::vector<int64_t> batch_index(batch_dims.size());
  std::vector<int64_t> start_index(start_index_map.size());
  std::vector<int64_t> full_start_index(operand_rank);
  std::vector<int64_t> previous_full_start_index;
  std::vector<int64_t> full_batching_index(operand_rank);
  std::vector<int64_t> full_offset_index(operand_rank);
  std::vector<int64_t> operand_index(operand_rank);
  bool sorted = true;
  std::vector<uint8_t> outside;
  outside.reserve(static_cast<size_t>(NumElements(result_type.shape)));
  Tensor result = ResultFrom(result_type, [&](const std::vector<int64_t>& result_index) {
    for (size_t i = 0; i < batch_dims.size(); ++i) batch_index[i] = result_index[batch_dims[i]];

    // start_index: batch_index with ":" inserted at index_vector_dim.
    int64_t base = 0;
    for (size_t i = 0; i < batch_index.size(); ++i) {
      const int64_t start_dim = static_cast<int64_t>(i) < index_vector_dim ? i : i + 1;
      base += batch_index[i] * index_strides[start_dim];
    }
    for (size_t k = 0; k < start_index.size(); ++k) {
      const int64_t along = has_index_vector_dim ? k * index_strides[index_vector_dim] : 0;
      start_index[k] = index_values[base + along];
    }

    std::fill(full_start_index.begin(), full_start_index.end(), 0);
    for (size_t d_start = 0; d_start < start_index_map.size(); ++d_start) {
      const int64_t d_operand = start_index_map[d_start];
      full_start_index[d_operand] = std::clamp<int64_t>(
          start_index[d_start], 0, operand.shape()[d_operand] - slice_sizes[d_operand]);
    }

    std::fill(full_batching_index.begin(), full_batching_index.end(), 0);
    for (size_t i = 0; i < operand_batching_dims.size(); ++i) {
      const int64_t d_start = start_indices_batching_dims[i];
      full_batching_index[operand_batching_dims[i]] =
          batch_index[d_start - (d_start < index_vector_dim ? 0 : 1)];
    }

    std::fill(full_offset_index.begin(), full_offset_index.end(), 0);
    for (size_t i = 0; i < offset_dims.size(); ++i) {
      full_offset_index[offset_operand_dims[i]] = result_index[offset_dims[i]];
    }

    for (int64_t d = 0; d < operand_rank; ++d) {
      operand_index[d] = full_start_index[d] + full_batching_index[d] + full_offset_index[d];
    }

    // A collapsed slice dimension of slice size 0 (C8 allows it) keeps its
    // result elements while the slice is empty: operand_index may then lie
    // outside the operand, where the spec gives no value.
    bool inside = true;
    for (int64_t d = 0; d < operand_rank; ++d) {
      inside = inside && operand_index[d] < operand.shape()[d];
    }
    outside.push_back(inside ? 0 : 1);

    // Sortedness is transitive, so consecutive result indices decide it.
    if (!previous_full_start_index.empty()) {
      for (int64_t d = 0; d < operand_rank; ++d) {
        sorted = sorted && previous_full_start_index[d] <= full_start_index[d];
      }
    }
    previous_full_start_index = full_start_index;
    return inside ? in.at(operand_index) : kZeroElement;
  });

  Results results = Exactly(std::move(result));
  ResultExpectation& expectation = (*results)[0];
  if (indices_are_sorted && !sorted) {
    expectation.free.assign(expectation.reference.num_elements(), 1);
    expectation.free_reason =
        "indices_are_sorted is true but the start indices are not sorted: the spec makes the "
        "behaviour undefined";
  } else if (std::count(outside.begin(), outside.end(), uint8_t{1}) > 0) {
    expectation.free = std::move(outside);
    expectation.free_reason =
        "a collapsed slice dimension has slice size 0 and the operand index lies outside the "
        "operand: the spec gives no value";
  }
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementIndexingOps() {
  return {{"dynamic_slice", DynamicSlice},
          {"dynamic_update_slice", DynamicUpdateSlice},
          {"gather", Gather}};
}

}  // namespace hlocheck::oracle
