// The public spec's dot_general `algorithm` (#stablehlo.dot_algorithm): the
// precision types lhs and rhs are rounded to, the type the products are
// accumulated in, and how many components each operand is split into for
// how many primitive dot products (bf16_6x, tf32_3x, ...). Read here once,
// for the oracle and the adapters, which each give it their own meaning.
#ifndef HLOCHECK_CORE_DOT_ALGORITHM_H_
#define HLOCHECK_CORE_DOT_ALGORITHM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "core/element_type.h"

namespace hlocheck {

struct DotAlgorithm {
  std::string lhs_precision_type, rhs_precision_type, accumulation_type;  // as spelled
  FloatFormat lhs_precision, rhs_precision, accumulation;
  int64_t lhs_component_count = 1;
  int64_t rhs_component_count = 1;
  int64_t num_primitive_operations = 1;
  bool allow_imprecise_accumulation = false;

  // "lhs_precision_type = tf32, ..." as the MLIR attribute spells it.
  std::string ToString() const;
};

// The case's algorithm; nullopt when it has none (the spec's
// is_empty_algorithm). InvalidArgument, naming the field, for a precision or
// accumulation type that is not a FloatType or tf32, a count that is not
// positive (C22-C24), or an algorithm given in part.
absl::StatusOr<std::optional<DotAlgorithm>> ReadDotAlgorithm(const Case& c);

// The format of a FloatType name (f16, bf16, f32, f64, the f8/f6/f4 types)
// or TensorFloat32 (tf32: f32's exponent, 10 fraction bits).
std::optional<FloatFormat> PrecisionTypeFormat(std::string_view name);

// x rounded to the nearest value of `format`, ties to even, as a double
// (formats of at most 52 fraction bits and 11 exponent bits); beyond the
// largest finite value, what the format's overflow rule gives. NaN and
// infinities pass through (formats without them: NaN).
double RoundToFormat(double x, const FloatFormat& format);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_DOT_ALGORITHM_H_
