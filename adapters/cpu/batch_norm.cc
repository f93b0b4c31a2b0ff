// Batch normalisation (seed 002: batch_norm_inference): each element in
// double, (operand - mean) * (scale / sqrt(variance + epsilon)) + offset,
// epsilon first rounded to the element type as the spec's constant() does,
// and the result rounded once to the element type.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/cpu_internal.h"

namespace hlocheck::cpu {
namespace {

std::vector<double> AsDoubles(const Tensor& t, const Device& device) {
  std::vector<double> values(static_cast<size_t>(t.num_elements()));
  ConvertBuffer(t.element_type(), t.raw(), ElementType::kF64, values.data(), t.num_elements(),
                device);
  return values;
}

AdapterSupport SupportsBatchNormInference(const Case& c) {
  if (AdapterSupport support = SupportsUnquantized(c); !support.supported) return support;
  if (!IsFloat(c.operands[0].element_type())) {
    return AdapterSupport::No("batch_norm_inference: the operand is not a float");
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunBatchNormInference(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 5));
  const Tensor& operand = c.operands[0];
  const ElementType type = operand.element_type();
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t feature_index, IntAttribute(c, "feature_index"));
  const Attribute* epsilon_attribute = c.FindAttribute("epsilon");
  const double* epsilon = epsilon_attribute ? std::get_if<double>(epsilon_attribute) : nullptr;
  if (epsilon == nullptr || feature_index < 0 || feature_index >= operand.rank() ||
      c.result_types[0] != operand.type()) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch_norm_inference: needs an f32 epsilon, a feature_index below rank ",
                     operand.rank(), " and a result of the operand's type"));
  }
  const int64_t features = operand.shape()[feature_index];
  for (size_t k = 1; k < 5; ++k) {
    if (c.operands[k].type() != TensorType({features}, type)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "batch_norm_inference: scale, offset, mean and variance must be ",
          TensorType({features}, type).ToString(), ", not ", c.operands[k].type().ToString()));
    }
  }
  // epsilon is an f32 constant: its f32 value in the element type, as
  // constant(epsilon, element_type(operand)).
  double eps = 0;
  {
    const float f32_epsilon = static_cast<float>(*epsilon);
    Tensor narrow(Shape{}, type);
    ConvertBuffer(ElementType::kF32, &f32_epsilon, type, narrow.raw(), 1, device);
    ConvertBuffer(type, narrow.raw(), ElementType::kF64, &eps, 1, device);
  }
  const std::vector<double> x = AsDoubles(operand, device);
  const std::vector<double> scale = AsDoubles(c.operands[1], device);
  const std::vector<double> offset = AsDoubles(c.operands[2], device);
  const std::vector<double> mean = AsDoubles(c.operands[3], device);
  const std::vector<double> variance = AsDoubles(c.operands[4], device);
  std::vector<double> factor(static_cast<size_t>(features));
  for (int64_t f = 0; f < features; ++f) factor[f] = scale[f] / std::sqrt(variance[f] + eps);
  const int64_t stride = RowMajorStrides(operand.shape())[feature_index];
  std::vector<double> out(x.size());
  ParallelFor(device, static_cast<int64_t>(x.size()), 16, 8, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      const int64_t f = (i / stride) % features;
      out[i] = (x[i] - mean[f]) * factor[f] + offset[f];
    }
  });
  Tensor result(c.result_types[0]);
  ConvertBuffer(ElementType::kF64, out.data(), type, result.raw(), result.num_elements(), device);
  return OneResult(std::move(result));
}

}  // namespace

std::vector<OpEntry> BatchNormOps() {
  return {
      {"batch_norm_inference", 5, &SupportsBatchNormInference, &RunBatchNormInference},
  };
}

}  // namespace hlocheck::cpu
