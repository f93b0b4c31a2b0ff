// The CUDA adapter's indexing ops: dynamic_slice and dynamic_update_slice
// (the start indices read and clamped on the host, then one strided copy)
// and gather (every result element finds its operand element itself,
// reading and clamping its start indices on the machine).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "adapters/cuda/data_movement_internal.h"
#include "core/case_attributes.h"
#include "core/element_value.h"

namespace hlocheck::cuda {
namespace {

// ---------------------------------- dynamic_slice, dynamic_update_slice

// One rank-0 integer operand per dimension, from operand `first` on, each
// clamped into [0, shape[d] - sizes[d]] (the spec's adjusted indices).
absl::StatusOr<std::vector<int64_t>> ClampedStarts(const Case& c, size_t first, const Shape& shape,
                                                   const Shape& sizes) {
  if (c.operands.size() != first + shape.size() || sizes.size() != shape.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, " needs one start index per operand dimension"));
  }
  std::vector<int64_t> starts;
  for (size_t d = 0; d < shape.size(); ++d) {
    const Tensor& index = c.operands[first + d];
    if (index.rank() != 0 || !IsInteger(index.element_type())) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.op, ": start index ", d, " is not an integer scalar"));
    }
    if (sizes[d] < 0 || sizes[d] > shape[d]) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": sizes do not fit the operand"));
    }
    // The index's value (core's integer conversion would wrap a ui64 past
    // int64's range; it is clamped anyway, so it saturates here).
    uint64_t value = 0;
    ConvertElement(index.element_type(), index.bytes().data(), ElementType::kUI64, &value);
    if (IsSignedInt(index.element_type())) {
      ConvertElement(index.element_type(), index.bytes().data(), ElementType::kSI64, &value);
    } else if (value > static_cast<uint64_t>(INT64_MAX)) {
      value = static_cast<uint64_t>(INT64_MAX);
    }
    starts.push_back(std::clamp<int64_t>(static_cast<int64_t>(value), 0, shape[d] - sizes[d]));
  }
  return starts;
}

absl::StatusOr<Results> RunDynamicSlice(const Case& c, Context& context) {
  if (c.operands.empty() || c.result_types.size() != 1) {
    return absl::InvalidArgumentError("dynamic_slice needs an operand and 1 result");
  }
  HLOCHECK_RETURN_IF_ERROR(CheckSameElements(c));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, IntListAttribute(c, "slice_sizes"));
  const Shape& shape = c.operands[0].shape();
  const TensorType& type = c.result_types[0];
  if (type.shape != sizes) {
    return absl::InvalidArgumentError("dynamic_slice: the result is not of slice_sizes");
  }
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> starts, ClampedStarts(c, 1, shape, sizes));
  return CopyOperand(c, context, [&](const void* in, void* out) {
    std::vector<int64_t> identity(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) identity[d] = static_cast<int64_t>(d);
    StridedCopyArgs copy = PermutingCopy(shape, type.shape, identity, ElementBytes(type), in, out);
    for (size_t d = 0; d < shape.size(); ++d) copy.add[d] = starts[d];
    return absl::StatusOr<std::vector<StridedCopyArgs>>({copy});
  });
}

absl::StatusOr<Results> RunDynamicUpdateSlice(const Case& c, Context& context) {
  if (c.operands.size() < 2 || c.result_types.size() != 1) {
    return absl::InvalidArgumentError("dynamic_update_slice needs an operand, an update, indices");
  }
  HLOCHECK_RETURN_IF_ERROR(CheckSameElements(c));
  const Tensor& operand = c.operands[0];
  const Tensor& update = c.operands[1];
  const TensorType& type = c.result_types[0];
  if (type.shape != operand.shape() || update.element_type() != type.element_type) {
    return absl::InvalidArgumentError("dynamic_update_slice: types do not fit");
  }
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> starts,
                            ClampedStarts(c, 2, operand.shape(), update.shape()));
  const size_t rank = operand.shape().size();
  std::vector<int64_t> identity(rank);
  for (size_t d = 0; d < rank; ++d) identity[d] = static_cast<int64_t>(d);
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Upload(operand));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(update));
  // The update's box of the result, with the result's strides.
  StridedCopyArgs copy = PermutingCopy(update.shape(), update.shape(), identity, ElementBytes(type),
                                       in.data(), out.data());
  const std::vector<int64_t> out_strides = RowMajorStrides(type.shape);
  copy.out_base = 0;
  for (size_t d = 0; d < rank; ++d) {
    copy.out_strides[d] = out_strides[d];
    copy.out_base += starts[d] * out_strides[d];
  }
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(copy)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

// -------------------------------------------------------------- gather

// The gather kernel's plan (GatherArgs) from the attributes, after the
// checks memory safety needs (the spec's constraints, as far as offsets go).
absl::StatusOr<GatherArgs> PlanGather(const Case& c) {
  const Tensor& operand = c.operands[0];
  const Tensor& indices = c.operands[1];
  const TensorType& result = c.result_types[0];
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> offset_dims, IntListAttribute(c, "offset_dims"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> collapsed,
                            IntListAttribute(c, "collapsed_slice_dims"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> operand_batching,
                            IntListAttribute(c, "operand_batching_dims", {}));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> indices_batching,
                            IntListAttribute(c, "start_indices_batching_dims", {}));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> start_index_map,
                            IntListAttribute(c, "start_index_map"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> slice_sizes, IntListAttribute(c, "slice_sizes"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t ivd, IntAttribute(c, "index_vector_dim"));
  auto invalid = [](const std::string& what) {
    return absl::InvalidArgumentError("gather: " + what);
  };
  const int64_t operand_rank = operand.rank();
  const int64_t indices_rank = indices.rank();
  if (!IsInteger(indices.element_type())) return invalid("start_indices are not integers");
  if (ivd < 0 || ivd > indices_rank) return invalid("index_vector_dim out of range");
  const int64_t vector_size = ivd < indices_rank ? indices.shape()[ivd] : 1;
  if (static_cast<int64_t>(start_index_map.size()) != vector_size) {
    return invalid("one start_index_map entry per index vector element");
  }
  if (static_cast<int64_t>(slice_sizes.size()) != operand_rank) return invalid("slice_sizes");
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (slice_sizes[d] < 0 || slice_sizes[d] > operand.shape()[d]) return invalid("slice_sizes");
  }
  enum Role { kOffset, kCollapsed, kBatching };
  std::vector<Role> role(operand_rank, kOffset);
  for (auto [dims, kind] :
       {std::pair{&collapsed, kCollapsed}, std::pair{&operand_batching, kBatching}}) {
    for (int64_t d : *dims) {
      if (d < 0 || d >= operand_rank || role[d] != kOffset || slice_sizes[d] > 1) {
        return invalid("collapsed and batching dimensions: distinct, of slice size <= 1");
      }
      role[d] = kind;
    }
  }
  std::vector<bool> mapped(operand_rank, false);
  for (int64_t d : start_index_map) {
    if (d < 0 || d >= operand_rank || mapped[d] || role[d] == kBatching) {
      return invalid("start_index_map: distinct operand dimensions, none a batching one");
    }
    mapped[d] = true;
  }
  if (indices_batching.size() != operand_batching.size()) return invalid("batching dimensions");
  std::vector<int64_t> batching_of(indices_rank, -1);
  for (size_t j = 0; j < indices_batching.size(); ++j) {
    const int64_t d = indices_batching[j];
    if (d < 0 || d >= indices_rank || d == ivd || batching_of[d] >= 0 ||
        indices.shape()[d] != operand.shape()[operand_batching[j]]) {
      return invalid("start_indices_batching_dims");
    }
    batching_of[d] = operand_batching[j];
  }
  std::vector<int64_t> offset_operand_dims;
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (role[d] == kOffset) offset_operand_dims.push_back(d);
  }
  const int64_t result_rank = result.rank();
  const int64_t batch_rank = indices_rank - (ivd < indices_rank ? 1 : 0);
  if (offset_dims.size() != offset_operand_dims.size() ||
      batch_rank + static_cast<int64_t>(offset_dims.size()) != result_rank ||
      !std::is_sorted(offset_dims.begin(), offset_dims.end()) ||
      std::adjacent_find(offset_dims.begin(), offset_dims.end()) != offset_dims.end() ||
      (!offset_dims.empty() && (offset_dims.front() < 0 || offset_dims.back() >= result_rank)) ||
      result_rank > kMaxRank || result.element_type != operand.element_type()) {
    return invalid("offset_dims do not fit the result");
  }
  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.shape());
  const std::vector<int64_t> index_strides = RowMajorStrides(indices.shape());
  GatherArgs args;
  args.element_bytes = ContainerBytes(result.element_type);
  args.rank = static_cast<int>(result_rank);
  size_t next_offset = 0;
  int64_t next_batch = 0;
  for (int64_t d = 0; d < result_rank; ++d) {
    int64_t size;
    if (next_offset < offset_dims.size() && offset_dims[next_offset] == d) {
      const int64_t operand_dim = offset_operand_dims[next_offset++];
      size = slice_sizes[operand_dim];
      args.operand_strides[d] = operand_strides[operand_dim];
    } else {
      if (next_batch == ivd) ++next_batch;
      size = indices.shape()[next_batch];
      args.index_strides[d] = index_strides[next_batch];
      const int64_t paired = batching_of[next_batch];
      args.operand_strides[d] = paired >= 0 ? operand_strides[paired] : 0;
      ++next_batch;
    }
    if (size != result.shape[d]) return invalid("the result's shape");
    args.dims[d] = size;
  }
  args.starts = static_cast<int>(start_index_map.size());
  for (size_t k = 0; k < start_index_map.size(); ++k) {
    const int64_t d = start_index_map[k];
    args.start_max[k] = operand.shape()[d] - slice_sizes[d];
    args.start_strides[k] = operand_strides[d];
  }
  args.index_vector_step = ivd < indices_rank ? index_strides[ivd] : 0;
  args.index_kind = *KindOf(indices.element_type());
  return args;
}

AdapterSupport SupportsGather(const Case& c) {
  if (AdapterSupport movement = SupportsMovement(c); !movement.supported) return movement;
  if (c.operands.size() != 2 || c.result_types.size() != 1) {
    return AdapterSupport::No("gather needs an operand, start indices and 1 result");
  }
  // A collapsed or batching dimension of slice size 0 places the slice
  // outside the operand; the spec gives those elements no value.
  absl::StatusOr<std::vector<int64_t>> sizes = IntListAttribute(c, "slice_sizes");
  absl::StatusOr<std::vector<int64_t>> collapsed = IntListAttribute(c, "collapsed_slice_dims");
  if (sizes.ok() && collapsed.ok()) {
    for (int64_t d : *collapsed) {
      if (d >= 0 && d < static_cast<int64_t>(sizes->size()) && (*sizes)[d] == 0) {
        return AdapterSupport::No(
            "gather with an empty collapsed slice is not implemented on CUDA");
      }
    }
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunGather(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  HLOCHECK_ASSIGN_OR_RETURN(GatherArgs args, PlanGather(c));
  const TensorType& type = c.result_types[0];
  HLOCHECK_ASSIGN_OR_RETURN(Buffer operand, context.Upload(c.operands[0]));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer indices, context.Upload(c.operands[1]));
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out, context.Allocate(static_cast<size_t>(type.num_elements() * args.element_bytes)));
  args.operand = operand.data();
  args.indices = indices.data();
  args.out = out.data();
  // Every slice lies inside the operand once clamped; an operand with no
  // elements has none to read (and then the result has none either, or the
  // case is invalid).
  if (type.num_elements() > 0 && c.operands[0].num_elements() == 0) {
    return absl::InvalidArgumentError("gather: slices of an empty operand");
  }
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Gather(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementIndexingOps() {
  return {
      {"dynamic_slice", &SupportsMovement, &RunDynamicSlice},
      {"dynamic_update_slice", &SupportsMovement, &RunDynamicUpdateSlice},
      {"gather", &SupportsGather, &RunGather},
  };
}

}  // namespace hlocheck::cuda
