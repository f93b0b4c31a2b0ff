// Writing the HTML report and the Markdown summary to files, for `report`
// and for the commands that write them beside their JSON (`run`, `coverage`).
#ifndef HLOCHECK_RUNNERS_REPORT_FILES_H_
#define HLOCHECK_RUNNERS_REPORT_FILES_H_

#include <string>

#include "absl/status/status.h"
#include "reports/html_report.h"

namespace hlocheck {

// Renders `inputs` (with this hlocheck's version and, when the spec loads,
// the constraints' words) into `html_path`, and into `markdown_path` as
// Markdown unless it is empty. An error names the file it could not write.
absl::Status WriteHtmlAndSummary(ReportInputs inputs, const std::string& html_path,
                                 const std::string& markdown_path);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_REPORT_FILES_H_
