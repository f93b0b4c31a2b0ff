// Region bodies for generated cases: reduction bodies, comparators, loop and
// branch bodies, built as StableHLO regions from a named kind and the
// signature the recipe chose. The kinds are the ones real programs use, so
// that a backend's fast paths (an add-reduction, a less-than sort) are
// exercised, not only its general fallback.
#ifndef HLOCHECK_GENERATORS_REGION_BODIES_H_
#define HLOCHECK_GENERATORS_REGION_BODIES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/program.h"
#include "core/tensor.h"
#include "core/types.h"

namespace hlocheck {

// Kinds, for a signature of 2N scalar inputs and N outputs ("combiners"):
//   add multiply maximum minimum and or xor: output i = op(arg i, arg N+i)
//   replace: output i = arg N+i (scatter's "overwrite")
//   first:   output i = arg i
// For 2N scalar inputs and one i1 output ("comparators"), comparing args 0
// and 1: compare_LT compare_GT compare_LE compare_GE compare_EQ;
// compare_LT_total / compare_GT_total use TOTALORDER for floats.
// identity: outputs = inputs (loop bodies, pass-through branches).
// constant: every output a zero constant; with no inputs (case branches).
// counter_lt_K: one i1 output, true while arg 0 (an integer scalar) < K.
// increment: outputs = inputs, except arg 0 (an integer scalar) plus 1.
// counter_in_range: one i1 output, true while lo <= c < hi for the loop
//   counter c, the first argument that is a plain integer scalar, and the
//   range of CounterRange (so a loop from any start value ends within
//   hi - lo iterations, and c + 1 never wraps).
// count_and_double: outputs = inputs, except the loop counter plus 1 and
//   every other plain tensor x as x + x (exact, so each iteration shows in
//   the results).
// data: outputs are constants (tokens from stablehlo.after_all); the
//   generator fills them with drawn data (FillDataConstants), so that
//   branches differ and a wrong branch shows.
absl::StatusOr<Region> BuildRegionBody(std::string_view kind, const FunctionType& signature);

// The argument a loop counter body counts with: the first plain integer
// scalar of the signature's inputs; nothing when there is none.
std::optional<size_t> LoopCounterArgument(const std::vector<ValueType>& inputs);

// counter_in_range's range for a counter type: [max(-8, min), min(4, max)).
struct CounterRange {
  int64_t lo = 0;
  int64_t hi = 0;
};
CounterRange CounterRangeOf(ElementType type);

// Whether a kind's constants are drawn by the generator after building.
inline bool HasDataConstants(std::string_view kind) { return kind == "data"; }

// A tensor of `type` filled with the identity of the combiner `kind` (add,
// or, xor: 0; multiply: 1; and: all ones; maximum: -Inf, or the lowest
// value of a type without infinities; minimum: +Inf or the highest), or
// nothing when the kind has none for the type (replace, first, f8E8M0FNU's
// add, which has no zero).
std::optional<Tensor> IdentityOfBody(std::string_view kind, const TensorType& type);

// The kinds that accept `signature`, most common first (a recipe that names
// no kind gets the first).
std::vector<std::string> BodyKindsFor(const FunctionType& signature);

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_REGION_BODIES_H_
