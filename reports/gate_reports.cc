#include "reports/gate_reports.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "reports/verdicts.h"

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
  if (g.check == "storage range") {
    return g.worst_ulp > 0 ? std::to_string(g.worst_ulp) + " storage steps outside the range"
                           : "storage in range";
  }
  if (g.check == "ulp") {
    std::string worst = g.worst_ulp < 0 ? "-" : std::to_string(g.worst_ulp);
    return worst + " ULP (allowed " + std::to_string(g.allowed_ulp) + ")";
  }
  return "-";
}

std::string IndexText(const std::vector<int64_t>& index) {
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i) text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

// The length of the well-formed UTF-8 sequence of a code point XML allows
// at the start of `text`, or 0.
size_t XmlCharLength(std::string_view text) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) {
    bool allowed = lead >= 0x20 ? lead != 0x7F : (lead == '\t' || lead == '\n' || lead == '\r');
    return allowed ? 1 : 0;
  }
  size_t length;
  uint32_t code;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;  // a continuation byte, an overlong lead (C0, C1) or beyond U+10FFFF
  }
  if (text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF) return 0;  // overlong, too large
  if ((code >= 0xD800 && code <= 0xDFFF) || code == 0xFFFE || code == 0xFFFF) return 0;
  return length;
}

}  // namespace

std::string FileNamePart(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '-';
    if (plain) {
      out += c;
    } else if (out.empty() || out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    switch (text[i]) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&apos;";
        ++i;
        continue;
      default:
        break;
    }
    size_t length = XmlCharLength(text.substr(i));
    if (length == 0) {
      out += "\uFFFD";  // one replacement character per byte XML cannot carry
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string ReproducerFileName(const Finding& f) {
  return "finding-" + FileNamePart(f.op) + "-" + FileNamePart(Name(f.type)) + ".mlir";
}

std::string FindingSummary(const Finding& f) {
  switch (f.kind) {
    case FindingKind::kMismatch:
      return std::to_string(f.mismatched_elements) + " element(s) differ from the oracle";
    case FindingKind::kWrongResultType:
      return f.message;
    case FindingKind::kBackendError:
      return "the backend failed on a valid case";
    case FindingKind::kBackendCrash:
      return "the backend crashed on a valid case (threw, or its process died)";
    case FindingKind::kBackendHang:
      return "the backend gave no answer within the case timeout on a valid case";
    case FindingKind::kOracleError:
      return "hlocheck's oracle failed (a hlocheck bug)";
    case FindingKind::kGeneratorError:
      return "hlocheck's case generator failed (a hlocheck bug)";
  }
  return f.message;
}

std::string FindingDetails(const Finding& f) {
  if (f.kind == FindingKind::kWrongResultType) return "";
  if (f.kind != FindingKind::kMismatch) return f.message.empty() ? "" : f.message + "\n";
  std::string details;
  for (const MismatchedElement& m : f.mismatches) {
    details += "result" + (f.results > 1 ? std::to_string(m.result) : "") + IndexText(m.index) +
               ": expected " + m.expected + ", got " + m.actual + "; allowed " + m.allowed + "\n";
  }
  return details;
}

std::string GroupLine(const GroupResult& g) {
  // DEV: no unexpected failure, but cases that only the backend's declared
  // deviations excuse.
  // CONV: nothing else, but answers that differ from the de facto
  // convention where the spec leaves the value open.
  std::string status = g.failed > 0 && !g.waiver.empty() ? "WAIVD"
                       : g.failed > 0                    ? "FAIL"
                       : g.deviating > 0                 ? "DEV"
                       : g.differs_from_convention > 0   ? "CONV"
                       : g.passed == 0 && g.skipped > 0  ? "SKIP"
                                                         : "ok";
  return Pad(status, 5) + Pad(g.op, kOpColumn) + Pad(std::string(Name(g.type)), 15) +
         Pad(std::to_string(g.cases), 7) + Pad(std::to_string(g.passed), 8) +
         Pad(std::to_string(g.failed), 8) + Pad(std::to_string(g.deviating), 10) +
         Pad(std::to_string(g.skipped), 9) + Pad(std::to_string(g.free_elements), 8) + Accuracy(g);
}

std::string ConsoleHeader() {
  return Pad("", 5) + Pad("op", kOpColumn) + Pad("type", 15) + Pad("cases", 7) + Pad("passed", 8) +
         Pad("failed", 8) + Pad("deviating", 10) + Pad("skipped", 9) + Pad("free", 8) + "accuracy";
}

void WriteConsoleTotals(const GateRun& run, std::ostream& out) {
  int64_t cases = run.total(&GroupResult::cases);
  int64_t failed = run.total(&GroupResult::failed);
  int64_t skipped = run.total(&GroupResult::skipped);
  out << run.groups.size() << " op/type groups, " << cases << " cases on backend '" << run.backend
      << "': " << run.total(&GroupResult::passed) << " passed, " << failed << " failed, ";
  if (const int64_t deviating = run.total(&GroupResult::deviating); deviating > 0) {
    out << deviating << " deviating as the backend's profile declares (not passes), ";
  }
  if (const int64_t conv = run.total(&GroupResult::differs_from_convention); conv > 0) {
    out << conv << " differing from the de facto convention only (not failures), ";
  }
  if (const int64_t batch_only = run.total(&GroupResult::batch_only_failures); batch_only > 0) {
    out << batch_only << " of the failures wrong only when batched with other cases, ";
  }
  if (const int64_t waived = CountFailures(run).waived_cases; waived > 0) {
    out << waived << " of the failures waived by the gate config, ";
  }
  if (const int64_t quantized = run.total(&GroupResult::quantized_cases); quantized > 0) {
    out << quantized << " of the cases quantized (" << run.total(&GroupResult::quantized_skipped)
        << " of them skipped), ";
  }
  out << skipped << " skipped (not runnable by the backend";
  if (const int64_t stopped = run.total(&GroupResult::not_run_after_backend_failures);
      stopped > 0) {
    out << "; " << stopped << " of them not run because the backend had failed every case of "
        << "their group before them";
  }
  out << "), " << run.total(&GroupResult::free_elements)
      << " elements left to the implementation by the spec; " << Fixed(run.seconds, 1) << " s\n";
  for (const std::string& expired : run.expired_waivers) {
    out << "EXPIRED WAIVER (fails the run): " << expired << "\n";
  }
}

// A replay runs on the CPU backend unless told otherwise.
std::string BackendFlag(const GateRun& run) {
  return run.backend.empty() || run.backend == "cpu" ? "" : "--backend " + run.backend + " ";
}

void WriteConsoleFindings(const GateRun& run, std::ostream& out) {
  for (const GroupResult& g : run.groups) {
    for (const Finding& f : g.findings) {
      out << "\n=== " << KindName(f.kind) << ": " << f.op << " " << Name(f.type) << " (case "
          << f.case_index << ")\n"
          << FindingSummary(f) << "\n"
          << FindingDetails(f);
      if (f.shrink_steps > 0 || f.original_elements > 0) {
        out << "shrunk in " << f.shrink_steps << " steps from " << f.original_elements << " to "
            << f.minimal_elements << " input elements\n";
      }
      out << "\n"
          << f.reproducer << "\n"
          << "replay:     build/hlocheck replay " << BackendFlag(run) << f.replay << "\n"
          << "reproduce:  " << f.command << "\n";
    }
  }
  // What the backend's declared deviations excused: shown, never passed.
  bool first = true;
  for (const GroupResult& g : run.groups) {
    if (g.deviating == 0) continue;
    if (first) out << "\n=== deviating as declared (the backend's profile; not passes)\n";
    first = false;
    out << g.op << " " << Name(g.type) << ": " << g.deviating << " case(s);";
    for (const auto& [id, elements] : g.excused)
      out << " " << id << " excused " << elements << " element(s);";
    out << " first: build/hlocheck replay " << BackendFlag(run) << g.deviation_replay << "\n";
  }
  // Where the spec leaves a value open but the interpreter and XLA agree:
  // shown, never counted as a spec violation.
  first = true;
  for (const GroupResult& g : run.groups) {
    if (g.convention_elements == 0) continue;
    if (first) {
      out << "\n=== differs from the de facto convention (values the spec leaves open; not "
             "failures)\n";
    }
    first = false;
    out << g.op << " " << Name(g.type) << ": " << g.convention_elements << " element(s) in "
        << g.differs_from_convention << " otherwise passing case(s); " << g.convention_example
        << "; first: build/hlocheck replay " << BackendFlag(run) << g.convention_replay << "\n";
  }
}

void WriteConsoleSummary(const GateRun& run, std::ostream& out) {
  out << ConsoleHeader() << "\n";
  for (const GroupResult& g : run.groups) out << GroupLine(g) << "\n";
  out << "\n";
  WriteConsoleTotals(run, out);
  WriteConsoleFindings(run, out);
}

std::string ProgressLine(int64_t groups_done, int64_t groups_total, int64_t cases_done,
                         double seconds) {
  std::string line =
      "[" + std::to_string(groups_done) + "/" + std::to_string(groups_total) + " groups] ";
  if (seconds <= 0 || groups_done == 0) return line + "starting";
  line += std::to_string(static_cast<int64_t>(cases_done / seconds)) + " cases/s";
  // Groups take about as long as each other (the same number of cases,
  // sizes swept alike), so the average so far estimates the rest.
  const int64_t eta = static_cast<int64_t>(seconds / groups_done * (groups_total - groups_done));
  char text[32];
  std::snprintf(text, sizeof(text), ", ETA %" PRId64 ":%02" PRId64, eta / 60, eta % 60);
  return line + text;
}

nlohmann::json DistanceHistogramToJson(const DistanceHistogram& histogram, bool bounded) {
  nlohmann::json buckets = nlohmann::json::array();
  for (int b = 0; b < DistanceHistogram::kUnmeasured; ++b) {
    if (histogram.count[b] == 0) continue;
    const double lower =
        bounded ? DistanceHistogram::FractionLower(b) : DistanceHistogram::UlpLower(b);
    const double upper =
        bounded ? DistanceHistogram::FractionUpper(b) : DistanceHistogram::UlpUpper(b);
    buckets.push_back(
        {{"above", lower},
         {"up_to", std::isinf(upper) ? nlohmann::json(nullptr) : nlohmann::json(upper)},
         {"elements", histogram.count[b]}});
  }
  return {{"unit", bounded ? "error/bound" : "ulp"},
          {"buckets", buckets},
          {"unmeasured", histogram.count[DistanceHistogram::kUnmeasured]}};
}

nlohmann::json GateRunToJson(const GateRun& run) {
  nlohmann::json groups = nlohmann::json::array();
  for (const GroupResult& g : run.groups) {
    nlohmann::json findings = nlohmann::json::array();
    for (const Finding& f : g.findings) {
      nlohmann::json mismatches = nlohmann::json::array();
      for (const MismatchedElement& m : f.mismatches) {
        mismatches.push_back(
            {{"result", m.result},
             {"index", m.index},
             {"expected", m.expected},
             {"actual", m.actual},
             {"allowed", m.allowed},
             {"ulp", m.ulp < 0 ? nlohmann::json(nullptr) : nlohmann::json(m.ulp)}});
      }
      findings.push_back({{"kind", KindName(f.kind)},
                          {"summary", FindingSummary(f)},
                          {"details", FindingDetails(f)},
                          {"message", f.message},
                          {"mismatched_elements", f.mismatched_elements},
                          {"mismatches", mismatches},
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
                            {"deviating", g.deviating},
                            {"skipped", g.skipped},
                            {"elements_compared", g.elements_compared},
                            {"free_elements", g.free_elements},
                            {"seconds", g.seconds},
                            {"findings", findings}};
    if (g.quantized_cases > 0) {
      group["quantized_cases"] = g.quantized_cases;
      group["quantized_skipped"] = g.quantized_skipped;
    }
    if (g.check == "ulp" || g.check == "storage range") {
      // No element compared (all of them free): there is no worst distance.
      group["worst_ulp"] = g.worst_ulp < 0 ? nlohmann::json(nullptr) : nlohmann::json(g.worst_ulp);
      group["allowed_ulp"] = g.allowed_ulp;
    }
    if (g.check == "bound") group["worst_error_over_bound"] = g.worst_bound_fraction;
    if (g.distances.total() > 0) {
      group["distance_histogram"] = DistanceHistogramToJson(g.distances, g.check == "bound");
    }
    if (!g.worst_replay.empty()) {
      group["worst_example"] = g.worst_example;
      group["worst_replay"] = g.worst_replay;
    }
    if (!g.skip_reason.empty()) group["skip_reason"] = g.skip_reason;
    if (!g.waiver.empty()) group["waiver"] = g.waiver;
    if (g.batch_only_failures > 0) group["batch_only_failures"] = g.batch_only_failures;
    if (!g.batch_only_replay.empty()) {
      group["batch_only_replay"] = g.batch_only_replay;
      group["batch_only_batch"] = g.batch_only_batch;
    }
    if (g.not_run_after_backend_failures > 0) {
      group["not_run_after_backend_failures"] = g.not_run_after_backend_failures;
    }
    if (g.convention_elements > 0) {
      group["differs_from_convention"] = g.differs_from_convention;
      group["convention_elements"] = g.convention_elements;
      group["convention_example"] = g.convention_example;
      group["convention_replay"] = g.convention_replay;
    }
    if (g.deviating > 0) {
      group["excused_elements"] = g.excused;
      group["deviation_replay"] = g.deviation_replay;
    }
    groups.push_back(std::move(group));
  }
  nlohmann::json report = {
      {"schema", "hlocheck.gate"},
      {"version", kReportSchemaVersion},
      {"backend", run.backend},
      {"profile", run.profile},
      {"hlocheck_version", run.hlocheck_version},
      {"spec_digest", run.spec_digest},
      {"started_at", run.started_at},
      {"max_elements", run.max_elements},
      {"seed", run.seed},
      {"cases_per_group", run.cases_per_group},
      {"command_line", run.command_line},
      {"seconds", run.seconds},
      {"totals",
       {{"groups", run.groups.size()},
        {"cases", run.total(&GroupResult::cases)},
        {"passed", run.total(&GroupResult::passed)},
        {"failed", run.total(&GroupResult::failed)},
        {"deviating", run.total(&GroupResult::deviating)},
        {"differs_from_convention", run.total(&GroupResult::differs_from_convention)},
        {"skipped", run.total(&GroupResult::skipped)},
        {"quantized_cases", run.total(&GroupResult::quantized_cases)},
        {"quantized_skipped", run.total(&GroupResult::quantized_skipped)},
        {"free_elements", run.total(&GroupResult::free_elements)}}},
      {"groups", groups}};
  if (!run.expired_waivers.empty()) report["expired_waivers"] = run.expired_waivers;
  if (run.shard_total > 1) {
    report["shard"] = {
        {"index", run.shard_index}, {"total", run.shard_total}, {"plan_groups", run.plan_groups}};
  }
  return report;
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
      if (g->failed > 0 && !g->waiver.empty()) {
        xml << "      <skipped message=\"" << XmlEscape("waived: " + g->waiver) << "\"/>\n";
      } else if (g->failed > 0 && !g->findings.empty()) {
        const Finding& f = g->findings.front();
        const std::string kind = KindName(f.kind);
        xml << "      <failure message=\"" << XmlEscape(kind + ": " + FindingSummary(f))
            << "\" type=\"" << XmlEscape(kind) << "\">"
            << XmlEscape(FindingDetails(f) + "\n" + f.reproducer + "\nreplay: " + f.replay)
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
