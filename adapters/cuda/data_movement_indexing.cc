// The CUDA adapter's dynamic_slice and dynamic_update_slice: the start
// indices read and clamped on the host, then one strided copy (gather and
// scatter are not implemented on CUDA yet).
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
  const std::vector<int64_t> out_strides = StridesOf(type.shape);
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

}  // namespace

std::vector<OpEntry> DataMovementIndexingOps() {
  return {
      {"dynamic_slice", &SupportsMovement, &RunDynamicSlice},
      {"dynamic_update_slice", &SupportsMovement, &RunDynamicUpdateSlice},
  };
}

}  // namespace hlocheck::cuda
