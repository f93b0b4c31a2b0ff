// The CPU adapter's fft: the spec's example; FFT, IFFT, RFFT and IRFFT of
// random data of even, odd and prime lengths, in 1 to 3 dimensions after a
// batch dimension, against a direct DFT in double written here from the
// spec's definition (one dimension at a time); and malformed cases.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

using ::hlocheck::testing::FftCase;

using Z = std::complex<double>;

TEST(CpuFftTest, SpecExample) {
  Tensor x(Shape{4}, ET::kComplexF32);
  x.values<ET::kComplexF32>()[0] = {1, 0};
  absl::StatusOr<std::vector<Tensor>> r =
      SharedAdapter().Run(FftCase(x, "FFT", {4}, {{4}, ET::kComplexF32}));
  ASSERT_TRUE(r.ok()) << r.status();
  for (const std::complex<float>& v : (*r)[0].values<ET::kComplexF32>()) {
    EXPECT_EQ(v, std::complex<float>(1, 0));
  }
}

// The DFT of `values` (row-major `shape`) along dimension d, in double.
void Dft(std::vector<Z>& values, const Shape& shape, size_t d, bool inverse) {
  const int64_t n = shape[d];
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  Shape others = shape;
  others[d] = 1;
  for (IndexIterator it(others); !it.done(); it.Next()) {
    int64_t base = 0;
    for (size_t k = 0; k < shape.size(); ++k) base += it.index()[k] * strides[k];
    std::vector<Z> out(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) {
      for (int64_t j = 0; j < n; ++j) {
        const double angle = (inverse ? 2 : -2) * std::numbers::pi * ((j * k) % n) / n;
        out[k] += values[base + j * strides[d]] * Z(std::cos(angle), std::sin(angle));
      }
      if (inverse) out[k] /= static_cast<double>(n);
    }
    for (int64_t k = 0; k < n; ++k) values[base + k * strides[d]] = out[k];
  }
}

TEST(CpuFftTest, EveryTransformAgreesWithADirectDft) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> unit(-1, 1);
  const std::vector<std::vector<int64_t>> all_lengths = {{8},    {7},    {13},      {1},
                                                         {4, 6}, {3, 5}, {2, 3, 4}, {5, 2, 7}};
  for (const std::vector<int64_t>& lengths : all_lengths) {
    for (const std::string type : {"FFT", "IFFT", "RFFT", "IRFFT"}) {
      const std::string what = type + " of " + ShapeToString(lengths);
      Shape real = {2};  // a batch dimension
      real.insert(real.end(), lengths.begin(), lengths.end());
      Shape half = real;
      half.back() = real.back() / 2 + 1;
      const Shape& in_shape = type == "IRFFT" ? half : real;
      const Shape& out_shape = type == "RFFT" ? half : real;
      const bool complex_in = type != "RFFT";
      const bool complex_out = type != "IRFFT";
      // The operand, and its values as complex doubles.
      Tensor operand(in_shape, complex_in ? ET::kComplexF64 : ET::kF64);
      std::vector<Z> values(static_cast<size_t>(operand.num_elements()));
      for (size_t i = 0; i < values.size(); ++i) {
        values[i] = Z(unit(rng), complex_in ? unit(rng) : 0);
        if (complex_in) {
          operand.values<ET::kComplexF64>()[i] = values[i];
        } else {
          operand.values<ET::kF64>()[i] = values[i].real();
        }
      }
      // The spec's steps, in double.
      const size_t rank = real.size();
      const size_t first = rank - lengths.size();
      Shape shape = in_shape;
      if (type == "FFT" || type == "RFFT") {
        for (size_t d = rank; d-- > first;) Dft(values, shape, d, false);
      } else {
        for (size_t d = first; d + 1 < rank; ++d) Dft(values, shape, d, true);
        if (type == "IRFFT") {
          const int64_t n = real.back();
          const int64_t h = half.back();
          std::vector<Z> full(values.size() / h * n);
          for (size_t r = 0; r < values.size() / h; ++r) {
            for (int64_t k = 0; k < n; ++k) {
              full[r * n + k] = k < h ? values[r * h + k] : std::conj(values[r * h + (n - k)]);
            }
          }
          values = full;
          shape = real;
        }
        Dft(values, shape, rank - 1, true);
      }
      absl::StatusOr<std::vector<Tensor>> got = SharedAdapter().Run(
          FftCase(operand, type, lengths, {out_shape, complex_out ? ET::kComplexF64 : ET::kF64}));
      ASSERT_TRUE(got.ok()) << what << ": " << got.status();
      const Tensor& result = (*got)[0];
      const int64_t width = shape.back();
      const int64_t kept = out_shape.back();
      double worst = 0;
      for (int64_t i = 0; i < result.num_elements(); ++i) {
        const Z want = values[i / kept * width + i % kept];
        const Z have =
            complex_out ? result.values<ET::kComplexF64>()[i] : Z(result.values<ET::kF64>()[i], 0);
        worst = std::max(worst, std::abs(have - (complex_out ? want : Z(want.real(), 0))));
      }
      EXPECT_LT(worst, 1e-12) << what;
    }
  }
}

TEST(CpuFftTest, MalformedCasesAreInvalid) {
  Tensor x(Shape{4}, ET::kComplexF32);
  for (const Case& c : {FftCase(x, "FFT", {5}, {{4}, ET::kComplexF32}),
                        FftCase(x, "RFFT", {4}, {{3}, ET::kComplexF32}),
                        FftCase(x, "IRFFT", {4}, {{4}, ET::kF32})}) {
    absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(c);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  }
}

}  // namespace
}  // namespace hlocheck::cpu_test
