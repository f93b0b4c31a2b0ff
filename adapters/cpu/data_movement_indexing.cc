// Data movement at run-time start indices: dynamic_slice,
// dynamic_update_slice and gather. Start indices may have any integer type
// (si2 ... ui64); each is read once as int64_t (IndexValue) and clamped as
// the spec's formulas say, so every slice stays inside the operand. The
// slices themselves are strided box copies (data_movement_internal.h).
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adapters/cpu/data_movement_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// The value of element `i` of an integer tensor.
int64_t IndexElement(const Tensor& indices, int64_t i) {
  return DispatchElementType(indices.element_type(), [&]<ElementType T>() -> int64_t {
    if constexpr (IsInteger(T)) {
      return IndexValue<T>(indices.values<T>()[i]);
    } else {
      __builtin_unreachable();  // callers accept integer tensors only
    }
  });
}

absl::Status CheckIntegerIndices(const Case& c, const Tensor& indices) {
  if (!IsInteger(indices.element_type())) {
    return absl::InvalidArgumentError(absl::StrCat(
        c.op, ": start indices of type ", TypeName(indices.element_type()), " are not integers"));
  }
  return absl::OkStatus();
}

// The variadic start indices of dynamic_slice and dynamic_update_slice
// (operands `first`, ...): one rank-0 integer tensor per dimension of
// `operand`, clamped into [0, dim(operand, d) - sizes[d]].
absl::StatusOr<std::vector<int64_t>> ClampedStartIndices(const Case& c, size_t first,
                                                         const Tensor& operand,
                                                         const Shape& sizes) {
  const int64_t rank = operand.rank();
  if (static_cast<int64_t>(c.operands.size() - first) != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, " needs ", rank, " start indices, not ", c.operands.size() - first));
  }
  std::vector<int64_t> start(rank);
  for (int64_t d = 0; d < rank; ++d) {
    const Tensor& index = c.operands[first + d];
    HLOCHECK_RETURN_IF_ERROR(CheckIntegerIndices(c, index));
    if (index.rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": start index ", d, " is ",
                                                     index.type().ToString(), ", not a scalar"));
    }
    start[d] = std::clamp<int64_t>(IndexElement(index, 0), 0, operand.shape()[d] - sizes[d]);
  }
  return start;
}

// True when 0 <= sizes <= shape, dimension by dimension.
bool FitsIn(const Shape& sizes, const Shape& shape) {
  if (sizes.size() != shape.size()) return false;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] < 0 || sizes[d] > shape[d]) return false;
  }
  return true;
}

int64_t Dot(const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * strides[d];
  return offset;
}

AdapterSupport SupportsDynamicSlice(const Case& c) {
  if (c.operands.empty() || c.result_types.size() != 1) {
    return AdapterSupport::No("dynamic_slice needs an operand, start indices and 1 result");
  }
  return SupportsMovement(c);
}

// ------------------------------------------------------------ dynamic_slice

// result[result_index] = operand[adjusted_start_indices + result_index]
// with adjusted_start_indices = clamp(0, start_indices, shape(operand) -
// slice_sizes): one box of slice_sizes at the adjusted start.
absl::StatusOr<Results> RunDynamicSlice(const Case& c, const Device& device) {
  if (c.operands.empty() || c.result_types.size() != 1) {
    return absl::InvalidArgumentError("dynamic_slice needs an operand and 1 result");
  }
  const Tensor& operand = c.operands[0];
  HLOCHECK_RETURN_IF_ERROR(CheckSegments(c, {1, operand.rank()}));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  absl::StatusOr<std::vector<int64_t>> slice_sizes = IntListAttribute(c, "slice_sizes");
  HLOCHECK_RETURN_IF_ERROR(slice_sizes.status());
  if (!FitsIn(*slice_sizes, operand.shape()) || *slice_sizes != c.result_types[0].shape) {
    return absl::InvalidArgumentError(absl::StrCat(
        "dynamic_slice: slice_sizes [", absl::StrJoin(*slice_sizes, ", "), "] must fit in ",
        operand.type().ToString(), " and be the shape of ", c.result_types[0].ToString()));
  }
  absl::StatusOr<std::vector<int64_t>> start = ClampedStartIndices(c, 1, operand, *slice_sizes);
  HLOCHECK_RETURN_IF_ERROR(start.status());
  Tensor result(c.result_types[0]);
  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.shape());
  const int bytes = ContainerBytes(operand.element_type());
  const StridedBox box{*slice_sizes, operand_strides, RowMajorStrides(*slice_sizes)};
  CopyBox(static_cast<const std::byte*>(operand.raw()) + Dot(*start, operand_strides) * bytes,
          result.raw(), box, bytes, device);
  return OneResult(std::move(result));
}

// ------------------------------------------------------------ dynamic_update_slice

AdapterSupport SupportsDynamicUpdateSlice(const Case& c) {
  if (c.operands.size() < 2 || c.result_types.size() != 1) {
    return AdapterSupport::No(
        "dynamic_update_slice needs an operand, an update, start indices and 1 result");
  }
  return SupportsMovement(c);
}

// result = operand, except that the box of shape(update) at
// adjusted_start_indices = clamp(0, start_indices, shape(operand) -
// shape(update)) is update.
absl::StatusOr<Results> RunDynamicUpdateSlice(const Case& c, const Device& device) {
  if (c.operands.size() < 2 || c.result_types.size() != 1) {
    return absl::InvalidArgumentError(
        "dynamic_update_slice needs an operand, an update and 1 result");
  }
  const Tensor& operand = c.operands[0];
  const Tensor& update = c.operands[1];
  HLOCHECK_RETURN_IF_ERROR(CheckSegments(c, {1, 1, operand.rank()}));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c, 1));
  if (operand.shape() != c.result_types[0].shape || !FitsIn(update.shape(), operand.shape())) {
    return absl::InvalidArgumentError(
        absl::StrCat("dynamic_update_slice: update ", update.type().ToString(), " must fit in ",
                     operand.type().ToString(), ", of the result's type"));
  }
  absl::StatusOr<std::vector<int64_t>> start = ClampedStartIndices(c, 2, operand, update.shape());
  HLOCHECK_RETURN_IF_ERROR(start.status());
  Tensor result(c.result_types[0]);
  ParallelCopy(operand.raw(), result.raw(), static_cast<int64_t>(operand.bytes().size()), device);
  const std::vector<int64_t> result_strides = RowMajorStrides(operand.shape());
  const int bytes = ContainerBytes(operand.element_type());
  const StridedBox box{update.shape(), RowMajorStrides(update.shape()), result_strides};
  CopyBox(update.raw(), static_cast<std::byte*>(result.raw()) + Dot(*start, result_strides) * bytes,
          box, bytes, device);
  return OneResult(std::move(result));
}

// ------------------------------------------------------------ gather

// Where gather's slices come from and go to, derived once from the
// attributes. Each batch position (an index of start_indices without
// index_vector_dim, in row-major order) has one slice: a box of the offset
// dimensions' slice sizes, copied from
//   operand offset = sum_k clamp(start_index[k], 0, start_max[k]) * start_strides[k]
//                    + sum_i batch_index[i] * batching_strides[i]
// to result offset sum_i batch_index[i] * result_strides[i].
struct GatherPlan {
  // Per batch dimension of the result, in order:
  std::vector<int64_t> batch_sizes;
  std::vector<int64_t> index_strides;     // its stride in start_indices
  std::vector<int64_t> result_strides;    // its stride in the result
  std::vector<int64_t> batching_strides;  // the operand batching dimension's stride, or 0
  // Per entry k of a start index vector (operand dimension start_index_map[k]):
  std::vector<int64_t> start_max;      // dim(operand, d) - slice_sizes[d]
  std::vector<int64_t> start_strides;  // the operand's stride of d
  // A collapsed dimension of slice size 0 (C8 allows it) keeps its result
  // elements while the slice is empty: a start at dim(operand, d) lies
  // outside the operand, where the spec gives no value and nothing is read.
  std::vector<uint8_t> start_may_leave;
  bool every_slice_outside = false;  // such a dimension of size 0 that no start moves
  int64_t index_vector_step = 0;     // stride of index_vector_dim in start_indices
  StridedBox slice;                  // the offset dimensions
};

// Checks everything the plan's offsets rely on (the spec's C1-C14 and the
// public spec's batching constraints, as far as memory safety needs them).
absl::StatusOr<GatherPlan> PlanGather(const Case& c) {
  const Tensor& operand = c.operands[0];
  const Tensor& start_indices = c.operands[1];
  const TensorType& result_type = c.result_types[0];
  auto offset_dims = IntListAttribute(c, "offset_dims");
  auto collapsed_slice_dims = IntListAttribute(c, "collapsed_slice_dims");
  auto operand_batching_dims = IntListAttribute(c, "operand_batching_dims", {});
  auto start_indices_batching_dims = IntListAttribute(c, "start_indices_batching_dims", {});
  auto start_index_map = IntListAttribute(c, "start_index_map");
  auto slice_sizes = IntListAttribute(c, "slice_sizes");
  absl::StatusOr<int64_t> index_vector_dim = IntAttribute(c, "index_vector_dim");
  for (const absl::Status& status :
       {offset_dims.status(), collapsed_slice_dims.status(), operand_batching_dims.status(),
        start_indices_batching_dims.status(), start_index_map.status(), slice_sizes.status(),
        index_vector_dim.status()}) {
    HLOCHECK_RETURN_IF_ERROR(status);
  }
  auto invalid = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat("gather: ", what));
  };
  const int64_t operand_rank = operand.rank();
  const int64_t indices_rank = start_indices.rank();
  const int64_t ivd = *index_vector_dim;
  if (ivd < 0 || ivd > indices_rank) return invalid("index_vector_dim out of range");
  const int64_t vector_size = ivd < indices_rank ? start_indices.shape()[ivd] : 1;
  if (static_cast<int64_t>(start_index_map->size()) != vector_size) {
    return invalid("start_index_map needs one entry per start index vector element");
  }
  if (!FitsIn(*slice_sizes, operand.shape())) return invalid("slice_sizes do not fit the operand");

  // Every operand dimension is an offset, a collapsed or a batching dimension.
  enum class Role : uint8_t { kOffset, kCollapsed, kBatching };
  std::vector<Role> role(operand_rank, Role::kOffset);
  for (auto [dims, kind] : {std::pair{&*collapsed_slice_dims, Role::kCollapsed},
                            std::pair{&*operand_batching_dims, Role::kBatching}}) {
    for (int64_t d : *dims) {
      if (d < 0 || d >= operand_rank || role[d] != Role::kOffset || (*slice_sizes)[d] > 1) {
        return invalid(
            "collapsed_slice_dims and operand_batching_dims must be distinct operand "
            "dimensions of slice size <= 1");
      }
      role[d] = kind;
    }
  }
  std::vector<bool> mapped(operand_rank, false);
  for (int64_t d : *start_index_map) {
    if (d < 0 || d >= operand_rank || mapped[d] || role[d] == Role::kBatching) {
      return invalid("start_index_map must be distinct operand dimensions, none a batching one");
    }
    mapped[d] = true;
  }
  if (start_indices_batching_dims->size() != operand_batching_dims->size()) {
    return invalid("operand_batching_dims and start_indices_batching_dims differ in size");
  }
  // batching_of[d]: the operand batching dimension paired with start_indices dimension d.
  std::vector<int64_t> batching_of(indices_rank, -1);
  for (size_t j = 0; j < start_indices_batching_dims->size(); ++j) {
    const int64_t d = (*start_indices_batching_dims)[j];
    const int64_t paired = (*operand_batching_dims)[j];
    if (d < 0 || d >= indices_rank || d == ivd || batching_of[d] >= 0 ||
        start_indices.shape()[d] != operand.shape()[paired]) {
      return invalid(
          "start_indices_batching_dims must be distinct dimensions other than "
          "index_vector_dim, of their operand batching dimensions' sizes");
    }
    batching_of[d] = paired;
  }

  // The result: batch dimensions (start_indices without index_vector_dim)
  // wherever offset_dims leaves room, offset slice sizes at offset_dims.
  std::vector<int64_t> offset_operand_dims;
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (role[d] == Role::kOffset) offset_operand_dims.push_back(d);
  }
  const int64_t batch_rank = indices_rank - (ivd < indices_rank ? 1 : 0);
  const int64_t result_rank = result_type.rank();
  if (offset_dims->size() != offset_operand_dims.size() ||
      batch_rank + static_cast<int64_t>(offset_dims->size()) != result_rank ||
      !std::is_sorted(offset_dims->begin(), offset_dims->end()) ||
      std::adjacent_find(offset_dims->begin(), offset_dims->end()) != offset_dims->end() ||
      (!offset_dims->empty() && (offset_dims->front() < 0 || offset_dims->back() >= result_rank))) {
    return invalid(absl::StrCat("offset_dims [", absl::StrJoin(*offset_dims, ", "), "] do not fit ",
                                result_type.ToString()));
  }
  const std::vector<int64_t> operand_strides = RowMajorStrides(operand.shape());
  const std::vector<int64_t> index_strides = RowMajorStrides(start_indices.shape());
  const std::vector<int64_t> result_strides = RowMajorStrides(result_type.shape);
  GatherPlan plan;
  Shape shape(result_rank);
  size_t next_offset = 0;
  int64_t next_batch = 0;  // start_indices dimension of the next batch dimension
  for (int64_t d = 0; d < result_rank; ++d) {
    if (next_offset < offset_dims->size() && (*offset_dims)[next_offset] == d) {
      const int64_t operand_dim = offset_operand_dims[next_offset++];
      shape[d] = (*slice_sizes)[operand_dim];
      plan.slice.sizes.push_back(shape[d]);
      plan.slice.source_strides.push_back(operand_strides[operand_dim]);
      plan.slice.destination_strides.push_back(result_strides[d]);
      continue;
    }
    if (next_batch == ivd) ++next_batch;
    shape[d] = start_indices.shape()[next_batch];
    plan.batch_sizes.push_back(shape[d]);
    plan.index_strides.push_back(index_strides[next_batch]);
    plan.result_strides.push_back(result_strides[d]);
    const int64_t paired = batching_of[next_batch];
    plan.batching_strides.push_back(paired >= 0 ? operand_strides[paired] : 0);
    ++next_batch;
  }
  if (shape != result_type.shape) {
    return invalid(
        absl::StrCat("result should be ", ShapeToString(shape), ", not ", result_type.ToString()));
  }
  for (int64_t d : *start_index_map) {
    plan.start_max.push_back(operand.shape()[d] - (*slice_sizes)[d]);
    plan.start_strides.push_back(operand_strides[d]);
    plan.start_may_leave.push_back(role[d] == Role::kCollapsed && (*slice_sizes)[d] == 0);
  }
  for (int64_t d = 0; d < operand_rank; ++d) {
    plan.every_slice_outside = plan.every_slice_outside || (role[d] == Role::kCollapsed &&
                                                            !mapped[d] && operand.shape()[d] == 0);
  }
  plan.index_vector_step = ivd < indices_rank ? index_strides[ivd] : 0;
  return plan;
}

// How far ahead gather prefetches slices, in positions, and how much of
// each (the first run, up to this many bytes).
constexpr int64_t kPrefetchDistance = 4;
constexpr int64_t kPrefetchBytes = 4096;

// Asks for the cache lines of [start, start + bytes) ahead of their use.
inline void Prefetch(const void* start, int64_t bytes) {
  const auto* line = static_cast<const char*>(start);
  for (int64_t b = 0; b < bytes; b += 64) __builtin_prefetch(line + b);
}

// Where one slice is copied from (an operand element offset, or -1 for a
// slice outside the operand) and to (a result element offset).
struct SlicePlacement {
  int64_t source;
  int64_t destination;
};

// The placements of batch positions [first, last), reading start indices
// of element type T.
template <ElementType T>
void PlaceSlices(const GatherPlan& plan, const ContainerT<T>* indices, int64_t first, int64_t last,
                 SlicePlacement* placements) {
  const int batch_rank = static_cast<int>(plan.batch_sizes.size());
  std::array<int64_t, kMaxRank> batch_index{};
  int64_t index_offset = 0;
  int64_t batching_offset = 0;
  int64_t destination = 0;
  int64_t position = first;
  for (int i = batch_rank - 1; i >= 0; --i) {
    batch_index[i] = position % plan.batch_sizes[i];
    position /= plan.batch_sizes[i];
    index_offset += batch_index[i] * plan.index_strides[i];
    batching_offset += batch_index[i] * plan.batching_strides[i];
    destination += batch_index[i] * plan.result_strides[i];
  }
  const size_t vector_size = plan.start_max.size();
  for (int64_t p = first; p < last; ++p) {
    int64_t source = batching_offset;
    bool inside = !plan.every_slice_outside;
    for (size_t k = 0; k < vector_size; ++k) {
      const int64_t start = std::clamp<int64_t>(
          IndexValue<T>(indices[index_offset + k * plan.index_vector_step]), 0, plan.start_max[k]);
      // A slice of size 0 clamps up to the dimension's size itself.
      inside = inside && !(plan.start_may_leave[k] && start == plan.start_max[k]);
      source += start * plan.start_strides[k];
    }
    placements[p] = {inside ? source : -1, destination};
    for (int i = batch_rank - 1; i >= 0; --i) {
      index_offset += plan.index_strides[i];
      batching_offset += plan.batching_strides[i];
      destination += plan.result_strides[i];
      if (++batch_index[i] < plan.batch_sizes[i]) break;
      index_offset -= plan.batch_sizes[i] * plan.index_strides[i];
      batching_offset -= plan.batch_sizes[i] * plan.batching_strides[i];
      destination -= plan.batch_sizes[i] * plan.result_strides[i];
      batch_index[i] = 0;
    }
  }
}

// result[result_index] = operand[full_start_index + full_batching_index +
// full_offset_index]: per batch position, the clamped start index vector
// places one slice (PlaceSlices), and the slice is one box copy. The
// positions are spread over the pool, each slice copied in runs (memcpy
// where the offset dimensions are contiguous); a few large slices are each
// spread over the pool instead. indices_are_sorted only licenses faster
// code, which this is not, so it is not read.
absl::StatusOr<Results> RunGather(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  HLOCHECK_RETURN_IF_ERROR(CheckSameElementType(c));
  const Tensor& operand = c.operands[0];
  const Tensor& start_indices = c.operands[1];
  HLOCHECK_RETURN_IF_ERROR(CheckIntegerIndices(c, start_indices));
  absl::StatusOr<GatherPlan> plan = PlanGather(c);
  HLOCHECK_RETURN_IF_ERROR(plan.status());
  // A slice of size 0 in a collapsed dimension leaves its elements unwritten:
  // only then does the result start zero-filled rather than on a recycled buffer.
  const bool some_slice_may_leave =
      plan->every_slice_outside ||
      std::find(plan->start_may_leave.begin(), plan->start_may_leave.end(), 1) !=
          plan->start_may_leave.end();
  Tensor result = some_slice_may_leave ? Tensor(c.result_types[0]) : NewResult(c.result_types[0]);
  const int64_t positions = NumElements(plan->batch_sizes);
  const int64_t slice_elements = NumElements(plan->slice.sizes);
  if (result.num_elements() == 0) return OneResult(std::move(result));

  std::vector<SlicePlacement> placements(static_cast<size_t>(positions));
  const int index_bytes = ContainerBytes(start_indices.element_type());
  DispatchElementType(start_indices.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      const ContainerT<T>* indices = start_indices.values<T>().data();
      ParallelFor(device, positions, index_bytes * plan->start_max.size() + 16, 10,
                  [&](int64_t first, int64_t last) {
                    PlaceSlices<T>(*plan, indices, first, last, placements.data());
                  });
    }
  });

  const int bytes = ContainerBytes(operand.element_type());
  const StridedBox slice = Simplify(plan->slice);
  DispatchContainer(bytes, [&]<typename S>() {
    const S* source = static_cast<const S*>(operand.raw());
    S* destination = static_cast<S*>(result.raw());
    if (positions >= device.numThreads()) {
      // Slices start at data-dependent places that the hardware prefetcher
      // cannot foresee: the first run of the slice a few positions ahead
      // is requested while this one is copied.
      const int64_t prefetch_bytes = std::min<int64_t>(
          slice.source_strides.back() == 1 ? slice.sizes.back() * sizeof(S) : 0, kPrefetchBytes);
      ParallelFor(
          device, positions, slice_elements * sizeof(S), slice_elements,
          [&](int64_t first, int64_t last) {
            for (int64_t p = first; p < last; ++p) {
              if (p + kPrefetchDistance < last && placements[p + kPrefetchDistance].source >= 0) {
                Prefetch(source + placements[p + kPrefetchDistance].source, prefetch_bytes);
              }
              if (placements[p].source < 0) continue;
              CopyBoxElements(source + placements[p].source,
                              destination + placements[p].destination, slice, 0, slice_elements);
            }
          });
      return;
    }
    for (const SlicePlacement& placement : placements) {
      if (placement.source < 0) continue;
      CopyBox(source + placement.source, destination + placement.destination, slice, bytes, device);
    }
  });
  return OneResult(std::move(result));
}

}  // namespace

std::vector<OpEntry> DataMovementIndexingOps() {
  return {
      {"dynamic_slice", kVariadic, &SupportsDynamicSlice, &RunDynamicSlice},
      {"dynamic_update_slice", kVariadic, &SupportsDynamicUpdateSlice, &RunDynamicUpdateSlice},
      {"gather", 2, &SupportsMovement, &RunGather},
  };
}

}  // namespace hlocheck::cpu
