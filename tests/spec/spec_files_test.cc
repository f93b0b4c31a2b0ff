// The op files in spec/ops: they load, their examples verify clean, and the
// verifier names violated constraints by their ID with the deciding values.
#include <gtest/gtest.h>

#include "absl/strings/match.h"

#include "spec/example.h"
#include "spec/registry.h"
#include "spec/verifier.h"
#include "tests/support/spec_registry.h"

namespace hlocheck::spec {
namespace {

using ::hlocheck::testing::TestRegistry;

TEST(SpecFilesTest, AllOpFilesLoad) {
  const SpecRegistry& registry = TestRegistry();
  for (const char* op : {"add", "convert", "dot_general", "exponential", "slice", "transpose"}) {
    EXPECT_NE(registry.Find(op), nullptr) << op;
  }
  // Seed 002's counts: add 1, convert 1, dot_general 17, exponential 1, slice 5, transpose 4.
  EXPECT_EQ(registry.Find("dot_general")->seed_constraint_count(), 17u);
  EXPECT_EQ(registry.Find("slice")->seed_constraint_count(), 5u);
  EXPECT_EQ(registry.Find("transpose")->seed_constraint_count(), 4u);
  for (const OpSpec& op : registry.ops()) {
    for (const ConstraintSpec& c : op.constraints) {
      EXPECT_NE(c.formula.expr, nullptr) << op.name << " " << c.id;
    }
  }
}

// The examples the oracle can run as they are (tensors only, no regions)
// also verify clean when built as cases (tests/spec/constraint_table_test.cc
// checks every example as an instance).
TEST(SpecFilesTest, RunnableExamplesVerifyCleanAsCases) {
  int runnable = 0;
  for (const OpSpec& op : TestRegistry().ops()) {
    if (!op.example.runnable) continue;
    auto example = ExampleAsCase(op);
    ASSERT_TRUE(example.ok()) << example.status();
    OpInstance instance = OpInstance::FromCase(op, example->c);
    instance.num_replicas = op.example.instance->num_replicas;
    instance.num_partitions = op.example.instance->num_partitions;
    VerifyResult verdict = Verify(op, instance, &TestRegistry());
    EXPECT_TRUE(verdict.valid()) << op.name << ":\n" << verdict.Report();
    ++runnable;
  }
  // Exact: 73 of the op files' examples are tensors only, without regions,
  // on one process (the grid examples of all_gather, all_to_all,
  // collective_broadcast and collective_permute give process (0, 0)'s values
  // only; the corpus's run_parallel files run those ops on every process).
  EXPECT_EQ(runnable, 73);
}

// Every rank seed 002's Inputs and Outputs tables give that no numbered
// constraint states (others follow from one: batch_norm_grad's C4 gives
// mean, variance, grad_scale and grad_offset scale's shape, and
// rng_bit_generator's C1 gives output_state initial_state's type). Each is a
// constraint of source "inputs" named "<value>.rank";
// constraint_table_test.cc checks that its violating instance violates it
// alone.
TEST(SpecFilesTest, TheInputsTablesRanksAreConstraints) {
  struct Rank {
    const char* op;
    const char* value;
    int64_t rank;
    const char* formula;
  };
  const Rank kRanks[] = {
      {"batch_norm_grad", "scale", 1, "rank(scale) = 1"},
      {"batch_norm_inference", "scale", 1, "rank(scale) = 1"},
      {"batch_norm_inference", "offset", 1, "rank(offset) = 1"},
      {"batch_norm_inference", "mean", 1, "rank(mean) = 1"},
      {"batch_norm_inference", "variance", 1, "rank(variance) = 1"},
      {"batch_norm_training", "scale", 1, "rank(scale) = 1"},
      {"batch_norm_training", "offset", 1, "rank(offset) = 1"},
      {"batch_norm_training", "batch_mean", 1, "rank(batch_mean) = 1"},
      {"batch_norm_training", "batch_var", 1, "rank(batch_var) = 1"},
      {"case", "index", 0, "rank(index) = 0"},
      {"dynamic_slice", "start_indices", 0, "rank(start_indices...) = 0"},
      {"dynamic_update_slice", "start_indices", 0, "rank(start_indices...) = 0"},
      {"get_dimension_size", "result", 0, "rank(result) = 0"},
      {"if", "pred", 0, "rank(pred) = 0"},
      {"pad", "padding_value", 0, "rank(padding_value) = 0"},
      {"partition_id", "result", 0, "rank(result) = 0"},
      {"reduce", "init_values", 0, "rank(init_values...) = 0"},
      {"reduce_window", "init_values", 0, "rank(init_values...) = 0"},
      {"replica_id", "result", 0, "rank(result) = 0"},
      {"rng", "a", 0, "rank(a) = 0"},
      {"rng", "b", 0, "rank(b) = 0"},
      {"rng_bit_generator", "initial_state", 1, "rank(initial_state) = 1"},
      {"select_and_scatter", "init_value", 0, "rank(init_value) = 0"},
  };
  for (const Rank& r : kRanks) {
    const OpSpec* op = TestRegistry().Find(r.op);
    ASSERT_NE(op, nullptr) << r.op;
    const ValueSpec* value = op->FindOperand(r.value);
    if (value == nullptr) value = op->FindResult(r.value);
    ASSERT_NE(value, nullptr) << r.op << " " << r.value;
    EXPECT_EQ(value->rank, std::optional<int64_t>(r.rank)) << r.op << " " << r.value;
    const ConstraintSpec* rule = nullptr;
    for (const ConstraintSpec& c : op->constraints) {
      if (c.id == std::string(r.value) + ".rank") rule = &c;
    }
    ASSERT_NE(rule, nullptr) << r.op << " " << r.value;
    EXPECT_EQ(rule->source, "inputs");
    EXPECT_EQ(rule->formula.text, r.formula);
    ASSERT_NE(rule->violating, nullptr) << r.op << " " << r.value;
    EXPECT_EQ(Verify(*op, *rule->violating, &TestRegistry()).ViolatedIds(),
              std::vector<std::string>{rule->id})
        << r.op;
  }
  // No other value has a rank: the table above is the whole list.
  size_t rules = 0;
  for (const OpSpec& op : TestRegistry().ops()) {
    for (const ConstraintSpec& c : op.constraints) rules += c.source == "inputs";
  }
  EXPECT_EQ(rules, std::size(kRanks));
  // The rank rules are not numbered constraints of the seed.
  EXPECT_EQ(TestRegistry().seed_constraint_count(), 332u);
}

// A rank is a tensor's; rank_violated_by needs a rank.
TEST(SpecFilesTest, RankKeysAreChecked) {
  auto load = [](const std::string& operand, const std::string& example = "") {
    return ParseOpSpec("op: t\ncategory: misc\nsummary: s\noperands:\n" + operand +
                           "results: []\nconstraints: []\nnumerics: {class: exact}\n" + example,
                       "t.yaml");
  };
  auto op =
      load("  - {name: x, types: [any], rank: 0}\n", "example: {operands: {x: tensor<f32>}}\n");
  ASSERT_TRUE(op.ok()) << op.status();
  ASSERT_EQ(op->constraints.size(), 1u);
  EXPECT_EQ(op->constraints[0].DisplayId(), "x.rank");
  // Without rank_violated_by, the violating instance is the example with a
  // trailing dimension of size 1.
  ASSERT_NE(op->constraints[0].violating, nullptr);
  EXPECT_EQ(op->constraints[0].violating->operands[0][0].shape, (std::vector<int64_t>{1}));
  // The rule needs an instance to violate it: an example to derive one from.
  EXPECT_FALSE(load("  - {name: x, types: [any], rank: 0}\n").ok());
  EXPECT_FALSE(load("  - {name: x, kind: token, rank: 0}\n").ok());
  EXPECT_FALSE(load("  - {name: x, types: [any], rank: -1}\n").ok());
  EXPECT_FALSE(load("  - {name: x, types: [any], rank_violated_by: {}}\n").ok());
  // A name that no formula can mention (op_spec_fuzz found one with a stray
  // byte) is an error at the name's line, not a bare formula error.
  auto bad_name = load("  - {name: \"in puts\", types: [any], rank: 0}\n",
                       "example: {operands: {x: tensor<f32>}}\n");
  ASSERT_FALSE(bad_name.ok());
  EXPECT_TRUE(absl::StartsWith(bad_name.status().message(), "t.yaml:5:")) << bad_name.status();
  EXPECT_NE(bad_name.status().message().find("'in puts' is not a name"), std::string::npos)
      << bad_name.status();
}

Case SliceCase(Shape operand, std::vector<int64_t> start, std::vector<int64_t> limit,
               std::vector<int64_t> strides, Shape result) {
  Case c;
  c.op = "slice";
  c.operands.emplace_back(std::move(operand), ElementType::kF32);
  c.attributes["start_indices"] = std::move(start);
  c.attributes["limit_indices"] = std::move(limit);
  c.attributes["strides"] = std::move(strides);
  c.result_types.push_back({std::move(result), ElementType::kF32});
  return c;
}

TEST(VerifierTest, NamesTheViolatedConstraintWithItsValues) {
  const OpSpec& slice = *TestRegistry().Find("slice");
  EXPECT_TRUE(Verify(slice, SliceCase({3, 4}, {1, 2}, {3, 4}, {1, 1}, {2, 2})).valid());

  VerifyResult verdict = Verify(slice, SliceCase({3, 4}, {1, 2}, {3, 5}, {1, 1}, {2, 3}));
  EXPECT_EQ(verdict.ViolatedIds(), std::vector<std::string>{"C3"});
  std::string report = verdict.Report();
  EXPECT_NE(report.find("C3 violated"), std::string::npos) << report;
  EXPECT_NE(report.find("limit_indices = [3, 5]"), std::string::npos) << report;
  EXPECT_NE(report.find("shape(operand) = [3, 4]"), std::string::npos) << report;

  verdict = Verify(slice, SliceCase({3, 4}, {1, 2}, {3, 4}, {1, 0}, {2, 2}));
  EXPECT_EQ(verdict.ViolatedIds(), std::vector<std::string>{"C4"});

  verdict = Verify(slice, SliceCase({3, 4}, {1, 2}, {3, 4}, {1, 1}, {2, 3}));
  EXPECT_EQ(verdict.ViolatedIds(), std::vector<std::string>{"C5"});
}

TEST(VerifierTest, ElementTypesOutsideTheInputsTableAreRejected) {
  const OpSpec& exponential = *TestRegistry().Find("exponential");
  Case c;
  c.op = "exponential";
  c.operands.emplace_back(Shape{2}, ElementType::kSI32);
  c.result_types.push_back({{2}, ElementType::kSI32});
  VerifyResult verdict = Verify(exponential, c);
  EXPECT_FALSE(verdict.valid());
  EXPECT_NE(verdict.Report().find("I1 violated"), std::string::npos) << verdict.Report();
}

TEST(VerifierTest, DotGeneralConstraints) {
  const OpSpec& dot = *TestRegistry().Find("dot_general");
  Case c;
  c.op = "dot_general";
  c.operands.emplace_back(Shape{2, 3}, ElementType::kF32);
  c.operands.emplace_back(Shape{3, 4}, ElementType::kF32);
  c.attributes["lhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["rhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["lhs_contracting_dimensions"] = std::vector<int64_t>{1};
  c.attributes["rhs_contracting_dimensions"] = std::vector<int64_t>{0};
  c.result_types.push_back({{2, 4}, ElementType::kF32});
  EXPECT_TRUE(Verify(dot, c).valid()) << Verify(dot, c).Report();

  Case wrong_size = c;
  wrong_size.operands[1] = Tensor(Shape{5, 4}, ElementType::kF32);
  EXPECT_EQ(Verify(dot, wrong_size).ViolatedIds(), std::vector<std::string>{"C10"});

  Case wrong_type = c;
  wrong_type.operands[1] = Tensor(Shape{3, 4}, ElementType::kF16);
  EXPECT_EQ(Verify(dot, wrong_type).ViolatedIds(), std::vector<std::string>{"C13"});

  Case wrong_result = c;
  wrong_result.result_types[0].shape = {4, 2};
  EXPECT_EQ(Verify(dot, wrong_result).ViolatedIds(), std::vector<std::string>{"C12"});

  Case repeated = c;
  repeated.attributes["lhs_batching_dimensions"] = std::vector<int64_t>{1};
  repeated.attributes["rhs_batching_dimensions"] = std::vector<int64_t>{1};
  std::vector<std::string> ids = Verify(dot, repeated).ViolatedIds();
  EXPECT_NE(std::find(ids.begin(), ids.end(), "C3"), ids.end());
}

TEST(SpecLoaderTest, MalformedFilesGiveFileLineAndWhatWasExpected) {
  auto result = ParseOpSpec("op: add\ncategory: elementwise\n  summary: [broken\n", "bad.yaml");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("bad.yaml:"), std::string::npos) << result.status();

  const std::string valid_head =
      "op: x\ncategory: elementwise\nsummary: s\noperands: []\nresults: []\n"
      "numerics: {class: exact}\nrecipe: []\n";
  result = ParseOpSpec(
      valid_head + "constraints:\n  - id: C1\n    text: t\n    formula: rank(x) = = 1\n", "f.yaml");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("f.yaml:11:"), std::string::npos) << result.status();
  EXPECT_NE(result.status().message().find("expected a value"), std::string::npos);

  result = ParseOpSpec(valid_head + "constraints:\n  - id: C2\n    text: t\n    formula: 1 = 1\n",
                       "g.yaml");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("g.yaml:9:"), std::string::npos) << result.status();
  EXPECT_NE(result.status().message().find("expected constraint id C1"), std::string::npos);

  result = ParseOpSpec(valid_head + "constraints: []\nfrobnicate: 1\n", "h.yaml");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("h.yaml:9:1: unknown key 'frobnicate'"),
            std::string::npos)
      << result.status();

  result = ParseOpSpec(
      "op: x\ncategory: elementwise\nsummary: s\noperands:\n  - name: a\n"
      "    types: [f33]\nresults: []\nconstraints: []\n"
      "numerics: {class: exact}\nrecipe: []\n",
      "i.yaml");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("i.yaml:6:"), std::string::npos) << result.status();
  EXPECT_NE(result.status().message().find("f33"), std::string::npos);
}

}  // namespace
}  // namespace hlocheck::spec
