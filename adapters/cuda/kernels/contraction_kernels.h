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

struct ConvolutionFunctor {
  ConvolutionArgs args;

  // The product of lhs at `x` (-1: padding, a zero) and rhs at `w`, added
  // to the sums.
  HLOCHECK_HD void Accumulate(int64_t x, int64_t w, double& sum64, float& sum32,
                              uint64_t& sum_int) const {
    const Number b = LoadNumber(args.kind, args.rhs, w);
    Number a;
    a.is_float = b.is_float;
    if (x >= 0) a = LoadNumber(args.kind, args.lhs, x);
    switch (args.kind.storage) {
      case Storage::kF64:
        sum64 += a.f * b.f;
        break;
      case Storage::kF32:
      case Storage::kMini8:
      case Storage::kMini16:
        sum32 += static_cast<float>(a.f) * static_cast<float>(b.f);
        break;
      case Storage::kBool:
        sum_int |= a.i & b.i;
        break;
      default:
        sum_int += a.i * b.i;
    }
  }

  HLOCHECK_HD void operator()(int64_t i) const {
    // Result coordinates in the logical order (batch, feature, spatial...).
    int64_t o[kMaxSpatial] = {};
    int64_t rest = i;
    int64_t out_offset = 0;
    int64_t kernel_positions = 1;
    for (int s = args.spatial - 1; s >= 0; --s) {
      o[s] = rest % args.out_spatial[s];
      rest /= args.out_spatial[s];
      out_offset += o[s] * args.out_spatial_strides[s];
      kernel_positions *= args.rhs_spatial[s];
    }
    const int64_t f = rest % args.out_features;
    const int64_t b = rest / args.out_features;
    out_offset += f * args.out_feature_stride + b * args.out_batch_stride;
    const int64_t g = f / args.group_outputs;
    const int64_t batch = args.batch_groups ? g * args.out_batch + b : b;
    const int64_t first_feature = args.batch_groups ? 0 : g * args.group_inputs;
    double sum64 = 0;
    float sum32 = 0;
    uint64_t sum_int = 0;
    for (int64_t k = 0; k < kernel_positions; ++k) {
      int64_t k_rest = k;
      int64_t x_offset = batch * args.lhs_batch_stride;
      int64_t w_offset = f * args.rhs_output_stride;
      bool padding = false;
      for (int s = args.spatial - 1; s >= 0; --s) {
        const int64_t ks = k_rest % args.rhs_spatial[s];
        k_rest /= args.rhs_spatial[s];
        const int64_t kernel_index = args.reversal[s] ? args.rhs_spatial[s] - 1 - ks : ks;
        w_offset += kernel_index * args.rhs_spatial_strides[s];
        const int64_t q =
            o[s] * args.window_strides[s] + ks * args.rhs_dilation[s] - args.pad_low[s];
        if (q < 0 || q % args.lhs_dilation[s] != 0 ||
            q / args.lhs_dilation[s] >= args.lhs_spatial[s]) {
          padding = true;
        } else {
          x_offset += q / args.lhs_dilation[s] * args.lhs_spatial_strides[s];
        }
      }
      for (int64_t in = 0; in < args.group_inputs; ++in) {
        Accumulate(padding ? -1 : x_offset + (first_feature + in) * args.lhs_feature_stride,
                   w_offset + in * args.rhs_input_stride, sum64, sum32, sum_int);
      }
    }
    Number result;
    if (args.kind.storage == Storage::kF64) {
      result.is_float = true;
      result.f = sum64;
    } else if (args.kind.storage == Storage::kF32 || args.kind.storage == Storage::kMini8 ||
               args.kind.storage == Storage::kMini16) {
      result.is_float = true;
      result.f = sum32;
    } else {
      result.i = sum_int;
      result.is_signed = args.kind.storage == Storage::kSigned;
    }
    StoreNumber(args.kind, args.out, out_offset, result);
  }
};

template <typename Exec>
std::string RunConvolution(const Exec& exec, const ConvolutionArgs& args) {
  int64_t n = args.out_batch * args.out_features;
  for (int s = 0; s < args.spatial; ++s) n *= args.out_spatial[s];
  if (n == 0) return "";
  return exec.ForEach(n, ConvolutionFunctor{args});
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_CONTRACTION_KERNELS_H_
