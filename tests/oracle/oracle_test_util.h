// Helpers shared by the oracle's tests: run a case that must be valid, and
// ask whether a backend's tensors pass its expectations.
#ifndef HLOCHECK_TESTS_ORACLE_ORACLE_TEST_UTIL_H_
#define HLOCHECK_TESTS_ORACLE_ORACLE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "oracle/compare.h"
#include "tests/oracle/data_movement_test_util.h"

namespace hlocheck::testing {

// The oracle's expectations for a case it must accept (a test failure, and
// none, otherwise).
inline std::vector<ResultExpectation> RunOk(const Case& c) {
  auto results = TheOracle().Run(c);
  EXPECT_TRUE(results.ok()) << c.op << ": " << results.status();
  return results.ok() ? *results : std::vector<ResultExpectation>{};
}

// Whether the one result `actual` passes.
inline bool Passes(const std::vector<ResultExpectation>& e, const Tensor& actual) {
  std::vector<ResultComparison> comparisons = CompareResults(e, {actual});
  return comparisons.size() == 1 && comparisons[0].ok();
}

// Whether `actual` passes the one expectation `e`.
inline bool Accepts(const ResultExpectation& e, const Tensor& actual) {
  return CompareResult(e, actual).ok();
}

// Whether every result passes.
inline bool AllPass(const std::vector<ResultExpectation>& e, const std::vector<Tensor>& actual) {
  std::vector<ResultComparison> comparisons = CompareResults(e, actual);
  bool ok = comparisons.size() == actual.size() && actual.size() == e.size();
  for (const ResultComparison& c : comparisons) ok = ok && c.ok();
  return ok;
}

// An f32 value rounded to bf16 (to nearest even) and back: what a backend
// keeping its partial sums in bf16 holds.
inline float RoundToBf16(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  bits = (bits + 0x7fff + ((bits >> 16) & 1)) & 0xffff0000u;
  std::memcpy(&v, &bits, 4);
  return v;
}

}  // namespace hlocheck::testing

#endif  // HLOCHECK_TESTS_ORACLE_ORACLE_TEST_UTIL_H_
