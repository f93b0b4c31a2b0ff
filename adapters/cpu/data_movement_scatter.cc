// scatter: results equal to the inputs (converted to the element types of
// update_computation), except that every update element whose result_index
// is in bounds is combined into results...[result_index] by
// update_computation. result_index is computed for each update element as
// the spec defines it, so the in-bounds part of a window is applied and the
// rest skipped.
//
// The spec applies the updates in an implementation-defined order. Here
// every result element receives its updates in row-major order of the
// updates, and the result elements are shared out among the threads, so no
// element is touched by two threads. The common combiners (region.h) run as
// typed kernels, dispatched once per result; any other body is evaluated
// element by element through the adapter's op table.
#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adapters/cpu/combiner_kernels.h"
#include "adapters/cpu/region.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// Below this many updates one thread applies them all: sharing out the
// result elements makes every thread read every update.
constexpr int64_t kParallelUpdates = int64_t{1} << 14;

struct ScatterDims {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
};

template <typename... Parts>
absl::Status Invalid(const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat("scatter: ", parts...));
}

absl::StatusOr<ScatterDims> ReadDims(const Case& c) {
  ScatterDims d;
  const std::pair<const char*, std::vector<int64_t>*> lists[] = {
      {"update_window_dims", &d.update_window_dims},
      {"inserted_window_dims", &d.inserted_window_dims},
      {"input_batching_dims", &d.input_batching_dims},
      {"scatter_indices_batching_dims", &d.scatter_indices_batching_dims},
      {"scatter_dims_to_operand_dims", &d.scatter_dims_to_operand_dims},
  };
  for (const auto& [name, list] : lists) {
    // The batching dimensions are the public spec's, absent by default.
    const bool optional = std::string_view(name).ends_with("batching_dims");
    absl::StatusOr<std::vector<int64_t>> values =
        optional ? IntListAttribute(c, name, {}) : IntListAttribute(c, name);
    HLOCHECK_RETURN_IF_ERROR(values.status());
    *list = *std::move(values);
  }
  absl::StatusOr<int64_t> index_vector_dim = IntAttribute(c, "index_vector_dim");
  HLOCHECK_RETURN_IF_ERROR(index_vector_dim.status());
  d.index_vector_dim = *index_vector_dim;
  return d;
}

bool Contains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

bool SortedUniqueIn(const std::vector<int64_t>& list, int64_t size) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] < 0 || list[i] >= size || (i > 0 && list[i] <= list[i - 1])) return false;
  }
  return true;
}

bool UniqueIn(std::vector<int64_t> list, int64_t size) {
  std::sort(list.begin(), list.end());
  return SortedUniqueIn(list, size);
}

// The input dimensions that full_window_index takes from
// update_window_index, in order.
std::vector<int64_t> WindowInputDims(const ScatterDims& d, int64_t input_rank) {
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < input_rank; ++i) {
    if (!Contains(d.inserted_window_dims, i) && !Contains(d.input_batching_dims, i)) {
      dims.push_back(i);
    }
  }
  return dims;
}

// The spec's constraints on the dimension numbers and shapes, as far as
// computing result_index depends on them.
absl::Status CheckDims(const ScatterDims& d, const Shape& input, const Shape& indices,
                       const Shape& update) {
  const auto input_rank = static_cast<int64_t>(input.size());
  const auto indices_rank = static_cast<int64_t>(indices.size());
  const auto update_rank = static_cast<int64_t>(update.size());
  const int64_t ivd = d.index_vector_dim;
  if (!SortedUniqueIn(d.update_window_dims, update_rank)) {
    return Invalid("update_window_dims [", absl::StrJoin(d.update_window_dims, ", "),
                   "] are not sorted, unique dimensions of the updates");
  }
  std::vector<int64_t> not_window = d.inserted_window_dims;
  not_window.insert(not_window.end(), d.input_batching_dims.begin(), d.input_batching_dims.end());
  if (!SortedUniqueIn(d.inserted_window_dims, input_rank) ||
      !SortedUniqueIn(d.input_batching_dims, input_rank) || !UniqueIn(not_window, input_rank)) {
    return Invalid(
        "inserted_window_dims and input_batching_dims must be sorted, unique and "
        "disjoint dimensions of the inputs");
  }
  if (input_rank != static_cast<int64_t>(d.update_window_dims.size() + not_window.size())) {
    return Invalid("the inputs' rank ", input_rank,
                   " is not the number of window, inserted and "
                   "batching dimensions");
  }
  if (ivd < 0 || ivd > indices_rank) {
    return Invalid("index_vector_dim ", ivd, " is not in [0, ", indices_rank, "]");
  }
  if (!UniqueIn(d.scatter_indices_batching_dims, indices_rank) ||
      Contains(d.scatter_indices_batching_dims, ivd) ||
      d.scatter_indices_batching_dims.size() != d.input_batching_dims.size()) {
    return Invalid(
        "scatter_indices_batching_dims must be unique dimensions of scatter_indices "
        "other than index_vector_dim, one per input batching dimension");
  }
  for (size_t i = 0; i < d.input_batching_dims.size(); ++i) {
    if (input[d.input_batching_dims[i]] != indices[d.scatter_indices_batching_dims[i]]) {
      return Invalid("batching dimensions ", d.input_batching_dims[i], " and ",
                     d.scatter_indices_batching_dims[i], " differ in size");
    }
  }
  const int64_t index_count = ivd < indices_rank ? indices[ivd] : 1;
  if (static_cast<int64_t>(d.scatter_dims_to_operand_dims.size()) != index_count ||
      !UniqueIn(d.scatter_dims_to_operand_dims, input_rank) ||
      std::any_of(d.scatter_dims_to_operand_dims.begin(), d.scatter_dims_to_operand_dims.end(),
                  [&](int64_t dim) { return Contains(d.input_batching_dims, dim); })) {
    return Invalid("scatter_dims_to_operand_dims must be ", index_count,
                   " unique dimensions of the inputs, none a batching dimension");
  }
  const int64_t scatter_rank = indices_rank - (ivd < indices_rank ? 1 : 0);
  if (update_rank != static_cast<int64_t>(d.update_window_dims.size()) + scatter_rank) {
    return Invalid("updates of rank ", update_rank, " do not fit scatter_indices of rank ",
                   indices_rank, " and ", d.update_window_dims.size(), " window dimensions");
  }
  const std::vector<int64_t> window_input_dims = WindowInputDims(d, input_rank);
  int64_t scatter_dim = 0;
  size_t window_dim = 0;
  for (int64_t u = 0; u < update_rank; ++u) {
    if (Contains(d.update_window_dims, u)) {
      if (update[u] > input[window_input_dims[window_dim++]]) {
        return Invalid("update window dimension ", u, " is larger than the inputs'");
      }
    } else {
      const int64_t index_dim = scatter_dim < ivd ? scatter_dim : scatter_dim + 1;
      if (update[u] != indices[index_dim]) {
        return Invalid("update scatter dimension ", u, " differs in size from scatter_indices ",
                       "dimension ", index_dim);
      }
      ++scatter_dim;
    }
  }
  return absl::OkStatus();
}

// A start index as int64, an unsigned one beyond its range saturated (it
// is out of bounds either way).
template <ElementType I>
int64_t IndexValue(ContainerT<I> value) {
  if constexpr (IsUnsignedInt(I)) {
    constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(std::min<uint64_t>(value, kMax));
  } else {
    return static_cast<int64_t>(value);
  }
}

// update_scatter_dims = [d for d in axes(updates[0]) if d not in update_window_dims]
// start_index = scatter_indices[update_scatter_index with ":" at index_vector_dim]
// full_start_index[scatter_dims_to_operand_dims[k]] = start_index[k]
// full_batching_index[input_batching_dims[i]] = update_scatter_index[the
//   scatter dimension that is scatter_indices_batching_dims[i]]
// full_window_index = update_window_index at the other input dimensions
// result_index = full_start_index + full_batching_index + full_window_index
//
// Returns, for each update element in row-major order, the row-major
// position of its result_index in the results, or -1 where that is out of
// bounds. Only dimensions with a start index can be (in a non-empty
// input): CheckDims has bounded the window and batching indices by the
// input's sizes.
template <ElementType I>
std::vector<int64_t> ResultPositions(const ScatterDims& d, const Shape& input,
                                     const Tensor& scatter_indices, const Shape& update,
                                     const Device& device) {
  const auto input_rank = static_cast<int64_t>(input.size());
  const auto update_rank = static_cast<int64_t>(update.size());
  const int64_t ivd = d.index_vector_dim;
  const std::vector<int64_t> index_strides = RowMajorStrides(scatter_indices.shape());
  const std::vector<int64_t> result_strides = RowMajorStrides(input);
  const int64_t vector_stride = ivd < scatter_indices.rank() ? index_strides[ivd] : 0;
  const ContainerT<I>* index_values = scatter_indices.values<I>().data();

  // Per update dimension: its stride in scatter_indices (0 for a window
  // dimension), and in the results through the input dimension whose
  // window or batching index it is (0 for none).
  std::vector<int64_t> index_stride(update_rank, 0);
  std::vector<int64_t> result_stride(update_rank, 0);
  // Per input dimension: the update dimension of its window index, or -1.
  std::vector<int64_t> window_of(input_rank, -1);
  const std::vector<int64_t> window_input_dims = WindowInputDims(d, input_rank);
  int64_t scatter_dim = 0;
  size_t window_dim = 0;
  for (int64_t u = 0; u < update_rank; ++u) {
    if (Contains(d.update_window_dims, u)) {
      const int64_t dim = window_input_dims[window_dim++];
      window_of[dim] = u;
      result_stride[u] = result_strides[dim];
      continue;
    }
    const int64_t index_dim = scatter_dim < ivd ? scatter_dim : scatter_dim + 1;
    index_stride[u] = index_strides[index_dim];
    for (size_t i = 0; i < d.scatter_indices_batching_dims.size(); ++i) {
      if (d.scatter_indices_batching_dims[i] == index_dim) {
        result_stride[u] = result_strides[d.input_batching_dims[i]];
      }
    }
    ++scatter_dim;
  }

  std::vector<int64_t> positions(static_cast<size_t>(NumElements(update)), -1);
  // An empty input has no index in bounds, not even 0 at an inserted
  // dimension, which the loop below does not check.
  if (NumElements(input) == 0) return positions;
  ParallelFor(device, static_cast<int64_t>(positions.size()), 16, 4.0 * (input_rank + update_rank),
              [&](int64_t first, int64_t last) {
                // The update index, and its offsets in scatter_indices and (window
                // and batching part) in the results, advanced element by element.
                std::vector<int64_t> update_index(update_rank);
                int64_t base = 0;
                int64_t offset = 0;
                for (int64_t u = update_rank - 1, rest = first; u >= 0; --u) {
                  update_index[u] = rest % update[u];
                  rest /= update[u];
                  base += update_index[u] * index_stride[u];
                  offset += update_index[u] * result_stride[u];
                }
                for (int64_t e = first; e < last; ++e) {
                  bool in_bounds = true;
                  int64_t position = offset;
                  for (size_t k = 0; k < d.scatter_dims_to_operand_dims.size(); ++k) {
                    const int64_t dim = d.scatter_dims_to_operand_dims[k];
                    const int64_t start = IndexValue<I>(index_values[base + k * vector_stride]);
                    const int64_t window = window_of[dim] < 0 ? 0 : update_index[window_of[dim]];
                    // Range-checked before the sum, which then cannot overflow.
                    in_bounds = in_bounds && -input[dim] < start && start < input[dim] &&
                                0 <= start + window && start + window < input[dim];
                    position += in_bounds ? start * result_strides[dim] : 0;
                  }
                  positions[e] = in_bounds ? position : -1;
                  for (int64_t u = update_rank - 1; u >= 0; --u) {
                    base += index_stride[u];
                    offset += result_stride[u];
                    if (++update_index[u] < update[u]) break;
                    base -= update[u] * index_stride[u];
                    offset -= update[u] * result_stride[u];
                    update_index[u] = 0;
                  }
                }
              });
  return positions;
}

// Calls apply(first, last) for disjoint ranges of result positions that
// together cover [0, result_count), one per thread when there are enough
// updates; each call applies the updates that land in its range. Returns the
// first error.
template <typename Apply>
absl::Status ForResultRanges(const Device& device, int64_t result_count, int64_t update_count,
                             Apply&& apply) {
  const int64_t parts =
      update_count < kParallelUpdates ? 1 : std::min<int64_t>(device.numThreads(), result_count);
  if (parts <= 1) return apply(int64_t{0}, result_count);
  std::vector<absl::Status> statuses(parts);
  ParallelFor(device, parts, 8.0 * update_count, 4.0 * update_count,
              [&](int64_t first, int64_t last) {
                for (int64_t p = first; p < last; ++p) {
                  statuses[p] = apply(result_count * p / parts, result_count * (p + 1) / parts);
                }
              });
  for (absl::Status& status : statuses) {
    HLOCHECK_RETURN_IF_ERROR(status);
  }
  return absl::OkStatus();
}

// Combines every update into its result element with `combine` (the
// scalar function of a recognised combiner on T).
template <ElementType T, typename Combine>
void ApplyCombiner(const Combine& combine, Tensor& result, const Tensor& updates,
                   const std::vector<int64_t>& positions, const Device& device) {
  using C = ContainerT<T>;
  C* out = result.values<T>().data();
  const C* in = updates.values<T>().data();
  const auto count = static_cast<int64_t>(positions.size());
  (void)ForResultRanges(device, result.num_elements(), count, [&](int64_t first, int64_t last) {
    for (int64_t u = 0; u < count; ++u) {
      const int64_t p = positions[u];
      if (p >= first && p < last) out[p] = combine(out[p], in[u]);
    }
    return absl::OkStatus();
  });
}

// Any body: evaluated once per update element that lands in bounds, on the
// current values of its result element and the update's values.
absl::Status ApplyBody(const RegionEvaluator& evaluator, Results& results,
                       const std::vector<const Tensor*>& updates,
                       const std::vector<int64_t>& positions, const Device& device) {
  const size_t n = results.size();
  std::vector<int64_t> bytes;
  for (const Tensor& result : results) bytes.push_back(ContainerBytes(result.element_type()));
  const auto count = static_cast<int64_t>(positions.size());
  return ForResultRanges(
      device, results[0].num_elements(), count, [&](int64_t first, int64_t last) -> absl::Status {
        RegionEvaluator local = evaluator;
        const Eigen::ThreadPoolDevice inline_device = InlineDevice(device);
        std::vector<const void*> arguments(2 * n);
        std::vector<void*> outputs(n);
        for (int64_t u = 0; u < count; ++u) {
          const int64_t p = positions[u];
          if (p < first || p >= last) continue;
          for (size_t i = 0; i < n; ++i) {
            outputs[i] = results[i].bytes().data() + p * bytes[i];
            arguments[i] = outputs[i];
            arguments[n + i] = updates[i]->bytes().data() + u * bytes[i];
          }
          if (absl::Status status = local.Evaluate(arguments, outputs, inline_device);
              !status.ok()) {
            return status;
          }
        }
        return absl::OkStatus();
      });
}

// The types of update_computation's arguments: those of the results' (E)
// elements, twice (quantized where they are).
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

// Whether every result takes a typed kernel: a recognised combiner of plain
// tensors (a quantized computation runs its body, each step this backend's
// quantized op on the scalars).
bool AllKnown(const std::vector<Combiner>& kinds, const Case& c) {
  for (const TensorType& t : c.result_types) {
    if (t.quantization) return false;
  }
  return std::none_of(kinds.begin(), kinds.end(),
                      [](Combiner kind) { return kind == Combiner::kGeneral; });
}

// Quantized inputs, updates and results of one type each: promotion or
// requantization into the computation's types is not implemented.
AdapterSupport SupportsQuantizedScatter(const Case& c) {
  const size_t n = c.result_types.size();
  for (size_t k = 0; k < c.operands.size(); ++k) {
    const TensorType& type = c.operands[k].type();
    if (!type.quantization) continue;
    if (type.quantization->quantization_dimension) {
      return AdapterSupport::No("scatter: per-axis quantized tensors");
    }
    // inputs..., scatter_indices, updates...: input i and update i meet result i.
    const size_t i = k < n ? k : k - n - 1;
    if (k == n || i >= n ||
        !(type.element_type == c.result_types[i].element_type &&
          type.quantization == c.result_types[i].quantization)) {
      return AdapterSupport::No(
          "scatter: a quantized input or update of another type than its result");
    }
  }
  return AdapterSupport::Yes();
}

}  // namespace

AdapterSupport SupportsScatter(const Case& c) {
  // Every type, per-tensor quantized ones too (their computation runs on
  // quantized scalars).
  if (c.operands.empty()) return AdapterSupport::No("scatter: no operand");
  if (AdapterSupport support = SupportsQuantizedScatter(c); !support.supported) return support;
  if (c.regions.size() != 1 ||
      AllKnown(ClassifyCombiners(c.regions[0], c.result_types.size()), c)) {
    return AdapterSupport::Yes();
  }
  absl::StatusOr<RegionEvaluator> evaluator = RegionEvaluator::Create(
      c.regions[0], BodyArguments(c), BodyResults(c), "scatter: update_computation");
  // A malformed body is Run's to report.
  return evaluator.ok() ? evaluator->support() : AdapterSupport::Yes();
}

absl::StatusOr<Results> RunScatter(const Case& c, const Device& device) {
  absl::StatusOr<std::vector<std::span<const Tensor>>> groups =
      OperandGroups(c, {true, false, true});
  HLOCHECK_RETURN_IF_ERROR(groups.status());
  const std::span<const Tensor> inputs = (*groups)[0];
  const std::span<const Tensor> updates = (*groups)[2];
  const size_t n = inputs.size();
  if (n == 0 || updates.size() != n || c.result_types.size() != n || (*groups)[1].size() != 1) {
    return Invalid("needs N > 0 inputs, one scatter_indices, N updates and N results, not ", n,
                   ", ", (*groups)[1].size(), ", ", updates.size(), " and ", c.result_types.size());
  }
  const Tensor& scatter_indices = (*groups)[1][0];
  const Shape& input_shape = inputs[0].shape();
  for (size_t i = 0; i < n; ++i) {
    const TensorType& result = c.result_types[i];
    if (inputs[i].shape() != input_shape || updates[i].shape() != updates[0].shape() ||
        result.shape != input_shape || updates[i].element_type() != inputs[i].element_type() ||
        Kind(result.element_type) != Kind(inputs[i].element_type())) {
      return Invalid("input ", i, " ", inputs[i].type().ToString(), ", update ",
                     updates[i].type().ToString(), " and result ", result.ToString(),
                     " do not fit together");
    }
  }
  if (!IsInteger(scatter_indices.element_type())) {
    return Invalid("scatter_indices ", scatter_indices.type().ToString(), " are not integers");
  }
  absl::StatusOr<ScatterDims> dims = ReadDims(c);
  HLOCHECK_RETURN_IF_ERROR(dims.status());
  if (absl::Status status =
          CheckDims(*dims, input_shape, scatter_indices.shape(), updates[0].shape());
      !status.ok()) {
    return status;
  }
  if (c.regions.size() != 1) return Invalid("needs one update_computation");
  absl::StatusOr<RegionEvaluator> evaluator = RegionEvaluator::Create(
      c.regions[0], BodyArguments(c), BodyResults(c), "scatter: update_computation");
  HLOCHECK_RETURN_IF_ERROR(evaluator.status());
  const std::vector<Combiner> kinds = ClassifyCombiners(c.regions[0], n);
  if (!AllKnown(kinds, c) && !evaluator->support().supported) {
    return absl::UnimplementedError(evaluator->support().reason);
  }

  // The results start as the inputs, and the updates are combined, in the
  // computation's element types (is_promotable lets them be wider).
  Results results;
  std::vector<Tensor> converted(n);
  std::vector<const Tensor*> body_updates(n);
  for (size_t i = 0; i < n; ++i) {
    const ElementType type = c.result_types[i].element_type;
    if (inputs[i].element_type() == type) {
      results.push_back(inputs[i]);
      body_updates[i] = &updates[i];
      continue;
    }
    results.emplace_back(c.result_types[i]);
    ConvertBuffer(inputs[i].element_type(), inputs[i].raw(), type, results[i].raw(),
                  results[i].num_elements(), device);
    converted[i] = Tensor(updates[i].shape(), type);
    ConvertBuffer(updates[i].element_type(), updates[i].raw(), type, converted[i].raw(),
                  converted[i].num_elements(), device);
    body_updates[i] = &converted[i];
  }

  std::vector<int64_t> positions;
  DispatchElementType(scatter_indices.element_type(), [&]<ElementType I>() {
    if constexpr (IsInteger(I)) {
      positions =
          ResultPositions<I>(*dims, input_shape, scatter_indices, updates[0].shape(), device);
    }
  });
  if (!AllKnown(kinds, c)) {
    if (absl::Status status = ApplyBody(*evaluator, results, body_updates, positions, device);
        !status.ok()) {
      return status;
    }
    return results;
  }
  for (size_t i = 0; i < n; ++i) {
    DispatchElementType(results[i].element_type(), [&]<ElementType T>() {
      WithCombineFunction<T>(kinds[i], [&](const auto& combine) {
        ApplyCombiner<T>(combine, results[i], *body_updates[i], positions, device);
      });
    });
  }
  return results;
}

std::vector<OpEntry> DataMovementScatterOps() {
  return {
      {"scatter", kVariadic, &SupportsScatter, &RunScatter},
  };
}

}  // namespace hlocheck::cpu
