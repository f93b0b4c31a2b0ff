#include "reports/gate_report_reader.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "reports/json_fields.h"

namespace hlocheck {
namespace {

using json = nlohmann::json;

absl::StatusOr<FindingKind> ParseKind(const std::string& name) {
  for (FindingKind kind :
       {FindingKind::kMismatch, FindingKind::kWrongResultType, FindingKind::kBackendError,
        FindingKind::kBackendCrash, FindingKind::kBackendHang, FindingKind::kOracleError,
        FindingKind::kGeneratorError}) {
    if (name == KindName(kind)) return kind;
  }
  if (name == "internal error") return FindingKind::kOracleError;  // version 1's word
  return absl::InvalidArgumentError("unknown finding kind '" + name + "'");
}

absl::Status ReadMismatch(const JsonFields& f, Finding& finding) {
  MismatchedElement m;
  int64_t result = 0;
  HLOCHECK_RETURN_IF_ERROR(f.Integer("result", result));
  m.result = static_cast<int>(result);
  if (const json* index = f.Find("index"); index != nullptr) {
    if (!index->is_array()) return f.Error("index", "an array of integers");
    for (const json& i : *index) {
      if (!i.is_number_integer()) return f.Error("index", "an array of integers");
      m.index.push_back(i.get<int64_t>());
    }
  }
  HLOCHECK_RETURN_IF_ERROR(f.String("expected", m.expected));
  HLOCHECK_RETURN_IF_ERROR(f.String("actual", m.actual));
  HLOCHECK_RETURN_IF_ERROR(f.String("allowed", m.allowed));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("ulp", m.ulp));
  finding.mismatches.push_back(std::move(m));
  return absl::OkStatus();
}

absl::Status ReadFinding(const JsonFields& f, GroupResult& group) {
  Finding finding;
  finding.op = group.op;
  finding.type = group.type;
  std::string kind;
  HLOCHECK_RETURN_IF_ERROR(f.String("kind", kind, /*required=*/true));
  auto parsed = ParseKind(kind);
  if (!parsed.ok()) return f.Error("kind", "a finding kind, not '" + kind + "'");
  finding.kind = *parsed;
  HLOCHECK_RETURN_IF_ERROR(f.String("message", finding.message));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("mismatched_elements", finding.mismatched_elements));
  HLOCHECK_RETURN_IF_ERROR(
      f.Objects("mismatches", [&](const JsonFields& m) { return ReadMismatch(m, finding); }));
  for (const MismatchedElement& m : finding.mismatches) {
    finding.results = std::max(finding.results, m.result + 1);
  }
  HLOCHECK_RETURN_IF_ERROR(f.String("reproducer", finding.reproducer));
  HLOCHECK_RETURN_IF_ERROR(f.String("replay", finding.replay));
  HLOCHECK_RETURN_IF_ERROR(f.String("command", finding.command));
  int64_t case_index = 0;
  int64_t shrink_steps = 0;
  HLOCHECK_RETURN_IF_ERROR(f.Integer("case_index", case_index));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("shrink_steps", shrink_steps));
  finding.case_index = static_cast<int>(case_index);
  finding.shrink_steps = static_cast<int>(shrink_steps);
  HLOCHECK_RETURN_IF_ERROR(f.Integer("original_input_elements", finding.original_elements));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("minimal_input_elements", finding.minimal_elements));
  group.findings.push_back(std::move(finding));
  return absl::OkStatus();
}

// The buckets DistanceHistogramToJson wrote, put back by their upper edge.
absl::Status ReadHistogram(const JsonFields& f, GroupResult& group) {
  std::string unit;
  HLOCHECK_RETURN_IF_ERROR(f.String("unit", unit));
  if (unit != "ulp" && unit != "error/bound") return f.Error("unit", "\"ulp\" or \"error/bound\"");
  const bool bounded = unit == "error/bound";
  HLOCHECK_RETURN_IF_ERROR(
      f.Integer("unmeasured", group.distances.count[DistanceHistogram::kUnmeasured]));
  return f.Objects("buckets", [&](const JsonFields& b) -> absl::Status {
    double up_to = INFINITY;
    HLOCHECK_RETURN_IF_ERROR(b.Number("up_to", up_to));
    int64_t elements = 0;
    HLOCHECK_RETURN_IF_ERROR(b.Integer("elements", elements, /*required=*/true));
    int bucket = DistanceHistogram::kBeyond;
    if (std::isfinite(up_to)) {
      bucket = bounded ? DistanceHistogram::FractionBucket(up_to)
                       : DistanceHistogram::UlpBucket(static_cast<int64_t>(up_to));
    }
    group.distances.count[bucket] += elements;
    return absl::OkStatus();
  });
}

absl::Status ReadGroup(const JsonFields& f, GateRun& run) {
  GroupResult g;
  HLOCHECK_RETURN_IF_ERROR(f.String("op", g.op, /*required=*/true));
  std::string type;
  HLOCHECK_RETURN_IF_ERROR(f.String("element_type", type, /*required=*/true));
  auto parsed = ParseElementType(type);
  if (!parsed) return f.Error("element_type", "an element type, not '" + type + "'");
  g.type = *parsed;
  HLOCHECK_RETURN_IF_ERROR(f.String("check", g.check));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("cases", g.cases, /*required=*/true));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("passed", g.passed, /*required=*/true));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("failed", g.failed, /*required=*/true));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("deviating", g.deviating));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("skipped", g.skipped));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("quantized_cases", g.quantized_cases));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("quantized_skipped", g.quantized_skipped));
  HLOCHECK_RETURN_IF_ERROR(f.String("skip_reason", g.skip_reason));
  HLOCHECK_RETURN_IF_ERROR(f.String("waiver", g.waiver));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("elements_compared", g.elements_compared));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("free_elements", g.free_elements));
  HLOCHECK_RETURN_IF_ERROR(f.Number("seconds", g.seconds));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("worst_ulp", g.worst_ulp));
  int64_t allowed_ulp = 0;
  HLOCHECK_RETURN_IF_ERROR(f.Integer("allowed_ulp", allowed_ulp));
  g.allowed_ulp = static_cast<int>(allowed_ulp);
  if (g.check == "bound") {
    // Written as null when infinite (an element off where its bound is 0).
    g.worst_bound_fraction = f.Has("worst_error_over_bound") ? 0 : INFINITY;
    HLOCHECK_RETURN_IF_ERROR(f.Number("worst_error_over_bound", g.worst_bound_fraction));
  }
  HLOCHECK_RETURN_IF_ERROR(f.String("worst_example", g.worst_example));
  HLOCHECK_RETURN_IF_ERROR(f.String("worst_replay", g.worst_replay));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("batch_only_failures", g.batch_only_failures));
  HLOCHECK_RETURN_IF_ERROR(f.String("batch_only_replay", g.batch_only_replay));
  HLOCHECK_RETURN_IF_ERROR(
      f.Integer("not_run_after_backend_failures", g.not_run_after_backend_failures));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("differs_from_convention", g.differs_from_convention));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("convention_elements", g.convention_elements));
  HLOCHECK_RETURN_IF_ERROR(f.String("convention_example", g.convention_example));
  HLOCHECK_RETURN_IF_ERROR(f.String("convention_replay", g.convention_replay));
  HLOCHECK_RETURN_IF_ERROR(f.String("deviation_replay", g.deviation_replay));
  if (const json* excused = f.Find("excused_elements"); excused != nullptr) {
    if (!excused->is_object()) return f.Error("excused_elements", "an object of integers");
    for (const auto& [id, count] : excused->items()) {
      if (!count.is_number_integer()) return f.Error("excused_elements", "an object of integers");
      g.excused[id] = count.get<int64_t>();
    }
  }
  if (const json* histogram = f.Find("distance_histogram"); histogram != nullptr) {
    if (!histogram->is_object()) return f.Error("distance_histogram", "an object");
    HLOCHECK_RETURN_IF_ERROR(
        ReadHistogram(JsonFields(*histogram, f.file(), f.Path("distance_histogram")), g));
  }
  HLOCHECK_RETURN_IF_ERROR(
      f.Objects("findings", [&](const JsonFields& x) { return ReadFinding(x, g); }));
  run.groups.push_back(std::move(g));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<GateRun> GateRunFromJson(const json& report, const std::string& file) {
  if (!report.is_object()) {
    return absl::InvalidArgumentError(file + ": expected a JSON object (a report.json)");
  }
  JsonFields f(report, file, "");
  std::string schema;
  HLOCHECK_RETURN_IF_ERROR(f.String("schema", schema, /*required=*/true));
  if (schema != "hlocheck.gate") {
    return f.Error("schema",
                   "\"hlocheck.gate\" (a report.json of hlocheck run), not \"" + schema + "\"");
  }
  int64_t version = 0;
  HLOCHECK_RETURN_IF_ERROR(f.Integer("version", version, /*required=*/true));
  if (version < 1 || version > kReportSchemaVersion) {
    return f.Error("version", "1 to " + std::to_string(kReportSchemaVersion) + ", not " +
                                  std::to_string(version) + " (written by a newer hlocheck?)");
  }
  GateRun run;
  HLOCHECK_RETURN_IF_ERROR(f.String("backend", run.backend, /*required=*/true));
  HLOCHECK_RETURN_IF_ERROR(f.String("profile", run.profile));
  // Reports from before the field: whether a profile applied is unknown
  // (an empty one would read as "none").
  if (!f.Has("profile")) run.profile = "(not recorded)";
  HLOCHECK_RETURN_IF_ERROR(f.String("hlocheck_version", run.hlocheck_version));
  HLOCHECK_RETURN_IF_ERROR(f.String("spec_digest", run.spec_digest));
  HLOCHECK_RETURN_IF_ERROR(f.String("started_at", run.started_at));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("max_elements", run.max_elements));
  int64_t seed = 0;
  if (const json* shard = f.Find("shard"); shard != nullptr) {
    if (!shard->is_object()) return f.Error("shard", "an object");
    JsonFields s(*shard, file, "shard");
    HLOCHECK_RETURN_IF_ERROR(s.Integer("index", run.shard_index, /*required=*/true));
    HLOCHECK_RETURN_IF_ERROR(s.Integer("total", run.shard_total, /*required=*/true));
    HLOCHECK_RETURN_IF_ERROR(s.Integer("plan_groups", run.plan_groups, /*required=*/true));
  }
  HLOCHECK_RETURN_IF_ERROR(f.Integer("seed", seed));
  run.seed = static_cast<uint64_t>(seed);
  HLOCHECK_RETURN_IF_ERROR(f.Integer("cases_per_group", run.cases_per_group));
  HLOCHECK_RETURN_IF_ERROR(f.String("command_line", run.command_line));
  HLOCHECK_RETURN_IF_ERROR(f.Number("seconds", run.seconds));
  HLOCHECK_RETURN_IF_ERROR(
      f.Objects("groups", [&](const JsonFields& g) { return ReadGroup(g, run); }));
  if (const json* expired = f.Find("expired_waivers"); expired != nullptr) {
    if (!expired->is_array()) return f.Error("expired_waivers", "an array of strings");
    for (const json& e : *expired) {
      if (!e.is_string()) return f.Error("expired_waivers", "an array of strings");
      run.expired_waivers.push_back(e.get<std::string>());
    }
  }
  return run;
}

absl::StatusOr<json> ReadJsonFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(path + ": cannot open");
  std::stringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  try {
    return json::parse(bytes);
  } catch (const json::parse_error& error) {
    // Where the parser stopped, as line:column.
    const size_t byte = std::min<size_t>(error.byte, bytes.size());
    size_t line = 1;
    size_t column = 1;
    for (size_t i = 0; i + 1 < byte; ++i) {
      if (bytes[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return absl::InvalidArgumentError(path + ":" + std::to_string(line) + ":" +
                                      std::to_string(column) + ": not valid JSON");
  }
}

}  // namespace hlocheck
