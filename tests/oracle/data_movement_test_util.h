// Shared by the data movement oracle tests: the oracle, a verified run, and
// operands whose elements are all different, so that a result element
// names the operand element it came from (the case builders, MakeCase and
// Literal among them, are tests/support's).
#ifndef HLOCHECK_TESTS_ORACLE_DATA_MOVEMENT_TEST_UTIL_H_
#define HLOCHECK_TESTS_ORACLE_DATA_MOVEMENT_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <string>
#include <vector>

#include "core/case.h"
#include "core/literal.h"
#include "core/tensor.h"
#include "oracle/oracle.h"
#include "spec/registry.h"
#include "tests/support/case_builders.h"

namespace hlocheck::testing {

inline const Oracle& TheOracle() {
  static Oracle* oracle = new Oracle(*spec::DefaultRegistry());
  return *oracle;
}

// Verifies and runs the case; the one result must be exact and have no
// free elements. Fails the test (and returns an empty tensor) otherwise.
inline Tensor RunExact(const Case& c) {
  auto results = TheOracle().Run(c);
  EXPECT_TRUE(results.ok()) << c.op << ": " << results.status();
  if (!results.ok()) return Tensor();
  EXPECT_EQ(results->size(), 1u);
  EXPECT_EQ((*results)[0].check, Check::kExact);
  EXPECT_EQ((*results)[0].FreeCount(), 0) << (*results)[0].free_reason;
  return (*results)[0].reference;
}

// An si32 tensor whose element at row-major position i is i + 1 (0 stays
// free for "not an operand element").
inline Tensor Numbered(const Shape& shape) {
  Tensor t(shape, ElementType::kSI32);
  auto values = t.values<ElementType::kSI32>();
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i + 1);
  return t;
}

// A uniformly drawn integer in [low, high) at any RapidCheck size
// (gen::inRange scales its range with the size, so that the first cases of
// a property would only see the bottom of each range); shrinks towards low.
template <typename T>
T Uniform(T low, T high) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(low, high));
}

// A dimension size: 1 to 3, and 0 (an empty tensor) one time in ten.
inline int64_t Dim() { return Uniform<int>(0, 10) == 0 ? 0 : Uniform<int64_t>(1, 4); }

// For RapidCheck properties: the oracle's one exact result without free
// elements, or the property fails.
#define HLOCHECK_RC_RUN_EXACT(c, result)                                       \
  Tensor result;                                                               \
  {                                                                            \
    auto hlocheck_results = ::hlocheck::testing::TheOracle().Run(c);           \
    if (!hlocheck_results.ok()) RC_FAIL(hlocheck_results.status().ToString()); \
    RC_ASSERT(hlocheck_results->size() == 1u);                                 \
    RC_ASSERT((*hlocheck_results)[0].check == Check::kExact);                  \
    RC_ASSERT((*hlocheck_results)[0].FreeCount() == 0);                        \
    result = std::move((*hlocheck_results)[0].reference);                      \
  }

// Row-major position of an index, computed directly.
inline int64_t Position(const Shape& shape, const std::vector<int64_t>& index) {
  int64_t position = 0;
  for (size_t d = 0; d < shape.size(); ++d) position = position * shape[d] + index[d];
  return position;
}

}  // namespace hlocheck::testing

#endif  // HLOCHECK_TESTS_ORACLE_DATA_MOVEMENT_TEST_UTIL_H_
