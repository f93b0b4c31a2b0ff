// fft on the oracle: the spec's example; the four transforms of a small
// vector whose transforms are known by hand; and the bound: a radix-2 FFT in
// f32 (and a plain DFT for a prime length) passes, while the same FFT with
// one wrong twiddle factor, with its butterflies rounded to bf16, or with a
// lost term fails.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "oracle/compare.h"
#include "tests/oracle/oracle_test_util.h"

namespace hlocheck {
namespace {

using testing::FftCase;
using testing::Literal;
using testing::Passes;
using testing::RunOk;
using testing::TheOracle;
using ET = ElementType;
using C = std::complex<float>;

Tensor Complex(const std::vector<C>& values) {
  Tensor t(Shape{static_cast<int64_t>(values.size())}, ET::kComplexF32);
  std::copy(values.begin(), values.end(), t.values<ET::kComplexF32>().begin());
  return t;
}

TEST(FftOracleTest, SpecExample) {
  std::vector<ResultExpectation> e =
      RunOk(FftCase(Complex({{1, 0}, {0, 0}, {0, 0}, {0, 0}}), "FFT", {4}, {{4}, ET::kComplexF32}));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(Passes(e, Complex({{1, 0}, {1, 0}, {1, 0}, {1, 0}})));
}

// [1, 2, 3, 4] transforms to [10, -2 + 2i, -2, -2 - 2i], and back.
TEST(FftOracleTest, TheFourTransformsOfASmallVector) {
  const std::vector<C> spectrum = {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}};
  EXPECT_TRUE(Passes(
      RunOk(FftCase(Complex({{1, 0}, {2, 0}, {3, 0}, {4, 0}}), "FFT", {4}, {{4}, ET::kComplexF32})),
      Complex(spectrum)));
  EXPECT_TRUE(Passes(RunOk(FftCase(Complex(spectrum), "IFFT", {4}, {{4}, ET::kComplexF32})),
                     Complex({{1, 0}, {2, 0}, {3, 0}, {4, 0}})));
  Tensor real(Shape{4}, ET::kF32);
  auto r = real.values<ET::kF32>();
  for (int i = 0; i < 4; ++i) r[i] = static_cast<float>(i + 1);
  EXPECT_TRUE(Passes(RunOk(FftCase(real, "RFFT", {4}, {{3}, ET::kComplexF32})),
                     Complex({{10, 0}, {-2, 2}, {-2, 0}})));
  EXPECT_TRUE(Passes(
      RunOk(FftCase(Complex({{10, 0}, {-2, 2}, {-2, 0}}), "IRFFT", {4}, {{4}, ET::kF32})), real));
}

// A radix-2 decimation-in-time FFT in float; `wrong_twiddle` flips the sign
// of one twiddle factor, `bf16` rounds every butterfly output to bf16.
float ToBf16(float x) {
  uint32_t bits = std::bit_cast<uint32_t>(x);
  bits += 0x7FFF + ((bits >> 16) & 1);
  return std::bit_cast<float>(bits & 0xFFFF0000u);
}

std::vector<C> Radix2(std::vector<C> x, bool wrong_twiddle, bool bf16) {
  const size_t n = x.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    for (size_t i = 0; i < n; i += len) {
      for (size_t k = 0; k < len / 2; ++k) {
        const double angle =
            -2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(len);
        C w(static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle)));
        if (wrong_twiddle && len == n && k == 1) w = std::conj(w);
        const C u = x[i + k];
        const C v = x[i + k + len / 2] * w;
        x[i + k] = u + v;
        x[i + k + len / 2] = u - v;
        if (bf16) {
          for (C* z : {&x[i + k], &x[i + k + len / 2]}) {
            *z = C(ToBf16(z->real()), ToBf16(z->imag()));
          }
        }
      }
    }
  }
  return x;
}

TEST(FftOracleTest, TheBoundPassesAnFftAndCatchesWrongOnes) {
  std::mt19937 rng(19);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (size_t n : {8u, 64u, 1024u}) {
    std::vector<C> x(n);
    for (C& v : x) v = C(unit(rng), unit(rng));
    std::vector<ResultExpectation> e = RunOk(FftCase(Complex(x), "FFT", {static_cast<int64_t>(n)},
                                                     {{static_cast<int64_t>(n)}, ET::kComplexF32}));
    ASSERT_EQ(e.size(), 1u);
    EXPECT_TRUE(Passes(e, Complex(Radix2(x, false, false)))) << n;
    EXPECT_FALSE(Passes(e, Complex(Radix2(x, true, false)))) << n << ": a wrong twiddle";
    EXPECT_FALSE(Passes(e, Complex(Radix2(x, false, true)))) << n << ": bf16 butterflies";
    std::vector<C> lost = x;
    lost.back() = 0;
    EXPECT_FALSE(Passes(e, Complex(Radix2(lost, false, false)))) << n << ": a lost term";
  }
}

// A prime length, summed directly in float (what a backend without a
// mixed-radix FFT might do for small lengths) passes too.
TEST(FftOracleTest, APlainDftOfAPrimeLengthPasses) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  const int n = 17;
  std::vector<C> x(n), y(n);
  for (C& v : x) v = C(unit(rng), unit(rng));
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      const double angle = -2 * std::numbers::pi * ((j * k) % n) / n;
      y[k] += x[j] * C(static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle)));
    }
  }
  EXPECT_TRUE(Passes(RunOk(FftCase(Complex(x), "FFT", {n}, {{n}, ET::kComplexF32})), Complex(y)));
}

}  // namespace
}  // namespace hlocheck
