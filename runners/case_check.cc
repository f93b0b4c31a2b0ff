#include "runners/case_check.h"

#include <algorithm>
#include <exception>
#include <utility>

#include "absl/status/status.h"
#include "adapters/program/program_backend.h"
#include "runners/deviations.h"
#include "spec/verifier.h"

namespace hlocheck {
namespace {

// What an exception said, for the message of the stage that threw it.
std::string Thrown(std::exception_ptr thrown) {
  try {
    std::rethrow_exception(std::move(thrown));
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

// Ends the check of a case with `kind`; returns false, PrepareCase's "do
// not run it".
// A quantized result whose every compared element has one allowed storage
// integer (the reference's): an exact check on the storage says it.
bool SingleStorageValues(const ResultExpectation& e) {
  for (size_t i = 0; i < e.storage_low.size(); ++i) {
    const bool free = i < e.free.size() && e.free[i] != 0;
    if (!free && e.storage_low[i] != e.storage_high[i]) return false;
  }
  return true;
}

bool Stop(CaseOutcome& outcome, CaseOutcome::Kind kind, std::string message) {
  outcome.kind = kind;
  outcome.message = std::move(message);
  return false;
}

}  // namespace

bool PrepareCase(const CaseContext& context, const spec::OpSpec& op, const Case& c,
                 CaseOutcome& outcome) {
  using Kind = CaseOutcome::Kind;
  outcome = CaseOutcome();
  try {
    spec::VerifyResult verdict = spec::Verify(op, c, context.registry);
    if (!verdict.valid()) {
      return Stop(outcome, Kind::kInvalid,
                  "the generated case violates the spec of " + op.name + ":\n" + verdict.Report());
    }
  } catch (...) {
    return Stop(outcome, Kind::kOracleError,
                "the spec verifier threw: " + Thrown(std::current_exception()));
  }

  if (context.profile != nullptr && HasQuantizedTensor(c)) {
    if (const Unsupported* u = context.profile->FindUnsupportedQuantized(op.name)) {
      return Stop(outcome, Kind::kSkipped,
                  "declared unsupported (" + context.profile->file + "): " + u->reason + " (" +
                      u->link + ")");
    }
  }

  AdapterSupport support;
  try {
    support = context.adapter->Supports(c);
  } catch (...) {
    return Stop(outcome, Kind::kBackendCrash,
                "Supports threw: " + Thrown(std::current_exception()));
  }
  if (!support.supported) return Stop(outcome, Kind::kSkipped, support.reason);

  try {
    auto expectations = context.oracle->Compute(c);
    if (!expectations.ok() && absl::IsUnimplemented(expectations.status())) {
      // A gap in the oracle (complex atan2, say): counted and reported as
      // skipped with its reason, never as a pass.
      return Stop(outcome, Kind::kSkipped,
                  "oracle: " + std::string(expectations.status().message()));
    }
    if (!expectations.ok()) {
      return Stop(outcome, Kind::kOracleError, std::string(expectations.status().message()));
    }
    outcome.expectations = *std::move(expectations);
    if (context.max_ulp_for) {
      // A gate config's tighter bound; an op checked exactly or by an error
      // bound keeps its check.
      const ElementType type =
          c.operands.empty() ? c.result_types[0].element_type : c.operands[0].element_type();
      if (std::optional<int> tighter = context.max_ulp_for(op.name, type)) {
        for (ResultExpectation& e : outcome.expectations) {
          if (e.check == Check::kUlp && *tighter < e.allowed_ulp) e.allowed_ulp = *tighter;
        }
      }
    }
  } catch (...) {
    return Stop(outcome, Kind::kOracleError,
                "the oracle threw: " + Thrown(std::current_exception()));
  }
  return true;
}

void FinishCase(const CaseContext& context, const Case& c,
                absl::StatusOr<std::vector<Tensor>> actual, CaseOutcome& outcome) {
  using Kind = CaseOutcome::Kind;
  if (!actual.ok()) {
    // A compiler's worker process that died or hung (adapters/worker) is
    // a finding of its own kind, not an error the backend returned.
    const Kind kind = IsWorkerCrash(actual.status())  ? Kind::kBackendCrash
                      : IsWorkerHang(actual.status()) ? Kind::kBackendHang
                                                      : Kind::kBackendError;
    if (kind == Kind::kBackendError && c.op == "dot_general" &&
        c.FindAttribute("lhs_precision_type") != nullptr) {
      // The public spec: "If a given algorithm is not supported, an error
      // should be raised as opposed to falling back to an alternative." An
      // error is then the conforming answer: skipped with it, not passed.
      Stop(outcome, Kind::kSkipped,
           "the backend declined dot_general's algorithm (the spec asks for an error where an "
           "algorithm is not supported): " +
               std::string(actual.status().message()).substr(0, 400));
      return;
    }
    Stop(outcome, kind, std::string(actual.status().message()));
    return;
  }
  outcome.actual = *std::move(actual);
  if (outcome.actual.size() != outcome.expectations.size()) {
    std::string message = "the backend returned " + std::to_string(outcome.actual.size()) +
                          " results, expected " + std::to_string(outcome.expectations.size());
    Stop(outcome, Kind::kWrongType, std::move(message));
    return;
  }

  try {
    outcome.comparisons = CompareResults(outcome.expectations, outcome.actual);
  } catch (...) {
    Stop(outcome, Kind::kOracleError,
         "comparing the results threw: " + Thrown(std::current_exception()));
    return;
  }
  bool differs_from_convention = false;
  for (const ResultComparison& comparison : outcome.comparisons) {
    if (comparison.type_mismatch) {
      outcome.kind = Kind::kWrongType;
      outcome.message = comparison.type_error;
    } else if (!comparison.ok() && outcome.kind == Kind::kPass) {
      outcome.kind = Kind::kMismatch;
    }
    differs_from_convention |= comparison.convention_differences > 0;
  }
  if (outcome.kind == Kind::kPass && differs_from_convention) outcome.kind = Kind::kConvention;
  if (outcome.kind == Kind::kMismatch && context.profile != nullptr) {
    try {
      ExcuseDeclaredDeviations(*context.profile, *context.oracle, c, outcome);
    } catch (...) {
      Stop(outcome, Kind::kOracleError,
           "checking the declared deviations threw: " + Thrown(std::current_exception()));
    }
  }
}

void RunAndFinishCase(const CaseContext& context, const Case& c, CaseOutcome& outcome) {
  absl::StatusOr<std::vector<Tensor>> actual;
  // PrepareCase asked Supports; Run may rely on it (adapter.h).
  try {
    actual = context.adapter->Run(c);
  } catch (...) {
    Stop(outcome, CaseOutcome::Kind::kBackendCrash,
         "the backend threw: " + Thrown(std::current_exception()));
    return;
  }
  FinishCase(context, c, std::move(actual), outcome);
}

CaseOutcome CheckCase(const CaseContext& context, const spec::OpSpec& op, const Case& c) {
  CaseOutcome outcome;
  if (PrepareCase(context, op, c, outcome)) RunAndFinishCase(context, c, outcome);
  return outcome;
}

std::vector<mlir::CaseCheck> ExpectedResults(const CaseOutcome& outcome) {
  std::vector<mlir::CaseCheck> checks;
  for (const ResultExpectation& e : outcome.expectations) {
    mlir::CaseCheck check;
    check.expected = e.reference;
    if (e.distribution != nullptr) {
      check.kind = mlir::CaseCheck::Kind::kComment;
      check.comment = "random; must be a sample " + e.distribution->Describe() +
                      " (hlocheck's support and Kolmogorov-Smirnov test; no check op says it)";
    } else if (e.check == Check::kStorageRange && !SingleStorageValues(e)) {
      check.kind = mlir::CaseCheck::Kind::kComment;
      check.comment =
          "quantized: each storage integer may lie in a range around the spec's value "
          "(hlocheck's storage-range check, docs/numerics.md; no check op says it)";
    } else if (e.check == Check::kUlp && e.allowed_ulp > 0) {
      check.kind = mlir::CaseCheck::Kind::kUlp;
      check.max_ulp = e.allowed_ulp;
    } else if (e.check == Check::kErrorBound) {
      // The check dialect has one tolerance per check: the widest of the
      // oracle's per-element bounds.
      check.kind = mlir::CaseCheck::Kind::kTolerance;
      for (double b : e.bound) check.tolerance = std::max(check.tolerance, b);
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

}  // namespace hlocheck
