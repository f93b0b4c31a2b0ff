#include "oracle/distribution_test.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core/element_value.h"
#include "core/exact_value.h"

namespace hlocheck {
namespace {

// One sample as the test reads it: its value, and bounds on P(X < value)
// and P(X <= value) under the distribution (through the interval of reals
// that round to it; exact for integers).
struct Sample {
  double value;
  double shown;  // the value as the message prints it
  double below;  // a lower bound on P(X < value)
  double upto;   // an upper bound on P(X <= value)
};

double Cdf(const DistributionTest& t, double x) {
  switch (t.kind) {
    case DistributionTest::Kind::kUniformReal: {
      // Differences first (exact where x is near a); halved where they
      // would overflow.
      const double offset = x - t.a, width = t.b - t.a;
      const double ratio = std::isfinite(offset) && std::isfinite(width)
                               ? offset / width
                               : (x / 2 - t.a / 2) / (t.b / 2 - t.a / 2);
      return std::clamp(ratio, 0.0, 1.0);
    }
    case DistributionTest::Kind::kUniformInteger:
      // P(X <= x) over the integers of [a, b).
      return std::clamp((std::floor(x) - t.a + 1) / (t.b - t.a), 0.0, 1.0);
    case DistributionTest::Kind::kNormal: {
      // x - a first (exact where x is near a, as a sample of a small
      // deviation around a large mean is); scaled first where it overflows.
      const double offset = x - t.a;
      const double z = std::isfinite(offset) ? offset / t.b : x / t.b - t.a / t.b;
      return 0.5 * std::erfc(-z / std::numbers::sqrt2);
    }
  }
  return 0;
}

// A normal sample beyond a type without infinities overflows to NaN (or
// saturates): `overflow_nan` says whether NaN is that overflow.
bool InSupport(const DistributionTest& t, double x, bool overflow_nan) {
  // (An integer sample outside [a, b) comes as NaN: Samples decides it exactly.)
  if (std::isnan(x)) return overflow_nan && t.kind == DistributionTest::Kind::kNormal;
  if (t.kind == DistributionTest::Kind::kUniformInteger) return true;
  if (t.kind == DistributionTest::Kind::kNormal) return t.b > 0 || x == t.a;
  return x >= t.a && x < t.b;
}

template <ElementType T>
std::vector<Sample> Samples(const DistributionTest& t, const Tensor& actual) {
  std::vector<Sample> samples;
  auto values = actual.values<T>();
  for (const auto& v : values) {
    const double x = ToDouble<T>(v);
    Sample s{x, x, 0, 1};
    if constexpr (IsFloat(T)) {
      // The reals that any monotone rounding (to nearest, down, up, or a
      // draw kept below b) takes to x lie strictly between its neighbours.
      const FloatFormat& f = Format(T);
      const uint64_t bits = FloatBits<T>(v);
      const double down = DecodeFloat(f, NextFloatBits(f, bits, true)).ToDouble();
      const double up = DecodeFloat(f, NextFloatBits(f, bits, false)).ToDouble();
      const double lo = std::isfinite(down) && down < x ? down : -HUGE_VAL;
      const double hi = std::isfinite(up) && up > x ? up : HUGE_VAL;
      s.below = Cdf(t, lo);
      s.upto = Cdf(t, hi);
    } else {
      // The sample's rank in [a, b) exactly, in 64-bit modular arithmetic;
      // outside it (rank >= b - a) the support check fails it.
      const uint64_t rank = IntegerBits<T>(v) - t.integer_a;
      const double span = static_cast<double>(t.integer_span);
      s.value = rank < t.integer_span ? x : std::nan("");
      s.below = std::min(1.0, static_cast<double>(rank) / span);
      s.upto = std::min(1.0, (static_cast<double>(rank) + 1) / span);
    }
    samples.push_back(s);
  }
  return samples;
}

}  // namespace

std::string DistributionTest::Describe() const {
  auto number = [](double v) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.9g", v);
    return std::string(text);
  };
  switch (kind) {
    case Kind::kUniformReal:
      return "uniform over [" + number(a) + ", " + number(b) + ")";
    case Kind::kUniformInteger:
      return "uniform over the integers of [" + number(a) + ", " + number(b) + ")";
    case Kind::kNormal:
      return "normal with mean " + number(a) + " and standard deviation " + number(b);
  }
  return "?";
}

void TestDistribution(const DistributionTest& test, const Tensor& actual, ResultComparison& out) {
  std::vector<Sample> samples;
  DispatchElementType(actual.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T) || (IsInteger(T))) samples = Samples<T>(test, actual);
  });
  const bool overflow_nan = IsFloat(actual.element_type()) &&
                            Format(actual.element_type()).overflow_rule() == OverflowRule::kNaN;
  const auto n = static_cast<int64_t>(samples.size());
  if (n == 0) return;
  auto add = [&](int64_t index, const std::string& actual_text, const std::string& allowed) {
    ++out.mismatches;
    out.mismatch_indices.push_back(index);
    if (out.first_mismatches.size() < 4) {
      out.first_mismatches.push_back(
          {index, {}, "a sample " + test.Describe(), actual_text, allowed, -1});
    }
  };
  bool outside = false;
  bool overflowed = false;
  for (int64_t i = 0; i < n; ++i) {
    overflowed = overflowed || (std::isnan(samples[i].value) &&
                                test.kind != DistributionTest::Kind::kUniformInteger);
    if (InSupport(test, samples[i].value, overflow_nan)) continue;
    outside = true;
    char text[32];
    std::snprintf(text, sizeof(text), "%.9g", samples[i].shown);
    add(i, text, "inside the distribution's support");
  }
  // A NaN of overflow has no place in the order: no fit test then.
  if (outside || overflowed || (test.kind == DistributionTest::Kind::kNormal && test.b == 0)) {
    return;
  }
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    // Then by rank: 64-bit integers that one double holds.
    return samples[x].value < samples[y].value ||
           (samples[x].value == samples[y].value && samples[x].below < samples[y].below);
  });
  double statistic = 0;
  for (int64_t k = 0; k < n; ++k) {
    const Sample& s = samples[order[k]];
    statistic = std::max(
        {statistic, static_cast<double>(k + 1) / n - s.upto, s.below - static_cast<double>(k) / n});
  }
  const double epsilon = std::sqrt(std::log(2 / test.false_alarm) / (2.0 * n));
  if (statistic <= epsilon) return;
  char text[96];
  std::snprintf(text, sizeof(text), "Kolmogorov-Smirnov D = %.4g over %lld samples", statistic,
                static_cast<long long>(n));
  char allowed[96];
  std::snprintf(allowed, sizeof(allowed), "D <= %.4g (false alarm %.0e)", epsilon,
                test.false_alarm);
  // The whole sample fails: every element is part of the finding.
  add(0, text, allowed);
  for (int64_t i = 1; i < n; ++i) {
    ++out.mismatches;
    out.mismatch_indices.push_back(i);
  }
}

}  // namespace hlocheck
