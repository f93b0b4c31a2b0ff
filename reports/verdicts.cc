#include "reports/verdicts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reports/gate_reports.h"

namespace hlocheck {

GroupVerdict VerdictOf(const GroupResult& g) {
  if (g.failed > 0 && !g.waiver.empty()) return GroupVerdict::kWaived;
  if (g.failed > 0) {
    switch (g.findings.empty() ? FindingKind::kMismatch : g.findings.front().kind) {
      case FindingKind::kOracleError:
      case FindingKind::kGeneratorError:
        return GroupVerdict::kHlocheckBug;
      case FindingKind::kBackendCrash:
      case FindingKind::kBackendHang:
        return GroupVerdict::kCrashOrHang;
      case FindingKind::kBackendError:
        return GroupVerdict::kBackendError;
      case FindingKind::kMismatch:
      case FindingKind::kWrongResultType:
        return GroupVerdict::kMismatch;
    }
  }
  if (g.deviating > 0) return GroupVerdict::kDeviation;
  if (g.differs_from_convention > 0) return GroupVerdict::kConvention;
  if (g.passed > 0 || g.skipped == 0) return GroupVerdict::kPass;
  // Every case skipped. A profile's "declared unsupported" entry, or an
  // adapter's "unsupported: ...", says the backend does not implement them.
  const std::string& why = g.skip_reason;
  if (why.rfind("declared unsupported", 0) == 0 || why.rfind("unsupported", 0) == 0 ||
      why.find("not implemented") != std::string::npos) {
    return GroupVerdict::kNotImplemented;
  }
  return GroupVerdict::kSkipped;
}

FailureCounts CountFailures(const GateRun& run) {
  FailureCounts counts;
  for (const GroupResult& g : run.groups) {
    if (g.failed == 0) continue;
    if (!g.waiver.empty()) {
      counts.waived_cases += g.failed;
      continue;
    }
    ++counts.groups;
    counts.cases += g.failed;
  }
  return counts;
}

const char* VerdictName(GroupVerdict verdict) {
  switch (verdict) {
    case GroupVerdict::kHlocheckBug:
      return "hlocheck-bug";
    case GroupVerdict::kCrashOrHang:
      return "crash-hang";
    case GroupVerdict::kBackendError:
      return "backend-error";
    case GroupVerdict::kMismatch:
      return "mismatch";
    case GroupVerdict::kWaived:
      return "waived";
    case GroupVerdict::kDeviation:
      return "deviation";
    case GroupVerdict::kConvention:
      return "convention";
    case GroupVerdict::kPass:
      return "pass";
    case GroupVerdict::kNotImplemented:
      return "not-implemented";
    case GroupVerdict::kSkipped:
      return "skipped";
  }
  return "?";
}

const char* ChangeName(GroupChange::Kind kind) {
  switch (kind) {
    case GroupChange::Kind::kNewFailure:
      return "new failure";
    case GroupChange::Kind::kFixed:
      return "fixed";
    case GroupChange::Kind::kBoundRegression:
      return "bound regression";
  }
  return "?";
}

int64_t RunComparison::count(GroupChange::Kind kind) const {
  return std::count_if(changes.begin(), changes.end(),
                       [kind](const GroupChange& c) { return c.kind == kind; });
}

const GroupChange* RunComparison::Find(const std::string& op, ElementType type) const {
  for (const GroupChange& c : changes) {
    if (c.op == op && c.type == type) return &c;
  }
  return nullptr;
}

namespace {

std::string Ratio(double value) {
  if (!std::isfinite(value)) return "infinite";
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", value);
  return text;
}

}  // namespace

RunComparison CompareWithBaseline(const GateRun& baseline, const std::string& baseline_file,
                                  const GateRun& current) {
  RunComparison comparison;
  comparison.baseline_file = baseline_file;
  if (baseline.seed != current.seed) comparison.caveats.push_back("the runs used different seeds");
  if (baseline.cases_per_group != current.cases_per_group) {
    comparison.caveats.push_back("the runs drew different numbers of cases per group (" +
                                 std::to_string(baseline.cases_per_group) + " then, " +
                                 std::to_string(current.cases_per_group) + " now)");
  }
  if (baseline.max_elements != current.max_elements && baseline.max_elements > 0) {
    comparison.caveats.push_back("the runs generated tensors of different largest sizes");
  }
  if (!baseline.spec_digest.empty() && baseline.spec_digest != current.spec_digest) {
    comparison.caveats.push_back("the spec files differ (digest " + baseline.spec_digest +
                                 " then, " + current.spec_digest + " now)");
  }
  if (baseline.backend != current.backend) {
    comparison.caveats.push_back("the runs checked different backends (" + baseline.backend +
                                 " then, " + current.backend + " now)");
  }
  std::map<std::pair<std::string, ElementType>, const GroupResult*> before;
  for (const GroupResult& g : baseline.groups) before[{g.op, g.type}] = &g;
  std::vector<GroupChange> failures, fixes, regressions;
  for (const GroupResult& g : current.groups) {
    auto it = before.find({g.op, g.type});
    const GroupResult* old = it == before.end() ? nullptr : it->second;
    const bool fails = g.failed > 0;
    if (fails && (old == nullptr || old->failed == 0)) {
      std::string detail = g.findings.empty() ? std::to_string(g.failed) + " failed case(s)"
                                              : std::string(KindName(g.findings.front().kind)) +
                                                    ": " + FindingSummary(g.findings.front());
      if (old == nullptr) detail += " (not in the baseline)";
      failures.push_back({GroupChange::Kind::kNewFailure, g.op, g.type, detail});
    } else if (!fails && old != nullptr && old->failed > 0 && g.passed > 0) {
      fixes.push_back({GroupChange::Kind::kFixed, g.op, g.type,
                       std::to_string(old->failed) + " failed case(s) in the baseline, none now"});
    } else if (!fails && old != nullptr && old->failed == 0) {
      if (g.check == "ulp" && g.worst_ulp > old->worst_ulp && old->worst_ulp >= 0) {
        regressions.push_back({GroupChange::Kind::kBoundRegression, g.op, g.type,
                               "worst " + std::to_string(g.worst_ulp) + " ULP, was " +
                                   std::to_string(old->worst_ulp) + " (allowed " +
                                   std::to_string(g.allowed_ulp) + ")"});
      } else if (g.check == "bound" && g.worst_bound_fraction > old->worst_bound_fraction &&
                 old->check == "bound") {
        regressions.push_back({GroupChange::Kind::kBoundRegression, g.op, g.type,
                               "worst |error| / bound " + Ratio(g.worst_bound_fraction) + ", was " +
                                   Ratio(old->worst_bound_fraction)});
      }
    }
  }
  for (auto* list : {&failures, &fixes, &regressions}) {
    comparison.changes.insert(comparison.changes.end(), list->begin(), list->end());
  }
  return comparison;
}

}  // namespace hlocheck
