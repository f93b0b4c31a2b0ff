// cholesky's and triangular_solve's kernels (kernel_api.h): small dense
// matrices one per thread, in double, rounded once at the end.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_LINEAR_ALGEBRA_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_LINEAR_ALGEBRA_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/batch_norm_kernels.h"
#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/cuda/kernels/scalar.h"

namespace hlocheck::cuda {

struct CholeskyFunctor {
  CholeskyArgs args;
  HLOCHECK_HD void operator()(int64_t batch) const {
    const int64_t n = args.n;
    const int64_t base = batch * n * n;
    double* l = args.scratch + base;  // row-major L
    // The lower triangle of A, or the transpose of its upper triangle.
    auto a = [&](int64_t i, int64_t j) {
      return Real(args.kind, args.a, base + (args.lower ? i * n + j : j * n + i));
    };
    bool positive = true;
    for (int64_t i = 0; i < n * n; ++i) l[i] = 0;
    for (int64_t j = 0; j < n && positive; ++j) {
      double pivot = a(j, j);
      for (int64_t k = 0; k < j; ++k) pivot -= l[j * n + k] * l[j * n + k];
      if (!(pivot > 0)) {
        positive = false;
        break;
      }
      const double diagonal = Sqrt(pivot);
      l[j * n + j] = diagonal;
      for (int64_t i = j + 1; i < n; ++i) {
        double sum = a(i, j);
        for (int64_t k = 0; k < j; ++k) sum -= l[i * n + k] * l[j * n + k];
        l[i * n + j] = sum / diagonal;
      }
    }
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const double value = !positive    ? DoubleOfBits(0x7ff8000000000000u)
                             : args.lower ? l[i * n + j]
                                          : l[j * n + i];
        StoreReal(args.kind, args.out, base + i * n + j, value);
      }
    }
  }
};

struct TriangularSolveFunctor {
  TriangularSolveArgs args;

  // op(a)'s element (i, j) of batch matrix `base`.
  HLOCHECK_HD double Op(int64_t base, int64_t i, int64_t j) const {
    if (args.transpose) {
      const int64_t t = i;
      i = j;
      j = t;
    }
    const bool inside = args.lower ? i >= j : i <= j;
    if (!inside) return 0;
    if (args.unit_diagonal && i == j) return 1;
    return Real(args.kind, args.a, base + i * args.n + j);
  }

  HLOCHECK_HD void operator()(int64_t t) const {
    const int64_t n = args.n;
    const int64_t lines = args.left_side ? args.cols : args.rows;
    const int64_t batch = t / lines;
    const int64_t line = t % lines;
    const int64_t a_base = batch * n * n;
    const int64_t b_base = batch * args.rows * args.cols;
    double* x = args.scratch + b_base;
    // op(a) is lower-triangular when a's triangle is lower and not
    // transposed, or upper and transposed.
    const bool op_lower = args.lower != args.transpose;
    // Left: column `line` of x solves op(a) x = b; right: row `line` solves
    // x op(a) = b, that is op(a)^T x^T = b^T, whose matrix is upper where
    // op(a) is lower.
    auto at = [&](int64_t k) {
      return args.left_side ? b_base + k * args.cols + line : b_base + line * args.cols + k;
    };
    auto m = [&](int64_t i, int64_t k) {
      return args.left_side ? Op(a_base, i, k) : Op(a_base, k, i);
    };
    const bool forward = args.left_side ? op_lower : !op_lower;
    for (int64_t step = 0; step < n; ++step) {
      const int64_t i = forward ? step : n - 1 - step;
      double sum = Real(args.kind, args.b, at(i));
      if (forward) {
        for (int64_t k = 0; k < i; ++k) sum -= m(i, k) * x[at(k) - b_base];
      } else {
        for (int64_t k = i + 1; k < n; ++k) sum -= m(i, k) * x[at(k) - b_base];
      }
      x[at(i) - b_base] = sum / m(i, i);
    }
    for (int64_t k = 0; k < n; ++k) StoreReal(args.kind, args.out, at(k), x[at(k) - b_base]);
  }
};

template <typename Exec>
std::string RunCholesky(const Exec& exec, const CholeskyArgs& args) {
  if (args.batches == 0 || args.n == 0) return "";
  return exec.ForEach(args.batches, CholeskyFunctor{args});
}

template <typename Exec>
std::string RunTriangularSolve(const Exec& exec, const TriangularSolveArgs& args) {
  const int64_t lines = args.left_side ? args.cols : args.rows;
  if (args.batches == 0 || lines == 0 || args.n == 0) return "";
  return exec.ForEach(args.batches * lines, TriangularSolveFunctor{args});
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_LINEAR_ALGEBRA_KERNELS_H_
