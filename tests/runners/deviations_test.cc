// Declared deviations excuse exactly the elements they describe: a backend
// that flushes subnormals is "deviating as declared" under a profile that
// says so and fails without it; the same backend with one more bug still
// fails; a declaration for other types, or a NaN rule on a backend that
// returns garbage, excuses nothing. And a profile without a public source
// does not load.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "mlir/reader.h"
#include "runners/backend_profile.h"
#include "runners/deviations.h"
#include "runners/gate.h"
#include "tests/support/case_builders.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::Literal;
using ::hlocheck::testing::TestRegistry;

// The CPU adapter, with what a test wants done to the inputs and results.
class AlteringAdapter : public Adapter {
 public:
  AlteringAdapter(std::function<void(Case&)> inputs,
                  std::function<void(const Case&, Tensor&)> results)
      : inner_(*CreateAdapter("cpu", AdapterOptions{1})),
        inputs_(std::move(inputs)),
        results_(std::move(results)) {}
  std::string_view name() const override { return "altering"; }
  std::vector<std::string> ImplementedOps() const override { return inner_->ImplementedOps(); }
  AdapterSupport Supports(const Case& c) const override { return inner_->Supports(c); }
  absl::StatusOr<std::vector<Tensor>> Run(const Case& original) override {
    Case c = original;
    if (inputs_) inputs_(c);
    auto out = inner_->Run(c);
    if (out.ok() && results_) {
      for (Tensor& t : *out) results_(original, t);
    }
    return out;
  }

 private:
  std::unique_ptr<Adapter> inner_;
  std::function<void(Case&)> inputs_;
  std::function<void(const Case&, Tensor&)> results_;
};

// FTZ and DAZ, as XLA:CPU and IREE's CPU workers run.
std::unique_ptr<Adapter> Flushing(std::function<void(const Case&, Tensor&)> more = {}) {
  return std::make_unique<AlteringAdapter>(
      [](Case& c) {
        for (Tensor& t : c.operands) t = FlushSubnormals(t);
      },
      [more](const Case& c, Tensor& t) {
        t = FlushSubnormals(t);
        if (more) more(c, t);
      });
}

BackendProfile FlushProfile(std::set<ElementType> types) {
  BackendProfile profile;
  profile.file = "test.yaml";
  Deviation d;
  d.id = "flushes";
  d.kind = Deviation::Kind::kFlushSubnormals;
  d.types = std::move(types);
  d.reason = "test";
  d.link = "https://example.org";
  profile.deviations.push_back(d);
  return profile;
}

GroupResult RunOne(Adapter& adapter, const BackendProfile* profile, const std::string& op,
                   ElementType type, int64_t cases = 300) {
  Oracle oracle(&TestRegistry());
  Gate gate(&TestRegistry(), &oracle, &adapter);
  gate.SetProfile(profile);
  GateOptions options;
  options.ops = {op};
  options.types = {type};
  options.cases = cases;
  options.seed = 11;
  options.max_shrink_attempts = 100;
  auto run = gate.Run(options);
  EXPECT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->groups.size(), 1u);
  return run->groups.at(0);
}

TEST(DeviationsTest, FlushingIsDeviatingAsDeclaredAndFailsWithoutTheDeclaration) {
  auto adapter = Flushing();
  BackendProfile profile = FlushProfile({ElementType::kF32});
  for (const char* op : {"add", "multiply", "divide"}) {
    GroupResult declared = RunOne(*adapter, &profile, op, ElementType::kF32);
    EXPECT_EQ(declared.failed, 0) << op;
    EXPECT_GT(declared.deviating, 0) << op << ": the generator draws subnormals";
    EXPECT_GT(declared.excused["flushes"], 0) << op;
    // Quantized cases (one in eight) this backend does not run.
    EXPECT_EQ(declared.passed + declared.deviating + declared.quantized_skipped, declared.cases)
        << op;
    // The accuracy column is the backend's accuracy, not the flush's
    // distance (a flushed subnormal is millions of ULP off).
    EXPECT_LE(declared.worst_ulp, declared.allowed_ulp) << op;
    GroupResult held_to_spec = RunOne(*adapter, nullptr, op, ElementType::kF32);
    EXPECT_EQ(held_to_spec.failed, declared.deviating) << op;
    EXPECT_EQ(held_to_spec.deviating, 0) << op;
  }
}

TEST(DeviationsTest, ADeclarationForOtherTypesExcusesNothing) {
  auto adapter = Flushing();
  BackendProfile profile = FlushProfile({ElementType::kF64});
  GroupResult group = RunOne(*adapter, &profile, "add", ElementType::kF32);
  EXPECT_GT(group.failed, 0);
  EXPECT_EQ(group.deviating, 0);
}

// Flushing plus a wrong last bit on every normal result above 1: the flush
// is excused, the other bug is not.
TEST(DeviationsTest, AnotherBugBesideTheDeclaredOneStillFails) {
  auto adapter = Flushing([](const Case&, Tensor& t) {
    if (t.element_type() != ElementType::kF32) return;
    for (float& v : t.data<float>()) {
      if (std::isfinite(v) && std::fabs(v) > 1) {
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        bits ^= 1;
        std::memcpy(&v, &bits, 4);
      }
    }
  });
  BackendProfile profile = FlushProfile({ElementType::kF32});
  GroupResult group = RunOne(*adapter, &profile, "add", ElementType::kF32);
  EXPECT_GT(group.failed, 0);
  ASSERT_EQ(group.findings.size(), 1u);
  EXPECT_EQ(group.findings[0].kind, FindingKind::kMismatch);
}

// The case's mismatch against `actual`, after the profile's deviations.
CaseOutcome ExcusedOutcome(const BackendProfile& profile, const Oracle& oracle, const Case& c,
                           const std::string& actual) {
  CaseOutcome outcome;
  outcome.kind = CaseOutcome::Kind::kMismatch;
  outcome.expectations = *oracle.Compute(c);
  outcome.actual = {Literal(actual)};
  outcome.comparisons = CompareResults(outcome.expectations, outcome.actual);
  ExcuseDeclaredDeviations(profile, oracle, c, outcome);
  return outcome;
}

// Elementwise: the case's elements that involve no subnormal stay held to
// the spec even when others in the same case are excused.
TEST(DeviationsTest, OnlyTheElementsThatInvolveASubnormalAreExcused) {
  Case c = testing::MakeCase("add",
                             {Literal("dense<[1e-45, 1.0]> : tensor<2xf32>"),
                              Literal("dense<[0.0, 2.0]> : tensor<2xf32>")},
                             TensorType({2}, ElementType::kF32));
  Oracle oracle(&TestRegistry());
  BackendProfile profile = FlushProfile({});
  auto run_with = [&](const std::string& actual) {
    return ExcusedOutcome(profile, oracle, c, actual);
  };
  CaseOutcome flushed = run_with("dense<[0.0, 3.0]> : tensor<2xf32>");
  EXPECT_EQ(flushed.kind, CaseOutcome::Kind::kDeviation);
  EXPECT_EQ(flushed.excused["flushes"], 1);
  CaseOutcome also_wrong = run_with("dense<[0.0, 3.5]> : tensor<2xf32>");
  EXPECT_EQ(also_wrong.kind, CaseOutcome::Kind::kMismatch);
  EXPECT_EQ(also_wrong.excused["flushes"], 1);
  // A zero where the exact result is normal is no flush.
  CaseOutcome zeroed = run_with("dense<[1e-45, 0.0]> : tensor<2xf32>");
  EXPECT_EQ(zeroed.kind, CaseOutcome::Kind::kMismatch);
}

// XLA:CPU's fast min/max: maximum and minimum return the other operand
// where one is NaN.
BackendProfile NanMinMaxProfile() {
  BackendProfile profile;
  Deviation d;
  d.id = "fast-min-max";
  d.kind = Deviation::Kind::kNanMinMax;
  d.ops = {"maximum", "minimum"};
  d.reason = "test";
  d.link = "https://example.org";
  profile.deviations.push_back(d);
  return profile;
}

TEST(DeviationsTest, NanMinMaxExcusesTheOtherOperandOnly) {
  Case c = testing::MakeCase("maximum",
                             {Literal("dense<[0x7FC00000, 1.0]> : tensor<2xf32>"),
                              Literal("dense<[2.0, 0x7FC00000]> : tensor<2xf32>")},
                             TensorType({2}, ElementType::kF32));
  Oracle oracle(&TestRegistry());
  BackendProfile profile = NanMinMaxProfile();
  auto run_with = [&](const std::string& actual) {
    return ExcusedOutcome(profile, oracle, c, actual);
  };
  EXPECT_EQ(run_with("dense<[2.0, 1.0]> : tensor<2xf32>").kind, CaseOutcome::Kind::kDeviation);
  EXPECT_EQ(run_with("dense<[5.0, 1.0]> : tensor<2xf32>").kind, CaseOutcome::Kind::kMismatch);
}

// A case with excused elements and one that is not: what the finding shows
// (the first mismatches, their count) is the open one alone, and the
// message says how many others the profile excused; else a reader sees
// only excused elements and thinks the declaration was not applied.
TEST(DeviationsTest, AMismatchShowsItsOpenElementsNotTheExcusedOnes) {
  Case c = testing::MakeCase(
      "maximum",
      {Literal("dense<[0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, -0.0]> : tensor<5xf32>"),
       Literal("dense<[1.0, 2.0, 3.0, 4.0, 0.0]> : tensor<5xf32>")},
      TensorType({5}, ElementType::kF32));
  Oracle oracle(&TestRegistry());
  BackendProfile profile = NanMinMaxProfile();
  // Four NaNs dropped (declared), and max(-0, +0) = -0 (not declared).
  CaseOutcome outcome =
      ExcusedOutcome(profile, oracle, c, "dense<[1.0, 2.0, 3.0, 4.0, -0.0]> : tensor<5xf32>");
  ASSERT_EQ(outcome.kind, CaseOutcome::Kind::kMismatch);
  EXPECT_EQ(outcome.excused["fast-min-max"], 4);
  ASSERT_EQ(outcome.comparisons.size(), 1u);
  EXPECT_EQ(outcome.comparisons[0].mismatches, 1);
  ASSERT_EQ(outcome.comparisons[0].first_mismatches.size(), 1u);
  EXPECT_EQ(outcome.comparisons[0].first_mismatches[0].index, 4);
  EXPECT_NE(outcome.message.find("4 other element(s) differ as the backend's profile declares"),
            std::string::npos)
      << outcome.message;
}

// The distances a failing case reports (its worst element, its worst ULP)
// are those of its open elements: a flushed subnormal product is some 2^30
// ULP off, and would otherwise stand as the backend's accuracy.
TEST(DeviationsTest, AMismatchMeasuresItsOpenElementsNotTheExcusedOnes) {
  Case c = testing::MakeCase("multiply",
                             {Literal("dense<[1e-45, 3.0]> : tensor<2xf32>"),
                              Literal("dense<[1.2676506e+30, 3.0]> : tensor<2xf32>")},
                             TensorType({2}, ElementType::kF32));
  Oracle oracle(&TestRegistry());
  BackendProfile profile = FlushProfile({});
  // The subnormal operand flushed (declared), and 9.0 one ULP off (not).
  CaseOutcome outcome =
      ExcusedOutcome(profile, oracle, c, "dense<[0.0, 9.000001]> : tensor<2xf32>");
  ASSERT_EQ(outcome.kind, CaseOutcome::Kind::kMismatch);
  ASSERT_EQ(outcome.comparisons.size(), 1u);
  EXPECT_EQ(outcome.comparisons[0].worst_ulp, 1);
  EXPECT_EQ(outcome.comparisons[0].worst.index, 1);
  EXPECT_EQ(outcome.comparisons[0].worst.ulp, 1);
}

// A backend that flushes compares a sort's keys flushed (a subnormal ties
// with zero) but moves their own bits: deviating as declared, not a
// failure (so is one that flushes the moved values too); a sort out of
// order still fails.
TEST(DeviationsTest, ASortThatComparesFlushedKeysIsDeviatingAsDeclared) {
  auto module = mlir::ReadModule(R"(
func.func @gt(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %p = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  func.return %p : tensor<i1>
}
)",
                                 "test", TestRegistry());
  ASSERT_TRUE(module.ok()) << module.status();
  Case c = testing::SortCase({Literal("dense<[0.0, 1e-45, 0.0, 2.0]> : tensor<4xf32>")}, 0,
                             /*is_stable=*/true, module->functions.at(0).body);
  Oracle oracle(&TestRegistry());
  BackendProfile profile = FlushProfile({ElementType::kF32});
  // The oracle: [2.0, 1e-45, 0.0, 0.0]; under DAZ the subnormal ties with
  // the zeros and keeps its place among them.
  CaseOutcome daz =
      ExcusedOutcome(profile, oracle, c, "dense<[2.0, 0.0, 1e-45, 0.0]> : tensor<4xf32>");
  EXPECT_EQ(daz.kind, CaseOutcome::Kind::kDeviation);
  CaseOutcome all_flushed =
      ExcusedOutcome(profile, oracle, c, "dense<[2.0, 0.0, 0.0, 0.0]> : tensor<4xf32>");
  EXPECT_EQ(all_flushed.kind, CaseOutcome::Kind::kDeviation);
  CaseOutcome wrong_order =
      ExcusedOutcome(profile, oracle, c, "dense<[0.0, 1e-45, 0.0, 2.0]> : tensor<4xf32>");
  EXPECT_EQ(wrong_order.kind, CaseOutcome::Kind::kMismatch);
}

TEST(DeviationsTest, FlushSubnormalsKeepsTheSign) {
  Tensor t = Literal("dense<[1e-45, -1e-45, 1.5, -0.0]> : tensor<4xf32>");
  EXPECT_TRUE(HasSubnormals(t));
  Tensor flushed = FlushSubnormals(t);
  EXPECT_FALSE(HasSubnormals(flushed));
  auto v = flushed.data<float>();
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_FALSE(std::signbit(v[0]));
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_TRUE(std::signbit(v[1]));
  EXPECT_EQ(v[2], 1.5f);
  Tensor complex = Literal("dense<[(1e-45, 2.0)]> : tensor<1xcomplex<f32>>");
  EXPECT_TRUE(HasSubnormals(complex));
  EXPECT_FALSE(HasSubnormals(FlushSubnormals(complex)));
  EXPECT_FALSE(HasSubnormals(Literal("dense<[1, 2]> : tensor<2xi32>")));
}

std::string WriteProfile(const std::string& text) {
  std::string path = ::testing::TempDir() + "/profile_test.yaml";
  std::ofstream(path) << text;
  return path;
}

TEST(DeviationsTest, AProfileNeedsAReasonAndAPublicLinkForEachDeclaration) {
  const std::string good =
      "description: t\ndeviations:\n  - id: ftz\n    kind: flush_subnormals\n"
      "    reason: flushes\n    link: https://example.org/ftz\n";
  auto loaded = LoadBackendProfile(WriteProfile(good), TestRegistry());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->deviations.size(), 1u);
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"deviations:\n  - id: ftz\n    kind: flush_subnormals\n    reason: r\n", "link"},
           {"deviations:\n  - id: ftz\n    kind: flush_subnormals\n    reason: r\n    link: see "
            "the docs\n",
            "https://"},
           {"deviations:\n  - id: ftz\n    kind: flush_subnormals\n    link: https://x\n",
            "reason"},
           {"deviations:\n  - id: ftz\n    kind: fast\n    reason: r\n    link: https://x\n",
            "expected kind"},
           {"deviations:\n  - id: u\n    kind: max_ulp\n    reason: r\n    link: https://x\n",
            "max_ulp"},
           {"deviations:\n  - id: a\n    kind: flush_subnormals\n    ops: [nosuchop]\n    reason: "
            "r\n    link: https://x\n",
            "nosuchop"},
           {"unsupported:\n  - reason: r\n    link: https://x\n", "names ops, types or both"},
       }) {
    auto bad = LoadBackendProfile(WriteProfile(text), TestRegistry());
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_NE(bad.status().message().find("profile_test.yaml:"), std::string::npos) << bad.status();
    EXPECT_NE(bad.status().message().find(message), std::string::npos) << bad.status();
  }
}

TEST(DeviationsTest, DeclaredUnsupportedGroupsAreSkippedWithTheReason) {
  auto adapter = Flushing();
  BackendProfile profile;
  profile.file = "test.yaml";
  Unsupported u;
  u.types = {ElementType::kF32};
  u.reason = "no f32 here";
  u.link = "https://example.org";
  profile.unsupported.push_back(u);
  GroupResult group = RunOne(*adapter, &profile, "add", ElementType::kF32, 10);
  EXPECT_EQ(group.skipped, 10);
  EXPECT_EQ(group.passed, 0);
  EXPECT_NE(group.skip_reason.find("no f32 here"), std::string::npos);
}

// An entry with `quantized: true` skips the cases that hold a quantized
// tensor, with its reason, and runs the others; it names no types.
TEST(DeviationsTest, DeclaredUnsupportedQuantizedCasesAreSkippedAndTheRestRun) {
  auto adapter = Flushing();
  BackendProfile profile;
  profile.file = "test.yaml";
  Unsupported u;
  u.quantized = true;
  u.ops = {"add"};
  u.reason = "no quantized types here";
  u.link = "https://example.org";
  profile.unsupported.push_back(u);
  GroupResult group = RunOne(*adapter, &profile, "add", ElementType::kF32, 200);
  EXPECT_GT(group.skipped, 0);                     // one case in eight is quantized
  EXPECT_GT(group.passed + group.deviating, 150);  // the plain ones ran
  EXPECT_EQ(group.quantized_skipped, group.quantized_cases);
  EXPECT_EQ(group.skipped, group.quantized_skipped);
  EXPECT_NE(group.skip_reason.find("no quantized types here"), std::string::npos)
      << group.skip_reason;
  auto bad = LoadBackendProfile(
      WriteProfile("unsupported:\n  - quantized: true\n    types: [f32]\n    reason: r\n"
                   "    link: https://x\n"),
      TestRegistry());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("ops only"), std::string::npos) << bad.status();
}

// The checked-in profiles load: every declaration has its source.
TEST(DeviationsTest, TheShippedProfilesLoad) {
  for (const char* name : {"xla-cpu", "iree-llvm-cpu"}) {
    std::string path = std::string(HLOCHECK_SOURCE_DIR) + "/backends/" + name + ".yaml";
    auto profile = LoadBackendProfile(path, TestRegistry());
    ASSERT_TRUE(profile.ok()) << profile.status();
    EXPECT_FALSE(profile->deviations.empty()) << name;
  }
}

}  // namespace
}  // namespace hlocheck
