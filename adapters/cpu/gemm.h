// The CPU adapter's f32/f64 matrix products (dot_general, convolution after
// im2col): the fastest kernel of gemm_kernel.h this CPU runs, threaded over
// tiles of the result. Integer products stay with Eigen (contraction.cc).
#ifndef HLOCHECK_ADAPTERS_CPU_GEMM_H_
#define HLOCHECK_ADAPTERS_CPU_GEMM_H_

#include <cstdint>
#include <vector>

#include "adapters/cpu/cpu_internal.h"
#include "adapters/cpu/gemm_kernel.h"

namespace hlocheck::cpu {

// The widest kernel this CPU runs, decided once.
const GemmKernel& SelectedGemmKernel();
// Every kernel this CPU runs, widest first (tests and benchmarks).
std::vector<const GemmKernel*> SupportedGemmKernels();

// out[b] = lhs[b] x rhs[b] for row-major [m, k] x [k, n] matrices stored one
// after another; k may be 0 (a result of zeros). The products of one result
// element are summed in blocks of k in the kernel's order, each block with
// fused multiply-adds where the CPU has them: a sum of k products, as the
// spec leaves it.
template <typename T>
void BatchedGemm(const GemmKernel& kernel, const T* lhs, const T* rhs, T* out, int64_t batch,
                 int64_t m, int64_t k, int64_t n, const Device& device);

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_GEMM_H_
