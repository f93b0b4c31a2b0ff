// Internal to the CPU adapter's contraction files (contraction.cc for
// dot_general, contraction_convolution.cc for convolution): the types
// products are computed in and the batched matrix product both reduce to.
#ifndef HLOCHECK_ADAPTERS_CPU_CONTRACTION_INTERNAL_H_
#define HLOCHECK_ADAPTERS_CPU_CONTRACTION_INTERNAL_H_

#include <complex>
#include <cstdint>
#include <memory>

#include "adapters/cpu/cpu_internal.h"

namespace hlocheck::cpu {

// The type a product is computed in. Only three, so that the element types
// share the kernels:
//  - f32 and f64 natively (gemm.h's kernels), and complex<f32>/<f64> as real
//    products of their parts (see ComplexRhs), which are the same products
//    and sums that complex multiplication does, in the same real kernel;
//  - float for the narrow float types, each result rounded once at the end;
//  - uint64 for every integer type, where products and sums wrap modulo
//    2^64, which the result's 2^width divides; for i1 a count of true
//    products. These go through Eigen's threaded TensorContraction (one
//    instantiation: about 9 s of compile time, 70 s under ASan+UBSan).
template <ElementType T>
struct Compute {
  using type = ContainerT<T>;
};
template <ElementType T>
requires(kIsBitPatternFloat<T>) struct Compute<T> {
  using type = float;
};
template <ElementType T>
requires(IsComplex(T)) struct Compute<T> {
  using type = typename ContainerT<T>::value_type;
};
template <ElementType T>
requires(IsInteger(T) || IsBool(T)) struct Compute<T> {
  using type = uint64_t;
};
template <ElementType T>
using ComputeT = typename Compute<T>::type;

// out[b] = lhs[b] x rhs[b] for row-major [m, k] x [k, n] matrices, one
// overload per compute type: gemm.h's kernels for f32 and f64, Eigen's
// contraction (wrapping) for uint64. Defined in contraction.cc, so that
// Eigen's contraction is instantiated once.
void BatchedMatMul(const float* lhs, const float* rhs, float* out, int64_t batch, int64_t m,
                   int64_t k, int64_t n, const Device& device);
void BatchedMatMul(const double* lhs, const double* rhs, double* out, int64_t batch, int64_t m,
                   int64_t k, int64_t n, const Device& device);
void BatchedMatMul(const uint64_t* lhs, const uint64_t* rhs, uint64_t* out, int64_t batch,
                   int64_t m, int64_t k, int64_t n, const Device& device);

// A complex [k, n] matrix b as the real [2k, 2n] matrix
//   [ re(b) im(b) ]
//   [-im(b) re(b) ]  (each entry's 2x2 block interleaved),
// so that the complex [m, k] lhs, read as a real [m, 2k] matrix, times it
// gives the complex [m, n] product read as a real [m, 2n] matrix:
//   re = sum(re(a) re(b) + im(a) (-im(b))), im = sum(re(a) im(b) + im(a) re(b)).
// x + (-y) is exactly x - y in IEEE arithmetic, signed zeros included.
std::unique_ptr<float[]> ComplexRhs(const std::complex<float>* b, int64_t batch, int64_t k,
                                    int64_t n, const Device& device);
std::unique_ptr<double[]> ComplexRhs(const std::complex<double>* b, int64_t batch, int64_t k,
                                     int64_t n, const Device& device);

// dot_general as a batched matrix product: each operand's dimensions in
// canonical order (batch, free, contracting for lhs; batch, contracting,
// free for rhs) and the product's sizes.
struct DotPlan {
  std::vector<int64_t> lhs_perm;  // lhs dimensions in canonical order
  std::vector<int64_t> rhs_perm;
  int64_t batch = 1;
  int64_t m = 1;
  int64_t k = 1;
  int64_t n = 1;
};

// Checks the dimension numbers the way the spec's constraints do (any
// mistake would read out of bounds) and derives the plan.
absl::StatusOr<DotPlan> MakeDotPlan(const Case& c);

// convolution (contraction_convolution.cc).
AdapterSupport SupportsConvolution(const Case& c);
absl::StatusOr<Results> RunConvolution(const Case& c, const Device& device);

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_CONTRACTION_INTERNAL_H_
