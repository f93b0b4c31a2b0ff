// Contraction ops of the spec: dot_general here, convolution in
// contraction_convolution.cc (as one matrix product per group, after im2col).
// Both operands are brought into a
// canonical layout, lhs [batch..., free..., contracting...] and rhs
// [batch..., contracting..., free...], so that each batch is one row-major
// [M, K] x [K, N] matrix product: gemm.h's kernels for floats, Eigen's
// threaded TensorContraction for integers. The result
// [batch..., lhs free..., rhs free...] is then already in the layout the
// spec asks for.

// With -fsanitize=address,undefined, GCC 12 reports an array subscript of
// 2^63 inside Eigen's TensorContraction constructor for the uint64
// products: a false positive on a branch its loop bounds rule out. It points
// into <array>, so this must come before the first include to cover it.
#pragma GCC diagnostic ignored "-Warray-bounds"

#include <algorithm>
#include <array>
#include <complex>
#include <memory>
#include <optional>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adapters/cpu/contraction_internal.h"
#include "adapters/cpu/gemm.h"
#include "core/dot_algorithm.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {

// Checks the dimension numbers the way the spec's constraints do and derives
// the plan; any mistake here would read out of bounds, so nothing is assumed.
absl::StatusOr<DotPlan> MakeDotPlan(const Case& c) {
  // MLIR leaves empty dimension lists out of its printed form, so a missing
  // list means an empty one.
  absl::StatusOr<std::vector<int64_t>> lhs_batch =
      IntListAttribute(c, "lhs_batching_dimensions", {});
  HLOCHECK_RETURN_IF_ERROR(lhs_batch.status());
  absl::StatusOr<std::vector<int64_t>> rhs_batch =
      IntListAttribute(c, "rhs_batching_dimensions", {});
  HLOCHECK_RETURN_IF_ERROR(rhs_batch.status());
  absl::StatusOr<std::vector<int64_t>> lhs_contract =
      IntListAttribute(c, "lhs_contracting_dimensions", {});
  HLOCHECK_RETURN_IF_ERROR(lhs_contract.status());
  absl::StatusOr<std::vector<int64_t>> rhs_contract =
      IntListAttribute(c, "rhs_contracting_dimensions", {});
  HLOCHECK_RETURN_IF_ERROR(rhs_contract.status());

  const Shape& lhs = c.operands[0].shape();
  const Shape& rhs = c.operands[1].shape();
  if (lhs_batch->size() != rhs_batch->size() || lhs_contract->size() != rhs_contract->size()) {
    return absl::InvalidArgumentError(
        "dot_general: lhs and rhs need as many batching and as many contracting dimensions");
  }
  // Marks each dimension's role; a dimension may have one role only.
  auto mark = [](const Shape& shape, const std::vector<int64_t>& dims, std::vector<bool>& used,
                 const char* what) -> absl::Status {
    for (int64_t d : dims) {
      if (d < 0 || d >= static_cast<int64_t>(shape.size()) || used[d]) {
        return absl::InvalidArgumentError(absl::StrCat("dot_general: ", what, " dimensions [",
                                                       absl::StrJoin(dims, ", "),
                                                       "] are out of range or repeated"));
      }
      used[d] = true;
    }
    return absl::OkStatus();
  };
  std::vector<bool> lhs_used(lhs.size(), false);
  std::vector<bool> rhs_used(rhs.size(), false);
  for (absl::Status status : {mark(lhs, *lhs_batch, lhs_used, "lhs batching"),
                              mark(lhs, *lhs_contract, lhs_used, "lhs contracting"),
                              mark(rhs, *rhs_batch, rhs_used, "rhs batching"),
                              mark(rhs, *rhs_contract, rhs_used, "rhs contracting")}) {
    HLOCHECK_RETURN_IF_ERROR(status);
  }

  DotPlan plan;
  Shape result_shape;
  for (size_t i = 0; i < lhs_batch->size(); ++i) {
    const int64_t size = lhs[(*lhs_batch)[i]];
    if (size != rhs[(*rhs_batch)[i]]) {
      return absl::InvalidArgumentError(
          absl::StrCat("dot_general: batching dimension pair ", i, " differs in size"));
    }
    plan.batch *= size;
    result_shape.push_back(size);
    plan.lhs_perm.push_back((*lhs_batch)[i]);
    plan.rhs_perm.push_back((*rhs_batch)[i]);
  }
  for (size_t i = 0; i < lhs_contract->size(); ++i) {
    const int64_t size = lhs[(*lhs_contract)[i]];
    if (size != rhs[(*rhs_contract)[i]]) {
      return absl::InvalidArgumentError(
          absl::StrCat("dot_general: contracting dimension pair ", i, " differs in size"));
    }
    plan.k *= size;
    plan.rhs_perm.push_back((*rhs_contract)[i]);
  }
  for (size_t d = 0; d < lhs.size(); ++d) {
    if (lhs_used[d]) continue;
    plan.m *= lhs[d];
    result_shape.push_back(lhs[d]);
    plan.lhs_perm.push_back(static_cast<int64_t>(d));
  }
  for (int64_t d : *lhs_contract) plan.lhs_perm.push_back(d);
  for (size_t d = 0; d < rhs.size(); ++d) {
    if (rhs_used[d]) continue;
    plan.n *= rhs[d];
    result_shape.push_back(rhs[d]);
    plan.rhs_perm.push_back(static_cast<int64_t>(d));
  }
  if (result_shape != c.result_types[0].shape) {
    return absl::InvalidArgumentError(absl::StrCat("dot_general: result should be ",
                                                   ShapeToString(result_shape), ", not ",
                                                   c.result_types[0].ToString()));
  }
  return plan;
}

namespace {

// Below this many multiply-adds per batch, the batches are spread over the
// pool with one single-threaded product each, instead of running one after
// another with the pool splitting each product.
constexpr double kSmallProduct = 64.0 * 64.0 * 64.0;

// out[b] = lhs[b] x rhs[b] for row-major [m, k] x [k, n] uint64 matrices.
template <typename S>
void EigenBatchedMatMul(const S* lhs, const S* rhs, S* out, int64_t batch, int64_t m, int64_t k,
                        int64_t n, const Device& device) {
  if (k == 0) {
    // An empty sum; Eigen's contraction returns without writing for K = 0.
    ParallelFor(device, batch * m * n, sizeof(S), 1,
                [&](int64_t first, int64_t last) { std::fill(out + first, out + last, S{0}); });
    return;
  }
  const Eigen::array<Eigen::IndexPair<Eigen::Index>, 1> dims = {
      Eigen::IndexPair<Eigen::Index>(1, 0)};
  auto product = [&](int64_t b, const Device& on) {
    Map<S, 2>(out + b * m * n, m, n).device(on) =
        ConstMap<S, 2>(lhs + b * m * k, m, k).contract(ConstMap<S, 2>(rhs + b * k * n, k, n), dims);
  };
  const double products = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  if (batch > 1 && products < kSmallProduct) {
    // A one-thread device on the same pool: Eigen then runs the product
    // inline on the calling worker (nothing is queued, so nothing can wait
    // on a busy pool), and it is the same instantiation as the threaded one.
    const Device single(device.getPool(), 1);
    const double bytes = static_cast<double>((m * k + k * n + m * n) * sizeof(S));
    ParallelFor(device, batch, bytes, 2 * products, [&](int64_t first, int64_t last) {
      for (int64_t b = first; b < last; ++b) product(b, single);
    });
    return;
  }
  for (int64_t b = 0; b < batch; ++b) product(b, device);
}

// ComplexRhs (contraction_internal.h).
template <typename R>
std::unique_ptr<R[]> RealFormOfComplexRhs(const std::complex<R>* b, int64_t batch, int64_t k,
                                          int64_t n, const Device& device) {
  auto real = std::make_unique_for_overwrite<R[]>(batch * 4 * k * n);
  R* out = real.get();
  // One block per row of b: two rows of the real matrix.
  ParallelFor(device, batch * k, 8.0 * sizeof(R) * n, 4.0 * n, [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      const std::complex<R>* in = b + row * n;
      R* upper = out + row * 4 * n;
      R* lower = upper + 2 * n;
      for (int64_t j = 0; j < n; ++j) {
        upper[2 * j] = in[j].real();
        upper[2 * j + 1] = in[j].imag();
        lower[2 * j] = -in[j].imag();
        lower[2 * j + 1] = in[j].real();
      }
    }
  });
  return real;
}

// Operand data in canonical order: the tensor's own storage when the
// permutation leaves the bytes in place, else a transposed copy in `scratch`.
template <typename C>
const C* Canonical(const Tensor& operand, const std::vector<int64_t>& perm,
                   std::unique_ptr<C[]>& scratch, const Device& device) {
  const C* data = operand.data<C>().data();
  if (TransposeIsIdentity(operand.shape(), perm)) return data;
  scratch = std::make_unique_for_overwrite<C[]>(operand.num_elements());
  TransposeBytes(data, operand.shape(), perm, sizeof(C), scratch.get(), device);
  return scratch.get();
}

template <ElementType T>
std::unique_ptr<ComputeT<T>[]> ToCompute(const ContainerT<T>* data, int64_t count,
                                         const Device& device) {
  using S = ComputeT<T>;
  auto converted = std::make_unique_for_overwrite<S[]>(count);
  S* out = converted.get();
  ParallelFor(device, count, sizeof(S), 4, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      if constexpr (IsBool(T)) {
        out[i] = data[i] != 0 ? 1 : 0;
      } else if constexpr (IsInteger(T)) {
        out[i] = IntegerBits<T>(data[i]);
      } else {
        out[i] = ToFloat<T>(data[i]);
      }
    }
  });
  return converted;
}

template <ElementType T>
void DotKernel(const Tensor& lhs, const Tensor& rhs, const DotPlan& plan, Tensor& result,
               const Device& device) {
  using C = ContainerT<T>;
  using S = ComputeT<T>;
  std::unique_ptr<C[]> lhs_scratch;
  std::unique_ptr<C[]> rhs_scratch;
  const C* a = Canonical<C>(lhs, plan.lhs_perm, lhs_scratch, device);
  const C* b = Canonical<C>(rhs, plan.rhs_perm, rhs_scratch, device);
  C* out = result.values<T>().data();
  const auto [batch, m, k, n] = std::array{plan.batch, plan.m, plan.k, plan.n};
  if constexpr (std::is_same_v<S, C>) {
    BatchedMatMul(a, b, out, batch, m, k, n, device);
  } else if constexpr (IsComplex(T)) {
    std::unique_ptr<S[]> b_real = ComplexRhs(b, batch, k, n, device);
    BatchedMatMul(reinterpret_cast<const S*>(a), b_real.get(), reinterpret_cast<S*>(out), batch, m,
                  2 * k, 2 * n, device);
  } else if constexpr (IsInteger(T) && sizeof(S) == sizeof(C)) {
    // si64: the same bits as uint64, which wraps where int64 would overflow.
    BatchedMatMul(reinterpret_cast<const S*>(a), reinterpret_cast<const S*>(b),
                  reinterpret_cast<S*>(out), batch, m, k, n, device);
  } else {
    std::unique_ptr<S[]> a_compute = ToCompute<T>(a, lhs.num_elements(), device);
    std::unique_ptr<S[]> b_compute = ToCompute<T>(b, rhs.num_elements(), device);
    const int64_t count = result.num_elements();
    auto z = std::make_unique_for_overwrite<S[]>(count);
    BatchedMatMul(a_compute.get(), b_compute.get(), z.get(), batch, m, k, n, device);
    ParallelFor(device, count, sizeof(S), 40, [&](int64_t first, int64_t last) {
      if constexpr (IsBool(T)) {
        for (int64_t i = first; i < last; ++i) out[i] = z[i] != 0 ? 1 : 0;
      } else if constexpr (IsInteger(T)) {
        for (int64_t i = first; i < last; ++i) out[i] = WrapInteger<T>(z[i]);
      } else {
        const FloatFormat& format = Format(T);
        for (int64_t i = first; i < last; ++i) out[i] = FromFloat<T>(z[i], format);
      }
    });
  }
}

// ------------------------------------------------- dot_general's algorithm

// The component pairs (i, j) whose products the algorithm computes: those
// with i + j <= t for the t that gives num_primitive_operations of them (the
// split algorithms bf16_3x, bf16_6x, tf32_3x keep the largest products);
// nullopt for a count no t gives.
std::optional<std::vector<std::array<int64_t, 2>>> ComponentPairs(const DotAlgorithm& a) {
  for (int64_t t = 0; t <= a.lhs_component_count + a.rhs_component_count - 2; ++t) {
    std::vector<std::array<int64_t, 2>> pairs;
    for (int64_t i = 0; i < a.lhs_component_count; ++i) {
      for (int64_t j = 0; j <= t - i && j < a.rhs_component_count; ++j) pairs.push_back({i, j});
    }
    if (static_cast<int64_t>(pairs.size()) == a.num_primitive_operations) return pairs;
  }
  return std::nullopt;
}

// What the CPU adapter runs of dot_general's algorithm: real float operands,
// products and sums in f32 or f64, no imprecise accumulation, a known split.
AdapterSupport SupportsAlgorithm(const DotAlgorithm& a, ElementType type) {
  auto no = [&](const char* why) {
    return AdapterSupport::No(absl::StrCat("dot_general with algorithm <", a.ToString(), "> on ",
                                           TypeName(type), ": ", why));
  };
  if (!IsFloat(type)) return no("the CPU adapter splits real float operands only");
  if (a.accumulation_type != "f32" && a.accumulation_type != "f64") {
    return no("the CPU adapter accumulates in f32 or f64 only");
  }
  if (a.allow_imprecise_accumulation) return no("imprecise accumulation is not implemented");
  if (!ComponentPairs(a)) return no("not a split that keeps the largest component products");
  const FloatFormat& accumulation = a.accumulation;
  for (const FloatFormat* precision : {&a.lhs_precision, &a.rhs_precision}) {
    if (precision->mantissa_bits > accumulation.mantissa_bits ||
        precision->exponent_bits > accumulation.exponent_bits) {
      return no("a precision type wider than the accumulation type is not implemented");
    }
  }
  return AdapterSupport::Yes();
}

// x split into `count` components of `format`: x_0 = x rounded to it, each
// next one the remainder rounded to it (in double, where the remainders of
// f32 and narrower values are exact).
template <typename S>
std::vector<std::unique_ptr<S[]>> SplitIntoComponents(const double* values, int64_t size,
                                                      int64_t count, const FloatFormat& format,
                                                      const Device& device) {
  std::vector<std::unique_ptr<S[]>> components;
  for (int64_t i = 0; i < count; ++i) components.push_back(std::make_unique<S[]>(size));
  ParallelFor(device, size, 8.0 * count, 20.0 * count, [&](int64_t first, int64_t last) {
    for (int64_t e = first; e < last; ++e) {
      double rest = values[e];
      for (int64_t i = 0; i < count; ++i) {
        const double component = RoundToFormat(rest, format);
        components[i][e] = static_cast<S>(component);
        rest -= component;
      }
    }
  });
  return components;
}

// dot_general with an algorithm: each operand rounded to its precision type
// (or split into components), one matrix product per computed component
// pair in the accumulation type, their sum rounded to the result type.
template <ElementType T, typename S>
void DotKernelWithAlgorithm(const Tensor& lhs, const Tensor& rhs, const DotPlan& plan,
                            const DotAlgorithm& algorithm, Tensor& result, const Device& device) {
  using C = ContainerT<T>;
  std::unique_ptr<C[]> lhs_scratch;
  std::unique_ptr<C[]> rhs_scratch;
  const C* a = Canonical<C>(lhs, plan.lhs_perm, lhs_scratch, device);
  const C* b = Canonical<C>(rhs, plan.rhs_perm, rhs_scratch, device);
  auto as_doubles = [&](const C* data, int64_t size) {
    std::vector<double> values(static_cast<size_t>(size));
    for (int64_t e = 0; e < size; ++e) {
      if constexpr (std::is_floating_point_v<C>) {
        values[e] = data[e];
      } else {
        values[e] = ToFloat<T>(data[e]);
      }
    }
    return values;
  };
  const std::vector<double> a_values = as_doubles(a, lhs.num_elements());
  const std::vector<double> b_values = as_doubles(b, rhs.num_elements());
  const std::vector<std::unique_ptr<S[]>> a_parts =
      SplitIntoComponents<S>(a_values.data(), lhs.num_elements(), algorithm.lhs_component_count,
                             algorithm.lhs_precision, device);
  const std::vector<std::unique_ptr<S[]>> b_parts =
      SplitIntoComponents<S>(b_values.data(), rhs.num_elements(), algorithm.rhs_component_count,
                             algorithm.rhs_precision, device);
  const auto [batch, m, k, n] = std::array{plan.batch, plan.m, plan.k, plan.n};
  const int64_t count = result.num_elements();
  auto sum = std::make_unique<S[]>(count);
  auto product = std::make_unique_for_overwrite<S[]>(count);
  const std::vector<std::array<int64_t, 2>> pairs = ComponentPairs(algorithm).value();
  for (const auto& [i, j] : pairs) {
    BatchedMatMul(a_parts[i].get(), b_parts[j].get(), product.get(), batch, m, k, n, device);
    for (int64_t e = 0; e < count; ++e) sum[e] += product[e];
  }
  C* out = result.values<T>().data();
  const FloatFormat& format = Format(T);
  for (int64_t e = 0; e < count; ++e) {
    if constexpr (std::is_same_v<C, S>) {
      out[e] = sum[e];
    } else if constexpr (std::is_same_v<C, double> || std::is_same_v<C, float>) {
      out[e] = static_cast<C>(RoundToFormat(static_cast<double>(sum[e]), format));
    } else {
      out[e] = FromFloat<T>(static_cast<float>(RoundToFormat(sum[e], format)), format);
    }
  }
}

}  // namespace

void BatchedMatMul(const float* lhs, const float* rhs, float* out, int64_t batch, int64_t m,
                   int64_t k, int64_t n, const Device& device) {
  BatchedGemm<float>(SelectedGemmKernel(), lhs, rhs, out, batch, m, k, n, device);
}
void BatchedMatMul(const double* lhs, const double* rhs, double* out, int64_t batch, int64_t m,
                   int64_t k, int64_t n, const Device& device) {
  BatchedGemm<double>(SelectedGemmKernel(), lhs, rhs, out, batch, m, k, n, device);
}
void BatchedMatMul(const uint64_t* lhs, const uint64_t* rhs, uint64_t* out, int64_t batch,
                   int64_t m, int64_t k, int64_t n, const Device& device) {
  EigenBatchedMatMul(lhs, rhs, out, batch, m, k, n, device);
}

std::unique_ptr<float[]> ComplexRhs(const std::complex<float>* b, int64_t batch, int64_t k,
                                    int64_t n, const Device& device) {
  return RealFormOfComplexRhs(b, batch, k, n, device);
}
std::unique_ptr<double[]> ComplexRhs(const std::complex<double>* b, int64_t batch, int64_t k,
                                     int64_t n, const Device& device) {
  return RealFormOfComplexRhs(b, batch, k, n, device);
}

AdapterSupport SupportsDotGeneral(const Case& c) {
  const ElementType lhs = c.operands[0].element_type();
  const ElementType rhs = c.operands[1].element_type();
  const ElementType result = c.result_types[0].element_type;
  absl::StatusOr<std::optional<DotAlgorithm>> algorithm = ReadDotAlgorithm(c);
  if (!algorithm.ok()) return AdapterSupport::No(std::string(algorithm.status().message()));
  // Integer operands keep their exact products whatever the algorithm says.
  if (*algorithm && (IsFloat(lhs) || IsComplex(lhs))) {
    if (AdapterSupport support = SupportsAlgorithm(**algorithm, lhs); !support.supported) {
      return support;
    }
  }
  // A result type of its own: the operands widened to it exactly, then
  // contracted in it (accumulation in the result type); or a narrower float
  // or integer type, which the operand type's result is rounded or wrapped to.
  const bool same_kind_narrowing =
      (IsFloat(lhs) && IsFloat(result)) || (IsInteger(lhs) && IsInteger(result));
  if (lhs != rhs || !(IsExactConversion(lhs, result) || same_kind_narrowing)) {
    return AdapterSupport::No(absl::StrCat(
        "dot_general with element types ", TypeName(lhs), " x ", TypeName(rhs), " -> ",
        TypeName(result),
        " is not implemented (one operand type, and a result type that holds every operand "
        "value or is a narrower type of the same kind)"));
  }
  for (const Tensor& operand : c.operands) {
    if (operand.rank() > kMaxRank) {
      return AdapterSupport::No(absl::StrCat("dot_general with an operand of rank ", operand.rank(),
                                             " is not implemented (up to ", kMaxRank, ")"));
    }
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunDotGeneral(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  if (AdapterSupport support = SupportsDotGeneral(c); !support.supported) {
    return absl::InvalidArgumentError(support.reason);
  }
  absl::StatusOr<DotPlan> plan = MakeDotPlan(c);
  HLOCHECK_RETURN_IF_ERROR(plan.status());
  // The type the product is computed in: the result type (the operands
  // widened to it), or for a narrower result the operands' own, rounded (or
  // wrapped) to the result at the end.
  const ElementType result_type = c.result_types[0].element_type;
  const ElementType operand_type = c.operands[0].element_type();
  const bool narrowing = !IsExactConversion(operand_type, result_type);
  const ElementType type = narrowing ? operand_type : result_type;
  std::optional<Tensor> wide[2];
  for (int k = 0; k < 2; ++k) {
    const Tensor& t = c.operands[k];
    if (t.element_type() == type) continue;
    wide[k].emplace(t.shape(), type);
    ConvertBuffer(t.element_type(), t.raw(), type, wide[k]->raw(), t.num_elements(), device);
  }
  const Tensor& lhs = wide[0] ? *wide[0] : c.operands[0];
  const Tensor& rhs = wide[1] ? *wide[1] : c.operands[1];
  Tensor result(TensorType{c.result_types[0].shape, type});
  HLOCHECK_ASSIGN_OR_RETURN(const std::optional<DotAlgorithm> algorithm, ReadDotAlgorithm(c));
  if (result.num_elements() == 0) {
    // Nothing to compute.
  } else if (algorithm && IsFloat(type)) {
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsFloat(T)) {
        if (algorithm->accumulation_type == "f64") {
          DotKernelWithAlgorithm<T, double>(lhs, rhs, *plan, *algorithm, result, device);
        } else {
          DotKernelWithAlgorithm<T, float>(lhs, rhs, *plan, *algorithm, result, device);
        }
      }
    });
  } else {
    DispatchElementType(type,
                        [&]<ElementType T>() { DotKernel<T>(lhs, rhs, *plan, result, device); });
  }
  if (!narrowing) return OneResult(std::move(result));
  Tensor narrow(c.result_types[0]);
  if (IsFloat(type)) {
    ConvertBuffer(type, result.raw(), result_type, narrow.raw(), result.num_elements(), device);
  } else {
    // Integer sums wrap modulo 2^width: the narrower type keeps the low bits.
    std::vector<uint64_t> bits(static_cast<size_t>(result.num_elements()));
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsInteger(T)) {
        auto values = result.values<T>();
        for (size_t e = 0; e < bits.size(); ++e) bits[e] = IntegerBits<T>(values[e]);
      }
    });
    DispatchElementType(result_type, [&]<ElementType T>() {
      if constexpr (IsInteger(T)) {
        auto values = narrow.values<T>();
        for (size_t e = 0; e < bits.size(); ++e) values[e] = WrapInteger<T>(bits[e]);
      }
    });
  }
  return OneResult(std::move(narrow));
}

std::vector<OpEntry> ContractionOps() {
  return {
      {"dot_general", 2, &SupportsDotGeneral, &RunDotGeneral},
      {"convolution", 2, &SupportsConvolution, &RunConvolution},
  };
}

}  // namespace hlocheck::cpu
