// cholesky and triangular_solve on the oracle: the spec's examples; every
// attribute combination of triangular_solve on an exact system; the bounds
// pass f32 algorithms in two loop orders and fail bf16 accumulation and a
// dropped term; what the spec leaves open (the opposite triangle, matrices
// that are not positive definite, unit_diagonal with another diagonal) is
// free and says why (the interpreter's convention for unit_diagonal).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <random>

#include "oracle/compare.h"
#include "tests/oracle/oracle_test_util.h"

namespace hlocheck {
namespace {

using testing::CholeskyCase;
using testing::Literal;
using testing::Passes;
using testing::RoundToBf16;
using testing::RunOk;
using testing::TheOracle;
using testing::TriangularSolveCase;
using ET = ElementType;

Tensor F32(Shape shape, const std::vector<float>& values) {
  Tensor t(std::move(shape), ET::kF32);
  std::copy(values.begin(), values.end(), t.values<ET::kF32>().begin());
  return t;
}

TEST(CholeskyOracleTest, SpecExample) {
  std::vector<ResultExpectation> e = RunOk(CholeskyCase(
      Literal("dense<[[1.0, 2.0, 3.0], [2.0, 20.0, 26.0], [3.0, 26.0, 70.0]]> : tensor<3x3xf32>"),
      true));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(Passes(
      e, Literal("dense<[[1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0]]> : tensor<3x3xf32>")));
  // The strict upper triangle is implementation-defined.
  EXPECT_TRUE(Passes(
      e, Literal("dense<[[1.0, 7.0, 8.0], [2.0, 4.0, 9.0], [3.0, 5.0, 6.0]]> : tensor<3x3xf32>")));
  EXPECT_FALSE(Passes(
      e, Literal("dense<[[1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.5]]> : tensor<3x3xf32>")));
}

TEST(CholeskyOracleTest, TheUpperFactorIsTheAdjointOfTheLower) {
  std::vector<ResultExpectation> e = RunOk(CholeskyCase(
      Literal("dense<[[1.0, 2.0, 3.0], [2.0, 20.0, 26.0], [3.0, 26.0, 70.0]]> : tensor<3x3xf32>"),
      false));
  EXPECT_TRUE(Passes(
      e, Literal("dense<[[1.0, 2.0, 3.0], [0.0, 4.0, 5.0], [0.0, 0.0, 6.0]]> : tensor<3x3xf32>")));
}

TEST(CholeskyOracleTest, ComplexHermitianMatrices) {
  // A = L L^H with L = [[2, 0], [1 + i, 3]]: A = [[4, 2 - 2i], [2 + 2i, 11]].
  Tensor a(Shape{2, 2}, ET::kComplexF32);
  auto values = a.values<ET::kComplexF32>();
  values[0] = {4, 0};
  values[1] = {2, -2};
  values[2] = {2, 2};
  values[3] = {11, 0};
  std::vector<ResultExpectation> e = RunOk(CholeskyCase(a, true));
  Tensor l(Shape{2, 2}, ET::kComplexF32);
  auto out = l.values<ET::kComplexF32>();
  out[0] = {2, 0};
  out[2] = {1, 1};
  out[3] = {3, 0};
  EXPECT_TRUE(Passes(e, l));
  out[2] = {1, -1};  // the conjugate: the factor of A's transpose
  EXPECT_FALSE(Passes(e, l));
}

TEST(CholeskyOracleTest, MatricesThatAreNotPositiveDefiniteAreFree) {
  // The second matrix of the batch has a negative pivot; the first is fine.
  std::vector<ResultExpectation> e =
      RunOk(CholeskyCase(F32({2, 2, 2}, {4, 2, 2, 5, 1, 2, 2, 1}), true));
  ASSERT_EQ(e.size(), 1u);
  ASSERT_EQ(e[0].free.size(), 8u);
  EXPECT_FALSE(e[0].free[0] || e[0].free[2] || e[0].free[3]);
  EXPECT_TRUE(e[0].free[1]);  // the first matrix's upper triangle
  for (int i = 4; i < 8; ++i) EXPECT_TRUE(e[0].free[i]) << i;
  EXPECT_NE(e[0].free_reason.find("not Hermitian positive-definite"), std::string::npos);
  // A non-symmetric matrix is not Hermitian either.
  e = RunOk(CholeskyCase(F32({2, 2}, {4, 1, 2, 5}), true));
  EXPECT_TRUE(e[0].free[0] && e[0].free[2] && e[0].free[3]);
}

// Random symmetric positive definite f32 matrices (B B^T + n I, rounded to
// f32 and symmetric), and Cholesky in f32 as a backend may compute it.
enum class Accumulation { kForward, kBackward, kBf16, kDropLast };

// sum_{k < j} x_k y_k in the given order and precision.
float Dot(const float* x, const float* y, int j, Accumulation kind) {
  float sum = 0;
  const int last = kind == Accumulation::kDropLast && j > 0 ? j - 1 : j;
  for (int step = 0; step < last; ++step) {
    const int k = kind == Accumulation::kBackward ? j - 1 - step : step;
    sum += x[k] * y[k];
    if (kind == Accumulation::kBf16) sum = RoundToBf16(sum);
  }
  return sum;
}

std::vector<float> CholeskyF32(const std::vector<float>& a, int n, Accumulation kind) {
  std::vector<float> l(a.size(), 0.0f);
  for (int j = 0; j < n; ++j) {
    l[j * n + j] = std::sqrt(a[j * n + j] - Dot(&l[j * n], &l[j * n], j, kind));
    for (int i = j + 1; i < n; ++i) {
      l[i * n + j] = (a[i * n + j] - Dot(&l[i * n], &l[j * n], j, kind)) / l[j * n + j];
    }
  }
  return l;
}

std::vector<float> PositiveDefinite(int n, std::mt19937& rng) {
  std::uniform_real_distribution<float> unit(-1, 1);
  std::vector<double> b(n * n);
  for (double& v : b) v = unit(rng);
  std::vector<float> a(n * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      double sum = i == j ? n : 0;
      for (int k = 0; k < n; ++k) sum += b[i * n + k] * b[j * n + k];
      a[i * n + j] = a[j * n + i] = static_cast<float>(sum);
    }
  }
  return a;
}

TEST(CholeskyOracleTest, TheBoundPassesBothLoopOrdersAndCatchesWrongSums) {
  std::mt19937 rng(61);
  for (int n : {3, 8, 16}) {
    const std::vector<float> a = PositiveDefinite(n, rng);
    std::vector<ResultExpectation> e = RunOk(CholeskyCase(F32({n, n}, a), true));
    ASSERT_EQ(e.size(), 1u);
    EXPECT_TRUE(Passes(e, F32({n, n}, CholeskyF32(a, n, Accumulation::kForward)))) << n;
    EXPECT_TRUE(Passes(e, F32({n, n}, CholeskyF32(a, n, Accumulation::kBackward)))) << n;
    EXPECT_FALSE(Passes(e, F32({n, n}, CholeskyF32(a, n, Accumulation::kBf16)))) << n;
    EXPECT_FALSE(Passes(e, F32({n, n}, CholeskyF32(a, n, Accumulation::kDropLast)))) << n;
  }
}

TEST(TriangularSolveOracleTest, SpecExample) {
  std::vector<ResultExpectation> e = RunOk(TriangularSolveCase(
      Literal("dense<[[1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0]]> : tensor<3x3xf32>"),
      Literal("dense<[[2.0, 0.0, 0.0], [4.0, 8.0, 0.0], [6.0, 10.0, 12.0]]> : tensor<3x3xf32>"),
      true, true, false, "NO_TRANSPOSE"));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(Passes(
      e, Literal("dense<[[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]]> : tensor<3x3xf32>")));
  EXPECT_FALSE(Passes(
      e, Literal("dense<[[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.5]]> : tensor<3x3xf32>")));
}

// For every left_side, lower, unit_diagonal and transpose_a: b = op(a) x
// (or x op(a)) computed exactly from a small-integer x, so x is the answer;
// x with one element off by 1/64 is not. The unused triangle of a holds
// garbage that must not be read.
TEST(TriangularSolveOracleTest, EveryAttributeCombinationSolvesTheRightSystem) {
  const int n = 3, m = 2;
  // a's lower triangle and upper triangle, with 100s where they must be
  // ignored.
  auto make_a = [&](bool lower) {
    std::vector<float> a(n * n, 100.0f);
    const float lower_values[] = {2, 0, 0, 1, 4, 0, -1, 3, 5};
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (lower ? j <= i : j >= i)
          a[i * n + j] = lower ? lower_values[i * n + j] : lower_values[j * n + i];
      }
    }
    return a;
  };
  const std::vector<float> x_values = {1, -2, 3, 0, -1, 2};
  for (bool left_side : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit_diagonal : {false, true}) {
        for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          const std::vector<float> a = make_a(lower);
          // op(a) as a dense matrix.
          std::vector<double> op(n * n, 0.0);
          for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
              const bool in_triangle = lower ? j <= i : j >= i;
              double v = in_triangle ? a[i * n + j] : 0.0;
              if (i == j && unit_diagonal) v = 1;
              if (std::string(transpose) == "NO_TRANSPOSE") {
                op[i * n + j] = v;
              } else {
                op[j * n + i] = v;
              }
            }
          }
          const int rows = left_side ? n : m, cols = left_side ? m : n;
          std::vector<float> b(rows * cols, 0.0f);
          for (int i = 0; i < rows; ++i) {
            for (int j = 0; j < cols; ++j) {
              double sum = 0;
              for (int k = 0; k < n; ++k) {
                sum += left_side ? op[i * n + k] * x_values[k * cols + j]
                                 : x_values[i * cols + k] * op[k * n + j];
              }
              b[i * cols + j] = static_cast<float>(sum);
            }
          }
          std::vector<ResultExpectation> e = RunOk(TriangularSolveCase(
              F32({n, n}, a), F32({rows, cols}, b), left_side, lower, unit_diagonal, transpose));
          const std::string name = std::string(left_side ? "left " : "right ") +
                                   (lower ? "lower " : "upper ") + (unit_diagonal ? "unit " : "") +
                                   transpose;
          // unit_diagonal with a diagonal other than one is undefined (its
          // elements carry the convention verdict); give it a unit diagonal
          // to check it strictly.
          if (unit_diagonal) {
            std::vector<float> unit_a = a;
            for (int i = 0; i < n; ++i) unit_a[i * n + i] = 1;
            e = RunOk(TriangularSolveCase(F32({n, n}, unit_a), F32({rows, cols}, b), left_side,
                                          lower, unit_diagonal, transpose));
          }
          EXPECT_TRUE(Passes(e, F32({rows, cols}, x_values))) << name;
          std::vector<float> off = x_values;
          off[3] += 1.0f / 64;
          EXPECT_FALSE(Passes(e, F32({rows, cols}, off))) << name;
        }
      }
    }
  }
}

// The spec leaves it undefined; the interpreter and XLA read the diagonal
// as 1, which the reference does: a backend that divides by it is told it
// differs from that convention.
TEST(TriangularSolveOracleTest, UnitDiagonalWithAnotherDiagonalIsTheConvention) {
  std::vector<ResultExpectation> e = RunOk(TriangularSolveCase(
      F32({2, 2}, {2, 0, 1, 3}), F32({2, 1}, {1, 1}), true, true, true, "NO_TRANSPOSE"));
  ASSERT_EQ(e[0].free.size(), 2u);
  EXPECT_EQ(e[0].free[0], kFreeWithConvention);
  EXPECT_EQ(e[0].free[1], kFreeWithConvention);
  EXPECT_NE(e[0].free_reason.find("unit_diagonal"), std::string::npos);
  EXPECT_EQ(e[0].center_hi[0], 1.0);  // x0 = 1, x1 = 1 - 1 * x0 = 0
  EXPECT_EQ(e[0].center_hi[1], 0.0);
}

// Forward substitution in f32 for a lower-triangular, well-conditioned a:
// in either order of its inner products it passes; in bf16, or dropping the
// last product, it fails.
TEST(TriangularSolveOracleTest, TheBoundPassesBothOrdersAndCatchesWrongSums) {
  std::mt19937 rng(67);
  std::uniform_real_distribution<float> unit(-1, 1);
  for (int n : {4, 12, 32}) {
    std::vector<float> a(n * n, 0.0f), b(n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < i; ++j) a[i * n + j] = unit(rng);
      a[i * n + i] = 2.0f + std::fabs(unit(rng));
      b[i] = unit(rng) * 4;
    }
    std::vector<ResultExpectation> e = RunOk(
        TriangularSolveCase(F32({n, n}, a), F32({n, 1}, b), true, true, false, "NO_TRANSPOSE"));
    auto solve = [&](Accumulation kind) {
      std::vector<float> x(n);
      for (int i = 0; i < n; ++i) x[i] = (b[i] - Dot(&a[i * n], x.data(), i, kind)) / a[i * n + i];
      return F32({n, 1}, x);
    };
    EXPECT_TRUE(Passes(e, solve(Accumulation::kForward))) << n;
    EXPECT_TRUE(Passes(e, solve(Accumulation::kBackward))) << n;
    EXPECT_FALSE(Passes(e, solve(Accumulation::kBf16))) << n;
    EXPECT_FALSE(Passes(e, solve(Accumulation::kDropLast))) << n;
  }
}

// An ill-conditioned but nonsingular a: the bound grows with |a^-1| |a|,
// and the exact solution still passes.
TEST(TriangularSolveOracleTest, IllConditionedSystemsWidenTheBoundButStayChecked) {
  // a = [[1, 0], [-10, 1e-2]]: |a^-1| |a| has entries near 2000.
  std::vector<ResultExpectation> e =
      RunOk(TriangularSolveCase(F32({2, 2}, {1, 0, -10, 1e-2f}), F32({2, 1}, {1, -9.99f}), true,
                                true, false, "NO_TRANSPOSE"));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(e[0].free.empty()) << e[0].free_reason;
  EXPECT_GT(e[0].bound[1], 100 * e[0].bound[0]);
  EXPECT_TRUE(Passes(e, e[0].reference));
}

}  // namespace
}  // namespace hlocheck
