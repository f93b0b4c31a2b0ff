// The goodness-of-fit test of a result whose elements the spec makes random
// (rng): every element inside the distribution's support ([a, b) for
// uniform, not NaN for normal), and a Kolmogorov-Smirnov statistic within
// the Dvoretzky-Kiefer-Wolfowitz bound eps = sqrt(ln(2 / alpha) / (2 n)),
// which a sample of n from the distribution exceeds with probability at
// most alpha, whatever n (Massart's constant). Rounded samples are compared
// through the interval of reals that round to each value (and integers
// through the discrete distribution), which can only lower the statistic,
// so the false-alarm rate holds for every element type.
#ifndef HLOCHECK_ORACLE_DISTRIBUTION_TEST_H_
#define HLOCHECK_ORACLE_DISTRIBUTION_TEST_H_

#include "core/tensor.h"
#include "oracle/compare.h"
#include "oracle/expectation.h"

namespace hlocheck {

// Adds the result's failures to `out`: each element outside the support as
// a mismatch, or, for a sample that fails the fit, every element.
void TestDistribution(const DistributionTest& test, const Tensor& actual, ResultComparison& out);

}  // namespace hlocheck

#endif  // HLOCHECK_ORACLE_DISTRIBUTION_TEST_H_
