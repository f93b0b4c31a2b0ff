// scatter: results equal to the inputs, except that every update element
// whose result_index is in bounds is combined into results...[result_index]
// by update_computation (a region, run on the oracle as a PreparedRegion).
//
// The spec applies the updates in an implementation-defined order
// (`schedule`). The reference applies them in row-major order of
// index_space(updates[0]); where several updates meet in one result element,
// the oracle says what every order allows:
// - a computation that is order-independent (integer or boolean add and
//   multiply, maximum, minimum, or returning the current value) is exact;
// - float add and multiply are compared with an error bound that every order
//   satisfies (the exact value in double-double, Higham's gamma_k for the k
//   roundings to the element type);
// - any other computation is exact where every order gives the same value
//   (all orders are tried for up to kMaxOrdersTried updates, and any number of
//   identical updates commute), and the element is free otherwise.
//
// A window that sticks out of the results is read two ways: the text
// updates its in-bounds elements ("If result_index is in bounds"), while
// openxla/stablehlo#1931 (open) says the whole window is dropped, as XLA
// does. Until the spec settles it, an element such a window reaches may
// hold either reading's value (ResultExpectation::other_reading), and
// nothing else.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "core/status_macros.h"
#include "oracle/accumulation.h"
#include "oracle/data_movement_helpers.h"
#include "oracle/element_results.h"
#include "oracle/precise/double_double.h"

namespace hlocheck::oracle {
namespace {

// All k! orders are tried for at most this many updates of one element.
constexpr int64_t kMaxOrdersTried = 4;

std::vector<int64_t> ListOrEmpty(const Case& c, const std::string& name) {
  const Attribute* attribute = c.FindAttribute(name);
  return attribute == nullptr ? std::vector<int64_t>{} : std::get<std::vector<int64_t>>(*attribute);
}

bool FlagOrFalse(const Case& c, const std::string& name) {
  const Attribute* attribute = c.FindAttribute(name);
  return attribute != nullptr && std::get<bool>(*attribute);
}

bool Contains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Where the update elements go: for every update_index (row-major), the
// row-major position of result_index in the results, or -1 where it is out
// of bounds; and whether the start indices are sorted as indices_are_sorted
// promises.
struct Targets {
  std::vector<int64_t> position;
  // For every update_index, its window: the row-major position of
  // update_scatter_index among the scatter indices of updates[0].
  std::vector<int64_t> window;
  bool sorted = true;
};

// update_scatter_dims = [d for d in axes(updates[0]) if d not in update_window_dims]
// update_scatter_index = update_index[update_scatter_dims...]
// start_index = scatter_indices[si0, ..., :, ..., siN] (":" at
//   index_vector_dim) if index_vector_dim < rank(scatter_indices), and
//   [scatter_indices[update_scatter_index]] otherwise
// full_start_index[d_input] = start_index[d_start] if d_input =
//   scatter_dims_to_operand_dims[d_start], and 0 otherwise
// full_batching_index[d_input] = update_scatter_index[d_start - (d_start <
//   index_vector_dim ? 0 : 1)] if d_input = input_batching_dims[i] and
//   d_start = scatter_indices_batching_dims[i], and 0 otherwise
// update_window_index = update_index[update_window_dims...]
// full_window_index = update_window_index with 0 inserted at the indices in
//   inserted_window_dims and input_batching_dims
// result_index = full_start_index + full_batching_index + full_window_index.
Targets ResultPositions(const Case& c, const Shape& input_shape, const Tensor& scatter_indices,
                        const Shape& update_shape) {
  const auto& update_window_dims = c.attribute<std::vector<int64_t>>("update_window_dims");
  const auto& inserted_window_dims = c.attribute<std::vector<int64_t>>("inserted_window_dims");
  const std::vector<int64_t> input_batching_dims = ListOrEmpty(c, "input_batching_dims");
  const std::vector<int64_t> scatter_indices_batching_dims =
      ListOrEmpty(c, "scatter_indices_batching_dims");
  const auto& scatter_dims_to_operand_dims =
      c.attribute<std::vector<int64_t>>("scatter_dims_to_operand_dims");
  const int64_t index_vector_dim = c.attribute<int64_t>("index_vector_dim");
  const int64_t input_rank = static_cast<int64_t>(input_shape.size());

  std::vector<int64_t> update_scatter_dims;
  for (int64_t d = 0; d < static_cast<int64_t>(update_shape.size()); ++d) {
    if (!Contains(update_window_dims, d)) update_scatter_dims.push_back(d);
  }
  // The input dimensions that full_window_index takes from update_window_index.
  std::vector<int64_t> window_input_dims;
  for (int64_t d = 0; d < input_rank; ++d) {
    if (!Contains(inserted_window_dims, d) && !Contains(input_batching_dims, d)) {
      window_input_dims.push_back(d);
    }
  }
  const std::vector<int64_t> index_values = SaturatedIndexValues(scatter_indices);
  const std::vector<int64_t> index_strides = RowMajorStrides(scatter_indices.shape());
  const std::vector<int64_t> result_strides = RowMajorStrides(input_shape);
  const bool has_index_vector_dim = index_vector_dim < scatter_indices.rank();

  Targets targets;
  targets.position.reserve(static_cast<size_t>(NumElements(update_shape)));
  std::vector<int64_t> update_scatter_index(update_scatter_dims.size());
  std::vector<int64_t> full_start_index(input_rank), previous_full_start_index;
  std::vector<int64_t> result_index(input_rank);
  for (IndexIterator it(update_shape); !it.done(); it.Next()) {
    const std::vector<int64_t>& update_index = it.index();
    for (size_t i = 0; i < update_scatter_dims.size(); ++i) {
      update_scatter_index[i] = update_index[update_scatter_dims[i]];
    }
    // start_index: update_scatter_index with ":" inserted at index_vector_dim.
    int64_t base = 0;
    for (size_t i = 0; i < update_scatter_index.size(); ++i) {
      const int64_t si_dim = static_cast<int64_t>(i) < index_vector_dim ? i : i + 1;
      base += update_scatter_index[i] * index_strides[si_dim];
    }
    std::fill(full_start_index.begin(), full_start_index.end(), 0);
    for (size_t d_start = 0; d_start < scatter_dims_to_operand_dims.size(); ++d_start) {
      const int64_t along = has_index_vector_dim ? d_start * index_strides[index_vector_dim] : 0;
      full_start_index[scatter_dims_to_operand_dims[d_start]] = index_values[base + along];
    }
    if (!previous_full_start_index.empty()) {
      for (int64_t d = 0; d < input_rank; ++d) {
        targets.sorted = targets.sorted && previous_full_start_index[d] <= full_start_index[d];
      }
    }
    previous_full_start_index = full_start_index;

    // full_batching_index + full_window_index: each dimension gets at most
    // one of them (C2), in [0, dim). The start index may be saturated near
    // +-2^63, so it is range-checked before the sum.
    std::fill(result_index.begin(), result_index.end(), 0);
    for (size_t i = 0; i < input_batching_dims.size(); ++i) {
      const int64_t d_start = scatter_indices_batching_dims[i];
      result_index[input_batching_dims[i]] =
          update_scatter_index[d_start - (d_start < index_vector_dim ? 0 : 1)];
    }
    for (size_t i = 0; i < update_window_dims.size(); ++i) {
      result_index[window_input_dims[i]] = update_index[update_window_dims[i]];
    }
    bool in_bounds = true;
    int64_t position = 0;
    for (int64_t d = 0; d < input_rank && in_bounds; ++d) {
      const int64_t start = full_start_index[d];
      in_bounds = -input_shape[d] < start && start < input_shape[d];
      if (!in_bounds) break;
      result_index[d] += start;
      in_bounds = 0 <= result_index[d] && result_index[d] < input_shape[d];
      position += result_index[d] * result_strides[d];
    }
    targets.position.push_back(in_bounds ? position : -1);
    int64_t window = 0;
    for (size_t i = 0; i < update_scatter_dims.size(); ++i) {
      window = window * update_shape[update_scatter_dims[i]] + update_scatter_index[i];
    }
    targets.window.push_back(window);
  }
  return targets;
}

// The other reading of a window that sticks out of the results
// (openxla/stablehlo#1931, and what XLA does): no element of it is
// updated. The spec's text updates its in-bounds elements.
std::vector<int64_t> WholeWindowsOnly(const Targets& targets) {
  std::vector<uint8_t> sticks_out;
  for (size_t u = 0; u < targets.position.size(); ++u) {
    const auto w = static_cast<size_t>(targets.window[u]);
    if (w >= sticks_out.size()) sticks_out.resize(w + 1, 0);
    if (targets.position[u] < 0) sticks_out[w] = 1;
  }
  std::vector<int64_t> position = targets.position;
  for (size_t u = 0; u < position.size(); ++u) {
    if (sticks_out[static_cast<size_t>(targets.window[u])]) position[u] = -1;
  }
  return position;
}

bool SameBytes(const Tensor& a, const Tensor& b) {
  return a.bytes().size() == b.bytes().size() &&
         std::memcmp(a.bytes().data(), b.bytes().data(), a.bytes().size()) == 0;
}

// The values of one result element after applying `updates` (positions in
// the updates) in the given order, starting from `current`. `arguments` is
// scratch space kept between calls, so that its tensors are reused.
absl::StatusOr<std::vector<Tensor>> ApplyInOrder(
    PreparedRegion& computation, std::vector<Tensor> current, const std::vector<Tensor>& updates,
    const std::vector<int64_t>& order, std::vector<Tensor>& arguments, bool* open = nullptr) {
  const size_t n = current.size();
  for (int64_t u : order) {
    arguments.resize(2 * n);
    for (size_t i = 0; i < n; ++i) {
      arguments[i] = current[i];
      arguments[n + i] = ScalarAt(updates[i], u);
    }
    auto values = computation.Call(arguments);
    HLOCHECK_RETURN_IF_ERROR(values.status());
    if (open != nullptr && computation.last_call_open()) *open = true;
    if (values->size() != n) {
      return absl::InvalidArgumentError("scatter: update_computation returned " +
                                        std::to_string(values->size()) + " values");
    }
    current.assign(values->begin(), values->end());
  }
  return current;
}

// The parts (1 for real, 2 for complex) of element `position` as doubles.
template <ElementType T>
void PartsOf(const Tensor& t, int64_t position, double* parts) {
  auto v = t.values<T>()[position];
  if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    parts[0] = ToDouble<kPart>(v.real());
    parts[1] = ToDouble<kPart>(v.imag());
  } else if constexpr (IsFloat(T)) {
    parts[0] = ToDouble<T>(v);
  }
}

// One result of scatter and what an implementation may return instead.
struct ResultBuilder {
  Tensor reference;
  Combiner kind;
  bool bounded = false;  // kErrorBound
  std::vector<double> center_hi, center_lo, bound;
  std::vector<uint8_t> has_bound;  // per element: center and bound set
  FreeElements free;
};

// Turns the result into an error-bound one the first time an element needs
// a bound; the other elements get theirs in FinishBounded.
template <ElementType T>
void MakeBounded(ResultBuilder& r) {
  if (r.bounded) return;
  r.bounded = true;
  constexpr int kParts = IsComplex(T) ? 2 : 1;
  const int64_t count = r.reference.num_elements();
  r.center_hi.assign(count * kParts, 0.0);
  r.center_lo.assign(count * kParts, 0.0);
  r.bound.assign(count * kParts, 0.0);
  r.has_bound.assign(count, 0);
}

// Elements without a bound of their own are exact: center = the reference
// value, bound 0.
void FinishBounded(ResultBuilder& r) {
  if (!r.bounded) return;
  DispatchElementType(r.reference.element_type(), [&]<ElementType T>() {
    constexpr int kParts = IsComplex(T) ? 2 : 1;
    if constexpr (IsFloat(T) || IsComplex(T)) {
      for (int64_t p = 0; p < r.reference.num_elements(); ++p) {
        if (!r.has_bound[p]) PartsOf<T>(r.reference, p, &r.center_hi[p * kParts]);
      }
    }
  });
}

// An element hit by the updates `hits` (k >= 2) of a recognised float
// add or multiply: its bound for any order.
template <ElementType T>
void BoundElement(ResultBuilder& r, const Tensor& input, const Tensor& updates, int64_t position,
                  const std::vector<int64_t>& hits) {
  constexpr int kParts = IsComplex(T) ? 2 : 1;
  MakeBounded<T>(r);
  std::vector<double> terms[kParts];
  double parts[2];
  PartsOf<T>(input, position, parts);
  for (int p = 0; p < kParts; ++p) terms[p].push_back(parts[p]);
  for (int64_t u : hits) {
    PartsOf<T>(updates, u, parts);
    for (int p = 0; p < kParts; ++p) terms[p].push_back(parts[p]);
  }
  const FloatFormat& format = Format(ComponentType(T));
  r.has_bound[position] = 1;
  for (int p = 0; p < kParts; ++p) {
    OrderFreeValue v = r.kind == Combiner::kAdd ? OrderFreeSum(terms[p], format)
                                                : OrderFreeProduct(terms[p], format);
    const size_t i = position * kParts + p;
    r.center_hi[i] = v.hi;
    r.center_lo[i] = v.lo;
    r.bound[i] = v.bound;
    if (v.free) {
      r.free.Mark(position,
                  "repeated indices: some order of the float updates overflows or underflows");
    }
  }
}

// What repeated updates of one result element allow: the same value in
// any order, a bound for any order, or trying the orders.
enum class Policy { kAnyOrder, kBound, kTryOrders };
using BoundFunction = void (*)(ResultBuilder&, const Tensor&, const Tensor&, int64_t,
                               const std::vector<int64_t>&);

constexpr std::string_view kOpenStepReason =
    "an op of update_computation allows more than one value here (a quantized step the "
    "spec's and an integer kernel's readings round apart), which the oracle does not carry "
    "through the computation";

constexpr std::string_view kAnyOrderReason =
    "repeated indices with an update_computation whose result depends on the order: any of the "
    "orders may win";

// scatter: results = exec(schedule, inputs), with updates converted to the
// computation's element types; see the file comment for the schedule.
// `positions`: where each update element goes (-1: nowhere), as one
// reading of the text places them.
Results ScatterAt(const Case& c, const std::vector<int64_t>& positions, bool sorted) {
  std::span<const Tensor> inputs = InputTensors(c, 0);
  std::span<const Tensor> raw_updates = InputTensors(c, 2);
  const Region& computation = c.regions[0];
  // Verified at its first call, then run without the interpreter.
  PreparedRegion prepared(computation);
  std::vector<Tensor> arguments;
  const size_t n = inputs.size();

  // The results start as the inputs; both are converted to the element
  // types E of the computation (is_promotable allows a wider type).
  std::vector<Tensor> current, updates;
  for (size_t i = 0; i < n; ++i) {
    const ElementType e = c.result_types[i].element_type;
    if ((inputs[i].type().quantization != c.result_types[i].quantization ||
         raw_updates[i].type().quantization != c.result_types[i].quantization) &&
        (inputs[i].type().quantization || c.result_types[i].quantization)) {
      return absl::UnimplementedError(
          "unsupported: scatter whose computation's quantized type differs from its inputs' or "
          "updates' (promoting or requantizing them is not in the oracle)");
    }
    auto converted = [&](const Tensor& t) {
      if (t.element_type() == e) return t;
      Tensor out(TensorType{t.shape(), e});
      ConvertElements(t.element_type(), t.bytes().data(), e, out.bytes().data(), t.num_elements());
      return out;
    };
    current.push_back(converted(inputs[i]));
    updates.push_back(converted(raw_updates[i]));
  }

  // The updates that reach each result element, in row-major order.
  const int64_t count = current[0].num_elements();
  std::vector<std::vector<int64_t>> hits(static_cast<size_t>(count));
  for (size_t u = 0; u < positions.size(); ++u) {
    if (positions[u] >= 0) hits[positions[u]].push_back(static_cast<int64_t>(u));
  }
  bool repeated = false;
  for (const auto& h : hits) repeated = repeated || h.size() > 1;

  std::vector<ResultBuilder> results;
  const std::vector<Combiner> kinds = ClassifyCombiners(computation, n);
  for (size_t i = 0; i < n; ++i) {
    results.push_back({current[i], kinds[i], false, {}, {}, {}, {}, FreeElements(count)});
  }
  const bool recognised =
      std::none_of(kinds.begin(), kinds.end(), [](Combiner k) { return k == Combiner::kOther; });

  // What repeated updates of each result allow, decided once per result.
  std::vector<Policy> policy(n, Policy::kTryOrders);
  std::vector<BoundFunction> bound_element(n, nullptr);
  for (size_t i = 0; i < n && recognised; ++i) {
    // A quantized computation works on dequantized values, not on the
    // storage integers the dispatch below would see: its orders are tried.
    if (c.result_types[i].quantization) continue;
    DispatchElementType(c.result_types[i].element_type, [&]<ElementType T>() {
      if (OrderIndependent(kinds[i], T)) {
        policy[i] = Policy::kAnyOrder;
      } else if constexpr (IsFloat(T) || IsComplex(T)) {
        if (Bounded(kinds[i], T)) {
          policy[i] = Policy::kBound;
          bound_element[i] = &BoundElement<T>;
        }
      }
    });
  }

  std::vector<Tensor> start(n);
  for (int64_t position = 0; position < count; ++position) {
    const std::vector<int64_t>& h = hits[position];
    if (h.empty()) continue;
    for (size_t i = 0; i < n; ++i) start[i] = ScalarAt(current[i], position);
    bool open = false;
    auto reference = ApplyInOrder(prepared, start, updates, h, arguments, &open);
    HLOCHECK_RETURN_IF_ERROR(reference.status());
    // An op of the computation allowed more than its reference (a quantized
    // step two readings round apart): the reference is one value of many.
    if (open) {
      for (size_t i = 0; i < n; ++i) results[i].free.Mark(position, kOpenStepReason);
    }
    std::vector<bool> settled(n, h.size() == 1);
    if (h.size() > 1) {
      for (size_t i = 0; i < n; ++i) {
        if (policy[i] == Policy::kAnyOrder) settled[i] = true;
        if (policy[i] == Policy::kBound) {
          bound_element[i](results[i], current[i], updates[i], position, h);
          settled[i] = true;
        }
      }
    }
    const bool all_settled = std::all_of(settled.begin(), settled.end(), [](bool s) { return s; });
    if (!all_settled) {
      // Identical updates commute; otherwise try every order if there are few.
      bool identical = true;
      for (size_t i = 0; i < n; ++i) {
        for (int64_t u : h) {
          identical = identical && SameBytes(ScalarAt(updates[i], u), ScalarAt(updates[i], h[0]));
        }
      }
      std::vector<bool> agree(n, identical);
      if (!identical && static_cast<int64_t>(h.size()) <= kMaxOrdersTried) {
        agree.assign(n, true);
        std::vector<int64_t> order = h;
        std::sort(order.begin(), order.end());
        while (std::next_permutation(order.begin(), order.end())) {
          auto other = ApplyInOrder(prepared, start, updates, order, arguments);
          HLOCHECK_RETURN_IF_ERROR(other.status());
          for (size_t i = 0; i < n; ++i) {
            agree[i] = agree[i] && SameBytes((*other)[i], (*reference)[i]);
          }
        }
      }
      for (size_t i = 0; i < n; ++i) {
        if (!settled[i] && !agree[i]) results[i].free.Mark(position, kAnyOrderReason);
      }
    }
    // A complex product with an infinite or NaN part is implementation-
    // defined (the multiply op says so too); a region call keeps only its
    // reference value.
    for (size_t i = 0; i < n; ++i) {
      if (kinds[i] != Combiner::kMultiply && kinds[i] != Combiner::kOther) continue;
      DispatchElementType(current[i].element_type(), [&]<ElementType T>() {
        if constexpr (IsComplex(T)) {
          auto finite = [](ContainerT<T> z) {
            return std::isfinite(z.real()) && std::isfinite(z.imag());
          };
          bool special =
              !finite(current[i].values<T>()[position]) || !finite((*reference)[i].values<T>()[0]);
          for (int64_t u : h) special = special || !finite(updates[i].values<T>()[u]);
          if (special) {
            results[i].free.Mark(position,
                                 "a complex product with infinite or NaN parts is "
                                 "implementation-defined");
          }
        }
      });
    }
    for (size_t i = 0; i < n; ++i) {
      const size_t bytes = ContainerBytes(results[i].reference.element_type());
      std::memcpy(results[i].reference.bytes().data() + position * bytes,
                  (*reference)[i].bytes().data(), bytes);
    }
  }

  // Undefined behaviour: the promise of indices_are_sorted or
  // unique_indices is broken.
  std::string undefined;
  if (FlagOrFalse(c, "indices_are_sorted") && !sorted) {
    undefined =
        "indices_are_sorted is true but the scatter indices are not sorted: the spec makes the "
        "behaviour undefined";
  } else if (FlagOrFalse(c, "unique_indices") && repeated) {
    undefined =
        "unique_indices is true but some result_index is updated more than once: the spec makes "
        "the behaviour undefined";
  }

  std::vector<ResultExpectation> expectations(n);
  for (size_t i = 0; i < n; ++i) {
    ResultExpectation& e = expectations[i];
    ResultBuilder& r = results[i];
    FinishBounded(r);
    if (!undefined.empty()) {
      for (int64_t p = 0; p < count; ++p) r.free.Mark(p, undefined);
    }
    e.reference = std::move(r.reference);
    e.check = r.bounded ? Check::kErrorBound : Check::kExact;
    e.center_hi = std::move(r.center_hi);
    e.center_lo = std::move(r.center_lo);
    e.bound = std::move(r.bound);
    std::move(r.free).MoveInto(e);
  }
  return expectations;
}

Results Scatter(const Case& c) {
  const Targets targets = ResultPositions(c, InputTensors(c, 0)[0].shape(), InputTensors(c, 1)[0],
                                          InputTensors(c, 2)[0].shape());
  auto text = ScatterAt(c, targets.position, targets.sorted);
  HLOCHECK_RETURN_IF_ERROR(text.status());
  const std::vector<int64_t> whole_windows = WholeWindowsOnly(targets);
  if (whole_windows == targets.position) return text;
  // Some window sticks out of the results: its in-bounds elements may be
  // updated (the text) or not (the reading).
  auto other = ScatterAt(c, whole_windows, targets.sorted);
  HLOCHECK_RETURN_IF_ERROR(other.status());
  const int64_t count = text->front().reference.num_elements();
  std::vector<uint8_t> differs(static_cast<size_t>(count), 0);
  for (size_t u = 0; u < whole_windows.size(); ++u) {
    if (whole_windows[u] != targets.position[u]) differs[targets.position[u]] = 1;
  }
  for (size_t i = 0; i < text->size(); ++i) {
    ResultExpectation& e = (*text)[i];
    e.reading_differs = differs;
    e.other_reading_reason =
        "an update window partly out of bounds: the spec's text updates its in-bounds elements, "
        "openxla/stablehlo#1931 (and XLA) leave the whole window out";
    e.other_reading = std::make_shared<const ResultExpectation>(std::move((*other)[i]));
  }
  return text;
}

}  // namespace

std::vector<OpEntry> DataMovementScatterOps() { return {{"scatter", Scatter}}; }

}  // namespace hlocheck::oracle
