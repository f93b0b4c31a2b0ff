// RandomStream must give exactly the numbers rc::Random::next() gives, for
// generators fresh from a seed, split any number of times, and part-way
// through a block (where it hands over to rc::Random itself): every case
// the gate draws depends on it.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <random>

#include "generators/random_stream.h"

namespace hlocheck {
namespace {

::testing::AssertionResult SameNumbers(rc::Random random, int count) {
  RandomStream stream(random);
  for (int i = 0; i < count; ++i) {
    const uint64_t expected = random.next();
    const uint64_t got = stream.Next();
    if (got != expected) {
      return ::testing::AssertionFailure()
             << "number " << i << ": 0x" << std::hex << got << " instead of 0x" << expected;
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(RandomStreamTest, GivesRapidChecksNumbersFromSeeds) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{20261121}, ~uint64_t{0}}) {
    EXPECT_TRUE(SameNumbers(rc::Random(seed), 100000)) << "seed " << seed;
  }
}

TEST(RandomStreamTest, GivesRapidChecksNumbersAfterSplits) {
  std::mt19937_64 choices(5);
  rc::Random random(77);
  for (int i = 0; i < 2000; ++i) {
    // A path of up to 200 splits, taking either side (more than 64 splits
    // re-key the generator).
    rc::Random path = random;
    for (int depth = static_cast<int>(choices() % 200); depth > 0; --depth) {
      rc::Random right = path.split();
      if (choices() & 1) path = right;
    }
    ASSERT_TRUE(SameNumbers(path, 1 + static_cast<int>(choices() % 100))) << "path " << i;
  }
}

TEST(RandomStreamTest, GivesRapidChecksNumbersPartWayThroughABlock) {
  for (int used = 0; used < 9; ++used) {
    rc::Random random(9);
    for (int i = 0; i < used; ++i) random.next();
    EXPECT_TRUE(SameNumbers(random, 1000)) << used << " numbers used before";
  }
}

TEST(RandomStreamTest, ABlockIsFourNumbersOfAGenerator) {
  rc::Random random(std::array<uint64_t, 4>{1, 2, 3, 4});
  const std::array<uint64_t, 4> block = ThreefishBlock({1, 2, 3, 4}, 0, 0);
  for (uint64_t number : block) EXPECT_EQ(number, random.next());
  const std::array<uint64_t, 4> second = ThreefishBlock({1, 2, 3, 4}, 0, 4);
  for (uint64_t number : second) EXPECT_EQ(number, random.next());
}

}  // namespace
}  // namespace hlocheck
