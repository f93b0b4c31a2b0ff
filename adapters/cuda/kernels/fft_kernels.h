// fft's kernel (kernel_api.h's DftArgs): the discrete Fourier transform
// along one dimension by its definition, in double, one thread per output
// element. (cuFFT is not used yet: the definition is the same on both
// machines.)
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_FFT_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_FFT_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/cuda/kernels/scalar.h"

namespace hlocheck::cuda {

struct DftFunctor {
  DftArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    const int64_t n = args.dims[args.dimension];
    int64_t stride = 1;
    for (int d = args.rank - 1; d > args.dimension; --d) stride *= args.dims[d];
    const int64_t k = (i / stride) % n;
    const int64_t first = i - k * stride;  // the row's element 0
    const double sign = args.inverse ? 1.0 : -1.0;
    const double turn = 6.283185307179586476925286766559 / static_cast<double>(n);
    double re = 0;
    double im = 0;
    for (int64_t j = 0; j < n; ++j) {
      const double angle = sign * turn * static_cast<double>((j * k) % n);
      const double c = Cos(angle);
      const double s = Sin(angle);
      const double xr = args.in[2 * (first + j * stride)];
      const double xi = args.in[2 * (first + j * stride) + 1];
      re += xr * c - xi * s;
      im += xr * s + xi * c;
    }
    if (args.inverse) {
      re /= static_cast<double>(n);
      im /= static_cast<double>(n);
    }
    args.out[2 * i] = re;
    args.out[2 * i + 1] = im;
  }
};

template <typename Exec>
std::string RunDft(const Exec& exec, const DftArgs& args) {
  int64_t n = 1;
  for (int d = 0; d < args.rank; ++d) n *= args.dims[d];
  if (n == 0) return "";
  return exec.ForEach(n, DftFunctor{args});
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_FFT_KERNELS_H_
