// Compares a backend's result with the oracle's expectation, element by
// element: bit for bit, within the op's ULP bound, or within the oracle's
// error bound; elements the spec leaves open are counted, not compared.
// It lives beside the expectation it reads, so that the oracle's own tests
// can check their answers without the runner.
#ifndef HLOCHECK_ORACLE_COMPARE_H_
#define HLOCHECK_ORACLE_COMPARE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/distance_histogram.h"
#include "core/tensor.h"
#include "oracle/expectation.h"

namespace hlocheck {

// One element outside what the expectation allows. Only the first few
// mismatches of a result are kept, and only they are rendered as text: a
// passing comparison formats nothing.
struct ElementMismatch {
  int64_t index = 0;  // row-major position
  std::vector<int64_t> multi_index;
  std::string expected;  // rendered as StableHLO literals
  std::string actual;
  std::string allowed;  // "bit-exact", "<= 2 ULP (was 5)", "|error| <= 1.2e-7 (was 3e-6)"
  int64_t ulp = -1;     // distance between actual and expected; -1: no ULPs (or a NaN)
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
  // Every compared float element's distance (each part of a complex one):
  // in ULPs, or for kErrorBound as |error| / bound. Elements of permutable
  // runs (compared as multisets) are not in it.
  DistanceHistogram distances;
  std::vector<ElementMismatch> first_mismatches;  // at most a few
  // The row-major position of every mismatched element (of a failing
  // permutable run: of each of its elements), so that a backend's declared
  // deviations can excuse exactly the elements they describe.
  std::vector<int64_t> mismatch_indices;
  // Free elements (counted in `free`) that carry a de facto convention
  // (kFreeWithConvention) and that the backend answered otherwise: never
  // mismatches; the first few kept, as for mismatches.
  int64_t convention_differences = 0;
  std::vector<ElementMismatch> first_convention_differences;
  // Compared elements that missed this reading's value and met the other
  // reading's (ResultExpectation::other_reading): never mismatches.
  int64_t other_reading = 0;
  // The compared element farthest from the reference: by ULP distance, or
  // for kErrorBound by |error| / bound; index -1 when every compared
  // element was exact (or no distance could be measured, as for a NaN). Its
  // `allowed` holds the distance in words. Kept for passing cases too: it
  // is how close a backend comes to its bound, not a failure.
  ElementMismatch worst{-1, {}, "", "", "", -1};

  bool ok() const { return !type_mismatch && mismatches == 0; }
};

// Check::kUlp results are held to expectation.allowed_ulp, which the oracle
// filled from the op's YAML.
// Elements in permutable runs (ResultExpectation::permutable) are compared
// as a multiset per run.
ResultComparison CompareResult(const ResultExpectation& expectation, const Tensor& actual);

// Every result of one case. On top of
// CompareResult, results that share their permutable runs must have been
// reordered the same way: a run's tuples (one element of each result) are
// compared as a multiset; mismatches are added to the group's first result.
std::vector<ResultComparison> CompareResults(const std::vector<ResultExpectation>& expectations,
                                             const std::vector<Tensor>& actual);

}  // namespace hlocheck

#endif  // HLOCHECK_ORACLE_COMPARE_H_
