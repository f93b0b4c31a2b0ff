// Writers for a gate run: the console summary, report.json and junit.xml.
#ifndef HLOCHECK_REPORTS_GATE_REPORTS_H_
#define HLOCHECK_REPORTS_GATE_REPORTS_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "reports/gate_result.h"

namespace hlocheck {

// A table per op and type (cases, passed, failed, skipped, worst ULP against
// the allowed bound), then every finding with its reproducer.
void WriteConsoleSummary(const GateRun& run, std::ostream& out);

// One line per finished group, for progress output.
std::string GroupLine(const GroupResult& group);

// The JSON report, schema "hlocheck.gate" version kReportSchemaVersion
// (docs/report-format.md).
nlohmann::json GateRunToJson(const GateRun& run);

// JUnit XML: one testsuite per op, one testcase per element type.
std::string GateRunToJunit(const GateRun& run);

// Writes report.json, junit.xml and one reproducer .mlir per finding into
// `directory` (created if needed).
absl::Status WriteReportFiles(const GateRun& run, const std::string& directory);

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_GATE_REPORTS_H_
