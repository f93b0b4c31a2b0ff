// Bounds carried past the ops with freedom in a program (program_check.h):
// per element, an interval [lo, hi] that holds every value a conforming
// backend may give, computed by running the oracle on the intervals'
// corners. It is sound for the ops it admits (ProgramBoundsPolicy): ops
// that only move data, and real-valued elementwise ops that are monotone
// in each operand, where the image of a box lies between the results at
// its corners; each corner's result is widened by the op's own ULP bound.
// Every other op, a NaN at a corner, arithmetic (add, subtract, multiply,
// divide) on an interval with an infinite end (inf - inf inside the box is
// NaN where no corner is), a divisor interval holding zero, or a complex
// value leaves the element unbounded (not compared). Integer intervals come
// from and go through the ops monotone in integers without wrapping
// (convert, maximum, minimum, clamp, select's data, compare's ordering
// directions); a boolean is bounded only to one value.
#ifndef HLOCHECK_RUNNERS_PROGRAM_BOUNDS_H_
#define HLOCHECK_RUNNERS_PROGRAM_BOUNDS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/tensor.h"
#include "oracle/expectation.h"

namespace hlocheck {

struct ElementBounds {
  Tensor lo;  // of the value's type
  Tensor hi;
  std::vector<uint8_t> bounded;  // per element: [lo, hi] holds

  // Exactly `value` everywhere.
  static ElementBounds Exact(const Tensor& value);
  // Nothing known.
  static ElementBounds None(const Tensor& value);
  bool Holds(int64_t index, const Tensor& actual) const;
  std::string Describe(int64_t index) const;  // "[lo, hi]"
};

// Which corners an op's bounds come from; kNone: it carries none.
enum class CornerPolicy {
  kNone,
  kMonotone,  // monotone in all operands the same way: all-lo and all-hi
  kSubtract,  // (lo, hi) and (hi, lo)
  kBilinear,  // multiply, divide: the four corners of two operands
  // Sums in an order the spec leaves open (reduce, reduce_window, scatter
  // with add, maximum and minimum bodies): monotone, so all-lo and all-hi
  // bound the exact value; the rounding error, which grows with the terms'
  // magnitudes, is the oracle's bound at the magnitude corner (each
  // operand element at its end of larger magnitude).
  kSum,
  // dot_general, convolution: bilinear sums of products. With x = xl + dx,
  // 0 <= dx <= wx = xh - xl (and y likewise), x.y = xl.yl + xl.dy + dx.yl +
  // dx.dy, each term bounded by contractions of the lower ends' positive or
  // negative parts with the widths; the rounding error as for kSum.
  kContraction,
  // Decided by the op's body (reduce, reduce_window, scatter): kMonotone
  // for maximum and minimum, kSum where some result adds, else kNone.
  kByBody,
  // compare: kSubtract's corners for LT, LE, GT and GE (a boolean bound
  // only where both give the same), else kNone.
  kByDirection,
};
CornerPolicy CornerPolicyOf(const std::string& op);

// What a backend may return for one result where the op's inputs are
// fixed: the reference, widened by the allowed ULPs of a kUlp
// expectation; unbounded where the expectation is an error bound, leaves
// the element free, or the type is not a real float.
ElementBounds BoundsOfExpectation(const ResultExpectation& expectation);

// Runs `compute` on the corners of `c`'s operands' bounds and returns the
// bounds of each result: the least and greatest corner result, each
// widened by the op's ULP bound at that corner (kSum, kContraction: as
// described there, rounded outwards into the result type). `operand_bounds` holds one
// entry per operand of `c`; integer and boolean operands must be exact
// (else every element is unbounded), as must be an operand the policy does
// not vary.
using CaseCompute = std::function<absl::StatusOr<std::vector<ResultExpectation>>(const Case&)>;
std::vector<ElementBounds> PropagateBounds(const Case& c,
                                           const std::vector<ElementBounds>& operand_bounds,
                                           CornerPolicy policy, const CaseCompute& compute);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_PROGRAM_BOUNDS_H_
