// Which of a case's mismatched elements a backend's declared deviations
// (backend_profile.h) excuse. Each deviation is checked element by element:
// an element is excused when it matches the expectation the deviation
// describes (the oracle's result with subnormal inputs taken as zero, say);
// a case whose every mismatched element is excused is "deviating as
// declared", any other element keeps it an unexpected mismatch.
#ifndef HLOCHECK_RUNNERS_DEVIATIONS_H_
#define HLOCHECK_RUNNERS_DEVIATIONS_H_

#include "runners/backend_profile.h"
#include "runners/case_check.h"

namespace hlocheck {

// On a kMismatch outcome: counts the elements each applicable deviation
// excuses (outcome.excused) and makes the outcome kDeviation when they are
// all of its mismatches. Other outcomes are left alone.
void ExcuseDeclaredDeviations(const BackendProfile& profile, const Oracle& oracle, const Case& c,
                              CaseOutcome& outcome);

// `tensor` with every subnormal float element (each part of a complex one)
// replaced by zero of the same sign; other types unchanged.
Tensor FlushSubnormals(const Tensor& tensor);
// Every float element of magnitude below `smallest_normal` (a narrower
// type's smallest normal value) taken as zero, its sign kept.
Tensor FlushBelow(const Tensor& tensor, double smallest_normal);
bool HasSubnormals(const Tensor& tensor);
// Whether `bits` encode a subnormal of `format`.
bool IsSubnormal(const FloatFormat& format, uint64_t bits);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_DEVIATIONS_H_
