// Operators of the formula notation. Arithmetic and ordering act element by
// element on lists, with scalars broadcast (the spec's implicit
// broadcasting); `+` of two lists concatenates them, as in Python, which is
// what the spec means in `lhs_batching_dimensions + lhs_contracting_dimensions`.
#ifndef HLOCHECK_SPEC_FORMULA_OPERATORS_H_
#define HLOCHECK_SPEC_FORMULA_OPERATORS_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "spec/formula/value.h"

namespace hlocheck::spec {

// "-" and "+".
absl::StatusOr<Value> ApplyUnary(std::string_view op, const Value& operand);

// "+", "-", "*", "/", "//", "%".
absl::StatusOr<Value> ApplyBinary(std::string_view op, const Value& lhs, const Value& rhs);

// Element-wise "+" even for two lists (the spec's `add` on shapes).
absl::StatusOr<Value> ElementwiseAdd(const Value& lhs, const Value& rhs);

// "=", "!=", "<", "<=", ">", ">=", "in", "not in". Ordering of lists is
// element-wise (a list of booleans); equality of lists of different lengths
// is simply false.
absl::StatusOr<Value> ApplyCompare(std::string_view op, const Value& lhs, const Value& rhs);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_FORMULA_OPERATORS_H_
