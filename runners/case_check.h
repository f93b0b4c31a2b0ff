// Checking one case: verify it against its op's spec, ask the backend
// whether it runs it, compute the oracle's expectation, run the backend,
// compare. A failing stage, an exception included, is reported as that
// stage's failure, so a thrown exception never ends a run.
#ifndef HLOCHECK_RUNNERS_CASE_CHECK_H_
#define HLOCHECK_RUNNERS_CASE_CHECK_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "core/case.h"
#include "mlir/writer.h"
#include "oracle/compare.h"
#include "oracle/oracle.h"
#include "runners/backend_profile.h"
#include "spec/registry.h"

namespace hlocheck {

// Everything about running one case against the oracle and a backend.
struct CaseOutcome {
  enum class Kind {
    kPass,
    kMismatch,
    kWrongType,     // the wrong number, shape or element type of results
    kBackendError,  // the backend returned an error status
    kBackendCrash,  // the backend threw, or its worker process died
    kBackendHang,   // the backend's worker gave no answer within the case timeout
    kDeviation,     // every mismatched element is one the backend's profile declares
    // No mismatch, but elements the spec leaves open where the backend's
    // answer differs from the value the interpreter and XLA agree on
    // (kFreeWithConvention): shown, never a failure.
    kConvention,
    kSkipped,      // the backend (or the oracle) cannot run it: never a pass
    kInvalid,      // the case violates its op's spec: a generator bug
    kOracleError,  // the oracle, the verifier or the comparison failed or threw
    kGeneratorError,
  };
  Kind kind = Kind::kPass;
  std::string message;
  std::vector<ResultExpectation> expectations;
  std::vector<Tensor> actual;
  std::vector<ResultComparison> comparisons;
  // kDeviation (and a kMismatch some of whose elements are excused): the
  // elements each declared deviation excused, by its id.
  std::map<std::string, int64_t> excused;

  // The backend's fault: worth shrinking and reporting as its finding.
  bool failed() const {
    return kind == Kind::kMismatch || kind == Kind::kWrongType || kind == Kind::kBackendError ||
           kind == Kind::kBackendCrash || kind == Kind::kBackendHang;
  }
};

// What checking a case needs; not owned.
struct CaseContext {
  const spec::SpecRegistry* registry;
  const Oracle* oracle;
  Adapter* adapter;
  const BackendProfile* profile = nullptr;  // the backend's declared deviations, if any
  // GateOptions::max_ulp_for of the group being run; unset: none.
  std::function<std::optional<int>(const std::string& op, ElementType type)> max_ulp_for;
};

// Verifies the case once, asks Adapter::Supports once, then runs the oracle
// and the backend and compares. Text is formatted only for what failed.
CaseOutcome CheckCase(const CaseContext& context, const spec::OpSpec& op, const Case& c);

// CheckCase in its two halves, for a runner that hands the backend many
// cases at once (Adapter::RunBatch): PrepareCase verifies, asks Supports and
// runs the oracle, and says whether the backend is to run the case (if not,
// `outcome` is final: invalid, skipped, an oracle error); FinishCase takes
// the backend's answer and compares.
bool PrepareCase(const CaseContext& context, const spec::OpSpec& op, const Case& c,
                 CaseOutcome& outcome);
void FinishCase(const CaseContext& context, const Case& c,
                absl::StatusOr<std::vector<Tensor>> actual, CaseOutcome& outcome);
// A prepared case run alone (Adapter::Run), then FinishCase.
void RunAndFinishCase(const CaseContext& context, const Case& c, CaseOutcome& outcome);

// The oracle's answers as reproducer checks: exact where the comparison is
// bit for bit, "almost" where the op allows some error (each expectation's
// own allowed_ulp or error bound).
std::vector<mlir::CaseCheck> ExpectedResults(const CaseOutcome& outcome);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_CASE_CHECK_H_
