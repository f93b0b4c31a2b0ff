// Batch normalisation's kernels (kernel_api.h's BatchNormArgs): per-feature
// statistics, one thread per feature summing its elements in index order in
// double, then one thread per element.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_BATCH_NORM_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_BATCH_NORM_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/elementwise_kernels.h"
#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/cuda/kernels/scalar.h"

namespace hlocheck::cuda {

HLOCHECK_HD double Real(const ElementKind& kind, const void* p, int64_t i) {
  return LoadNumber(kind, p, i).f;
}

HLOCHECK_HD void StoreReal(const ElementKind& kind, void* p, int64_t i, double value) {
  Number n;
  n.is_float = true;
  n.f = value;
  StoreNumber(kind, p, i, n);
}

struct BatchNormStats {
  BatchNormArgs args;
  HLOCHECK_HD void operator()(int64_t f) const {
    const int64_t block = args.features * args.inner;
    const int64_t outer = block == 0 ? 0 : args.n / block;
    double* stats = args.stats + 3 * f;
    if (args.op == BatchNormOp::kTraining) {
      double sum = 0;
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t j = 0; j < args.inner; ++j)
          sum += Real(args.kind, args.x, o * block + f * args.inner + j);
      }
      const double mean = sum / args.count;
      double squares = 0;
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t j = 0; j < args.inner; ++j) {
          const double centered = Real(args.kind, args.x, o * block + f * args.inner + j) - mean;
          squares += centered * centered;
        }
      }
      stats[0] = mean;
      stats[1] = squares / args.count;
      StoreReal(args.kind, args.feature_out0, f, stats[0]);
      StoreReal(args.kind, args.feature_out1, f, stats[1]);
    } else if (args.op == BatchNormOp::kGrad) {
      const double mean = Real(args.kind, args.mean, f);
      const double stddev = Sqrt(Real(args.kind, args.variance, f) + args.epsilon);
      double sum_g = 0;
      double sum_g_centered = 0;
      double sum_g_normalized = 0;
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t j = 0; j < args.inner; ++j) {
          const int64_t i = o * block + f * args.inner + j;
          const double g = Real(args.kind, args.grad_output, i);
          const double centered = Real(args.kind, args.x, i) - mean;
          sum_g += g;
          sum_g_centered += g * centered;
          sum_g_normalized += g * (centered / stddev);
        }
      }
      stats[0] = sum_g;
      stats[1] = sum_g_centered;
      stats[2] = sum_g_normalized;
      StoreReal(args.kind, args.feature_out0, f, sum_g_normalized);
      StoreReal(args.kind, args.feature_out1, f, sum_g);
    }
  }
};

struct BatchNormElements {
  BatchNormArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    const int64_t f = (i / args.inner) % args.features;
    const double x = Real(args.kind, args.x, i);
    const double scale = Real(args.kind, args.scale, f);
    double out;
    if (args.op == BatchNormOp::kInference) {
      const double factor = scale / Sqrt(Real(args.kind, args.variance, f) + args.epsilon);
      out = (x - Real(args.kind, args.mean, f)) * factor + Real(args.kind, args.offset, f);
    } else if (args.op == BatchNormOp::kTraining) {
      const double* stats = args.stats + 3 * f;
      out = scale * ((x - stats[0]) / Sqrt(stats[1] + args.epsilon)) +
            Real(args.kind, args.offset, f);
    } else {
      const double* stats = args.stats + 3 * f;
      const double variance = Real(args.kind, args.variance, f);
      const double stddev = Sqrt(variance + args.epsilon);
      const double centered = x - Real(args.kind, args.mean, f);
      const double g = Real(args.kind, args.grad_output, i);
      const double i6 =
          (g * args.count - stats[0]) - stats[1] * centered / (variance + args.epsilon);
      out = scale / stddev / args.count * i6;
    }
    StoreReal(args.kind, args.out, i, out);
  }
};

template <typename Exec>
std::string RunBatchNorm(const Exec& exec, const BatchNormArgs& args) {
  std::string error;
  if (args.op != BatchNormOp::kInference && args.features > 0) {
    error = exec.ForEach(args.features, BatchNormStats{args});
  }
  if (error.empty() && args.n > 0) error = exec.ForEach(args.n, BatchNormElements{args});
  return error;
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_BATCH_NORM_KERNELS_H_
