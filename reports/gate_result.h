// The outcome of a gate run as data: what every report format writes.
#ifndef HLOCHECK_REPORTS_GATE_RESULT_H_
#define HLOCHECK_REPORTS_GATE_RESULT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/element_type.h"

namespace hlocheck {

inline constexpr int kReportSchemaVersion = 1;

// One failing case, shrunk, with everything needed to reproduce it.
struct Finding {
  std::string op;
  ElementType type = ElementType::kF32;
  std::string kind;        // "mismatch", "backend error", "wrong result type", "internal error"
  std::string summary;     // one line
  std::string details;     // the mismatching elements or the error text
  std::string reproducer;  // a standalone StableHLO module
  std::string replay;      // for `hlocheck replay`
  std::string command;     // the gate command that finds it again
  int case_index = 0;
  int64_t original_elements = 0;  // input elements before shrinking
  int64_t minimal_elements = 0;   // and after
  int shrink_steps = 0;
};

// The cases of one op with one element type (of its first operand).
struct GroupResult {
  std::string op;
  ElementType type = ElementType::kF32;
  std::string check;  // "exact", "ulp" or "bound": how results were compared
  int64_t cases = 0;
  int64_t passed = 0;
  int64_t failed = 0;
  int64_t skipped = 0;  // the backend cannot run them; never counted as passed
  std::string skip_reason;
  int64_t elements_compared = 0;
  int64_t free_elements = 0;  // left to the implementation by the spec: not compared
  int64_t worst_ulp = -1;     // -1: no float elements compared
  int allowed_ulp = 0;
  double worst_bound_fraction = 0;  // "bound": largest |error| / allowed
  double seconds = 0;
  std::vector<Finding> findings;  // the first failure, shrunk
};

struct GateRun {
  std::string backend;
  uint64_t seed = 0;
  int64_t cases_per_group = 0;
  std::string command_line;
  double seconds = 0;
  std::vector<GroupResult> groups;

  int64_t total(int64_t GroupResult::*field) const {
    int64_t sum = 0;
    for (const GroupResult& g : groups) sum += g.*field;
    return sum;
  }
  bool failed() const { return total(&GroupResult::failed) > 0; }
};

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_GATE_RESULT_H_
