#include "runners/shrink.h"

#include <exception>
#include <optional>
#include <utility>

namespace hlocheck {

Shrunk Shrink(const std::function<CaseOutcome(const Case&)>& check, rc::Shrinkable<Case> failing,
              CaseOutcome outcome, int max_attempts) {
  Shrunk result;
  result.c = failing.value();
  result.outcome = std::move(outcome);
  bool progress = true;
  while (progress && result.attempts < max_attempts) {
    progress = false;
    int index = 0;
    auto shrinks = failing.shrinks();
    while (true) {
      rc::Maybe<rc::Shrinkable<Case>> candidate;
      try {
        candidate = shrinks.next();
      } catch (...) {
        // The shrink tree itself failed to go on: keep what was found.
        break;
      }
      if (!candidate) break;
      if (++result.attempts > max_attempts) break;
      std::optional<CaseOutcome> candidate_outcome;
      Case c;
      try {
        c = candidate->value();
        candidate_outcome = check(c);
      } catch (...) {
        // Not a failure of this candidate's backend run: try the next one.
      }
      if (candidate_outcome && candidate_outcome->failed()) {
        failing = *candidate;
        result.c = std::move(c);
        result.outcome = *std::move(candidate_outcome);
        result.path.push_back(index);
        progress = true;
        break;
      }
      ++index;
    }
  }
  return result;
}

}  // namespace hlocheck
