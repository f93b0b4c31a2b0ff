// Spec-constraint coverage of generated cases: for every op, how often each
// constraint was exercised by valid cases (for conditional ones, on which
// branch), how many invalid cases violated it alone, which element types
// occurred, and which boundary features (rank 0, zero-sized and size-1
// dimensions, the maximum rank, kernel-boundary sizes, special values).
// `hlocheck coverage` prints it and writes it as JSON (docs/coverage-format.md).
#ifndef HLOCHECK_RUNNERS_COVERAGE_H_
#define HLOCHECK_RUNNERS_COVERAGE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "reports/coverage_result.h"
#include "runners/generation.h"
#include "spec/registry.h"

namespace hlocheck {

struct CoverageOptions {
  int64_t cases = 1000;         // valid cases per op
  int64_t negative_cases = 10;  // invalid cases per constraint
  uint64_t seed = kDefaultSeed;
  int64_t max_elements = 4096;
  std::vector<std::string> ops;  // empty: all
};

struct CoverageRun {
  CoverageOptions options;
  std::vector<OpCoverage> ops;
};

// The boundary features a case shows (names as in the JSON).
std::vector<std::string> CaseFeatures(const GeneratedCase& generated);
// The same features of a runnable case, from its tensors: rank_0,
// max_rank, zero_sized_dim, size_1_dim, kernel_boundary_size (operands and
// results), special_values (operands).
std::vector<std::string> CaseFeatures(const Case& c);

absl::StatusOr<CoverageRun> MeasureCoverage(const spec::SpecRegistry& registry,
                                            const CoverageOptions& options);

nlohmann::json CoverageToJson(const CoverageRun& run);
std::string CoverageTable(const CoverageRun& run);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_COVERAGE_H_
