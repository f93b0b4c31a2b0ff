// What the CPU adapter's data movement files (data_movement_*.cc) share
// (data_movement_internal.h): parallel copies and fills, strided box copies,
// the transposition of whole buffers (Eigen's shuffle, or tiles where the
// innermost dimension moves) and the checks of a data movement case. They
// move bytes and never look at values, so the kernels are instantiated per
// container size and rank, not per element type. Dimensions that need no work are collapsed away
// first: the kernels then run at the lowest rank that describes the movement, and a movement that
// keeps every byte in place becomes one parallel copy.
#include <algorithm>
#include <complex>
#include <cstring>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adapters/cpu/data_movement_internal.h"

namespace hlocheck::cpu {
namespace {

// A transpose with dimensions of size 1 dropped and runs of operand
// dimensions that stay adjacent in the result merged into one.
struct CollapsedTranspose {
  std::vector<int64_t> dims;  // operand dimensions
  std::vector<int64_t> perm;  // result dimension d is operand dimension perm[d]
};

CollapsedTranspose Collapse(const Shape& shape, std::span<const int64_t> perm) {
  const size_t rank = shape.size();
  std::vector<int64_t> kept_index(rank, -1);
  std::vector<int64_t> kept_dims;
  for (size_t d = 0; d < rank; ++d) {
    if (shape[d] != 1) {
      kept_index[d] = static_cast<int64_t>(kept_dims.size());
      kept_dims.push_back(shape[d]);
    }
  }
  std::vector<int64_t> kept_perm;
  for (int64_t d : perm) {
    if (kept_index[d] >= 0) kept_perm.push_back(kept_index[d]);
  }
  // Groups in result order: {first operand dimension, count}.
  std::vector<std::pair<int64_t, int64_t>> groups;
  for (size_t j = 0; j < kept_perm.size(); ++j) {
    if (j > 0 && kept_perm[j] == kept_perm[j - 1] + 1) {
      ++groups.back().second;
    } else {
      groups.push_back({kept_perm[j], 1});
    }
  }
  std::vector<int64_t> operand_order(groups.size());
  std::iota(operand_order.begin(), operand_order.end(), 0);
  std::sort(operand_order.begin(), operand_order.end(),
            [&](int64_t a, int64_t b) { return groups[a].first < groups[b].first; });
  CollapsedTranspose collapsed;
  std::vector<int64_t> position(groups.size());
  for (size_t k = 0; k < operand_order.size(); ++k) {
    const auto [first, count] = groups[operand_order[k]];
    position[operand_order[k]] = static_cast<int64_t>(k);
    int64_t size = 1;
    for (int64_t d = first; d < first + count; ++d) size *= kept_dims[d];
    collapsed.dims.push_back(size);
  }
  for (size_t g = 0; g < groups.size(); ++g) collapsed.perm.push_back(position[g]);
  return collapsed;
}

template <typename S, int R>
void ShuffleKernel(const void* source, const CollapsedTranspose& t, void* destination,
                   const Device& device) {
  Eigen::DSizes<Eigen::Index, R> in_dims;
  Eigen::DSizes<Eigen::Index, R> out_dims;
  Eigen::array<Eigen::Index, R> shuffle;
  for (int d = 0; d < R; ++d) {
    in_dims[d] = t.dims[d];
    shuffle[d] = t.perm[d];
    out_dims[d] = t.dims[t.perm[d]];
  }
  Map<S, R>(static_cast<S*>(destination), out_dims).device(device) =
      ConstMap<S, R>(static_cast<const S*>(source), in_dims).shuffle(shuffle);
}

// A transpose that moves the operand's innermost dimension, where Eigen's
// shuffle reads or writes one element per cache line. It copies square
// tiles of the plane of the operand's innermost dimension and the one that
// becomes the result's innermost, so that both sides move whole cache lines
// while the tile sits in cache (64 was fastest of 16..256 in
// cpu_data_movement_bench); the other dimensions and the tiles are spread
// over the pool.
template <typename S>
void TiledTransposeKernel(const S* source, const CollapsedTranspose& t, S* destination,
                          const Device& device) {
  constexpr int64_t kTile = 64;
  const int rank = static_cast<int>(t.dims.size());
  const std::vector<int64_t> source_strides = RowMajorStrides(t.dims);
  Shape result_dims(rank);
  for (int d = 0; d < rank; ++d) result_dims[d] = t.dims[t.perm[d]];
  const std::vector<int64_t> result_strides = RowMajorStrides(result_dims);
  std::vector<int64_t> destination_stride_of(rank);  // per operand dimension
  for (int d = 0; d < rank; ++d) destination_stride_of[t.perm[d]] = result_strides[d];

  const int64_t row_dim = t.perm[rank - 1];  // contiguous in the result
  const int64_t rows = t.dims[row_dim];
  const int64_t columns = t.dims[rank - 1];  // contiguous in the operand
  const int64_t row_source_stride = source_strides[row_dim];
  const int64_t column_destination_stride = destination_stride_of[rank - 1];
  std::vector<int64_t> outer_sizes, outer_source_strides, outer_destination_strides;
  for (int d = 0; d < rank - 1; ++d) {
    if (d == row_dim) continue;
    outer_sizes.push_back(t.dims[d]);
    outer_source_strides.push_back(source_strides[d]);
    outer_destination_strides.push_back(destination_stride_of[d]);
  }
  const int64_t row_tiles = (rows + kTile - 1) / kTile;
  const int64_t column_tiles = (columns + kTile - 1) / kTile;
  const int64_t tiles = NumElements(outer_sizes) * row_tiles * column_tiles;
  ParallelFor(device, tiles, 2.0 * kTile * kTile * sizeof(S), kTile * kTile,
              [&](int64_t first, int64_t last) {
                for (int64_t tile = first; tile < last; ++tile) {
                  int64_t rest = tile;
                  const int64_t column_tile = rest % column_tiles;
                  rest /= column_tiles;
                  const int64_t row_tile = rest % row_tiles;
                  rest /= row_tiles;
                  int64_t from = 0;
                  int64_t to = 0;
                  for (int i = static_cast<int>(outer_sizes.size()) - 1; i >= 0; --i) {
                    const int64_t index = rest % outer_sizes[i];
                    rest /= outer_sizes[i];
                    from += index * outer_source_strides[i];
                    to += index * outer_destination_strides[i];
                  }
                  const int64_t row_end = std::min(rows, (row_tile + 1) * kTile);
                  const int64_t column_end = std::min(columns, (column_tile + 1) * kTile);
                  for (int64_t column = column_tile * kTile; column < column_end; ++column) {
                    const S* in = source + from + column;
                    S* out = destination + to + column * column_destination_stride;
                    for (int64_t row = row_tile * kTile; row < row_end; ++row) {
                      out[row] = in[row * row_source_stride];
                    }
                  }
                }
              });
}

}  // namespace

void ParallelCopy(const void* source, void* destination, int64_t bytes, const Device& device) {
  const auto* from = static_cast<const std::byte*>(source);
  auto* to = static_cast<std::byte*>(destination);
  ParallelFor(device, bytes, 1, 0.1, [&](int64_t first, int64_t last) {
    std::memcpy(to + first, from + first, static_cast<size_t>(last - first));
  });
}

void ParallelFill(const void* element, void* destination, int64_t count, int container_bytes,
                  const Device& device) {
  DispatchContainer(container_bytes, [&]<typename S>() {
    S value;
    std::memcpy(&value, element, sizeof(S));
    S* to = static_cast<S*>(destination);
    ParallelFor(device, count, sizeof(S), 0.1 * sizeof(S),
                [&](int64_t first, int64_t last) { std::fill(to + first, to + last, value); });
  });
}

StridedBox Simplify(const StridedBox& box) {
  StridedBox simple;
  for (size_t d = 0; d < box.sizes.size(); ++d) {
    const int64_t size = box.sizes[d];
    const int64_t source_stride = box.source_strides[d];
    const int64_t destination_stride = box.destination_strides[d];
    if (size == 1) continue;
    if (!simple.sizes.empty() && simple.source_strides.back() == source_stride * size &&
        simple.destination_strides.back() == destination_stride * size) {
      simple.sizes.back() *= size;
      simple.source_strides.back() = source_stride;
      simple.destination_strides.back() = destination_stride;
      continue;
    }
    simple.sizes.push_back(size);
    simple.source_strides.push_back(source_stride);
    simple.destination_strides.push_back(destination_stride);
  }
  if (simple.sizes.empty()) return {{1}, {1}, {1}};
  return simple;
}

void CopyBox(const void* source, void* destination, const StridedBox& box, int container_bytes,
             const Device& device) {
  const int64_t count = NumElements(box.sizes);
  if (count == 0) return;
  const StridedBox simple = Simplify(box);
  DispatchContainer(container_bytes, [&]<typename S>() {
    ParallelFor(device, count, sizeof(S), 0.1 * sizeof(S), [&](int64_t first, int64_t last) {
      CopyBoxElements(static_cast<const S*>(source), static_cast<S*>(destination), simple, first,
                      last);
    });
  });
}

AdapterSupport SupportsMovement(const Case& c) {
  if (AdapterSupport unquantized = SupportsUnquantized(c); !unquantized.supported) {
    return unquantized;
  }
  int64_t rank = 0;
  for (const Tensor& t : c.operands) rank = std::max(rank, t.rank());
  for (const TensorType& t : c.result_types) rank = std::max(rank, t.rank());
  if (rank > kMaxRank) {
    return AdapterSupport::No(absl::StrCat(c.op, " of rank ", rank, " is not implemented (the ",
                                           "kernels go up to rank ", kMaxRank, ")"));
  }
  return AdapterSupport::Yes();
}

absl::Status CheckSameElementType(const Case& c, size_t operand) {
  if (operand >= c.operands.size() || c.result_types.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": operand ", operand, " is missing"));
  }
  if (c.operands[operand].element_type() != c.result_types[0].element_type) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, ": operand ", c.operands[operand].type().ToString(), " and result ",
                     c.result_types[0].ToString(), " differ in element type"));
  }
  for (const Tensor& t : c.operands) {
    if (t.rank() > kMaxRank) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": rank above ", kMaxRank));
    }
  }
  for (const TensorType& t : c.result_types) {
    if (t.rank() > kMaxRank) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": rank above ", kMaxRank));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckSegments(const Case& c, const std::vector<int64_t>& expected) {
  if (c.operand_segments.empty() || c.operand_segments == expected) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(c.op, ": operand segments [", absl::StrJoin(c.operand_segments, ", "),
                   "] should be [", absl::StrJoin(expected, ", "), "]"));
}

bool TransposeIsIdentity(const Shape& shape, std::span<const int64_t> perm) {
  return NumElements(shape) == 0 || Collapse(shape, perm).dims.size() <= 1;
}

void TransposeBytes(const void* source, const Shape& shape, std::span<const int64_t> perm,
                    int container_bytes, void* destination, const Device& device) {
  const int64_t count = NumElements(shape);
  if (count == 0) return;
  const CollapsedTranspose t = Collapse(shape, perm);
  if (t.dims.size() <= 1) {
    ParallelCopy(source, destination, count * container_bytes, device);
    return;
  }
  DispatchContainer(container_bytes, [&]<typename S>() {
    if (t.perm.back() != static_cast<int64_t>(t.dims.size()) - 1) {
      TiledTransposeKernel<S>(static_cast<const S*>(source), t, static_cast<S*>(destination),
                              device);
      return;
    }
    DispatchRank(static_cast<int>(t.dims.size()),
                 [&]<int R>() { ShuffleKernel<S, R>(source, t, destination, device); });
  });
}

}  // namespace hlocheck::cpu
