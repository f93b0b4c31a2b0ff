// The CPU adapter's cholesky and triangular_solve: the spec's examples,
// random systems checked by what they must satisfy (L L^H = A; op(a) x = b
// or x op(a) = b for every attribute combination), matrices that are not
// positive definite, and malformed cases.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

using ::hlocheck::testing::CholeskyCase;
using ::hlocheck::testing::TriangularSolveCase;

TEST(CpuLinearAlgebraTest, CholeskySpecExample) {
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(
      CholeskyCase(Make<ET::kF32>({3, 3}, {1, 2, 3, 2, 20, 26, 3, 26, 70}), true));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<ET::kF32>((*r)[0]), (std::vector<float>{1, 0, 0, 2, 4, 0, 3, 5, 6}));
  r = SharedAdapter().Run(
      CholeskyCase(Make<ET::kF32>({3, 3}, {1, 2, 3, 2, 20, 26, 3, 26, 70}), false));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<ET::kF32>((*r)[0]), (std::vector<float>{1, 2, 3, 0, 4, 5, 0, 0, 6}));
}

// A batch of random positive definite matrices: L is lower triangular with
// a positive diagonal and L L^T = A.
TEST(CpuLinearAlgebraTest, CholeskyFactorsRandomBatches) {
  std::mt19937 rng(71);
  std::uniform_real_distribution<double> unit(-1, 1);
  const int64_t batch = 3, n = 5;
  std::vector<double> a(batch * n * n);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<double> m(n * n);
    for (double& v : m) v = unit(rng);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = i == j ? 1.0 : 0.0;
        for (int64_t k = 0; k < n; ++k) sum += m[i * n + k] * m[j * n + k];
        a[b * n * n + i * n + j] = sum;
      }
    }
  }
  absl::StatusOr<std::vector<Tensor>> r =
      SharedAdapter().Run(CholeskyCase(Make<ET::kF64>({batch, n, n}, a), true));
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<double> l = Values<ET::kF64>((*r)[0]);
  for (int64_t b = 0; b < batch; ++b) {
    const double* f = l.data() + b * n * n;
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_GT(f[i * n + i], 0);
      for (int64_t j = i + 1; j < n; ++j) EXPECT_EQ(f[i * n + j], 0.0);
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < n; ++k) sum += f[i * n + k] * f[j * n + k];
        EXPECT_NEAR(sum, a[b * n * n + i * n + j], 1e-12);
      }
    }
  }
}

TEST(CpuLinearAlgebraTest, CholeskyOfAMatrixThatIsNotPositiveDefiniteIsNaN) {
  absl::StatusOr<std::vector<Tensor>> r =
      SharedAdapter().Run(CholeskyCase(Make<ET::kF32>({2, 2}, {1, 2, 2, 1}), true));
  ASSERT_TRUE(r.ok()) << r.status();
  for (float v : Values<ET::kF32>((*r)[0])) EXPECT_TRUE(std::isnan(v));
}

TEST(CpuLinearAlgebraTest, TriangularSolveSpecExample) {
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(TriangularSolveCase(
      Make<ET::kF32>({3, 3}, {1, 0, 0, 2, 4, 0, 3, 5, 6}),
      Make<ET::kF32>({3, 3}, {2, 0, 0, 4, 8, 0, 6, 10, 12}), true, true, false, "NO_TRANSPOSE"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<ET::kF32>((*r)[0]), (std::vector<float>{2, 0, 0, 0, 2, 0, 0, 0, 2}));
}

// Every left_side, lower, unit_diagonal and transpose_a on complex data:
// the solution satisfies its system, and a's other triangle (garbage here)
// is never read.
TEST(CpuLinearAlgebraTest, TriangularSolveSatisfiesEverySystem) {
  using C = std::complex<double>;
  std::mt19937 rng(73);
  std::uniform_real_distribution<double> unit(-1, 1);
  const int64_t n = 4, m = 3;
  std::vector<C> a(n * n);
  for (C& v : a) v = C(unit(rng), unit(rng));
  for (int64_t i = 0; i < n; ++i) a[i * n + i] += C(3, 0);
  for (bool left_side : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit_diagonal : {false, true}) {
        for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          const int64_t rows = left_side ? n : m, cols = left_side ? m : n;
          std::vector<C> b(rows * cols);
          for (C& v : b) v = C(unit(rng), unit(rng));
          absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(TriangularSolveCase(
              Make<ET::kComplexF64>({n, n}, a), Make<ET::kComplexF64>({rows, cols}, b), left_side,
              lower, unit_diagonal, transpose));
          ASSERT_TRUE(r.ok()) << r.status();
          const std::vector<C> x = Values<ET::kComplexF64>((*r)[0]);
          // op(a) as a dense matrix.
          std::vector<C> op(n * n);
          for (int64_t i = 0; i < n; ++i) {
            for (int64_t j = 0; j < n; ++j) {
              C v = (lower ? j <= i : j >= i) ? a[i * n + j] : C(0, 0);
              if (i == j && unit_diagonal) v = 1;
              const std::string t = transpose;
              if (t == "NO_TRANSPOSE") op[i * n + j] = v;
              if (t == "TRANSPOSE") op[j * n + i] = v;
              if (t == "ADJOINT") op[j * n + i] = std::conj(v);
            }
          }
          for (int64_t i = 0; i < rows; ++i) {
            for (int64_t j = 0; j < cols; ++j) {
              C sum = 0;
              for (int64_t k = 0; k < n; ++k) {
                sum +=
                    left_side ? op[i * n + k] * x[k * cols + j] : x[i * cols + k] * op[k * n + j];
              }
              EXPECT_NEAR(std::abs(sum - b[i * cols + j]), 0.0, 1e-12)
                  << left_side << lower << unit_diagonal << transpose;
            }
          }
        }
      }
    }
  }
}

TEST(CpuLinearAlgebraTest, MalformedCasesAreInvalid) {
  // b's rows do not match a's size.
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(
      TriangularSolveCase(Make<ET::kF32>({2, 2}, {1, 0, 0, 1}), Make<ET::kF32>({3, 1}, {1, 1, 1}),
                          true, true, false, "NO_TRANSPOSE"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  // a is not square.
  r = SharedAdapter().Run(CholeskyCase(Make<ET::kF32>({2, 3}, {1, 0, 0, 0, 1, 0}), true));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
}

}  // namespace
}  // namespace hlocheck::cpu_test
