// Typed access to a case's attributes, shared by the oracle and the
// adapters: each answers the attribute's value, or an InvalidArgument status
// that names the op, the attribute and what was expected, in one style
//   "<op>: attribute <name> is missing (expected <what>)"
//   "<op>: attribute <name> is <what it holds>, not <what>"
// An op reads its attributes once, at its start, into typed locals.
#ifndef HLOCHECK_CORE_CASE_ATTRIBUTES_H_
#define HLOCHECK_CORE_CASE_ATTRIBUTES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "core/tensor.h"

namespace hlocheck {

absl::StatusOr<int64_t> IntAttribute(const Case& c, std::string_view name);
absl::StatusOr<std::vector<int64_t>> IntListAttribute(const Case& c, std::string_view name);
// `missing` where the case does not have the attribute.
absl::StatusOr<std::vector<int64_t>> IntListAttribute(const Case& c, std::string_view name,
                                                      std::vector<int64_t> missing);
// A 2-dimensional si64 tensor constant of `rows` x `columns` (padding:
// low and high per dimension), its values row-major; zeros where the case
// does not have it; InvalidArgument for another type or shape.
absl::StatusOr<std::vector<int64_t>> IntMatrixAttribute(const Case& c, std::string_view name,
                                                        int64_t rows, int64_t columns);
absl::StatusOr<bool> BoolAttribute(const Case& c, std::string_view name, bool missing);
// An enumerator (comparison_direction, compare_type, precision, ...) by its
// name, as an EnumValue or a string.
absl::StatusOr<std::string> EnumAttribute(const Case& c, std::string_view name);
absl::StatusOr<std::string> EnumAttribute(const Case& c, std::string_view name,
                                          std::string_view missing);
// A tensor constant (constant's value); it lives as long as the case.
absl::StatusOr<const Tensor*> TensorAttribute(const Case& c, std::string_view name);

// compare's comparison_direction.
enum class ComparisonDirection { kEq, kNe, kGe, kGt, kLe, kLt };
absl::StatusOr<ComparisonDirection> ComparisonDirectionAttribute(const Case& c,
                                                                 std::string_view name);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_CASE_ATTRIBUTES_H_
