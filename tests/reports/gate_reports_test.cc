// The gate's report writers: what a CI system and a reader of the console see.
#include "reports/gate_reports.h"

#include <gtest/gtest.h>

#include <sstream>

namespace hlocheck {
namespace {

GateRun TwoGroupRun() {
  GateRun run;
  run.backend = "cpu";
  run.seed = 7;
  run.cases_per_group = 10;
  GroupResult exp;
  exp.op = "exponential";
  exp.type = ElementType::kBF16;
  exp.check = "ulp";
  exp.cases = exp.passed = 10;
  exp.elements_compared = 500;
  exp.free_elements = 3;
  exp.worst_ulp = 1;
  exp.allowed_ulp = 1;
  run.groups.push_back(exp);
  // Every element left to the implementation: nothing was measured.
  GroupResult rem;
  rem.op = "remainder";
  rem.type = ElementType::kComplexF32;
  rem.check = "ulp";
  rem.cases = rem.passed = 10;
  rem.free_elements = 80;
  run.groups.push_back(rem);
  return run;
}

TEST(GateReportsTest, JsonCarriesCountsAndTheMeasuredWorstUlpNextToTheAllowed) {
  GateRun run = TwoGroupRun();
  nlohmann::json json = GateRunToJson(run);
  EXPECT_EQ(json["schema"], "hlocheck.gate");
  EXPECT_EQ(json["totals"]["cases"], 20);
  EXPECT_EQ(json["totals"]["free_elements"], 83);
  const nlohmann::json& exp = json["groups"][0];
  EXPECT_EQ(exp["op"], "exponential");
  EXPECT_EQ(exp["element_type"], "bf16");
  EXPECT_EQ(exp["worst_ulp"], 1);
  EXPECT_EQ(exp["allowed_ulp"], 1);
  EXPECT_TRUE(json["groups"][1]["worst_ulp"].is_null()) << json["groups"][1];
}

TEST(GateReportsTest, ConsoleTableKeepsColumnsApartAndShowsUnmeasuredGroups) {
  GateRun run = TwoGroupRun();
  run.groups[0].op = "a_name_longer_than_the_op_column_is_wide";
  std::ostringstream out;
  WriteConsoleSummary(run, out);
  std::string text = out.str();
  EXPECT_NE(text.find("a_name_longer_than_the_op_column_is_wide bf16"), std::string::npos) << text;
  EXPECT_NE(text.find("1 ULP (allowed 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("- ULP (allowed 0)"), std::string::npos) << text;
  EXPECT_NE(text.find("20 passed, 0 failed"), std::string::npos) << text;
}

TEST(GateReportsTest, JunitHasASuitePerOpAndFailuresWithTheirReproducer) {
  GateRun run = TwoGroupRun();
  run.groups[1].passed = 9;
  run.groups[1].failed = 1;
  Finding f;
  f.op = "remainder";
  f.type = ElementType::kComplexF32;
  f.kind = "mismatch";
  f.summary = "1 element(s) differ from the oracle";
  f.details = "result[0]: expected <1>, got 2\n";
  f.reproducer = "func.func @main() {}";
  run.groups[1].findings.push_back(f);
  std::string xml = GateRunToJunit(run);
  EXPECT_NE(xml.find("testsuite name=\"exponential\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("testsuite name=\"remainder\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure"), std::string::npos) << xml;
  // '<' may not stand in an attribute value: complex type names are escaped.
  EXPECT_NE(xml.find("name=\"complex&lt;f32&gt;\""), std::string::npos) << xml;
  EXPECT_EQ(xml.find("complex<"), std::string::npos) << xml;
  EXPECT_NE(xml.find("expected &lt;1&gt;"), std::string::npos) << xml;
  EXPECT_TRUE(run.failed());
}

}  // namespace
}  // namespace hlocheck
