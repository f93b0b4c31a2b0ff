// The distance histogram's buckets: every distance lands in the one bucket
// whose edges hold it, so a report's bars say what they claim.
#include "core/distance_histogram.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace hlocheck {
namespace {

TEST(DistanceHistogramTest, UlpBucketsDoubleAndCatchTheExtremes) {
  EXPECT_EQ(DistanceHistogram::UlpBucket(0), 0);
  EXPECT_EQ(DistanceHistogram::UlpBucket(1), 1);
  EXPECT_EQ(DistanceHistogram::UlpBucket(2), 2);
  EXPECT_EQ(DistanceHistogram::UlpBucket(3), 3);
  EXPECT_EQ(DistanceHistogram::UlpBucket(4), 3);
  EXPECT_EQ(DistanceHistogram::UlpBucket(5), 4);
  EXPECT_EQ(DistanceHistogram::UlpBucket(int64_t{1} << 20), 21);
  EXPECT_EQ(DistanceHistogram::UlpBucket((int64_t{1} << 20) + 1), DistanceHistogram::kBeyond);
  EXPECT_EQ(DistanceHistogram::UlpBucket(INT64_MAX), DistanceHistogram::kBeyond);
  EXPECT_EQ(DistanceHistogram::UlpBucket(-1), DistanceHistogram::kUnmeasured);
}

TEST(DistanceHistogramTest, FractionBucketsPutTheBoundItselfInside) {
  EXPECT_EQ(DistanceHistogram::FractionBucket(0), 0);
  EXPECT_EQ(DistanceHistogram::FractionBucket(1e-30), 1);
  EXPECT_EQ(DistanceHistogram::FractionBucket(0x1p-20), 1);
  EXPECT_EQ(DistanceHistogram::FractionBucket(0.5), 20);
  EXPECT_EQ(DistanceHistogram::FractionBucket(0.75), 21);
  EXPECT_EQ(DistanceHistogram::FractionBucket(1.0), 21);  // at the bound: allowed
  EXPECT_EQ(DistanceHistogram::FractionBucket(std::nextafter(1.0, 2.0)),
            DistanceHistogram::kBeyond);
  EXPECT_EQ(DistanceHistogram::FractionBucket(HUGE_VAL), DistanceHistogram::kBeyond);
  EXPECT_EQ(DistanceHistogram::FractionBucket(NAN), DistanceHistogram::kUnmeasured);
}

RC_GTEST_PROP(DistanceHistogramPropertyTest, EveryUlpDistanceLiesWithinItsBucketsEdges, ()) {
  const int shift = *rc::gen::inRange(0, 63);
  const int64_t ulp = *rc::gen::inRange<int64_t>(0, int64_t{1} << shift);
  const int b = DistanceHistogram::UlpBucket(ulp);
  RC_ASSERT(b >= 0);
  RC_ASSERT(b <= DistanceHistogram::kBeyond);
  if (b == 0) {
    RC_ASSERT(ulp == 0);
  } else {
    RC_ASSERT(static_cast<double>(ulp) > DistanceHistogram::UlpLower(b));
    RC_ASSERT(static_cast<double>(ulp) <= DistanceHistogram::UlpUpper(b));
  }
}

RC_GTEST_PROP(DistanceHistogramPropertyTest, EveryFractionLiesWithinItsBucketsEdges, ()) {
  const double fraction =
      std::ldexp(*rc::gen::inRange(1, 1 << 20) / double(1 << 20), *rc::gen::inRange(-30, 4));
  const int b = DistanceHistogram::FractionBucket(fraction);
  RC_ASSERT(b >= 1);
  RC_ASSERT(b <= DistanceHistogram::kBeyond);
  RC_ASSERT(fraction > DistanceHistogram::FractionLower(b));
  RC_ASSERT(fraction <= DistanceHistogram::FractionUpper(b));
}

}  // namespace
}  // namespace hlocheck
