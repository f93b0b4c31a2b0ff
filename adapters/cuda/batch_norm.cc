// The CUDA adapter's batch_norm_inference, batch_norm_training and
// batch_norm_grad: computed in double on the machine, each result rounded
// once to the element type (kernels/batch_norm_kernels.h); epsilon and the
// element count per feature first rounded to the element type, as the
// spec's constant() makes them.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsBatchNorm(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  if (c.operands.empty() || !IsFloat(c.operands[0].element_type())) {
    return AdapterSupport::No(c.op + ": the operand is not a float");
  }
  return AdapterSupport::Yes();
}

// `value` as the element type `type` holds it.
double AsElementType(double value, ElementType type) { return RoundedToFloatType(type, value); }

// Reads feature_index and epsilon and checks the per-feature operands
// (`per_feature`: their indices) and their type.
absl::StatusOr<BatchNormArgs> PlanBatchNorm(const Case& c, std::vector<size_t> per_feature) {
  const Tensor& operand = c.operands[0];
  const ElementType type = operand.element_type();
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t feature_index, IntAttribute(c, "feature_index"));
  const Attribute* epsilon = c.FindAttribute("epsilon");
  const double* value = epsilon ? std::get_if<double>(epsilon) : nullptr;
  if (value == nullptr || feature_index < 0 || feature_index >= operand.rank()) {
    return absl::InvalidArgumentError(absl::StrCat(
        c.op, ": needs an f32 epsilon and a feature_index below rank ", operand.rank()));
  }
  BatchNormArgs args;
  args.kind = *KindOf(type);
  args.n = operand.num_elements();
  args.features = operand.shape()[feature_index];
  args.inner = RowMajorStrides(operand.shape())[feature_index];
  const TensorType feature_type({args.features}, type);
  for (size_t k : per_feature) {
    if (c.operands[k].type() != feature_type) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.op, ": operand ", k, " must be ", feature_type.ToString()));
    }
  }
  args.epsilon = AsElementType(static_cast<float>(*value), type);
  args.count =
      AsElementType(static_cast<double>(args.features == 0 ? 0 : args.n / args.features), type);
  return args;
}

struct Buffers {
  std::vector<Buffer> in;
  std::vector<Buffer> out;
  Buffer stats;
};

// `inputs` point into `args`: each is set to its operand's buffer.
absl::StatusOr<Results> RunBatchNorm(const Case& c, Context& context, BatchNormArgs& args,
                                     const std::vector<const void**>& inputs) {
  Buffers buffers;
  for (size_t k = 0; k < inputs.size(); ++k) {
    HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(c.operands[k]));
    *inputs[k] = in.data();
    buffers.in.push_back(std::move(in));
  }
  void** outputs[] = {&args.out, &args.feature_out0, &args.feature_out1};
  for (size_t r = 0; r < c.result_types.size(); ++r) {
    const TensorType& type = c.result_types[r];
    HLOCHECK_ASSIGN_OR_RETURN(
        Buffer out, context.Allocate(static_cast<size_t>(type.num_elements() *
                                                         ContainerBytes(type.element_type))));
    *outputs[r] = out.data();
    buffers.out.push_back(std::move(out));
  }
  HLOCHECK_ASSIGN_OR_RETURN(
      buffers.stats, context.Allocate(static_cast<size_t>(3 * args.features) * sizeof(double)));
  args.stats = static_cast<double*>(buffers.stats.data());
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().BatchNorm(args)));
  Results results;
  for (size_t r = 0; r < c.result_types.size(); ++r) {
    HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(buffers.out[r], c.result_types[r]));
    results.push_back(std::move(result));
  }
  return results;
}

absl::StatusOr<Results> RunBatchNormInference(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 5));
  if (c.result_types[0] != c.operands[0].type()) {
    return absl::InvalidArgumentError(
        "batch_norm_inference: the result must have the operand's type");
  }
  HLOCHECK_ASSIGN_OR_RETURN(BatchNormArgs args, PlanBatchNorm(c, {1, 2, 3, 4}));
  args.op = BatchNormOp::kInference;
  return RunBatchNorm(c, context, args,
                      {&args.x, &args.scale, &args.offset, &args.mean, &args.variance});
}

absl::StatusOr<Results> RunBatchNormTraining(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 3, 3));
  HLOCHECK_ASSIGN_OR_RETURN(BatchNormArgs args, PlanBatchNorm(c, {1, 2}));
  const TensorType feature_type({args.features}, c.operands[0].element_type());
  if (c.result_types[0] != c.operands[0].type() || c.result_types[1] != feature_type ||
      c.result_types[2] != feature_type) {
    return absl::InvalidArgumentError("batch_norm_training: the result types do not fit");
  }
  args.op = BatchNormOp::kTraining;
  return RunBatchNorm(c, context, args, {&args.x, &args.scale, &args.offset});
}

absl::StatusOr<Results> RunBatchNormGrad(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 5, 3));
  HLOCHECK_ASSIGN_OR_RETURN(BatchNormArgs args, PlanBatchNorm(c, {1, 2, 3}));
  const TensorType feature_type({args.features}, c.operands[0].element_type());
  if (c.operands[4].type() != c.operands[0].type() || c.result_types[0] != c.operands[0].type() ||
      c.result_types[1] != feature_type || c.result_types[2] != feature_type) {
    return absl::InvalidArgumentError("batch_norm_grad: the types do not fit");
  }
  args.op = BatchNormOp::kGrad;
  return RunBatchNorm(c, context, args,
                      {&args.x, &args.scale, &args.mean, &args.variance, &args.grad_output});
}

}  // namespace

std::vector<OpEntry> BatchNormOps() {
  return {
      {"batch_norm_inference", &SupportsBatchNorm, &RunBatchNormInference},
      {"batch_norm_training", &SupportsBatchNorm, &RunBatchNormTraining},
      {"batch_norm_grad", &SupportsBatchNorm, &RunBatchNormGrad},
  };
}

}  // namespace hlocheck::cuda
