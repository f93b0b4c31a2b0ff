// Reductions (seed 002: reduce, reduce_window, select_and_scatter). A body whose every output is
// one recognised combiner of its pair of arguments (add, multiply, maximum, minimum, and, or, xor:
// region.h) runs a typed kernel per result, in one of three layouts; any other body is evaluated
// element by element. Every schedule here uses each init value once, then the slice: the public
// interpreter's tree where the order matters to the result type, a tree of
// eight interleaved partial results (so that the loop vectorises) for rows
// of a recognised combiner.
#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adapters/cpu/combiner_kernels.h"
#include "adapters/cpu/quantization_internal.h"
#include "adapters/cpu/region.h"

namespace hlocheck::cpu {
namespace {

template <typename... Parts>
absl::Status Invalid(const Case& c, const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat(c.op, ": ", parts...));
}

// Where each result element's slice lies in the inputs: its base offset
// (the kept dimensions) plus the offsets of the reduced dimensions in
// ascending index order.
struct SliceLayout {
  std::vector<int64_t> bases;
  std::vector<int64_t> slice;
  // slice[r] == r: the reduced dimensions are the innermost ones, so each
  // slice is a contiguous row.
  bool rows = false;
  // bases[o] == o: the kept dimensions are the innermost ones, so the
  // results advance together through contiguous blocks of the inputs.
  bool columns = false;
};

SliceLayout LayoutOf(const Shape& shape, std::vector<int64_t> dimensions) {
  std::sort(dimensions.begin(), dimensions.end());
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (!std::binary_search(dimensions.begin(), dimensions.end(), d)) kept.push_back(d);
  }
  SliceLayout layout;
  layout.bases = SubspaceOffsets(shape, kept);
  layout.slice = SubspaceOffsets(shape, dimensions);
  layout.rows = true;
  for (size_t r = 0; r < layout.slice.size() && layout.rows; ++r) {
    layout.rows = layout.slice[r] == static_cast<int64_t>(r);
  }
  layout.columns = true;
  for (size_t o = 0; o < layout.bases.size() && layout.columns; ++o) {
    layout.columns = layout.bases[o] == static_cast<int64_t>(o);
  }
  return layout;
}

// One result of a recognised combiner (its scalar function `combine` on T).
template <ElementType T, typename Combine>
void ReduceWithCombiner(const Combine& combine, const Tensor& input, const Tensor& init,
                        const SliceLayout& layout, Tensor& result, const Device& device) {
  using C = ContainerT<T>;
  const C* in = input.values<T>().data();
  C* out = result.values<T>().data();
  const C init_value = init.values<T>()[0];
  const auto outputs = static_cast<int64_t>(layout.bases.size());
  const auto length = static_cast<int64_t>(layout.slice.size());
  const double cost = static_cast<double>(std::max<int64_t>(length, 1));
  if (layout.rows && length >= 16) {
    // Eight partial results over interleaved elements, combined pairwise,
    // then with the init value: one tree among those the spec allows.
    constexpr int kLanes = 8;
    ParallelFor(device, outputs, sizeof(C) * cost, cost, [&](int64_t first, int64_t last) {
      for (int64_t o = first; o < last; ++o) {
        const C* row = in + layout.bases[o];
        C lanes[kLanes];
        std::copy(row, row + kLanes, lanes);
        int64_t r = kLanes;
        for (; r + kLanes <= length; r += kLanes) {
          for (int j = 0; j < kLanes; ++j) lanes[j] = combine(lanes[j], row[r + j]);
        }
        for (int j = 0; r < length; ++r, ++j) lanes[j] = combine(lanes[j], row[r]);
        for (int width = kLanes / 2; width > 0; width /= 2) {
          for (int j = 0; j < width; ++j) lanes[j] = combine(lanes[j], lanes[j + width]);
        }
        out[o] = combine(init_value, lanes[0]);
      }
    });
    return;
  }
  if (layout.columns && length > 0) {
    // results[o] = init, then each slice element in turn: every step reads
    // a contiguous block of the inputs.
    ParallelFor(device, outputs, sizeof(C) * cost, cost, [&](int64_t first, int64_t last) {
      std::fill(out + first, out + last, init_value);
      for (int64_t offset : layout.slice) {
        const C* block = in + offset;
        for (int64_t o = first; o < last; ++o) out[o] = combine(out[o], block[o]);
      }
    });
    return;
  }
  ParallelFor(device, outputs, sizeof(C) * cost, cost, [&](int64_t first, int64_t last) {
    for (int64_t o = first; o < last; ++o) {
      C value = init_value;
      const C* base = in + layout.bases[o];
      for (int64_t offset : layout.slice) value = combine(value, base[offset]);
      out[o] = value;
    }
  });
}

// A quantized body of add, maximum or minimum runs as production integer
// kernels run it: offsets (storage - zero_point) summed in 64-bit integers
// (TFLite accumulates in i32; wider here, so that no slice wraps), the zero
// point added back and the sum saturated to [storage_min, storage_max] once;
// maximum and minimum on the storage integers (a positive scale keeps their
// order). The same scale and zero point on every value (SupportsReduce).
bool QuantizedKernelCovers(Combiner kind) {
  return kind == Combiner::kAdd || kind == Combiner::kMaximum || kind == Combiner::kMinimum;
}

bool AllCovered(const std::vector<Combiner>& kinds, const Case& c) {
  for (size_t i = 0; i < kinds.size(); ++i) {
    const TensorType& result = c.result_types[i];
    if (result.quantization ? !QuantizedKernelCovers(kinds[i])
                            : !KernelCovers(kinds[i], result.element_type)) {
      return false;
    }
  }
  return true;
}

// The inputs or the init values in the body's element types E
// (is_promotable lets them be wider): converted copies only where the types
// differ, the operands themselves elsewhere.
class BodyValues {
 public:
  BodyValues(std::span<const Tensor> values, const Case& c, const Device& device) {
    converted_.reserve(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      const ElementType type = c.result_types[i].element_type;
      if (values[i].element_type() == type) {
        tensors_.push_back(&values[i]);
        continue;
      }
      converted_.emplace_back(TensorType{values[i].shape(), type});
      ConvertBuffer(values[i].element_type(), values[i].raw(), type, converted_.back().raw(),
                    values[i].num_elements(), device);
      tensors_.push_back(&converted_.back());
    }
  }
  const Tensor& operator[](size_t i) const { return *tensors_[i]; }
  size_t size() const { return tensors_.size(); }

 private:
  std::vector<Tensor> converted_;  // reserved up front: tensors_ points into it
  std::vector<const Tensor*> tensors_;
};

// Where one result element's values lie in the inputs, or kInitValue for
// an element of padding (reduce_window pads with the init values).
constexpr int64_t kInitValue = -1;

// Any body: per result element, the init values, then the values at
// positions(o, at), in order.
template <typename Positions>
absl::Status ReduceWithBody(const RegionEvaluator& evaluator, const BodyValues& inputs,
                            const BodyValues& init_values, int64_t outputs,
                            double values_per_output, Positions&& positions, Results& results,
                            const Device& device) {
  const size_t n = inputs.size();
  std::vector<int64_t> bytes;
  for (const Tensor& result : results) bytes.push_back(ContainerBytes(result.element_type()));
  const double cost = 64.0 * std::max(values_per_output, 1.0);
  std::vector<absl::Status> statuses(static_cast<size_t>(std::max<int64_t>(outputs, 1)));
  ParallelFor(device, outputs, cost, cost, [&](int64_t first, int64_t last) {
    RegionEvaluator local = evaluator;
    const Eigen::ThreadPoolDevice inline_device = InlineDevice(device);
    std::vector<const void*> arguments(2 * n);
    std::vector<void*> values(n);
    std::vector<int64_t> at;
    for (int64_t o = first; o < last; ++o) {
      for (size_t i = 0; i < n; ++i) {
        values[i] = results[i].bytes().data() + o * bytes[i];
        std::memcpy(values[i], init_values[i].bytes().data(), bytes[i]);
        arguments[i] = values[i];
      }
      at.clear();
      positions(o, at);
      for (int64_t a : at) {
        for (size_t i = 0; i < n; ++i) {
          arguments[n + i] = a == kInitValue ? init_values[i].bytes().data()
                                             : inputs[i].bytes().data() + a * bytes[i];
        }
        if (absl::Status status = local.Evaluate(arguments, values, inline_device); !status.ok()) {
          statuses[o] = status;
          return;
        }
      }
    }
  });
  for (absl::Status& status : statuses) HLOCHECK_RETURN_IF_ERROR(status);
  return absl::OkStatus();
}

// One result of a quantized reduction whose body QuantizedKernelCovers:
// result element o reduces the init value and the values at positions(o,
// at) (kInitValue: the init value again, reduce_window's padding).
template <typename Positions>
void ReduceQuantized(Combiner kind, const Tensor& input, const Tensor& init, int64_t outputs,
                     Positions&& positions, Tensor& result) {
  const UniformQuantization& q = *result.type().quantization;
  const int64_t zero_point = q.zero_points[0];
  const std::vector<int64_t> in = WidenedStorage(input);
  const int64_t init_value = WidenedStorage(init)[0];
  std::vector<int64_t> out(static_cast<size_t>(outputs));
  std::vector<int64_t> at;
  for (int64_t o = 0; o < outputs; ++o) {
    at.clear();
    positions(o, at);
    auto value = [&](int64_t a) { return a == kInitValue ? init_value : in[a]; };
    if (kind == Combiner::kAdd) {
      int64_t offsets = init_value - zero_point;
      for (int64_t a : at) offsets += value(a) - zero_point;
      out[o] = std::clamp(offsets + zero_point, q.storage_min, q.storage_max);
    } else {
      int64_t extreme = init_value;
      for (int64_t a : at) {
        extreme =
            kind == Combiner::kMaximum ? std::max(extreme, value(a)) : std::min(extreme, value(a));
      }
      out[o] = extreme;
    }
  }
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      auto values = result.values<T>();
      for (size_t o = 0; o < out.size(); ++o) values[o] = static_cast<ContainerT<T>>(out[o]);
    }
  });
}

// The body's argument types: the types E of the results' elements, twice
// (quantized where they are).
std::vector<TensorType> BodyArguments(const Case& c) {
  std::vector<TensorType> types;
  for (int pass = 0; pass < 2; ++pass) {
    for (const TensorType& t : c.result_types) types.push_back(ScalarOf(t));
  }
  return types;
}

std::vector<TensorType> BodyResults(const Case& c) {
  std::vector<TensorType> types;
  for (const TensorType& t : c.result_types) types.push_back(ScalarOf(t));
  return types;
}

// Quantized reductions here keep their inputs' types: a body of a wider
// storage type or other parameters would convert them (is_promotable's
// storage promotion, or requantization), which this backend does not.
AdapterSupport SupportsQuantizedTypes(const Case& c) {
  for (const Tensor& operand : c.operands) {
    if (!operand.type().quantization) continue;
    if (operand.type().quantization->quantization_dimension) {
      return AdapterSupport::No(c.op + ": per-axis quantized operands");
    }
    bool matched = false;
    for (const TensorType& result : c.result_types) {
      matched = matched || (result.element_type == operand.element_type() &&
                            result.quantization == operand.type().quantization);
    }
    if (!matched) {
      return AdapterSupport::No(c.op +
                                ": a quantized operand of another type than its result "
                                "(promotion or requantization)");
    }
  }
  return AdapterSupport::Yes();
}

AdapterSupport SupportsReduce(const Case& c) {
  if (AdapterSupport support = SupportsQuantizedTypes(c); !support.supported) return support;
  const size_t n = c.result_types.size();
  if (c.regions.size() != 1 || AllCovered(ClassifyCombiners(c.regions[0], n), c)) {
    return AdapterSupport::Yes();
  }
  absl::StatusOr<RegionEvaluator> evaluator =
      RegionEvaluator::Create(c.regions[0], BodyArguments(c), BodyResults(c), "reduce: body");
  // A malformed body is Run's to report.
  return evaluator.ok() ? evaluator->support() : AdapterSupport::Yes();
}

absl::StatusOr<Results> RunReduce(const Case& c, const Device& device) {
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<std::span<const Tensor>> groups,
                            OperandGroups(c, {true, true}));
  const std::span<const Tensor> inputs = groups[0];
  const std::span<const Tensor> init_values = groups[1];
  const size_t n = inputs.size();
  if (n == 0 || init_values.size() != n || c.result_types.size() != n) {
    return Invalid(c, "needs N > 0 inputs, N init values and N results, not ", n, ", ",
                   init_values.size(), " and ", c.result_types.size());
  }
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> dimensions, IntListAttribute(c, "dimensions"));
  const Shape& shape = inputs[0].shape();
  std::vector<bool> reduced(shape.size(), false);
  for (int64_t d : dimensions) {
    if (d < 0 || d >= static_cast<int64_t>(shape.size()) || reduced[d]) {
      return Invalid(c, "dimensions [", absl::StrJoin(dimensions, ", "),
                     "] are not unique dimensions of ", inputs[0].type().ToString());
    }
    reduced[d] = true;
  }
  Shape result_shape;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) result_shape.push_back(shape[d]);
  }
  for (size_t i = 0; i < n; ++i) {
    const TensorType& result = c.result_types[i];
    if (inputs[i].shape() != shape || !init_values[i].shape().empty() ||
        init_values[i].element_type() != inputs[i].element_type() || result.shape != result_shape ||
        Kind(result.element_type) != Kind(inputs[i].element_type())) {
      return Invalid(c, "input ", i, " ", inputs[i].type().ToString(), ", init value ",
                     init_values[i].type().ToString(), " and result ", result.ToString(),
                     " do not fit together");
    }
  }
  if (c.regions.size() != 1) return Invalid(c, "needs one body");
  HLOCHECK_ASSIGN_OR_RETURN(
      RegionEvaluator evaluator,
      RegionEvaluator::Create(c.regions[0], BodyArguments(c), BodyResults(c), "reduce: body"));
  const std::vector<Combiner> kinds = ClassifyCombiners(c.regions[0], n);
  const bool kernels = AllCovered(kinds, c);
  if (!kernels && !evaluator.support().supported) {
    return absl::UnimplementedError(evaluator.support().reason);
  }

  const BodyValues body_inputs(inputs, c, device);
  const BodyValues body_init_values(init_values, c, device);
  const SliceLayout layout = LayoutOf(shape, dimensions);
  Results results;
  for (const TensorType& type : c.result_types) results.push_back(NewResult(type));
  if (!kernels) {
    HLOCHECK_RETURN_IF_ERROR(ReduceWithBody(
        evaluator, body_inputs, body_init_values, static_cast<int64_t>(layout.bases.size()),
        static_cast<double>(layout.slice.size()),
        [&](int64_t o, std::vector<int64_t>& at) {
          for (int64_t offset : layout.slice) at.push_back(layout.bases[o] + offset);
        },
        results, device));
    return results;
  }
  for (size_t i = 0; i < n; ++i) {
    if (c.result_types[i].quantization) {
      ReduceQuantized(
          kinds[i], body_inputs[i], body_init_values[i], static_cast<int64_t>(layout.bases.size()),
          [&](int64_t o, std::vector<int64_t>& at) {
            for (int64_t offset : layout.slice) at.push_back(layout.bases[o] + offset);
          },
          results[i]);
      continue;
    }
    DispatchElementType(results[i].element_type(), [&]<ElementType T>() {
      WithCombineFunction<T>(kinds[i], [&](const auto& combine) {
        ReduceWithCombiner<T>(combine, body_inputs[i], body_init_values[i], layout, results[i],
                              device);
      });
    });
  }
  return results;
}

// ------------------------------------------------------------ reduce_window

// The windows of reduce_window: the inputs padded with the init values
// (low, high and interior base_dilations - 1), and for each result index the
// elements result_index * window_strides + window_index * window_dilations.
struct Windows {
  Shape input_shape;
  std::vector<int64_t> input_strides;
  Shape result_shape;
  Shape window;
  std::vector<int64_t> strides, base_dilations, window_dilations, padding;

  // Appends the input positions of result element `o`'s window, kInitValue
  // for padding, in the window's row-major order.
  void Positions(int64_t o, std::vector<int64_t>& at) const {
    const auto rank = static_cast<int64_t>(input_shape.size());
    int64_t result_index[kMaxRank];
    for (int64_t d = rank - 1; d >= 0; --d) {
      result_index[d] = o % result_shape[d];
      o /= result_shape[d];
    }
    for (IndexIterator it(window); !it.done(); it.Next()) {
      int64_t offset = 0;
      for (int64_t d = 0; d < rank; ++d) {
        const int64_t dilated =
            result_index[d] * strides[d] + it.index()[d] * window_dilations[d] - padding[2 * d];
        if (dilated < 0 || dilated % base_dilations[d] != 0 ||
            dilated / base_dilations[d] >= input_shape[d]) {
          offset = kInitValue;
          break;
        }
        offset += dilated / base_dilations[d] * input_strides[d];
      }
      at.push_back(offset);
    }
  }
};

absl::StatusOr<Windows> ReadWindows(const Case& c, const Shape& input_shape) {
  const auto rank = static_cast<int64_t>(input_shape.size());
  Windows w;
  w.input_shape = input_shape;
  w.input_strides = RowMajorStrides(input_shape);
  const std::vector<int64_t> ones(static_cast<size_t>(rank), 1);
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> window, IntListAttribute(c, "window_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(w.strides, IntListAttribute(c, "window_strides", ones));
  HLOCHECK_ASSIGN_OR_RETURN(w.base_dilations, IntListAttribute(c, "base_dilations", ones));
  HLOCHECK_ASSIGN_OR_RETURN(w.window_dilations, IntListAttribute(c, "window_dilations", ones));
  HLOCHECK_ASSIGN_OR_RETURN(w.padding, IntMatrixAttribute(c, "padding", rank, 2));
  w.window.assign(window.begin(), window.end());
  if (rank > kMaxRank) return Invalid(c, "rank ", rank, " is above ", kMaxRank);
  for (const std::vector<int64_t>* list :
       {&window, &w.strides, &w.base_dilations, &w.window_dilations}) {
    if (static_cast<int64_t>(list->size()) != rank ||
        std::any_of(list->begin(), list->end(), [](int64_t x) { return x < 1; })) {
      return Invalid(c, "window_dimensions, window_strides and the dilations need ", rank,
                     " positive values each");
    }
  }
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t dilated =
        input_shape[d] == 0 ? 0 : (input_shape[d] - 1) * w.base_dilations[d] + 1;
    const int64_t padded = w.padding[2 * d] + dilated + w.padding[2 * d + 1];
    const int64_t dilated_window = (window[d] - 1) * w.window_dilations[d] + 1;
    if (padded < 0) return Invalid(c, "padding makes dimension ", d, " negative");
    w.result_shape.push_back(
        padded == 0 || dilated_window > padded ? 0 : (padded - dilated_window) / w.strides[d] + 1);
  }
  return w;
}

// One result of a recognised combiner (`combine` on T): the init value,
// then the window in row-major order (padding elements are the init value).
template <ElementType T, typename Combine>
void ReduceWindowsWithCombiner(const Combine& combine, const Tensor& input, const Tensor& init,
                               const Windows& windows, Tensor& result, const Device& device) {
  using C = ContainerT<T>;
  const C* in = input.values<T>().data();
  C* out = result.values<T>().data();
  const C init_value = init.values<T>()[0];
  const double cost = static_cast<double>(std::max<int64_t>(NumElements(windows.window), 1));
  ParallelFor(device, result.num_elements(), sizeof(C) * cost, 4 * cost,
              [&](int64_t first, int64_t last) {
                std::vector<int64_t> at;
                for (int64_t o = first; o < last; ++o) {
                  at.clear();
                  windows.Positions(o, at);
                  C value = init_value;
                  for (int64_t a : at) value = combine(value, a == kInitValue ? init_value : in[a]);
                  out[o] = value;
                }
              });
}

AdapterSupport SupportsReduceWindow(const Case& c) { return SupportsReduce(c); }

absl::StatusOr<Results> RunReduceWindow(const Case& c, const Device& device) {
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<std::span<const Tensor>> groups,
                            OperandGroups(c, {true, true}));
  const std::span<const Tensor> inputs = groups[0];
  const std::span<const Tensor> init_values = groups[1];
  const size_t n = inputs.size();
  if (n == 0 || init_values.size() != n || c.result_types.size() != n) {
    return Invalid(c, "needs N > 0 inputs, N init values and N results, not ", n, ", ",
                   init_values.size(), " and ", c.result_types.size());
  }
  const Shape& shape = inputs[0].shape();
  HLOCHECK_ASSIGN_OR_RETURN(Windows windows, ReadWindows(c, shape));
  for (size_t i = 0; i < n; ++i) {
    const TensorType& result = c.result_types[i];
    if (inputs[i].shape() != shape || !init_values[i].shape().empty() ||
        init_values[i].element_type() != inputs[i].element_type() ||
        result.shape != windows.result_shape ||
        Kind(result.element_type) != Kind(inputs[i].element_type())) {
      return Invalid(c, "input ", i, " ", inputs[i].type().ToString(), ", init value ",
                     init_values[i].type().ToString(), " and result ", result.ToString(),
                     " do not fit together (the windows give ", ShapeToString(windows.result_shape),
                     ")");
    }
  }
  if (c.regions.size() != 1) return Invalid(c, "needs one body");
  HLOCHECK_ASSIGN_OR_RETURN(RegionEvaluator evaluator,
                            RegionEvaluator::Create(c.regions[0], BodyArguments(c), BodyResults(c),
                                                    "reduce_window: body"));
  const std::vector<Combiner> kinds = ClassifyCombiners(c.regions[0], n);
  const bool kernels = AllCovered(kinds, c);
  if (!kernels && !evaluator.support().supported) {
    return absl::UnimplementedError(evaluator.support().reason);
  }
  const BodyValues body_inputs(inputs, c, device);
  const BodyValues body_init_values(init_values, c, device);
  Results results;
  for (const TensorType& type : c.result_types) results.push_back(NewResult(type));
  if (!kernels) {
    HLOCHECK_RETURN_IF_ERROR(ReduceWithBody(
        evaluator, body_inputs, body_init_values, results[0].num_elements(),
        static_cast<double>(NumElements(windows.window)),
        [&](int64_t o, std::vector<int64_t>& at) { windows.Positions(o, at); }, results, device));
    return results;
  }
  for (size_t i = 0; i < n; ++i) {
    if (c.result_types[i].quantization) {
      ReduceQuantized(
          kinds[i], body_inputs[i], body_init_values[i], results[i].num_elements(),
          [&](int64_t o, std::vector<int64_t>& at) { windows.Positions(o, at); }, results[i]);
      continue;
    }
    DispatchElementType(results[i].element_type(), [&]<ElementType T>() {
      WithCombineFunction<T>(kinds[i], [&](const auto& combine) {
        ReduceWindowsWithCombiner<T>(combine, body_inputs[i], body_init_values[i], windows,
                                     results[i], device);
      });
    });
  }
  return results;
}

// ------------------------------------------------------- select_and_scatter

// select_and_scatter: each window of operand (padding positions hold no
// element) selects one element, select folded from left to right over the
// window; then each result element starts at init_value and takes, in
// source order, scatter(itself, source value) for each window that
// selected it. A window without an operand element scatters nothing
// (the spec leaves it unspecified, openxla/stablehlo#731).
std::vector<TensorType> SelectArguments(const Case& c) {
  return {ScalarOf(c.operands[0].type()), ScalarOf(c.operands[0].type())};
}

std::vector<TensorType> ScatterArguments(const Case& c) {
  return {ScalarOf(c.result_types[0]), ScalarOf(c.result_types[0])};
}

const TensorType kSelectResult(Shape{}, ElementType::kI1);

// The scatter body's kernel: a recognised combiner of a plain result (a
// quantized one runs its body: each step this backend's quantized op).
bool ScatterKernel(const std::vector<Combiner>& kinds, const Case& c) {
  return !c.result_types[0].quantization && AllCovered(kinds, c);
}

AdapterSupport SupportsSelectAndScatter(const Case& c) {
  if (AdapterSupport support = SupportsQuantizedTypes(c); !support.supported) return support;
  if (c.regions.size() != 2 || c.result_types.size() != 1) return AdapterSupport::Yes();
  absl::StatusOr<RegionEvaluator> select = RegionEvaluator::Create(
      c.regions[0], SelectArguments(c), {&kSelectResult, 1}, "select_and_scatter: select");
  if (select.ok() && !select->support().supported) return select->support();
  const std::vector<Combiner> kinds = ClassifyCombiners(c.regions[1], 1);
  if (ScatterKernel(kinds, c)) return AdapterSupport::Yes();
  const std::vector<TensorType> result = {ScalarOf(c.result_types[0])};
  absl::StatusOr<RegionEvaluator> scatter = RegionEvaluator::Create(
      c.regions[1], ScatterArguments(c), result, "select_and_scatter: scatter");
  return scatter.ok() ? scatter->support() : AdapterSupport::Yes();
}

absl::StatusOr<Results> RunSelectAndScatter(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 3));
  const Tensor& operand = c.operands[0];
  const Tensor& source = c.operands[1];
  const Tensor& init = c.operands[2];
  if (c.regions.size() != 2) return Invalid(c, "needs a select and a scatter");
  HLOCHECK_ASSIGN_OR_RETURN(Windows windows, ReadWindows(c, operand.shape()));
  const TensorType& result_type = c.result_types[0];
  if (source.shape() != windows.result_shape || source.element_type() != operand.element_type() ||
      !init.shape().empty() || init.element_type() != operand.element_type() ||
      result_type.shape != operand.shape() ||
      Kind(result_type.element_type) != Kind(operand.element_type())) {
    return Invalid(c, "operand ", operand.type().ToString(), ", source ", source.type().ToString(),
                   ", init value ", init.type().ToString(), " and result ", result_type.ToString(),
                   " do not fit together (the windows give ", ShapeToString(windows.result_shape),
                   ")");
  }
  HLOCHECK_ASSIGN_OR_RETURN(
      RegionEvaluator select,
      RegionEvaluator::Create(c.regions[0], SelectArguments(c), {&kSelectResult, 1},
                              "select_and_scatter: select"));
  if (!select.support().supported) return absl::UnimplementedError(select.support().reason);
  const std::vector<TensorType> result_types = {ScalarOf(result_type)};
  HLOCHECK_ASSIGN_OR_RETURN(RegionEvaluator scatter,
                            RegionEvaluator::Create(c.regions[1], ScatterArguments(c), result_types,
                                                    "select_and_scatter: scatter"));
  const std::vector<Combiner> kinds = ClassifyCombiners(c.regions[1], 1);
  const bool use_kernel = ScatterKernel(kinds, c);
  if (!use_kernel && !scatter.support().supported) {
    return absl::UnimplementedError(scatter.support().reason);
  }

  // Each window's selected operand position (-1: none), windows in parallel.
  const int64_t count = source.num_elements();
  const int64_t bytes = ContainerBytes(operand.element_type());
  std::vector<int64_t> selected(static_cast<size_t>(count), -1);
  std::vector<absl::Status> statuses(static_cast<size_t>(std::max<int64_t>(count, 1)));
  const double cost = 64.0 * static_cast<double>(std::max<int64_t>(NumElements(windows.window), 1));
  ParallelFor(device, count, cost, cost, [&](int64_t first, int64_t last) {
    RegionEvaluator local = select;
    const Eigen::ThreadPoolDevice inline_device = InlineDevice(device);
    std::vector<int64_t> at;
    uint8_t keep = 0;
    void* keep_out = &keep;
    for (int64_t w = first; w < last; ++w) {
      at.clear();
      windows.Positions(w, at);
      int64_t best = -1;
      for (int64_t a : at) {
        if (a == kInitValue) continue;
        if (best < 0) {
          best = a;
          continue;
        }
        const void* arguments[2] = {operand.bytes().data() + best * bytes,
                                    operand.bytes().data() + a * bytes};
        if (absl::Status status = local.Evaluate(arguments, {&keep_out, 1}, inline_device);
            !status.ok()) {
          statuses[w] = status;
          return;
        }
        if (keep == 0) best = a;
      }
      selected[w] = best;
    }
  });
  for (absl::Status& status : statuses) HLOCHECK_RETURN_IF_ERROR(status);

  // init_value everywhere, then the source values in source order.
  const std::vector<Tensor> source_group = {source};
  const std::vector<Tensor> init_group = {init};
  const BodyValues values(source_group, c, device);
  const BodyValues init_value(init_group, c, device);
  Tensor result = NewResult(result_type);
  const int64_t result_bytes = ContainerBytes(result_type.element_type);
  for (int64_t p = 0; p < result.num_elements(); ++p) {
    std::memcpy(result.bytes().data() + p * result_bytes, init_value[0].bytes().data(),
                result_bytes);
  }
  const bool kernel =
      use_kernel && DispatchElementType(result_type.element_type, [&]<ElementType T>() {
        return WithCombineFunction<T>(kinds[0], [&](const auto& combine) {
          auto out = result.values<T>();
          auto in = values[0].values<T>();
          for (int64_t w = 0; w < count; ++w) {
            if (selected[w] >= 0) out[selected[w]] = combine(out[selected[w]], in[w]);
          }
        });
      });
  if (!kernel) {
    const Eigen::ThreadPoolDevice inline_device = InlineDevice(device);
    for (int64_t w = 0; w < count; ++w) {
      if (selected[w] < 0) continue;
      void* out = result.bytes().data() + selected[w] * result_bytes;
      const void* arguments[2] = {out, values[0].bytes().data() + w * result_bytes};
      HLOCHECK_RETURN_IF_ERROR(scatter.Evaluate(arguments, {&out, 1}, inline_device));
    }
  }
  return OneResult(std::move(result));
}

}  // namespace

std::vector<OpEntry> ReductionOps() {
  return {
      {"reduce", kVariadic, &SupportsReduce, &RunReduce},
      {"reduce_window", kVariadic, &SupportsReduceWindow, &RunReduceWindow},
      {"select_and_scatter", 3, &SupportsSelectAndScatter, &RunSelectAndScatter},
  };
}

}  // namespace hlocheck::cpu
