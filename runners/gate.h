// The CI gate: for every op and element type, generate cases, check each on
// the oracle and a backend (case_check.h), and shrink the first failure of
// each group to a minimal reproducer (shrink.h). It produces data
// (reports/gate_result.h); reports/ writes it for people and CI.
#ifndef HLOCHECK_RUNNERS_GATE_H_
#define HLOCHECK_RUNNERS_GATE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "generators/case_generator.h"
#include "oracle/oracle.h"
#include "reports/gate_result.h"
#include "runners/case_check.h"
#include "runners/replay_key.h"
#include "spec/registry.h"

namespace hlocheck {

inline constexpr uint64_t kDefaultSeed = 20261121;

struct GateOptions {
  std::vector<std::string> ops;    // empty: every op the oracle implements
  std::vector<ElementType> types;  // empty: every type each op accepts
  int64_t cases = 1000;            // per op and type
  uint64_t seed = kDefaultSeed;
  int64_t max_elements = 4096;     // per generated tensor
  int max_shrink_attempts = 5000;  // candidate cases tried while shrinking one failure
  // A group whose first N cases the backend all failed (each a backend
  // error, crash or hang: an op or type it cannot compile, say) stops
  // there, its other cases counted as not run; 0 runs every case.
  int64_t stop_after_backend_failures = 100;
  std::string command_line;  // how the run was started, for reproducing commands
  // Run only the plan's groups shard_index, shard_index + shard_total, ...
  // (runners/sharding.h).
  int64_t shard_index = 0;
  int64_t shard_total = 1;
  // Run only each group's cases [first_case, end_case) of its `cases`
  // (end_case -1: to the last), as a campaign does a few at a time; the
  // cases are the same as in a whole run.
  int64_t first_case = 0;
  int64_t end_case = -1;
  // Cases per group of some ops, instead of `cases` (a gate config's
  // case_budgets).
  std::map<std::string, int64_t> cases_per_op;
  // The waiver (in words) that covers a failing group of `op` and `type`,
  // or "" (a gate config's waivers); unset: none.
  std::function<std::string(const std::string& op, ElementType type)> waiver_for;
  // A tighter ULP bound for the ULP-checked results of `op` and `type`
  // (a gate config's tolerances; never wider than the op's); unset: none.
  std::function<std::optional<int>(const std::string& op, ElementType type)> max_ulp_for;
  // The gate config those bounds come from: a finding's command names it.
  std::string tolerance_config;
};

// `options` for one op's groups: its case budget in place of `cases`.
inline GateOptions ForOp(const GateOptions& options, const std::string& op) {
  auto it = options.cases_per_op.find(op);
  if (it == options.cases_per_op.end()) return options;
  GateOptions narrowed = options;
  narrowed.cases = it->second;
  return narrowed;
}

// The op/type groups a run covers, in order.
using GatePlan = std::vector<std::pair<const spec::OpSpec*, ElementType>>;

// Whether the plan's group at `position` is in the options' shard: round
// robin, so that every shard gets ops of every family.
inline bool InShard(const GateOptions& options, size_t position) {
  return static_cast<int64_t>(position) % options.shard_total == options.shard_index;
}

// The generator of a group's cases; CaseGenerator unless a test stands in
// another (one that throws, say).
using CaseGeneratorFactory =
    std::function<rc::Gen<Case>(const spec::OpSpec&, const GenerationOptions&)>;

class Gate {
 public:
  Gate(const spec::SpecRegistry* registry, const Oracle* oracle, Adapter* adapter)
      : context_{registry, oracle, adapter, nullptr, {}} {}

  // Checks the options against the spec and the oracle (unknown ops or types
  // are usage errors) and returns the op/type groups the run will cover.
  absl::StatusOr<GatePlan> Plan(const GateOptions& options) const;

  // Runs every group of `plan` (made once, by Plan) in the options' shard. `on_group`, when set,
  // is called as each group finishes, so its line can be written at once.
  GateRun Run(const GateOptions& options, const GatePlan& plan,
              const std::function<void(const GroupResult&)>& on_group = {});
  // Plans, then runs.
  absl::StatusOr<GateRun> Run(const GateOptions& options,
                              const std::function<void(const GroupResult&)>& on_group = {});

  // The cases of one op with one element type; the first failure shrunk.
  GroupResult RunGroup(const spec::OpSpec& op, ElementType type, const GateOptions& options);

  CaseOutcome CheckCase(const spec::OpSpec& op, const Case& c) {
    return hlocheck::CheckCase(context_, op, c);
  }

  // Rebuilds a case from a replay string and checks it.
  struct Replayed {
    const spec::OpSpec* op;
    Case c;
    CaseOutcome outcome;
  };
  absl::StatusOr<Replayed> Replay(const std::string& replay);
  // Rebuilds the cases `batch` names (replay keys, in order) and hands them
  // to the backend together, as the gate did (a compiler compiles them as
  // one module); checks the one `replay` names (a batch-only failure's
  // batch_only_replay and batch_only_batch).
  struct ReplayedBatch {
    std::vector<Replayed> cases;
    size_t target = 0;  // the checked one
  };
  absl::StatusOr<ReplayedBatch> ReplayInBatch(const std::string& replay,
                                              const std::vector<std::string>& batch);

  void SetCaseGenerator(CaseGeneratorFactory factory) { generator_ = std::move(factory); }
  // The backend's declared deviations and unsupported ops and types (not owned).
  void SetProfile(const BackendProfile* profile) { context_.profile = profile; }

 private:
  // The case of a replay string, rebuilt, not yet checked.
  absl::StatusOr<Replayed> Rebuild(const std::string& replay);

  // A generated case between its generation and its counting.
  struct PendingCase {
    int64_t index = 0;
    ReplayKey key;
    std::optional<rc::Shrinkable<Case>> shrinkable;
    Case c;
    CaseOutcome outcome;
    bool generated = false;
    bool to_run = false;  // checked against the oracle, for the backend to run
  };
  std::vector<PendingCase> GenerateAndPrepare(const spec::OpSpec& op,
                                              const rc::Gen<Case>& generator,
                                              const GateOptions& options, ElementType type,
                                              int64_t first, int64_t end);
  // Runs the chunk's cases on the backend, together where it batches.
  void RunPrepared(std::vector<PendingCase>& chunk, GroupResult& group);
  // Counts one case into the group; the group's first failure is shrunk.
  void AccountCase(const spec::OpSpec& op, ElementType type, const GateOptions& options,
                   PendingCase& pending, GroupResult& group);

  // The finding for `c` and its outcome: kind, mismatches as data, and the
  // reproducer module.
  Finding Describe(const spec::OpSpec& op, ElementType type, const Case* c,
                   const CaseOutcome& outcome) const;

  CaseContext context_;
  CaseGeneratorFactory generator_;
  // Wrong answers from a batch still to be confirmed on their case alone,
  // in the group running now (RunPrepared).
  static constexpr int64_t kConfirmationsPerGroup = 16;
  int64_t confirmations_left_ = 0;
};

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_GATE_H_
