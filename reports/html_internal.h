// Pieces the HTML report's sections share (reports/html_*.cc only).
#ifndef HLOCHECK_REPORTS_HTML_INTERNAL_H_
#define HLOCHECK_REPORTS_HTML_INTERNAL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "reports/campaign_result.h"
#include "reports/coverage_result.h"
#include "reports/gate_result.h"
#include "spec/registry.h"

namespace hlocheck::html {

// Text made safe for HTML content and quoted attribute values.
std::string Escape(std::string_view text);
// 1234567 -> "1,234,567"; Compact: "1.2M", "12k", "950".
std::string Count(int64_t n);
std::string Compact(int64_t n);
// Seconds as "0.4 s", "3 min 12 s", "2 h 5 min".
std::string Duration(double seconds);

// The distances of a group as an inline SVG bar chart (log-scaled counts),
// with the allowed bound marked.
std::string HistogramSvg(const GroupResult& group);

// The op x constraint heatmap and its totals.
std::string CoverageSection(const CoverageReport& coverage, const std::string& file,
                            const spec::SpecRegistry* registry);

// A fuzzing campaign: totals, counts over time, its distinct findings.
std::string CampaignSection(const CampaignReport& campaign);

}  // namespace hlocheck::html

#endif  // HLOCHECK_REPORTS_HTML_INTERNAL_H_
