// The CUDA adapter's data-movement ops: reshape, transpose,
// broadcast_in_dim, slice, reverse, pad, concatenate, dynamic_slice,
// dynamic_update_slice, iota and bitcast_convert between types of one
// container size. Each is one or a few strided copies
// (kernels/data_movement_kernels.h), planned here from the op's attributes;
// only bytes move, so every element type goes through them, complex ones
// too.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsMovement(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c, /*bytes_only=*/true); !tensors.supported) {
    return tensors;
  }
  for (const Tensor& operand : c.operands) {
    if (operand.rank() > kMaxRank) return AdapterSupport::No(c.op + ": rank above 8");
  }
  for (const TensorType& result : c.result_types) {
    if (static_cast<int>(result.shape.size()) > kMaxRank) {
      return AdapterSupport::No(c.op + ": rank above 8");
    }
  }
  return AdapterSupport::Yes();
}

int ElementBytes(const TensorType& type) { return ContainerBytes(type.element_type); }

// Uploads operand 0, allocates the result, runs `plan`'s copies (each
// filled with the machine's in and out pointers), and downloads.
template <typename Plan>
absl::StatusOr<Results> CopyOperand(const Case& c, Context& context, Plan plan) {
  if (c.operands.empty() || c.result_types.size() != 1) {
    return absl::InvalidArgumentError(c.op + " needs an operand and 1 result");
  }
  const TensorType& type = c.result_types[0];
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(c.operands[0]));
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out, context.Allocate(static_cast<size_t>(type.num_elements() * ElementBytes(type))));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<StridedCopyArgs> copies, plan(in.data(), out.data()));
  for (const StridedCopyArgs& copy : copies) {
    HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(copy)));
  }
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

absl::Status CheckSameElements(const Case& c) {
  if (c.operands.empty() || c.result_types.size() != 1 ||
      c.operands[0].element_type() != c.result_types[0].element_type) {
    return absl::InvalidArgumentError(c.op + ": the result's element type is not the operand's");
  }
  return absl::OkStatus();
}

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
  const std::vector<int64_t> out_strides = StridesOf(type.shape);
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

// ---------------------------------------------------------------- iota

AdapterSupport SupportsIota(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunIota(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 0));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t dimension, IntAttribute(c, "iota_dimension"));
  const TensorType& type = c.result_types[0];
  if (dimension < 0 || dimension >= static_cast<int64_t>(type.shape.size())) {
    return absl::InvalidArgumentError("iota: iota_dimension out of range");
  }
  std::optional<ElementKind> kind = KindOf(type.element_type);
  if (!kind.has_value()) return absl::UnimplementedError("iota: complex types on CUDA");
  IotaArgs args;
  args.kind = *kind;
  args.n = type.num_elements();
  args.extent = type.shape[dimension];
  for (size_t d = dimension + 1; d < type.shape.size(); ++d) args.inner *= type.shape[d];
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out,
      context.Allocate(static_cast<size_t>(args.n * ContainerBytes(type.element_type))));
  args.out = out.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Iota(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

// ------------------------------------------------------ bitcast_convert

// Between types whose values fill their containers (no sub-byte or i1
// types, whose bits the spec packs), the bytes stay as they are: the same
// storage, read as another type and shape.
AdapterSupport SupportsBitcast(const Case& c) {
  if (AdapterSupport movement = SupportsMovement(c); !movement.supported) return movement;
  for (ElementType type :
       {c.operands.empty() ? ElementType::kI1 : c.operands[0].element_type(),
        c.result_types.empty() ? ElementType::kI1 : c.result_types[0].element_type}) {
    if (BitWidth(type) != 8 * ContainerBytes(type)) {
      return AdapterSupport::No(absl::StrCat("bitcast_convert of ", std::string(Name(type)),
                                             " (packed sub-byte bits) is not implemented on CUDA"));
    }
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunBitcast(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  const TensorType& type = c.result_types[0];
  const int64_t bytes = type.num_elements() * ContainerBytes(type.element_type);
  if (bytes != static_cast<int64_t>(c.operands[0].bytes().size())) {
    return absl::InvalidArgumentError("bitcast_convert: sizes differ");
  }
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(c.operands[0]));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Allocate(static_cast<size_t>(bytes)));
  const Shape flat = {bytes};
  const int64_t source[] = {0};
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(PermutingCopy(
                                                flat, flat, source, 1, in.data(), out.data()))));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementOps() {
  return {
      {"reshape", &SupportsMovement, &RunReshape},
      {"transpose", &SupportsMovement, &RunTranspose},
      {"broadcast_in_dim", &SupportsMovement, &RunBroadcastInDim},
      {"slice", &SupportsMovement, &RunSlice},
      {"reverse", &SupportsMovement, &RunReverse},
      {"pad", &SupportsMovement, &RunPad},
      {"concatenate", &SupportsMovement, &RunConcatenate},
      {"dynamic_slice", &SupportsMovement, &RunDynamicSlice},
      {"dynamic_update_slice", &SupportsMovement, &RunDynamicUpdateSlice},
      {"iota", &SupportsIota, &RunIota},
      {"bitcast_convert", &SupportsBitcast, &RunBitcast},
  };
}

}  // namespace hlocheck::cuda
