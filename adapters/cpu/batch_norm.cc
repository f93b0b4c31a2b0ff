// Batch normalisation (seed 002: batch_norm_inference, batch_norm_training,
// batch_norm_grad), in double with each result rounded once to the element
// type: inference as (operand - mean) * (scale / sqrt(variance + epsilon))
// + offset; training's mean and variance per feature in two passes (the
// variance of the deviations from the mean, as the spec writes it, not
// E[x^2] - E[x]^2); grad as the spec's i1..i6. epsilon is first rounded to
// the element type as the spec's constant() does, and so is the element
// count per feature.
#include <algorithm>
#include <cmath>
#include <span>

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

AdapterSupport SupportsBatchNorm(const Case& c) {
  if (AdapterSupport support = SupportsUnquantized(c); !support.supported) return support;
  if (c.operands.empty() || !IsFloat(c.operands[0].element_type())) {
    return AdapterSupport::No(c.op + ": the operand is not a float");
  }
  return AdapterSupport::Yes();
}

// A value of the spec's constant(value, element_type): `value` as `type`
// holds it (epsilon goes through f32 first: it is an f32 attribute).
double AsElementType(double value, ElementType type, const Device& device) {
  Tensor narrow(Shape{}, type);
  ConvertBuffer(ElementType::kF64, &value, type, narrow.raw(), 1, device);
  double rounded = 0;
  ConvertBuffer(type, narrow.raw(), ElementType::kF64, &rounded, 1, device);
  return rounded;
}

// What every batch norm op reads: feature_index, epsilon in the element
// type, and the per-feature operands' types.
struct BatchNormAttributes {
  int64_t feature_index = 0;
  int64_t features = 0;
  int64_t inner = 1;  // the stride of the feature dimension
  double epsilon = 0;
  int64_t feature_of(int64_t i) const { return (i / inner) % features; }
};

absl::StatusOr<BatchNormAttributes> ReadBatchNormAttributes(const Case& c,
                                                            std::span<const size_t> per_feature,
                                                            const Device& device) {
  const Tensor& operand = c.operands[0];
  const ElementType type = operand.element_type();
  BatchNormAttributes a;
  HLOCHECK_ASSIGN_OR_RETURN(a.feature_index, IntAttribute(c, "feature_index"));
  const Attribute* epsilon = c.FindAttribute("epsilon");
  const double* value = epsilon ? std::get_if<double>(epsilon) : nullptr;
  if (value == nullptr || a.feature_index < 0 || a.feature_index >= operand.rank()) {
    return absl::InvalidArgumentError(absl::StrCat(
        c.op, ": needs an f32 epsilon and a feature_index below rank ", operand.rank()));
  }
  a.features = operand.shape()[a.feature_index];
  a.inner = RowMajorStrides(operand.shape())[a.feature_index];
  for (size_t k : per_feature) {
    if (c.operands[k].type() != TensorType({a.features}, type)) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": operand ", k, " must be ",
                                                     TensorType({a.features}, type).ToString(),
                                                     ", not ", c.operands[k].type().ToString()));
    }
  }
  a.epsilon = AsElementType(static_cast<float>(*value), type, device);
  return a;
}

Tensor FromDoubles(const std::vector<double>& values, const TensorType& type,
                   const Device& device) {
  Tensor result(type);
  ConvertBuffer(ElementType::kF64, values.data(), type.element_type, result.raw(),
                result.num_elements(), device);
  return result;
}

absl::StatusOr<Results> RunBatchNormInference(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 5));
  const Tensor& operand = c.operands[0];
  if (c.result_types[0] != operand.type()) {
    return absl::InvalidArgumentError(
        "batch_norm_inference: the result must have the operand's type");
  }
  const size_t per_feature[] = {1, 2, 3, 4};
  HLOCHECK_ASSIGN_OR_RETURN(const BatchNormAttributes a,
                            ReadBatchNormAttributes(c, per_feature, device));
  const std::vector<double> x = AsDoubles(operand, device);
  const std::vector<double> scale = AsDoubles(c.operands[1], device);
  const std::vector<double> offset = AsDoubles(c.operands[2], device);
  const std::vector<double> mean = AsDoubles(c.operands[3], device);
  const std::vector<double> variance = AsDoubles(c.operands[4], device);
  std::vector<double> factor(static_cast<size_t>(a.features));
  for (int64_t f = 0; f < a.features; ++f) {
    factor[f] = scale[f] / std::sqrt(variance[f] + a.epsilon);
  }
  std::vector<double> out(x.size());
  ParallelFor(device, static_cast<int64_t>(x.size()), 16, 8, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      const int64_t f = a.feature_of(i);
      out[i] = (x[i] - mean[f]) * factor[f] + offset[f];
    }
  });
  return OneResult(FromDoubles(out, c.result_types[0], device));
}

absl::StatusOr<Results> RunBatchNormTraining(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 3, 3));
  const Tensor& operand = c.operands[0];
  const size_t per_feature[] = {1, 2};
  HLOCHECK_ASSIGN_OR_RETURN(const BatchNormAttributes a,
                            ReadBatchNormAttributes(c, per_feature, device));
  const TensorType feature_type({a.features}, operand.element_type());
  if (c.result_types[0] != operand.type() || c.result_types[1] != feature_type ||
      c.result_types[2] != feature_type) {
    return absl::InvalidArgumentError(absl::StrCat("batch_norm_training: the results must be ",
                                                   operand.type().ToString(), " and twice ",
                                                   feature_type.ToString()));
  }
  const std::vector<double> x = AsDoubles(operand, device);
  const std::vector<double> scale = AsDoubles(c.operands[1], device);
  const std::vector<double> offset = AsDoubles(c.operands[2], device);
  const double count =
      AsElementType(static_cast<double>(operand.num_elements() / std::max<int64_t>(a.features, 1)),
                    operand.element_type(), device);
  std::vector<double> mean(a.features, 0.0), variance(a.features, 0.0);
  for (size_t i = 0; i < x.size(); ++i) mean[a.feature_of(i)] += x[i];
  for (double& m : mean) m /= count;
  for (size_t i = 0; i < x.size(); ++i) {
    const double centered = x[i] - mean[a.feature_of(i)];
    variance[a.feature_of(i)] += centered * centered;
  }
  for (double& v : variance) v /= count;
  std::vector<double> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t f = a.feature_of(i);
    out[i] = scale[f] * ((x[i] - mean[f]) / std::sqrt(variance[f] + a.epsilon)) + offset[f];
  }
  Results results;
  results.push_back(FromDoubles(out, c.result_types[0], device));
  results.push_back(FromDoubles(mean, c.result_types[1], device));
  results.push_back(FromDoubles(variance, c.result_types[2], device));
  return results;
}

absl::StatusOr<Results> RunBatchNormGrad(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 5, 3));
  const Tensor& operand = c.operands[0];
  const size_t per_feature[] = {1, 2, 3};
  HLOCHECK_ASSIGN_OR_RETURN(const BatchNormAttributes a,
                            ReadBatchNormAttributes(c, per_feature, device));
  const TensorType feature_type({a.features}, operand.element_type());
  if (c.operands[4].type() != operand.type() || c.result_types[0] != operand.type() ||
      c.result_types[1] != feature_type || c.result_types[2] != feature_type) {
    return absl::InvalidArgumentError(absl::StrCat(
        "batch_norm_grad: grad_output and grad_operand must be ", operand.type().ToString(),
        ", grad_scale and grad_offset ", feature_type.ToString()));
  }
  const std::vector<double> x = AsDoubles(operand, device);
  const std::vector<double> scale = AsDoubles(c.operands[1], device);
  const std::vector<double> mean = AsDoubles(c.operands[2], device);
  const std::vector<double> variance = AsDoubles(c.operands[3], device);
  const std::vector<double> g = AsDoubles(c.operands[4], device);
  const double elements_per_feature =
      AsElementType(static_cast<double>(operand.num_elements() / std::max<int64_t>(a.features, 1)),
                    operand.element_type(), device);
  // Per feature: sum(grad_output) (i2, grad_offset), sum(grad_output *
  // centered) (i3) and sum(grad_output * normalized) (grad_scale).
  std::vector<double> sum_g(a.features, 0.0), sum_g_centered(a.features, 0.0),
      sum_g_normalized(a.features, 0.0), stddev(a.features);
  for (int64_t f = 0; f < a.features; ++f) stddev[f] = std::sqrt(variance[f] + a.epsilon);
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t f = a.feature_of(i);
    const double centered = x[i] - mean[f];
    sum_g[f] += g[i];
    sum_g_centered[f] += g[i] * centered;
    sum_g_normalized[f] += g[i] * (centered / stddev[f]);
  }
  std::vector<double> grad_operand(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t f = a.feature_of(i);
    const double centered = x[i] - mean[f];
    const double i6 = (g[i] * elements_per_feature - sum_g[f]) -
                      sum_g_centered[f] * centered / (variance[f] + a.epsilon);
    grad_operand[i] = scale[f] / stddev[f] / elements_per_feature * i6;
  }
  Results results;
  results.push_back(FromDoubles(grad_operand, c.result_types[0], device));
  results.push_back(FromDoubles(sum_g_normalized, c.result_types[1], device));
  results.push_back(FromDoubles(sum_g, c.result_types[2], device));
  return results;
}

}  // namespace

std::vector<OpEntry> BatchNormOps() {
  return {
      {"batch_norm_inference", 5, &SupportsBatchNorm, &RunBatchNormInference},
      {"batch_norm_training", kVariadic, &SupportsBatchNorm, &RunBatchNormTraining},
      {"batch_norm_grad", kVariadic, &SupportsBatchNorm, &RunBatchNormGrad},
  };
}

}  // namespace hlocheck::cpu
