// The Markdown summary: what a CI step summary (GitHub's
// $GITHUB_STEP_SUMMARY, GitLab's and others' Markdown panes) shows of a
// run: the headline numbers, the unexpected findings with their replay
// commands, and the changes since a baseline.
#include <string>
#include <string_view>

#include "reports/gate_reports.h"
#include "reports/html_internal.h"
#include "reports/html_report.h"

namespace hlocheck {
namespace {

using html::Count;

// Text for a table cell: '|' escaped, newlines as spaces, bounded length.
std::string Cell(std::string_view text, size_t limit = 160) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
    if (out.size() >= limit) {
      out += "...";
      break;
    }
  }
  return out;
}

// Inline code that survives any backticks inside.
std::string Code(const std::string& text) {
  const std::string fence = text.find('`') == std::string::npos ? "`" : "`` ";
  const std::string close = fence == "`" ? "`" : " ``";
  return fence + Cell(text, 400) + close;
}

// Enough to see what failed without drowning the summary.
constexpr int kMaxListed = 30;

}  // namespace

std::string RenderMarkdownSummary(const ReportInputs& in) {
  std::string md;
  if (in.run != nullptr) {
    const GateRun& run = *in.run;
    const FailureCounts counts = CountFailures(run);
    const int64_t failing_groups = counts.groups;
    const int64_t failed = counts.cases;
    md += run.failed() ? "## hlocheck gate FAILED on " + run.backend + "\n\n**" + Count(failed) +
                             " unexpected failure(s)** in " + Count(failing_groups) + " of " +
                             Count(run.groups.size()) + " op x type groups"
                       : "## hlocheck gate passed on " + run.backend + "\n\n" +
                             Count(run.groups.size()) + " op x type groups";
    md += " · " + Count(run.total(&GroupResult::cases)) + " cases · seed " +
          std::to_string(run.seed) + " · " + html::Duration(run.seconds) + "\n\n";
    md +=
        "| cases | passed | failed | deviating (declared) | differ from convention | skipped |\n"
        "|---:|---:|---:|---:|---:|---:|\n";
    md += "| " + Count(run.total(&GroupResult::cases)) + " | " +
          Count(run.total(&GroupResult::passed)) + " | " + Count(run.total(&GroupResult::failed)) +
          " | " + Count(run.total(&GroupResult::deviating)) + " | " +
          Count(run.total(&GroupResult::differs_from_convention)) + " | " +
          Count(run.total(&GroupResult::skipped)) + " |\n\n";
    for (const std::string& expired : run.expired_waivers) {
      md += "**Expired waiver** (fails the run): " + Cell(expired, 400) + "\n\n";
    }
    if (failed > 0) {
      md +=
          "### Unexpected failures\n\n| op | type | kind | what | replay "
          "|\n|---|---|---|---|---|\n";
      int listed = 0;
      for (const GroupResult& g : run.groups) {
        if (g.failed == 0 || !g.waiver.empty()) continue;
        if (listed++ == kMaxListed) {
          md += "\n... and " + Count(failing_groups - kMaxListed) +
                " more failing group(s): see report.html.\n";
          break;
        }
        const Finding* f = g.findings.empty() ? nullptr : &g.findings.front();
        md += "| " + Cell(g.op) + " | " + Cell(Name(g.type)) + " | " +
              (f ? Cell(KindName(f->kind)) : "") + " | " +
              (f ? Cell(FindingSummary(*f)) : Count(g.failed) + " failed") + " | " +
              (f && !f->replay.empty()
                   ? Code("build/hlocheck replay --backend " + run.backend + " " + f->replay)
                   : "") +
              " |\n";
      }
      md += "\n";
    }
    md += "Reproduce: " + Code(run.command_line) + " (hlocheck " + run.hlocheck_version +
          ", spec " + run.spec_digest + ")\n\n";
  }
  if (in.comparison != nullptr) {
    const RunComparison& c = *in.comparison;
    md += "### Changes since the baseline\n\n";
    md += Count(c.count(GroupChange::Kind::kNewFailure)) + " new failure(s), " +
          Count(c.count(GroupChange::Kind::kFixed)) + " fixed, " +
          Count(c.count(GroupChange::Kind::kBoundRegression)) + " bound regression(s) against " +
          Code(c.baseline_file) + ".\n\n";
    for (const std::string& caveat : c.caveats) md += "Note: " + caveat + ".\n\n";
    int listed = 0;
    for (const GroupChange& change : c.changes) {
      if (listed++ == kMaxListed) {
        md += "- ... and " + Count(static_cast<int64_t>(c.changes.size()) - kMaxListed) + " more\n";
        break;
      }
      md += "- **" + std::string(ChangeName(change.kind)) + "** " + change.op + " " +
            std::string(Name(change.type)) + ": " + Cell(change.detail) + "\n";
    }
    if (!c.changes.empty()) md += "\n";
  }
  if (in.campaign != nullptr) {
    const CampaignReport& c = *in.campaign;
    const auto backend = c.settings.find("backend");
    md += "### Campaign" +
          (backend == c.settings.end() ? std::string() : " on " + backend->second) + "\n\n" +
          Count(c.totals.cases) + " cases, " + Count(c.totals.failed) + " failed, " +
          Count(c.totals.findings) + " distinct finding(s)\n\n";
    if (!c.findings.empty()) {
      md += "| # | op | type | kind | count | what | replay |\n|---:|---|---|---|---:|---|---|\n";
      int listed = 0;
      for (const StoredFinding& f : c.findings) {
        if (listed++ == kMaxListed) {
          md += "\n... and " + Count(static_cast<int64_t>(c.findings.size()) - kMaxListed) +
                " more: see report.html.\n";
          break;
        }
        md +=
            "| " + std::to_string(f.id) + " | " + Cell(f.op) + " | " + Cell(f.type) + " | " +
            Cell(f.kind) + " | " + Count(f.count) + " | " + Cell(f.summary) + " | " +
            Code("build/hlocheck replay --backend " +
                 (backend == c.settings.end() ? std::string() : backend->second) + " " + f.replay) +
            " |\n";
      }
      md += "\n";
    }
  }
  if (in.coverage != nullptr) {
    int64_t constraints = 0, exercised = 0, untaken = 0;
    for (const OpCoverage& op : in.coverage->ops) {
      for (const ConstraintCoverage& c : op.constraints) {
        ++constraints;
        exercised += c.held > 0;
        if (c.conditional) untaken += (c.held == 0) + (c.not_applicable == 0);
      }
    }
    md += "### Spec coverage\n\n" + Count(exercised) + " of " + Count(constraints) +
          " constraints held in valid cases; " + Count(untaken) +
          " conditional branch(es) never taken.\n";
  }
  return md;
}

}  // namespace hlocheck
