// Input data for generated cases: tensors of any element type filled by a
// data policy, shrinking towards zeros and simple values.
#ifndef HLOCHECK_GENERATORS_DATA_H_
#define HLOCHECK_GENERATORS_DATA_H_

#include <optional>
#include <string_view>
#include <vector>

#include "core/tensor.h"
#include "rapidcheck.h"

namespace hlocheck {

enum class DataPolicy {
  kSmallIntegers,  // integers in [-8, 8] (or [0, 8]): float arithmetic on them stays exact
  kUniform,        // uniform over the type's bit patterns: every value, NaN and Inf included
  kSpecialValues,  // NaN, +-Inf, +-0, subnormals, extremes, integer min/max, mixed with small
                   // values
  kRoundingTies,   // exact rounding ties of every narrower float format (and one ULP either
                   // side), across its binades and subnormals: what double rounding and
                   // round-to-nearest-even get wrong (generation 3 on)
  kCancellation,   // floats: one common magnitude per tensor with small deviations, its sign
                   // random (terms that cancel in sums) or all positive (a large mean with a
                   // small spread: a one-pass variance's trap) (generation 4 on)
};

std::string_view DataPolicyName(DataPolicy policy);
// The policies of the current generation.
std::vector<DataPolicy> AllDataPolicies();
// The policies a generation drew from: version 3 added kRoundingTies and
// version 4 kCancellation, so that keys of earlier versions draw from the
// list they drew from.
std::vector<DataPolicy> DataPoliciesOfVersion(int version);

// A tensor of `type` filled according to `policy`. Shrinks to all zeros
// first (all ones for f8E8M0FNU, which has no zero), then element by element
// to 0, +-1, integers, halves and positives.
rc::Gen<Tensor> TensorData(TensorType type, DataPolicy policy);

// Data for one tensor of `type`, drawn in a generator's context (`*` of
// TensorData): a quantized type gets random storage values (the recipes'
// quantized types take the storage type's whole range; a narrower storage
// range throws). AppendLeafData: the tensors inside a value of `type`,
// depth-first (a token holds none).
Tensor LeafData(const TensorType& type, DataPolicy policy);
void AppendLeafData(const ValueType& type, DataPolicy policy, std::vector<Tensor>* leaves);

// Index data (start indices, gather/scatter indices) for dimensions of up to
// `bound`: the type's minimum and maximum, -1, values inside, at and just
// beyond the bound; small values repeat, so scatter sees duplicate indices.
rc::Gen<Tensor> IndexData(TensorType type, int64_t bound);

// A while loop's counter start (data: loop_counter), for a cond that runs
// while lo <= counter < hi: three times in four a 0-dimensional integer
// tensor inside or just below [lo, hi), so that loops run 0 to hi - lo
// times; otherwise nothing (ordinary data, where most loops run zero
// times).
rc::Gen<std::optional<Tensor>> LoopCounterData(TensorType type, int64_t lo, int64_t hi);

// Batches of square matrices (the last two dimensions) for the linear
// algebra ops, in quarters of [-1, 1] off the diagonal:
// kPositiveDefinite, Hermitian and strictly diagonally dominant with a
// positive diagonal (so positive definite, for cholesky); kTriangular, a
// diagonal of magnitude 1 to 4 (ones for unit_diagonal), or one time in four
// 1/4 under off-diagonal entries up to 2 (ill-conditioned but nonsingular,
// for triangular_solve). Other element types, and shapes that are not
// square, stay zero.
enum class MatrixKind { kPositiveDefinite, kTriangular };
rc::Gen<Tensor> MatrixData(TensorType type, MatrixKind kind, bool unit_diagonal);

// The simpler neighbours of a tensor that the shrinker tries, in order,
// produced lazily: all simplest values, then each element made simpler on
// its own. Every candidate is strictly simpler, so shrinking terminates.
rc::Seq<Tensor> SimplerTensors(const Tensor& tensor);

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_DATA_H_
