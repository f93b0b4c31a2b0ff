// The CPU adapter's matrix-multiply kernels (gemm.h), each one this CPU runs
// (AVX-512, AVX2, baseline), against a naive product: exactly on small
// integers over shapes that cross every edge of the kernels' blocking
// (register tile, block of k, block of columns, thread tiles), with NaN and
// infinity confined to the rows and columns they belong to, and within the
// a-priori bound gamma_k * sum |a||b| on random reals.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "adapters/cpu/gemm.h"

namespace hlocheck::cpu {
namespace {

struct Sizes {
  int64_t batch, m, k, n;
};

// The exact product of integer-valued matrices, in long double.
template <typename T>
std::vector<long double> NaiveProduct(const std::vector<T>& a, const std::vector<T>& b,
                                      const Sizes& s) {
  std::vector<long double> c(static_cast<size_t>(s.batch * s.m * s.n), 0.0L);
  for (int64_t q = 0; q < s.batch; ++q) {
    for (int64_t i = 0; i < s.m; ++i) {
      for (int64_t j = 0; j < s.n; ++j) {
        long double sum = 0;
        for (int64_t p = 0; p < s.k; ++p) {
          sum += static_cast<long double>(a[(q * s.m + i) * s.k + p]) *
                 static_cast<long double>(b[(q * s.k + p) * s.n + j]);
        }
        c[(q * s.m + i) * s.n + j] = sum;
      }
    }
  }
  return c;
}

template <typename T>
std::vector<T> SmallIntegers(int64_t count, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> value(-4, 4);
  std::vector<T> out(static_cast<size_t>(count));
  for (T& x : out) x = static_cast<T>(value(rng));
  return out;
}

std::string Describe(const GemmKernel& kernel, const Sizes& s, int threads) {
  return std::string(kernel.name) + " batch " + std::to_string(s.batch) + " [" +
         std::to_string(s.m) + ", " + std::to_string(s.k) + "] x [" + std::to_string(s.k) + ", " +
         std::to_string(s.n) + "], " + std::to_string(threads) + " threads";
}

template <typename T>
void ExpectExactOnIntegers(const GemmKernel& kernel, const Sizes& s, int threads) {
  SCOPED_TRACE(Describe(kernel, s, threads));
  std::mt19937_64 rng(static_cast<uint64_t>(s.m * 7919 + s.k * 104729 + s.n));
  const std::vector<T> a = SmallIntegers<T>(s.batch * s.m * s.k, rng);
  const std::vector<T> b = SmallIntegers<T>(s.batch * s.k * s.n, rng);
  Eigen::ThreadPool pool(threads);
  const Device device(&pool, threads);
  std::vector<T> c(static_cast<size_t>(s.batch * s.m * s.n), T{-1});
  BatchedGemm<T>(kernel, a.data(), b.data(), c.data(), s.batch, s.m, s.k, s.n, device);
  const std::vector<long double> want = NaiveProduct(a, b, s);
  int64_t wrong = 0;
  for (size_t e = 0; e < c.size(); ++e) {
    if (static_cast<long double>(c[e]) != want[e] && wrong++ < 3) {
      ADD_FAILURE() << "element " << e << ": " << c[e] << ", want " << static_cast<double>(want[e]);
    }
  }
  EXPECT_EQ(wrong, 0);
}

// Sizes at and around every block edge of the three kernels: register tiles
// of 6 and 12 rows and 2 vectors of columns (8 .. 32), blocks of k of 128 ..
// 512, blocks of 256 .. 512 columns.
const std::vector<Sizes>& EdgeSizes() {
  static const std::vector<Sizes> sizes = {
      {1, 1, 1, 1},     {1, 5, 3, 7},       {1, 12, 16, 32},  {1, 13, 17, 33},   {1, 6, 8, 8},
      {1, 25, 129, 31}, {1, 24, 257, 64},   {1, 11, 513, 17}, {1, 37, 300, 513}, {1, 2, 40, 600},
      {3, 7, 9, 70},    {2, 130, 140, 150}, {1, 300, 20, 5},  {5, 1, 1000, 1},   {1, 200, 1, 200},
  };
  return sizes;
}

TEST(CpuGemmTest, EveryKernelIsExactOnSmallIntegersAcrossBlockEdges) {
  for (const GemmKernel* kernel : SupportedGemmKernels()) {
    for (const Sizes& s : EdgeSizes()) {
      for (int threads : {1, 2, 3}) {
        ExpectExactOnIntegers<float>(*kernel, s, threads);
        ExpectExactOnIntegers<double>(*kernel, s, threads);
      }
    }
  }
}

TEST(CpuGemmTest, AnEmptySumIsZeroAndEmptyMatricesWriteNothing) {
  Eigen::ThreadPool pool(2);
  const Device device(&pool, 2);
  for (const GemmKernel* kernel : SupportedGemmKernels()) {
    std::vector<float> c(6, -1.0f);
    BatchedGemm<float>(*kernel, nullptr, nullptr, c.data(), 2, 1, 0, 3, device);
    EXPECT_EQ(c, std::vector<float>(6, 0.0f)) << kernel->name;
    std::vector<double> untouched(1, -1.0);
    BatchedGemm<double>(*kernel, nullptr, nullptr, untouched.data(), 1, 0, 5, 3, device);
    EXPECT_EQ(untouched[0], -1.0) << kernel->name;
  }
}

// A NaN in the last row of a and an infinity in the last column of b reach
// only the elements whose sums hold them, never the zero-padded lanes of a
// partial register tile or a neighbouring element.
TEST(CpuGemmTest, NanAndInfinityStayInTheirRowAndColumn) {
  Eigen::ThreadPool pool(2);
  const Device device(&pool, 2);
  for (const GemmKernel* kernel : SupportedGemmKernels()) {
    const Sizes s{1, 13, 300, 35};
    std::mt19937_64 rng(5);
    std::vector<float> a = SmallIntegers<float>(s.m * s.k, rng);
    std::vector<float> b = SmallIntegers<float>(s.k * s.n, rng);
    const std::vector<long double> finite = NaiveProduct(a, b, s);
    a[(s.m - 1) * s.k + 7] = std::numeric_limits<float>::quiet_NaN();
    for (int64_t p = 0; p < s.k; ++p) b[p * s.n + s.n - 1] = std::abs(b[p * s.n + s.n - 1]);
    b[9 * s.n + s.n - 1] = std::numeric_limits<float>::infinity();
    std::vector<float> c(static_cast<size_t>(s.m * s.n));
    BatchedGemm<float>(*kernel, a.data(), b.data(), c.data(), 1, s.m, s.k, s.n, device);
    for (int64_t i = 0; i < s.m; ++i) {
      for (int64_t j = 0; j < s.n; ++j) {
        const float got = c[i * s.n + j];
        SCOPED_TRACE(std::string(kernel->name) + " element (" + std::to_string(i) + ", " +
                     std::to_string(j) + ")");
        if (i == s.m - 1) {
          EXPECT_TRUE(std::isnan(got)) << got;
        } else if (j == s.n - 1) {
          // a's row times +inf: +-inf, or NaN where a[i][9] is 0.
          EXPECT_TRUE(std::isinf(got) || (std::isnan(got) && a[i * s.k + 9] == 0)) << got;
        } else {
          EXPECT_EQ(static_cast<long double>(got), finite[i * s.n + j]);
        }
      }
    }
  }
}

// Random reals: every kernel within Higham's gamma_k sum |a_ip b_pj| of
// the exact sum (k products, any order, fused or not).
RC_GTEST_PROP(CpuGemmTest, EveryKernelIsWithinTheSumBoundOnRandomReals, ()) {
  const auto m = *rc::gen::inRange<int64_t>(1, 40);
  const auto k = *rc::gen::inRange<int64_t>(1, 600);
  const auto n = *rc::gen::inRange<int64_t>(1, 70);
  const auto seed = *rc::gen::arbitrary<uint64_t>();
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> a(static_cast<size_t>(m * k));
  std::vector<float> b(static_cast<size_t>(k * n));
  for (float& x : a) x = normal(rng);
  for (float& x : b) x = normal(rng);
  const double u = std::ldexp(1.0, -24);
  const double gamma = static_cast<double>(k) * u / (1.0 - static_cast<double>(k) * u);
  Eigen::ThreadPool pool(2);
  const Device device(&pool, 2);
  for (const GemmKernel* kernel : SupportedGemmKernels()) {
    std::vector<float> c(static_cast<size_t>(m * n));
    BatchedGemm<float>(*kernel, a.data(), b.data(), c.data(), 1, m, k, n, device);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        long double exact = 0;
        long double magnitude = 0;
        for (int64_t p = 0; p < k; ++p) {
          const long double term = static_cast<long double>(a[i * k + p]) * b[p * n + j];
          exact += term;
          magnitude += std::abs(term);
        }
        const long double error = std::abs(static_cast<long double>(c[i * n + j]) - exact);
        RC_ASSERT(error <= gamma * magnitude + 1e-30L);
      }
    }
  }
}

TEST(CpuGemmTest, TheSelectedKernelIsTheWidestThisCpuRuns) {
  const std::vector<const GemmKernel*> kernels = SupportedGemmKernels();
  ASSERT_FALSE(kernels.empty());
  EXPECT_EQ(&SelectedGemmKernel(), kernels.front());
  EXPECT_STREQ(kernels.back()->name, "baseline");
}

}  // namespace
}  // namespace hlocheck::cpu
