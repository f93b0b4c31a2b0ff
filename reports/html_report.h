// The report people look at: one self-contained HTML file (no network, no
// external scripts, styles or fonts) of a gate run, its spec coverage and
// its comparison with a baseline; and the Markdown summary CI step
// summaries show. `hlocheck report` writes them; `run` and `coverage`
// write the HTML next to their JSON by default (docs/report-format.md).
#ifndef HLOCHECK_REPORTS_HTML_REPORT_H_
#define HLOCHECK_REPORTS_HTML_REPORT_H_

#include <string>

#include "core/element_type.h"
#include "reports/campaign_result.h"
#include "reports/coverage_result.h"
#include "reports/gate_result.h"
#include "reports/verdicts.h"
#include "spec/registry.h"

namespace hlocheck {

// What a report shows; each part may be absent (null).
struct ReportInputs {
  const GateRun* run = nullptr;  // report.json
  std::string run_file;
  const CoverageReport* coverage = nullptr;  // coverage.json
  std::string coverage_file;
  const RunComparison* comparison = nullptr;  // against --baseline
  const CampaignReport* campaign = nullptr;   // a findings store
  // The constraints' English text and formulas for the coverage tooltips;
  // null: their ids alone.
  const spec::SpecRegistry* registry = nullptr;
  std::string writer_version;  // the hlocheck that writes the report
};

std::string RenderHtmlReport(const ReportInputs& inputs);
std::string RenderMarkdownSummary(const ReportInputs& inputs);

// The HTML anchors of a group's details and of its finding:
// "g-add-complex_f32", "f-add-complex_f32".
std::string GroupAnchor(const std::string& op, ElementType type);
std::string FindingAnchor(const std::string& op, ElementType type);

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_HTML_REPORT_H_
