// The matrix product every dot_general becomes once its operands are laid
// out as [batch, m, k] and [batch, k, n] (kernel_api.h's MatmulArgs): one
// thread per result element, summing k products in order in the
// accumulator. The GPU machine sends f32, f64, f16 and bf16 to cuBLAS
// instead (device_machine.cu); this kernel runs the other types there, and
// every type on the host.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_CONTRACTION_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_CONTRACTION_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/elementwise_kernels.h"
#include "adapters/cuda/kernels/kernel_api.h"

namespace hlocheck::cuda {

// f32 with its low 13 significand bits cleared: what a tensor core reads
// of an f32 operand in TF32 mode (the planted fault).
HLOCHECK_HD float TruncateToTf32(float x) {
  return FloatOfBits(BitsOfFloat(x) & ~uint32_t{0x1fff});
}

struct MatmulFunctor {
  MatmulArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    const int64_t column = i % args.n;
    const int64_t row = (i / args.n) % args.m;
    const int64_t batch = i / (args.n * args.m);
    const int64_t lhs_base = (batch * args.m + row) * args.k;
    const int64_t rhs_base = batch * args.k * args.n + column;
    Number result;
    if (args.in.storage == Storage::kF64) {
      double acc = 0;
      for (int64_t j = 0; j < args.k; ++j) {
        acc += LoadNumber(args.in, args.lhs, lhs_base + j).f *
               LoadNumber(args.in, args.rhs, rhs_base + j * args.n).f;
      }
      result.is_float = true;
      result.f = acc;
    } else if (args.in.storage == Storage::kF32 || args.in.storage == Storage::kMini8 ||
               args.in.storage == Storage::kMini16) {
      float acc = 0;
      for (int64_t j = 0; j < args.k; ++j) {
        float x = static_cast<float>(LoadNumber(args.in, args.lhs, lhs_base + j).f);
        float y = static_cast<float>(LoadNumber(args.in, args.rhs, rhs_base + j * args.n).f);
        if (args.tf32) {
          x = TruncateToTf32(x);
          y = TruncateToTf32(y);
        }
        acc += x * y;
      }
      result.is_float = true;
      result.f = acc;
    } else if (args.in.storage == Storage::kBool) {
      uint64_t acc = 0;
      for (int64_t j = 0; j < args.k; ++j) {
        acc |= LoadNumber(args.in, args.lhs, lhs_base + j).i &
               LoadNumber(args.in, args.rhs, rhs_base + j * args.n).i;
      }
      result.i = acc;
    } else {
      uint64_t acc = 0;
      for (int64_t j = 0; j < args.k; ++j) {
        acc += LoadNumber(args.in, args.lhs, lhs_base + j).i *
               LoadNumber(args.in, args.rhs, rhs_base + j * args.n).i;
      }
      result.i = acc;
      result.is_signed = args.in.storage == Storage::kSigned;
    }
    StoreNumber(args.out, args.out_data, i, result);
  }
};

template <typename Exec>
std::string RunMatmul(const Exec& exec, const MatmulArgs& args) {
  const int64_t n = args.batch * args.m * args.n;
  if (n == 0) return "";
  return exec.ForEach(n, MatmulFunctor{args});
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_CONTRACTION_KERNELS_H_
