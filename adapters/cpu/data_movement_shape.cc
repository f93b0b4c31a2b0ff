// Data movement ops that reshape, repeat, reorder, cut or join whole tensors:
// broadcast_in_dim, reshape, reverse, concatenate, pad, transpose and slice.
// Each is a parallel copy, a strided box copy (data_movement_internal.h) per
// input, or an Eigen kernel, read off the spec's index formula.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adapters/cpu/data_movement_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

absl::Status CheckResultShape(const Case& c, const Shape& shape) {
  if (shape == c.result_types[0].shape) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(c.op, ": result should be ", ShapeToString(shape),
                                                 ", not ", c.result_types[0].ToString()));
}

// True when `values` are distinct and each in [0, bound).
bool DistinctBelow(const std::vector<int64_t>& values, int64_t bound) {
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(bound, 0)), false);
  for (int64_t v : values) {
    if (v < 0 || v >= bound || seen[v]) return false;
    seen[v] = true;
  }
  return true;
}

// ------------------------------------------------------------ broadcast_in_dim

// result[result_index] = operand[operand_index] with operand_index[d] = 0 if
// dim(operand, d) = 1 and result_index[broadcast_dimensions[d]] otherwise:
// a box of the result's shape whose source stride is the operand's stride
// of the dimension mapped there, and 0 (repeat) where none is.
absl::StatusOr<Results> RunBroadcastInDim(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  absl::StatusOr<std::vector<int64_t>> dims = IntListAttribute(c, "broadcast_dimensions");
  HLOCHECK_RETURN_IF_ERROR(dims.status());
  const Tensor& operand = c.operands[0];
  const TensorType& result_type = c.result_types[0];
  bool valid = static_cast<int64_t>(dims->size()) == operand.rank() &&
               DistinctBelow(*dims, result_type.rank());
  for (int64_t d = 0; valid && d < operand.rank(); ++d) {
    const int64_t size = operand.shape()[d];
    valid = size == 1 || size == result_type.shape[(*dims)[d]];
  }
  if (!valid) {
    return absl::InvalidArgumentError(
        absl::StrCat("broadcast_in_dim: broadcast_dimensions [", absl::StrJoin(*dims, ", "),
                     "] do not map ", operand.type().ToString(), " into ", result_type.ToString()));
  }
  Tensor result(result_type);
  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.shape());
  StridedBox box{result_type.shape, std::vector<int64_t>(result_type.rank(), 0),
                 RowMajorStrides(result_type.shape)};
  for (int64_t d = 0; d < operand.rank(); ++d) {
    if (operand.shape()[d] != 1) box.source_strides[(*dims)[d]] = operand_strides[d];
  }
  CopyBox(operand.raw(), result.raw(), box, ContainerBytes(operand.element_type()), device);
  return OneResult(std::move(result));
}

// ------------------------------------------------------------ reshape

// The row-major orders of operand and result are the same: the bytes stay.
absl::StatusOr<Results> RunReshape(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  const Tensor& operand = c.operands[0];
  if (operand.num_elements() != c.result_types[0].num_elements()) {
    return absl::InvalidArgumentError(absl::StrCat("reshape: ", operand.type().ToString(), " and ",
                                                   c.result_types[0].ToString(),
                                                   " differ in element count"));
  }
  Tensor result(c.result_types[0]);
  ParallelCopy(operand.raw(), result.raw(), static_cast<int64_t>(operand.bytes().size()), device);
  return OneResult(std::move(result));
}

// ------------------------------------------------------------ reverse

// operand_index[d] = dim(result, d) - result_index[d] - 1 for d in
// dimensions: the box starts at the operand's last element along those
// dimensions and steps back through them.
absl::StatusOr<Results> RunReverse(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  absl::StatusOr<std::vector<int64_t>> dimensions = IntListAttribute(c, "dimensions");
  HLOCHECK_RETURN_IF_ERROR(dimensions.status());
  const Tensor& operand = c.operands[0];
  HLOCHECK_RETURN_IF_ERROR(CheckResultShape(c, operand.shape()));
  if (!DistinctBelow(*dimensions, operand.rank())) {
    return absl::InvalidArgumentError(
        absl::StrCat("reverse: dimensions [", absl::StrJoin(*dimensions, ", "),
                     "] are not distinct dimensions of ", operand.type().ToString()));
  }
  Tensor result(c.result_types[0]);
  if (result.num_elements() == 0) return OneResult(std::move(result));
  const std::vector<int64_t> strides = RowMajorStrides(operand.shape());
  StridedBox box{operand.shape(), strides, strides};
  int64_t start = 0;
  for (int64_t d : *dimensions) {
    start += (operand.shape()[d] - 1) * strides[d];
    box.source_strides[d] = -strides[d];
  }
  const int bytes = ContainerBytes(operand.element_type());
  CopyBox(static_cast<const std::byte*>(operand.raw()) + start * bytes, result.raw(), box, bytes,
          device);
  return OneResult(std::move(result));
}

// ------------------------------------------------------------ concatenate

AdapterSupport SupportsConcatenate(const Case& c) {
  if (c.operands.empty() || c.result_types.size() != 1) {
    return AdapterSupport::No("concatenate needs at least one input and 1 result");
  }
  return SupportsMovement(c);
}

// inputs[k] lands in the result at d0 + ... + dk-1 along dimension: one box
// copy per input, into the result's strides.
absl::StatusOr<Results> RunConcatenate(const Case& c, const Device& device) {
  const int64_t count = static_cast<int64_t>(c.operands.size());
  if (count == 0 || c.result_types.size() != 1) {
    return absl::InvalidArgumentError("concatenate needs at least one input and 1 result");
  }
  HLOCHECK_RETURN_IF_ERROR(CheckSegments(c, {count}));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  absl::StatusOr<int64_t> dimension = IntAttribute(c, "dimension");
  HLOCHECK_RETURN_IF_ERROR(dimension.status());
  const Shape& first_shape = c.operands[0].shape();
  if (*dimension < 0 || *dimension >= c.operands[0].rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("concatenate: dimension ", *dimension, " is not a dimension of the inputs"));
  }
  Shape shape = first_shape;
  shape[*dimension] = 0;
  for (const Tensor& input : c.operands) {
    Shape others = input.shape();
    if (input.element_type() != c.operands[0].element_type() || others.size() != shape.size()) {
      return absl::InvalidArgumentError("concatenate: inputs differ in element type or rank");
    }
    shape[*dimension] += others[*dimension];
    others[*dimension] = first_shape[*dimension];
    if (others != first_shape) {
      return absl::InvalidArgumentError(
          absl::StrCat("concatenate: inputs differ in more than dimension ", *dimension));
    }
  }
  HLOCHECK_RETURN_IF_ERROR(CheckResultShape(c, shape));
  Tensor result = NewResult(c.result_types[0]);
  const std::vector<int64_t> result_strides = RowMajorStrides(shape);
  const int bytes = ContainerBytes(result.element_type());
  int64_t offset = 0;  // d0 + ... + dk-1
  for (const Tensor& input : c.operands) {
    const StridedBox box{input.shape(), RowMajorStrides(input.shape()), result_strides};
    CopyBox(input.raw(), static_cast<std::byte*>(result.raw()) + offset * bytes, box, bytes,
            device);
    offset += input.shape()[*dimension] * result_strides[*dimension];
  }
  return OneResult(std::move(result));
}

// ------------------------------------------------------------ pad

// result[edge_padding_low + operand_index * (interior_padding + 1)] =
// operand[operand_index], and padding_value elsewhere. Along each dimension
// the operand indices that land inside the result (negative edge padding
// drops the others) are a range [first, first + count): one box copy of
// that range, with result strides times interior_padding + 1, over a result
// filled with padding_value.
absl::StatusOr<Results> RunPad(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c, 1));
  absl::StatusOr<std::vector<int64_t>> low = IntListAttribute(c, "edge_padding_low");
  HLOCHECK_RETURN_IF_ERROR(low.status());
  absl::StatusOr<std::vector<int64_t>> high = IntListAttribute(c, "edge_padding_high");
  HLOCHECK_RETURN_IF_ERROR(high.status());
  absl::StatusOr<std::vector<int64_t>> interior = IntListAttribute(c, "interior_padding");
  HLOCHECK_RETURN_IF_ERROR(interior.status());
  const Tensor& operand = c.operands[0];
  const Tensor& padding_value = c.operands[1];
  const size_t rank = operand.shape().size();
  if (padding_value.rank() != 0 || low->size() != rank || high->size() != rank ||
      interior->size() != rank ||
      std::any_of(interior->begin(), interior->end(), [](int64_t i) { return i < 0; })) {
    return absl::InvalidArgumentError(
        "pad: padding_value must be a scalar, and the paddings one per dimension with interior "
        "padding >= 0");
  }
  Shape shape(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t dim = operand.shape()[d];
    shape[d] = (*low)[d] + dim + std::max<int64_t>(dim - 1, 0) * (*interior)[d] + (*high)[d];
  }
  if (std::any_of(shape.begin(), shape.end(), [](int64_t dim) { return dim < 0; })) {
    return absl::InvalidArgumentError(
        absl::StrCat("pad: the paddings make a negative dimension: ", ShapeToString(shape)));
  }
  HLOCHECK_RETURN_IF_ERROR(CheckResultShape(c, shape));

  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.shape());
  const std::vector<int64_t> result_strides = RowMajorStrides(shape);
  StridedBox box{Shape(rank), operand_strides, Shape(rank)};
  int64_t source_start = 0;
  int64_t destination_start = 0;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t step = (*interior)[d] + 1;
    // Operand index i lands at low + i * step, inside when 0 <= that < shape[d].
    const int64_t first = (*low)[d] >= 0 ? 0 : (-(*low)[d] + step - 1) / step;
    const int64_t room = shape[d] - (*low)[d];  // i * step < room
    const int64_t end = room <= 0 ? 0 : std::min(operand.shape()[d], (room - 1) / step + 1);
    box.sizes[d] = std::max<int64_t>(end - first, 0);
    box.destination_strides[d] = result_strides[d] * step;
    source_start += first * operand_strides[d];
    destination_start += ((*low)[d] + first * step) * result_strides[d];
  }
  Tensor result(c.result_types[0]);
  const int bytes = ContainerBytes(operand.element_type());
  const int64_t copied = NumElements(box.sizes);
  // Where the operand covers the whole result there is nothing to pad.
  if (copied < result.num_elements()) {
    ParallelFill(padding_value.raw(), result.raw(), result.num_elements(), bytes, device);
  }
  if (copied > 0) {
    CopyBox(static_cast<const std::byte*>(operand.raw()) + source_start * bytes,
            static_cast<std::byte*>(result.raw()) + destination_start * bytes, box, bytes, device);
  }
  return OneResult(std::move(result));
}

// ------------------------------------------------------------ transpose

// result_index[d] = operand_index[permutation[d]]: the shared transposition
// of whole buffers (TransposeBytes).
absl::StatusOr<Results> RunTranspose(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  absl::StatusOr<std::vector<int64_t>> perm = IntListAttribute(c, "permutation");
  HLOCHECK_RETURN_IF_ERROR(perm.status());
  const Tensor& operand = c.operands[0];
  const int64_t rank = operand.rank();
  std::vector<bool> seen(rank, false);
  bool valid = static_cast<int64_t>(perm->size()) == rank;
  for (size_t d = 0; valid && d < perm->size(); ++d) {
    const int64_t p = (*perm)[d];
    valid = p >= 0 && p < rank && !seen[p];
    if (valid) seen[p] = true;
  }
  if (!valid) {
    return absl::InvalidArgumentError(absl::StrCat("transpose: permutation [",
                                                   absl::StrJoin(*perm, ", "),
                                                   "] is not a permutation of rank ", rank));
  }
  Shape shape(rank);
  for (int64_t d = 0; d < rank; ++d) shape[d] = operand.shape()[(*perm)[d]];
  if (shape != c.result_types[0].shape) {
    return absl::InvalidArgumentError(absl::StrCat("transpose: result should be ",
                                                   ShapeToString(shape), ", not ",
                                                   c.result_types[0].ToString()));
  }
  Tensor result = NewResult(c.result_types[0]);
  TransposeBytes(operand.raw(), operand.shape(), *perm, ContainerBytes(operand.element_type()),
                 result.raw(), device);
  Results results;
  results.push_back(std::move(result));
  return results;
}

// ------------------------------------------------------------ slice

// operand[start_indices + result_index * strides]: Eigen's stridedSlice on
// the collapsed slice, or one copy when the slice is a contiguous run.
// A slice with dimensions of size 1 dropped, and each dimension taken whole
// with stride 1 merged into the dimension outside it when that one has
// stride 1: their elements are then consecutive runs.
struct CollapsedSlice {
  std::vector<int64_t> dims, start, limit, strides;
};

CollapsedSlice Collapse(const Shape& shape, const std::vector<int64_t>& start,
                        const std::vector<int64_t>& limit, const std::vector<int64_t>& strides) {
  CollapsedSlice s;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const bool whole = start[d] == 0 && limit[d] == shape[d] && strides[d] == 1;
    if (whole && !s.dims.empty() && s.strides.back() == 1) {
      s.dims.back() *= shape[d];
      s.start.back() *= shape[d];
      s.limit.back() *= shape[d];
      continue;
    }
    s.dims.push_back(shape[d]);
    s.start.push_back(start[d]);
    s.limit.push_back(limit[d]);
    s.strides.push_back(strides[d]);
  }
  return s;
}

template <typename S, int R>
void StridedSliceKernel(const void* source, const CollapsedSlice& s, void* destination,
                        const Device& device) {
  Eigen::DSizes<Eigen::Index, R> in_dims;
  Eigen::DSizes<Eigen::Index, R> out_dims;
  Eigen::DSizes<Eigen::Index, R> start;
  Eigen::DSizes<Eigen::Index, R> stop;
  Eigen::DSizes<Eigen::Index, R> strides;
  for (int d = 0; d < R; ++d) {
    in_dims[d] = s.dims[d];
    start[d] = s.start[d];
    stop[d] = s.limit[d];
    strides[d] = s.strides[d];
    out_dims[d] = (s.limit[d] - s.start[d] + s.strides[d] - 1) / s.strides[d];
  }
  Map<S, R>(static_cast<S*>(destination), out_dims).device(device) =
      ConstMap<S, R>(static_cast<const S*>(source), in_dims).stridedSlice(start, stop, strides);
}

AdapterSupport SupportsRank(const Case& c) {
  const int64_t rank = c.operands[0].rank();
  if (rank > kMaxRank) {
    return AdapterSupport::No(absl::StrCat(c.op, " of rank ", rank, " is not implemented (the ",
                                           "Eigen kernels go up to rank ", kMaxRank, ")"));
  }
  return AdapterSupport::Yes();
}
absl::StatusOr<Results> RunSlice(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  absl::StatusOr<std::vector<int64_t>> start = IntListAttribute(c, "start_indices");
  HLOCHECK_RETURN_IF_ERROR(start.status());
  absl::StatusOr<std::vector<int64_t>> limit = IntListAttribute(c, "limit_indices");
  HLOCHECK_RETURN_IF_ERROR(limit.status());
  absl::StatusOr<std::vector<int64_t>> strides = IntListAttribute(c, "strides");
  HLOCHECK_RETURN_IF_ERROR(strides.status());
  const Tensor& operand = c.operands[0];
  const size_t rank = operand.shape().size();
  if (start->size() != rank || limit->size() != rank || strides->size() != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("slice: start_indices, limit_indices and strides need ", rank, " entries"));
  }
  Shape shape(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t b = (*start)[d];
    const int64_t e = (*limit)[d];
    const int64_t s = (*strides)[d];
    if (b < 0 || b > e || e > operand.shape()[d] || s < 1) {
      return absl::InvalidArgumentError(absl::StrCat("slice: dimension ", d, " of size ",
                                                     operand.shape()[d], " has start ", b,
                                                     ", limit ", e, ", stride ", s));
    }
    shape[d] = (e - b + s - 1) / s;
  }
  if (shape != c.result_types[0].shape) {
    return absl::InvalidArgumentError(absl::StrCat("slice: result should be ", ShapeToString(shape),
                                                   ", not ", c.result_types[0].ToString()));
  }
  Tensor result = NewResult(c.result_types[0]);
  const int bytes = ContainerBytes(operand.element_type());
  if (result.num_elements() > 0) {
    const CollapsedSlice s = Collapse(operand.shape(), *start, *limit, *strides);
    if (s.dims.empty()) {
      std::memcpy(result.raw(), operand.raw(), static_cast<size_t>(bytes));
    } else if (s.dims.size() == 1 && s.strides[0] == 1) {
      ParallelCopy(static_cast<const std::byte*>(operand.raw()) + s.start[0] * bytes, result.raw(),
                   result.num_elements() * bytes, device);
    } else {
      DispatchContainer(bytes, [&]<typename S>() {
        DispatchRank(static_cast<int>(s.dims.size()), [&]<int R>() {
          StridedSliceKernel<S, R>(operand.raw(), s, result.raw(), device);
        });
      });
    }
  }
  Results results;
  results.push_back(std::move(result));
  return results;
}
}  // namespace

std::vector<OpEntry> DataMovementShapeOps() {
  return {
      {"broadcast_in_dim", 1, &SupportsMovement, &RunBroadcastInDim},
      {"reshape", 1, &SupportsMovement, &RunReshape},
      {"reverse", 1, &SupportsMovement, &RunReverse},
      {"concatenate", kVariadic, &SupportsConcatenate, &RunConcatenate},
      {"pad", 2, &SupportsMovement, &RunPad},
      {"transpose", 1, &SupportsRank, &RunTranspose},
      {"slice", 1, &SupportsRank, &RunSlice},
  };
}

}  // namespace hlocheck::cpu
