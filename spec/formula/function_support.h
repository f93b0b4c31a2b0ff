// Helpers shared by the files that define the notation's functions.
#ifndef HLOCHECK_SPEC_FORMULA_FUNCTION_SUPPORT_H_
#define HLOCHECK_SPEC_FORMULA_FUNCTION_SUPPORT_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "spec/formula/evaluator.h"
#include "spec/formula/value.h"

namespace hlocheck::spec {

using Args = std::span<const Value>;

absl::Status ArityError(std::string_view name, size_t expected, size_t got);
absl::Status ArgumentError(std::string_view name, std::string_view expected, const Value& got);

// The shape of a tensor-like value: a tensor type, a tensor constant, a list
// seen as a tensor (its nesting), or a number (rank 0).
absl::StatusOr<Shape> ShapeOf(std::string_view name, const Value& v);
absl::StatusOr<int64_t> IntArgument(std::string_view name, const Value& v);
absl::StatusOr<std::vector<Value>> ListArgument(std::string_view name, const Value& v);
// The elements of a list, flattened through nesting (a tensor constant's
// elements in row-major order).
absl::StatusOr<std::vector<Value>> FlatItems(std::string_view name, const Value& v);

// Registers a function of exactly N arguments.
template <size_t N, typename Fn>
void Define(FunctionTable& table, std::string name, Fn fn) {
  table.Register(name, [name, fn](Args args) -> absl::StatusOr<Value> {
    if (args.size() != N) return ArityError(name, N, args.size());
    return fn(args);
  });
}

// type_functions.cc: type, element_type, baseline_type, the quantization
// queries, is_promotable, the kind tests, input_types/output_types, ...
void RegisterTypeFunctions(FunctionTable& table);

// Functions particular to one family of ops, one file each (functions_*.cc).
void RegisterElementwiseUnaryFunctions(FunctionTable& table);
void RegisterElementwiseBinaryFunctions(FunctionTable& table);
void RegisterDataMovementFunctions(FunctionTable& table);
void RegisterReductionFunctions(FunctionTable& table);
void RegisterControlCollectiveFunctions(FunctionTable& table);
void RegisterMiscFunctions(FunctionTable& table);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_FORMULA_FUNCTION_SUPPORT_H_
