// How far a backend's compared elements were from the oracle's reference,
// counted in buckets that double in width: the accuracy picture a report
// draws for an op and element type. The comparison fills it as it measures
// each element, so keeping it costs one increment per element.
#ifndef HLOCHECK_CORE_DISTANCE_HISTOGRAM_H_
#define HLOCHECK_CORE_DISTANCE_HISTOGRAM_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace hlocheck {

// Two units, one layout. Bucket 0 holds the elements at distance 0 and the
// last bucket those whose distance could not be measured (a NaN where a
// number was expected, or the other way round).
//  - ULPs: bucket b in 1..21 holds distances in (2^(b-2), 2^(b-1)]: 1, 2,
//    3..4, 5..8, ..., and bucket 22 everything above 2^20.
//  - error / bound (ops whose oracle returns an error bound): bucket 1
//    holds (0, 2^-20], bucket b in 2..21 holds (2^(b-22), 2^(b-21)], so
//    bucket 21 is (1/2, 1], the last within the bound; bucket 22 is above
//    the bound (an infinite ratio included).
struct DistanceHistogram {
  static constexpr int kBuckets = 24;
  static constexpr int kBeyond = 22;      // above 2^20 ULP, or above the bound
  static constexpr int kUnmeasured = 23;  // no distance (NaN against a number)
  std::array<int64_t, kBuckets> count{};

  void AddUlp(int64_t ulp) { ++count[UlpBucket(ulp)]; }
  void AddBoundFraction(double fraction) { ++count[FractionBucket(fraction)]; }
  void Add(const DistanceHistogram& other) {
    for (int b = 0; b < kBuckets; ++b) count[b] += other.count[b];
  }
  int64_t total() const {
    int64_t sum = 0;
    for (int64_t c : count) sum += c;
    return sum;
  }

  // ulp < 0: no distance.
  static int UlpBucket(int64_t ulp) {
    if (ulp < 0) return kUnmeasured;
    if (ulp == 0) return 0;
    return std::min(kBeyond, 1 + static_cast<int>(std::bit_width(static_cast<uint64_t>(ulp - 1))));
  }
  static int FractionBucket(double fraction) {
    if (std::isnan(fraction) || fraction < 0) return kUnmeasured;
    if (fraction == 0) return 0;
    if (fraction > 1) return kBeyond;
    if (fraction <= 0x1p-20) return 1;
    // fraction in (2^(e-1), 2^e] for e = ceil(log2(fraction)), -19..0.
    int exponent = 0;
    const double mantissa = std::frexp(fraction, &exponent);  // fraction = m * 2^exponent
    if (mantissa == 0.5) --exponent;                          // an exact power of two
    return 21 + exponent;
  }
  // Bucket b's distances are (lower, upper]; bucket 0 is [0, 0] and
  // kBeyond has no upper edge (infinity).
  static double UlpUpper(int b) {
    return b == 0         ? 0
           : b >= kBeyond ? std::numeric_limits<double>::infinity()
                          : std::ldexp(1, b - 1);
  }
  static double UlpLower(int b) { return b <= 1 ? 0 : std::ldexp(1, b - 2); }
  static double FractionUpper(int b) {
    return b == 0         ? 0
           : b >= kBeyond ? std::numeric_limits<double>::infinity()
                          : std::ldexp(1, b - 21);
  }
  static double FractionLower(int b) {
    return b <= 1 ? 0 : b >= kBeyond ? 1 : std::ldexp(1, b - 22);
  }
};

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_DISTANCE_HISTOGRAM_H_
