// `hlocheck merge`: one report from the reports of a sharded gate run.
#include <iostream>

#include "reports/gate_report_reader.h"
#include "reports/gate_reports.h"
#include "reports/shard_merge.h"
#include "runners/commands.h"
#include "runners/flags.h"
#include "runners/report_files.h"

namespace hlocheck {

int MergeCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("out", "DIR",
            "where the merged report.json, report.html, junit.xml and "
            "reproducers go",
            "hlocheck-out");
  flags.Add("summary-md", "FILE", "also write a Markdown summary (for CI step summaries)", "");
  flags.AddSwitch("help", "show this help");
  auto usage = [](const std::string& message) {
    std::cerr << "hlocheck merge: " << message << "\n";
    return kExitUsage;
  };
  if (auto status = flags.Parse(args); !status.ok()) return usage(std::string(status.message()));
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck merge [flags] SHARD/report.json...\n\n"
                 "Joins the report.json of every shard of a sharded gate run (hlocheck run\n"
                 "--shard I/N, or the CI sharding variables: docs/sharding.md) into one\n"
                 "report whose groups and totals are the unsharded run's.\n\n"
                 "flags:\n"
              << flags.Help()
              << "\nExit status: 0 every case agreed, 1 a mismatch or backend failure was found,\n"
                 "2 bad usage or input (a shard missing, twice, or of another run).\n";
    return kExitOk;
  }
  if (flags.positional().empty()) return usage("give the shards' report.json files (--help)");
  std::vector<ShardReport> shards;
  for (const std::string& file : flags.positional()) {
    auto json = ReadJsonFile(file);
    if (!json.ok()) return usage(std::string(json.status().message()));
    auto run = GateRunFromJson(*json, file);
    if (!run.ok()) return usage(std::string(run.status().message()));
    shards.push_back({*std::move(run), file});
  }
  auto merged = MergeShards(shards);
  if (!merged.ok()) return usage(std::string(merged.status().message()));
  const std::string out = flags.Get("out");
  if (auto status = WriteReportFiles(*merged, out); !status.ok()) {
    return usage(std::string(status.message()));
  }
  ReportInputs report;
  report.run = &*merged;
  report.run_file = out + "/report.json";
  if (auto status = WriteHtmlAndSummary(report, out + "/report.html", flags.Get("summary-md"));
      !status.ok()) {
    return usage(std::string(status.message()));
  }
  WriteConsoleTotals(*merged, std::cout);
  std::cout << "merged " << shards.size() << " shards: " << out << "/report.json, " << out
            << "/report.html, " << out << "/junit.xml\n";
  return merged->failed() ? kExitFailure : kExitOk;
}

}  // namespace hlocheck
