// `hlocheck findings list|show ID|export`: a campaign's findings store,
// read while the campaign runs (WAL lets readers in beside the writers).
#include <iostream>

#include "absl/strings/numbers.h"
#include "nlohmann/json.hpp"
#include "reports/time_format.h"
#include "runners/commands.h"
#include "runners/findings_store.h"
#include "runners/flags.h"

namespace hlocheck {
namespace {

std::string Time(double unix_seconds) { return UtcTime(unix_seconds); }

nlohmann::json FindingJson(const StoredFinding& f) {
  return {{"id", f.id},
          {"signature", f.signature},
          {"op", f.op},
          {"element_type", f.type},
          {"kind", f.kind},
          {"summary", f.summary},
          {"details", f.details},
          {"count", f.count},
          {"first_seen", Time(f.first_seen)},
          {"last_seen", Time(f.last_seen)},
          {"first_case", f.first_unit},
          {"reproducer", f.reproducer},
          {"replay", f.replay},
          {"command", f.command}};
}

}  // namespace

int FindingsCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("store", "DIR", "the campaign's findings store", "hlocheck-campaign");
  flags.AddSwitch("help", "show this help");
  auto usage = [](const std::string& message) {
    std::cerr << "hlocheck findings: " << message << "\n";
    return kExitUsage;
  };
  if (auto status = flags.Parse(args); !status.ok()) return usage(std::string(status.message()));
  const std::vector<std::string>& words = flags.positional();
  if (flags.Switch("help") || words.empty()) {
    std::cout << "usage: hlocheck findings list|show ID|export [--store DIR]\n\n"
                 "  list     the campaign's totals and one line per distinct finding\n"
                 "  show ID  one finding: its signature, counts, details, minimal reproducer\n"
                 "           and replay command\n"
                 "  export   every finding and the totals as JSON on stdout\n\n"
                 "flags:\n"
              << flags.Help() << "\nExit status: 0 done, 2 bad usage or input.\n";
    return flags.Switch("help") ? kExitOk : kExitUsage;
  }
  auto store = FindingsStore::Open(flags.Get("store"), /*create=*/false);
  if (!store.ok()) return usage(std::string(store.status().message()));
  auto totals = (*store)->Totals();
  auto findings = (*store)->Findings();
  if (!totals.ok()) return usage(std::string(totals.status().message()));
  if (!findings.ok()) return usage(std::string(findings.status().message()));
  const std::string& action = words[0];
  if (action == "list" && words.size() == 1) {
    auto campaign = (*store)->Campaign();
    if (campaign.ok()) {
      std::cout << "campaign on " << (*campaign)["backend"] << ", seed " << (*campaign)["seed"]
                << ": ";
    }
    std::cout << totals->cases << " cases, " << totals->passed << " passed, " << totals->failed
              << " failed, " << totals->deviating << " deviating, " << totals->skipped
              << " skipped; " << totals->findings << " distinct finding(s)\n";
    for (const StoredFinding& f : *findings) {
      std::cout << "#" << f.id << "  " << f.op << " " << f.type << "  " << f.kind << "  x"
                << f.count << "  first " << Time(f.first_seen) << ", last " << Time(f.last_seen)
                << "\n    " << f.summary << "\n    replay: " << f.replay << "\n";
    }
    return kExitOk;
  }
  if (action == "show" && words.size() == 2) {
    int64_t id = 0;
    if (!absl::SimpleAtoi(words[1], &id))
      return usage("show takes a finding's number, not '" + words[1] + "'");
    auto finding = (*store)->Finding(id);
    if (!finding.ok()) return usage(std::string(finding.status().message()));
    if (!*finding) return usage("no finding #" + words[1] + " in " + (*store)->path());
    const StoredFinding& f = **finding;
    std::cout << "#" << f.id << ": " << f.op << " " << f.type << ", " << f.kind << "\n"
              << "signature: " << f.signature << "\n"
              << "seen " << f.count << " time(s), first " << Time(f.first_seen)
              << " (campaign case " << f.first_unit << "), last " << Time(f.last_seen) << "\n"
              << f.summary << "\n"
              << f.details << "\nreplay: " << f.replay << "\ncommand: " << f.command << "\n\n"
              << f.reproducer << "\n";
    return kExitOk;
  }
  if (action == "export" && words.size() == 1) {
    nlohmann::json out = {{"schema", "hlocheck.findings"},
                          {"version", 1},
                          {"store", (*store)->path()},
                          {"totals",
                           {{"cases", totals->cases},
                            {"passed", totals->passed},
                            {"failed", totals->failed},
                            {"deviating", totals->deviating},
                            {"differs_from_convention", totals->differs_from_convention},
                            {"skipped", totals->skipped},
                            {"findings", totals->findings}}},
                          {"findings", nlohmann::json::array()}};
    if (auto campaign = (*store)->Campaign(); campaign.ok()) out["campaign"] = *campaign;
    for (const StoredFinding& f : *findings) out["findings"].push_back(FindingJson(f));
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  return usage("expected list, show ID or export (--help)");
}

}  // namespace hlocheck
