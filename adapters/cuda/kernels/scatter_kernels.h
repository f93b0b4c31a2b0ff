// scatter's kernel (kernel_api.h's ScatterArgs): one thread per update
// element; the combination with the result element is an atomic
// compare-and-swap loop on the GPU (on the aligned 32-bit word around a
// 1- or 2-byte element), a plain read-modify-write on the host.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_SCATTER_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_SCATTER_KERNELS_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "adapters/cuda/kernels/data_movement_kernels.h"
#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/cuda/kernels/reduction_kernels.h"
#include "adapters/cuda/kernels/sort_kernels.h"

namespace hlocheck::cuda {

// *element = f(*element) for an element of C's size, atomically on the GPU.
template <typename C, typename F>
HLOCHECK_HD void AtomicUpdate(C* element, const F& f) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(C) == 4 || sizeof(C) == 8) {
    using Word = std::conditional_t<sizeof(C) == 4, unsigned int, unsigned long long>;
    Word* word = reinterpret_cast<Word*>(element);
    Word seen = *word;
    Word expected;
    do {
      expected = seen;
      C value;
      memcpy(&value, &expected, sizeof(C));
      const C updated = f(value);
      Word desired;
      memcpy(&desired, &updated, sizeof(C));
      seen = atomicCAS(word, expected, desired);
    } while (seen != expected);
  } else {
    // The aligned 32-bit word that holds the element.
    const uintptr_t address = reinterpret_cast<uintptr_t>(element);
    unsigned int* word = reinterpret_cast<unsigned int*>(address & ~uintptr_t{3});
    const unsigned shift = static_cast<unsigned>((address & 3) * 8);
    const unsigned int mask = ((1u << (8 * sizeof(C))) - 1u) << shift;
    unsigned int seen = *word;
    unsigned int expected;
    do {
      expected = seen;
      const C value = static_cast<C>((expected & mask) >> shift);
      const C updated = f(value);
      const unsigned int desired =
          (expected & ~mask) | ((static_cast<unsigned int>(updated) << shift) & mask);
      seen = atomicCAS(word, expected, desired);
    } while (seen != expected);
  }
#else
  *element = f(*element);
#endif
}

// *element = combiner(*element, update) in the element's type, atomically
// on the GPU.
template <typename Traits, typename C>
HLOCHECK_HD void AtomicCombine(const ElementKind& kind, Combiner combiner, C* element, C update) {
  AtomicUpdate(element, [&kind, combiner, update](C current) -> C {
    C combined;
    Traits::Store(kind, &combined, 0,
                  Traits::Combine(combiner, kind, Traits::Load(kind, &current, 0),
                                  Traits::Load(kind, &update, 0)));
    return combined;
  });
}

template <typename Traits, typename C>
struct ScatterFunctor {
  ScatterArgs args;

  HLOCHECK_HD void operator()(int64_t u) const {
    int64_t coordinates[kMaxRank] = {};
    int64_t rest = u;
    int64_t index_base = 0;
    for (int d = args.update_rank - 1; d >= 0; --d) {
      const int64_t r = rest % args.update_dims[d];
      rest /= args.update_dims[d];
      if (args.window_dim_of[d] >= 0) coordinates[args.window_dim_of[d]] += r;
      if (args.batching_dim_of[d] >= 0) coordinates[args.batching_dim_of[d]] += r;
      index_base += r * args.index_strides[d];
    }
    for (int k = 0; k < args.starts; ++k) {
      const int64_t start =
          IndexValue(args.index_kind, args.indices, index_base + k * args.index_vector_step);
      // Out of range starts leave the element outside: no clamping here.
      // The coordinate so far lies in [0, size), so a start beyond +-size
      // is outside whatever it is added to (and adding it could overflow).
      const int dim = args.start_dims[k];
      if (start >= args.input_dims[dim] || start <= -args.input_dims[dim]) return;
      coordinates[dim] += start;
    }
    int64_t offset = 0;
    for (int d = 0; d < args.input_rank; ++d) {
      if (coordinates[d] < 0 || coordinates[d] >= args.input_dims[d]) return;
      offset += coordinates[d] * args.input_strides[d];
    }
    const C update = static_cast<const C*>(args.updates)[u];
    C* element = static_cast<C*>(args.result) + offset;
    if (args.replace) {
      AtomicUpdate(element, [update](C) -> C { return update; });
    } else {
      AtomicCombine<Traits>(args.kind, args.combiner, element, update);
    }
  }
};

template <typename Exec>
std::string RunScatter(const Exec& exec, const ScatterArgs& args) {
  int64_t n = 1;
  for (int d = 0; d < args.update_rank; ++d) n *= args.update_dims[d];
  if (n == 0) return "";
  return VisitTraits(args.kind, [&]<typename Traits, typename C>() {
    return exec.ForEach(n, ScatterFunctor<Traits, C>{args});
  });
}

// Whether select(x, y) holds for operand elements at x and y.
HLOCHECK_HD bool SelectHolds(const SelectAndScatterArgs& args, int64_t x, int64_t y) {
  if (args.swapped) {
    const int64_t t = x;
    x = y;
    y = t;
  }
  const ElementKind& kind = args.operand_kind;
  const bool is_float = kind.storage == Storage::kF32 || kind.storage == Storage::kF64 ||
                        kind.storage == Storage::kMini8 || kind.storage == Storage::kMini16;
  if (is_float && args.compare_type == CompareType::kTotalOrder) {
    SortRowsArgs keys;
    keys.key_kind = kind;
    keys.keys = args.operand;
    const KeyLess bits{keys};
    const bool has_sign =
        kind.storage == Storage::kF32 || kind.storage == Storage::kF64 || kind.mini.has_sign;
    const int64_t p =
        has_sign ? TotalOrderKey(bits.Bits(x), kind.bits) : static_cast<int64_t>(bits.Bits(x));
    const int64_t q =
        has_sign ? TotalOrderKey(bits.Bits(y), kind.bits) : static_cast<int64_t>(bits.Bits(y));
    return CompareReal(args.direction, p, q);
  }
  const Number a = LoadNumber(kind, args.operand, x);
  const Number b = LoadNumber(kind, args.operand, y);
  if (is_float) return CompareReal(args.direction, a.f, b.f);
  if (args.compare_type == CompareType::kSigned) {
    return CompareReal(args.direction, static_cast<int64_t>(a.i), static_cast<int64_t>(b.i));
  }
  const uint64_t mask = WidthMask(kind.bits);
  return CompareReal(args.direction, a.i & mask, b.i & mask);
}

template <typename Traits, typename C>
struct SelectAndScatterFunctor {
  SelectAndScatterArgs args;
  HLOCHECK_HD void operator()(int64_t w) const {
    int64_t o[kMaxRank] = {};
    int64_t rest = w;
    int64_t positions = 1;
    for (int d = args.rank - 1; d >= 0; --d) {
      o[d] = rest % args.source_dims[d];
      rest /= args.source_dims[d];
      positions *= args.window[d];
    }
    int64_t best = -1;
    for (int64_t p = 0; p < positions; ++p) {
      int64_t p_rest = p;
      int64_t offset = 0;
      bool inside = true;
      for (int d = args.rank - 1; d >= 0; --d) {
        const int64_t wd = p_rest % args.window[d];
        p_rest /= args.window[d];
        const int64_t q = o[d] * args.strides[d] + wd - args.pad_low[d];
        if (q < 0 || q >= args.in_dims[d]) {
          inside = false;
        } else {
          offset += q * args.in_strides[d];
        }
      }
      if (!inside) continue;
      if (best < 0 || !SelectHolds(args, best, offset)) best = offset;
    }
    if (best < 0) return;
    AtomicCombine<Traits>(args.kind, args.combiner, static_cast<C*>(args.result) + best,
                          static_cast<const C*>(args.source)[w]);
  }
};

template <typename Exec>
std::string RunSelectAndScatter(const Exec& exec, const SelectAndScatterArgs& args) {
  int64_t n = 1;
  for (int d = 0; d < args.rank; ++d) n *= args.source_dims[d];
  if (n == 0) return "";
  return VisitTraits(args.kind, [&]<typename Traits, typename C>() {
    return exec.ForEach(n, SelectAndScatterFunctor<Traits, C>{args});
  });
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_SCATTER_KERNELS_H_
