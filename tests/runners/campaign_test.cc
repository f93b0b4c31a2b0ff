// A campaign's cases and its findings store: every case is a gate case
// chosen by the seed and the case number alone, findings are deduplicated
// by signature, and the store counts what it is told, once.
#include "runners/campaign.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "adapters/faulty/faulty_adapters.h"
#include "generators/case_generator.h"
#include "runners/coverage.h"
#include "runners/replay_key.h"

namespace hlocheck {
namespace {

// The plan of `ops` x `types`, as a campaign makes it (spec and oracle only).
GatePlan PlanOf(const GateOptions& base) {
  auto registry = spec::DefaultRegistry();
  EXPECT_TRUE(registry.ok()) << registry.status();
  Oracle oracle(*registry);
  Gate planner(*registry, &oracle, nullptr);
  auto plan = planner.Plan(base);
  EXPECT_TRUE(plan.ok()) << plan.status();
  return plan.ok() ? *plan : GatePlan{};
}

TEST(CampaignTest, EachRoundVisitsEveryCaseOfEveryGroupOnce) {
  GateOptions base;
  base.ops = {"add", "transpose"};
  base.types = {ElementType::kF32, ElementType::kSI8};
  const GatePlan planned = PlanOf(base);
  const GatePlan* plan = &planned;
  const int64_t groups = static_cast<int64_t>(plan->size());
  ASSERT_EQ(groups, 4);
  std::set<std::pair<std::string, int64_t>> seen;
  for (int64_t unit = 0; unit < groups * kCampaignRoundCases; ++unit) {
    const CampaignCase c = CaseOfUnit(*plan, base, unit);
    EXPECT_EQ(c.options.seed, base.seed);  // round 0: the gate's own cases
    EXPECT_EQ(c.options.end_case, c.options.first_case + 1);
    seen.insert({c.op->name + ":" + std::string(Name(c.type)), c.options.first_case});
  }
  EXPECT_EQ(static_cast<int64_t>(seen.size()), groups * kCampaignRoundCases);
  // The first cases of a round are not all the smallest.
  EXPECT_GT(CaseSize(CaseOfUnit(*plan, base, groups).options.first_case, kCampaignRoundCases), 50);
  const CampaignCase next_round = CaseOfUnit(*plan, base, groups * kCampaignRoundCases);
  EXPECT_NE(next_round.options.seed, base.seed);
  EXPECT_EQ(next_round.options.seed, RoundSeed(base.seed, 1));
  // The replay key is the gate's for that case.
  const CampaignCase c = CaseOfUnit(*plan, base, 5);
  auto key = ParseReplay(c.replay);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->seed, CaseSeed(base.seed, c.op->name, c.type, c.options.first_case));
}

// A guided unit runs one of its own group's next cases, and prefers
// combinations of features its group has not shown.
TEST(CampaignTest, GuidanceChoosesAmongTheGroupsNextCases) {
  GateOptions base;
  base.ops = {"add", "reshape"};
  base.types = {ElementType::kSI8, ElementType::kF32};
  const GatePlan planned = PlanOf(base);
  const GatePlan* plan = &planned;
  ASSERT_FALSE(plan->empty());
  const int64_t groups = static_cast<int64_t>(plan->size());
  Guidance guidance(plan->size());
  std::set<std::string> cases;
  for (int64_t unit = 0; unit < groups * 50; ++unit) {
    const int choice = guidance.Choose(*plan, base, unit);
    ASSERT_GE(choice, 0);
    ASSERT_LT(choice, kGuidedCandidates);
    const CampaignCase c = CandidateOfUnit(*plan, base, unit, choice, /*guided=*/true);
    EXPECT_EQ(c.op, (*plan)[unit % groups].first);
    EXPECT_EQ(c.type, (*plan)[unit % groups].second);
    // Every candidate is its own gate case: no two units run the same one.
    EXPECT_TRUE(cases.insert(c.replay).second) << c.replay;
  }
  // Unguided, the candidate is the plain campaign's case.
  EXPECT_EQ(CandidateOfUnit(*plan, base, 7, 3, /*guided=*/false).replay,
            CaseOfUnit(*plan, base, 7).replay);
}

// The features of the case a guided unit runs with `choice`.
std::vector<std::string> FeaturesOf(const GatePlan& plan, const GateOptions& base, int64_t unit,
                                    int choice) {
  return CaseFeatures(
      GeneratedCaseOf(CandidateOfUnit(plan, base, unit, choice, /*guided=*/true), base));
}

// A case's conditional constraints name the side they take.
TEST(CampaignTest, ConstraintBranchesNameTheSideEachConditionalConstraintTakes) {
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok());
  const spec::OpSpec* cholesky = (*registry)->Find("cholesky");
  ASSERT_NE(cholesky, nullptr);
  GenerationOptions generation;
  generation.primary_type = ElementType::kF32;
  const Case c = GenerateCase(*cholesky, generation, 1, 10).value();
  const std::vector<std::string> branches = ConstraintBranches(*cholesky, c);
  // C3 (square matrices) applies when a has rank 2 or more, as every valid case has.
  EXPECT_NE(std::find(branches.begin(), branches.end(), "branch:C3:applies"), branches.end());
  for (const std::string& b : branches) EXPECT_EQ(b.rfind("branch:C", 0), 0u) << b;
}

// After a finding, a guided campaign's later choices in that group lean
// towards cases whose features are the finding's: more of them than the
// same campaign without the finding chooses.
TEST(CampaignTest, GuidanceLeansTowardsTheNeighbourhoodOfAFinding) {
  GateOptions base;
  base.ops = {"add"};
  base.types = {ElementType::kSI8};
  const GatePlan plan = PlanOf(base);
  ASSERT_EQ(plan.size(), 1u);
  Guidance with_finding(plan.size());
  Guidance without(plan.size());
  const int first = with_finding.Choose(plan, base, 0);
  ASSERT_EQ(without.Choose(plan, base, 0), first);
  with_finding.NoteFinding();
  const std::vector<std::string> finding = FeaturesOf(plan, base, 0, first);
  int near_with = 0;
  int near_without = 0;
  for (int64_t unit = 1; unit < 120; ++unit) {
    near_with += FeaturesOf(plan, base, unit, with_finding.Choose(plan, base, unit)) == finding;
    near_without += FeaturesOf(plan, base, unit, without.Choose(plan, base, unit)) == finding;
  }
  EXPECT_GT(near_with, near_without) << "finding's features: " << finding.size();
}

// A case's element-type keys name its operands' and results' types once
// each, and its quantized tensors.
TEST(CampaignTest, ElementTypeKeysNameEveryTypeOnce) {
  Case c;
  c.operands.push_back(Tensor(TensorType({2}, ElementType::kF32)));
  c.operands.push_back(Tensor(TensorType({2}, ElementType::kF32)));
  c.result_types.push_back(TensorType({2}, ElementType::kSI8, UniformQuantization{}));
  EXPECT_EQ(ElementTypeKeys(c),
            (std::vector<std::string>{"type:f32", "type:quantized", "type:si8"}));
}

// Guided, convert's f32 group meets more of its target types in its first
// units than the plain campaign's same units do (its rarity terms, the
// element types' among them, spread the choice).
TEST(CampaignTest, GuidanceSeeksTheElementTypesTheGroupHasSeenLeast) {
  GateOptions base;
  base.ops = {"convert"};
  base.types = {ElementType::kF32};
  const GatePlan plan = PlanOf(base);
  ASSERT_EQ(plan.size(), 1u);
  auto target_of = [&](int64_t unit, int choice, bool guided) {
    const Case generated = GeneratedCaseOf(CandidateOfUnit(plan, base, unit, choice, guided), base);
    return generated.result_types.front().element_type;
  };
  Guidance guidance(plan.size());
  std::set<ElementType> guided_targets;
  std::set<ElementType> plain_targets;
  for (int64_t unit = 0; unit < 24; ++unit) {
    guided_targets.insert(target_of(unit, guidance.Choose(plan, base, unit), true));
    plain_targets.insert(target_of(unit, 0, false));
  }
  EXPECT_GT(guided_targets.size(), plain_targets.size());
  ::testing::Test::RecordProperty("guided_targets", std::to_string(guided_targets.size()));
  ::testing::Test::RecordProperty("plain_targets", std::to_string(plain_targets.size()));
}

TEST(CampaignTest, SignaturesTellFaultsApartButNotTheirValues) {
  Finding a;
  a.op = "transpose";
  a.type = ElementType::kSI32;
  a.kind = FindingKind::kMismatch;
  a.mismatches.push_back({0, {0, 1}, "3", "7", "bit-exact", -1});
  Finding b = a;
  b.mismatches[0] = {0, {2, 1}, "12", "-5", "bit-exact", -1};
  EXPECT_EQ(FindingSignature(a), FindingSignature(b));
  Finding f = a;
  f.type = ElementType::kF32;
  f.mismatches[0] = {0, {0}, "1.0", "0x7FC00000", "<= 1 ULP", -1};
  Finding nan = f;
  nan.mismatches[0].actual = "nan";
  EXPECT_NE(FindingSignature(f), FindingSignature(nan));
  Finding near = f;
  near.mismatches[0] = {0, {0}, "1.0", "1.0000001", "<= 1 ULP (was 3)", 3};
  Finding far = near;
  far.mismatches[0].ulp = 3000;
  EXPECT_NE(FindingSignature(near), FindingSignature(far));
  Finding crash;
  crash.op = "sort";
  crash.type = ElementType::kF32;
  crash.kind = FindingKind::kBackendCrash;
  crash.message = "the worker process died of signal 11 after 12 ms";
  Finding other = crash;
  other.message = "the worker process died of signal 11 after 907 ms";
  EXPECT_EQ(FindingSignature(crash), FindingSignature(other));
}

TEST(FindingsStoreTest, CountsOnceDeduplicatesAndRequeues) {
  const std::string dir = ::testing::TempDir() + "/findings_store_test";
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(FindingsStore::Open(dir, /*create=*/false).ok());
  auto store = FindingsStore::Open(dir, /*create=*/true);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE((*store)->BindCampaign({{"seed", "1"}, {"backend", "cpu"}}).ok());
  const absl::Status other = (*store)->BindCampaign({{"seed", "2"}, {"backend", "cpu"}});
  EXPECT_NE(other.message().find("whose seed is '1', not '2'"), std::string::npos) << other;
  auto u0 = (*store)->Claim(0, 3);
  auto u1 = (*store)->Claim(1, 3);
  ASSERT_TRUE(u0.ok() && u1.ok());
  EXPECT_EQ(**u0, 0);
  EXPECT_EQ(**u1, 1);
  // Worker 1 killed: its unit goes back, and is the next one claimed.
  ASSERT_TRUE((*store)->Requeue(1).ok());
  auto again = (*store)->Claim(0, 3);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(**again, 1);
  auto in_flight = (*store)->InFlight();
  ASSERT_TRUE(in_flight.ok());
  ASSERT_EQ(in_flight->size(), 2u);
  EXPECT_EQ((*in_flight)[1].attempts, 1);
  UnitResult failing;
  failing.op = "add";
  failing.type = "f32";
  failing.cases = failing.failed = 1;
  failing.finding = StoredFinding{};
  failing.finding->signature = "add|f32|mismatch|x";
  failing.finding->kind = "mismatch";
  ASSERT_TRUE((*store)->Complete(0, failing).ok());
  ASSERT_TRUE((*store)->Complete(1, failing).ok());
  // Completing a unit twice counts it once.
  ASSERT_TRUE((*store)->Complete(1, failing).ok());
  auto u2 = (*store)->Claim(0, 3);
  ASSERT_TRUE(u2.ok());
  EXPECT_EQ(**u2, 2);
  auto none = (*store)->Claim(0, 3);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  auto totals = (*store)->Totals();
  ASSERT_TRUE(totals.ok());
  EXPECT_EQ(totals->cases, 2);
  EXPECT_EQ(totals->failed, 2);
  EXPECT_EQ(totals->findings, 1);
  auto findings = (*store)->Findings();
  ASSERT_TRUE(findings.ok());
  ASSERT_EQ(findings->size(), 1u);
  EXPECT_EQ((*findings)[0].count, 2);
  EXPECT_EQ((*findings)[0].first_unit, 0);
  EXPECT_EQ(*(*store)->IntegrityCheck(), "ok");
}

}  // namespace
}  // namespace hlocheck
