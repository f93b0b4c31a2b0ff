// The CI gate: for every op and element type, generate cases, run them on
// the oracle and on a backend, compare, and shrink the first failure of each
// group to a minimal reproducer.
#ifndef HLOCHECK_RUNNERS_GATE_H_
#define HLOCHECK_RUNNERS_GATE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "generators/case_generator.h"
#include "mlir/writer.h"
#include "oracle/oracle.h"
#include "reports/gate_result.h"
#include "runners/compare.h"
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
  std::string command_line;        // how the run was started, for reproducing commands
};

// Everything about running one case against the oracle and a backend.
struct CaseOutcome {
  enum class Kind { kPass, kMismatch, kBackendError, kWrongType, kSkipped, kInvalid, kOracleError };
  Kind kind = Kind::kPass;
  std::string message;
  std::vector<ResultExpectation> expectations;
  std::vector<Tensor> actual;
  std::vector<ResultComparison> comparisons;

  bool failed() const {
    return kind == Kind::kMismatch || kind == Kind::kBackendError || kind == Kind::kWrongType;
  }
};

class Gate {
 public:
  Gate(const spec::SpecRegistry* registry, const Oracle* oracle, Adapter* adapter)
      : registry_(registry), oracle_(oracle), adapter_(adapter) {}

  // Checks the options against the spec and the oracle (unknown ops or types
  // are usage errors) and returns the op/type groups the run will cover.
  absl::StatusOr<std::vector<std::pair<const spec::OpSpec*, ElementType>>> Plan(
      const GateOptions& options) const;

  // `progress`, when set, is called after each group.
  absl::StatusOr<GateRun> Run(const GateOptions& options,
                              const std::function<void(const GroupResult&)>& progress = {});

  CaseOutcome CheckCase(const spec::OpSpec& op, const Case& c);

  // Rebuilds a case from a replay string and checks it.
  struct Replayed {
    const spec::OpSpec* op;
    Case c;
    CaseOutcome outcome;
  };
  absl::StatusOr<Replayed> Replay(const std::string& replay);

 private:
  GroupResult RunGroup(const spec::OpSpec& op, ElementType type, const GateOptions& options);
  Finding Shrink(const spec::OpSpec& op, ElementType type, const GateOptions& options,
                 int case_index, uint64_t case_seed, int size, rc::Shrinkable<Case> failing,
                 CaseOutcome outcome);
  Finding Describe(const spec::OpSpec& op, ElementType type, const Case& c,
                   const CaseOutcome& outcome) const;

  const spec::SpecRegistry* registry_;
  const Oracle* oracle_;
  Adapter* adapter_;
};

// The oracle's answers as reproducer checks: exact where the comparison is
// bit for bit, "almost" where the op allows some error.
std::vector<mlir::CaseCheck> ExpectedResults(const spec::OpSpec& op, const CaseOutcome& outcome);

// The seed of case `index` of a group: a stable hash, the same on every machine.
uint64_t CaseSeed(uint64_t run_seed, std::string_view op, ElementType type, int64_t index);
// Sizes sweep RapidCheck's range 0..100 over the cases of a group.
int CaseSize(int64_t index, int64_t cases);

struct ReplayKey {
  std::string op;
  std::optional<ElementType> type;  // "any" in the string: the op's first input has no element type
  uint64_t seed;
  int size;
  int64_t max_elements;
  std::vector<int> shrink_path;
  // A negative case: the display id of the one constraint it violates
  // ("C3", "C18 (public)"); written OP!C3 or OP!C18@public in the string.
  std::string violates;
};
// Follows a replay string's shrink path down a shrink tree.
template <typename T>
absl::StatusOr<T> FollowShrinkPath(rc::Shrinkable<T> shrinkable, const std::vector<int>& path) {
  for (int step : path) {
    auto shrinks = shrinkable.shrinks();
    std::optional<rc::Shrinkable<T>> chosen;
    for (int i = 0; i <= step; ++i) {
      auto next = shrinks.next();
      if (!next) {
        return absl::InvalidArgumentError(
            "the shrink path does not fit this case (was it made by another hlocheck version?)");
      }
      if (i == step) chosen = *next;
    }
    shrinkable = *chosen;
  }
  return shrinkable.value();
}

std::string FormatReplay(const ReplayKey& key);
absl::StatusOr<ReplayKey> ParseReplay(const std::string& text);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_GATE_H_
