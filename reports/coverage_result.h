// Spec-constraint coverage as data: what `hlocheck coverage` measures and
// coverage.json holds (docs/coverage-format.md), and the reader that takes
// a coverage.json back, for the HTML report.
#ifndef HLOCHECK_REPORTS_COVERAGE_RESULT_H_
#define HLOCHECK_REPORTS_COVERAGE_RESULT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace hlocheck {

struct ConstraintCoverage {
  std::string id;               // display id
  std::string source = "seed";  // seed, public or inputs (a rank of the Inputs/Outputs tables)
  bool seed = true;             // a numbered constraint of seed 002
  bool conditional = false;
  // Valid cases: the constraint applied and held / its condition was false.
  int64_t held = 0;
  int64_t not_applicable = 0;
  // Invalid cases generated to violate this constraint alone.
  int64_t violated_alone = 0;
  int64_t from_spec_instance = 0;  // of those, the spec's violated_by instance
  std::string not_violable_alone;  // the YAML's reason, when marked
};

struct OpCoverage {
  std::string op;
  bool has_recipe = false;
  int64_t valid_cases = 0;
  int64_t invalid_cases = 0;
  std::map<std::string, int64_t> element_types;  // the primary type of each valid case
  std::map<std::string, int64_t> features;       // valid cases with each boundary feature
  std::vector<ConstraintCoverage> constraints;
};

// A coverage.json read back: the run's settings and its ops (in the
// file's order, which is the spec's).
struct CoverageReport {
  uint64_t seed = 0;
  int64_t cases_per_op = 0;
  int64_t negative_cases_per_constraint = 0;
  int64_t max_elements = 0;
  std::vector<OpCoverage> ops;
};

// An error names `file`, the field's path and what was expected there.
absl::StatusOr<CoverageReport> CoverageFromJson(const nlohmann::json& json,
                                                const std::string& file);

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_COVERAGE_RESULT_H_
