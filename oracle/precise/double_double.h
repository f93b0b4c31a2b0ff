// Error-free transformations and a double-double accumulator: sums of
// exact products with about 106 bits of precision, far beyond any result
// type, so the order of summation no longer matters to the reference.
#ifndef HLOCHECK_ORACLE_PRECISE_DOUBLE_DOUBLE_H_
#define HLOCHECK_ORACLE_PRECISE_DOUBLE_DOUBLE_H_

#include <cmath>

namespace hlocheck::precise {

struct TwoTerms {
  double hi;
  double lo;
};

// a + b = hi + lo exactly (Knuth).
inline TwoTerms TwoSum(double a, double b) {
  double s = a + b;
  double bb = s - a;
  double err = (a - (s - bb)) + (b - bb);
  return {s, err};
}

// a * b = hi + lo exactly, unless the product underflows.
inline TwoTerms TwoProduct(double a, double b) {
  double p = a * b;
  return {p, std::fma(a, b, -p)};
}

class DoubleDouble {
 public:
  void Add(double x) {
    TwoTerms s = TwoSum(hi_, x);
    double lo = s.lo + lo_;
    // Renormalise so that |lo| <= ulp(hi) / 2.
    hi_ = s.hi + lo;
    lo_ = lo - (hi_ - s.hi);
  }
  double hi() const { return hi_; }
  double lo() const { return lo_; }

 private:
  double hi_ = 0;
  double lo_ = 0;
};

}  // namespace hlocheck::precise

#endif  // HLOCHECK_ORACLE_PRECISE_DOUBLE_DOUBLE_H_
