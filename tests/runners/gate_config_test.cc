// Gate config files: settings become flags, budgets and waivers are
// checked, and a waiver holds until its date and then fails the run.
#include "runners/gate_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "adapters/cpu/cpu_adapter.h"
#include "adapters/faulty/faulty_adapters.h"
#include "runners/gate.h"

namespace hlocheck {
namespace {

std::string WriteConfig(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

const spec::SpecRegistry& Registry() {
  auto registry = spec::DefaultRegistry();
  EXPECT_TRUE(registry.ok()) << registry.status();
  return **registry;
}

TEST(GateConfigTest, SettingsBecomeFlagsAndWaiversHoldUntilTheirDate) {
  const std::string path = WriteConfig("gate.yaml",
                                       "backend: cpu\n"
                                       "ops: [slice, add]\n"
                                       "cases: 300\n"
                                       "case_budgets:\n"
                                       "  add: 50\n"
                                       "waivers:\n"
                                       "  - op: slice\n"
                                       "    types: [f32]\n"
                                       "    reason: known, https://example.com/1\n"
                                       "    expires: 2026-12-31\n");
  auto config = LoadGateConfig(path, Registry());
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->flags,
            (std::vector<std::string>{"--backend", "cpu", "--ops", "slice,add", "--cases", "300"}));
  EXPECT_EQ(config->case_budgets.at("add"), 50);
  EXPECT_NE(WaiverFor(*config, "slice", ElementType::kF32, "2026-12-31").find("known"),
            std::string::npos);
  EXPECT_EQ(WaiverFor(*config, "slice", ElementType::kF32, "2027-01-01"), "");
  EXPECT_EQ(WaiverFor(*config, "slice", ElementType::kSI8, "2026-06-01"), "");
  EXPECT_EQ(WaiverFor(*config, "add", ElementType::kF32, "2026-06-01"), "");
  EXPECT_TRUE(ExpiredWaivers(*config, "2026-12-31").empty());
  ASSERT_EQ(ExpiredWaivers(*config, "2027-01-01").size(), 1u);
  EXPECT_NE(ExpiredWaivers(*config, "2027-01-01")[0].find("gate.yaml:7"), std::string::npos);
}

TEST(GateConfigTest, BadFilesAreRefusedWithTheirLine) {
  const std::pair<const char*, const char*> bad[] = {
      {"cases: 10\nfoo: 1\n", ":2:1: unknown setting 'foo'"},
      {"ops: [add, slise]\n", ":1:12: unknown op 'slise'"},
      {"types: [f33]\n", ":1:9: unknown element type"},
      {"case_budgets:\n  add: -4\n", ":2:8: expected a positive number of cases"},
      {"waivers:\n  - op: add\n    expires: 2026-01-01\n", ":2:5: a waiver needs a reason"},
      {"waivers:\n  - op: add\n    reason: x\n", ":2:5: a waiver needs an expiry date"},
      {"waivers:\n  - op: add\n    reason: x\n    expires: soon\n",
       ":4:14: expected a date YYYY-MM-DD"},
      {"ops: [add\n", "gate_bad.yaml:"},
  };
  for (const auto& [text, expected] : bad) {
    const std::string path = WriteConfig("gate_bad.yaml", text);
    auto config = LoadGateConfig(path, Registry());
    ASSERT_FALSE(config.ok()) << text;
    EXPECT_NE(config.status().message().find(expected), std::string::npos)
        << config.status().message();
  }
  EXPECT_FALSE(LoadGateConfig(::testing::TempDir() + "/absent.yaml", Registry()).ok());
}

// A waived failure does not fail the run; an unwaived one and an expired
// waiver do; the case budget replaces `cases` for its op.
TEST(GateConfigTest, WaiversDecideTheRunsVerdict) {
  const spec::SpecRegistry& registry = Registry();
  Oracle oracle(&registry);
  std::unique_ptr<Adapter> faulty = CreateFaultyAdapter("faulty-slice-stride", {});
  ASSERT_NE(faulty, nullptr);
  Gate gate(&registry, &oracle, faulty.get());
  const std::string path = WriteConfig("gate_waive.yaml",
                                       "case_budgets:\n  add: 20\n"
                                       "waivers:\n"
                                       "  - op: slice\n"
                                       "    reason: known\n"
                                       "    expires: 2026-12-31\n");
  auto config = LoadGateConfig(path, registry);
  ASSERT_TRUE(config.ok()) << config.status();
  GateOptions options;
  options.ops = {"slice", "add"};
  options.types = {ElementType::kSI8};
  options.cases = 100;
  options.cases_per_op = config->case_budgets;
  options.waiver_for = [&](const std::string& op, ElementType type) {
    return WaiverFor(*config, op, type, "2026-11-28");
  };
  auto run = gate.Run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_GT(run->groups[0].failed, 0);
  EXPECT_FALSE(run->groups[0].waiver.empty());
  EXPECT_EQ(run->groups[1].cases, 20);
  EXPECT_FALSE(run->failed());
  run->expired_waivers = ExpiredWaivers(*config, "2027-01-01");
  EXPECT_TRUE(run->failed());
  run->expired_waivers.clear();
  run->groups[0].waiver.clear();
  EXPECT_TRUE(run->failed());
}

// A tolerance override tightens an op's ULP bound for one backend or all,
// the tightest one winning; one wider than the op's bound is refused with
// its line.
TEST(GateConfigTest, ToleranceOverridesOnlyTighten) {
  const std::string path = WriteConfig("gate_tolerances.yaml",
                                       "tolerances:\n"
                                       "  - op: exponential\n"
                                       "    types: [f32]\n"
                                       "    max_ulp: 1\n"
                                       "  - op: exponential\n"
                                       "    backend: pjrt:xla-cpu\n"
                                       "    max_ulp: 0\n");
  auto config = LoadGateConfig(path, Registry());
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(MaxUlpFor(*config, "cpu", "exponential", ElementType::kF32), 1);
  EXPECT_EQ(MaxUlpFor(*config, "cpu", "exponential", ElementType::kF16), std::nullopt);
  EXPECT_EQ(MaxUlpFor(*config, "pjrt:xla-cpu", "exponential", ElementType::kF32), 0);
  EXPECT_EQ(MaxUlpFor(*config, "cpu", "log", ElementType::kF32), std::nullopt);
  const std::string wider = WriteConfig("gate_wider.yaml",
                                        "tolerances:\n"
                                        "  - op: exponential\n"
                                        "    types: [f32]\n"
                                        "    max_ulp: 7\n");
  auto refused = LoadGateConfig(wider, Registry());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(":4:"), std::string::npos) << refused.status();
  EXPECT_NE(refused.status().message().find("only tightens"), std::string::npos);
}

// Held to 0 ULP, the CPU adapter's exponential (within the op's 2 ULP, not
// correctly rounded) fails, and its finding's command names the config.
TEST(GateConfigTest, ATighterToleranceDecidesTheVerdict) {
  const spec::SpecRegistry& registry = Registry();
  Oracle oracle(&registry);
  CpuAdapter cpu;
  Gate gate(&registry, &oracle, &cpu);
  GateOptions options;
  options.ops = {"exponential"};
  options.types = {ElementType::kF32};
  options.cases = 200;
  auto plain = gate.Run(options);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->groups[0].failed, 0);
  options.max_ulp_for = [](const std::string&, ElementType) { return std::optional<int>(0); };
  options.tolerance_config = "gate.yaml";
  auto tight = gate.Run(options);
  ASSERT_TRUE(tight.ok()) << tight.status();
  ASSERT_GT(tight->groups[0].failed, 0);
  EXPECT_EQ(tight->groups[0].allowed_ulp, 0);
  ASSERT_FALSE(tight->groups[0].findings.empty());
  EXPECT_NE(tight->groups[0].findings[0].command.find("--config gate.yaml"), std::string::npos);
}

}  // namespace
}  // namespace hlocheck
