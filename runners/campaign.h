// A fuzzing campaign (`hlocheck fuzz`): worker processes draw cases from a
// shared findings store until a time or case budget is spent. Campaign case
// u is a pure function of the seed and u: the plan's group u mod G, in
// round r = (u div G) div R, its case ((u div G) mod R) * 617 mod R of a
// gate run of R cases with seed RoundSeed(seed, r) (the stride spreads the
// gate's size sweep over the round). So a finding replays anywhere, its
// gate command finds it again, round 0 is the gate's own cases, and the
// totals of a --cases budget do not depend on the number of workers.
// Each worker runs the backend in its own process: a crash (a signal) or a
// hang (no answer within --case-timeout) is a finding for the case in
// flight, and the worker restarts. docs/campaigns.md.
#ifndef HLOCHECK_RUNNERS_CAMPAIGN_H_
#define HLOCHECK_RUNNERS_CAMPAIGN_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reports/gate_result.h"
#include "runners/findings_store.h"
#include "runners/gate.h"

namespace hlocheck {

// The cases of a gate run per campaign round (and the size sweep's period).
inline constexpr int64_t kCampaignRoundCases = 1000;

// Round 0's seed is the campaign's; later rounds' are spread from it.
uint64_t RoundSeed(uint64_t seed, int64_t round);

// Which gate case campaign case `unit` is.
struct CampaignCase {
  const spec::OpSpec* op = nullptr;
  ElementType type = ElementType::kF32;
  GateOptions options;  // the round's gate run, narrowed to the one case
  std::string replay;   // the case's replay key, unshrunk
};
CampaignCase CaseOfUnit(const GatePlan& plan, const GateOptions& base, int64_t unit);

// The signature two occurrences of one fault share: op, element type,
// kind, and for a mismatch the classes of the first mismatched element's
// expected and actual values (NaN, infinity, zero, finite, integer,
// true/false) and its ULP distance's bucket (DistanceHistogram; "no ULPs"
// for integers and NaNs); for an error, crash or hang
// its message with every digit run replaced by '#'.
std::string FindingSignature(const Finding& finding);

// A guided campaign (`fuzz --guided`) runs unit u in u's group (u mod G)
// as a plain campaign does, but chooses among the group's next
// kGuidedCandidates cases (its sequence positions (u div G) * K + c, each
// a gate case with a replay key): generated only (no oracle, no backend),
// the one whose combination of boundary features (coverage.h's
// CaseFeatures: rank 0, zero-sized and size-1 dimensions, the maximum
// rank, kernel-boundary sizes, special values) the group has shown least
// so far runs, each feature alone, each side of each conditional
// constraint (ConstraintBranches) and each element type of its operands
// and results the group has taken least counting a little too, and closeness to the group's earlier
// findings (their feature sets) counting half. Which cases run depends on what ran before, so a
// guided campaign's totals depend on its workers' order (each worker keeps
// its own counts and knows its own findings).
inline constexpr int kGuidedCandidates = 4;

CampaignCase CandidateOfUnit(const GatePlan& plan, const GateOptions& base, int64_t unit,
                             int choice, bool guided);

// The case `c` runs, generated only (no oracle, no backend); throws as
// generation does (a case that is not runnable, a generator error).
Case GeneratedCaseOf(const CampaignCase& c, const GateOptions& base);

// The sides of the op's conditional constraints (`when:`) a case takes:
// "branch:C5:applies" or "branch:C5:not_applicable".
std::vector<std::string> ConstraintBranches(const spec::OpSpec& op, const Case& c);

// The element types of a case's operands and results ("type:f16"), and
// "type:quantized" where one is quantized (its storage type named).
std::vector<std::string> ElementTypeKeys(const Case& c);

class Guidance {
 public:
  explicit Guidance(size_t groups) : features_(groups), findings_(groups) {}
  // Generates the unit's candidates and returns the choice to run; counts
  // its features and constraint branches in its group.
  int Choose(const GatePlan& plan, const GateOptions& base, int64_t unit);
  // The case last chosen was a finding: its group's later choices lean
  // towards cases with features like its.
  void NoteFinding();

 private:
  // How close `features` come to the group's nearest finding (0 to 1).
  double Neighbourhood(size_t group, const std::vector<std::string>& features) const;

  // Per group: cases run with each feature, each combination, each branch.
  std::vector<std::map<std::string, int64_t>> features_;
  // Per group: the features of each finding's case.
  std::vector<std::vector<std::vector<std::string>>> findings_;
  size_t last_group_ = ~size_t{0};
  std::vector<std::string> last_features_;
};

// A unit's counts and finding, as the store keeps them.
UnitResult UnitResultOf(const GroupResult& group);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_CAMPAIGN_H_
