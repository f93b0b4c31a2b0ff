// Batch normalisation (seed 002: batch_norm_inference, batch_norm_training,
// batch_norm_grad).
//
// batch_norm_inference: the spec defines the op as a chain of element-wise
// ops, each rounded to the element type:
//   result = add(multiply(scale, divide(subtract(operand, mean),
//                                       sqrt(add(variance, epsilon)))), offset)
// with epsilon (an f32 constant) rounded to the element type first. Backends reassociate it
// (scale * rsqrt(variance + epsilon) first, a fused multiply-add, f32 for a
// narrow type), so the oracle computes the exact value in long double and
// allows what any such evaluation errs by: with p = scale * normalised and
// u the type's unit roundoff, gamma_8(u) |p| for the product's five or so
// roundings and an rsqrt a few ULP off, 2u |result| for the last addition,
// and smallest subnormals for underflow on the way, times the factors
// applied after it (docs/numerics.md).
// Where some order of evaluation may overflow and another not (operand -
// mean, scale * (operand - mean), the product) the element is free.
//
// batch_norm_training and batch_norm_grad: the spec's decompositions step
// by step (compute_mean, compute_variance, XLA's batchnorm_expander terms),
// each step's exact value and error bound carried by StepErrors: sums in any
// order (gamma_{n-1} u), the other steps two roundings each. The variance is
// the mean of squared deviations from the computed mean, as the spec
// writes it; E[x^2] - E[x]^2 is another formula, whose cancellation the
// bound does not excuse.
#include <cmath>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"
#include "oracle/step_errors.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

// Whether the exact value `exact` has no counterpart in the format: a NaN or
// an infinity it lacks, or a finite value that rounds to NaN.
bool Unrepresentable(const FloatFormat& format, double exact, double rounded) {
  if (std::isnan(exact)) return !format.has_nan();
  if (std::isinf(exact)) return !format.has_infinity;
  return std::isnan(rounded);
}

template <ElementType T>
Results Inference(const Case& c, int64_t feature_index, double epsilon) {
  const Tensor& operand = c.operands[0];
  auto x = operand.values<T>();
  auto scale = c.operands[1].values<T>();
  auto offset = c.operands[2].values<T>();
  auto mean = c.operands[3].values<T>();
  auto variance = c.operands[4].values<T>();
  const FloatFormat& format = Format(T);
  const double u = UnitRoundoff(format);
  const double tiny = std::ldexp(1.0, format.min_normal_exponent() - format.mantissa_bits);
  const double largest = MaxFinite(format);
  // epsilon is an f32 constant (a case may carry it as any double): its f32
  // value, then as the element type holds it (constant(epsilon, element_type)).
  const long double eps = ToDouble<T>(RoundDouble<T>(static_cast<float>(epsilon)));

  const int64_t count = operand.num_elements();
  Tensor reference(c.result_types[0]);
  ResultExpectation e;
  e.check = Check::kErrorBound;
  e.center_hi.resize(count);
  e.center_lo.resize(count);
  e.bound.resize(count);
  FreeElements free(static_cast<size_t>(count));
  const std::vector<int64_t> strides = RowMajorStrides(operand.shape());
  const int64_t features = operand.shape()[feature_index];
  for (int64_t i = 0; i < count; ++i) {
    const int64_t f = (i / strides[feature_index]) % features;
    const long double xi = ToDouble<T>(x[i]);
    const long double centered = xi - static_cast<long double>(ToDouble<T>(mean[f]));
    const long double stddev = sqrtl(static_cast<long double>(ToDouble<T>(variance[f])) + eps);
    const long double s = ToDouble<T>(scale[f]);
    const long double product = s * (centered / stddev);
    const long double r = product + static_cast<long double>(ToDouble<T>(offset[f]));
    const double hi = static_cast<double>(r);
    e.center_hi[i] = hi;
    e.center_lo[i] = std::isfinite(hi) ? static_cast<double>(r - static_cast<long double>(hi)) : 0;
    const double p = static_cast<double>(fabsl(product));
    // An intermediate that underflows errs by up to a smallest subnormal,
    // and the factors after it scale that: |operand - mean| after scale /
    // stddev, |scale| after (operand - mean) / stddev, 1 / stddev after
    // scale * (operand - mean).
    const double amplified = static_cast<double>(fabsl(centered) + fabsl(s) + 1 / stddev);
    e.bound[i] = (p == 0 ? 0.0 : Gamma(8, u) * p) + 2 * u * std::fabs(hi) +
                 tiny * (8 + (std::isfinite(amplified) ? amplified : 0)) +
                 std::ldexp(p + std::fabs(hi), -60);  // the long double reference's own error
    reference.values<T>()[i] = RoundDouble<T>(hi);
    const bool may_overflow = !(fabsl(centered) <= largest) || !(fabsl(s * centered) <= largest) ||
                              !(fabsl(s / stddev) <= largest) ||
                              !(fabsl(centered / stddev) <= largest) || !(p <= largest) ||
                              !(p + fabsl(r - product) <= largest);
    if (std::isinf(hi)) {
      // An infinite input: whether another order meets Inf x 0 (scale /
      // stddev underflowing first) or Inf - Inf decides between Inf and NaN.
      free.Mark(static_cast<size_t>(i),
                "an infinite term: the order of evaluation decides between an infinity and NaN");
    } else if (std::isfinite(hi) && may_overflow) {
      free.Mark(static_cast<size_t>(i),
                "some order of evaluation overflows (operand - mean, scale * (operand - mean), "
                "scale / stddev, the product) and another does not");
    } else if (Unrepresentable(format, hi, ToDouble<T>(RoundDouble<T>(hi))) ||
               (!format.has_zero_and_subnormals && (centered <= 0 || product <= 0))) {
      // A NaN or an infinity the type lacks, a finite value it cannot hold,
      // or (f8E8M0FNU, without zero and negatives) a step on the way that
      // has no value in the type.
      free.Mark(static_cast<size_t>(i), kUnrepresentableReason);
    }
  }
  e.reference = std::move(reference);
  std::move(free).MoveInto(e);
  std::vector<ResultExpectation> results;
  results.push_back(std::move(e));
  return results;
}

// The elements of one feature: i = (outer * features + feature) * inner_size
// + inner, for every outer and inner index.
struct FeatureLayout {
  FeatureLayout(const Shape& shape, int64_t feature_index) {
    features = shape[feature_index];
    inner = RowMajorStrides(shape)[feature_index];
    const int64_t total = NumElements(shape);
    outer = features * inner == 0 ? 0 : total / (features * inner);
  }
  int64_t per_feature() const { return outer * inner; }
  template <typename Visit>
  void ForEach(int64_t feature, Visit visit) const {
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t k = 0; k < inner; ++k) visit((o * features + feature) * inner + k);
    }
  }
  int64_t features = 0, inner = 1, outer = 0;
};

// An error-bound expectation of `type` from each element's tracked value,
// in row-major order.
ResultExpectation TrackedResult(const StepErrors& steps, const TensorType& type,
                                const std::vector<Tracked>& values) {
  ResultExpectation e;
  e.check = Check::kErrorBound;
  e.center_hi.resize(values.size());
  e.center_lo.resize(values.size());
  e.bound.resize(values.size());
  FreeElements free(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const Tracked& t = values[i];
    const double hi = static_cast<double>(t.value);
    e.center_hi[i] = hi;
    e.center_lo[i] = std::isfinite(hi) ? static_cast<double>(t.value - hi) : 0;
    e.bound[i] = std::isfinite(hi) ? steps.Bound(t) : 0;
    if (std::string_view reason = steps.FreeReason(t); !reason.empty()) free.Mark(i, reason);
  }
  e.reference = ReferenceFromCenters(type, e);
  std::move(free).MoveInto(e);
  return e;
}

// The spec's constant(size(operand) / dim(operand, feature_index),
// element_type): the element count per feature as the element type holds it.
template <ElementType T>
Tracked ElementsPerFeature(const FeatureLayout& layout) {
  return StepErrors::Exact(ToDouble<T>(RoundDouble<T>(static_cast<double>(layout.per_feature()))));
}

template <ElementType T>
long double Epsilon(double epsilon) {
  return ToDouble<T>(RoundDouble<T>(static_cast<float>(epsilon)));
}

// Marks every element of `results` free: the element type cannot hold a
// step of the decomposition.
Results AllFree(std::vector<ResultExpectation> results, std::string_view reason) {
  for (ResultExpectation& e : results) {
    FreeElements free(e.center_hi.size());
    for (size_t i = 0; i < e.center_hi.size(); ++i) free.Mark(i, reason);
    std::move(free).MoveInto(e);
  }
  return results;
}

// Without zero and negative values (f8E8M0FNU), operand - mean has no value
// for the elements at or below the mean; with an element count per feature
// the type cannot hold, the divisor is not a value.
template <ElementType T>
std::string_view UnrepresentableStep(const FeatureLayout& layout) {
  if (!Format(T).has_zero_and_subnormals) {
    return "operand - mean, a step of the spec's decomposition, has no value in a type "
           "without zero and negative numbers";
  }
  if (!std::isfinite(ElementsPerFeature<T>(layout).value)) {
    return "the element count per feature, a constant of the spec's decomposition, is beyond "
           "the element type's range";
  }
  return "";
}

template <ElementType T>
Results Training(const Case& c, int64_t feature_index, double epsilon) {
  const Tensor& operand = c.operands[0];
  auto x = operand.values<T>();
  auto scale = c.operands[1].values<T>();
  auto offset = c.operands[2].values<T>();
  const FeatureLayout layout(operand.shape(), feature_index);
  const StepErrors steps(Format(T));
  const Tracked count = ElementsPerFeature<T>(layout);
  const Tracked eps = StepErrors::Exact(Epsilon<T>(epsilon));

  std::vector<Tracked> output(static_cast<size_t>(operand.num_elements()));
  std::vector<Tracked> batch_mean(layout.features), batch_var(layout.features);
  std::vector<Tracked> terms;
  for (int64_t f = 0; f < layout.features; ++f) {
    // mean = compute_mean(operand, feature_index)
    terms.clear();
    layout.ForEach(f, [&](int64_t i) { terms.push_back(StepErrors::Exact(ToDouble<T>(x[i]))); });
    const Tracked mean = steps.Divide(steps.Sum(terms), count);
    // variance = compute_mean(mul(centered_operand, centered_operand))
    terms.clear();
    layout.ForEach(f, [&](int64_t i) {
      const Tracked centered = steps.Subtract(StepErrors::Exact(ToDouble<T>(x[i])), mean);
      terms.push_back(steps.Multiply(centered, centered));
    });
    const Tracked variance = steps.Divide(steps.Sum(terms), count);
    // batch_norm_inference(operand, scale, offset, mean, variance, ...)
    const Tracked stddev = steps.Sqrt(steps.Add(variance, eps));
    const Tracked s = StepErrors::Exact(ToDouble<T>(scale[f]));
    const Tracked o = StepErrors::Exact(ToDouble<T>(offset[f]));
    layout.ForEach(f, [&](int64_t i) {
      const Tracked centered = steps.Subtract(StepErrors::Exact(ToDouble<T>(x[i])), mean);
      output[i] = steps.Add(steps.Multiply(s, steps.Divide(centered, stddev)), o);
    });
    batch_mean[f] = mean;
    batch_var[f] = variance;
  }
  std::vector<ResultExpectation> results;
  results.push_back(TrackedResult(steps, c.result_types[0], output));
  results.push_back(TrackedResult(steps, c.result_types[1], batch_mean));
  results.push_back(TrackedResult(steps, c.result_types[2], batch_var));
  if (std::string_view reason = UnrepresentableStep<T>(layout); !reason.empty()) {
    return AllFree(std::move(results), reason);
  }
  return results;
}

template <ElementType T>
Results Grad(const Case& c, int64_t feature_index, double epsilon) {
  const Tensor& operand = c.operands[0];
  auto x = operand.values<T>();
  auto scale = c.operands[1].values<T>();
  auto mean = c.operands[2].values<T>();
  auto variance = c.operands[3].values<T>();
  auto grad_output = c.operands[4].values<T>();
  const FeatureLayout layout(operand.shape(), feature_index);
  const StepErrors steps(Format(T));
  const Tracked elements_per_feature = ElementsPerFeature<T>(layout);
  const Tracked eps = StepErrors::Exact(Epsilon<T>(epsilon));
  auto exact = [](auto value) { return StepErrors::Exact(ToDouble<T>(value)); };

  std::vector<Tracked> grad_operand(static_cast<size_t>(operand.num_elements()));
  std::vector<Tracked> grad_scale(layout.features), grad_offset(layout.features);
  std::vector<Tracked> sum_terms, product_terms, normalized_terms;
  for (int64_t f = 0; f < layout.features; ++f) {
    const Tracked variance_plus_epsilon = steps.Add(exact(variance[f]), eps);
    const Tracked stddev = steps.Sqrt(variance_plus_epsilon);
    auto centered = [&](int64_t i) { return steps.Subtract(exact(x[i]), exact(mean[f])); };
    sum_terms.clear();
    product_terms.clear();
    normalized_terms.clear();
    layout.ForEach(f, [&](int64_t i) {
      const Tracked g = exact(grad_output[i]);
      sum_terms.push_back(g);                                   // for i2, grad_offset
      product_terms.push_back(steps.Multiply(g, centered(i)));  // for i3
      normalized_terms.push_back(                               // for grad_scale
          steps.Multiply(g, steps.Divide(centered(i), stddev)));
    });
    const Tracked i2 = steps.Sum(sum_terms);
    const Tracked i3 = steps.Sum(product_terms);
    const Tracked factor =
        steps.Divide(steps.Divide(exact(scale[f]), stddev), elements_per_feature);
    layout.ForEach(f, [&](int64_t i) {
      const Tracked i1 = steps.Multiply(exact(grad_output[i]), elements_per_feature);
      const Tracked i4 = steps.Multiply(i3, centered(i));
      const Tracked i5 = steps.Divide(i4, variance_plus_epsilon);
      const Tracked i6 = steps.Subtract(steps.Subtract(i1, i2), i5);
      grad_operand[i] = steps.Multiply(factor, i6);
    });
    grad_scale[f] = steps.Sum(normalized_terms);
    grad_offset[f] = i2;
  }
  std::vector<ResultExpectation> results;
  results.push_back(TrackedResult(steps, c.result_types[0], grad_operand));
  results.push_back(TrackedResult(steps, c.result_types[1], grad_scale));
  results.push_back(TrackedResult(steps, c.result_types[2], grad_offset));
  if (std::string_view reason = UnrepresentableStep<T>(layout); !reason.empty()) {
    return AllFree(std::move(results), reason);
  }
  return results;
}

// The attributes every batch norm op has, and its float element type.
template <typename Run>
Results WithBatchNormAttributes(const Case& c, Run run) {
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t feature_index, IntAttribute(c, "feature_index"));
  const Attribute* epsilon = c.FindAttribute("epsilon");
  const double* value = epsilon == nullptr ? nullptr : std::get_if<double>(epsilon);
  if (value == nullptr) return absl::InvalidArgumentError(c.op + ": no f32 epsilon");
  if (c.operands.empty() || feature_index < 0 || feature_index >= c.operands[0].rank()) {
    return absl::InvalidArgumentError(c.op + ": feature_index is not a dimension of operand");
  }
  for (const Tensor& t : c.operands) {
    if (t.type().quantization) {
      return absl::UnimplementedError(
          c.op + " on quantized tensors comes with the quantization issue (20)");
    }
  }
  return DispatchElementType(c.operands[0].element_type(), [&]<ElementType T>() -> Results {
    if constexpr (IsFloat(T)) {
      return run.template operator()<T>(feature_index, *value);
    } else {
      return absl::InvalidArgumentError(c.op + ": the operand is not a float");
    }
  });
}

// batch_norm_inference: see the file comment.
Results BatchNormInference(const Case& c) {
  return WithBatchNormAttributes(c, [&]<ElementType T>(int64_t feature_index, double epsilon) {
    return Inference<T>(c, feature_index, epsilon);
  });
}

// batch_norm_training: compute_mean, compute_variance (of the deviations
// from the computed mean), then batch_norm_inference with them.
Results BatchNormTraining(const Case& c) {
  return WithBatchNormAttributes(c, [&]<ElementType T>(int64_t feature_index, double epsilon) {
    return Training<T>(c, feature_index, epsilon);
  });
}

// batch_norm_grad: the spec's i1..i6 (after XLA's batchnorm_expander).
Results BatchNormGrad(const Case& c) {
  return WithBatchNormAttributes(c, [&]<ElementType T>(int64_t feature_index, double epsilon) {
    return Grad<T>(c, feature_index, epsilon);
  });
}

}  // namespace

std::vector<OpEntry> BatchNormOps() {
  return {{"batch_norm_inference", BatchNormInference},
          {"batch_norm_training", BatchNormTraining},
          {"batch_norm_grad", BatchNormGrad}};
}

}  // namespace hlocheck::oracle
