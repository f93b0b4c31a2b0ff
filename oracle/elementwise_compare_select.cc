// Element-wise comparison and choice (seed 002: compare, select, is_finite,
// maximum, minimum, clamp). Each result element is a boolean or one of the
// inputs, so results are exact; the element type is dispatched once per op.
#include <algorithm>
#include <cmath>
#include <compare>
#include <cstring>
#include <limits>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"
#include "oracle/element_comparison.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

constexpr std::string_view kComplexOrderReason =
    "the lexicographic order of complex numbers is not defined for NaN parts, nor where only "
    "the signs of zero parts differ (#560 plans to remove it)";

template <bool kMax>
Results MaximumOrMinimum(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    auto a = lhs.values<T>();
    auto b = rhs.values<T>();
    auto out = result.values<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      Choice<ContainerT<T>> choice = Extremum<T, kMax>(a[i], b[i]);
      out[i] = choice.value;
      if (choice.open) free.Mark(i, kComplexOrderReason);
    }
  });
  return OneResult(std::move(result), Check::kExact, std::move(free));
}

Results Maximum(const Case& c) { return MaximumOrMinimum<true>(c); }
Results Minimum(const Case& c) { return MaximumOrMinimum<false>(c); }

// clamp: minimum(maximum(operand, min_element), max_element), where a rank-0
// min or max applies to every element.
Results Clamp(const Case& c) {
  const Tensor& min = c.operands[0];
  const Tensor& operand = c.operands[1];
  const Tensor& max = c.operands[2];
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  const bool scalar_min = min.rank() == 0;
  const bool scalar_max = max.rank() == 0;
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    auto lo = min.values<T>();
    auto x = operand.values<T>();
    auto hi = max.values<T>();
    auto out = result.values<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      Choice<ContainerT<T>> raised = Extremum<T, true>(x[i], lo[scalar_min ? 0 : i]);
      Choice<ContainerT<T>> clamped = Extremum<T, false>(raised.value, hi[scalar_max ? 0 : i]);
      out[i] = clamped.value;
      if (raised.open || clamped.open) free.Mark(i, kComplexOrderReason);
    }
  });
  return OneResult(std::move(result), Check::kExact, std::move(free));
}

// compare: the numbers for booleans and integers; IEEE-754 compareQuiet*
// for floats with FLOAT; IEEE-754 totalOrder with TOTALORDER (for every
// direction, as XLA's *TotalOrder comparisons: EQ means the same position in
// the total order, so -0 != +0 and a NaN equals itself); lexicographic on
// (real, imaginary) for complex numbers, which the spec defines for every
// direction (GE, GT, LE, LT are planned to be removed, #560).
Results Compare(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  HLOCHECK_ASSIGN_OR_RETURN(const ComparisonDirection direction,
                            ComparisonDirectionAttribute(c, "comparison_direction"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::string compare_type, EnumAttribute(c, "compare_type", ""));
  const bool total_order = compare_type == "TOTALORDER";
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  auto out = result.values<ElementType::kI1>();
  DispatchElementType(lhs.element_type(), [&]<ElementType T>() {
    auto a = lhs.values<T>();
    auto b = rhs.values<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      bool open = false;
      out[i] = CompareElements<T>(direction, total_order, a[i], b[i], &open) ? 1 : 0;
      if (open) free.Mark(i, kFnuzTotalOrderReason);
    }
  });
  return OneResult(std::move(result), Check::kExact, std::move(free));
}

// select: result[i] = pred_element ? on_true[i] : on_false[i], with a rank-0
// pred applying to every element. Values are copied as raw bytes, so every
// element type behaves the same.
Results Select(const Case& c) {
  const Tensor& pred = c.operands[0];
  const Tensor& on_true = c.operands[1];
  const Tensor& on_false = c.operands[2];
  Tensor result(c.result_types[0]);
  const size_t bytes = ContainerBytes(result.element_type());
  auto p = pred.values<ElementType::kI1>();
  const bool scalar_pred = pred.rank() == 0;
  for (int64_t i = 0; i < result.num_elements(); ++i) {
    const Tensor& source = p[scalar_pred ? 0 : i] != 0 ? on_true : on_false;
    std::memcpy(result.bytes().data() + i * bytes, source.bytes().data() + i * bytes, bytes);
  }
  return OneResult(std::move(result), Check::kExact, FreeElements(0));
}

// is_finite: IEEE-754 isFinite, neither an infinity nor NaN; for quantized
// types always true (every storage integer stands for a finite value).
Results IsFinite(const Case& c) {
  const Tensor& x = c.operands[0];
  Tensor result(c.result_types[0]);
  auto out = result.values<ElementType::kI1>();
  if (x.type().quantization) {
    std::fill(out.begin(), out.end(), 1);
    return OneResult(std::move(result), Check::kExact, FreeElements(0));
  }
  absl::Status status = DispatchElementType(x.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      const FloatFormat& format = Format(T);
      auto in = x.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        uint64_t bits = FloatBits<T>(in[i]);
        out[i] = IsNaNBits(format, bits) || IsInfinityBits(format, bits) ? 0 : 1;
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("unsupported: is_finite of " + std::string(Name(T)));
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kExact, FreeElements(0));
}

}  // namespace

std::vector<OpEntry> ElementwiseCompareSelectOps() {
  return {{"clamp", Clamp},     {"compare", Compare}, {"is_finite", IsFinite},
          {"maximum", Maximum}, {"minimum", Minimum}, {"select", Select}};
}

}  // namespace hlocheck::oracle
