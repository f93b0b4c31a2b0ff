// Internal to the CPU adapter's data movement files (data_movement*.cc).
// These ops move bytes and never look at values, so their kernels are
// instantiated per container size, not per element type. Most of them are
// one strided box copy (StridedBox): for every index i of a box,
//   destination[dot(i, destination_strides)] = source[dot(i, source_strides)]
// where a source stride of 0 repeats an element (broadcast, iota) and a
// negative one walks backwards (reverse). Dimensions that need no work are
// simplified away first, so that the innermost run is as long as possible
// and, where both sides are contiguous, one memcpy.
#ifndef HLOCHECK_ADAPTERS_CPU_DATA_MOVEMENT_INTERNAL_H_
#define HLOCHECK_ADAPTERS_CPU_DATA_MOVEMENT_INTERNAL_H_

#include <algorithm>
#include <array>
#include <complex>
#include <cstring>
#include <limits>
#include <vector>

#include "adapters/cpu/cpu_internal.h"

namespace hlocheck::cpu {

// Calls fn.template operator()<S>() with S a type of `bytes` bytes. The
// 16-byte type is complex<double> because Eigen knows it (NumTraits,
// packets); its copies move bits unchanged like the integer ones.
template <typename Fn>
void DispatchContainer(int bytes, Fn&& fn) {
  switch (bytes) {
    case 1:
      return fn.template operator()<uint8_t>();
    case 2:
      return fn.template operator()<uint16_t>();
    case 4:
      return fn.template operator()<uint32_t>();
    case 8:
      return fn.template operator()<uint64_t>();
    case 16:
      return fn.template operator()<std::complex<double>>();
  }
  __builtin_unreachable();
}

template <typename Fn>
void DispatchRank(int rank, Fn&& fn) {
  switch (rank) {
#define HLOCHECK_RANK_CASE(R) \
  case R:                     \
    return fn.template operator()<R>();
    HLOCHECK_RANK_CASE(1)
    HLOCHECK_RANK_CASE(2)
    HLOCHECK_RANK_CASE(3)
    HLOCHECK_RANK_CASE(4)
    HLOCHECK_RANK_CASE(5)
    HLOCHECK_RANK_CASE(6)
    HLOCHECK_RANK_CASE(7)
    HLOCHECK_RANK_CASE(8)
#undef HLOCHECK_RANK_CASE
  }
  __builtin_unreachable();
}

void ParallelCopy(const void* source, void* destination, int64_t bytes, const Device& device);

// The results of a pass-through op (adapters/region/pass_through.h: tuples,
// custom_call's hlocheck targets, transfers), each copied from its source.
absl::StatusOr<Results> PassThroughCopies(const Case& c, const Device& device);

// Writes `count` copies of the element at `element` (of `container_bytes`).
void ParallelFill(const void* element, void* destination, int64_t count, int container_bytes,
                  const Device& device);

// A box of elements and where its elements lie in a source and a
// destination buffer (strides in elements; rank <= kMaxRank).
struct StridedBox {
  std::vector<int64_t> sizes;
  std::vector<int64_t> source_strides;
  std::vector<int64_t> destination_strides;
};

// The same copy with dimensions of size 1 dropped and each dimension merged
// into the one outside it where both buffers step over it evenly; at least
// one dimension remains. Requires a box with no dimension of size 0.
StridedBox Simplify(const StridedBox& box);

// Copies `count` elements from `from` (step source_step) to `to` (step
// destination_step).
template <typename S>
inline void CopyRun(const S* from, int64_t source_step, S* to, int64_t destination_step,
                    int64_t count) {
  if (source_step == 1 && destination_step == 1) {
    std::memcpy(to, from, static_cast<size_t>(count) * sizeof(S));
  } else if (source_step == 0 && destination_step == 1) {
    std::fill_n(to, count, *from);
  } else {
    for (int64_t j = 0; j < count; ++j) to[j * destination_step] = from[j * source_step];
  }
}

// Copies the elements at positions [first, last) of the row-major order of
// a simplified box. `source` and `destination` point at the box's element 0.
// Offsets are kept as integers: a pointer stepped past a reversed
// dimension's start would leave its array.
template <typename S>
void CopyBoxElements(const S* source, S* destination, const StridedBox& box, int64_t first,
                     int64_t last) {
  const int rank = static_cast<int>(box.sizes.size());
  const int64_t inner = box.sizes[rank - 1];
  const int64_t source_step = box.source_strides[rank - 1];
  const int64_t destination_step = box.destination_strides[rank - 1];
  // The multi-index of the row holding `first`, over the outer dimensions.
  std::array<int64_t, kMaxRank> index{};
  int64_t row = first / inner;
  int64_t column = first % inner;
  int64_t source_offset = 0;
  int64_t destination_offset = 0;
  for (int d = rank - 2; d >= 0; --d) {
    index[d] = row % box.sizes[d];
    row /= box.sizes[d];
    source_offset += index[d] * box.source_strides[d];
    destination_offset += index[d] * box.destination_strides[d];
  }
  for (int64_t position = first; position < last;) {
    const int64_t count = std::min(inner - column, last - position);
    CopyRun(source + source_offset + column * source_step, source_step,
            destination + destination_offset + column * destination_step, destination_step, count);
    position += count;
    column = 0;
    for (int d = rank - 2; d >= 0; --d) {
      source_offset += box.source_strides[d];
      destination_offset += box.destination_strides[d];
      if (++index[d] < box.sizes[d]) break;
      source_offset -= box.sizes[d] * box.source_strides[d];
      destination_offset -= box.sizes[d] * box.destination_strides[d];
      index[d] = 0;
    }
  }
}

// The whole box on the pool. `source` and `destination` point at element 0
// of the box; `box` need not be simplified.
void CopyBox(const void* source, void* destination, const StridedBox& box, int container_bytes,
             const Device& device);

// An integer index element as int64_t. ui64 values above int64_t's maximum
// saturate: every start index is clamped into [0, dim - size], inside
// int64_t, so the saturated value clamps to what the exact value does.
template <ElementType T>
inline int64_t IndexValue(ContainerT<T> value) {
  static_assert(IsInteger(T));
  if constexpr (T == ElementType::kUI64) {
    constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(std::min<uint64_t>(value, kMax));
  } else {
    // Narrow integers sit sign- or zero-extended in their byte (core/).
    return static_cast<int64_t>(value);
  }
}

// No for quantized tensors (these kernels move plain elements; the spec's
// quantized forms are not implemented here) and for ranks above kMaxRank.
AdapterSupport SupportsMovement(const Case& c);

// InvalidArgument unless operand `operand` has the result's element type
// and every operand and result has rank <= kMaxRank.
absl::Status CheckSameElementType(const Case& c, size_t operand = 0);

// InvalidArgument unless the case's operand segments are empty or
// `expected` (variadic ops: how many tensors each spec input has).
absl::Status CheckSegments(const Case& c, const std::vector<int64_t>& expected);

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_DATA_MOVEMENT_INTERNAL_H_
