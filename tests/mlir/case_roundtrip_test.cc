// Generated cases of every op the oracle implements and the generators can
// build, written as a standalone module with the oracle's expectations as
// checks: reading it back gives the same case, and `interpret` passes it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "generators/case_generator.h"
#include "mlir/reader.h"
#include "mlir/writer.h"
#include "runners/gate.h"
#include "runners/interpret.h"
#include "spec/example.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;

bool SameCase(const Case& a, const Case& b, std::string* why) {
  if (a.op != b.op) return *why = "op", false;
  if (a.operands.size() != b.operands.size()) return *why = "operand count", false;
  for (size_t i = 0; i < a.operands.size(); ++i) {
    if (!a.operands[i].BitwiseEquals(b.operands[i]))
      return *why = "operand " + std::to_string(i), false;
  }
  if (a.result_types != b.result_types) return *why = "result types", false;
  if (a.operand_structure != b.operand_structure) return *why = "operand tuples/tokens", false;
  if (a.result_structure != b.result_structure) return *why = "result tuples/tokens", false;
  for (const auto& [name, value] : a.attributes) {
    auto it = b.attributes.find(name);
    if (it == b.attributes.end()) return *why = "attribute " + name + " lost", false;
    if (!(it->second == value)) return *why = "attribute " + name + " changed", false;
  }
  if (a.regions.size() != b.regions.size()) return *why = "region count", false;
  return true;
}

TEST(CaseRoundTripTest, GeneratedCasesOfEveryImplementedOpPrintReadAndInterpret) {
  Oracle oracle(&TestRegistry());
  int ops = 0;
  int with_tuples_or_tokens = 0;
  int with_quantized_tensors = 0;
  for (const spec::OpSpec& op : TestRegistry().ops()) {
    if (!oracle.Implements(op.name) || op.recipe.empty()) continue;
    ++ops;
    for (ElementType type : PrimaryTypes(op)) {
      GenerationOptions options;
      options.max_elements = 64;
      options.primary_type = type;
      for (int seed = 0; seed < 4; ++seed) {
        Case c;
        try {
          c = GenerateCase(op, options, seed * 7919 + 13, 20).value();
        } catch (const NotRunnable&) {
          continue;  // quantized tensors in ops that compute on them
        }
        if (!c.operand_structure.empty() || !c.result_structure.empty()) ++with_tuples_or_tokens;
        for (const Tensor& t : c.operands) {
          if (t.type().quantization) {
            ++with_quantized_tensors;
            break;
          }
        }
        auto expected = oracle.Run(c);
        // The oracle's stated gaps say so; the gate skips them too.
        if (absl::IsUnimplemented(expected.status())) continue;
        ASSERT_TRUE(expected.ok()) << op.name << ": " << expected.status();
        CaseOutcome outcome;
        outcome.expectations = *expected;
        std::string text = mlir::PrintCaseModule(TestRegistry(), op, c, ExpectedResults(outcome));
        auto read = mlir::ReadCaseModule(text, op.name + ".mlir", TestRegistry());
        ASSERT_TRUE(read.ok()) << read.status() << "\n" << text;
        std::string why;
        EXPECT_TRUE(SameCase(c, *read, &why)) << op.name << " " << Name(type) << ": " << why << "\n"
                                              << text;
        auto interpreted = InterpretText(text, op.name + ".mlir", TestRegistry());
        ASSERT_TRUE(interpreted.ok()) << interpreted.status();
        ASSERT_EQ(interpreted->functions.size(), 1u);
        const FunctionOutcome& f = interpreted->functions[0];
        EXPECT_TRUE(f.kind == FunctionOutcome::Kind::kPassed ||
                    f.kind == FunctionOutcome::Kind::kFree)
            << op.name << " " << Name(type) << ": " << KindName(f.kind) << ": " << f.message << "\n"
            << text;
      }
    }
  }
  // Exact: every op the oracle implements (101) has a recipe.
  EXPECT_EQ(ops, 101);
  // tuple, get_tuple_element and optimization_barrier draw such values.
  EXPECT_GT(with_tuples_or_tokens, 20);
  EXPECT_GT(with_quantized_tensors, 10);
}

// Ops the generators cannot build yet (no recipe) round-trip through their
// spec example, so that every op the oracle implements is covered.
TEST(CaseRoundTripTest, SpecExamplesOfEveryImplementedOpPrintReadAndInterpret) {
  Oracle oracle(&TestRegistry());
  int checked = 0;
  for (const spec::OpSpec& op : TestRegistry().ops()) {
    if (!oracle.Implements(op.name) || !op.example.runnable) continue;
    auto example = spec::ExampleAsCase(op);
    ASSERT_TRUE(example.ok()) << example.status();
    auto expected = oracle.Run(example->c);
    ASSERT_TRUE(expected.ok()) << op.name << ": " << expected.status();
    CaseOutcome outcome;
    outcome.expectations = *expected;
    std::string text =
        mlir::PrintCaseModule(TestRegistry(), op, example->c, ExpectedResults(outcome));
    auto read = mlir::ReadCaseModule(text, op.name + ".mlir", TestRegistry());
    ASSERT_TRUE(read.ok()) << read.status() << "\n" << text;
    std::string why;
    EXPECT_TRUE(SameCase(example->c, *read, &why)) << op.name << ": " << why << "\n" << text;
    auto interpreted = InterpretText(text, op.name + ".mlir", TestRegistry());
    ASSERT_TRUE(interpreted.ok()) << interpreted.status();
    ASSERT_EQ(interpreted->functions.size(), 1u);
    const FunctionOutcome& f = interpreted->functions[0];
    EXPECT_TRUE(f.kind == FunctionOutcome::Kind::kPassed || f.kind == FunctionOutcome::Kind::kFree)
        << op.name << ": " << KindName(f.kind) << ": " << f.message << "\n"
        << text;
    ++checked;
  }
  // Exact: the oracle's ops whose spec example is runnable (as golden_test.cc).
  EXPECT_EQ(checked, 73);
}

}  // namespace
}  // namespace hlocheck
