// The spec's constraints, table-driven over every op file: each op's example
// verifies clean, and each constraint has an instance (its `violated_by`, a
// mutation of the example) that violates it and no other constraint, or a
// stated reason why no such instance exists.
#include <gtest/gtest.h>

#include "spec/instance.h"
#include "spec/registry.h"
#include "spec/verifier.h"
#include "tests/support/spec_registry.h"

namespace hlocheck::spec {
namespace {

using ::hlocheck::testing::TestRegistry;

std::string Join(const std::vector<std::string>& ids) {
  std::string text;
  for (const std::string& id : ids) text += (text.empty() ? "" : ", ") + id;
  return text.empty() ? "none" : text;
}

// Seed 002 is the scope of record: 97 ops, 332 numbered constraints (see
// ../shared/SEED-CATALOG.md §1.2), every one with an executable formula.
TEST(ConstraintTableTest, TheSeedIsCoveredInFull) {
  size_t seed_ops = 0;
  size_t executable = 0;
  for (const OpSpec& op : TestRegistry().ops()) {
    seed_ops += !op.seed_heading.empty();
    for (const ConstraintSpec& c : op.constraints) {
      executable += c.source == "seed" && c.formula.expr != nullptr;
    }
  }
  EXPECT_EQ(seed_ops, 97u);
  EXPECT_EQ(TestRegistry().seed_constraint_count(), 332u);
  EXPECT_EQ(executable, 332u);
  for (const char* newer : {"tan", "composite", "collective_reduce"}) {
    EXPECT_NE(TestRegistry().Find(newer), nullptr) << newer;
  }
}

TEST(ConstraintTableTest, EveryExampleVerifiesClean) {
  for (const OpSpec& op : TestRegistry().ops()) {
    auto example = ExampleInstance(op);
    ASSERT_TRUE(example.ok()) << op.name << ": " << example.status();
    VerifyResult verdict = Verify(op, *example, &TestRegistry());
    EXPECT_TRUE(verdict.valid()) << op.file << ": the example is rejected:\n" << verdict.Report();
  }
}

TEST(ConstraintTableTest, EveryConstraintIsViolatedAloneByItsInstance) {
  int violated = 0;
  int not_alone = 0;
  for (const OpSpec& op : TestRegistry().ops()) {
    for (const ConstraintSpec& constraint : op.constraints) {
      if (constraint.violating == nullptr) {
        EXPECT_FALSE(constraint.not_violable_alone.empty())
            << op.file << ": " << constraint.id
            << " has neither violated_by nor not_violable_alone";
        ++not_alone;
        continue;
      }
      VerifyResult verdict = Verify(op, *constraint.violating, &TestRegistry());
      std::vector<std::string> ids = verdict.ViolatedIds();
      EXPECT_EQ(ids, std::vector<std::string>{constraint.DisplayId()})
          << op.file << ": violated_by of " << constraint.DisplayId() << " violates " << Join(ids)
          << "\n"
          << verdict.Report();
      ++violated;
    }
  }
  std::printf("%d constraints violated alone by their instance, %d marked not violable alone\n",
              violated, not_alone);
}

TEST(ConstraintTableTest, QuantizedTypesAreChecked) {
  const OpSpec& add = *TestRegistry().Find("add");
  auto example = ExampleInstance(add);
  ASSERT_TRUE(example.ok());
  auto bad = InstanceFromYamlText(add,
                                  "operands: {lhs: 'tensor<2x2x!quant.uniform<i8:f32, -0.5:1>>', "
                                  "rhs: 'tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>'}\n"
                                  "results: {result: 'tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>'}",
                                  "test", &*example);
  ASSERT_TRUE(bad.ok()) << bad.status();
  VerifyResult verdict = Verify(add, *bad, &TestRegistry());
  EXPECT_EQ(verdict.ViolatedIds(), std::vector<std::string>{"quantized type element C6 (lhs)"})
      << verdict.Report();
}

}  // namespace
}  // namespace hlocheck::spec
