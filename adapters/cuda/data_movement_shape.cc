// The CUDA adapter's shape ops: reshape, transpose, broadcast_in_dim,
// slice, reverse, pad and concatenate, each one strided copy per operand
// (data_movement_internal.h).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "adapters/cuda/data_movement_internal.h"
#include "core/case_attributes.h"

namespace hlocheck::cuda {
namespace {

// ------------------------------------------------------------ reshape

absl::StatusOr<Results> RunReshape(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElements(c));
  const TensorType& type = c.result_types[0];
  if (type.num_elements() != c.operands[0].num_elements()) {
    return absl::InvalidArgumentError("reshape: element counts differ");
  }
  // Row-major order is kept: a copy of the whole, as rank 1.
  return CopyOperand(c, context, [&](const void* in, void* out) {
    const Shape flat = {type.num_elements()};
    const int64_t source[] = {0};
    return absl::StatusOr<std::vector<StridedCopyArgs>>(
        {PermutingCopy(flat, flat, source, ElementBytes(type), in, out)});
  });
}

// ---------------------------------------------------------- transpose

absl::StatusOr<Results> RunTranspose(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElements(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> permutation, IntListAttribute(c, "permutation"));
  const Shape& shape = c.operands[0].shape();
  const TensorType& type = c.result_types[0];
  std::vector<bool> seen(shape.size(), false);
  bool valid = permutation.size() == shape.size() && type.shape.size() == shape.size();
  for (size_t d = 0; valid && d < permutation.size(); ++d) {
    const int64_t p = permutation[d];
    valid =
        p >= 0 && p < static_cast<int64_t>(shape.size()) && !seen[p] && type.shape[d] == shape[p];
    if (valid) seen[p] = true;
  }
  if (!valid) return absl::InvalidArgumentError("transpose: not a permutation of the operand");
  return CopyOperand(c, context, [&](const void* in, void* out) {
    StridedCopyArgs copy =
        PermutingCopy(shape, type.shape, permutation, ElementBytes(type), in, out);
    copy.fault_tile_edge = context.faults().transpose_tile_edge;
    return absl::StatusOr<std::vector<StridedCopyArgs>>({copy});
  });
}

// ---------------------------------------------------- broadcast_in_dim

absl::StatusOr<Results> RunBroadcastInDim(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElements(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> dims, IntListAttribute(c, "broadcast_dimensions"));
  const Shape& shape = c.operands[0].shape();
  const TensorType& type = c.result_types[0];
  if (dims.size() != shape.size()) {
    return absl::InvalidArgumentError("broadcast_in_dim: one broadcast dimension per operand one");
  }
  // Result dimension r reads operand dimension d where dims[d] == r; an
  // operand dimension of size 1 broadcasts (reads coordinate 0).
  std::vector<int64_t> source(type.shape.size(), -1);
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t r = dims[d];
    if (r < 0 || r >= static_cast<int64_t>(type.shape.size()) || source[r] != -1 ||
        (shape[d] != 1 && shape[d] != type.shape[r])) {
      return absl::InvalidArgumentError("broadcast_in_dim: broadcast_dimensions do not fit");
    }
    source[r] = static_cast<int64_t>(d);
  }
  return CopyOperand(c, context, [&](const void* in, void* out) {
    StridedCopyArgs copy = PermutingCopy(shape, type.shape, source, ElementBytes(type), in, out);
    for (int r = 0; r < copy.rank; ++r) {
      if (source[r] >= 0 && shape[source[r]] == 1) copy.mul[r] = 0;
    }
    return absl::StatusOr<std::vector<StridedCopyArgs>>({copy});
  });
}

// --------------------------------------------------------------- slice

absl::StatusOr<Results> RunSlice(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElements(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> start, IntListAttribute(c, "start_indices"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> limit, IntListAttribute(c, "limit_indices"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> strides, IntListAttribute(c, "strides"));
  const Shape& shape = c.operands[0].shape();
  const TensorType& type = c.result_types[0];
  const size_t rank = shape.size();
  bool valid = start.size() == rank && limit.size() == rank && strides.size() == rank &&
               type.shape.size() == rank;
  for (size_t d = 0; valid && d < rank; ++d) {
    valid = strides[d] > 0 && 0 <= start[d] && start[d] <= limit[d] && limit[d] <= shape[d] &&
            type.shape[d] == (limit[d] - start[d] + strides[d] - 1) / strides[d];
  }
  if (!valid) return absl::InvalidArgumentError("slice: indices do not fit the operand");
  return CopyOperand(c, context, [&](const void* in, void* out) {
    std::vector<int64_t> identity(rank);
    for (size_t d = 0; d < rank; ++d) identity[d] = static_cast<int64_t>(d);
    StridedCopyArgs copy = PermutingCopy(shape, type.shape, identity, ElementBytes(type), in, out);
    for (size_t d = 0; d < rank; ++d) {
      copy.mul[d] = strides[d];
      copy.add[d] = start[d];
    }
    return absl::StatusOr<std::vector<StridedCopyArgs>>({copy});
  });
}

// ------------------------------------------------------------- reverse

absl::StatusOr<Results> RunReverse(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElements(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> dims, IntListAttribute(c, "dimensions"));
  const Shape& shape = c.operands[0].shape();
  const TensorType& type = c.result_types[0];
  if (type.shape != shape) return absl::InvalidArgumentError("reverse: shapes differ");
  for (int64_t d : dims) {
    if (d < 0 || d >= static_cast<int64_t>(shape.size())) {
      return absl::InvalidArgumentError("reverse: a dimension out of range");
    }
  }
  return CopyOperand(c, context, [&](const void* in, void* out) {
    std::vector<int64_t> identity(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) identity[d] = static_cast<int64_t>(d);
    StridedCopyArgs copy = PermutingCopy(shape, shape, identity, ElementBytes(type), in, out);
    for (int64_t d : dims) {
      copy.mul[d] = -1;
      copy.add[d] = shape[d] - 1;
    }
    return absl::StatusOr<std::vector<StridedCopyArgs>>({copy});
  });
}

// ----------------------------------------------------------------- pad

// result[low + i * (interior + 1)] = operand[i]; the rest padding_value.
// Negative low or high padding cuts the operand, which the same mapping
// does: those result coordinates are never written, those operand ones
// never read.
absl::StatusOr<Results> RunPad(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElements(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> low, IntListAttribute(c, "edge_padding_low"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> high, IntListAttribute(c, "edge_padding_high"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> interior, IntListAttribute(c, "interior_padding"));
  const Shape& shape = c.operands[0].shape();
  const TensorType& type = c.result_types[0];
  const Tensor& padding = c.operands[1];
  const size_t rank = shape.size();
  bool valid = low.size() == rank && high.size() == rank && interior.size() == rank &&
               type.shape.size() == rank && padding.rank() == 0 &&
               padding.element_type() == type.element_type;
  for (size_t d = 0; valid && d < rank; ++d) {
    const int64_t spread = shape[d] == 0 ? 0 : shape[d] + (shape[d] - 1) * interior[d];
    valid = interior[d] >= 0 && type.shape[d] == low[d] + spread + high[d] && type.shape[d] >= 0;
  }
  if (!valid) return absl::InvalidArgumentError("pad: paddings do not fit the operand");
  return CopyOperand(c, context, [&](const void* in, void* out) {
    std::vector<int64_t> identity(rank);
    for (size_t d = 0; d < rank; ++d) identity[d] = static_cast<int64_t>(d);
    StridedCopyArgs copy = PermutingCopy(shape, type.shape, identity, ElementBytes(type), in, out);
    for (size_t d = 0; d < rank; ++d) {
      copy.add[d] = -low[d];
      copy.div[d] = interior[d] + 1;
    }
    std::memcpy(copy.padding, padding.bytes().data(), padding.bytes().size());
    return absl::StatusOr<std::vector<StridedCopyArgs>>({copy});
  });
}

// -------------------------------------------------------- concatenate

absl::StatusOr<Results> RunConcatenate(const Case& c, Context& context) {
  if (c.operands.empty() || c.result_types.size() != 1) {
    return absl::InvalidArgumentError("concatenate needs operands and 1 result");
  }
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t dimension, IntAttribute(c, "dimension"));
  const TensorType& type = c.result_types[0];
  const int64_t rank = static_cast<int64_t>(type.shape.size());
  if (dimension < 0 || dimension >= rank) {
    return absl::InvalidArgumentError("concatenate: dimension out of range");
  }
  int64_t total = 0;
  for (const Tensor& operand : c.operands) {
    bool fits = operand.rank() == rank && operand.element_type() == type.element_type;
    for (int64_t d = 0; fits && d < rank; ++d) {
      fits = d == dimension || operand.shape()[d] == type.shape[d];
    }
    if (!fits) return absl::InvalidArgumentError("concatenate: operand shapes do not fit");
    total += operand.shape()[dimension];
  }
  if (total != type.shape[dimension]) {
    return absl::InvalidArgumentError("concatenate: sizes along the dimension do not add up");
  }
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out, context.Allocate(static_cast<size_t>(type.num_elements() * ElementBytes(type))));
  const std::vector<int64_t> out_strides = RowMajorStrides(type.shape);
  std::vector<int64_t> identity(rank);
  for (int64_t d = 0; d < rank; ++d) identity[d] = d;
  int64_t offset = 0;
  std::vector<Buffer> ins;  // kept until the copies have run
  for (const Tensor& operand : c.operands) {
    HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(operand));
    // The operand's box of the result: its own shape, at `offset` along
    // the dimension, with the result's strides.
    StridedCopyArgs copy = PermutingCopy(operand.shape(), operand.shape(), identity,
                                         ElementBytes(type), in.data(), out.data());
    for (int64_t d = 0; d < rank; ++d) copy.out_strides[d] = out_strides[d];
    copy.out_base = offset * out_strides[dimension];
    HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(copy)));
    offset += operand.shape()[dimension];
    ins.push_back(std::move(in));
  }
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementShapeOps() {
  return {
      {"reshape", &SupportsMovement, &RunReshape},
      {"transpose", &SupportsMovement, &RunTranspose},
      {"broadcast_in_dim", &SupportsMovement, &RunBroadcastInDim},
      {"slice", &SupportsMovement, &RunSlice},
      {"reverse", &SupportsMovement, &RunReverse},
      {"pad", &SupportsMovement, &RunPad},
      {"concatenate", &SupportsMovement, &RunConcatenate},
  };
}

}  // namespace hlocheck::cuda
