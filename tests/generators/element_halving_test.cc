// Element halving: an elementwise case whose one failing element lies far
// from the origin shrinks to that element alone, in about log2(n) steps;
// ops whose elements are not independent get no halves; and the shrinks
// the generator had keep their places where a recorded shrink path of
// version 1 needs them.
#include <gtest/gtest.h>

#include <functional>

#include "generators/element_halving.h"
#include "tests/support/case_builders.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::Literal;
using ::hlocheck::testing::TestRegistry;

// Greedy shrinking as the gate does it: the first candidate that still
// fails is taken, until none does.
Case ShrinkWhile(rc::Shrinkable<Case> failing, const std::function<bool(const Case&)>& fails,
                 int* steps) {
  *steps = 0;
  for (bool progress = true; progress;) {
    progress = false;
    auto shrinks = failing.shrinks();
    while (auto candidate = shrinks.next()) {
      if (fails(candidate->value())) {
        failing = *candidate;
        ++*steps;
        progress = true;
        break;
      }
    }
  }
  return failing.value();
}

bool HoldsSeven(const Case& c) {
  for (int32_t v : c.operands[0].values<ElementType::kSI32>()) {
    if (v == 7) return true;
  }
  return false;
}

TEST(ElementHalvingTest, AFarElementShrinksToItselfAlone) {
  Tensor lhs(Shape{6, 7, 5}, ElementType::kSI32);
  lhs.values<ElementType::kSI32>()[5 * 35 + 6 * 5 + 1] = 7;  // the last rows
  Case c = testing::MakeCase("add", {lhs, Tensor(Shape{6, 7, 5}, ElementType::kSI32)},
                             TensorType({6, 7, 5}, ElementType::kSI32));
  int steps = 0;
  Case shrunk =
      ShrinkWhile(WithElementHalving(*TestRegistry().Find("add"), rc::shrinkable::just(c), true),
                  HoldsSeven, &steps);
  EXPECT_EQ(shrunk.operands[0].num_elements(), 1);
  EXPECT_EQ(shrunk.operands[0].values<ElementType::kSI32>()[0], 7);
  EXPECT_EQ(shrunk.operands[1].num_elements(), 1);
  EXPECT_EQ(shrunk.result_types[0].shape, Shape{1});
  EXPECT_LE(steps, 9);  // ceil(log2(210)) = 8 halvings, give or take one
}

TEST(ElementHalvingTest, ScalarOperandsStayAndOtherOpsGetNoHalves) {
  Case clamp = testing::MakeCase(
      "clamp",
      {Literal("dense<1.0> : tensor<f32>"), Literal("dense<[0.0, 2.0, 3.0, 4.0]> : tensor<4xf32>"),
       Literal("dense<3.0> : tensor<f32>")},
      TensorType({4}, ElementType::kF32));
  auto half = HalfOfElements(*TestRegistry().Find("clamp"), clamp, /*second=*/true);
  ASSERT_TRUE(half.has_value());
  EXPECT_EQ(half->operands[0].rank(), 0);
  EXPECT_EQ(half->operands[1], Literal("dense<[3.0, 4.0]> : tensor<2xf32>"));
  EXPECT_EQ(half->operands[2].rank(), 0);
  EXPECT_EQ(half->result_types[0].shape, Shape{2});

  Case transpose =
      testing::MakeCase("transpose", {Literal("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>")},
                        TensorType({2, 2}, ElementType::kSI32));
  EXPECT_FALSE(HalfOfElements(*TestRegistry().Find("transpose"), transpose, false).has_value());
  Case one = testing::MakeCase("abs", {Literal("dense<[-1]> : tensor<1xi32>")},
                               TensorType({1}, ElementType::kSI32));
  EXPECT_FALSE(HalfOfElements(*TestRegistry().Find("abs"), one, false).has_value());
}

// Version 1 keys: the shrinks a case had keep their places (a recorded
// shrink path indexes them) and the halves come after them; version 2:
// the halves first.
TEST(ElementHalvingTest, TheOwnShrinksComeFirstAndTheHalvesLast) {
  auto add_of = [](const std::string& values, int64_t n) {
    return testing::MakeCase(
        "add",
        {Literal("dense<" + values + "> : tensor<" + std::to_string(n) + "xi32>"),
         Literal("dense<0> : tensor<" + std::to_string(n) + "xi32>")},
        TensorType({n}, ElementType::kSI32));
  };
  // A case whose own shrinks are two others (made up for the test).
  rc::Shrinkable<Case> own =
      rc::shrinkable::shrinkRecur(add_of("[1, 2, 3, 4]", 4), [&](const Case& c) {
        if (c.operands[0].num_elements() != 4) return rc::Seq<Case>();
        return rc::seq::just(add_of("[0, 2, 3, 4]", 4), add_of("[1, 0, 3, 4]", 4));
      });
  auto shrinks =
      WithElementHalving(*TestRegistry().Find("add"), own, /*halves_first=*/false).shrinks();
  std::vector<Case> seen;
  while (auto next = shrinks.next()) seen.push_back(next->value());
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].operands[0], Literal("dense<[0, 2, 3, 4]> : tensor<4xi32>"));
  EXPECT_EQ(seen[1].operands[0], Literal("dense<[1, 0, 3, 4]> : tensor<4xi32>"));
  EXPECT_EQ(seen[2].operands[0], Literal("dense<[1, 2]> : tensor<2xi32>"));
  EXPECT_EQ(seen[3].operands[0], Literal("dense<[3, 4]> : tensor<2xi32>"));
  // Halves first (replay keys of version 2): the same, the halves leading.
  auto first =
      WithElementHalving(*TestRegistry().Find("add"), own, /*halves_first=*/true).shrinks();
  std::vector<Case> ordered;
  while (auto next = first.next()) ordered.push_back(next->value());
  ASSERT_EQ(ordered.size(), 4u);
  EXPECT_EQ(ordered[0].operands[0], Literal("dense<[1, 2]> : tensor<2xi32>"));
  EXPECT_EQ(ordered[2].operands[0], Literal("dense<[0, 2, 3, 4]> : tensor<4xi32>"));
}

}  // namespace
}  // namespace hlocheck
