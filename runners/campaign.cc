#include "runners/campaign.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/distance_histogram.h"
#include "reports/gate_reports.h"
#include "runners/coverage.h"
#include "runners/replay_key.h"
#include "spec/verifier.h"

namespace hlocheck {

uint64_t RoundSeed(uint64_t seed, int64_t round) {
  if (round == 0) return seed;
  // SplitMix64 of (seed, round): rounds far apart in seed space.
  uint64_t z = seed + static_cast<uint64_t>(round) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

CampaignCase CaseOfUnit(const GatePlan& plan, const GateOptions& base, int64_t unit) {
  const int64_t groups = static_cast<int64_t>(plan.size());
  const int64_t within = unit / groups;
  const int64_t round = within / kCampaignRoundCases;
  // A stride coprime with the round's length visits every case of the
  // round once, but spreads the size sweep over its start: a campaign's
  // first minutes see large cases too, not only the round's smallest.
  static_assert(kCampaignRoundCases == 1000, "kCaseStride must be coprime with the round");
  constexpr int64_t kCaseStride = 617;
  const int64_t index = (within % kCampaignRoundCases) * kCaseStride % kCampaignRoundCases;
  CampaignCase c;
  c.op = plan[static_cast<size_t>(unit % groups)].first;
  c.type = plan[static_cast<size_t>(unit % groups)].second;
  c.options = base;
  c.options.seed = RoundSeed(base.seed, round);
  c.options.cases = kCampaignRoundCases;
  c.options.first_case = index;
  c.options.end_case = index + 1;
  // One case: a backend failure is its own finding, not the start of a run.
  c.options.stop_after_backend_failures = 0;
  c.replay = FormatReplay(ReplayKey{c.op->name,
                                    c.type,
                                    CaseSeed(c.options.seed, c.op->name, c.type, index),
                                    CaseSize(index, kCampaignRoundCases),
                                    base.max_elements,
                                    {},
                                    {}});
  return c;
}

CampaignCase CandidateOfUnit(const GatePlan& plan, const GateOptions& base, int64_t unit,
                             int choice, bool guided) {
  if (!guided) return CaseOfUnit(plan, base, unit);
  // The group's K next cases: positions (u div G) * K + c of its sequence.
  const int64_t groups = static_cast<int64_t>(plan.size());
  return CaseOfUnit(plan, base,
                    ((unit / groups) * kGuidedCandidates + choice) * groups + unit % groups);
}

Case GeneratedCaseOf(const CampaignCase& c, const GateOptions& base) {
  GenerationOptions generation;
  generation.primary_type = c.type;
  generation.max_elements = base.max_elements;
  const int64_t index = c.options.first_case;
  return GenerateCase(*c.op, generation, CaseSeed(c.options.seed, c.op->name, c.type, index),
                      CaseSize(index, kCampaignRoundCases))
      .value();
}

std::vector<std::string> ConstraintBranches(const spec::OpSpec& op, const Case& c) {
  std::vector<std::string> branches;
  const spec::VerifyResult verdict = spec::Verify(op, c);
  for (const spec::ConstraintSpec& constraint : op.constraints) {
    if (!constraint.condition) continue;
    for (const spec::ConstraintResult& r : verdict.results) {
      if (r.id != constraint.id) continue;
      if (r.outcome == spec::Outcome::kHolds) branches.push_back("branch:" + r.id + ":applies");
      if (r.outcome == spec::Outcome::kNotApplicable) {
        branches.push_back("branch:" + r.id + ":not_applicable");
      }
    }
  }
  return branches;
}

std::vector<std::string> ElementTypeKeys(const Case& c) {
  std::vector<std::string> keys;
  auto note = [&](const TensorType& t) {
    keys.push_back("type:" + std::string(Name(t.element_type)));
    if (t.quantization) keys.push_back("type:quantized");
  };
  for (const Tensor& t : c.operands) note(t.type());
  for (const TensorType& t : c.result_types) note(t);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

int Guidance::Choose(const GatePlan& plan, const GateOptions& base, int64_t unit) {
  const size_t group = static_cast<size_t>(unit % static_cast<int64_t>(plan.size()));
  std::map<std::string, int64_t>& seen = features_[group];
  int best = 0;
  double best_score = -1;
  std::vector<std::string> best_features;
  last_features_.clear();
  for (int choice = 0; choice < kGuidedCandidates; ++choice) {
    const CampaignCase c = CandidateOfUnit(plan, base, unit, choice, /*guided=*/true);
    std::vector<std::string> features;
    std::vector<std::string> branches;
    try {
      const Case generated = GeneratedCaseOf(c, base);
      features = CaseFeatures(generated);
      branches = ConstraintBranches(*c.op, generated);
      // The element types besides the group's own (a convert's target, an
      // index operand's, a quantized tensor's storage): rare ones are sought
      // like rare branches.
      for (std::string& type : ElementTypeKeys(generated)) branches.push_back(std::move(type));
    } catch (...) {
      // Not runnable, or the generator failed: the run itself will say;
      // for guidance it shows no feature.
    }
    // The combination of features weighs most, by how rarely the group
    // showed it (faults hide where features meet: a scalar holding an
    // extreme value); each feature alone, each side taken of a
    // conditional constraint and each element type, a little.
    std::string combination = "combination:";
    for (const std::string& f : features) combination += f + ",";
    auto count = [&](const std::string& key) {
      auto it = seen.find(key);
      return static_cast<double>(it == seen.end() ? 0 : it->second);
    };
    double score = 1.0 / (1.0 + count(combination));
    for (const std::string& f : features) score += 0.25 / (1.0 + count(f));
    for (const std::string& b : branches) score += 0.25 / (1.0 + count(b));
    // Near an earlier finding of this group (the same combination of
    // features, or failing that a share of them), more cases: a fault
    // seldom shows only once where it lives.
    score += 0.5 * Neighbourhood(group, features);
    features.push_back(combination);
    features.insert(features.end(), branches.begin(), branches.end());
    if (score > best_score) {
      best_score = score;
      best = choice;
      best_features = std::move(features);
    }
  }
  for (const std::string& f : best_features) ++seen[f];
  last_group_ = group;
  last_features_ = std::move(best_features);
  return best;
}

void Guidance::NoteFinding() {
  if (last_group_ >= findings_.size()) return;
  std::vector<std::string> features;
  for (const std::string& f : last_features_) {
    if (f.rfind("combination:", 0) != 0 && f.rfind("branch:", 0) != 0) features.push_back(f);
  }
  findings_[last_group_].push_back(std::move(features));
}

double Guidance::Neighbourhood(size_t group, const std::vector<std::string>& features) const {
  double nearest = 0;
  for (const std::vector<std::string>& finding : findings_[group]) {
    // Jaccard similarity of the two feature sets (two featureless cases
    // are neighbours too).
    size_t shared = 0;
    for (const std::string& f : features) {
      shared += std::find(finding.begin(), finding.end(), f) != finding.end();
    }
    const size_t either = features.size() + finding.size() - shared;
    nearest = std::max(nearest, either == 0 ? 1.0 : static_cast<double>(shared) / either);
  }
  return nearest;
}

namespace {

// NaN, infinity, zero, finite, or a boolean, from a StableHLO literal.
std::string ValueClass(const std::string& literal) {
  std::string lower;
  for (char ch : literal) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (lower.find("nan") != std::string::npos) return "nan";
  if (lower.find("inf") != std::string::npos) return "inf";
  if (lower == "true" || lower == "false") return lower;
  // Integers print without a point or an exponent; every float with one.
  if (lower.find_first_of(".e") == std::string::npos) return "integer";
  bool nonzero = false;
  bool digits = false;
  for (char ch : lower) {
    if (ch == 'e') break;  // the exponent of 0.0e+00 says nothing
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      digits = true;
      nonzero = nonzero || ch != '0';
    }
  }
  return !digits ? "other" : nonzero ? "finite" : "zero";
}

std::string WithoutNumbers(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      if (out.empty() || out.back() != '#') out += '#';
    } else {
      out += ch;
    }
    if (out.size() >= 160) break;
  }
  return out;
}

}  // namespace

std::string FindingSignature(const Finding& f) {
  std::string signature = f.op + "|" + std::string(Name(f.type)) + "|" + KindName(f.kind) + "|";
  if (f.kind == FindingKind::kMismatch && !f.mismatches.empty()) {
    const MismatchedElement& m = f.mismatches.front();
    signature += ValueClass(m.expected) + "->" + ValueClass(m.actual) + "|" +
                 (m.ulp < 0 ? std::string("no ULPs")
                            : "ulp-bucket " + std::to_string(DistanceHistogram::UlpBucket(m.ulp)));
  } else {
    signature += WithoutNumbers(f.message);
  }
  return signature;
}

UnitResult UnitResultOf(const GroupResult& group) {
  UnitResult result;
  result.op = group.op;
  result.type = std::string(Name(group.type));
  result.cases = group.cases;
  result.passed = group.passed;
  result.failed = group.failed;
  result.deviating = group.deviating;
  result.differs_from_convention = group.differs_from_convention;
  result.skipped = group.skipped;
  if (group.failed > 0 && !group.findings.empty()) {
    const Finding& f = group.findings.front();
    StoredFinding stored;
    stored.signature = FindingSignature(f);
    stored.op = group.op;
    stored.type = result.type;
    stored.kind = KindName(f.kind);
    stored.summary = FindingSummary(f);
    stored.details = FindingDetails(f);
    stored.reproducer = f.reproducer;
    stored.replay = f.replay;
    stored.command = f.command;
    result.finding = std::move(stored);
  }
  return result;
}

}  // namespace hlocheck
