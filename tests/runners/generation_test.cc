// The generators at scale: every op has a recipe, 1,000 cases of each are
// valid with a fixed seed at a bounded discard rate, every constraint has a
// negative generator (or a stated reason why none can exist), replay strings
// rebuild cases exactly, and coverage counts what the verifier saw.
#include <gtest/gtest.h>

#include <cstdio>

#include "runners/coverage.h"
#include "runners/generation.h"
#include "spec/verifier.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;

TEST(GenerationTest, EverySeedOpHasARecipe) {
  int seed_ops = 0;
  for (const spec::OpSpec& op : TestRegistry().ops()) {
    EXPECT_FALSE(op.recipe.empty()) << op.file << " has no recipe";
    seed_ops += !op.seed_heading.empty() && !op.recipe.empty();
  }
  EXPECT_EQ(seed_ops, 97);
}

TEST(GenerationTest, ThousandValidCasesPerOpWithLowDiscardRates) {
  GenerationCheckOptions options;
  options.cases = 1000;
  options.seed = 20261121;
  double worst = 0;
  std::string worst_op;
  for (const spec::OpSpec& op : TestRegistry().ops()) {
    OpGenerationCheck check = CheckGeneration(TestRegistry(), op, options);
    EXPECT_TRUE(check.error.empty()) << op.name << ": " << check.error;
    EXPECT_EQ(check.cases, 1000) << op.name;
    EXPECT_EQ(check.invalid, 0) << op.name << ": " << check.invalid
                                << " invalid cases; first (replay " << check.first_invalid_replay
                                << "):\n"
                                << check.first_invalid_snippet << "\n"
                                << check.first_invalid_report;
    EXPECT_LE(check.discard_rate(), 0.10) << op.name;
    if (check.discard_rate() >= worst) {
      worst = check.discard_rate();
      worst_op = op.name;
    }
  }
  std::printf("highest discard rate: %.2f%% (%s)\n", 100 * worst, worst_op.c_str());
}

// Each constraint not marked `not_violable_alone` gets invalid cases that
// violate it alone; the count is the "N of 332". The marks are capped
// at today's count (seed: all_to_all C4; public: add's C2-C7 and composite's C2), so that marking a
// constraint instead of writing its generator fails here; lower a cap when a
// mark goes. The 23 ranks of the Inputs/Outputs tables are never marked.
TEST(GenerationTest, EveryViolableConstraintHasANegativeGenerator) {
  GenerationCheckOptions options;
  options.cases = 3;
  int seed_working = 0, seed_by_mutation = 0, seed_marked = 0, seed_total = 0;
  int public_marked = 0, rank_total = 0, rank_working = 0;
  for (const spec::OpSpec& op : TestRegistry().ops()) {
    for (const NegativeCheck& check : CheckNegatives(TestRegistry(), op, options)) {
      bool marked = !check.not_violable_alone.empty();
      if (check.seed) {
        ++seed_total;
        seed_marked += marked;
        seed_working += check.working();
        seed_by_mutation += check.random();
      } else if (check.source == "inputs") {
        ++rank_total;
        rank_working += check.working();
        EXPECT_FALSE(marked) << op.name << " " << check.id;
      } else {
        public_marked += marked;
      }
      if (!marked) {
        EXPECT_TRUE(check.working()) << op.name << " " << check.id << ": " << check.produced << "/"
                                     << check.requested << " " << check.error;
      }
    }
  }
  EXPECT_EQ(seed_total, 332);
  EXPECT_EQ(seed_working + seed_marked, 332);
  EXPECT_LE(seed_marked, 1);
  EXPECT_LE(public_marked, 7);
  EXPECT_EQ(rank_total, 23);
  EXPECT_EQ(rank_working, 23);
  std::printf(
      "seed constraints: %d with a working negative generator (%d by mutating generated "
      "cases), %d marked not violable alone; public: %d marked; ranks: %d of %d working\n",
      seed_working, seed_by_mutation, seed_marked, public_marked, rank_working, rank_total);
}

TEST(GenerationTest, NegativeCasesViolateExactlyTheirConstraint) {
  const spec::OpSpec& op = *TestRegistry().Find("slice");
  for (const spec::ConstraintSpec& constraint : op.constraints) {
    NegativeOptions options;
    options.generation.primary_type = ElementType::kF32;
    for (int i = 0; i < 10; ++i) {
      NegativeCase n =
          GenerateNegative(TestRegistry(), op, constraint, options, 77 + i, 10 * i).value();
      spec::VerifyResult verdict = spec::Verify(op, n.generated.instance, &TestRegistry());
      EXPECT_EQ(verdict.ViolatedIds(), std::vector<std::string>{constraint.DisplayId()})
          << verdict.Report();
    }
  }
}

// The ranks of the Inputs tables get negative cases like any constraint: a
// generated pad with a padding value of rank > 0, a reduce with an init value
// of rank > 0, each violating that rule alone, mostly by mutation.
TEST(GenerationTest, NegativeCasesViolateTheInputsTablesRanks) {
  for (auto [name, id] :
       {std::pair{"pad", "padding_value.rank"}, std::pair{"reduce", "init_values.rank"},
        std::pair{"batch_norm_inference", "scale.rank"}}) {
    const spec::OpSpec& op = *TestRegistry().Find(name);
    const spec::ConstraintSpec* rule = nullptr;
    for (const spec::ConstraintSpec& c : op.constraints) {
      if (c.DisplayId() == id) rule = &c;
    }
    ASSERT_NE(rule, nullptr) << name << " " << id;
    int mutated = 0;
    for (int i = 0; i < 10; ++i) {
      NegativeCase n = GenerateNegative(TestRegistry(), op, *rule, {}, 300 + i, 10 * i).value();
      spec::VerifyResult verdict = spec::Verify(op, n.generated.instance, &TestRegistry());
      EXPECT_EQ(verdict.ViolatedIds(), std::vector<std::string>{id}) << verdict.Report();
      mutated += !n.from_spec_instance;
    }
    EXPECT_GT(mutated, 0) << name << " " << id << ": only the spec's instance";
  }
}

TEST(GenerationTest, ReplayStringsRebuildTheSameCase) {
  for (const char* name : {"gather", "reduce_window", "all_to_all", "while", "uniform_quantize"}) {
    const spec::OpSpec& op = *TestRegistry().Find(name);
    std::vector<ElementType> types = PrimaryTypes(op);
    std::optional<ElementType> type;
    if (!types.empty()) type = types.back();
    ReplayKey key{op.name, type, 0x1234abcdULL, 70, 4096, {}, {}};
    std::string text = FormatReplay(key);
    auto parsed = ParseReplay(text);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    auto a = ReplayGenerated(TestRegistry(), *parsed);
    auto b = ReplayGenerated(TestRegistry(), key);
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ(GeneratedSnippet(TestRegistry(), op, *a), GeneratedSnippet(TestRegistry(), op, *b))
        << text;
    EXPECT_TRUE(a->instance.operands == b->instance.operands);
  }
  // A negative case's string names its constraint.
  ReplayKey negative{"slice", ElementType::kSI8, 99, 50, 4096, {}, "C4"};
  std::string text = FormatReplay(negative);
  EXPECT_NE(text.find("slice!C4"), std::string::npos) << text;
  auto parsed = ParseReplay(text);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->violates, "C4");
  auto rebuilt = ReplayGenerated(TestRegistry(), *parsed);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  EXPECT_EQ(
      spec::Verify(*TestRegistry().Find("slice"), rebuilt->instance, &TestRegistry()).ViolatedIds(),
      std::vector<std::string>{"C4"});
  ReplayKey public_one{"dot_general", ElementType::kF32, 5, 50, 4096, {}, "C21 (public)"};
  auto round_trip = ParseReplay(FormatReplay(public_one));
  ASSERT_TRUE(round_trip.ok());
  EXPECT_EQ(round_trip->violates, "C21 (public)");
  EXPECT_FALSE(ParseReplay("hlocheck1:slice!:f32:00:1:1:-").ok());
}

TEST(GenerationTest, SameSeedSameSnippetAcrossRuns) {
  const spec::OpSpec& op = *TestRegistry().Find("convolution");
  GenerationOptions options;
  options.primary_type = ElementType::kF32;
  for (int i = 0; i < 20; ++i) {
    GeneratedCase a = GenerateInstance(op, options, 1000 + i, 5 * i).value();
    GeneratedCase b = GenerateInstance(op, options, 1000 + i, 5 * i).value();
    EXPECT_EQ(GeneratedSnippet(TestRegistry(), op, a), GeneratedSnippet(TestRegistry(), op, b));
    ASSERT_TRUE(a.runnable && b.runnable);
    for (size_t k = 0; k < a.runnable->operands.size(); ++k) {
      EXPECT_TRUE(a.runnable->operands[k] == b.runnable->operands[k]);
    }
  }
}

TEST(GenerationTest, CoverageCountsWhatTheVerifierSaw) {
  CoverageOptions options;
  options.cases = 200;
  options.negative_cases = 2;
  options.ops = {"sort", "dot_general"};
  auto run = MeasureCoverage(TestRegistry(), options);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->ops.size(), 2u);
  for (const OpCoverage& op : run->ops) {
    EXPECT_EQ(op.valid_cases, 200);
    for (const ConstraintCoverage& c : op.constraints) {
      // Every valid case passes every constraint, on one branch or the other.
      if (c.conditional) {
        EXPECT_EQ(c.held + c.not_applicable, 200) << op.op << " " << c.id;
      } else {
        EXPECT_EQ(c.held, 200) << op.op << " " << c.id;
      }
      if (c.not_violable_alone.empty()) {
        EXPECT_EQ(c.violated_alone, 2) << op.op << " " << c.id;
      }
    }
    EXPECT_FALSE(op.features.empty()) << op.op;
  }
  nlohmann::json json = CoverageToJson(*run);
  EXPECT_EQ(json["format"], "hlocheck-coverage/1");
  EXPECT_EQ(json["ops"]["sort"]["valid_cases"], 200);
  EXPECT_TRUE(json["ops"]["sort"]["constraints"].contains("C1"));
  EXPECT_FALSE(MeasureCoverage(TestRegistry(), {.ops = {"no_such_op"}}).ok());
}

}  // namespace
}  // namespace hlocheck
