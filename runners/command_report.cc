// `hlocheck report`: the HTML report (and a Markdown summary) of a gate
// run's report.json, a coverage.json, or both, optionally compared with a
// baseline run's report.json.
#include <filesystem>
#include <iostream>
#include <optional>

#include "reports/gate_report_reader.h"
#include "runners/commands.h"
#include "runners/findings_store.h"
#include "runners/flags.h"
#include "runners/report_files.h"

namespace hlocheck {

int ReportCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("coverage", "FILE", "a coverage.json to show as the spec coverage heatmap", "");
  flags.Add("baseline", "FILE",
            "an earlier run's report.json: mark new failures, fixes and "
            "bound regressions",
            "");
  flags.Add("out", "FILE",
            "where to write the HTML (default: report.html beside REPORT.json, "
            "or coverage.html beside --coverage)",
            "");
  flags.Add("findings", "DIR", "a campaign's findings store (hlocheck fuzz --store DIR)", "");
  flags.Add("summary-md", "FILE", "also write a Markdown summary (for CI step summaries)", "");
  flags.AddSwitch("help", "show this help");
  auto usage = [](const std::string& message) {
    std::cerr << "hlocheck report: " << message << "\n";
    return kExitUsage;
  };
  if (auto status = flags.Parse(args); !status.ok()) return usage(std::string(status.message()));
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck report [REPORT.json] [flags]\n\n"
                 "Renders one self-contained HTML file (no network, no external scripts or\n"
                 "fonts) from a gate run's report.json, a coverage.json and a campaign's\n"
                 "findings store (any of them): the verdict of\n"
                 "every op x element type, the findings with their reproducers and replay\n"
                 "commands, each group's distance histogram, the spec coverage heatmap, and\n"
                 "with --baseline the changes since an earlier run.\n\n"
                 "flags:\n"
              << flags.Help() << "\nExit status: 0 written, 2 bad input.\n";
    return kExitOk;
  }
  if (flags.positional().size() > 1) return usage("takes at most one REPORT.json");
  const std::string report_file = flags.positional().empty() ? "" : flags.positional()[0];
  const std::string coverage_file = flags.Get("coverage");
  const std::string findings_dir = flags.Get("findings");
  if (report_file.empty() && coverage_file.empty() && findings_dir.empty()) {
    return usage("give a REPORT.json, a --coverage FILE or a --findings DIR (--help)");
  }
  ReportInputs inputs;
  std::optional<GateRun> run, baseline;
  std::optional<CoverageReport> coverage;
  std::optional<RunComparison> comparison;
  std::optional<CampaignReport> campaign;
  if (!findings_dir.empty()) {
    auto store = FindingsStore::Open(findings_dir, /*create=*/false);
    if (!store.ok()) return usage(std::string(store.status().message()));
    auto read = ReadCampaignReport(**store);
    if (!read.ok()) return usage(std::string(read.status().message()));
    campaign = *std::move(read);
    inputs.campaign = &*campaign;
  }
  if (!report_file.empty()) {
    auto json = ReadJsonFile(report_file);
    if (!json.ok()) return usage(std::string(json.status().message()));
    auto parsed = GateRunFromJson(*json, report_file);
    if (!parsed.ok()) return usage(std::string(parsed.status().message()));
    run = *std::move(parsed);
    inputs.run = &*run;
    inputs.run_file = report_file;
  }
  if (!coverage_file.empty()) {
    auto json = ReadJsonFile(coverage_file);
    if (!json.ok()) return usage(std::string(json.status().message()));
    auto parsed = CoverageFromJson(*json, coverage_file);
    if (!parsed.ok()) return usage(std::string(parsed.status().message()));
    coverage = *std::move(parsed);
    inputs.coverage = &*coverage;
    inputs.coverage_file = coverage_file;
  }
  if (const std::string baseline_file = flags.Get("baseline"); !baseline_file.empty()) {
    if (!run) return usage("--baseline compares two runs: give this run's REPORT.json too");
    auto json = ReadJsonFile(baseline_file);
    if (!json.ok()) return usage(std::string(json.status().message()));
    auto parsed = GateRunFromJson(*json, baseline_file);
    if (!parsed.ok()) return usage(std::string(parsed.status().message()));
    baseline = *std::move(parsed);
    comparison = CompareWithBaseline(*baseline, baseline_file, *run);
    inputs.comparison = &*comparison;
  }
  std::string out = flags.Get("out");
  if (out.empty()) {
    out = !report_file.empty()
              ? (std::filesystem::path(report_file).parent_path() / "report.html").string()
          : !findings_dir.empty()
              ? (std::filesystem::path(findings_dir) / "report.html").string()
              : (std::filesystem::path(coverage_file).parent_path() / "coverage.html").string();
  }
  if (auto s = WriteHtmlAndSummary(inputs, out, flags.Get("summary-md")); !s.ok()) {
    return usage(std::string(s.message()));
  }
  std::cout << "report: " << out;
  if (!flags.Get("summary-md").empty()) std::cout << ", summary: " << flags.Get("summary-md");
  std::cout << "\n";
  return kExitOk;
}

}  // namespace hlocheck
