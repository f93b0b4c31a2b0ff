// Elementwise ops of the spec: add, exponential, convert (the other
// families are in elementwise_*.cc). Each dispatches on
// the element type once and then runs a typed kernel over the whole tensor,
// split into blocks over the thread pool.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"

namespace hlocheck::cpu {
namespace {

// ---------------------------------------------------------------- add

template <ElementType T>
void AddKernel(const Tensor& lhs, const Tensor& rhs, Tensor& out, const Device& device) {
  using C = ContainerT<T>;
  const int64_t n = out.num_elements();
  if (n == 0) return;
  const C* x = lhs.values<T>().data();
  const C* y = rhs.values<T>().data();
  C* z = out.values<T>().data();
  constexpr double kBytes = sizeof(C);
  if constexpr (T == ElementType::kF32 || T == ElementType::kF64 || IsComplex(T)) {
    Map<C>(z, n).device(device) = ConstMap<C>(x, n) + ConstMap<C>(y, n);
  } else if constexpr (T == ElementType::kF16) {
    // Eigen's half adds in float and rounds once, to nearest even.
    Map<Eigen::half>(reinterpret_cast<Eigen::half*>(z), n).device(device) =
        ConstMap<Eigen::half>(reinterpret_cast<const Eigen::half*>(x), n) +
        ConstMap<Eigen::half>(reinterpret_cast<const Eigen::half*>(y), n);
  } else if constexpr (kIsBitPatternFloat<T>) {
    // bf16 goes through here too: Eigen's vectorized bfloat16 add, built
    // with AVX512-BF16, rounds with vcvtneps2bf16, which flushes subnormal
    // results to zero; its scalar conversion (in FromFloat) does not.
    const FloatFormat& format = Format(T);
    ParallelFor(device, n, kBytes, 40, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        z[i] = FromFloat<T>(ToFloat<T>(x[i]) + ToFloat<T>(y[i]), format);
      }
    });
  } else if constexpr (IsBool(T)) {
    // i1 addition is logical or; any non-zero byte counts as true.
    ParallelFor(device, n, kBytes, 1, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) z[i] = (x[i] | y[i]) != 0 ? 1 : 0;
    });
  } else if constexpr (BitWidth(T) == 8 * sizeof(C)) {
    // Full-width integers wrap in their unsigned counterpart, where overflow
    // is defined; the signed result is the same bits.
    using U = std::make_unsigned_t<C>;
    Map<U>(reinterpret_cast<U*>(z), n).device(device) =
        ConstMap<U>(reinterpret_cast<const U*>(x), n) +
        ConstMap<U>(reinterpret_cast<const U*>(y), n);
  } else {
    // si2, si4, ui2, ui4: wrap to the type's width, not the byte's.
    ParallelFor(device, n, kBytes, 2, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        z[i] = WrapInteger<T>(IntegerBits<T>(x[i]) + IntegerBits<T>(y[i]));
      }
    });
  }
}

// -------------------------------------------------------- exponential

// Eigen 3.4's vectorized float exp (SSE, AVX, AVX2) is within 1 ULP
// (measured on every 97th float) where its result is normal, but it clamps
// its argument, so where the result is subnormal or zero it is wrong
// (exp(-100) = exp(-inf) = 2.9e-39); below kExpVectorMin libm's expf takes
// over. Its AVX-512 exp is a different algorithm, up to 5 ULP off and
// overflowing from x = 88.4 on, beyond the 2 ULP that
// spec/ops/exponential.yaml allows, so a build for AVX-512 uses libm alone.
void ExpBlock(const float* in, float* out, int64_t n) {
#ifdef EIGEN_VECTORIZE_AVX512
  for (int64_t i = 0; i < n; ++i) out[i] = std::exp(in[i]);
#else
  constexpr float kExpVectorMin = -87.0f;
  Map<float>(out, n) = ConstMap<float>(in, n).exp();
  for (int64_t i = 0; i < n; ++i) {
    if (in[i] < kExpVectorMin) out[i] = std::exp(in[i]);
  }
#endif
}

template <ElementType T>
void ExponentialKernel(const Tensor& operand, Tensor& out, const Device& device) {
  using C = ContainerT<T>;
  const int64_t n = out.num_elements();
  if (n == 0) return;
  const C* x = operand.values<T>().data();
  C* z = out.values<T>().data();
  if constexpr (T == ElementType::kF32) {
    ParallelFor(device, n, sizeof(C), 30,
                [&](int64_t first, int64_t last) { ExpBlock(x + first, z + first, last - first); });
  } else if constexpr (T == ElementType::kF64) {
    // Eigen 3.4's vectorized double exp is up to 2 ULP off (19 in 4M random
    // arguments), beyond the 1 ULP that spec/ops/exponential.yaml allows;
    // glibc's exp is within 0.52 ULP.
    ParallelFor(device, n, sizeof(C), 40, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) z[i] = std::exp(x[i]);
    });
  } else if constexpr (IsComplex(T)) {
    Map<C>(z, n).device(device) = ConstMap<C>(x, n).exp();
  } else {
    // Narrow floats: exp in float (vectorized on a small stack buffer), then
    // one rounding to the type.
    const FloatFormat& format = Format(T);
    ParallelFor(device, n, sizeof(C), 60, [&](int64_t first, int64_t last) {
      constexpr int64_t kBlock = 256;
      std::array<float, kBlock> in;
      std::array<float, kBlock> result;
      for (int64_t start = first; start < last; start += kBlock) {
        const int64_t count = std::min(kBlock, last - start);
        for (int64_t i = 0; i < count; ++i) in[i] = ToFloat<T>(x[start + i]);
        ExpBlock(in.data(), result.data(), count);
        for (int64_t i = 0; i < count; ++i) z[start + i] = FromFloat<T>(result[i], format);
      }
    });
  }
}

}  // namespace

void ConvertBuffer(ElementType from, const void* source, ElementType to, void* destination,
                   int64_t count, const Device& device) {
  const int from_bytes = ContainerBytes(from);
  const int to_bytes = ContainerBytes(to);
  const auto* in = static_cast<const std::byte*>(source);
  auto* out = static_cast<std::byte*>(destination);
  // The shared conversion layer dispatches once per call, so each block pays
  // for one dispatch only.
  ParallelFor(device, count, from_bytes + to_bytes, 50, [&](int64_t first, int64_t last) {
    ConvertElements(from, in + first * from_bytes, to, out + first * to_bytes, last - first);
  });
}

absl::Status CheckElementwise(const Case& c, size_t operands, bool same_type) {
  if (absl::Status status = CheckCounts(c, operands); !status.ok()) return status;
  const TensorType& result = c.result_types[0];
  for (const Tensor& operand : c.operands) {
    if (operand.shape() != result.shape) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": operand shape ",
                                                     operand.type().ToString(),
                                                     " differs from result ", result.ToString()));
    }
    if (same_type && operand.element_type() != result.element_type) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": operand type ",
                                                     operand.type().ToString(),
                                                     " differs from result ", result.ToString()));
    }
  }
  return absl::OkStatus();
}

AdapterSupport SupportsAdd(const Case& c) { return SupportsTypes(c, AnyType, "every type"); }

absl::StatusOr<Results> RunAdd(const Case& c, const Device& device) {
  if (absl::Status status = CheckElementwise(c, 2, true); !status.ok()) return status;
  Tensor result = NewResult(c.result_types[0]);
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    AddKernel<T>(c.operands[0], c.operands[1], result, device);
  });
  Results results;
  results.push_back(std::move(result));
  return results;
}

AdapterSupport SupportsExponential(const Case& c) {
  return SupportsTypes(c, FloatOrComplex, "float and complex types");
}

absl::StatusOr<Results> RunExponential(const Case& c, const Device& device) {
  if (absl::Status status = CheckElementwise(c, 1, true); !status.ok()) return status;
  Tensor result = NewResult(c.result_types[0]);
  const ElementType type = result.element_type();
  if (!IsFloat(type) && !IsComplex(type)) {
    return absl::InvalidArgumentError(
        absl::StrCat("exponential: element type ", TypeName(type), " is not float or complex"));
  }
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsFloat(T) || IsComplex(T)) ExponentialKernel<T>(c.operands[0], result, device);
  });
  Results results;
  results.push_back(std::move(result));
  return results;
}

AdapterSupport SupportsConvert(const Case& c) { return SupportsTypes(c, AnyType, "every type"); }

absl::StatusOr<Results> RunConvert(const Case& c, const Device& device) {
  if (absl::Status status = CheckElementwise(c, 1, false); !status.ok()) return status;
  const Tensor& operand = c.operands[0];
  Tensor result = NewResult(c.result_types[0]);
  ConvertBuffer(operand.element_type(), operand.raw(), result.element_type(), result.raw(),
                result.num_elements(), device);
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace hlocheck::cpu
