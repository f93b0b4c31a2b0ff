// convolution, the spec's other contraction op: one matrix product per
// group, after im2col (ConvolutionKernel), through the same batched matrix
// product as dot_general (contraction_internal.h).

#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/contraction_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// A convolution as one matrix product per group: rows are (output batch,
// output spatial position), columns (kernel spatial position, input
// feature), filled from the padded, dilated and (where window_reversal says)
// reversed window of lhs, with zeros of padding written out, so that a zero
// times an infinite kernel element is NaN, as the spec's pad-then-dot says.
struct ConvolutionPlan {
  int64_t input_batch, input_feature, kernel_input_feature, kernel_output_feature;
  int64_t output_batch, output_feature;
  std::vector<int64_t> input_spatial, kernel_spatial, output_spatial;
  std::vector<int64_t> strides, padding, lhs_dilation, rhs_dilation;
  std::vector<bool> reversal;
  int64_t groups = 1;  // feature_group_count or batch_group_count
  bool batch_groups = false;
  Shape kernel, outputs;  // spatial sizes, in spatial order
  int64_t group_inputs = 0, group_outputs = 0, out_batch = 0;
};

absl::StatusOr<ConvolutionPlan> MakeConvolutionPlan(const Case& c) {
  ConvolutionPlan p;
  HLOCHECK_ASSIGN_OR_RETURN(p.input_batch, IntAttribute(c, "input_batch_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(p.input_feature, IntAttribute(c, "input_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(p.input_spatial, IntListAttribute(c, "input_spatial_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(p.kernel_input_feature,
                            IntAttribute(c, "kernel_input_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(p.kernel_output_feature,
                            IntAttribute(c, "kernel_output_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(p.kernel_spatial, IntListAttribute(c, "kernel_spatial_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(p.output_batch, IntAttribute(c, "output_batch_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(p.output_feature, IntAttribute(c, "output_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(p.output_spatial, IntListAttribute(c, "output_spatial_dimensions"));
  const auto spatial = static_cast<int64_t>(p.input_spatial.size());
  const std::vector<int64_t> ones(static_cast<size_t>(spatial), 1);
  HLOCHECK_ASSIGN_OR_RETURN(p.strides, IntListAttribute(c, "window_strides", ones));
  HLOCHECK_ASSIGN_OR_RETURN(p.padding, IntMatrixAttribute(c, "padding", spatial, 2));
  HLOCHECK_ASSIGN_OR_RETURN(p.lhs_dilation, IntListAttribute(c, "lhs_dilation", ones));
  HLOCHECK_ASSIGN_OR_RETURN(p.rhs_dilation, IntListAttribute(c, "rhs_dilation", ones));
  p.reversal.assign(static_cast<size_t>(spatial), false);
  if (const Attribute* a = c.FindAttribute("window_reversal")) {
    if (const auto* flags = std::get_if<std::vector<bool>>(a)) p.reversal = *flags;
  }
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t feature_groups, IntAttribute(c, "feature_group_count"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t batch_groups, IntAttribute(c, "batch_group_count"));

  const Shape& lhs = c.operands[0].shape();
  const Shape& rhs = c.operands[1].shape();
  const Shape& result = c.result_types[0].shape;
  auto invalid = [](const std::string& what) {
    return absl::InvalidArgumentError("convolution: " + what);
  };
  const auto rank = static_cast<int64_t>(lhs.size());
  if (static_cast<int64_t>(rhs.size()) != rank || static_cast<int64_t>(result.size()) != rank ||
      rank != spatial + 2 || rank > kMaxRank) {
    return invalid("lhs, rhs and result need rank 2 + the spatial dimensions, at most " +
                   std::to_string(kMaxRank));
  }
  std::vector<int64_t> lhs_dims = {p.input_batch, p.input_feature};
  std::vector<int64_t> rhs_dims = {p.kernel_input_feature, p.kernel_output_feature};
  std::vector<int64_t> out_dims = {p.output_batch, p.output_feature};
  lhs_dims.insert(lhs_dims.end(), p.input_spatial.begin(), p.input_spatial.end());
  rhs_dims.insert(rhs_dims.end(), p.kernel_spatial.begin(), p.kernel_spatial.end());
  out_dims.insert(out_dims.end(), p.output_spatial.begin(), p.output_spatial.end());
  for (std::vector<int64_t>* dims : {&lhs_dims, &rhs_dims, &out_dims}) {
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (int64_t d : *dims) {
      if (d < 0 || d >= rank || seen[d]) return invalid("dimension numbers are not a permutation");
      seen[d] = true;
    }
    if (static_cast<int64_t>(dims->size()) != rank) {
      return invalid("dimension numbers are not a permutation");
    }
  }
  for (const std::vector<int64_t>* list : {&p.strides, &p.lhs_dilation, &p.rhs_dilation}) {
    if (static_cast<int64_t>(list->size()) != spatial ||
        std::any_of(list->begin(), list->end(), [](int64_t x) { return x < 1; })) {
      return invalid("window_strides and dilations need a positive value per spatial dimension");
    }
  }
  if (static_cast<int64_t>(p.reversal.size()) != spatial) return invalid("window_reversal size");
  if (feature_groups < 1 || batch_groups < 1 || (feature_groups > 1 && batch_groups > 1)) {
    return invalid("feature_group_count and batch_group_count must be positive, one of them 1");
  }
  p.groups = std::max(feature_groups, batch_groups);
  p.batch_groups = batch_groups > 1;
  const int64_t features = lhs[p.input_feature];
  const int64_t outputs = rhs[p.kernel_output_feature];
  p.group_inputs = rhs[p.kernel_input_feature];
  if (outputs % p.groups != 0 || lhs[p.input_batch] % batch_groups != 0 ||
      features != p.group_inputs * feature_groups) {
    return invalid("the group counts do not divide the features and batch");
  }
  p.group_outputs = outputs / p.groups;
  p.out_batch = lhs[p.input_batch] / batch_groups;
  if (result[p.output_batch] != p.out_batch || result[p.output_feature] != outputs) {
    return invalid("the result's batch or feature size does not match");
  }
  for (int64_t s = 0; s < spatial; ++s) {
    const int64_t size = lhs[p.input_spatial[s]];
    const int64_t dilated = size == 0 ? 0 : (size - 1) * p.lhs_dilation[s] + 1;
    const int64_t padded = p.padding[2 * s] + dilated + p.padding[2 * s + 1];
    const int64_t k = rhs[p.kernel_spatial[s]];
    const int64_t window = k == 0 ? 0 : (k - 1) * p.rhs_dilation[s] + 1;
    const int64_t windows =
        padded <= 0 || window > padded ? 0 : (padded - window) / p.strides[s] + 1;
    if (result[p.output_spatial[s]] != windows) {
      return invalid("spatial dimension " + std::to_string(s) + " of the result is " +
                     std::to_string(result[p.output_spatial[s]]) + ", the windows give " +
                     std::to_string(windows));
    }
    p.kernel.push_back(k);
    p.outputs.push_back(windows);
  }
  return p;
}

// The convolution of element type T, products in ComputeT<T> (complex as
// real products of parts, as dot_general).
template <ElementType T>
void ConvolutionKernel(const Tensor& lhs, const Tensor& rhs, const ConvolutionPlan& p,
                       Tensor& result, const Device& device) {
  using C = ContainerT<T>;
  using S = ComputeT<T>;
  // The matrices hold complex values for complex types, S otherwise.
  using E = std::conditional_t<IsComplex(T), C, S>;
  auto in_compute = [](C x) -> E {
    if constexpr (IsComplex(T) || std::is_same_v<S, C>) {
      return x;
    } else if constexpr (IsBool(T)) {
      return x != 0 ? 1 : 0;
    } else if constexpr (IsInteger(T)) {
      return IntegerBits<T>(x);
    } else {
      return ToFloat<T>(x);
    }
  };
  const auto spatial = static_cast<int64_t>(p.kernel.size());
  const int64_t kernel_count = NumElements(p.kernel);
  const int64_t positions = NumElements(p.outputs);
  const int64_t m = p.out_batch * positions;
  const int64_t k = kernel_count * p.group_inputs;
  const int64_t n = p.group_outputs;
  const std::vector<int64_t> lhs_strides = RowMajorStrides(lhs.shape());
  const std::vector<int64_t> rhs_strides = RowMajorStrides(rhs.shape());
  const C* x = lhs.values<T>().data();
  const C* w = rhs.values<T>().data();

  // rhs per group: [k, n], row (kernel position, input feature).
  auto b = std::make_unique_for_overwrite<E[]>(p.groups * k * n);
  ParallelFor(device, p.groups * kernel_count, 8.0 * n, 4.0 * n, [&](int64_t first, int64_t last) {
    std::vector<int64_t> index(static_cast<size_t>(spatial));
    for (int64_t gk = first; gk < last; ++gk) {
      const int64_t g = gk / kernel_count;
      int64_t rest = gk % kernel_count;
      int64_t base = 0;
      for (int64_t s = spatial - 1; s >= 0; --s) {
        base += rest % p.kernel[s] * rhs_strides[p.kernel_spatial[s]];
        rest /= p.kernel[s];
      }
      for (int64_t i = 0; i < p.group_inputs; ++i) {
        E* row = b.get() + (g * k + (gk % kernel_count) * p.group_inputs + i) * n;
        for (int64_t o = 0; o < n; ++o) {
          row[o] = in_compute(w[base + i * rhs_strides[p.kernel_input_feature] +
                                (g * n + o) * rhs_strides[p.kernel_output_feature]]);
        }
      }
    }
  });
  // b as the real matrix of ComplexRhs for complex types.
  std::unique_ptr<S[]> b_real;
  if constexpr (IsComplex(T)) b_real = ComplexRhs(b.get(), p.groups, k, n, device);
  const int64_t row_scale = IsComplex(T) ? 2 : 1;  // reals per element
  const S* b_matrices = IsComplex(T) ? b_real.get() : reinterpret_cast<const S*>(b.get());

  // The rows of lhs's matrix (output batch, output position) are built,
  // multiplied and written out a chunk at a time, each chunk by one thread in
  // buffers that stay in its cache, instead of the whole im2col matrix
  // (58 MB for a ResNet layer) going through memory three times.
  constexpr int64_t kChunkRows = 96;
  const int64_t chunks_per_group = (m + kChunkRows - 1) / kChunkRows;
  const std::vector<int64_t> out_strides = RowMajorStrides(result.shape());
  C* out = result.values<T>().data();
  const Device single(device.getPool(), 1);
  const double chunk_bytes = static_cast<double>(kChunkRows * (k + n) * sizeof(E));
  const double chunk_cycles = 2.0 * kChunkRows * static_cast<double>(k) * static_cast<double>(n);
  ParallelFor(device, p.groups * chunks_per_group, chunk_bytes, chunk_cycles,
              [&](int64_t first, int64_t last) {
                auto a = std::make_unique_for_overwrite<E[]>(kChunkRows * k);
                auto z = std::make_unique_for_overwrite<E[]>(kChunkRows * n);
                std::vector<int64_t> position(static_cast<size_t>(spatial));
                const FloatFormat* format = IsFloat(T) ? &Format(T) : nullptr;
                for (int64_t chunk = first; chunk < last; ++chunk) {
                  const int64_t g = chunk / chunks_per_group;
                  const int64_t row0 = chunk % chunks_per_group * kChunkRows;
                  const int64_t rows = std::min(kChunkRows, m - row0);
                  const int64_t lhs_feature_base = p.batch_groups ? 0 : g * p.group_inputs;
                  // lhs's rows: the window of each output position, zeros for padding.
                  for (int64_t r = 0; r < rows; ++r) {
                    const int64_t batch = (row0 + r) / positions;
                    int64_t rest = (row0 + r) % positions;
                    for (int64_t s = spatial - 1; s >= 0; --s) {
                      position[s] = rest % p.outputs[s];
                      rest /= p.outputs[s];
                    }
                    const int64_t lhs_batch = p.batch_groups ? g * p.out_batch + batch : batch;
                    E* row = a.get() + r * k;
                    for (int64_t kk = 0; kk < kernel_count; ++kk) {
                      int64_t rest_k = kk;
                      int64_t offset = lhs_batch * lhs_strides[p.input_batch];
                      for (int64_t s = spatial - 1; s >= 0 && offset >= 0; --s) {
                        const int64_t index = rest_k % p.kernel[s];
                        rest_k /= p.kernel[s];
                        const int64_t window = p.reversal[s] ? p.kernel[s] - 1 - index : index;
                        const int64_t dilated = position[s] * p.strides[s] +
                                                window * p.rhs_dilation[s] - p.padding[2 * s];
                        if (dilated < 0 || dilated % p.lhs_dilation[s] != 0 ||
                            dilated / p.lhs_dilation[s] >= lhs.shape()[p.input_spatial[s]]) {
                          offset = -1;
                        } else {
                          offset += dilated / p.lhs_dilation[s] * lhs_strides[p.input_spatial[s]];
                        }
                      }
                      E* cell = row + kk * p.group_inputs;
                      if (offset < 0) {
                        std::fill(cell, cell + p.group_inputs, E{});
                        continue;
                      }
                      const C* in = x + offset + lhs_feature_base * lhs_strides[p.input_feature];
                      const int64_t stride = lhs_strides[p.input_feature];
                      for (int64_t i = 0; i < p.group_inputs; ++i)
                        cell[i] = in_compute(in[i * stride]);
                    }
                  }
                  BatchedMatMul(reinterpret_cast<const S*>(a.get()),
                                b_matrices + g * k * n * row_scale * row_scale,
                                reinterpret_cast<S*>(z.get()), 1, rows, row_scale * k,
                                row_scale * n, single);
                  // Into the result's layout: (batch, position, output) to its index.
                  for (int64_t r = 0; r < rows; ++r) {
                    const int64_t batch = (row0 + r) / positions;
                    int64_t rest = (row0 + r) % positions;
                    int64_t base = batch * out_strides[p.output_batch];
                    for (int64_t s = spatial - 1; s >= 0; --s) {
                      base += rest % p.outputs[s] * out_strides[p.output_spatial[s]];
                      rest /= p.outputs[s];
                    }
                    const E* values = z.get() + r * n;
                    const int64_t stride = out_strides[p.output_feature];
                    C* cells = out + base + g * n * stride;
                    for (int64_t o = 0; o < n; ++o) {
                      const E value = values[o];
                      C& cell = cells[o * stride];
                      if constexpr (IsComplex(T) || std::is_same_v<S, C>) {
                        cell = value;
                      } else if constexpr (IsBool(T)) {
                        cell = value != 0 ? 1 : 0;
                      } else if constexpr (IsInteger(T)) {
                        cell = WrapInteger<T>(value);
                      } else {
                        cell = FromFloat<T>(value, *format);
                      }
                    }
                  }
                }
              });
}
}  // namespace

AdapterSupport SupportsConvolution(const Case& c) {
  const ElementType lhs = c.operands[0].element_type();
  const ElementType rhs = c.operands[1].element_type();
  const ElementType result = c.result_types[0].element_type;
  if (lhs != rhs || lhs != result) {
    return AdapterSupport::No(absl::StrCat("convolution with element types ", TypeName(lhs), " x ",
                                           TypeName(rhs), " -> ", TypeName(result),
                                           " is not implemented (only one type throughout)"));
  }
  return SupportsUnquantized(c);
}

absl::StatusOr<Results> RunConvolution(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  if (AdapterSupport support = SupportsConvolution(c); !support.supported) {
    return absl::InvalidArgumentError(support.reason);
  }
  HLOCHECK_ASSIGN_OR_RETURN(ConvolutionPlan plan, MakeConvolutionPlan(c));
  Tensor result(c.result_types[0]);
  if (result.num_elements() > 0) {
    DispatchElementType(result.element_type(), [&]<ElementType T>() {
      ConvolutionKernel<T>(c.operands[0], c.operands[1], plan, result, device);
    });
  }
  return OneResult(std::move(result));
}
}  // namespace hlocheck::cpu
