// How `interpret` evaluates the check dialect's ops (check.expect_eq,
// expect_almost_eq, expect_close, and the custom_call @check.* forms) as the
// public tool, `stablehlo-translate --interpret`, does, and how its judge
// weighs a check's expected constant against the oracle's expectation.
#ifndef HLOCHECK_RUNNERS_CHECK_RULES_H_
#define HLOCHECK_RUNNERS_CHECK_RULES_H_

#include <cstdint>
#include <string>

#include "core/program.h"
#include "core/tensor.h"
#include "oracle/compare.h"
#include "oracle/interpreter.h"

namespace hlocheck::check_rules {

// What one check asks of its operands, from its form.
struct CheckRule {
  enum class How { kExact, kTolerance, kUlpRange };
  How how = How::kExact;
  double tolerance = 0;
  int64_t min_ulp = 0;
  int64_t max_ulp = 0;
  std::string name;  // as messages call it: `check.expect_close`, `custom_call @check.eq`
};

// A number attribute of `op` (tolerance, max_ulp_difference, ...), or
// `fallback` where the op does not have it.
double NumberAttribute(const Operation& op, const std::string& name, double fallback);

// The rule of a check op (`target` is its name, or a custom_call's target).
// Tolerances and ULPs apply to float and complex values; others compare
// exactly, as the public tool's check.eq does.
CheckRule RuleOf(const Operation& op, const std::string& target, bool floats);

// The literal verdict of a check: `actual` against `expected` by `rule`.
ResultComparison CompareLiterally(const CheckRule& rule, const RuntimeValue& actual,
                                  const Tensor& expected);

std::string DescribeFailure(const CheckRule& rule, const Operation& op,
                            const ResultComparison& comparison);

// What the judge found: the expected constant taken as a backend's result
// of `producer` and compared with the oracle's expectation for it.
struct Judgement {
  bool accepted = false;
  std::string what;  // "within the accumulation bound of stablehlo.dot_general, 75 ULP from exact"
};

Judgement Judge(const Operation& producer, const ResultExpectation& expectation,
                const Tensor& expected, int allowed_ulp);

}  // namespace hlocheck::check_rules

#endif  // HLOCHECK_RUNNERS_CHECK_RULES_H_
