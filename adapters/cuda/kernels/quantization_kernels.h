// uniform_quantize's and uniform_dequantize's kernel (kernel_api.h's
// QuantizeArgs).
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_QUANTIZATION_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_QUANTIZATION_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/elementwise_kernels.h"
#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/cuda/kernels/scalar.h"

namespace hlocheck::cuda {

// v rounded once to the expressed type, as a double.
HLOCHECK_HD double ToExpressed(const ElementKind& expressed, double v) {
  if (expressed.storage == Storage::kF32) return static_cast<double>(static_cast<float>(v));
  if (expressed.storage == Storage::kF64) return v;
  return DecodeMiniFloat(expressed.mini, EncodeMiniFloat(expressed.mini, v));
}

HLOCHECK_HD int64_t ParameterIndex(const Quantization& q, int64_t i) {
  return q.size <= 1 ? 0 : (i / q.stride) % q.size;
}

struct QuantizeFunctor {
  QuantizeArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    const Number in = LoadNumber(args.in_kind, args.operand, i);
    double x;
    if (args.in_quantized) {
      const int64_t k = ParameterIndex(args.in, i);
      const int64_t storage = static_cast<int64_t>(in.i);
      const double difference =
          ToExpressed(args.in.expressed, static_cast<double>(storage - args.in.zero_points[k]));
      x = ToExpressed(args.in.expressed, difference * args.in.scales[k]);
    } else {
      x = in.f;
    }
    Number out;
    if (!args.quantize) {
      out.is_float = true;
      out.f = x;
      StoreNumber(args.out_kind, args.result, i, out);
      return;
    }
    const int64_t k = ParameterIndex(args.out, i);
    const double rounded = RoundEven(ToExpressed(args.out.expressed, x / args.out.scales[k]));
    // Far beyond any storage range, and exact in int64.
    const double wide = 4611686018427387904.0;  // 2^62
    int64_t quotient;
    if (IsNan(rounded)) {
      quotient = args.out.storage_min;  // NaN has no quantized value
    } else {
      quotient = static_cast<int64_t>(rounded < -wide ? -wide : rounded > wide ? wide : rounded);
    }
    int64_t value = quotient + args.out.zero_points[k];
    value = value < args.out.storage_min   ? args.out.storage_min
            : value > args.out.storage_max ? args.out.storage_max
                                           : value;
    out.i = static_cast<uint64_t>(value);
    out.is_signed = true;
    StoreNumber(args.out_kind, args.result, i, out);
  }
};

template <typename Exec>
std::string RunQuantize(const Exec& exec, const QuantizeArgs& args) {
  if (args.n == 0) return "";
  return exec.ForEach(args.n, QuantizeFunctor{args});
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_QUANTIZATION_KERNELS_H_
