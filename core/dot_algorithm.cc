#include "core/dot_algorithm.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/case_attributes.h"
#include "core/exact_value.h"
#include "core/status_macros.h"

namespace hlocheck {

std::optional<FloatFormat> PrecisionTypeFormat(std::string_view name) {
  if (name == "tf32") {
    return FloatFormat{8, 10, 127, true, true, true, NanEncoding::kIeee};
  }
  std::optional<ElementType> type = ParseElementType(name);
  if (!type || !IsFloat(*type)) return std::nullopt;
  return Format(*type);
}

double RoundToFormat(double x, const FloatFormat& format) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return format.has_infinity ? x : std::nan("");
  if (x == 0) return format.has_negative_zero() ? x : 0.0;
  const int exponent = std::max(std::ilogb(x), format.min_normal_exponent());
  const int quantum = exponent - format.mantissa_bits;
  // Exact scalings: the quotient has at most 53 significant bits.
  double rounded = std::ldexp(std::nearbyint(std::ldexp(x, -quantum)), quantum);
  const double max_finite = DecodeFloat(format, format.max_finite_bits()).ToDouble();
  if (std::fabs(rounded) > max_finite) {
    switch (format.overflow_rule()) {
      case OverflowRule::kInfinity:
        return std::copysign(HUGE_VAL, x);
      case OverflowRule::kNaN:
        return std::nan("");
      case OverflowRule::kSaturate:
        return std::copysign(max_finite, x);
    }
  }
  if (rounded == 0 && !format.has_negative_zero()) return 0.0;
  return rounded;
}

std::string DotAlgorithm::ToString() const {
  return absl::StrCat(
      "lhs_precision_type = ", lhs_precision_type, ", rhs_precision_type = ", rhs_precision_type,
      ", accumulation_type = ", accumulation_type, ", lhs_component_count = ", lhs_component_count,
      ", rhs_component_count = ", rhs_component_count,
      ", num_primitive_operations = ", num_primitive_operations,
      ", allow_imprecise_accumulation = ", allow_imprecise_accumulation ? "true" : "false");
}

absl::StatusOr<std::optional<DotAlgorithm>> ReadDotAlgorithm(const Case& c) {
  static constexpr const char* kFields[] = {
      "lhs_precision_type",          "rhs_precision_type",  "accumulation_type",
      "lhs_component_count",         "rhs_component_count", "num_primitive_operations",
      "allow_imprecise_accumulation"};
  int given = 0;
  for (const char* field : kFields) given += c.FindAttribute(field) != nullptr;
  if (given == 0) return std::nullopt;
  DotAlgorithm algorithm;
  auto type_field = [&](const char* field, std::string& name, FloatFormat& format) -> absl::Status {
    absl::StatusOr<std::string> value = EnumAttribute(c, field);
    HLOCHECK_RETURN_IF_ERROR(value.status());
    std::optional<FloatFormat> found = PrecisionTypeFormat(*value);
    if (!found) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.op, ": attribute ", field, " is '", *value, "', not a FloatType or tf32"));
    }
    name = *value;
    format = *found;
    return absl::OkStatus();
  };
  HLOCHECK_RETURN_IF_ERROR(
      type_field("lhs_precision_type", algorithm.lhs_precision_type, algorithm.lhs_precision));
  HLOCHECK_RETURN_IF_ERROR(
      type_field("rhs_precision_type", algorithm.rhs_precision_type, algorithm.rhs_precision));
  HLOCHECK_RETURN_IF_ERROR(
      type_field("accumulation_type", algorithm.accumulation_type, algorithm.accumulation));
  auto count_field = [&](const char* field, const char* constraint,
                         int64_t& count) -> absl::Status {
    absl::StatusOr<int64_t> value = IntAttribute(c, field);
    HLOCHECK_RETURN_IF_ERROR(value.status());
    if (*value <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": attribute ", field, " is ", *value,
                                                     ", not positive (", constraint, ")"));
    }
    count = *value;
    return absl::OkStatus();
  };
  HLOCHECK_RETURN_IF_ERROR(
      count_field("lhs_component_count", "C22", algorithm.lhs_component_count));
  HLOCHECK_RETURN_IF_ERROR(
      count_field("rhs_component_count", "C23", algorithm.rhs_component_count));
  HLOCHECK_RETURN_IF_ERROR(
      count_field("num_primitive_operations", "C24", algorithm.num_primitive_operations));
  HLOCHECK_ASSIGN_OR_RETURN(algorithm.allow_imprecise_accumulation,
                            BoolAttribute(c, "allow_imprecise_accumulation", false));
  return algorithm;
}

}  // namespace hlocheck
