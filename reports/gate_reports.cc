#include "reports/gate_reports.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace hlocheck {
namespace {

// Wide enough for the longest op names (dynamic_update_slice,
// optimization_barrier): the lines are streamed, so the width is fixed.
constexpr size_t kOpColumn = 22;

// At least one space follows the text, however long.
std::string Pad(std::string text, size_t width) {
  text.append(text.size() < width ? width - text.size() : 1, ' ');
  return text;
}

std::string Fixed(double value, int digits) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
  return buffer;
}

// How close the results came to the allowed error, in words for the table.
std::string Accuracy(const GroupResult& g) {
  if (g.check == "exact") return "bit-exact";
  if (g.check == "bound") return "error <= " + Fixed(g.worst_bound_fraction, 3) + " x bound";
  if (g.check == "ulp") {
    std::string worst = g.worst_ulp < 0 ? "-" : std::to_string(g.worst_ulp);
    return worst + " ULP (allowed " + std::to_string(g.allowed_ulp) + ")";
  }
  return "-";
}

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string ReproducerFileName(const Finding& f) {
  return "finding-" + f.op + "-" + std::string(Name(f.type)) + ".mlir";
}

}  // namespace

std::string GroupLine(const GroupResult& g) {
  std::string status = g.failed > 0 ? "FAIL" : (g.passed == 0 && g.skipped > 0 ? "SKIP" : "ok");
  return Pad(status, 5) + Pad(g.op, kOpColumn) + Pad(std::string(Name(g.type)), 15) +
         Pad(std::to_string(g.cases), 7) + Pad(std::to_string(g.passed), 8) +
         Pad(std::to_string(g.failed), 8) + Pad(std::to_string(g.skipped), 9) +
         Pad(std::to_string(g.free_elements), 8) + Accuracy(g);
}

void WriteConsoleSummary(const GateRun& run, std::ostream& out) {
  out << Pad("", 5) << Pad("op", kOpColumn) << Pad("type", 15) << Pad("cases", 7)
      << Pad("passed", 8) << Pad("failed", 8) << Pad("skipped", 9) << Pad("free", 8)
      << "accuracy\n";
  for (const GroupResult& g : run.groups) out << GroupLine(g) << "\n";
  int64_t cases = run.total(&GroupResult::cases);
  int64_t failed = run.total(&GroupResult::failed);
  int64_t skipped = run.total(&GroupResult::skipped);
  out << "\n"
      << run.groups.size() << " op/type groups, " << cases << " cases on backend '" << run.backend
      << "': " << run.total(&GroupResult::passed) << " passed, " << failed << " failed, " << skipped
      << " skipped (not runnable by the backend), " << run.total(&GroupResult::free_elements)
      << " elements left to the implementation by the spec; " << Fixed(run.seconds, 1) << " s\n";
  for (const GroupResult& g : run.groups) {
    for (const Finding& f : g.findings) {
      out << "\n=== " << f.kind << ": " << f.op << " " << Name(f.type) << " (case " << f.case_index
          << ")\n"
          << f.summary << "\n"
          << f.details;
      if (f.shrink_steps > 0 || f.original_elements > 0) {
        out << "shrunk in " << f.shrink_steps << " steps from " << f.original_elements << " to "
            << f.minimal_elements << " input elements\n";
      }
      out << "\n"
          << f.reproducer << "\n"
          << "replay:     build/hlocheck replay " << f.replay << "\n"
          << "reproduce:  " << f.command << "\n";
    }
  }
}

nlohmann::json GateRunToJson(const GateRun& run) {
  nlohmann::json groups = nlohmann::json::array();
  for (const GroupResult& g : run.groups) {
    nlohmann::json findings = nlohmann::json::array();
    for (const Finding& f : g.findings) {
      findings.push_back({{"kind", f.kind},
                          {"summary", f.summary},
                          {"details", f.details},
                          {"reproducer", f.reproducer},
                          {"replay", f.replay},
                          {"command", f.command},
                          {"case_index", f.case_index},
                          {"original_input_elements", f.original_elements},
                          {"minimal_input_elements", f.minimal_elements},
                          {"shrink_steps", f.shrink_steps}});
    }
    nlohmann::json group = {{"op", g.op},
                            {"element_type", std::string(Name(g.type))},
                            {"check", g.check},
                            {"cases", g.cases},
                            {"passed", g.passed},
                            {"failed", g.failed},
                            {"skipped", g.skipped},
                            {"elements_compared", g.elements_compared},
                            {"free_elements", g.free_elements},
                            {"seconds", g.seconds},
                            {"findings", findings}};
    if (g.check == "ulp") {
      // No element compared (all of them free): there is no worst distance.
      group["worst_ulp"] = g.worst_ulp < 0 ? nlohmann::json(nullptr) : nlohmann::json(g.worst_ulp);
      group["allowed_ulp"] = g.allowed_ulp;
    }
    if (g.check == "bound") group["worst_error_over_bound"] = g.worst_bound_fraction;
    if (!g.skip_reason.empty()) group["skip_reason"] = g.skip_reason;
    groups.push_back(std::move(group));
  }
  return {{"schema", "hlocheck.gate"},
          {"version", kReportSchemaVersion},
          {"backend", run.backend},
          {"seed", run.seed},
          {"cases_per_group", run.cases_per_group},
          {"command_line", run.command_line},
          {"seconds", run.seconds},
          {"totals",
           {{"groups", run.groups.size()},
            {"cases", run.total(&GroupResult::cases)},
            {"passed", run.total(&GroupResult::passed)},
            {"failed", run.total(&GroupResult::failed)},
            {"skipped", run.total(&GroupResult::skipped)},
            {"free_elements", run.total(&GroupResult::free_elements)}}},
          {"groups", groups}};
}

std::string GateRunToJunit(const GateRun& run) {
  std::map<std::string, std::vector<const GroupResult*>> by_op;
  for (const GroupResult& g : run.groups) by_op[g.op].push_back(&g);
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml << "<testsuites name=\"hlocheck gate (" << XmlEscape(run.backend) << ")\" tests=\""
      << run.groups.size() << "\" failures=\""
      << std::count_if(run.groups.begin(), run.groups.end(),
                       [](const GroupResult& g) { return g.failed > 0; })
      << "\" time=\"" << Fixed(run.seconds, 3) << "\">\n";
  for (const auto& [op, groups] : by_op) {
    int failures = 0;
    int skipped = 0;
    double seconds = 0;
    for (const GroupResult* g : groups) {
      failures += g->failed > 0;
      skipped += g->failed == 0 && g->passed == 0 && g->skipped > 0;
      seconds += g->seconds;
    }
    xml << "  <testsuite name=\"" << XmlEscape(op) << "\" tests=\"" << groups.size()
        << "\" failures=\"" << failures << "\" skipped=\"" << skipped << "\" time=\""
        << Fixed(seconds, 3) << "\">\n";
    for (const GroupResult* g : groups) {
      xml << "    <testcase classname=\"" << XmlEscape(op) << "\" name=\""
          << XmlEscape(std::string(Name(g->type))) << "\" time=\"" << Fixed(g->seconds, 3)
          << "\">\n";
      if (g->failed > 0 && !g->findings.empty()) {
        const Finding& f = g->findings.front();
        xml << "      <failure message=\"" << XmlEscape(f.kind + ": " + f.summary) << "\" type=\""
            << XmlEscape(f.kind) << "\">"
            << XmlEscape(f.details + "\n" + f.reproducer + "\nreplay: " + f.replay)
            << "</failure>\n";
      } else if (g->failed == 0 && g->passed == 0 && g->skipped > 0) {
        xml << "      <skipped message=\"" << XmlEscape(g->skip_reason) << "\"/>\n";
      }
      xml << "      <system-out>" << XmlEscape(GroupLine(*g)) << "</system-out>\n";
      xml << "    </testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  return xml.str();
}

absl::Status WriteReportFiles(const GateRun& run, const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return absl::InvalidArgumentError(directory + ": cannot create: " + error.message());
  auto write = [&](const std::string& name, const std::string& text) -> absl::Status {
    std::string path = (std::filesystem::path(directory) / name).string();
    std::ofstream out(path);
    out << text;
    if (!out) return absl::InternalError(path + ": cannot write");
    return absl::OkStatus();
  };
  if (auto s = write("report.json", GateRunToJson(run).dump(2) + "\n"); !s.ok()) return s;
  if (auto s = write("junit.xml", GateRunToJunit(run)); !s.ok()) return s;
  for (const GroupResult& g : run.groups) {
    for (const Finding& f : g.findings) {
      if (auto s = write(ReproducerFileName(f), f.reproducer); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace hlocheck
