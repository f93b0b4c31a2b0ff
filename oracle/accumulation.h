// Bodies that combine values in an order the spec leaves open (reduce's
// body, scatter's update_computation, ...), and what every order allows.
// Shared by the oracle's op files.
#ifndef HLOCHECK_ORACLE_ACCUMULATION_H_
#define HLOCHECK_ORACLE_ACCUMULATION_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/element_type.h"
#include "core/program.h"
#include "core/tensor.h"
#include "oracle/expectation.h"

namespace hlocheck::oracle {

// How a body of 2N scalar arguments makes its output i from argument i (the
// value so far) and argument N + i (the next value), when it is recognisably
// one stablehlo op of the two, or returns one of them.
enum class Combiner {
  kOther,
  kKeep,
  kReplace,
  kAdd,
  kMultiply,
  kMaximum,
  kMinimum,
  kAnd,
  kOr,
  kXor
};

// One kind per output; a body that is not one block of 2N arguments and N
// outputs gives kOther for every one.
std::vector<Combiner> ClassifyCombiners(const Region& region, size_t n);

// Whether the combiner gives the same value in every order and grouping of
// its applications, for values of `type`: integer and boolean add and
// multiply, maximum and minimum of reals, and, or, xor, keeping the current
// value. (IEEE maximum and minimum propagate NaN and order -0 < +0, so they
// are exact in any order.)
bool OrderIndependent(Combiner kind, ElementType type);

// Float add and multiply (and complex add, part by part) in every order
// are bounded rather than exact.
bool Bounded(Combiner kind, ElementType type);

// The combiner's identity element for `type`, as a 0-dimensional tensor of
// bytes, if it has one: a value that any number of extra applications leaves
// every result unchanged (for float add, +0 and -0 are both accepted: they
// change at most the sign of a zero, which an error bound does not see).
bool IsIdentity(Combiner kind, ElementType type, const void* element);

// Float add and multiply of terms x0, u1, ..., uk in every order: the exact
// value of x0 + u1 + ... + uk (or x0 * u1 * ... * uk) as hi + lo and the
// largest distance of any order's result from it, each of the k steps rounded
// to the element type (unit roundoff u): |error| <= gamma_k * sum |terms|
// (Higham) for sums, |error| <= gamma_k * |product| for products while every
// partial product stays in the normal range. `free` where some order may
// overflow (or underflow a product), so that the orders disagree beyond any
// bound.
struct OrderFreeValue {
  double hi = 0, lo = 0, bound = 0;
  bool free = false;
};
OrderFreeValue OrderFreeSum(const std::vector<double>& terms, const FloatFormat& format);
OrderFreeValue OrderFreeProduct(const std::vector<double>& factors, const FloatFormat& format);

// all_reduce's reduction (collectives.cc; reduction.cc holds reduce's):
// results...[p] = body over a tree whose in-order traversal is
// stacked...[k * S + p] for k < count (S = the size of one result), with
// what every such tree allows: exact for order-independent bodies, keep and
// replace, Higham's bound for float add and multiply, free otherwise.
absl::StatusOr<std::vector<ResultExpectation>> ReduceAcrossGroup(
    std::span<const Tensor> stacked, const Region& body, std::span<const TensorType> result_types,
    int64_t count);

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_ACCUMULATION_H_
