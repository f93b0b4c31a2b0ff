// Shrinking a failing case: walk its RapidCheck shrink tree greedily,
// taking the first smaller case that still fails, until none does.
#ifndef HLOCHECK_RUNNERS_SHRINK_H_
#define HLOCHECK_RUNNERS_SHRINK_H_

#include <functional>
#include <vector>

#include "core/case.h"
#include "rapidcheck.h"
#include "runners/case_check.h"

namespace hlocheck {

struct Shrunk {
  Case c;                 // the smallest failing case found
  CaseOutcome outcome;    // its outcome
  std::vector<int> path;  // the shrink path to it, for its replay key
  int attempts = 0;       // candidates checked
};

// `check` decides whether a candidate still fails (CaseOutcome::failed).
// A candidate whose generation or check throws is passed over as not
// failing, so an exception while shrinking never ends a run: the smallest
// failing case found so far is kept. At most `max_attempts` candidates.
Shrunk Shrink(const std::function<CaseOutcome(const Case&)>& check, rc::Shrinkable<Case> failing,
              CaseOutcome outcome, int max_attempts);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_SHRINK_H_
