// Judging what a backend returned for a program against its reference
// (program_check.h): JudgeProgram, and what counts as the same failure
// while a program shrinks.
#include <string>

#include "adapters/program/program_backend.h"
#include "core/literal.h"
#include "runners/deviations.h"
#include "runners/program_check.h"

namespace hlocheck {

const char* ProgramOutcomeKindName(ProgramOutcome::Kind kind) {
  switch (kind) {
    case ProgramOutcome::Kind::kPass:
      return "pass";
    case ProgramOutcome::Kind::kMismatch:
      return "mismatch";
    case ProgramOutcome::Kind::kDeviation:
      return "deviation";
    case ProgramOutcome::Kind::kBackendError:
      return "backend error";
    case ProgramOutcome::Kind::kCrash:
      return "crash";
    case ProgramOutcome::Kind::kHang:
      return "hang";
  }
  return "?";
}

ProgramOutcome JudgeProgram(const ProgramReference& reference,
                            const absl::StatusOr<std::vector<Tensor>>& backend,
                            const BackendProfile* profile) {
  ProgramOutcome outcome;
  if (!backend.ok()) {
    outcome.kind = IsWorkerCrash(backend.status())  ? ProgramOutcome::Kind::kCrash
                   : IsWorkerHang(backend.status()) ? ProgramOutcome::Kind::kHang
                                                    : ProgramOutcome::Kind::kBackendError;
    outcome.message = std::string(backend.status().message());
    return outcome;
  }
  if (backend->size() != reference.outputs.size()) {
    outcome.kind = ProgramOutcome::Kind::kBackendError;
    outcome.message = "returned " + std::to_string(backend->size()) + " outputs, @main has " +
                      std::to_string(reference.outputs.size());
    return outcome;
  }
  std::set<std::string> excused;
  int64_t unexpected_total = 0;
  for (size_t i = 0; i < backend->size(); ++i) {
    ResultComparison comparison = CompareResult(reference.outputs[i], (*backend)[i]);
    int64_t unexpected = 0;
    if (comparison.type_mismatch) {
      unexpected = 1;
    } else {
      for (int64_t index : comparison.mismatch_indices) {
        const uint64_t bits = reference.output_deviations[i][static_cast<size_t>(index)];
        if (bits == 0 || profile == nullptr) {
          ++unexpected;
          continue;
        }
        for (size_t k = 0; k < profile->deviations.size() && k < 64; ++k) {
          if (bits & (uint64_t{1} << k)) excused.insert(profile->deviations[k].id);
        }
      }
    }
    // Elements the expectation leaves free but bounds past freedom hold.
    if (!comparison.type_mismatch && i < reference.output_bounds.size()) {
      const ResultExpectation& e = reference.outputs[i];
      const ElementBounds& bounds = reference.output_bounds[i];
      for (size_t k = 0; k < e.free.size(); ++k) {
        if (e.free[k] == 0 || !bounds.bounded[k]) continue;
        const auto index = static_cast<int64_t>(k);
        if (bounds.Holds(index, (*backend)[i])) continue;
        const uint64_t bits = reference.output_deviations[i][k];
        if (bits != 0 && profile != nullptr) {
          for (size_t d = 0; d < profile->deviations.size() && d < 64; ++d) {
            if (bits & (uint64_t{1} << d)) excused.insert(profile->deviations[d].id);
          }
          continue;
        }
        ++unexpected;
        ++comparison.mismatches;
        if (outcome.message.empty()) {
          const size_t bytes = static_cast<size_t>(ContainerBytes((*backend)[i].element_type()));
          outcome.message = "output " + std::to_string(i) + ": element " + std::to_string(k) +
                            " is " +
                            PrintElementLiteral((*backend)[i].element_type(),
                                                (*backend)[i].bytes().data() + k * bytes) +
                            ", outside the bound carried past freedom " + bounds.Describe(index);
        }
      }
    }
    if (unexpected > 0 && outcome.message.empty()) {
      outcome.message = "output " + std::to_string(i) + ": ";
      if (comparison.type_mismatch) {
        outcome.message += comparison.type_error;
      } else if (!comparison.first_mismatches.empty()) {
        const ElementMismatch& m = comparison.first_mismatches.front();
        outcome.message += "element " + std::to_string(m.index) + " is " + m.actual +
                           ", expected " + m.expected + " (" + m.allowed + ")";
      }
    }
    unexpected_total += unexpected;
    outcome.unexpected.push_back(unexpected);
    outcome.comparisons.push_back(std::move(comparison));
  }
  outcome.excused_by.assign(excused.begin(), excused.end());
  if (unexpected_total > 0) {
    outcome.kind = ProgramOutcome::Kind::kMismatch;
  } else if (!excused.empty()) {
    outcome.kind = ProgramOutcome::Kind::kDeviation;
  }
  return outcome;
}

namespace {

// A backend error's words without what shrinking changes (numbers: shapes,
// line and column, value names), first line only.
std::string ErrorClass(const std::string& message) {
  std::string out;
  for (char c : message.substr(0, message.find('\n'))) {
    if (c >= '0' && c <= '9') {
      if (out.empty() || out.back() != '#') out += '#';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

bool SameFailure(const ProgramOutcome& a, const ProgramOutcome& b) {
  if (a.kind != b.kind || a.kind == ProgramOutcome::Kind::kPass) return false;
  // A compiler's error must stay the same error: a smaller program can fail
  // for a reason of its own (a type the compiler takes nowhere, ...).
  return a.kind != ProgramOutcome::Kind::kBackendError ||
         ErrorClass(a.message) == ErrorClass(b.message);
}

}  // namespace hlocheck
