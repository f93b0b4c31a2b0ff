// sort's kernels (kernel_api.h's SortRowsArgs and PermuteRowsArgs): a
// top-down merge sort's merge tree, merged bottom-up, one level per launch
// and one thread per pair of sibling halves; then each input permuted by
// the sorted positions.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_SORT_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_SORT_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/data_movement_kernels.h"
#include "adapters/cuda/kernels/elementwise_kernels.h"
#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/cuda/kernels/scalar.h"

namespace hlocheck::cuda {

// less(a, b) of two keys, as the comparator `compare(a, b), LT` (or GT for
// a descending sort) answers it.
struct KeyLess {
  SortRowsArgs args;

  HLOCHECK_HD uint64_t Bits(int64_t i) const {
    switch (args.key_kind.bytes) {
      case 1:
        return static_cast<const uint8_t*>(args.keys)[i];
      case 2:
        return static_cast<const uint16_t*>(args.keys)[i];
      case 4:
        return static_cast<const uint32_t*>(args.keys)[i];
      default:
        return static_cast<const uint64_t*>(args.keys)[i];
    }
  }

  HLOCHECK_HD bool operator()(int64_t a, int64_t b) const {
    const ElementKind& kind = args.key_kind;
    const CompareDirection direction =
        args.descending ? CompareDirection::kGt : CompareDirection::kLt;
    const bool is_float = kind.storage == Storage::kF32 || kind.storage == Storage::kF64 ||
                          kind.storage == Storage::kMini8 || kind.storage == Storage::kMini16;
    if (is_float && args.compare_type == CompareType::kTotalOrder) {
      const bool has_sign =
          kind.storage == Storage::kF32 || kind.storage == Storage::kF64 || kind.mini.has_sign;
      const int64_t p =
          has_sign ? TotalOrderKey(Bits(a), kind.bits) : static_cast<int64_t>(Bits(a));
      const int64_t q =
          has_sign ? TotalOrderKey(Bits(b), kind.bits) : static_cast<int64_t>(Bits(b));
      return CompareReal(direction, p, q);
    }
    const Number x = LoadNumber(kind, args.keys, a);
    const Number y = LoadNumber(kind, args.keys, b);
    if (is_float) return CompareReal(direction, x.f, y.f);
    if (args.compare_type == CompareType::kSigned) {
      return CompareReal(direction, static_cast<int64_t>(x.i), static_cast<int64_t>(y.i));
    }
    // UNSIGNED: the pattern in the type's width.
    const uint64_t mask = WidthMask(kind.bits);
    return CompareReal(direction, x.i & mask, y.i & mask);
  }
};

struct SortInit {
  SortRowsArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    args.order[i] = static_cast<uint32_t>(i % args.length);
  }
};

// The node `node` of depth `depth` of the top-down merge sort's tree over
// [0, length): its range, or false where the recursion stopped above it (a
// range of fewer than 2 elements is not split).
HLOCHECK_HD bool MergeNode(int64_t length, int depth, int64_t node, int64_t* begin, int64_t* end) {
  int64_t b = 0;
  int64_t e = length;
  for (int level = depth - 1; level >= 0; --level) {
    if (e - b < 2) return false;
    const int64_t middle = b + (e - b) / 2;
    if (((node >> level) & 1) == 0) {
      e = middle;
    } else {
      b = middle;
    }
  }
  *begin = b;
  *end = e;
  return e - b >= 2;
}

struct SortMergeLevel {
  SortRowsArgs args;
  int depth;
  HLOCHECK_HD void operator()(int64_t i) const {
    const int64_t nodes = int64_t{1} << depth;
    const int64_t row = i / nodes;
    int64_t begin = 0;
    int64_t end = 0;
    if (!MergeNode(args.length, depth, i % nodes, &begin, &end)) return;
    const int64_t middle = begin + (end - begin) / 2;
    uint32_t* order = args.order + row * args.length;
    uint32_t* merged = args.scratch + row * args.length;
    const KeyLess less{args};
    const int64_t base = row * args.length;
    int64_t left = begin;
    int64_t right = middle;
    int64_t out = begin;
    while (left < middle && right < end) {
      // The right element only when strictly less: stable.
      if (less(base + order[right], base + order[left])) {
        merged[out++] = order[right++];
      } else {
        merged[out++] = order[left++];
      }
    }
    while (left < middle) merged[out++] = order[left++];
    while (right < end) merged[out++] = order[right++];
    for (int64_t k = begin; k < end; ++k) order[k] = merged[k];
  }
};

template <typename Exec>
std::string RunSortRows(const Exec& exec, const SortRowsArgs& args) {
  const int64_t n = args.rows * args.length;
  if (n == 0) return "";
  std::string error = exec.ForEach(n, SortInit{args});
  int depth = 0;
  while ((int64_t{1} << depth) < args.length) ++depth;
  for (int d = depth - 1; error.empty() && d >= 0; --d) {
    error = exec.ForEach(args.rows * (int64_t{1} << d), SortMergeLevel{args, d});
  }
  return error;
}

template <typename Word>
struct PermuteRowsFunctor {
  PermuteRowsArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    const int64_t row_start = i - i % args.length;
    static_cast<Word*>(args.out)[i] = static_cast<const Word*>(args.in)[row_start + args.order[i]];
  }
};

template <typename Exec>
std::string RunPermuteRows(const Exec& exec, const PermuteRowsArgs& args) {
  const int64_t n = args.rows * args.length;
  if (n == 0) return "";
  return VisitWord(args.element_bytes, [&]<typename Word>() {
    return exec.ForEach(n, PermuteRowsFunctor<Word>{args});
  });
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_SORT_KERNELS_H_
