// StableHLO dense literals: `dense<...> : tensor<...>` in the syntax MLIR
// prints and parses (nested lists, splats, the hex form "0x...", complex
// `(re, im)`, `true`/`false`, decimal, `nan`/`inf` and hex float bit
// patterns). Printing then parsing gives back the same bits for every type.
#ifndef HLOCHECK_CORE_LITERAL_H_
#define HLOCHECK_CORE_LITERAL_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/tensor.h"

namespace hlocheck {

// Parses a tensor type: `tensor<2x3xf32>`, `tensor<f32>`, `tensor<0x4xcomplex<f64>>`,
// and MLIR's `i32` spelling of si32.
absl::StatusOr<TensorType> ParseTensorType(std::string_view text);

// Parses the body of `dense<BODY>` into a tensor of `type`: a nested list
// whose nesting matches the shape, a single value (splat), a quoted hex
// string (raw little-endian element data, or one element for a splat), or
// nothing for a zero-element tensor. Errors give the column (1-based,
// within `body`) and what was expected.
absl::StatusOr<Tensor> ParseDenseBody(std::string_view body, const TensorType& type);

// Parses `dense<BODY> : tensor<...>`.
absl::StatusOr<Tensor> ParseDenseAttribute(std::string_view text);

// Parses one element literal of `type` into `out` (a Container<T> value):
// `true`/`false`, decimal or `0x` integers, decimal/scientific floats
// (rounded to nearest even, once), `nan`/`inf`/`-inf`, `0x` float bit
// patterns, `(re, im)` for complex.
absl::Status ParseElementLiteral(std::string_view text, ElementType type, void* out);

enum class LiteralForm {
  kAuto,  // a splat when all elements are bitwise equal (and there are several), else a list
  kList,  // always the nested list
  kHex,   // always the quoted hex form
};

// `dense<...>` alone.
std::string PrintDenseBody(const Tensor& tensor, LiteralForm form = LiteralForm::kAuto);
// `dense<...> : tensor<...>`.
std::string PrintDenseAttribute(const Tensor& tensor, LiteralForm form = LiteralForm::kAuto);
// One element: the shortest decimal that parses back to the same bits for
// finite floats, hex bit patterns for NaN and Inf (as MLIR prints them).
std::string PrintElementLiteral(ElementType type, const void* element);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_LITERAL_H_
