#include "reports/coverage_result.h"

#include <algorithm>
#include <cstdlib>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "reports/json_fields.h"

namespace hlocheck {
namespace {

using json = nlohmann::json;

// "C3" before "C12", and the public spec's "C2 (public)" after seed 002's
// constraints, as the spec lists them (JSON objects keep keys sorted as text).
std::tuple<bool, long, std::string> ConstraintOrder(const std::string& id) {
  const bool public_spec = id.find("(public)") != std::string::npos;
  const long number = id.size() > 1 && id[0] == 'C' ? std::strtol(id.c_str() + 1, nullptr, 10) : 0;
  return {public_spec, number, id};
}

absl::Status ReadCounts(const json& object, const std::string& file, const std::string& path,
                        std::map<std::string, int64_t>& out) {
  if (!object.is_object()) {
    return absl::InvalidArgumentError(file + ": " + path + ": expected an object of integers");
  }
  for (const auto& [key, count] : object.items()) {
    if (!count.is_number_integer()) {
      return absl::InvalidArgumentError(file + ": " + path + "." + key + ": expected an integer");
    }
    out[key] = count.get<int64_t>();
  }
  return absl::OkStatus();
}

absl::Status ReadConstraint(const std::string& id, const JsonFields& f, OpCoverage& op) {
  ConstraintCoverage c;
  c.id = id;
  HLOCHECK_RETURN_IF_ERROR(f.String("source", c.source));
  c.seed = c.source == "seed";
  if (const json* conditional = f.Find("conditional"); conditional != nullptr) {
    if (!conditional->is_boolean()) return f.Error("conditional", "true or false");
    c.conditional = conditional->get<bool>();
  }
  HLOCHECK_RETURN_IF_ERROR(f.String("not_violable_alone", c.not_violable_alone));
  for (const char* part : {"valid", "invalid"}) {
    const json* counts = f.Find(part);
    if (counts == nullptr) continue;
    if (!counts->is_object()) return f.Error(part, "an object");
    JsonFields g(*counts, f.file(), f.Path(part));
    if (std::string(part) == "valid") {
      HLOCHECK_RETURN_IF_ERROR(g.Integer("held", c.held));
      HLOCHECK_RETURN_IF_ERROR(g.Integer("not_applicable", c.not_applicable));
    } else {
      HLOCHECK_RETURN_IF_ERROR(g.Integer("violated_alone", c.violated_alone));
      HLOCHECK_RETURN_IF_ERROR(g.Integer("from_spec_instance", c.from_spec_instance));
    }
  }
  op.constraints.push_back(std::move(c));
  return absl::OkStatus();
}

absl::Status ReadOp(const std::string& name, const JsonFields& f, CoverageReport& report) {
  OpCoverage op;
  op.op = name;
  if (const json* has_recipe = f.Find("has_recipe"); has_recipe != nullptr) {
    if (!has_recipe->is_boolean()) return f.Error("has_recipe", "true or false");
    op.has_recipe = has_recipe->get<bool>();
  }
  HLOCHECK_RETURN_IF_ERROR(f.Integer("valid_cases", op.valid_cases));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("invalid_cases", op.invalid_cases));
  if (const json* types = f.Find("element_types")) {
    HLOCHECK_RETURN_IF_ERROR(
        ReadCounts(*types, f.file(), f.Path("element_types"), op.element_types));
  }
  if (const json* features = f.Find("features")) {
    HLOCHECK_RETURN_IF_ERROR(ReadCounts(*features, f.file(), f.Path("features"), op.features));
  }
  if (const json* constraints = f.Find("constraints")) {
    if (!constraints->is_object()) return f.Error("constraints", "an object");
    for (const auto& [id, entry] : constraints->items()) {
      const std::string path = f.Path("constraints") + "." + id;
      if (!entry.is_object()) {
        return absl::InvalidArgumentError(f.file() + ": " + path + ": expected an object");
      }
      HLOCHECK_RETURN_IF_ERROR(ReadConstraint(id, JsonFields(entry, f.file(), path), op));
    }
  }
  std::sort(op.constraints.begin(), op.constraints.end(),
            [](const ConstraintCoverage& a, const ConstraintCoverage& b) {
              return ConstraintOrder(a.id) < ConstraintOrder(b.id);
            });
  report.ops.push_back(std::move(op));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CoverageReport> CoverageFromJson(const json& coverage, const std::string& file) {
  if (!coverage.is_object()) {
    return absl::InvalidArgumentError(file + ": expected a JSON object (a coverage.json)");
  }
  JsonFields f(coverage, file, "");
  std::string format;
  HLOCHECK_RETURN_IF_ERROR(f.String("format", format, /*required=*/true));
  if (format != "hlocheck-coverage/1") {
    return f.Error(
        "format",
        "\"hlocheck-coverage/1\" (a coverage.json of hlocheck coverage), not \"" + format + "\"");
  }
  CoverageReport report;
  int64_t seed = 0;
  HLOCHECK_RETURN_IF_ERROR(f.Integer("seed", seed));
  report.seed = static_cast<uint64_t>(seed);
  HLOCHECK_RETURN_IF_ERROR(f.Integer("cases_per_op", report.cases_per_op));
  HLOCHECK_RETURN_IF_ERROR(
      f.Integer("negative_cases_per_constraint", report.negative_cases_per_constraint));
  HLOCHECK_RETURN_IF_ERROR(f.Integer("max_elements", report.max_elements));
  const json* ops = f.Find("ops");
  if (ops == nullptr || !ops->is_object()) return f.Error("ops", "an object of ops");
  for (const auto& [name, entry] : ops->items()) {
    const std::string path = "ops." + name;
    if (!entry.is_object())
      return absl::InvalidArgumentError(file + ": " + path + ": expected an object");
    HLOCHECK_RETURN_IF_ERROR(ReadOp(name, JsonFields(entry, file, path), report));
  }
  return report;
}

}  // namespace hlocheck
