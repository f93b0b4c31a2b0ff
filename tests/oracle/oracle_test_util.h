// Helpers shared by the oracle's tests: run a case that must be valid, and
// ask whether a backend's tensors pass its expectations.
#ifndef HLOCHECK_TESTS_ORACLE_ORACLE_TEST_UTIL_H_
#define HLOCHECK_TESTS_ORACLE_ORACLE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mlir/reader.h"
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

// A region from the body of a function with the given argument types: the
// body uses %a0, %a1, ... and ends with func.return.
inline Region RegionOf(const std::vector<std::string>& argument_types,
                       const std::string& result_types, const std::string& body) {
  std::string text = "func.func @r(";
  for (size_t i = 0; i < argument_types.size(); ++i) {
    text += (i ? ", " : "") + std::string("%a") + std::to_string(i) + ": " + argument_types[i];
  }
  text += ") -> " + result_types + " {\n" + body + "\n}\n";
  auto module = mlir::ReadModule(text, "test", **spec::DefaultRegistry());
  EXPECT_TRUE(module.ok()) << module.status() << "\n" << text;
  if (!module.ok()) return Region();
  return module->functions.at(0).body;
}

// Whether every result passes, held to the reference exactly whatever the
// YAML allows.
inline bool PassesExactly(std::vector<ResultExpectation> e, const std::vector<Tensor>& actual) {
  for (ResultExpectation& one : e) one.allowed_ulp = 0;
  return AllPass(e, actual);
}

// The expectations' references.
inline std::vector<Tensor> References(const std::vector<ResultExpectation>& e) {
  std::vector<Tensor> out;
  for (const ResultExpectation& r : e) out.push_back(r.reference);
  return out;
}

}  // namespace hlocheck::testing

#endif  // HLOCHECK_TESTS_ORACLE_ORACLE_TEST_UTIL_H_
