// Reduction over the rows of a matrix with a tree schedule (kernel_api.h's
// ReduceRowsArgs): `lanes` partial results per row, each the combination of
// a strided set of columns (neighbouring lanes read neighbouring columns,
// as a warp reads coalesced; eight accumulators per lane), then halving
// pairs of partials, then the init value. Every step is one launch of an element functor, so that
// the host runs the very same schedule.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_REDUCTION_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_REDUCTION_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/elementwise_kernels.h"
#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/cuda/kernels/scalar.h"

namespace hlocheck::cuda {

// Float storages accumulate in their compute type (f32 for the narrow
// ones, rounded once at the end).
template <Storage S>
struct FloatReduceTraits {
  using C = typename FloatStorage<S>::C;
  using A = typename FloatStorage<S>::R;
  HLOCHECK_HD static A Load(const ElementKind& kind, const void* p, int64_t i) {
    return LoadFloat<S>(kind.mini, static_cast<const C*>(p)[i]);
  }
  HLOCHECK_HD static void Store(const ElementKind& kind, void* p, int64_t i, A a) {
    static_cast<C*>(p)[i] = StoreFloat<S>(kind.mini, a);
  }
  HLOCHECK_HD static A Identity(Combiner combiner, const ElementKind&) {
    switch (combiner) {
      case Combiner::kMultiply:
        return A(1);
      case Combiner::kMaximum:
        return -A(INFINITY);
      case Combiner::kMinimum:
        return A(INFINITY);
      default:
        return -A(0);  // -0 + x is x for every x, -0 included
    }
  }
  HLOCHECK_HD static A Combine(Combiner combiner, const ElementKind&, A x, A y) {
    switch (combiner) {
      case Combiner::kMultiply:
        return x * y;
      case Combiner::kMaximum:
        return FloatExtremum(x, y, true);
      case Combiner::kMinimum:
        return FloatExtremum(x, y, false);
      default:
        return x + y;
    }
  }
};

// Integers and booleans accumulate on their 64-bit pattern, wrapped to the
// width at the end; C is the unsigned type of the container's size.
template <typename C>
struct IntReduceTraits {
  using A = uint64_t;
  HLOCHECK_HD static bool Signed(const ElementKind& kind) {
    return kind.storage == Storage::kSigned;
  }
  HLOCHECK_HD static A Load(const ElementKind& kind, const void* p, int64_t i) {
    const A raw = static_cast<const C*>(p)[i];
    if (kind.storage == Storage::kBool) return raw != 0 ? 1 : 0;
    return WrapBits(raw, 8 * static_cast<int>(sizeof(C)), Signed(kind));
  }
  HLOCHECK_HD static void Store(const ElementKind& kind, void* p, int64_t i, A a) {
    static_cast<C*>(p)[i] = static_cast<C>(WrapBits(a, kind.bits, Signed(kind)));
  }
  HLOCHECK_HD static A Identity(Combiner combiner, const ElementKind& kind) {
    const bool is_bool = kind.storage == Storage::kBool;
    switch (combiner) {
      case Combiner::kMultiply:
        return 1;
      case Combiner::kMaximum:
        return is_bool || !Signed(kind) ? 0 : uint64_t{1} << 63;
      case Combiner::kMinimum:
        return is_bool ? 1 : Signed(kind) ? (uint64_t{1} << 63) - 1 : ~uint64_t{0};
      case Combiner::kAnd:
        return is_bool ? 1 : ~uint64_t{0};
      default:
        return 0;
    }
  }
  HLOCHECK_HD static A Combine(Combiner combiner, const ElementKind& kind, A x, A y) {
    const bool is_bool = kind.storage == Storage::kBool;
    const bool less = Signed(kind) ? static_cast<int64_t>(x) < static_cast<int64_t>(y) : x < y;
    switch (combiner) {
      case Combiner::kAdd:
        return is_bool ? (x | y) : x + y;
      case Combiner::kMultiply:
        return is_bool ? (x & y) : x * y;
      case Combiner::kMaximum:
        return less ? y : x;
      case Combiner::kMinimum:
        return less ? x : y;
      case Combiner::kAnd:
        return x & y;
      case Combiner::kOr:
        return x | y;
      case Combiner::kXor:
        return x ^ y;
    }
    return x;
  }
};

// Calls visit.template operator()<Traits, C>() with the accumulation
// traits and the container type of `kind`'s storage: the one dispatch on
// the element type of every kernel that combines elements.
template <typename Visit>
std::string VisitTraits(const ElementKind& kind, Visit&& visit) {
  switch (kind.storage) {
    case Storage::kF32:
      return visit.template operator()<FloatReduceTraits<Storage::kF32>, float>();
    case Storage::kF64:
      return visit.template operator()<FloatReduceTraits<Storage::kF64>, double>();
    case Storage::kMini8:
      return visit.template operator()<FloatReduceTraits<Storage::kMini8>, uint8_t>();
    case Storage::kMini16:
      return visit.template operator()<FloatReduceTraits<Storage::kMini16>, uint16_t>();
    default:
      switch (kind.bytes) {
        case 1:
          return visit.template operator()<IntReduceTraits<uint8_t>, uint8_t>();
        case 2:
          return visit.template operator()<IntReduceTraits<uint16_t>, uint16_t>();
        case 4:
          return visit.template operator()<IntReduceTraits<uint32_t>, uint32_t>();
        default:
          return visit.template operator()<IntReduceTraits<uint64_t>, uint64_t>();
      }
  }
}

// The combiner a template argument: the loop over the columns is then
// free of branches and its loads are all issued ahead of the combinations.
template <typename Traits, Combiner kCombiner>
struct ReduceLanes {
  using A = typename Traits::A;
  ReduceRowsArgs args;
  A* partials;
  int64_t lanes;
  int64_t columns_read;  // args.columns, less what a planted fault drops
  // kAccumulators accumulators, so that as many loads are in flight per
  // thread (one left reduce at 0.42 of a copy's bandwidth on an H200, four
  // at 0.56).
  static constexpr int kAccumulators = 8;
  HLOCHECK_HD void operator()(int64_t i) const {
    const int64_t row = i / lanes;
    const int64_t lane = i % lanes;
    const A identity = Traits::Identity(kCombiner, args.kind);
    A acc[kAccumulators];
    for (int k = 0; k < kAccumulators; ++k) acc[k] = identity;
    const int64_t base = row * args.columns;
    int64_t column = lane;
    for (; column + (kAccumulators - 1) * lanes < columns_read; column += kAccumulators * lanes) {
      for (int k = 0; k < kAccumulators; ++k) {
        acc[k] = Traits::Combine(kCombiner, args.kind, acc[k],
                                 Traits::Load(args.kind, args.in, base + column + k * lanes));
      }
    }
    for (; column < columns_read; column += lanes) {
      acc[0] = Traits::Combine(kCombiner, args.kind, acc[0],
                               Traits::Load(args.kind, args.in, base + column));
    }
    // Pairwise, as a tree.
    for (int width = kAccumulators / 2; width >= 1; width /= 2) {
      for (int k = 0; k < width; ++k) {
        acc[k] = Traits::Combine(kCombiner, args.kind, acc[k], acc[k + width]);
      }
    }
    partials[i] = acc[0];
  }
};

template <typename Traits>
struct ReduceHalve {
  using A = typename Traits::A;
  ReduceRowsArgs args;
  A* partials;
  int64_t lanes;
  int64_t half;
  HLOCHECK_HD void operator()(int64_t i) const {
    const int64_t row = i / half;
    const int64_t lane = i % half;
    A* p = partials + row * lanes;
    p[lane] = Traits::Combine(args.combiner, args.kind, p[lane], p[lane + half]);
  }
};

template <typename Traits>
struct ReduceFinish {
  using A = typename Traits::A;
  ReduceRowsArgs args;
  const A* partials;
  int64_t lanes;
  HLOCHECK_HD void operator()(int64_t row) const {
    const A init = Traits::Load(args.kind, args.init, 0);
    Traits::Store(args.kind, args.out, row,
                  Traits::Combine(args.combiner, args.kind, init, partials[row * lanes]));
  }
};

// Lanes per row: the power of two at or above the row's length, at most a
// warp's 32 (each lane then reads every 32nd column: a warp reads 32
// neighbouring elements at a time).
inline constexpr int64_t kMaxReduceLanes = 32;
inline int64_t ReduceLaneCount(int64_t columns) {
  int64_t lanes = 1;
  while (lanes < columns && lanes < kMaxReduceLanes) lanes *= 2;
  return lanes;
}

template <typename Traits, typename Exec>
std::string RunReduceRowsWith(const Exec& exec, Machine& machine, const ReduceRowsArgs& args) {
  using A = typename Traits::A;
  if (args.rows == 0) return "";
  const int64_t lanes = ReduceLaneCount(args.columns);
  void* scratch = nullptr;
  std::string error =
      machine.Allocate(static_cast<size_t>(args.rows * lanes) * sizeof(A), &scratch);
  if (!error.empty()) return error;
  A* partials = static_cast<A*>(scratch);
  int64_t columns_read = args.columns;
  if (args.fault_drop_last_block && args.columns > lanes && args.columns % lanes != 0) {
    columns_read = args.columns - args.columns % lanes;
  }
  const auto lanes_with = [&]<Combiner kCombiner>() {
    return exec.ForEach(args.rows * lanes,
                        ReduceLanes<Traits, kCombiner>{args, partials, lanes, columns_read});
  };
  switch (args.combiner) {
    case Combiner::kAdd:
      error = lanes_with.template operator()<Combiner::kAdd>();
      break;
    case Combiner::kMultiply:
      error = lanes_with.template operator()<Combiner::kMultiply>();
      break;
    case Combiner::kMaximum:
      error = lanes_with.template operator()<Combiner::kMaximum>();
      break;
    case Combiner::kMinimum:
      error = lanes_with.template operator()<Combiner::kMinimum>();
      break;
    case Combiner::kAnd:
      error = lanes_with.template operator()<Combiner::kAnd>();
      break;
    case Combiner::kOr:
      error = lanes_with.template operator()<Combiner::kOr>();
      break;
    case Combiner::kXor:
      error = lanes_with.template operator()<Combiner::kXor>();
      break;
  }
  for (int64_t half = lanes / 2; error.empty() && half >= 1; half /= 2) {
    error = exec.ForEach(args.rows * half, ReduceHalve<Traits>{args, partials, lanes, half});
  }
  if (error.empty()) error = exec.ForEach(args.rows, ReduceFinish<Traits>{args, partials, lanes});
  machine.Free(scratch);
  return error;
}

template <typename Exec>
std::string RunReduceRows(const Exec& exec, Machine& machine, const ReduceRowsArgs& args) {
  return VisitTraits(args.kind, [&]<typename Traits, typename C>() {
    return RunReduceRowsWith<Traits>(exec, machine, args);
  });
}

template <typename Traits>
struct ReduceWindowFunctor {
  using A = typename Traits::A;
  ReduceWindowArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    int64_t o[kMaxRank] = {};
    int64_t rest = i;
    int64_t positions = 1;
    for (int d = args.rank - 1; d >= 0; --d) {
      o[d] = rest % args.out_dims[d];
      rest /= args.out_dims[d];
      positions *= args.window[d];
    }
    const A init = Traits::Load(args.kind, args.init, 0);
    A acc = Traits::Identity(args.combiner, args.kind);
    for (int64_t w = 0; w < positions; ++w) {
      int64_t w_rest = w;
      int64_t offset = 0;
      bool inside = true;
      for (int d = args.rank - 1; d >= 0; --d) {
        const int64_t wd = w_rest % args.window[d];
        w_rest /= args.window[d];
        const int64_t q = o[d] * args.strides[d] + wd * args.window_dilations[d] - args.pad_low[d];
        if (q < 0 || q % args.base_dilations[d] != 0 ||
            q / args.base_dilations[d] >= args.in_dims[d]) {
          inside = false;
        } else {
          offset += q / args.base_dilations[d] * args.in_strides[d];
        }
      }
      acc = Traits::Combine(args.combiner, args.kind, acc,
                            inside ? Traits::Load(args.kind, args.in, offset) : init);
    }
    Traits::Store(args.kind, args.out, i, Traits::Combine(args.combiner, args.kind, init, acc));
  }
};

template <typename Exec>
std::string RunReduceWindow(const Exec& exec, const ReduceWindowArgs& args) {
  int64_t n = 1;
  for (int d = 0; d < args.rank; ++d) n *= args.out_dims[d];
  if (n == 0) return "";
  return VisitTraits(args.kind, [&]<typename Traits, typename C>() {
    return exec.ForEach(n, ReduceWindowFunctor<Traits>{args});
  });
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_REDUCTION_KERNELS_H_
