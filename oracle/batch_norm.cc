// Batch normalisation (seed 002: batch_norm_inference; batch_norm_training
// and batch_norm_grad are still planned). The spec defines the op as a chain
// of element-wise ops, each rounded to the element type:
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
#include <cmath>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

// Higham's gamma_k(u) = k u / (1 - k u); infinite where k u >= 1 (the
// 2- and 3-bit significands of f4 and f6 types: eight roundings may lose
// every bit).
double Gamma(int k, double u) { return k * u < 1 ? k * u / (1 - k * u) : HUGE_VAL; }

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
  const double u = std::ldexp(1.0, -(format.mantissa_bits + 1));
  const double tiny = std::ldexp(1.0, format.min_normal_exponent() - format.mantissa_bits);
  const double largest = DecodeFloat(format, format.max_finite_bits()).ToDouble();
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

// batch_norm_inference: see the file comment.
Results BatchNormInference(const Case& c) {
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t feature_index, IntAttribute(c, "feature_index"));
  const Attribute* epsilon = c.FindAttribute("epsilon");
  const double* value = epsilon == nullptr ? nullptr : std::get_if<double>(epsilon);
  if (value == nullptr) return absl::InvalidArgumentError("batch_norm_inference: no f32 epsilon");
  for (const Tensor& t : c.operands) {
    if (t.type().quantization) {
      return absl::UnimplementedError(
          "batch_norm_inference on quantized tensors comes with the quantization issue (20)");
    }
  }
  return DispatchElementType(c.operands[0].element_type(), [&]<ElementType T>() -> Results {
    if constexpr (IsFloat(T)) {
      return Inference<T>(c, feature_index, *value);
    } else {
      return absl::InvalidArgumentError("batch_norm_inference: the operand is not a float");
    }
  });
}

}  // namespace

std::vector<OpEntry> BatchNormOps() { return {{"batch_norm_inference", BatchNormInference}}; }

}  // namespace hlocheck::oracle
