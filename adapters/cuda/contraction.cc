// The CUDA adapter's dot_general: each operand laid out by a strided copy
// as [batch, m, k] and [batch, k, n] (batching dimensions first, then the
// free ones, the contracting ones paired in the order the attributes give),
// widened to the result's element type where that differs (as the oracle
// reads a result type of its own: docs/numerics.md), and multiplied by
// cuBLAS (f32, f64, f16, bf16 on the GPU, without TF32) or the adapter's
// own kernel. An `algorithm` and mixed kinds (integer operands, float
// result) are not implemented on CUDA yet. convolution: one thread per
// result element summing its window (kernels/contraction_kernels.h), the
// operands likewise widened to the result's type.
#include <algorithm>
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

// ---------------------------------------------------------- convolution

absl::StatusOr<ConvolutionArgs> PlanConvolution(const Case& c) {
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t input_batch, IntAttribute(c, "input_batch_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t input_feature,
                            IntAttribute(c, "input_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> input_spatial,
                            IntListAttribute(c, "input_spatial_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t kernel_input,
                            IntAttribute(c, "kernel_input_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t kernel_output,
                            IntAttribute(c, "kernel_output_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> kernel_spatial,
                            IntListAttribute(c, "kernel_spatial_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t output_batch, IntAttribute(c, "output_batch_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t output_feature,
                            IntAttribute(c, "output_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> output_spatial,
                            IntListAttribute(c, "output_spatial_dimensions"));
  const auto spatial = static_cast<int64_t>(input_spatial.size());
  const std::vector<int64_t> ones(static_cast<size_t>(spatial), 1);
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                            IntListAttribute(c, "window_strides", ones));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> padding,
                            IntMatrixAttribute(c, "padding", spatial, 2));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> lhs_dilation,
                            IntListAttribute(c, "lhs_dilation", ones));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> rhs_dilation,
                            IntListAttribute(c, "rhs_dilation", ones));
  std::vector<bool> reversal(static_cast<size_t>(spatial), false);
  if (const Attribute* a = c.FindAttribute("window_reversal")) {
    if (const auto* flags = std::get_if<std::vector<bool>>(a)) reversal = *flags;
  }
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t feature_groups, IntAttribute(c, "feature_group_count"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t batch_groups, IntAttribute(c, "batch_group_count"));
  const Shape& lhs = c.operands[0].shape();
  const Shape& rhs = c.operands[1].shape();
  const Shape& result = c.result_types[0].shape;
  auto invalid = [](const std::string& what) {
    return absl::InvalidArgumentError("convolution: " + what);
  };
  const auto rank = static_cast<int64_t>(lhs.size());
  if (static_cast<int64_t>(rhs.size()) != rank || static_cast<int64_t>(result.size()) != rank ||
      rank != spatial + 2 || rank > kMaxRank || kernel_spatial.size() != input_spatial.size() ||
      output_spatial.size() != input_spatial.size()) {
    return invalid("lhs, rhs and result need rank 2 + the spatial dimensions, at most 8");
  }
  std::vector<int64_t> lhs_dims = {input_batch, input_feature};
  std::vector<int64_t> rhs_dims = {kernel_input, kernel_output};
  std::vector<int64_t> out_dims = {output_batch, output_feature};
  lhs_dims.insert(lhs_dims.end(), input_spatial.begin(), input_spatial.end());
  rhs_dims.insert(rhs_dims.end(), kernel_spatial.begin(), kernel_spatial.end());
  out_dims.insert(out_dims.end(), output_spatial.begin(), output_spatial.end());
  for (std::vector<int64_t>* dims : {&lhs_dims, &rhs_dims, &out_dims}) {
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (int64_t d : *dims) {
      if (d < 0 || d >= rank || seen[d]) return invalid("dimension numbers are not a permutation");
      seen[d] = true;
    }
  }
  for (const std::vector<int64_t>* list : {&strides, &lhs_dilation, &rhs_dilation}) {
    if (static_cast<int64_t>(list->size()) != spatial ||
        std::any_of(list->begin(), list->end(), [](int64_t x) { return x < 1; })) {
      return invalid("window_strides and dilations need a positive value per spatial dimension");
    }
  }
  if (static_cast<int64_t>(reversal.size()) != spatial) return invalid("window_reversal size");
  if (feature_groups < 1 || batch_groups < 1 || (feature_groups > 1 && batch_groups > 1)) {
    return invalid("feature_group_count and batch_group_count must be positive, one of them 1");
  }
  const int64_t groups = std::max(feature_groups, batch_groups);
  const int64_t outputs = rhs[kernel_output];
  ConvolutionArgs args;
  args.spatial = static_cast<int>(spatial);
  args.group_inputs = rhs[kernel_input];
  if (outputs % groups != 0 || lhs[input_batch] % batch_groups != 0 ||
      lhs[input_feature] != args.group_inputs * feature_groups) {
    return invalid("the group counts do not divide the features and batch");
  }
  args.group_outputs = outputs / groups;
  args.batch_groups = batch_groups > 1;
  args.out_batch = lhs[input_batch] / batch_groups;
  args.out_features = outputs;
  if (result[output_batch] != args.out_batch || result[output_feature] != outputs) {
    return invalid("the result's batch or feature size does not match");
  }
  const std::vector<int64_t> lhs_strides = RowMajorStrides(lhs);
  const std::vector<int64_t> rhs_strides = RowMajorStrides(rhs);
  const std::vector<int64_t> out_strides = RowMajorStrides(result);
  args.out_batch_stride = out_strides[output_batch];
  args.out_feature_stride = out_strides[output_feature];
  args.lhs_batch_stride = lhs_strides[input_batch];
  args.lhs_feature_stride = lhs_strides[input_feature];
  args.rhs_input_stride = rhs_strides[kernel_input];
  args.rhs_output_stride = rhs_strides[kernel_output];
  for (int64_t s = 0; s < spatial; ++s) {
    const int64_t size = lhs[input_spatial[s]];
    const int64_t dilated = size == 0 ? 0 : (size - 1) * lhs_dilation[s] + 1;
    const int64_t padded = padding[2 * s] + dilated + padding[2 * s + 1];
    const int64_t k = rhs[kernel_spatial[s]];
    const int64_t window = k == 0 ? 0 : (k - 1) * rhs_dilation[s] + 1;
    const int64_t windows = padded <= 0 || window > padded ? 0 : (padded - window) / strides[s] + 1;
    if (result[output_spatial[s]] != windows) return invalid("the result's spatial sizes");
    args.out_spatial[s] = windows;
    args.out_spatial_strides[s] = out_strides[output_spatial[s]];
    args.lhs_spatial[s] = size;
    args.lhs_spatial_strides[s] = lhs_strides[input_spatial[s]];
    args.rhs_spatial[s] = k;
    args.rhs_spatial_strides[s] = rhs_strides[kernel_spatial[s]];
    args.window_strides[s] = strides[s];
    args.pad_low[s] = padding[2 * s];
    args.lhs_dilation[s] = lhs_dilation[s];
    args.rhs_dilation[s] = rhs_dilation[s];
    args.reversal[s] = reversal[s];
  }
  return args;
}

AdapterSupport SupportsConvolution(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  if (c.operands.size() != 2 || c.result_types.size() != 1) {
    return AdapterSupport::No("convolution needs 2 operands and 1 result");
  }
  const ElementType in = c.operands[0].element_type();
  const ElementType out = c.result_types[0].element_type;
  if (!SameKind(in, out) || c.operands[1].element_type() != in) {
    return AdapterSupport::No(absl::StrCat("convolution of ", std::string(Name(in)), " into ",
                                           std::string(Name(out)), " is not implemented on CUDA"));
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunConvolution(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  HLOCHECK_ASSIGN_OR_RETURN(ConvolutionArgs args, PlanConvolution(c));
  const TensorType& type = c.result_types[0];
  const ElementType element = type.element_type;
  if (c.operands[1].element_type() != c.operands[0].element_type() ||
      !SameKind(c.operands[0].element_type(), element)) {
    return absl::InvalidArgumentError("convolution: operand types do not fit");
  }
  // Operands widened to a result type of their own, as dot_general's.
  HLOCHECK_ASSIGN_OR_RETURN(Buffer lhs, UploadAs(c, context, c.operands[0], element));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer rhs, UploadAs(c, context, c.operands[1], element));
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out,
      context.Allocate(static_cast<size_t>(type.num_elements() * ContainerBytes(element))));
  args.kind = *KindOf(element);
  args.lhs = lhs.data();
  args.rhs = rhs.data();
  args.out = out.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Convolution(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> ContractionOps() {
  return {
      {"dot_general", &SupportsDot, &RunDot},
      {"convolution", &SupportsConvolution, &RunConvolution},
  };
}

}  // namespace hlocheck::cuda
