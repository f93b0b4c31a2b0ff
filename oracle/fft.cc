// fft (seed 002): FFT, IFFT, RFFT and IRFFT over the last L = size(fft_length)
// dimensions, computed the way the spec writes them (a 1-dimensional
// transform along one dimension at a time, RFFT's truncation after the
// first, IRFFT's Hermitian completion before the last), each as the
// discrete Fourier sum in long double with twiddle factors to long double
// precision.
//
// What a backend may return instead: any algorithm (radix-2, mixed radix,
// Bluestein) in the result's precision u. Higham (Accuracy and Stability,
// Thm. 24.2) bounds the error of a radix-2 FFT norm-wise, ||y^ - y||_2 <=
// log2(N) eta / (1 - log2(N) eta) ||y||_2 with eta ~ 6u for accurate twiddle
// factors; every element's error is at most that norm. The oracle allows
// kFftConstant u (log2(N) + 2) ||y||_2 per element of each transformed block
// (N the product of the transformed lengths; ||y||_2 from Parseval: sqrt(N)
// ||x||_2 forward, ||x||_2 / sqrt(N) inverse, and sqrt(2) more for IRFFT,
// whose completed spectrum counts each element at most twice), a margin of
// about 8 over the radix-2 constant for the other algorithms, plus N
// smallest subnormals for underflow. A lost term, a wrong twiddle factor or
// an accumulation in a narrower type is off by far more (tests/oracle/
// fft_test.cc). docs/numerics.md says the same. A block holding an infinity
// is free (Inf - Inf or Inf x 0 inside the algorithm decides); one holding
// NaN is NaN.
#include <cmath>
#include <complex>
#include <numbers>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"
#include "oracle/step_errors.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;
using Value = std::complex<long double>;

constexpr double kFftConstant = 48.0;

// exp(sign 2 pi i m / n) for 0 <= m < n, exact where it is 1, -1, i or -i
// (sinl(pi) is not 0), else to long double precision.
Value Twiddle(int64_t m, int64_t n, long double sign) {
  if (m == 0) return Value(1, 0);
  if (2 * m == n) return Value(-1, 0);
  if (4 * m == n) return Value(0, sign);
  if (4 * m == 3 * n) return Value(0, -sign);
  const long double angle = sign * 2.0L * std::numbers::pi_v<long double> *
                            static_cast<long double>(m) / static_cast<long double>(n);
  return Value(cosl(angle), sinl(angle));
}

// The 1-dimensional transform of `n` values at data[0], data[stride], ...
// in place: sum over j of x[j] exp(sign 2 pi i j k / n), divided by n for the
// inverse. twiddles[m] is Twiddle(m, n, sign).
void Transform(Value* data, int64_t n, int64_t stride, bool inverse,
               const std::vector<Value>& twiddles, std::vector<Value>& scratch) {
  if (n <= 1) return;
  scratch.assign(static_cast<size_t>(n), Value(0, 0));
  for (int64_t k = 0; k < n; ++k) {
    Value sum(0, 0);
    for (int64_t j = 0; j < n; ++j) {
      // j k mod n keeps the angle in [0, 2 pi), where cosl and sinl are
      // accurate to long double.
      sum += data[j * stride] * twiddles[(j * k) % n];
    }
    scratch[k] = inverse ? sum / static_cast<long double>(n) : sum;
  }
  for (int64_t k = 0; k < n; ++k) data[k * stride] = scratch[k];
}

// Applies Transform along dimension `d` of a row-major array of `shape`.
void AlongDimension(std::vector<Value>& values, const Shape& shape, size_t d, bool inverse) {
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  const int64_t n = shape[d];
  if (n <= 1) return;
  std::vector<Value> scratch;
  // The n twiddle factors every slice uses, computed once (a cosl and a
  // sinl each: most of the oracle's fft time when computed per term).
  std::vector<Value> twiddles(static_cast<size_t>(n));
  for (int64_t m = 0; m < n; ++m) twiddles[m] = Twiddle(m, n, inverse ? 1.0L : -1.0L);
  Shape others = shape;
  others[d] = 1;
  for (IndexIterator it(others); !it.done(); it.Next()) {
    int64_t base = 0;
    for (size_t k = 0; k < shape.size(); ++k) base += it.index()[k] * strides[k];
    Transform(values.data() + base, n, strides[d], inverse, twiddles, scratch);
  }
}

Results Fft(const Case& c) {
  const Tensor& operand = c.operands[0];
  const TensorType& result_type = c.result_types[0];
  HLOCHECK_ASSIGN_OR_RETURN(const std::string type, EnumAttribute(c, "fft_type"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> lengths, IntListAttribute(c, "fft_length"));
  const size_t rank = operand.shape().size();
  const size_t transformed = lengths.size();
  if (transformed == 0 || transformed > rank) {
    return absl::InvalidArgumentError("fft: fft_length must name 1 to rank dimensions");
  }

  // The values in long double, in the operand's shape.
  std::vector<Value> values(static_cast<size_t>(operand.num_elements()));
  DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T) || IsComplex(T)) {
      auto x = operand.values<T>();
      for (size_t i = 0; i < values.size(); ++i) values[i] = ComplexLongDouble<T>(x[i]);
    }
  });
  Shape shape = operand.shape();
  const size_t first = rank - transformed;  // the first transformed dimension
  if (type == "FFT" || type == "RFFT") {
    // Last dimension first (RFFT's rfft, then truncated), then the others.
    for (size_t d = rank; d-- > first;) AlongDimension(values, shape, d, false);
  } else {
    for (size_t d = first; d + 1 < rank; ++d) AlongDimension(values, shape, d, true);
    if (type == "IFFT") {
      AlongDimension(values, shape, rank - 1, true);
    } else {
      // irfft: complete the half spectrum along the last dimension
      // (X[N - k] = conj(X[k])), invert, keep the real part.
      const int64_t n = lengths.back();
      const int64_t half = shape.back();
      Shape full = shape;
      full.back() = n;
      std::vector<Value> completed(static_cast<size_t>(NumElements(full)));
      const int64_t rows = half == 0 ? 0 : static_cast<int64_t>(values.size()) / half;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k = 0; k < n; ++k) {
          completed[r * n + k] =
              k < half ? values[r * half + k] : std::conj(values[r * half + (n - k)]);
        }
      }
      values = std::move(completed);
      shape = full;
      AlongDimension(values, shape, rank - 1, true);
    }
  }

  // Truncate (RFFT) or keep the shape.
  ResultExpectation e;
  e.check = Check::kErrorBound;
  const bool complex_result = IsComplex(result_type.element_type);
  const int parts = complex_result ? 2 : 1;
  const int64_t count = NumElements(result_type.shape);
  e.center_hi.resize(count * parts);
  e.center_lo.resize(count * parts);
  e.bound.resize(count * parts);
  FreeElements free(static_cast<size_t>(count));
  const Shape& out_shape = result_type.shape;
  const std::vector<int64_t> strides = RowMajorStrides(shape);

  // Per transformed block (one index of the batch dimensions): the input's
  // 2-norm and whether it holds an infinity.
  int64_t block = 1;
  for (size_t d = first; d < rank; ++d) block *= operand.shape()[d];
  const int64_t blocks = block == 0 ? 0 : operand.num_elements() / block;
  int64_t total = 1;
  for (int64_t n : lengths) total *= n;
  std::vector<long double> norms(static_cast<size_t>(blocks), 0);
  std::vector<uint8_t> infinite(static_cast<size_t>(blocks), 0);
  DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T) || IsComplex(T)) {
      auto x = operand.values<T>();
      for (int64_t b = 0; b < blocks; ++b) {
        for (int64_t i = b * block; i < (b + 1) * block; ++i) {
          const Value v = ComplexLongDouble<T>(x[i]);
          if (std::isinf(v.real()) || std::isinf(v.imag())) infinite[b] = 1;
          norms[b] += std::norm(v);
        }
      }
    }
  });
  const ElementType part =
      complex_result ? ComponentType(result_type.element_type) : result_type.element_type;
  const FloatFormat& format = Format(part);
  const double u = UnitRoundoff(format);
  const double tiny = std::ldexp(1.0, format.min_normal_exponent() - format.mantissa_bits);
  // ||y||_2 / ||x||_2 by Parseval, and what an algorithm's partial sums may
  // reach before an inverse's 1/N: sqrt(N) ||x||_2 (sqrt(2) more for IRFFT).
  const double root = std::sqrt(static_cast<double>(total));
  const double scale = type == "FFT" || type == "RFFT" ? root
                       : type == "IFFT"                ? 1.0 / root
                                                       : std::sqrt(2.0) / root;
  const double partial = type == "IRFFT" ? std::sqrt(2.0) * root : root;
  const double log_n = total <= 1 ? 0.0 : std::ceil(std::log2(static_cast<double>(total)));
  const int64_t out_block = count == 0 || blocks == 0 ? 0 : count / blocks;
  const double largest = DecodeFloat(format, format.max_finite_bits()).ToDouble();

  int64_t r = 0;
  for (IndexIterator it(out_shape); !it.done(); it.Next(), ++r) {
    int64_t at = 0;
    for (size_t d = 0; d < rank; ++d) at += it.index()[d] * strides[d];
    const Value v = values[at];
    const int64_t b = out_block == 0 ? 0 : r / out_block;
    // sqrt in long double: the squares of tiny values underflow a double.
    const auto input_norm = static_cast<double>(std::sqrt(norms[b]));
    const double norm = input_norm * scale;
    const double bound = kFftConstant * u * (log_n + 2) * norm + static_cast<double>(total) * tiny;
    const double re = static_cast<double>(v.real());
    const double im = static_cast<double>(v.imag());
    e.center_hi[r * parts] = re;
    e.center_lo[r * parts] = static_cast<double>(v.real() - static_cast<long double>(re));
    e.bound[r * parts] = bound;
    if (complex_result) {
      e.center_hi[r * parts + 1] = im;
      e.center_lo[r * parts + 1] = static_cast<double>(v.imag() - static_cast<long double>(im));
      e.bound[r * parts + 1] = bound;
    }
    if (infinite[b] && !std::isnan(re) && !std::isnan(im)) {
      free.Mark(static_cast<size_t>(r),
                "an infinity in the transformed block: the algorithm decides where Inf - Inf or "
                "Inf x 0 makes NaN");
    } else if (!(input_norm * partial * (1 + kFftConstant * u * (log_n + 2)) <= largest)) {
      free.Mark(static_cast<size_t>(r),
                "the transform's partial sums (before an inverse's 1/N) may reach the type's "
                "range: some algorithm overflows");
    }
  }
  e.reference = ReferenceFromCenters(result_type, e);
  std::move(free).MoveInto(e);
  std::vector<ResultExpectation> results;
  results.push_back(std::move(e));
  return results;
}

}  // namespace

std::vector<OpEntry> FftOps() { return {{"fft", Fft}}; }

}  // namespace hlocheck::oracle
