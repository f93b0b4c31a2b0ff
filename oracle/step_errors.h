// Running error analysis for ops the spec defines as a chain of element-wise
// steps and sums, each rounded to the element type (batch_norm_training,
// batch_norm_grad): every value carries the exact value of the spec's
// expression and a bound on how far any legal evaluation of the chain in
// the element type may be from it (Higham, "Accuracy and Stability of
// Numerical Algorithms", ch. 3: forward error of each step from its
// operands' errors plus its own rounding).
//
// A step may take up to two roundings (a reciprocal then a product, rsqrt
// then a product, a constant folded first), so each step allows 2u of its
// magnitude; a sum of n terms allows gamma_{n-1}(u) times the sum of its
// terms' magnitudes for any order or tree. Magnitudes are the exact value
// plus its error, so the bound holds for the computed operands, not only
// for the exact ones.
#ifndef HLOCHECK_ORACLE_STEP_ERRORS_H_
#define HLOCHECK_ORACLE_STEP_ERRORS_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "core/element_type.h"

namespace hlocheck::oracle {

// Higham's gamma_k(u) = k u / (1 - k u): the relative error of k roundings;
// infinite where k u >= 1 (the 2- and 3-bit significands of f4 and f6 types
// may lose every bit).
double Gamma(int64_t k, double unit_roundoff);
// 2^-(mantissa bits + 1): the largest relative error of one rounding.
double UnitRoundoff(const FloatFormat& format);
double MaxFinite(const FloatFormat& format);

// A value of the chain: `value` is exact (long double: the reference's own
// error is kept in `error` too), `error` bounds |computed - value| for every
// legal evaluation. `order_dependent` is set where some evaluation
// overflows, takes the square root of a negative value, or multiplies an
// infinity by a value that may be zero, and another does not: the element
// is then free.
struct Tracked {
  long double value = 0;
  long double error = 0;
  bool order_dependent = false;
};

class StepErrors {
 public:
  explicit StepErrors(const FloatFormat& format);

  // An input element or a constant already in the element type.
  static Tracked Exact(long double value) { return {value, 0, false}; }

  Tracked Add(const Tracked& a, const Tracked& b) const;
  Tracked Subtract(const Tracked& a, const Tracked& b) const;
  Tracked Multiply(const Tracked& a, const Tracked& b) const;
  Tracked Divide(const Tracked& a, const Tracked& b) const;
  // The square root of a value every evaluation computes with the sign of
  // its exact value (sums and quotients of non-negative terms).
  Tracked Sqrt(const Tracked& a) const;
  // reduce with an add body over `terms`, in any order or tree.
  Tracked Sum(std::span<const Tracked> terms) const;

  // Why an element whose final value is `t` is free, or empty where the
  // bound holds: order-dependent steps, an unbounded error (the type's
  // precision is too small for the chain), a value the type cannot hold.
  std::string_view FreeReason(const Tracked& t) const;
  // The bound to check a finite element against.
  double Bound(const Tracked& t) const;

 private:
  // The step's exact result `t` (its error so far from the operands'),
  // rounded by the backend to the element type.
  Tracked Rounded(Tracked t) const;

  const FloatFormat& format_;
  long double unit_roundoff_;
  long double smallest_subnormal_;
  long double largest_;
};

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_STEP_ERRORS_H_
