#include "generators/data.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>

#include "core/element_value.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace hlocheck {
namespace {

// Following any chain of shrinks ends: every candidate is strictly simpler,
// so no tensor can come back. (A 0 <-> 1 cycle once made the gate shrink
// until its attempt limit.)
TEST(TensorDataTest, ShrinkingTerminatesForEveryTypeAndPolicy) {
  for (ElementType type : AllElementTypes()) {
    for (DataPolicy policy : AllDataPolicies()) {
      for (uint64_t seed = 0; seed < 4; ++seed) {
        rc::Shrinkable<Tensor> shrinkable =
            TensorData(TensorType{{3, 2}, type}, policy)(rc::Random(seed), 50);
        for (int pick : {0, 1, 2}) {
          rc::Shrinkable<Tensor> current = shrinkable;
          int steps = 0;
          while (true) {
            // Take the last candidate, or the `pick`-th: different paths down.
            auto shrinks = current.shrinks();
            std::optional<rc::Shrinkable<Tensor>> chosen;
            int index = 0;
            while (auto next = shrinks.next()) {
              ASSERT_FALSE(next->value().BitwiseEquals(current.value()))
                  << Name(type) << ": a shrink equal to its origin";
              if (index++ <= pick) chosen = *next;
            }
            if (!chosen) break;
            current = *chosen;
            ASSERT_LT(++steps, 2000)
                << Name(type) << " " << DataPolicyName(policy) << ": shrinking does not terminate";
          }
        }
      }
    }
  }
}

// kRoundingTies: most f32 values are exact ties of bf16 (or f16, or an f8
// format), or one ULP beside one, spread over many binades, not only near 1.
TEST(TensorDataTest, RoundingTiesCoverTheNarrowFormatsAcrossBinades) {
  const Tensor data = TensorData(TensorType{{4000}, ElementType::kF32}, DataPolicy::kRoundingTies)(
                          rc::Random(11), 50)
                          .value();
  int bf16_ties = 0, f16_ties = 0, near_ties = 0;
  std::set<int> bf16_binades;
  for (float v : data.values<ElementType::kF32>()) {
    // v is a tie of a format with m significand bits when its f32 pattern's
    // lowest 23 - (m - 1) bits are exactly 100...0.
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    auto tie_of = [&](int mantissa_bits) {
      const uint32_t low = bits & ((1u << (23 - mantissa_bits)) - 1);
      return low == (1u << (22 - mantissa_bits));
    };
    auto beside = [&](int mantissa_bits) {
      const uint32_t low = bits & ((1u << (23 - mantissa_bits)) - 1);
      const uint32_t tie = 1u << (22 - mantissa_bits);
      return low == tie - 1 || low == tie + 1;
    };
    if (tie_of(7)) {
      ++bf16_ties;
      bf16_binades.insert(std::ilogb(v));
    }
    if (tie_of(10)) ++f16_ties;
    if (beside(7) || beside(10)) ++near_ties;
  }
  EXPECT_GT(bf16_ties, 100);
  EXPECT_GT(f16_ties, 100);
  EXPECT_GT(near_ties, 100);
  EXPECT_GT(bf16_binades.size(), 100u);  // bf16 has 254 binades
  // The policy is new in generation 3: generation 2 never draws it.
  const std::vector<DataPolicy> v2 = DataPoliciesOfVersion(2);
  EXPECT_EQ(std::count(v2.begin(), v2.end(), DataPolicy::kRoundingTies), 0);
  EXPECT_EQ(AllDataPolicies().size(), 5u);
}

// kCancellation: one magnitude per tensor with small deviations; the signs
// all positive (a large mean, a small spread) or mixed (sums that cancel):
// the sum of the values is much smaller than the sum of their magnitudes in
// the mixed tensors, and the spread much smaller than the mean in the others.
TEST(TensorDataTest, CancellationGivesSumsThatCancelAndSpreadsSmallAgainstTheMean) {
  int cancelling = 0, narrow_spread = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const Tensor data = TensorData(TensorType{{256}, ElementType::kF32}, DataPolicy::kCancellation)(
                            rc::Random(seed), 50)
                            .value();
    double sum = 0, magnitude = 0, low = HUGE_VAL, high = -HUGE_VAL;
    for (float v : data.values<ElementType::kF32>()) {
      ASSERT_TRUE(std::isfinite(v));
      sum += v;
      magnitude += std::fabs(v);
      low = std::min<double>(low, v);
      high = std::max<double>(high, v);
    }
    if (low > 0 && (high - low) < low) ++narrow_spread;
    if (low < 0 && std::fabs(sum) < 0.25 * magnitude) ++cancelling;
  }
  EXPECT_GT(cancelling, 10);
  EXPECT_GT(narrow_spread, 5);
  EXPECT_EQ(cancelling + narrow_spread, 40);
  const std::vector<DataPolicy> v3 = DataPoliciesOfVersion(3);
  EXPECT_EQ(std::count(v3.begin(), v3.end(), DataPolicy::kCancellation), 0);
}

TEST(TensorDataTest, TheFirstShrinkIsAllZeros) {
  rc::Shrinkable<Tensor> data =
      TensorData(TensorType{{4}, ElementType::kF32}, DataPolicy::kUniform)(rc::Random(3), 50);
  auto first = data.shrinks().next();
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->value().BitwiseEquals(Tensor(TensorType{{4}, ElementType::kF32})));
}

RC_GTEST_PROP(TensorDataTest, SmallIntegersAreSmallIntegers, ()) {
  const ElementType type = *rc::gen::element(ElementType::kF16, ElementType::kF32,
                                             ElementType::kSI8, ElementType::kBF16);
  Tensor t = *TensorData(TensorType{{8}, type}, DataPolicy::kSmallIntegers);
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsFloat(T) || IsInteger(T)) {
      for (auto v : t.values<T>()) {
        double d = ToDouble<T>(v);
        RC_ASSERT(d == std::trunc(d));
        RC_ASSERT(std::fabs(d) <= 8);
      }
    }
  });
}

}  // namespace
}  // namespace hlocheck
