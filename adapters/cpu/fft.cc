// fft (seed 002): FFT, IFFT, RFFT and IRFFT over the last L dimensions, as
// 1-dimensional complex transforms along one dimension at a time with Eigen's
// FFT module (kissfft, BSD-licensed; mixed radix for any length), in the
// operand's precision. RFFT transforms the real values as complex ones and
// keeps the first N/2 + 1; IRFFT completes the half spectrum (X[N - k] =
// conj(X[k])) before its last inverse and keeps the real parts.
#include <algorithm>
#include <complex>

// cpu_internal.h first: it defines EIGEN_USE_THREADS, which every Eigen
// include of the adapter must see.
#include "adapters/cpu/cpu_internal.h"
#include "adapters/shapes/fft_shapes.h"
// clang-format off
#include <unsupported/Eigen/FFT>
// clang-format on

namespace hlocheck::cpu {
namespace {

// Transforms along dimension d of a row-major array of `shape`, rows in
// parallel, each worker with its own plan cache.
template <typename R>
void AlongDimension(std::vector<std::complex<R>>& values, const Shape& shape, size_t d,
                    bool inverse, const Device& device) {
  const int64_t n = shape[d];
  if (n <= 1 || values.empty()) return;
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  const int64_t stride = strides[d];
  const int64_t rows = static_cast<int64_t>(values.size()) / n;
  ParallelFor(device, rows, 16.0 * n, 40.0 * n, [&](int64_t first, int64_t last) {
    Eigen::FFT<R> fft;
    std::vector<std::complex<R>> in(static_cast<size_t>(n)), out(static_cast<size_t>(n));
    for (int64_t row = first; row < last; ++row) {
      // The row's first element: `row` counts the other dimensions in order.
      const int64_t outer = row / stride;
      const int64_t inner = row % stride;
      std::complex<R>* base = values.data() + outer * stride * n + inner;
      for (int64_t k = 0; k < n; ++k) in[k] = base[k * stride];
      if (inverse) {
        fft.inv(out.data(), in.data(), n);  // scaled by 1/n
      } else {
        fft.fwd(out.data(), in.data(), n);
      }
      for (int64_t k = 0; k < n; ++k) base[k * stride] = out[k];
    }
  });
}

template <typename R>
void Run(const Tensor& operand, const std::string& type, const std::vector<int64_t>& lengths,
         Tensor& result, const Device& device) {
  using C = std::complex<R>;
  const size_t rank = operand.shape().size();
  const size_t first = rank - lengths.size();
  std::vector<C> values(static_cast<size_t>(operand.num_elements()));
  if (IsComplex(operand.element_type())) {
    auto x = operand.data<C>();
    std::copy(x.begin(), x.end(), values.begin());
  } else {
    auto x = operand.data<R>();
    for (size_t i = 0; i < values.size(); ++i) values[i] = C(x[i], 0);
  }
  Shape shape = operand.shape();
  if (type == "FFT" || type == "RFFT") {
    for (size_t d = rank; d-- > first;) AlongDimension(values, shape, d, false, device);
  } else {
    for (size_t d = first; d + 1 < rank; ++d) AlongDimension(values, shape, d, true, device);
    if (type == "IRFFT") {
      const int64_t n = lengths.back();
      const int64_t half = shape.back();
      std::vector<C> completed(static_cast<size_t>(values.size() / std::max<int64_t>(half, 1) * n));
      const int64_t rows = half == 0 ? 0 : static_cast<int64_t>(values.size()) / half;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k = 0; k < n; ++k) {
          completed[r * n + k] =
              k < half ? values[r * half + k] : std::conj(values[r * half + (n - k)]);
        }
      }
      values = std::move(completed);
      shape.back() = n;
    }
    AlongDimension(values, shape, rank - 1, true, device);
  }
  // Into the result: RFFT keeps the first N/2 + 1 of the last dimension,
  // IRFFT the real parts.
  const int64_t width = shape.empty() ? 1 : shape.back();
  const int64_t kept = result.shape().empty() ? 1 : result.shape().back();
  const int64_t rows = kept == 0 ? 0 : result.num_elements() / kept;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < kept; ++k) {
      const C v = values[r * width + k];
      if (IsComplex(result.element_type())) {
        result.data<C>()[r * kept + k] = v;
      } else {
        result.data<R>()[r * kept + k] = v.real();
      }
    }
  }
}

AdapterSupport SupportsFft(const Case& c) { return SupportsUnquantized(c); }

absl::StatusOr<Results> RunFft(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_ASSIGN_OR_RETURN(const FftPlan plan, CheckFft(c));
  const Tensor& operand = c.operands[0];
  const TensorType& result_type = c.result_types[0];
  const std::string& type = plan.type;
  const std::vector<int64_t>& lengths = plan.lengths;
  const ElementType in = operand.element_type();
  Tensor result(result_type);
  if (ComponentType(in) == ElementType::kF32) {
    Run<float>(operand, type, lengths, result, device);
  } else {
    Run<double>(operand, type, lengths, result, device);
  }
  return OneResult(std::move(result));
}

}  // namespace

std::vector<OpEntry> FftOps() {
  return {
      {"fft", 1, &SupportsFft, &RunFft},
  };
}

}  // namespace hlocheck::cpu
