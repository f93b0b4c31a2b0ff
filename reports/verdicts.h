// What the HTML report and the Markdown summary say about a group at a
// glance (one verdict per op x element type), and what changed since a
// baseline run. One classification, so that every format says the same.
#ifndef HLOCHECK_REPORTS_VERDICTS_H_
#define HLOCHECK_REPORTS_VERDICTS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reports/gate_result.h"

namespace hlocheck {

// The worst thing a group shows, in this order of precedence.
enum class GroupVerdict {
  kHlocheckBug,     // the oracle or the generator failed: not the backend's fault
  kCrashOrHang,     // the backend crashed or hung on a valid case
  kBackendError,    // the backend returned an error on a valid case
  kMismatch,        // unexpected wrong values (or wrong result types)
  kWaived,          // failures a gate config's waiver covers (until its expiry)
  kDeviation,       // only mismatches the backend's profile declares
  kConvention,      // right, but not the de facto convention where the spec leaves it open
  kPass,            // every case run passed (some may have been skipped)
  kNotImplemented,  // every case skipped: the backend says it does not implement them
  kSkipped,         // every case skipped for another reason (the reason says which)
};

GroupVerdict VerdictOf(const GroupResult& group);

// The failures that fail the run (no waiver covers them): failed cases,
// and the groups they are in; and the failed cases waivers cover.
struct FailureCounts {
  int64_t cases = 0;
  int64_t groups = 0;
  int64_t waived_cases = 0;
};
FailureCounts CountFailures(const GateRun& run);
// "mismatch", "crash/hang", ...: a CSS class and a word for the legend.
const char* VerdictName(GroupVerdict verdict);
// Failures make the run fail; the rest do not.
inline bool IsFailure(GroupVerdict v) { return v <= GroupVerdict::kMismatch; }

// A group of this run against the same op and type in a baseline run.
struct GroupChange {
  enum class Kind {
    kNewFailure,       // fails now, did not fail (or was not run) then
    kFixed,            // failed then, runs and does not fail now
    kBoundRegression,  // passes both times, but its worst distance grew
  };
  Kind kind;
  std::string op;
  ElementType type;
  std::string detail;  // "worst 3 ULP, was 1", "mismatch: 2 element(s) differ ..."
};

struct RunComparison {
  std::string baseline_file;
  std::vector<GroupChange> changes;  // new failures, then fixes, then regressions
  // Why the two runs may differ by their cases alone (other seed, other
  // case count, other spec), empty when they ran the same cases.
  std::vector<std::string> caveats;
  int64_t count(GroupChange::Kind kind) const;
  // The change of one group, or null.
  const GroupChange* Find(const std::string& op, ElementType type) const;
};

RunComparison CompareWithBaseline(const GateRun& baseline, const std::string& baseline_file,
                                  const GateRun& current);
const char* ChangeName(GroupChange::Kind kind);

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_VERDICTS_H_
