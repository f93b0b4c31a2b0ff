// The CUDA adapter's uniform_quantize and uniform_dequantize: quantized
// tensors as their storage integers with their type's parameters (scales
// and zero points uploaded per tensor or per axis), one thread per element
// (kernels/quantization_kernels.h). Other ops on quantized tensors are not
// implemented on CUDA yet.
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsQuantization(const Case& c) {
  if (c.operands.size() != 1 || c.result_types.size() != 1 || c.ProcessCount() != 1 ||
      !c.operand_structure.empty() || !c.result_structure.empty()) {
    return AdapterSupport::No(c.op + " takes one operand and gives one result");
  }
  const bool quantize = c.op == "uniform_quantize";
  const TensorType& result = c.result_types[0];
  if (quantize != result.quantization.has_value()) {
    return AdapterSupport::No(c.op + (quantize ? " needs a quantized result" : " gives a float"));
  }
  if (!quantize && !c.operands[0].type().quantization) {
    return AdapterSupport::No("uniform_dequantize needs a quantized operand");
  }
  for (const TensorType* type : {&c.operands[0].type(), &result}) {
    if (!KindOf(type->element_type).has_value() ||
        (type->quantization && !KindOf(type->quantization->expressed_type).has_value())) {
      return AdapterSupport::No(c.op + ": a type not implemented on CUDA");
    }
  }
  return AdapterSupport::Yes();
}

// A quantized type's parameters in machine memory (kept alive by `keep`).
absl::StatusOr<Quantization> Upload(const Case& c, Context& context, const TensorType& type,
                                    std::vector<Buffer>& keep) {
  const UniformQuantization& q = *type.quantization;
  Quantization out;
  out.expressed = *KindOf(q.expressed_type);
  out.storage_min = q.storage_min;
  out.storage_max = q.storage_max;
  if (q.quantization_dimension) {
    const auto axis = static_cast<size_t>(*q.quantization_dimension);
    if (axis >= type.shape.size()) {
      return absl::InvalidArgumentError(c.op + ": quantization_dimension out of range");
    }
    for (size_t d = axis + 1; d < type.shape.size(); ++d) out.stride *= type.shape[d];
    out.size = type.shape[axis];
  }
  const size_t count = q.scales.size();
  if (count == 0 || q.zero_points.size() != count ||
      (out.size > 1 && static_cast<int64_t>(count) != out.size)) {
    return absl::InvalidArgumentError(c.op + ": scales and zero points do not fit");
  }
  Tensor scales(TensorType({static_cast<int64_t>(count)}, ElementType::kF64));
  Tensor zero_points(TensorType({static_cast<int64_t>(count)}, ElementType::kSI64));
  for (size_t k = 0; k < count; ++k) {
    scales.values<ElementType::kF64>()[k] = q.scales[k];
    zero_points.values<ElementType::kSI64>()[k] = q.zero_points[k];
  }
  HLOCHECK_ASSIGN_OR_RETURN(Buffer s, context.Upload(scales));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer z, context.Upload(zero_points));
  out.scales = static_cast<const double*>(s.data());
  out.zero_points = static_cast<const int64_t*>(z.data());
  keep.push_back(std::move(s));
  keep.push_back(std::move(z));
  return out;
}

absl::StatusOr<Results> RunQuantization(const Case& c, Context& context) {
  if (AdapterSupport s = SupportsQuantization(c); !s.supported) {
    return absl::InvalidArgumentError(s.reason);
  }
  const Tensor& operand = c.operands[0];
  const TensorType& type = c.result_types[0];
  if (operand.shape() != type.shape) {
    return absl::InvalidArgumentError(c.op + ": the result's shape is not the operand's");
  }
  std::vector<Buffer> keep;
  QuantizeArgs args;
  args.quantize = c.op == "uniform_quantize";
  args.in_quantized = operand.type().quantization.has_value();
  args.in_kind = *KindOf(operand.element_type());
  args.out_kind = *KindOf(type.element_type);
  if (args.in_quantized) {
    HLOCHECK_ASSIGN_OR_RETURN(args.in, Upload(c, context, operand.type(), keep));
  }
  if (args.quantize) {
    HLOCHECK_ASSIGN_OR_RETURN(args.out, Upload(c, context, type, keep));
  }
  args.n = type.num_elements();
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(operand));
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out,
      context.Allocate(static_cast<size_t>(args.n * ContainerBytes(type.element_type))));
  args.operand = in.data();
  args.result = out.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Quantize(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> QuantizationOps() {
  return {
      {"uniform_dequantize", &SupportsQuantization, &RunQuantization},
      {"uniform_quantize", &SupportsQuantization, &RunQuantization},
  };
}

}  // namespace hlocheck::cuda
