// The CUDA adapter's cholesky and triangular_solve for real floats: each
// matrix of the batch (each right-hand side's column or row) one thread,
// computed in double and rounded once (kernels/linear_algebra_kernels.h).
// Complex matrices are not implemented on CUDA yet.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsLinearAlgebra(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  if (c.operands.empty() || !IsFloat(c.operands[0].element_type())) {
    return AdapterSupport::No(c.op + ": not a real float type");
  }
  return AdapterSupport::Yes();
}

absl::Status CheckSquareBatch(const Case& c, const Tensor& a) {
  const size_t rank = a.shape().size();
  if (rank < 2 || a.shape()[rank - 1] != a.shape()[rank - 2]) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, ": a must be a batch of square matrices, not ", a.type().ToString()));
  }
  return absl::OkStatus();
}

absl::StatusOr<Results> RunCholesky(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  const Tensor& a = c.operands[0];
  HLOCHECK_RETURN_IF_ERROR(CheckSquareBatch(c, a));
  if (c.result_types[0] != a.type()) {
    return absl::InvalidArgumentError("cholesky: the result must have a's type");
  }
  CholeskyArgs args;
  HLOCHECK_ASSIGN_OR_RETURN(args.lower, BoolAttribute(c, "lower", false));
  args.kind = *KindOf(a.element_type());
  args.n = a.shape().back();
  args.batches = args.n == 0 ? 0 : a.num_elements() / (args.n * args.n);
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(a));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Allocate(a.bytes().size()));
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer scratch, context.Allocate(static_cast<size_t>(a.num_elements()) * sizeof(double)));
  args.a = in.data();
  args.out = out.data();
  args.scratch = static_cast<double*>(scratch.data());
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Cholesky(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, c.result_types[0]));
  Results results;
  results.push_back(std::move(result));
  return results;
}

absl::StatusOr<Results> RunTriangularSolve(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  const Tensor& a = c.operands[0];
  const Tensor& b = c.operands[1];
  HLOCHECK_RETURN_IF_ERROR(CheckSquareBatch(c, a));
  TriangularSolveArgs args;
  HLOCHECK_ASSIGN_OR_RETURN(args.left_side, BoolAttribute(c, "left_side", false));
  HLOCHECK_ASSIGN_OR_RETURN(args.lower, BoolAttribute(c, "lower", false));
  HLOCHECK_ASSIGN_OR_RETURN(args.unit_diagonal, BoolAttribute(c, "unit_diagonal", false));
  HLOCHECK_ASSIGN_OR_RETURN(const std::string transpose_a,
                            EnumAttribute(c, "transpose_a", "NO_TRANSPOSE"));
  const size_t rank = a.shape().size();
  args.n = a.shape().back();
  bool valid =
      b.rank() == a.rank() && b.element_type() == a.element_type() &&
      c.result_types[0] == b.type() && b.shape()[args.left_side ? rank - 2 : rank - 1] == args.n &&
      (transpose_a == "NO_TRANSPOSE" || transpose_a == "TRANSPOSE" || transpose_a == "ADJOINT");
  for (size_t d = 0; valid && d + 2 < rank; ++d) valid = a.shape()[d] == b.shape()[d];
  if (!valid) {
    return absl::InvalidArgumentError("triangular_solve: a, b and the result do not fit");
  }
  // For real matrices the adjoint is the transpose.
  args.transpose = transpose_a != "NO_TRANSPOSE";
  args.kind = *KindOf(a.element_type());
  args.rows = b.shape()[rank - 2];
  args.cols = b.shape()[rank - 1];
  args.batches = args.rows * args.cols == 0 ? 0 : b.num_elements() / (args.rows * args.cols);
  HLOCHECK_ASSIGN_OR_RETURN(Buffer a_buffer, context.Upload(a));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer b_buffer, context.Upload(b));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Allocate(b.bytes().size()));
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer scratch, context.Allocate(static_cast<size_t>(b.num_elements()) * sizeof(double)));
  args.a = a_buffer.data();
  args.b = b_buffer.data();
  args.out = out.data();
  args.scratch = static_cast<double*>(scratch.data());
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().TriangularSolve(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, c.result_types[0]));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> LinearAlgebraOps() {
  return {
      {"cholesky", &SupportsLinearAlgebra, &RunCholesky},
      {"triangular_solve", &SupportsLinearAlgebra, &RunTriangularSolve},
  };
}

}  // namespace hlocheck::cuda
