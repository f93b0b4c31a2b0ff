// Exhaustive mode: every unary float elementwise op on f8E4M3FN, f8E5M2,
// bf16 and f16 on the CPU backend, and a deliberately faulty backend caught.
#include <gtest/gtest.h>

#include "runners/exhaustive.h"
#include "runners/session.h"

namespace hlocheck {
namespace {

// The unary elementwise ops on floats without attributes, from the spec.
std::vector<std::string> UnaryFloatOps(const spec::SpecRegistry& registry) {
  std::vector<std::string> ops;
  for (const spec::OpSpec& op : registry.ops()) {
    if (op.category != "elementwise" || op.operands.size() != 1 || !op.regions.empty()) continue;
    if (!op.operands[0].types.Contains(ElementType::kF16)) continue;
    bool needs_attribute = false;
    for (const spec::AttributeSpec& a : op.attributes) {
      needs_attribute = needs_attribute || (!a.optional && !a.default_value);
    }
    if (!needs_attribute) ops.push_back(op.name);
  }
  return ops;
}

TEST(ExhaustiveTest, EveryUnaryFloatOpOnEveryNarrowTypeIsWithinItsBound) {
  auto session = OpenSession("cpu", 2);
  ASSERT_TRUE(session.ok()) << session.status();
  std::vector<std::string> ops = UnaryFloatOps(*(*session)->registry);
  EXPECT_GE(ops.size(), 20u);
  for (const std::string& op : ops) {
    for (ElementType type :
         {ElementType::kF8E4M3FN, ElementType::kF8E5M2, ElementType::kBF16, ElementType::kF16}) {
      auto result =
          RunExhaustive(*(*session)->registry, *(*session)->oracle, *(*session)->adapter, op, type);
      ASSERT_TRUE(result.ok()) << op << " " << Name(type) << ": " << result.status();
      EXPECT_EQ(result->inputs, int64_t{1} << BitWidth(type));
      EXPECT_EQ(result->mismatches, 0) << op << " " << Name(type) << ": worst " << result->worst_ulp
                                       << " ULP (allowed " << result->allowed_ulp << ") at "
                                       << result->worst_input << "; " << result->first_mismatch;
    }
  }
}

TEST(ExhaustiveTest, AFaultyBackendIsCaughtWithItsWorstInput) {
  auto session = OpenSession("faulty-exponential-ulp", 2);
  ASSERT_TRUE(session.ok()) << session.status();
  auto result = RunExhaustive(*(*session)->registry, *(*session)->oracle, *(*session)->adapter,
                              "exponential", ElementType::kF8E5M2);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_GT(result->worst_ulp, result->allowed_ulp);
  EXPECT_GT(result->mismatches, 0);
  EXPECT_EQ(result->worst_input.front(), '-');  // the fault hits negative inputs
}

TEST(ExhaustiveTest, RefusesWhatItCannotEnumerate) {
  auto session = OpenSession("cpu", 1);
  ASSERT_TRUE(session.ok()) << session.status();
  const auto& s = **session;
  EXPECT_FALSE(
      RunExhaustive(*s.registry, *s.oracle, *s.adapter, "exponential", ElementType::kF32).ok());
  EXPECT_FALSE(RunExhaustive(*s.registry, *s.oracle, *s.adapter, "add", ElementType::kF16).ok());
  EXPECT_FALSE(
      RunExhaustive(*s.registry, *s.oracle, *s.adapter, "transpose", ElementType::kF16).ok());
  EXPECT_FALSE(
      RunExhaustive(*s.registry, *s.oracle, *s.adapter, "frobnicate", ElementType::kF16).ok());
}

}  // namespace
}  // namespace hlocheck
