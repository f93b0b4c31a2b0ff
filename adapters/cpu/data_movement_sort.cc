// sort: the 1-dimensional slices of the inputs along `dimension` (rows),
// each permuted, all inputs together, into the order the comparator
// defines. Every sort here is stable, which is_stable = false allows too.
//
// A comparator that is one compare LT or GT of the first input's pair
// (region.h) sorts by a typed key, mapped to an unsigned integer of the
// same order and radix sorted; any other is evaluated through the adapter's
// op table for every comparison. Rows are independent and are
// shared out among the threads.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <numeric>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"
#include "adapters/cpu/region.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// Positions within a row are 32-bit, which halves what the key sort moves.
using Position = uint32_t;
constexpr int64_t kMaxRowLength = std::numeric_limits<Position>::max();

// Where the rows lie in the row-major inputs: row r starts at
// (r / stride) * length * stride + r % stride, and its elements are `stride`
// apart.
struct Rows {
  int64_t count = 0;
  int64_t length = 0;
  int64_t stride = 1;

  int64_t Start(int64_t row) const { return (row / stride) * length * stride + row % stride; }
};

// A stable merge sort of order[begin, end) by less(a, b) that ends in a
// permutation whatever less answers: std::sort and std::stable_sort need a
// strict weak order, which neither NaN keys nor an arbitrary body need give.
// It is the textbook top-down merge sort (halves split at the middle, the
// right element taken only when strictly less). Where the order is not
// strict weak the spec's result is undefined; the oracle then accepts any
// permutation only where it notices (it checks neighbours only in rows of
// more than 16), and otherwise expects what this algorithm gives.
template <typename Less>
void MergeSortAnyOrder(std::vector<Position>& order, size_t begin, size_t end,
                       std::vector<Position>& scratch, Less& less) {
  if (end - begin < 2) return;
  const size_t middle = begin + (end - begin) / 2;
  MergeSortAnyOrder(order, begin, middle, scratch, less);
  MergeSortAnyOrder(order, middle, end, scratch, less);
  scratch.clear();
  size_t left = begin;
  size_t right = middle;
  while (left < middle && right < end) {
    scratch.push_back(less(order[right], order[left]) ? order[right++] : order[left++]);
  }
  scratch.insert(scratch.end(), order.begin() + left, order.begin() + middle);
  scratch.insert(scratch.end(), order.begin() + right, order.begin() + end);
  std::copy(scratch.begin(), scratch.end(), order.begin() + begin);
}

template <typename Less>
void MergeSortAnyOrder(std::vector<Position>& order, std::vector<Position>& scratch, Less&& less) {
  MergeSortAnyOrder(order, 0, order.size(), scratch, less);
}

// Result element k of the row at `start` is input element order[k], for
// every input.
void PermuteRow(std::span<const Tensor> inputs, Results& results, const Rows& rows, int64_t start,
                const std::vector<Position>& order) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int64_t bytes = ContainerBytes(inputs[i].element_type());
    const std::byte* in = inputs[i].bytes().data();
    std::byte* out = results[i].bytes().data();
    for (size_t k = 0; k < order.size(); ++k) {
      std::memcpy(out + (start + static_cast<int64_t>(k) * rows.stride) * bytes,
                  in + (start + static_cast<int64_t>(order[k]) * rows.stride) * bytes,
                  static_cast<size_t>(bytes));
    }
  }
}

double RowCycles(const Rows& rows) {
  return 8.0 * static_cast<double>(rows.length) * std::log2(static_cast<double>(rows.length) + 2);
}

// Rows up to this long are sorted by insertion, longer ones by radix.
constexpr int64_t kInsertionSortLength = 32;

// compare's order on T as an unsigned integer with the same order: the
// value (with -0 = +0; NaN has no place and is the caller's), or its place
// in totalOrder.
template <ElementType T, bool kTotalOrder>
auto OrderedKey(ContainerT<T> x) {
  using C = ContainerT<T>;
  if constexpr (IsBool(T)) {
    return static_cast<uint8_t>(x != 0);
  } else if constexpr (IsUnsignedInt(T)) {
    return x;
  } else if constexpr (IsSignedInt(T)) {
    // Flipping the sign bit orders two's complement patterns as unsigned.
    using U = std::make_unsigned_t<C>;
    return static_cast<U>(static_cast<U>(x) ^ (U{1} << (8 * sizeof(U) - 1)));
  } else if constexpr (kTotalOrder) {
    // The place fits the container's width; 4 bytes sort faster than 8.
    using U = std::conditional_t<sizeof(C) <= 4, uint32_t, uint64_t>;
    return static_cast<U>(static_cast<U>(TotalOrderKey<T>(x)) ^ (U{1} << (8 * sizeof(U) - 1)));
  } else {
    using P = ComputeT<T>;
    using U = std::conditional_t<sizeof(P) == 4, uint32_t, uint64_t>;
    const P value = FloatValue<T>(x) == 0 ? P{0} : FloatValue<T>(x);
    const auto bits = std::bit_cast<U>(value);
    constexpr U kSign = U{1} << (8 * sizeof(U) - 1);
    // Negative values count down from the middle, positive ones up.
    return static_cast<U>((bits & kSign) != 0 ? ~bits : bits | kSign);
  }
}

template <typename U>
using KeyedPosition = std::pair<U, Position>;

// A stable sort of `items` by key: insertion for short rows, else an LSD
// radix sort on bytes that skips the bytes in which all keys agree.
template <typename U>
void SortByKey(std::vector<KeyedPosition<U>>& items, std::vector<KeyedPosition<U>>& scratch) {
  const size_t n = items.size();
  if (static_cast<int64_t>(n) <= kInsertionSortLength) {
    for (size_t i = 1; i < n; ++i) {
      const KeyedPosition<U> item = items[i];
      size_t j = i;
      for (; j > 0 && item.first < items[j - 1].first; --j) items[j] = items[j - 1];
      items[j] = item;
    }
    return;
  }
  constexpr int kBytes = sizeof(U);
  std::array<std::array<size_t, 256>, kBytes> counts{};
  for (const KeyedPosition<U>& item : items) {
    for (int b = 0; b < kBytes; ++b) ++counts[b][(item.first >> (8 * b)) & 0xFF];
  }
  scratch.resize(n);
  for (int b = 0; b < kBytes; ++b) {
    if (counts[b][(items[0].first >> (8 * b)) & 0xFF] == n) continue;
    std::array<size_t, 256> next;
    size_t offset = 0;
    for (int digit = 0; digit < 256; ++digit) {
      next[digit] = offset;
      offset += counts[b][digit];
    }
    for (const KeyedPosition<U>& item : items)
      scratch[next[(item.first >> (8 * b)) & 0xFF]++] = item;
    items.swap(scratch);
  }
}

template <ElementType T, bool kTotalOrder, bool kDescending>
void SortRowsByKey(std::span<const Tensor> inputs, Results& results, const Rows& rows,
                   const Device& device) {
  using U = decltype(OrderedKey<T, kTotalOrder>(ContainerT<T>{}));
  constexpr bool kMayBeUnordered = IsFloat(T) && !kTotalOrder;
  const ContainerT<T>* keys = inputs[0].values<T>().data();
  ParallelFor(device, rows.count, 16.0 * rows.length, RowCycles(rows),
              [&](int64_t first, int64_t last) {
                std::vector<KeyedPosition<U>> items(rows.length);
                std::vector<KeyedPosition<U>> scratch;
                std::vector<Position> order(rows.length);
                std::vector<Position> merge_scratch;
                for (int64_t row = first; row < last; ++row) {
                  const int64_t start = rows.Start(row);
                  bool unordered = false;
                  for (int64_t k = 0; k < rows.length; ++k) {
                    const ContainerT<T> x = keys[start + k * rows.stride];
                    if constexpr (kMayBeUnordered)
                      unordered = unordered || std::isnan(FloatValue<T>(x));
                    // Descending is ascending on the complemented key; ties
                    // still keep their order.
                    const U key = OrderedKey<T, kTotalOrder>(x);
                    items[k] = {kDescending ? static_cast<U>(~key) : key, static_cast<Position>(k)};
                  }
                  if (!unordered) {
                    SortByKey(items, scratch);
                    for (int64_t k = 0; k < rows.length; ++k) order[k] = items[k].second;
                  } else {
                    // NaN is unordered: compare's answers are no strict weak order.
                    const auto less = [&](Position a, Position b) {
                      const auto x = FloatValue<T>(keys[start + a * rows.stride]);
                      const auto y = FloatValue<T>(keys[start + b * rows.stride]);
                      return kDescending ? y < x : x < y;
                    };
                    std::iota(order.begin(), order.end(), Position{0});
                    MergeSortAnyOrder(order, merge_scratch, less);
                  }
                  PermuteRow(inputs, results, rows, start, order);
                }
              });
}

template <ElementType T>
void SortRowsByKey(const KeyComparator& key, std::span<const Tensor> inputs, Results& results,
                   const Rows& rows, const Device& device) {
  // ClassifyComparator gives total_order for float keys only.
  constexpr bool kFloat = IsFloat(T);
  const bool descending = key.order == KeyComparator::Order::kDescending;
  if (kFloat && key.total_order) {
    descending ? SortRowsByKey<T, kFloat, true>(inputs, results, rows, device)
               : SortRowsByKey<T, kFloat, false>(inputs, results, rows, device);
  } else {
    descending ? SortRowsByKey<T, false, true>(inputs, results, rows, device)
               : SortRowsByKey<T, false, false>(inputs, results, rows, device);
  }
}

// Any comparator: the body is evaluated on (lhs, rhs) of every input for
// each comparison.
absl::Status SortRowsByBody(const RegionEvaluator& evaluator, std::span<const Tensor> inputs,
                            Results& results, const Rows& rows, const Device& device) {
  std::mutex mutex;
  absl::Status first_error;
  ParallelFor(device, rows.count, 16.0 * rows.length, 100 * RowCycles(rows),
              [&](int64_t first, int64_t last) {
                RegionEvaluator local = evaluator;
                const Eigen::ThreadPoolDevice inline_device = InlineDevice(device);
                std::vector<const void*> arguments(2 * inputs.size());
                uint8_t verdict = 0;
                void* const output = &verdict;
                absl::Status status;
                int64_t start = 0;
                auto less = [&](Position a, Position b) {
                  if (!status.ok()) return false;
                  for (size_t i = 0; i < inputs.size(); ++i) {
                    const int64_t bytes = ContainerBytes(inputs[i].element_type());
                    const std::byte* in = inputs[i].bytes().data();
                    arguments[2 * i] = in + (start + a * rows.stride) * bytes;
                    arguments[2 * i + 1] = in + (start + b * rows.stride) * bytes;
                  }
                  status = local.Evaluate(arguments, {&output, 1}, inline_device);
                  return status.ok() && verdict != 0;
                };
                std::vector<Position> order(rows.length);
                std::vector<Position> scratch;
                for (int64_t row = first; row < last && status.ok(); ++row) {
                  start = rows.Start(row);
                  std::iota(order.begin(), order.end(), Position{0});
                  MergeSortAnyOrder(order, scratch, less);
                  PermuteRow(inputs, results, rows, start, order);
                }
                if (!status.ok()) {
                  const std::lock_guard<std::mutex> lock(mutex);
                  if (first_error.ok()) first_error = status;
                }
              });
  return first_error;
}

// Quantized scalars where the inputs are quantized: their comparisons are
// the backend's quantized compare (a FLOAT compare_type never takes the
// key fast path).
std::vector<TensorType> ComparatorArguments(const Case& c) {
  std::vector<TensorType> types;
  for (const Tensor& input : c.operands) {
    types.push_back(ScalarOf(input.type()));
    types.push_back(ScalarOf(input.type()));
  }
  return types;
}

const TensorType kComparatorResult[] = {TensorType(Shape{}, ElementType::kI1)};

}  // namespace

AdapterSupport SupportsSort(const Case& c) {
  // Every type, per-tensor quantized ones too (their comparator runs on
  // quantized scalars).
  for (const Tensor& input : c.operands) {
    if (input.type().quantization && input.type().quantization->quantization_dimension) {
      return AdapterSupport::No("sort: per-axis quantized inputs");
    }
  }
  if (c.operands.empty()) return AdapterSupport::No("sort: no operand");
  absl::StatusOr<int64_t> dimension = IntAttribute(c, "dimension");
  const int64_t rank = c.operands[0].rank();
  if (dimension.ok() && -rank <= *dimension && *dimension < rank &&
      c.operands[0].shape()[*dimension < 0 ? rank + *dimension : *dimension] > kMaxRowLength) {
    return AdapterSupport::No(
        absl::StrCat("sort: rows longer than ", kMaxRowLength, " elements are not implemented"));
  }
  if (c.regions.size() != 1 ||
      ClassifyComparator(c.regions[0], c.operands[0].element_type()).order !=
          KeyComparator::Order::kGeneral) {
    return AdapterSupport::Yes();
  }
  absl::StatusOr<RegionEvaluator> evaluator = RegionEvaluator::Create(
      c.regions[0], ComparatorArguments(c), kComparatorResult, "sort: comparator");
  // A malformed comparator is Run's to report.
  return evaluator.ok() ? evaluator->support() : AdapterSupport::Yes();
}

absl::StatusOr<Results> RunSort(const Case& c, const Device& device) {
  absl::StatusOr<std::vector<std::span<const Tensor>>> groups = OperandGroups(c, {true});
  HLOCHECK_RETURN_IF_ERROR(groups.status());
  const std::span<const Tensor> inputs = (*groups)[0];
  if (inputs.empty() || c.result_types.size() != inputs.size()) {
    return absl::InvalidArgumentError(absl::StrCat("sort: needs N > 0 inputs and N results, not ",
                                                   inputs.size(), " and ", c.result_types.size()));
  }
  const Shape& shape = inputs[0].shape();
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].shape() != shape || c.result_types[i] != inputs[i].type()) {
      return absl::InvalidArgumentError(
          absl::StrCat("sort: input ", i, " ", inputs[i].type().ToString(), " and result ",
                       c.result_types[i].ToString(), " do not have the type and shape of input 0"));
    }
  }
  absl::StatusOr<int64_t> dimension = IntAttribute(c, "dimension");
  HLOCHECK_RETURN_IF_ERROR(dimension.status());
  const int64_t rank = inputs[0].rank();
  if (*dimension < -rank || *dimension >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("sort: dimension ", *dimension, " is not in [", -rank, ", ", rank, ")"));
  }
  const int64_t axis = *dimension < 0 ? rank + *dimension : *dimension;
  if (absl::StatusOr<bool> is_stable = BoolAttribute(c, "is_stable", false); !is_stable.ok()) {
    return is_stable.status();
  }
  if (c.regions.size() != 1) return absl::InvalidArgumentError("sort: needs one comparator");
  absl::StatusOr<RegionEvaluator> evaluator = RegionEvaluator::Create(
      c.regions[0], ComparatorArguments(c), kComparatorResult, "sort: comparator");
  HLOCHECK_RETURN_IF_ERROR(evaluator.status());
  Rows rows;
  rows.length = shape[axis];
  rows.stride = RowMajorStrides(shape)[axis];
  rows.count = rows.length == 0 ? 0 : inputs[0].num_elements() / rows.length;
  if (rows.length > kMaxRowLength) {
    return absl::UnimplementedError(
        absl::StrCat("sort: rows longer than ", kMaxRowLength, " elements are not implemented"));
  }

  Results results;
  for (const TensorType& type : c.result_types) results.emplace_back(type);
  const KeyComparator key = ClassifyComparator(c.regions[0], inputs[0].element_type());
  if (key.order != KeyComparator::Order::kGeneral) {
    DispatchElementType(inputs[0].element_type(), [&]<ElementType T>() {
      if constexpr (!IsComplex(T)) SortRowsByKey<T>(key, inputs, results, rows, device);
    });
    return results;
  }
  if (!evaluator->support().supported) {
    return absl::UnimplementedError(evaluator->support().reason);
  }
  if (absl::Status status = SortRowsByBody(*evaluator, inputs, results, rows, device);
      !status.ok()) {
    return status;
  }
  return results;
}

std::vector<OpEntry> DataMovementSortOps() {
  return {
      {"sort", kVariadic, &SupportsSort, &RunSort},
  };
}

}  // namespace hlocheck::cpu
