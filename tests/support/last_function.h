// The outcome of a program's last function run by `interpret` (its @main,
// after the functions it calls): what the program tests in
// tests/runners check.
#ifndef HLOCHECK_TESTS_SUPPORT_LAST_FUNCTION_H_
#define HLOCHECK_TESTS_SUPPORT_LAST_FUNCTION_H_

#include <gtest/gtest.h>

#include <string>

#include "runners/interpret.h"
#include "tests/support/spec_registry.h"

namespace hlocheck::testing {

inline FunctionOutcome InterpretLastFunction(const std::string& text, const std::string& file) {
  auto outcome = InterpretText(text, file, TestRegistry());
  EXPECT_TRUE(outcome.ok()) << outcome.status();
  if (!outcome.ok() || outcome->functions.empty()) return {};
  return outcome->functions.back();
}

}  // namespace hlocheck::testing

#endif  // HLOCHECK_TESTS_SUPPORT_LAST_FUNCTION_H_
