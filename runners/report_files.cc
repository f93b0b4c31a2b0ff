#include "runners/report_files.h"

#include <filesystem>
#include <fstream>

#include "runners/version.h"

namespace hlocheck {
namespace {

absl::Status WriteText(const std::string& path, const std::string& text) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ignored;
    std::filesystem::create_directories(parent, ignored);
  }
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) return absl::InvalidArgumentError(path + ": cannot write");
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteHtmlAndSummary(ReportInputs inputs, const std::string& html_path,
                                 const std::string& markdown_path) {
  inputs.writer_version = HlocheckVersion();
  if (inputs.registry == nullptr) {
    // Without the spec the coverage cells show ids alone: still a report.
    auto registry = spec::DefaultRegistry();
    if (registry.ok()) inputs.registry = *registry;
  }
  if (auto s = WriteText(html_path, RenderHtmlReport(inputs)); !s.ok()) return s;
  if (!markdown_path.empty()) return WriteText(markdown_path, RenderMarkdownSummary(inputs));
  return absl::OkStatus();
}

}  // namespace hlocheck
