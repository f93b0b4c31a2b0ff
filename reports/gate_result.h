// The outcome of a gate run as data: what every report format writes.
#ifndef HLOCHECK_REPORTS_GATE_RESULT_H_
#define HLOCHECK_REPORTS_GATE_RESULT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/distance_histogram.h"
#include "core/element_type.h"

namespace hlocheck {

// 2: a finding's kind names the stage that failed ("oracle error" and
// "generator error" replace "internal error"; "backend crash" is new) and
// mismatches come as data ("mismatches").
// 4: the fourth verdict, "differs_from_convention" (groups and totals, with
// convention_elements, an example and a replay), and batch_only_failures.
// 5: not_run_after_backend_failures.
inline constexpr int kReportSchemaVersion = 5;

// Which stage of a case failed. The backend's faults are shrunk; the others
// are hlocheck's own bugs, reported loudly but never blamed on the backend.
enum class FindingKind : uint8_t {
  kMismatch,         // the backend's values differ from what the oracle allows
  kWrongResultType,  // the backend returned the wrong number, shape or type of results
  kBackendError,     // the backend returned an error status on a valid case
  kBackendCrash,     // the backend threw, or its worker process died (abort, signal)
  kBackendHang,      // the backend's worker gave no answer within the case timeout
  kOracleError,      // the oracle (or the spec verifier) failed or threw
  kGeneratorError,   // the generator threw, or made a case its op's spec rejects
};

// As report.json and the console spell it.
inline const char* KindName(FindingKind kind) {
  switch (kind) {
    case FindingKind::kMismatch:
      return "mismatch";
    case FindingKind::kWrongResultType:
      return "wrong result type";
    case FindingKind::kBackendError:
      return "backend error";
    case FindingKind::kBackendCrash:
      return "backend crash";
    case FindingKind::kBackendHang:
      return "backend hang";
    case FindingKind::kOracleError:
      return "oracle error";
    case FindingKind::kGeneratorError:
      return "generator error";
  }
  return "?";
}

// One element of a result outside what the oracle allows.
struct MismatchedElement {
  int result = 0;              // which result of the op
  std::vector<int64_t> index;  // multi-index into that result
  std::string expected;        // StableHLO literals
  std::string actual;
  std::string allowed;  // "bit-exact", "<= 2 ULP (was 5)", "|error| <= 1e-7 (was 3e-6)"
  int64_t ulp = -1;     // distance from expected; -1: not a float, or a NaN
};

// One failing case, shrunk, with everything needed to reproduce it. The
// gate fills it with data; reports/ words it (FindingSummary, FindingDetails).
struct Finding {
  std::string op;
  ElementType type = ElementType::kF32;
  FindingKind kind = FindingKind::kMismatch;
  std::string message;                        // the failing stage's own words (errors)
  int64_t mismatched_elements = 0;            // kMismatch: all of them
  std::vector<MismatchedElement> mismatches;  // kMismatch: the first few of each result
  int results = 1;                            // how many results the op returned
  std::string reproducer;                     // a standalone StableHLO module
  std::string replay;                         // for `hlocheck replay`
  std::string command;                        // the gate command that finds it again
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
  // Cases with a quantized operand or result, and how many of those the
  // backend could not run (both among the counts above).
  int64_t quantized_cases = 0;
  int64_t quantized_skipped = 0;
  // Cases whose every mismatched element a deviation in the backend's
  // profile declares: neither passed nor failed. `excused` counts the
  // elements per deviation id; deviation_replay rebuilds the first such case.
  int64_t deviating = 0;
  std::map<std::string, int64_t> excused;
  std::string deviation_replay;
  std::string skip_reason;
  int64_t elements_compared = 0;
  int64_t free_elements = 0;  // left to the implementation by the spec: not compared
  // Cases wrong when compiled in a batch with others but right alone
  // (counted among the failures: a compiler that mixes up independent
  // computations is wrong). The gate confirms the first 16 wrong answers
  // of a group alone; this counts those that did not confirm.
  int64_t batch_only_failures = 0;
  // The first such case's replay key, and the keys of every case handed to
  // the backend with it, in order (itself among them): `hlocheck replay
  // KEY --batch-with KEYS` runs it in that company again.
  std::string batch_only_replay;
  std::vector<std::string> batch_only_batch;
  // Cases not run because the backend failed (error, crash or hang) every
  // case of the group before them (GateOptions::stop_after_backend_failures):
  // counted among the skipped, never among the passes; the first failure
  // is the group's finding.
  int64_t not_run_after_backend_failures = 0;
  // Cases whose only difference from the oracle is in elements the spec
  // leaves open but the interpreter and XLA agree on (the fourth verdict,
  // "differs from the de facto convention": not a failure, not a pass);
  // the elements that differ (in any case), the first such case's replay
  // and one element of it, in words.
  int64_t differs_from_convention = 0;
  int64_t convention_elements = 0;
  std::string convention_replay;
  std::string convention_example;
  int64_t worst_ulp = -1;  // -1: no float elements compared
  int allowed_ulp = 0;
  double worst_bound_fraction = 0;  // "bound": largest |error| / allowed
  // Every compared float element's distance from the reference ("ulp" and
  // "exact" float groups in ULPs, "bound" groups as |error| / bound), over
  // the cases that count for worst_ulp (not deviating ones).
  DistanceHistogram distances;
  // The case that holds the group's farthest element (worst_ulp, or
  // worst_bound_fraction for "bound") as a replay key, and that element in
  // words; empty while every compared element was exact. Deviating cases
  // do not count (as for worst_ulp).
  std::string worst_replay;
  std::string worst_example;
  double seconds = 0;
  std::vector<Finding> findings;  // the first failure, shrunk
  // A gate config's waiver that covers this group's failures (its reason
  // and expiry, in words): they are still counted as failed, but do not
  // fail the run. Empty: none.
  std::string waiver;
};

struct GateRun {
  std::string backend;
  // What else it takes to reproduce the run: the backend's profile of
  // declared deviations (a path, or empty when it has none), the largest
  // tensor generated, hlocheck's version and the spec's digest
  // (SpecRegistry::digest), and when it started (UTC, ISO 8601).
  std::string profile;
  int64_t max_elements = 0;
  std::string hlocheck_version;
  std::string spec_digest;
  std::string started_at;
  // Shard shard_index of shard_total (runners/sharding.h); 0 of 1 unsharded.
  int64_t shard_index = 0;
  int64_t shard_total = 1;
  int64_t plan_groups = 0;  // the whole plan's groups (all shards'); 0: not recorded
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
  // Waivers of the gate config past their expiry date: each fails the run.
  std::vector<std::string> expired_waivers;

  // What fails the run: a failure no waiver covers, or an expired waiver.
  bool failed() const {
    if (!expired_waivers.empty()) return true;
    for (const GroupResult& g : groups) {
      if (g.failed > 0 && g.waiver.empty()) return true;
    }
    return false;
  }
};

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_GATE_RESULT_H_
