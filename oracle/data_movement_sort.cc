// sort: the 1-dimensional slices of the inputs along `dimension`, sorted
// together by the comparator region (run on the oracle as a PreparedRegion).
// Elements are moved as bytes, so every element type behaves the same.
//
// The reference order is the stable one. With is_stable = false the spec
// leaves the order of equivalent elements open, so the expectation lists
// them as permutable runs (oracle/expectation.h). A comparator that is not a
// strict weak order on a slice (e.g. LT on floats with NaN) makes "sorted"
// meaningless there: the whole slice is then one run, so any permutation of
// it -- but not a dropped or duplicated element -- is accepted. So does a
// comparator whose answer the spec leaves open for some pair of the slice
// (compare of the FNUZ NaN under TOTALORDER): where that element goes is
// not defined.
#include <algorithm>
#include <cstring>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "oracle/data_movement_helpers.h"
#include "oracle/element_comparison.h"

namespace hlocheck::oracle {
namespace {

// Slices longer than this are checked for a strict weak order against the
// ends of the runs of equivalent neighbours only (the full check calls the
// comparator n * (n - 1) times).
constexpr int64_t kFullOrderCheckLength = 32;

// comparator_together(lhs_together, rhs_together) on the elements at
// positions `a` and `b` of one slice of every input. The comparator is
// prepared once per op (the first comparison verifies it) and its
// arguments are 0-dimensional tensors reused from one comparison to the
// next.
//
// A comparator that is one compare of the first input's pair (in either
// order), returned as it is, is not interpreted: the comparison is
// compare's own (CompareElements), on the elements in place. Most sorts'
// comparators are, and interpreting them was most of sort's time.
class SliceComparator {
 public:
  SliceComparator(const Region& comparator, std::span<const Tensor> inputs)
      : comparator_(comparator), views_(inputs.begin(), inputs.end()) {
    for (const Tensor& input : inputs) {
      arguments_.emplace_back(ScalarTypeOf(input));
      arguments_.emplace_back(ScalarTypeOf(input));
      element_bytes_.push_back(ContainerBytes(input.element_type()));
    }
    // A quantized key compares dequantized (two storage integers may meet
    // in one value, or compare apart only exactly): the comparator runs.
    if (!inputs.empty() && !inputs[0].type().quantization) {
      RecogniseOneCompare(comparator, inputs[0]);
    }
  }

  // Compares within the slice whose elements lie at `offsets` (row-major
  // positions); the vector must outlive the comparisons.
  void Load(const std::vector<int64_t>& offsets) {
    offsets_ = &offsets;
    open_ = false;
  }

  // Whether element a of the slice is less than element b. An error of the
  // comparator is kept in status() and reads as false.
  bool Less(int64_t a, int64_t b) {
    if (!status_.ok()) return false;
    if (direct_ != nullptr) return direct_(*this, (*offsets_)[a], (*offsets_)[b]);
    for (size_t i = 0; i < views_.size(); ++i) {
      std::memcpy(arguments_[2 * i].raw(), views_[i].at_linear((*offsets_)[a]), element_bytes_[i]);
      std::memcpy(arguments_[2 * i + 1].raw(), views_[i].at_linear((*offsets_)[b]),
                  element_bytes_[i]);
    }
    auto result = comparator_.Call(arguments_);
    if (!result.ok()) {
      status_ = result.status();
      return false;
    }
    if (comparator_.last_call_open()) open_ = true;
    if (result->size() != 1 || (*result)[0].element_type() != ElementType::kI1 ||
        (*result)[0].num_elements() != 1) {
      status_ = absl::InvalidArgumentError("sort: the comparator must return a tensor<i1>");
      return false;
    }
    return (*result)[0].values<ElementType::kI1>()[0] != 0;
  }

  const absl::Status& status() const { return status_; }
  // Whether some comparison since the last Load had an answer the spec
  // leaves open.
  bool open() const { return open_; }

 private:
  // Sets direct_ where the body is `return compare(x0, x1)` or
  // `compare(x1, x0)` of the first input's arguments, with attributes the
  // compare op accepts.
  void RecogniseOneCompare(const Region& region, const Tensor& key) {
    if (region.blocks.size() != 1) return;
    const Block& block = region.blocks[0];
    if (block.arguments.size() != 2 * views_.size() || block.operations.size() != 2) return;
    const Operation& compare = block.operations[0];
    const Operation& terminator = block.operations[1];
    if (compare.name != "stablehlo.compare" || compare.operands.size() != 2 ||
        compare.results.size() != 1 || terminator.operands.size() != 1 ||
        terminator.operands[0] != compare.results[0]) {
      return;
    }
    const ValueId lhs = block.arguments[0], rhs = block.arguments[1];
    const bool forward = compare.operands[0] == lhs && compare.operands[1] == rhs;
    const bool backward = compare.operands[0] == rhs && compare.operands[1] == lhs;
    if (!forward && !backward) return;
    Case attributes;  // the compare's attributes, read as the compare op reads them
    attributes.attributes = compare.attributes;
    const absl::StatusOr<ComparisonDirection> direction =
        ComparisonDirectionAttribute(attributes, "comparison_direction");
    const absl::StatusOr<std::string> type = EnumAttribute(attributes, "compare_type", "");
    if (!direction.ok() || !type.ok()) return;  // the interpreted body reports it
    direction_ = *direction;
    total_order_ = *type == "TOTALORDER";
    swapped_ = backward;
    DispatchElementType(key.element_type(), [&]<ElementType T>() {
      direct_ = [](SliceComparator& self, int64_t a, int64_t b) {
        ContainerT<T> x, y;
        std::memcpy(&x, self.views_[0].at_linear(a), sizeof(x));
        std::memcpy(&y, self.views_[0].at_linear(b), sizeof(y));
        bool open = false;
        const bool holds =
            self.swapped_ ? CompareElements<T>(self.direction_, self.total_order_, y, x, &open)
                          : CompareElements<T>(self.direction_, self.total_order_, x, y, &open);
        self.open_ = self.open_ || open;
        return holds;
      };
    });
  }

  bool (*direct_)(SliceComparator&, int64_t, int64_t) = nullptr;
  ComparisonDirection direction_ = ComparisonDirection::kLt;
  bool total_order_ = false;
  bool swapped_ = false;
  PreparedRegion comparator_;
  std::vector<ElementView> views_;
  std::vector<Tensor> arguments_;  // lhs and rhs of every input
  std::vector<size_t> element_bytes_;
  const std::vector<int64_t>* offsets_ = nullptr;
  absl::Status status_;
  bool open_ = false;
};

// A stable merge sort of [0, n) that is well defined (a permutation) for
// any comparator, unlike std::stable_sort.
void MergeSort(std::vector<int64_t>& order, size_t begin, size_t end, SliceComparator& less,
               std::vector<int64_t>& scratch) {
  if (end - begin < 2) return;
  size_t middle = begin + (end - begin) / 2;
  MergeSort(order, begin, middle, less, scratch);
  MergeSort(order, middle, end, less, scratch);
  scratch.clear();
  size_t left = begin, right = middle;
  while (left < middle && right < end) {
    // Take from the right only if strictly less: equal elements keep their order.
    if (less.Less(order[right], order[left])) {
      scratch.push_back(order[right++]);
    } else {
      scratch.push_back(order[left++]);
    }
  }
  scratch.insert(scratch.end(), order.begin() + left, order.begin() + middle);
  scratch.insert(scratch.end(), order.begin() + right, order.begin() + end);
  std::copy(scratch.begin(), scratch.end(), order.begin() + begin);
}

// The runs of equivalent elements of a sorted slice: run_of[k] for the k-th
// element of `sorted`. Returns false if the comparator is not a strict weak
// order on the slice: some later element is less than an earlier one, or an
// element equivalent to its neighbour is not equivalent to the rest of its
// run. Short slices have every pair checked; long ones each element against
// the ends of its run and of the runs beside it.
bool EquivalenceRuns(const std::vector<int64_t>& sorted, SliceComparator& less,
                     std::vector<int64_t>& run_of) {
  const int64_t n = static_cast<int64_t>(sorted.size());
  run_of.assign(n, 0);
  for (int64_t k = 1; k < n; ++k) {
    if (less.Less(sorted[k], sorted[k - 1])) return false;
    run_of[k] = run_of[k - 1] + (less.Less(sorted[k - 1], sorted[k]) ? 1 : 0);
  }
  if (n > kFullOrderCheckLength) {
    // Every element against the ends of its own run (equivalent to both)
    // and of the runs beside it (greater than the last of the run before,
    // less than the first of the run after): linear, and a NaN under LT,
    // which is equivalent to everything, fails it wherever it lands.
    std::vector<int64_t> first_of, last_of;
    for (int64_t k = 0; k < n; ++k) {
      if (k == 0 || run_of[k] != run_of[k - 1]) first_of.push_back(k);
      if (k + 1 == n || run_of[k + 1] != run_of[k]) last_of.push_back(k);
    }
    for (int64_t k = 0; k < n; ++k) {
      const int64_t run = run_of[k];
      for (int64_t end : {first_of[run], last_of[run]}) {
        if (end != k && (less.Less(sorted[k], sorted[end]) || less.Less(sorted[end], sorted[k]))) {
          return false;
        }
      }
      if (run > 0 && !less.Less(sorted[last_of[run - 1]], sorted[k])) return false;
      if (run + 1 < static_cast<int64_t>(first_of.size()) &&
          !less.Less(sorted[k], sorted[first_of[run + 1]])) {
        return false;
      }
    }
    return true;
  }
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t l = k + 2; l < n; ++l) {
      if (less.Less(sorted[l], sorted[k])) return false;
      if (less.Less(sorted[k], sorted[l]) != (run_of[k] != run_of[l])) return false;
    }
  }
  return true;
}

// sort: for every result_slice = [ri0, ..., :, ..., riR-1] (":" at
// adjusted_dimension = dimension >= 0 ? dimension : rank(inputs[0]) +
// dimension), results_together[result_slice] =
// sort(inputs_together[result_slice], comparator_together).
Results Sort(const Case& c) {
  std::span<const Tensor> inputs = InputTensors(c, 0);
  const Shape& shape = inputs[0].shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t dimension = c.attribute<int64_t>("dimension");
  const int64_t adjusted_dimension = dimension >= 0 ? dimension : rank + dimension;
  const Attribute* stable_attribute = c.FindAttribute("is_stable");
  const bool is_stable = stable_attribute != nullptr && std::get<bool>(*stable_attribute);

  std::vector<Tensor> results;
  std::vector<ElementView> in;
  for (const Tensor& input : inputs) {
    results.emplace_back(input.type());
    in.emplace_back(input);
  }
  auto runs = std::make_shared<PermutableRuns>();
  runs->run.assign(static_cast<size_t>(NumElements(shape)), -1);

  const int64_t n = shape[adjusted_dimension];
  const int64_t stride = RowMajorStrides(shape)[adjusted_dimension];
  // The slices: every index with 0 at adjusted_dimension.
  Shape slice_starts = shape;
  slice_starts[adjusted_dimension] = n == 0 ? 0 : 1;
  SliceComparator less(c.regions[0], inputs);
  std::vector<int64_t> offsets(n), order(n), scratch, run_of;
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  int64_t next_run = 0;
  bool ties = false, unordered = false, open_order = false;
  for (IndexIterator it(slice_starts); !it.done(); it.Next()) {
    int64_t base = 0;
    for (int64_t d = 0; d < rank; ++d) base += it.index()[d] * strides[d];
    for (int64_t k = 0; k < n; ++k) {
      offsets[k] = base + k * stride;
      order[k] = k;
    }
    less.Load(offsets);
    MergeSort(order, 0, order.size(), less, scratch);
    const bool strict_weak_order = EquivalenceRuns(order, less, run_of);
    HLOCHECK_RETURN_IF_ERROR(less.status());
    const bool open = less.open();
    for (size_t i = 0; i < results.size(); ++i) {
      const size_t bytes = ContainerBytes(results[i].element_type());
      for (int64_t k = 0; k < n; ++k) {
        std::memcpy(results[i].bytes().data() + offsets[k] * bytes,
                    in[i].at_linear(offsets[order[k]]), bytes);
      }
    }
    if (!strict_weak_order || open) {
      for (int64_t k = 0; k < n; ++k) runs->run[offsets[k]] = next_run;
      ++next_run;
      (strict_weak_order ? open_order : unordered) = true;
      continue;
    }
    if (is_stable) continue;
    for (int64_t k = 0; k < n; ++k) {
      const bool alone =
          (k == 0 || run_of[k - 1] != run_of[k]) && (k + 1 == n || run_of[k + 1] != run_of[k]);
      if (!alone) {
        runs->run[offsets[k]] = next_run + run_of[k];
        ties = true;
      }
    }
    if (n > 0) next_run += run_of[n - 1] + 1;
  }

  if (ties) {
    runs->reason =
        "is_stable is false: elements the comparator considers equivalent may come back in any "
        "order (the same for every result)";
  }
  if (unordered) {
    runs->reason += std::string(ties ? "; " : "") +
                    "the comparator is not a strict weak order on some slice (e.g. LT with NaN): "
                    "the spec's order is undefined there, any permutation of the slice is accepted";
  }
  if (open_order) {
    runs->reason += std::string(ties || unordered ? "; " : "") +
                    "the comparator's answer is left open by the spec for some pair of a slice "
                    "(e.g. compare of the FNUZ NaN under TOTALORDER): any permutation of that "
                    "slice is accepted";
  }
  const bool any_run =
      std::any_of(runs->run.begin(), runs->run.end(), [](int64_t r) { return r >= 0; });
  std::vector<ResultExpectation> expectations(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    expectations[i].reference = std::move(results[i]);
    expectations[i].check = Check::kExact;
    if (any_run) expectations[i].permutable = runs;
  }
  return expectations;
}

}  // namespace

std::vector<OpEntry> DataMovementSortOps() { return {{"sort", Sort}}; }

}  // namespace hlocheck::oracle
