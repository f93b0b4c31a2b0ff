// Linear algebra (seed 002: cholesky, triangular_solve) with Eigen's dense
// module, each matrix of the batch in double (complex<double> for complex
// types) and the result rounded once to the element type.
//
// cholesky: Eigen's LLT (the lower factor; the upper one is its adjoint);
// a matrix that is not positive definite, where the spec leaves the
// behaviour undefined, gives NaN, as LAPACK-based backends report it. The
// opposite triangle is zero. Eigen's LLT reads only the lower triangle, so
// the upper factor is computed from the upper triangle's adjoint.
// triangular_solve: Eigen's triangular solve of op(a) x = b or x op(a) = b,
// with a's other triangle never read.
#include <complex>

// cpu_internal.h first: it defines EIGEN_USE_THREADS, which every Eigen
// include of the adapter must see.
#include "adapters/cpu/cpu_internal.h"
// clang-format off
#include <Eigen/Dense>
// clang-format on

#include "absl/strings/str_cat.h"

namespace hlocheck::cpu {
namespace {

template <typename Scalar>
using MatrixOf = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

AdapterSupport SupportsLinearAlgebra(const Case& c) {
  if (AdapterSupport support = SupportsUnquantized(c); !support.supported) return support;
  const ElementType type = c.operands[0].element_type();
  if (!IsFloat(type) && !IsComplex(type)) {
    return AdapterSupport::No(c.op + ": not a float or complex type");
  }
  return AdapterSupport::Yes();
}

// The tensor's values as double or complex<double>, and back.
template <typename Scalar>
std::vector<Scalar> Widened(const Tensor& t, const Device& device) {
  constexpr ElementType kWide =
      std::is_same_v<Scalar, double> ? ElementType::kF64 : ElementType::kComplexF64;
  std::vector<Scalar> values(static_cast<size_t>(t.num_elements()));
  ConvertBuffer(t.element_type(), t.raw(), kWide, values.data(), t.num_elements(), device);
  return values;
}

template <typename Scalar>
Tensor Narrowed(const std::vector<Scalar>& values, const TensorType& type, const Device& device) {
  constexpr ElementType kWide =
      std::is_same_v<Scalar, double> ? ElementType::kF64 : ElementType::kComplexF64;
  Tensor result(type);
  ConvertBuffer(kWide, values.data(), type.element_type, result.raw(), result.num_elements(),
                device);
  return result;
}

// Runs `run` with Scalar = double for float types, complex<double> for
// complex ones.
template <typename Run>
auto WithScalar(ElementType type, Run run) {
  if (IsComplex(type)) return run.template operator()<std::complex<double>>();
  return run.template operator()<double>();
}

absl::Status CheckSquareBatch(const Case& c, const Tensor& a) {
  const size_t rank = a.shape().size();
  if (rank < 2 || a.shape()[rank - 1] != a.shape()[rank - 2]) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, ": a must be a batch of square matrices, not ", a.type().ToString()));
  }
  return absl::OkStatus();
}

template <typename Scalar>
Results Cholesky(const Case& c, bool lower, const Device& device) {
  const Tensor& a = c.operands[0];
  const int64_t n = a.shape().back();
  const std::vector<Scalar> values = Widened<Scalar>(a, device);
  std::vector<Scalar> out(values.size(), Scalar(0));
  const int64_t batches = n == 0 ? 0 : a.num_elements() / (n * n);
  ParallelFor(device, batches, 4.0 * n * n, n * n * n, [&](int64_t first, int64_t last) {
    for (int64_t b = first; b < last; ++b) {
      Eigen::Map<const MatrixOf<Scalar>> matrix(values.data() + b * n * n, n, n);
      Eigen::Map<MatrixOf<Scalar>> result(out.data() + b * n * n, n, n);
      // The lower triangle of A, or the adjoint of its upper triangle.
      const MatrixOf<Scalar> hermitian = lower ? MatrixOf<Scalar>(matrix) : matrix.adjoint();
      Eigen::LLT<MatrixOf<Scalar>> llt(hermitian);
      if (llt.info() != Eigen::Success) {
        result.setConstant(Scalar(std::nan("")));
        continue;
      }
      const MatrixOf<Scalar> l = llt.matrixL();
      if (lower) {
        result = l.template triangularView<Eigen::Lower>();
      } else {
        result = l.adjoint().template triangularView<Eigen::Upper>();
      }
    }
  });
  Results results;
  results.push_back(Narrowed(out, c.result_types[0], device));
  return results;
}

absl::StatusOr<Results> RunCholesky(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  const Tensor& a = c.operands[0];
  HLOCHECK_RETURN_IF_ERROR(CheckSquareBatch(c, a));
  if (c.result_types[0] != a.type()) {
    return absl::InvalidArgumentError("cholesky: the result must have a's type");
  }
  HLOCHECK_ASSIGN_OR_RETURN(const bool lower, BoolAttribute(c, "lower", false));
  return WithScalar(a.element_type(),
                    [&]<typename Scalar>() { return Cholesky<Scalar>(c, lower, device); });
}

template <typename Scalar>
Results TriangularSolve(const Case& c, bool left_side, bool lower, bool unit_diagonal,
                        const std::string& transpose_a, const Device& device) {
  const Tensor& a = c.operands[0];
  const Tensor& b = c.operands[1];
  const size_t rank = b.shape().size();
  const int64_t n = a.shape().back();
  const int64_t rows = b.shape()[rank - 2], cols = b.shape()[rank - 1];
  const std::vector<Scalar> a_values = Widened<Scalar>(a, device);
  std::vector<Scalar> x = Widened<Scalar>(b, device);
  const int64_t batches = rows * cols == 0 ? 0 : b.num_elements() / (rows * cols);
  ParallelFor(
      device, batches, 4.0 * n * n, n * n * (left_side ? cols : rows),
      [&](int64_t first, int64_t last) {
        for (int64_t k = first; k < last; ++k) {
          Eigen::Map<const MatrixOf<Scalar>> matrix(a_values.data() + k * n * n, n, n);
          Eigen::Map<MatrixOf<Scalar>> solution(x.data() + k * rows * cols, rows, cols);
          // op(a) as a dense triangular matrix: the other triangle zero,
          // the diagonal one for unit_diagonal.
          MatrixOf<Scalar> triangle =
              lower ? MatrixOf<Scalar>(matrix.template triangularView<Eigen::Lower>())
                    : MatrixOf<Scalar>(matrix.template triangularView<Eigen::Upper>());
          if (unit_diagonal) triangle.diagonal().setOnes();
          MatrixOf<Scalar> op = triangle;
          if (transpose_a == "TRANSPOSE") op = triangle.transpose();
          if (transpose_a == "ADJOINT") op = triangle.adjoint();
          // op(a) is lower-triangular when a's triangle is lower and
          // not transposed, or upper and transposed.
          const bool op_lower = lower == (transpose_a == "NO_TRANSPOSE");
          if (left_side) {
            if (op_lower) {
              op.template triangularView<Eigen::Lower>().solveInPlace(solution);
            } else {
              op.template triangularView<Eigen::Upper>().solveInPlace(solution);
            }
          } else {
            if (op_lower) {
              op.template triangularView<Eigen::Lower>().template solveInPlace<Eigen::OnTheRight>(
                  solution);
            } else {
              op.template triangularView<Eigen::Upper>().template solveInPlace<Eigen::OnTheRight>(
                  solution);
            }
          }
        }
      });
  Results results;
  results.push_back(Narrowed(x, c.result_types[0], device));
  return results;
}

absl::StatusOr<Results> RunTriangularSolve(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  const Tensor& a = c.operands[0];
  const Tensor& b = c.operands[1];
  HLOCHECK_RETURN_IF_ERROR(CheckSquareBatch(c, a));
  HLOCHECK_ASSIGN_OR_RETURN(const bool left_side, BoolAttribute(c, "left_side", false));
  HLOCHECK_ASSIGN_OR_RETURN(const bool lower, BoolAttribute(c, "lower", false));
  HLOCHECK_ASSIGN_OR_RETURN(const bool unit_diagonal, BoolAttribute(c, "unit_diagonal", false));
  HLOCHECK_ASSIGN_OR_RETURN(const std::string transpose_a,
                            EnumAttribute(c, "transpose_a", "NO_TRANSPOSE"));
  const size_t rank = a.shape().size();
  const int64_t n = a.shape().back();
  bool valid =
      b.rank() == a.rank() && b.element_type() == a.element_type() &&
      c.result_types[0] == b.type() && b.shape()[left_side ? rank - 2 : rank - 1] == n &&
      (transpose_a == "NO_TRANSPOSE" || transpose_a == "TRANSPOSE" || transpose_a == "ADJOINT");
  for (size_t d = 0; valid && d + 2 < rank; ++d) valid = a.shape()[d] == b.shape()[d];
  if (!valid) {
    return absl::InvalidArgumentError(absl::StrCat(
        "triangular_solve: b (", b.type().ToString(), ") and the result must share a's batch and ",
        left_side ? "rows" : "columns", " (", a.type().ToString(), "), transpose_a ", transpose_a));
  }
  return WithScalar(a.element_type(), [&]<typename Scalar>() {
    return TriangularSolve<Scalar>(c, left_side, lower, unit_diagonal, transpose_a, device);
  });
}

}  // namespace

std::vector<OpEntry> LinearAlgebraOps() {
  return {
      {"cholesky", 1, &SupportsLinearAlgebra, &RunCholesky},
      {"triangular_solve", 2, &SupportsLinearAlgebra, &RunTriangularSolve},
  };
}

}  // namespace hlocheck::cpu
