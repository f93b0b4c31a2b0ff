// Compares a backend's result with the oracle's expectation, element by
// element: bit for bit, within the op's ULP bound, or within the oracle's
// error bound; elements the spec leaves open are counted, not compared.
#ifndef HLOCHECK_RUNNERS_COMPARE_H_
#define HLOCHECK_RUNNERS_COMPARE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "oracle/expectation.h"

namespace hlocheck {

struct ElementMismatch {
  int64_t index = 0;  // row-major position
  std::vector<int64_t> multi_index;
  std::string expected;  // rendered as StableHLO literals
  std::string actual;
  std::string allowed;  // "bit-exact", "<= 2 ULP (was 5)", "|error| <= 1.2e-7 (was 3e-6)"
};

struct ResultComparison {
  bool type_mismatch = false;  // the backend returned the wrong shape or element type
  std::string type_error;
  int64_t compared = 0;
  int64_t free = 0;
  int64_t mismatches = 0;
  // Largest ULP distance between actual and reference over compared float
  // elements (each part of complex), -1 if the type has no ULPs.
  int64_t worst_ulp = -1;
  // kErrorBound: the largest |actual - center| / bound seen.
  double worst_bound_fraction = 0;
  std::vector<ElementMismatch> first_mismatches;  // at most a few

  bool ok() const { return !type_mismatch && mismatches == 0; }
};

// `allowed_ulp` is the op's bound for the result type (from its YAML); it
// applies to Check::kUlp results.
// Elements in permutable runs (ResultExpectation::permutable) are compared
// as a multiset per run.
ResultComparison CompareResult(const ResultExpectation& expectation, const Tensor& actual,
                               int allowed_ulp);

// Every result of one case (allowed_ulp: one bound per result). On top of
// CompareResult, results that share their permutable runs must have been
// reordered the same way: a run's tuples (one element of each result) are
// compared as a multiset; mismatches are added to the group's first result.
std::vector<ResultComparison> CompareResults(const std::vector<ResultExpectation>& expectations,
                                             const std::vector<Tensor>& actual,
                                             const std::vector<int>& allowed_ulp);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_COMPARE_H_
