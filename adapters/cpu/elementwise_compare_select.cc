// Comparing and choosing elementwise ops: compare, maximum, minimum, clamp,
// select, and is_finite. Floats follow IEEE-754: maximum and minimum propagate NaN and
// order -0 below +0; compare is either IEEE (FLOAT) or totalOrder.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// ------------------------------------------------------ maximum, minimum

template <bool kMax>
absl::StatusOr<Results> RunExtremum(const Case& c, const Device& device) {
  return RunSameType(c, 2, AnyType, [&]<ElementType T>(Tensor& result) {
    MapBinary(c.operands[0].values<T>().data(), c.operands[1].values<T>().data(),
              result.values<T>().data(), result.num_elements(), device, Extremum<kMax, T>());
  });
}

// ---------------------------------------------------------------- clamp

// clamp(min, operand, max) = minimum(maximum(operand, min), max), where min
// and max are rank 0 (broadcast) or of the operand's shape.
absl::StatusOr<Results> RunClamp(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 3));
  const Tensor& min = c.operands[0];
  const Tensor& operand = c.operands[1];
  const Tensor& max = c.operands[2];
  Tensor result = NewResult(c.result_types[0]);
  const ElementType type = operand.element_type();
  for (const Tensor* bound : {&min, &max}) {
    if (bound->element_type() != type ||
        (bound->shape().size() != 0 && bound->shape() != operand.shape())) {
      return absl::InvalidArgumentError(absl::StrCat("clamp: bound ", bound->type().ToString(),
                                                     " does not fit ", operand.type().ToString()));
    }
  }
  if (operand.type() != result.type()) {
    return absl::InvalidArgumentError("clamp: result type differs from the operand's");
  }
  const int64_t min_stride = min.shape().size() == 0 ? 0 : 1;
  const int64_t max_stride = max.shape().size() == 0 ? 0 : 1;
  DispatchElementType(type, [&]<ElementType T>() {
    using C = ContainerT<T>;
    const C* lo = min.values<T>().data();
    const C* x = operand.values<T>().data();
    const C* hi = max.values<T>().data();
    C* z = result.values<T>().data();
    const auto maximum = Extremum<true, T>();
    const auto minimum = Extremum<false, T>();
    ParallelFor(device, result.num_elements(), 4 * sizeof(C), 8, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        z[i] = minimum(maximum(x[i], lo[i * min_stride]), hi[i * max_stride]);
      }
    });
  });
  return OneResult(std::move(result));
}

// --------------------------------------------------------------- select

absl::StatusOr<Results> RunSelect(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 3));
  const Tensor& pred = c.operands[0];
  const Tensor& on_true = c.operands[1];
  const Tensor& on_false = c.operands[2];
  Tensor result = NewResult(c.result_types[0]);
  if (!IsBool(pred.element_type()) || on_true.type() != result.type() ||
      on_false.type() != result.type() ||
      (pred.shape().size() != 0 && pred.shape() != result.shape())) {
    return absl::InvalidArgumentError("select: operand types do not fit");
  }
  const uint8_t* p = pred.values<ElementType::kI1>().data();
  const int64_t n = result.num_elements();
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    using C = ContainerT<T>;
    const C* x = on_true.values<T>().data();
    const C* y = on_false.values<T>().data();
    C* z = result.values<T>().data();
    if (n == 0) return;
    if (pred.shape().size() == 0) {
      // One choice for the whole tensor: a copy.
      Map<C>(z, n).device(device) = ConstMap<C>(p[0] != 0 ? x : y, n);
    } else {
      Map<C>(z, n).device(device) =
          (ConstMap<uint8_t>(p, n) != uint8_t{0}).select(ConstMap<C>(x, n), ConstMap<C>(y, n));
    }
  });
  return OneResult(std::move(result));
}

// -------------------------------------------------------------- compare

// The result of comparing two ordered keys.
template <typename K>
bool Compare(ComparisonDirection direction, K a, K b) {
  switch (direction) {
    case ComparisonDirection::kEq:
      return a == b;
    case ComparisonDirection::kNe:
      return a != b;
    case ComparisonDirection::kGe:
      return a >= b;
    case ComparisonDirection::kGt:
      return a > b;
    case ComparisonDirection::kLe:
      return a <= b;
    case ComparisonDirection::kLt:
      return a < b;
  }
  return false;
}

template <typename P>
bool CompareComplex(ComparisonDirection direction, std::complex<P> a, std::complex<P> b) {
  // Lexicographic on (real, imag) with IEEE comparisons of the parts.
  const bool eq = a.real() == b.real() && a.imag() == b.imag();
  const bool lt = a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  const bool gt = a.real() > b.real() || (a.real() == b.real() && a.imag() > b.imag());
  switch (direction) {
    case ComparisonDirection::kEq:
      return eq;
    case ComparisonDirection::kNe:
      return !eq;
    case ComparisonDirection::kGe:
      return gt || eq;
    case ComparisonDirection::kGt:
      return gt;
    case ComparisonDirection::kLe:
      return lt || eq;
    case ComparisonDirection::kLt:
      return lt;
  }
  return false;
}

absl::StatusOr<Results> RunCompare(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckElementwise(c, 2, false));
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result = NewResult(c.result_types[0]);
  if (lhs.element_type() != rhs.element_type() || !IsBool(result.element_type())) {
    return absl::InvalidArgumentError("compare: operand or result types do not fit");
  }
  HLOCHECK_ASSIGN_OR_RETURN(const ComparisonDirection direction,
                            ComparisonDirectionAttribute(c, "comparison_direction"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::string compare_type, EnumAttribute(c, "compare_type", ""));
  const bool total_order = compare_type == "TOTALORDER";
  uint8_t* z = result.values<ElementType::kI1>().data();
  const int64_t n = result.num_elements();
  DispatchElementType(lhs.element_type(), [&]<ElementType T>() {
    using C = ContainerT<T>;
    const C* x = lhs.values<T>().data();
    const C* y = rhs.values<T>().data();
    if constexpr (IsBool(T)) {
      MapBinary(x, y, z, n, device, [direction](C a, C b) -> uint8_t {
        return Compare(direction, a != 0, b != 0) ? 1 : 0;
      });
    } else if constexpr (IsInteger(T)) {
      // Signed containers compare as signed, unsigned as unsigned.
      MapBinary(x, y, z, n, device,
                [direction](C a, C b) -> uint8_t { return Compare(direction, a, b) ? 1 : 0; });
    } else if constexpr (IsComplex(T)) {
      MapBinary(x, y, z, n, device, [direction](C a, C b) -> uint8_t {
        return CompareComplex(direction, a, b) ? 1 : 0;
      });
    } else if (total_order) {
      MapBinary(x, y, z, n, device, [direction](C a, C b) -> uint8_t {
        return Compare(direction, TotalOrderKey<T>(a), TotalOrderKey<T>(b)) ? 1 : 0;
      });
    } else {
      MapBinary(x, y, z, n, device, [direction](C a, C b) -> uint8_t {
        return Compare(direction, FloatValue<T>(a), FloatValue<T>(b)) ? 1 : 0;
      });
    }
  });
  return OneResult(std::move(result));
}

// ------------------------------------------------------------ is_finite

absl::StatusOr<Results> RunIsFinite(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckElementwise(c, 1, false));
  const Tensor& operand = c.operands[0];
  Tensor result = NewResult(c.result_types[0]);
  if (!IsFloat(operand.element_type()) || !IsBool(result.element_type())) {
    return absl::InvalidArgumentError("is_finite: needs a float operand and an i1 result");
  }
  uint8_t* z = result.values<ElementType::kI1>().data();
  const int64_t n = result.num_elements();
  DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    using C = ContainerT<T>;
    if constexpr (IsFloat(T)) {
      MapUnary(operand.values<T>().data(), z, n, device,
               [](C a) -> uint8_t { return std::isfinite(FloatValue<T>(a)) ? 1 : 0; });
    }
  });
  return OneResult(std::move(result));
}

AdapterSupport SupportsClamp(const Case& c) { return SupportsTypes(c, AnyType, "every type", 1); }
AdapterSupport SupportsSelect(const Case& c) { return SupportsTypes(c, AnyType, "every type", 1); }

}  // namespace

std::vector<OpEntry> ElementwiseCompareSelectOps() {
  return {
      {"compare", 2, &SupportsAny, &RunCompare},
      {"maximum", 2, &SupportsAny, &RunExtremum<true>},
      {"minimum", 2, &SupportsAny, &RunExtremum<false>},
      {"clamp", 3, &SupportsClamp, &RunClamp},
      {"select", 3, &SupportsSelect, &RunSelect},
      {"is_finite", 1, &SupportsFloat, &RunIsFinite},
  };
}

}  // namespace hlocheck::cpu
