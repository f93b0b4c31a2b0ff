// A gate configuration file (`hlocheck run --config gate.yaml`), for teams
// that gate every commit: the run's settings, case budgets per op, and
// waivers of known failures, each with a reason and an expiry date that
// fails the gate once past (docs/gate-config.md).
#ifndef HLOCHECK_RUNNERS_GATE_CONFIG_H_
#define HLOCHECK_RUNNERS_GATE_CONFIG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/element_type.h"
#include "reports/gate_result.h"
#include "spec/registry.h"

namespace hlocheck {

struct Waiver {
  std::string op;
  std::vector<ElementType> types;  // empty: every type of the op
  std::string reason;
  std::string expires;  // YYYY-MM-DD: the last day it holds
  int line = 0;         // in the config file
};

// A tighter ULP bound than the op's YAML allows, for one backend or for
// every one: a team holding its backend to what it promises (a correctly
// rounded exp, say). Never wider: a wider bound is a deviation, declared in
// the backend's profile with a public source (docs/backend-profiles.md).
struct ToleranceOverride {
  std::string op;
  std::vector<ElementType> types;  // empty: every type of the op
  std::string backend;             // empty: every backend
  int max_ulp = 0;
  int line = 0;  // in the config file
};

struct GateConfig {
  std::string file;
  // The settings as `run` flags ("--cases", "500", ...), to be parsed
  // before the command line's own, which override them.
  std::vector<std::string> flags;
  std::map<std::string, int64_t> case_budgets;
  std::vector<Waiver> waivers;
  std::vector<ToleranceOverride> tolerances;
};

// Reads and checks `file`: known keys only, ops of `registry`, element
// types hlocheck knows, positive budgets, waivers with a reason and a valid
// date. An error names the file, the line and what was expected.
absl::StatusOr<GateConfig> LoadGateConfig(const std::string& file,
                                          const spec::SpecRegistry& registry);

// The waiver that covers a failing `op` and `type` on `today` (YYYY-MM-DD),
// in words, or "" when none does (an expired one does not).
std::string WaiverFor(const GateConfig& config, const std::string& op, ElementType type,
                      const std::string& today);
// Every waiver past its expiry on `today`, in words: each fails the run.
std::vector<std::string> ExpiredWaivers(const GateConfig& config, const std::string& today);

// The tightest override of `op` and `type` on `backend`, if any.
std::optional<int> MaxUlpFor(const GateConfig& config, const std::string& backend,
                             const std::string& op, ElementType type);

// Today in UTC as YYYY-MM-DD.
std::string TodayUtc();

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_GATE_CONFIG_H_
