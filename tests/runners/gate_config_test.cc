// Gate config files: settings become flags, budgets and waivers are
// checked, and a waiver holds until its date and then fails the run.
#include "runners/gate_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

}  // namespace
}  // namespace hlocheck
