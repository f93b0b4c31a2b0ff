// Writers for a gate run: the console table (streamed a line per group),
// the progress line, report.json, junit.xml and the reproducer files. The
// gate hands over data (gate_result.h); every word a reader sees is chosen here.
#ifndef HLOCHECK_REPORTS_GATE_REPORTS_H_
#define HLOCHECK_REPORTS_GATE_REPORTS_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "reports/gate_result.h"

namespace hlocheck {

// One line that says what failed; then the mismatching elements or the
// failing stage's message, a line each.
std::string FindingSummary(const Finding& finding);
std::string FindingDetails(const Finding& finding);

// The console table: its header, one line per group (written as each group
// finishes), then the totals and every finding with its reproducer.
std::string ConsoleHeader();
std::string GroupLine(const GroupResult& group);
void WriteConsoleTotals(const GateRun& run, std::ostream& out);
void WriteConsoleFindings(const GateRun& run, std::ostream& out);
// All of the above at once.
void WriteConsoleSummary(const GateRun& run, std::ostream& out);

// "[3/20 groups] 850 cases/s, ETA 0:42", for a terminal's progress line.
std::string ProgressLine(int64_t groups_done, int64_t groups_total, int64_t cases_done,
                         double seconds);

// A group's distances as report.json writes them: the non-empty buckets,
// each {"above": L, "up_to": U, "elements": N} for distances in (L, U]
// (the zero bucket is above 0 up to 0; the last has up_to null), in ULPs or
// as |error| / bound, and the count of elements with no distance.
nlohmann::json DistanceHistogramToJson(const DistanceHistogram& histogram, bool bounded);

// The JSON report, schema "hlocheck.gate" version kReportSchemaVersion
// (docs/report-format.md).
nlohmann::json GateRunToJson(const GateRun& run);

// Text made safe for XML 1.0 character data and attribute values: markup
// characters become entities; control characters XML forbids (all below
// 0x20 but tab, newline and carriage return, and DEL), code points it
// forbids, and bytes that are not UTF-8 become U+FFFD.
std::string XmlEscape(std::string_view text);

// JUnit XML: one testsuite per op, one testcase per element type.
std::string GateRunToJunit(const GateRun& run);

// A name part of a file name or an HTML anchor: runs of anything but
// letters, digits, '.', '_' and '-' become one '_', none at the end.
std::string FileNamePart(std::string_view text);

// "finding-OP-TYPE.mlir" with only letters, digits, '.', '_' and '-':
// complex<f32> is written complex_f32, so a shell needs no quotes.
std::string ReproducerFileName(const Finding& finding);

// Writes report.json, junit.xml and one reproducer .mlir per finding into
// `directory` (created if needed).
absl::Status WriteReportFiles(const GateRun& run, const std::string& directory);

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_GATE_REPORTS_H_
