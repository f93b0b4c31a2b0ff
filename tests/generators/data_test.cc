#include "generators/data.h"

#include <cmath>
#include <optional>

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
