// The CUDA adapter's dot_general: each operand laid out by a strided copy
// as [batch, m, k] and [batch, k, n] (batching dimensions first, then the
// free ones, the contracting ones paired in the order the attributes give),
// widened to the result's element type where that differs (as the oracle
// reads a result type of its own: docs/numerics.md), and multiplied by
// cuBLAS (f32, f64, f16, bf16 on the GPU, without TF32) or the adapter's
// own kernel. An `algorithm` and mixed kinds (integer operands, float
// result) are not implemented on CUDA yet.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/case_attributes.h"
#include "core/dot_algorithm.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

struct DotPlan {
  std::vector<int64_t> lhs_order;  // [batch..., free..., contracting...]
  std::vector<int64_t> rhs_order;  // [batch..., contracting..., free...]
  Shape lhs_shape;
  Shape rhs_shape;
  int64_t batch = 1;
  int64_t m = 1;
  int64_t n = 1;
  int64_t k = 1;
};

absl::StatusOr<DotPlan> PlanDot(const Case& c) {
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> lhs_batch,
                            IntListAttribute(c, "lhs_batching_dimensions", {}));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> rhs_batch,
                            IntListAttribute(c, "rhs_batching_dimensions", {}));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> lhs_contracting,
                            IntListAttribute(c, "lhs_contracting_dimensions", {}));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> rhs_contracting,
                            IntListAttribute(c, "rhs_contracting_dimensions", {}));
  const Shape& lhs = c.operands[0].shape();
  const Shape& rhs = c.operands[1].shape();
  const Shape& result = c.result_types[0].shape;
  auto invalid = [] { return absl::InvalidArgumentError("dot_general: dimensions do not fit"); };
  if (lhs_batch.size() != rhs_batch.size() || lhs_contracting.size() != rhs_contracting.size()) {
    return invalid();
  }
  std::vector<int> lhs_role(lhs.size(), 0);  // 0 free, 1 batch, 2 contracting
  std::vector<int> rhs_role(rhs.size(), 0);
  auto mark = [](std::vector<int>& roles, int64_t d, int role) {
    if (d < 0 || d >= static_cast<int64_t>(roles.size()) || roles[d] != 0) return false;
    roles[d] = role;
    return true;
  };
  DotPlan plan;
  for (size_t i = 0; i < lhs_batch.size(); ++i) {
    if (!mark(lhs_role, lhs_batch[i], 1) || !mark(rhs_role, rhs_batch[i], 1) ||
        lhs[lhs_batch[i]] != rhs[rhs_batch[i]]) {
      return invalid();
    }
    plan.batch *= lhs[lhs_batch[i]];
  }
  for (size_t i = 0; i < lhs_contracting.size(); ++i) {
    if (!mark(lhs_role, lhs_contracting[i], 2) || !mark(rhs_role, rhs_contracting[i], 2) ||
        lhs[lhs_contracting[i]] != rhs[rhs_contracting[i]]) {
      return invalid();
    }
    plan.k *= lhs[lhs_contracting[i]];
  }
  Shape expected;
  plan.lhs_order = lhs_batch;
  plan.rhs_order = rhs_batch;
  for (int64_t d : lhs_batch) expected.push_back(lhs[d]);
  for (size_t d = 0; d < lhs.size(); ++d) {
    if (lhs_role[d] == 0) {
      plan.lhs_order.push_back(static_cast<int64_t>(d));
      plan.m *= lhs[d];
      expected.push_back(lhs[d]);
    }
  }
  plan.lhs_order.insert(plan.lhs_order.end(), lhs_contracting.begin(), lhs_contracting.end());
  plan.rhs_order.insert(plan.rhs_order.end(), rhs_contracting.begin(), rhs_contracting.end());
  for (size_t d = 0; d < rhs.size(); ++d) {
    if (rhs_role[d] == 0) {
      plan.rhs_order.push_back(static_cast<int64_t>(d));
      plan.n *= rhs[d];
      expected.push_back(rhs[d]);
    }
  }
  if (expected != result) return invalid();
  for (int64_t d : plan.lhs_order) plan.lhs_shape.push_back(lhs[d]);
  for (int64_t d : plan.rhs_order) plan.rhs_shape.push_back(rhs[d]);
  return plan;
}

bool SameKind(ElementType a, ElementType b) {
  return (IsFloat(a) && IsFloat(b)) || (IsInteger(a) && IsInteger(b)) || (IsBool(a) && IsBool(b));
}

AdapterSupport SupportsDot(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  if (c.operands.size() != 2 || c.result_types.size() != 1) {
    return AdapterSupport::No("dot_general needs 2 operands and 1 result");
  }
  if (c.operands[0].rank() > kMaxRank || c.operands[1].rank() > kMaxRank) {
    return AdapterSupport::No("dot_general: rank above 8");
  }
  absl::StatusOr<std::optional<DotAlgorithm>> algorithm = ReadDotAlgorithm(c);
  if (!algorithm.ok() || algorithm->has_value()) {
    return AdapterSupport::No("dot_general with an algorithm is not implemented on CUDA yet");
  }
  const ElementType in = c.operands[0].element_type();
  const ElementType out = c.result_types[0].element_type;
  if (!SameKind(in, out)) {
    return AdapterSupport::No(absl::StrCat("dot_general of ", std::string(Name(in)), " into ",
                                           std::string(Name(out)), " is not implemented on CUDA"));
  }
  return AdapterSupport::Yes();
}

// The operand laid out in `order` (its shape then `shape`), converted to
// `to` where that is not its own type.
absl::StatusOr<Buffer> LayOut(const Case& c, Context& context, const Tensor& operand,
                              const std::vector<int64_t>& order, const Shape& shape,
                              ElementType to) {
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(operand));
  const ElementType from = operand.element_type();
  const size_t count = static_cast<size_t>(operand.num_elements());
  HLOCHECK_ASSIGN_OR_RETURN(Buffer moved, context.Allocate(count * ContainerBytes(from)));
  HLOCHECK_RETURN_IF_ERROR(context.Check(
      c, context.machine().StridedCopy(PermutingCopy(
             operand.shape(), shape, order, ContainerBytes(from), in.data(), moved.data()))));
  if (from == to) return moved;
  HLOCHECK_ASSIGN_OR_RETURN(Buffer converted, context.Allocate(count * ContainerBytes(to)));
  ElementwiseArgs convert;
  convert.op = ElementOp::kConvert;
  convert.in = *KindOf(from);
  convert.out = *KindOf(to);
  convert.a = moved.data();
  convert.z = converted.data();
  convert.n = static_cast<int64_t>(count);
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Elementwise(convert)));
  return converted;
}

absl::StatusOr<Results> RunDot(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  HLOCHECK_ASSIGN_OR_RETURN(DotPlan plan, PlanDot(c));
  const TensorType& type = c.result_types[0];
  const ElementType element = type.element_type;
  if (c.operands[0].element_type() != c.operands[1].element_type() ||
      !SameKind(c.operands[0].element_type(), element)) {
    return absl::InvalidArgumentError("dot_general: operand types do not fit");
  }
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer lhs, LayOut(c, context, c.operands[0], plan.lhs_order, plan.lhs_shape, element));
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer rhs, LayOut(c, context, c.operands[1], plan.rhs_order, plan.rhs_shape, element));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Allocate(static_cast<size_t>(type.num_elements()) *
                                                         ContainerBytes(element)));
  MatmulArgs args;
  args.in = *KindOf(element);
  args.out = args.in;
  args.batch = plan.batch;
  args.m = plan.m;
  args.n = plan.n;
  args.k = plan.k;
  args.lhs = lhs.data();
  args.rhs = rhs.data();
  args.out_data = out.data();
  args.tf32 = context.faults().tf32 && element == ElementType::kF32;
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Matmul(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> ContractionOps() { return {{"dot_general", &SupportsDot, &RunDot}}; }

}  // namespace hlocheck::cuda
