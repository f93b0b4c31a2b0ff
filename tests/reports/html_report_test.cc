// The HTML report, the Markdown summary, the report.json and coverage.json
// readers behind `hlocheck report`, and the baseline comparison: what a
// reader sees must be what the run found.
#include "reports/html_report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "reports/gate_report_reader.h"
#include "reports/gate_reports.h"

namespace hlocheck {
namespace {

GroupResult Group(const std::string& op, ElementType type, int64_t passed, int64_t failed) {
  GroupResult g;
  g.op = op;
  g.type = type;
  g.check = IsFloat(type) ? "ulp" : "exact";
  g.cases = passed + failed;
  g.passed = passed;
  g.failed = failed;
  g.elements_compared = 100 * g.cases;
  if (IsFloat(type)) {
    g.worst_ulp = 1;
    g.allowed_ulp = 1;
    g.distances.count[0] = 90;
    g.distances.count[1] = 10;
  }
  return g;
}

Finding MismatchFinding(const GroupResult& g) {
  Finding f;
  f.op = g.op;
  f.type = g.type;
  f.kind = FindingKind::kMismatch;
  f.mismatched_elements = 1;
  f.mismatches.push_back({0, {2}, "1.0", "1.5", "<= 1 ULP (was 4194304)", 4194304});
  f.reproducer = "func.func @main() {\n  func.return\n}\n";
  f.replay = "hlocheck4:" + g.op + ":f32:abc:1:4096:0";
  f.command = "build/hlocheck run --ops " + g.op;
  f.case_index = 3;
  f.original_elements = 40;
  f.minimal_elements = 1;
  f.shrink_steps = 5;
  return f;
}

// Every verdict the matrix can show, and findings of three kinds.
GateRun MixedRun() {
  GateRun run;
  run.backend = "faulty";
  run.profile = "backends/faulty.yaml";
  run.hlocheck_version = "0.1.0 (test)";
  run.spec_digest = "0123456789abcdef";
  run.started_at = "2026-11-28T10:00:00Z";
  run.max_elements = 4096;
  run.seed = 11;
  run.cases_per_group = 10;
  run.command_line = "hlocheck run --backend faulty";
  run.seconds = 2.5;
  run.groups.push_back(Group("add", ElementType::kF32, 10, 0));
  GroupResult bad = Group("add", ElementType::kSI32, 7, 3);
  bad.findings.push_back(MismatchFinding(bad));
  run.groups.push_back(bad);
  GroupResult crash = Group("sort", ElementType::kF32, 0, 10);
  Finding crashed;
  crashed.op = "sort";
  crashed.type = ElementType::kF32;
  crashed.kind = FindingKind::kBackendCrash;
  crashed.message = "worker died: signal 6 (Aborted)";
  crash.findings.push_back(crashed);
  run.groups.push_back(crash);
  GroupResult deviating = Group("maximum", ElementType::kF32, 8, 0);
  deviating.cases = 10;
  deviating.deviating = 2;
  deviating.excused["xla-fast-min-max"] = 4;
  deviating.deviation_replay = "hlocheck4:maximum:f32:1:1:4096:";
  run.groups.push_back(deviating);
  GroupResult skipped = Group("fft", ElementType::kF16, 0, 0);
  skipped.cases = skipped.skipped = 10;
  skipped.skip_reason = "declared unsupported (backends/faulty.yaml): no f16 FFT";
  run.groups.push_back(skipped);
  GroupResult bound = Group("dot_general", ElementType::kBF16, 10, 0);
  bound.check = "bound";
  bound.worst_ulp = -1;
  bound.worst_bound_fraction = 0.25;
  bound.distances = DistanceHistogram();
  bound.distances.count[20] = 7;
  run.groups.push_back(bound);
  return run;
}

std::set<std::string> Matches(const std::string& text, const std::string& pattern) {
  std::set<std::string> found;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    found.insert((*it)[1].str());
  }
  return found;
}

TEST(ReportReaderTest, ReportJsonReadsBackToTheRunItWasWrittenFrom) {
  const GateRun run = MixedRun();
  const nlohmann::json written = GateRunToJson(run);
  auto read = GateRunFromJson(written, "report.json");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(GateRunToJson(*read), written);
  EXPECT_EQ(read->groups[5].distances.count[20], 7);
  EXPECT_EQ(read->groups[0].distances.count[1], 10);
}

TEST(ReportReaderTest, ErrorsNameTheFileTheFieldAndWhatWasExpected) {
  nlohmann::json report = GateRunToJson(MixedRun());
  report["groups"][1].erase("cases");
  auto read = GateRunFromJson(report, "out/report.json");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(), "out/report.json: groups[1].cases: expected an integer");

  report = GateRunToJson(MixedRun());
  report["groups"][0]["element_type"] = "f33";
  read = GateRunFromJson(report, "r.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("groups[0].element_type: expected an element type"),
            std::string::npos)
      << read.status();

  report["schema"] = "hlocheck-coverage/1";
  EXPECT_FALSE(GateRunFromJson(report, "r.json").ok());
  report = GateRunToJson(MixedRun());
  report["version"] = kReportSchemaVersion + 1;
  read = GateRunFromJson(report, "r.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("newer hlocheck"), std::string::npos);
}

TEST(ReportReaderTest, AJsonSyntaxErrorNamesItsLineAndColumn) {
  const std::string path = ::testing::TempDir() + "/broken_report.json";
  {
    std::ofstream out(path);
    out << "{\n  \"schema\": \"hlocheck.gate\",\n  \"version\": 5,,\n}\n";
  }
  auto json = ReadJsonFile(path);
  ASSERT_FALSE(json.ok());
  EXPECT_EQ(json.status().message(), path + ":3:16: not valid JSON");
  EXPECT_FALSE(ReadJsonFile(path + ".absent").ok());
}

TEST(VerdictTest, EachGroupGetsTheWorstThingItShows) {
  const GateRun run = MixedRun();
  EXPECT_EQ(VerdictOf(run.groups[0]), GroupVerdict::kPass);
  EXPECT_EQ(VerdictOf(run.groups[1]), GroupVerdict::kMismatch);
  EXPECT_EQ(VerdictOf(run.groups[2]), GroupVerdict::kCrashOrHang);
  EXPECT_EQ(VerdictOf(run.groups[3]), GroupVerdict::kDeviation);
  EXPECT_EQ(VerdictOf(run.groups[4]), GroupVerdict::kNotImplemented);
  GroupResult oracle_bug = run.groups[1];
  oracle_bug.findings[0].kind = FindingKind::kOracleError;
  EXPECT_EQ(VerdictOf(oracle_bug), GroupVerdict::kHlocheckBug);
  GroupResult other_skip = run.groups[4];
  other_skip.skip_reason = "the backend cannot take or return f16 tensors";
  EXPECT_EQ(VerdictOf(other_skip), GroupVerdict::kSkipped);
}

TEST(BaselineTest, MarksNewFailuresFixesAndGrownDistances) {
  GateRun baseline = MixedRun();
  GateRun current = MixedRun();
  // add si32 was failing and is fixed; add f32 fails anew; maximum's worst
  // distance grew; dot_general's bound fraction grew.
  current.groups[1].failed = 0;
  current.groups[1].passed = 10;
  current.groups[1].findings.clear();
  current.groups[0].failed = 1;
  current.groups[0].passed = 9;
  current.groups[0].findings.push_back(MismatchFinding(current.groups[0]));
  current.groups[3].worst_ulp = 3;
  current.groups[5].worst_bound_fraction = 0.5;
  const RunComparison same = CompareWithBaseline(baseline, "old.json", baseline);
  EXPECT_TRUE(same.changes.empty());
  EXPECT_TRUE(same.caveats.empty());
  const RunComparison c = CompareWithBaseline(baseline, "old.json", current);
  ASSERT_EQ(c.changes.size(), 4u);
  EXPECT_EQ(c.count(GroupChange::Kind::kNewFailure), 1);
  EXPECT_EQ(c.count(GroupChange::Kind::kFixed), 1);
  EXPECT_EQ(c.count(GroupChange::Kind::kBoundRegression), 2);
  ASSERT_NE(c.Find("add", ElementType::kF32), nullptr);
  EXPECT_EQ(c.Find("add", ElementType::kF32)->kind, GroupChange::Kind::kNewFailure);
  EXPECT_EQ(c.Find("add", ElementType::kSI32)->kind, GroupChange::Kind::kFixed);
  EXPECT_EQ(c.Find("maximum", ElementType::kF32)->detail, "worst 3 ULP, was 1 (allowed 1)");
  current.seed = 12;
  EXPECT_EQ(CompareWithBaseline(baseline, "old.json", current).caveats.size(), 1u);
}

TEST(HtmlReportTest, EveryLinkResolvesAndNothingIsFetched) {
  const GateRun run = MixedRun();
  ReportInputs inputs;
  inputs.run = &run;
  inputs.run_file = "out/report.json";
  const std::string html = RenderHtmlReport(inputs);
  const std::set<std::string> ids = Matches(html, "id=\"([^\"]+)\"");
  const std::set<std::string> links = Matches(html, "href=\"#([^\"]*)\"");
  ASSERT_FALSE(links.empty());
  for (const std::string& link : links) EXPECT_TRUE(ids.count(link)) << "#" << link;
  for (const GroupResult& g : run.groups) {
    EXPECT_TRUE(ids.count(GroupAnchor(g.op, g.type))) << g.op;
    if (g.failed > 0) {
      EXPECT_TRUE(ids.count(FindingAnchor(g.op, g.type))) << g.op;
    }
  }
  // Self-contained: no resource from elsewhere.
  EXPECT_TRUE(Matches(html, "(src=)").empty());
  EXPECT_TRUE(Matches(html, "href=\"(https?:)").empty());
  EXPECT_TRUE(Matches(html, "(@import|url\\()").empty());
  // The copy buttons name an element that exists.
  for (const std::string& target : Matches(html, "data-copy=\"([^\"]+)\"")) {
    EXPECT_TRUE(ids.count(target)) << target;
  }
}

TEST(HtmlReportTest, TheCountsShownAreTheRunsAndEveryVerdictHasItsCell) {
  const GateRun run = MixedRun();
  ReportInputs inputs;
  inputs.run = &run;
  const std::string html = RenderHtmlReport(inputs);
  EXPECT_NE(html.find("data-count=\"failed\">13<"), std::string::npos);
  EXPECT_NE(html.find("data-count=\"cases\">60<"), std::string::npos);
  EXPECT_NE(html.find("data-count=\"deviating\">2<"), std::string::npos);
  EXPECT_NE(html.find("hlocheck gate FAILED: 13 unexpected failure(s) in 2 of 6 groups"),
            std::string::npos);
  for (const char* verdict :
       {"v-pass", "v-mismatch", "v-crash-hang", "v-deviation", "v-not-implemented"}) {
    EXPECT_NE(html.find(std::string("<td class=\"") + verdict), std::string::npos) << verdict;
  }
  // The header has what it takes to reproduce the run.
  for (const char* fact : {"backends/faulty.yaml", "0.1.0 (test)", "0123456789abcdef",
                           "2026-11-28T10:00:00Z", "hlocheck run --backend faulty"}) {
    EXPECT_NE(html.find(fact), std::string::npos) << fact;
  }
  // The finding: values side by side, the reproducer and the replay command.
  EXPECT_NE(html.find("<td>1.0</td><td>1.5</td>"), std::string::npos);
  EXPECT_NE(html.find("build/hlocheck replay --backend faulty hlocheck4:add:f32"),
            std::string::npos);
  EXPECT_NE(html.find("worker died: signal 6 (Aborted)"), std::string::npos);
  // Histograms where distances were measured, with the bound marked.
  EXPECT_NE(html.find("dashed: allowed 1 ULP"), std::string::npos);
  EXPECT_NE(html.find("(0.25, 0.5] of the bound: 7 element(s)"), std::string::npos);
}

TEST(HtmlReportTest, TextFromTheRunIsEscaped) {
  GateRun run = MixedRun();
  run.backend = "<script>alert(1)</script>";
  run.groups[1].findings[0].reproducer = "</pre><img onerror=x>";
  ReportInputs inputs;
  inputs.run = &run;
  const std::string html = RenderHtmlReport(inputs);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("<img onerror"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

TEST(HtmlReportTest, ABaselineMarksChangedCellsAndListsTheChanges) {
  GateRun baseline = MixedRun();
  GateRun current = MixedRun();
  current.groups[3].worst_ulp = 5;
  const RunComparison comparison = CompareWithBaseline(baseline, "old/report.json", current);
  ReportInputs inputs;
  inputs.run = &current;
  inputs.comparison = &comparison;
  const std::string html = RenderHtmlReport(inputs);
  EXPECT_NE(html.find("data-count=\"bound_regressions\">1<"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"v-deviation changed\">"), std::string::npos);
  EXPECT_NE(html.find("worst 5 ULP, was 1"), std::string::npos);
  const std::string md = RenderMarkdownSummary(inputs);
  EXPECT_NE(md.find("0 new failure(s), 0 fixed, 1 bound regression(s)"), std::string::npos) << md;
  EXPECT_NE(md.find("- **bound regression** maximum f32: worst 5 ULP, was 1"), std::string::npos);
}

TEST(MarkdownSummaryTest, HeadlinesTheFailuresWithTheirReplayCommands) {
  GateRun run = MixedRun();
  run.groups[1].findings[0].replay = "key|with|pipes";
  ReportInputs inputs;
  inputs.run = &run;
  const std::string md = RenderMarkdownSummary(inputs);
  EXPECT_EQ(md.rfind("## hlocheck gate FAILED on faulty\n", 0), 0u) << md;
  EXPECT_NE(md.find("**13 unexpected failure(s)** in 2 of 6 op x type groups"), std::string::npos);
  EXPECT_NE(md.find("| add | si32 | mismatch | 1 element(s) differ from the oracle | "
                    "`build/hlocheck replay --backend faulty key\\|with\\|pipes` |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| sort | f32 | backend crash |"), std::string::npos);
  GateRun passing = MixedRun();
  passing.groups.erase(passing.groups.begin() + 1, passing.groups.begin() + 3);
  inputs.run = &passing;
  EXPECT_EQ(RenderMarkdownSummary(inputs).rfind("## hlocheck gate passed on faulty", 0), 0u);
}

nlohmann::json CoverageJson() {
  return nlohmann::json::parse(R"json({
    "format": "hlocheck-coverage/1", "seed": 5, "cases_per_op": 20,
    "negative_cases_per_constraint": 2, "max_elements": 4096,
    "ops": {"add": {"has_recipe": true, "valid_cases": 20, "invalid_cases": 4,
      "element_types": {"f32": 20}, "features": {"rank_0": 3},
      "constraints": {
        "C10": {"source": "seed", "conditional": false, "valid": {"held": 20},
                "invalid": {"violated_alone": 2, "from_spec_instance": 0}},
        "C2": {"source": "seed", "conditional": true, "valid": {"held": 20, "not_applicable": 0},
               "invalid": {"violated_alone": 2, "from_spec_instance": 0}},
        "C1 (public)": {"source": "public", "conditional": false, "valid": {"held": 0},
                        "invalid": {"violated_alone": 0, "from_spec_instance": 0}}}}}})json");
}

TEST(CoverageReportTest, ReadsCoverageJsonInTheSpecsOrderAndDrawsTheHeatmap) {
  auto coverage = CoverageFromJson(CoverageJson(), "coverage.json");
  ASSERT_TRUE(coverage.ok()) << coverage.status();
  ASSERT_EQ(coverage->ops.size(), 1u);
  const OpCoverage& add = coverage->ops[0];
  ASSERT_EQ(add.constraints.size(), 3u);
  EXPECT_EQ(add.constraints[0].id, "C2");
  EXPECT_EQ(add.constraints[1].id, "C10");
  EXPECT_EQ(add.constraints[2].id, "C1 (public)");
  EXPECT_EQ(add.features.at("rank_0"), 3);
  ReportInputs inputs;
  inputs.coverage = &*coverage;
  inputs.coverage_file = "coverage.json";
  const std::string html = RenderHtmlReport(inputs);
  // C10 full, C2 a branch never taken (its condition always held), C1 never exercised.
  EXPECT_NE(html.find("<span class=\"cc c-full\" title=\"add C10"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"cc c-branch\" title=\"add C2"), std::string::npos);
  EXPECT_NE(html.find("branch never taken: the condition always held"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"cc c-none\" title=\"add C1 (public)"), std::string::npos);
  EXPECT_NE(html.find("data-count=\"branches_untaken\">1<"), std::string::npos);
  EXPECT_NE(html.find("data-count=\"constraints_exercised\">2<"), std::string::npos);

  nlohmann::json broken = CoverageJson();
  broken["ops"]["add"]["constraints"]["C2"]["valid"]["held"] = "many";
  auto bad = CoverageFromJson(broken, "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "c.json: ops.add.constraints.C2.valid.held: expected an integer");
}

TEST(CampaignReportTest, ShowsTotalsCountsOverTimeAndEachFindingOnce) {
  CampaignReport campaign;
  campaign.store = "camp/findings.sqlite";
  campaign.settings = {{"backend", "faulty"}, {"seed", "7"}};
  campaign.totals.cases = 5000;
  campaign.totals.passed = 4990;
  campaign.totals.failed = 10;
  campaign.totals.findings = 2;
  for (int id : {1, 2}) {
    StoredFinding f;
    f.id = id;
    f.signature = "add|f32|mismatch|finite->finite|ulp-bucket " + std::to_string(id);
    f.op = "add";
    f.type = "f32";
    f.kind = "mismatch";
    f.summary = "1 element(s) differ from the oracle";
    f.reproducer = "func.func @main() {}";
    f.replay = "hlocheck4:add:f32:" + std::to_string(id);
    f.count = 5;
    f.first_seen = 1.8e9;
    f.last_seen = 1.8e9 + 60;
    campaign.findings.push_back(f);
  }
  campaign.progress = {{1.8e9, 0, 0, 0}, {1.8e9 + 10, 2500, 5, 1}, {1.8e9 + 20, 5000, 10, 2}};
  ReportInputs inputs;
  inputs.campaign = &campaign;
  const std::string html = RenderHtmlReport(inputs);
  EXPECT_NE(html.find("hlocheck campaign on faulty: 2 distinct finding(s) in 5,000 cases"),
            std::string::npos);
  EXPECT_NE(html.find("data-count=\"campaign_failed\">10<"), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"progress\""), std::string::npos);
  EXPECT_NE(html.find("build/hlocheck replay --backend faulty hlocheck4:add:f32:2"),
            std::string::npos);
  const std::set<std::string> ids = Matches(html, "id=\"([^\"]+)\"");
  for (const std::string& link : Matches(html, "href=\"#([^\"]*)\"")) {
    EXPECT_TRUE(ids.count(link)) << "#" << link;
  }
  const std::string md = RenderMarkdownSummary(inputs);
  EXPECT_NE(md.find("### Campaign on faulty"), std::string::npos) << md;
  EXPECT_NE(md.find("| 2 | add | f32 | mismatch | 5 |"), std::string::npos) << md;
}

}  // namespace
}  // namespace hlocheck
