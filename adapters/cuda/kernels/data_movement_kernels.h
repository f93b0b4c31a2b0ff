// The data-movement kernels: the strided copy every data-movement op is
// built from (kernel_api.h's StridedCopyArgs), and iota.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_DATA_MOVEMENT_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_DATA_MOVEMENT_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/elementwise_kernels.h"
#include "adapters/cuda/kernels/kernel_api.h"

namespace hlocheck::cuda {

// One element of 16 bytes (complex<f64>), moved as two words.
struct Word16 {
  uint64_t low;
  uint64_t high;
};

// Element size of a tile edge for the planted fault below: a transpose
// that tiles by 32 and gets the last column of each tile wrong.
inline constexpr int64_t kFaultTile = 32;

// Calls visit.template operator()<Word>() with the unsigned type of an
// element of `bytes` (Word16 for 16), for the kernels that only move bytes.
template <typename Visit>
std::string VisitWord(int bytes, Visit&& visit) {
  switch (bytes) {
    case 1:
      return visit.template operator()<uint8_t>();
    case 2:
      return visit.template operator()<uint16_t>();
    case 4:
      return visit.template operator()<uint32_t>();
    case 8:
      return visit.template operator()<uint64_t>();
    case 16:
      return visit.template operator()<Word16>();
    default:
      return "elements of " + std::to_string(bytes) + " bytes";
  }
}

// a / b, and a % b into *remainder, for a >= 0 and b > 0: in 32 bits where
// both fit (a 64-bit division is a long instruction sequence on the GPU;
// the transpose's tiles are placed with a few of them per thread).
HLOCHECK_HD int64_t DivideWithRemainder(int64_t a, int64_t b, int64_t* remainder) {
  if (((a | b) >> 31) == 0) {
    const uint32_t a32 = static_cast<uint32_t>(a);
    const uint32_t b32 = static_cast<uint32_t>(b);
    *remainder = a32 % b32;
    return a32 / b32;
  }
  *remainder = a % b;
  return a / b;
}

template <typename Word>
struct StridedCopy {
  StridedCopyArgs args;

  HLOCHECK_HD void operator()(int64_t i) const {
    int64_t rest = i;
    int64_t out_offset = args.out_base;
    int64_t in_offset = args.in_base;
    bool inside = true;
    for (int d = args.rank - 1; d >= 0; --d) {
      const int64_t r = rest % args.dims[d];
      rest /= args.dims[d];
      out_offset += r * args.out_strides[d];
      const int64_t q = r * args.mul[d] + args.add[d];
      if (q < 0 || q % args.div[d] != 0 || q / args.div[d] >= args.in_dims[d]) {
        inside = false;
      } else {
        int64_t t = q / args.div[d];
        if (args.fault_tile_edge && d == args.rank - 1 && r % kFaultTile == kFaultTile - 1 &&
            t > 0) {
          --t;  // the planted fault: a neighbour's element on the tile's edge
        }
        in_offset += t * args.in_strides[d];
      }
    }
    Word* out = static_cast<Word*>(args.out);
    if (inside) {
      out[out_offset] = static_cast<const Word*>(args.in)[in_offset];
    } else {
      Word padding;
      const uint8_t* from = args.padding;
      uint8_t* to = reinterpret_cast<uint8_t*>(&padding);
      for (unsigned b = 0; b < sizeof(Word); ++b) to[b] = from[b];
      out[out_offset] = padding;
    }
  }
};

// A transpose whose innermost result dimension is not the operand's
// innermost one reads, element by element, addresses far apart. It goes by
// square tiles instead (TiledTranspose::kEdge): each block loads a tile with neighbouring threads
// reading neighbouring operand elements, and stores it transposed with
// neighbouring threads writing neighbouring result elements (on the GPU
// through shared memory, between a barrier; on the host the same two
// phases one after the other). `j` is the result dimension that reads the
// operand's contiguous one.
inline constexpr int kTile = 32;     // a tile block's threads along x
inline constexpr int kTileRows = 8;  // and along y

struct TilePlan {
  int j = -1;
  int64_t tiles_j = 0;
  int64_t tiles_last = 0;
  int64_t others = 0;  // the product of the other result dimensions
};

// Whether `a` is a plain permutation into a contiguous result whose last
// dimension does not read the operand's contiguous one, and its tiles of
// `edge` x `edge` elements.
inline TilePlan PlanTiles(const StridedCopyArgs& a, int edge = kTile) {
  TilePlan plan;
  if (a.rank < 2 || a.out_base != 0 || a.in_base != 0) return plan;
  int64_t expected = 1;
  int j = -1;
  for (int d = a.rank - 1; d >= 0; --d) {
    if (a.out_strides[d] != expected || a.mul[d] != 1 || a.add[d] != 0 || a.div[d] != 1 ||
        a.in_dims[d] != a.dims[d] || a.dims[d] == 0) {
      return plan;
    }
    expected *= a.dims[d];
    if (a.in_strides[d] == 1 && a.dims[d] > 1) j = d;
  }
  const int last = a.rank - 1;
  if (j < 0 || j == last || a.dims[last] < 2) return plan;
  plan.j = j;
  plan.tiles_j = (a.dims[j] + edge - 1) / edge;
  plan.tiles_last = (a.dims[last] + edge - 1) / edge;
  plan.others = 1;
  for (int d = 0; d < a.rank; ++d) {
    if (d != j && d != last) plan.others *= a.dims[d];
  }
  return plan;
}

template <typename Word>
struct TiledTranspose {
  // Tiles of 64 x 64 elements (32 x 32 for 16-byte ones, within 48 KiB of
  // shared memory): each thread of the kTile x kTileRows block moves 16
  // elements, all loads issued before the barrier (32 x 32 tiles of 4 per
  // thread ran at 0.52 of a copy's bandwidth on an H200).
  static constexpr int kEdge = sizeof(Word) <= 8 ? 2 * kTile : kTile;
  using Tile = Word[kEdge][kEdge + 1];  // +1: no bank conflicts on the GPU
  StridedCopyArgs args;
  TilePlan plan;

  // A block's first coordinates along j and the last dimension, and the
  // offsets of its other coordinates in the operand and the result: found
  // once per thread (64-bit divisions are dear on the GPU).
  struct Place {
    int64_t j0, l0, in_base, out_base;
  };
  HLOCHECK_HD Place PlaceOf(int64_t block) const {
    const int last = args.rank - 1;
    Place place{0, 0, 0, 0};
    int64_t r = 0;
    block = DivideWithRemainder(block, plan.tiles_last, &r);
    place.l0 = r * kEdge;
    int64_t other = DivideWithRemainder(block, plan.tiles_j, &r);
    place.j0 = r * kEdge;
    for (int d = last - 1; d >= 0; --d) {
      if (d == plan.j) continue;
      other = DivideWithRemainder(other, args.dims[d], &r);
      place.in_base += r * args.in_strides[d];
      place.out_base += r * args.out_strides[d];
    }
    return place;
  }

  // Thread (x, y) moves columns x, x + kTile, ... and rows y, y +
  // kTileRows, ... of the tile. Load: columns along the operand's
  // contiguous dimension.
  HLOCHECK_HD void Load(const Place& place, int x, int y, Tile& tile) const {
    const int last = args.rank - 1;
    for (int column = x; column < kEdge; column += kTile) {
      const int64_t jj = place.j0 + column;
      if (jj >= args.dims[plan.j]) return;
      const Word* in =
          static_cast<const Word*>(args.in) + place.in_base + jj * args.in_strides[plan.j];
      for (int row = y; row < kEdge; row += kTileRows) {
        const int64_t ll = place.l0 + row;
        if (ll < args.dims[last]) tile[row][column] = in[ll * args.in_strides[last]];
      }
    }
  }

  // Store: columns along the result's last dimension.
  HLOCHECK_HD void Store(const Place& place, int x, int y, Tile& tile) const {
    const int last = args.rank - 1;
    for (int column = x; column < kEdge; column += kTile) {
      const int64_t ll = place.l0 + column;
      if (ll >= args.dims[last]) return;
      // The planted fault: a neighbour's element on the tile's edge.
      const int source = args.fault_tile_edge && column == kEdge - 1 ? column - 1 : column;
      Word* out = static_cast<Word*>(args.out) + place.out_base + ll * args.out_strides[last];
      for (int row = y; row < kEdge; row += kTileRows) {
        const int64_t jj = place.j0 + row;
        if (jj < args.dims[plan.j]) out[jj * args.out_strides[plan.j]] = tile[source][row];
      }
    }
  }
};

template <typename Exec>
std::string RunStridedCopy(const Exec& exec, const StridedCopyArgs& args) {
  int64_t n = 1;
  for (int d = 0; d < args.rank; ++d) n *= args.dims[d];
  if (n == 0) return "";
  if (PlanTiles(args).j >= 0) {
    return VisitWord(args.element_bytes, [&]<typename Word>() {
      const TilePlan plan = PlanTiles(args, TiledTranspose<Word>::kEdge);
      return exec.ForEachTile(plan.others * plan.tiles_j * plan.tiles_last,
                              TiledTranspose<Word>{args, plan});
    });
  }
  return VisitWord(args.element_bytes,
                   [&]<typename Word>() { return exec.ForEach(n, StridedCopy<Word>{args}); });
}

// An integer index element as int64, a ui64 beyond int64's range
// saturated (every use clamps it anyway).
HLOCHECK_HD int64_t IndexValue(const ElementKind& kind, const void* p, int64_t i) {
  const Number n = LoadNumber(kind, p, i);
  if (!n.is_signed && n.i > static_cast<uint64_t>(INT64_MAX)) return INT64_MAX;
  return static_cast<int64_t>(n.i);
}

template <typename Word>
struct GatherFunctor {
  GatherArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    int64_t rest = i;
    int64_t source = 0;
    int64_t index_base = 0;
    for (int d = args.rank - 1; d >= 0; --d) {
      const int64_t r = rest % args.dims[d];
      rest /= args.dims[d];
      source += r * args.operand_strides[d];
      index_base += r * args.index_strides[d];
    }
    for (int k = 0; k < args.starts; ++k) {
      int64_t start =
          IndexValue(args.index_kind, args.indices, index_base + k * args.index_vector_step);
      start = start < 0 ? 0 : start > args.start_max[k] ? args.start_max[k] : start;
      source += start * args.start_strides[k];
    }
    static_cast<Word*>(args.out)[i] = static_cast<const Word*>(args.operand)[source];
  }
};

template <typename Exec>
std::string RunGather(const Exec& exec, const GatherArgs& args) {
  int64_t n = 1;
  for (int d = 0; d < args.rank; ++d) n *= args.dims[d];
  if (n == 0) return "";
  return VisitWord(args.element_bytes,
                   [&]<typename Word>() { return exec.ForEach(n, GatherFunctor<Word>{args}); });
}

struct IotaFunctor {
  IotaArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    Number n;
    n.is_signed = true;
    n.i = static_cast<uint64_t>((i / args.inner) % args.extent);
    StoreNumber(args.kind, args.out, i, n);
  }
};

template <typename Exec>
std::string RunIota(const Exec& exec, const IotaArgs& args) {
  if (args.n == 0) return "";
  return exec.ForEach(args.n, IotaFunctor{args});
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_DATA_MOVEMENT_KERNELS_H_
