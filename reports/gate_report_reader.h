// Reads a report.json back into the GateRun it was written from, so that
// `hlocheck report` can render, and compare with a baseline, any run's
// report, including one written by an earlier version of the schema.
#ifndef HLOCHECK_REPORTS_GATE_REPORT_READER_H_
#define HLOCHECK_REPORTS_GATE_REPORT_READER_H_

#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "reports/gate_result.h"

namespace hlocheck {

// `json` as GateRunToJson writes it (versions 1 to kReportSchemaVersion;
// fields a version lacks stay at their defaults). An error names `file`,
// the field's path ("groups[3].cases") and what was expected there.
absl::StatusOr<GateRun> GateRunFromJson(const nlohmann::json& json, const std::string& file);

// Reads and parses `path` (a JSON syntax error names its line and column).
absl::StatusOr<nlohmann::json> ReadJsonFile(const std::string& path);

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_GATE_REPORT_READER_H_
