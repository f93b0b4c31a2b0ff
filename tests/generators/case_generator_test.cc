#include "generators/case_generator.h"

#include <gtest/gtest.h>

#include <rapidcheck/gtest.h>
#include "core/element_value.h"

#include "spec/registry.h"
#include "spec/verifier.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;

// Every generated case of every op and element type satisfies every
// constraint of its op, at every size.
TEST(CaseGeneratorTest, GeneratedCasesAreValid) {
  for (const spec::OpSpec& op : TestRegistry().ops()) {
    if (op.recipe.empty()) continue;  // ops without a recipe yet
    for (ElementType type : PrimaryTypes(op)) {
      GenerationOptions options;
      options.primary_type = type;
      for (int i = 0; i < 40; ++i) {
        GeneratedCase g = GenerateInstance(op, options, 1000 + i, (i * 7) % 101).value();
        if (g.runnable && !g.runnable->operands.empty() && !op.operands.empty()) {
          // A quantized operand's type, as the recipe picks it, is its
          // expressed type.
          const TensorType first = g.runnable->operands[0].type();
          ASSERT_EQ(first.quantization ? first.quantization->expressed_type : first.element_type,
                    type)
              << op.name;
        }
        // The instance: it carries the process grid, which a Case does not.
        spec::VerifyResult verdict = spec::Verify(op, g.instance, &TestRegistry());
        ASSERT_TRUE(verdict.valid()) << op.name << " " << Name(type) << " case " << i << ":\n"
                                     << verdict.Report();
      }
    }
  }
}

TEST(CaseGeneratorTest, SameSeedSameCase) {
  const spec::OpSpec* op = TestRegistry().Find("dot_general");
  ASSERT_NE(op, nullptr);
  GenerationOptions options;
  options.primary_type = ElementType::kF32;
  for (int i = 0; i < 20; ++i) {
    Case a = GenerateCase(*op, options, 42 + i, 50).value();
    Case b = GenerateCase(*op, options, 42 + i, 50).value();
    ASSERT_EQ(a.operands.size(), b.operands.size());
    for (size_t k = 0; k < a.operands.size(); ++k) {
      EXPECT_TRUE(a.operands[k].BitwiseEquals(b.operands[k]));
    }
    EXPECT_EQ(a.attributes.size(), b.attributes.size());
    EXPECT_EQ(a.result_types, b.result_types);
  }
}

// Generation 3 gives dot_general result element types of their own (that
// hold every operand value); generation 2 never does, so that its replay
// keys rebuild the cases they named.
TEST(CaseGeneratorTest, DotGeneralResultTypesOfTheirOwnSinceGeneration3) {
  const spec::OpSpec* op = TestRegistry().Find("dot_general");
  ASSERT_NE(op, nullptr);
  int mixed[2] = {0, 0};
  for (int version : {2, 3}) {
    GenerationOptions options;
    options.version = version;
    options.primary_type = ElementType::kF16;
    for (int i = 0; i < 200; ++i) {
      Case c = GenerateCase(*op, options, 1000 + i, 30).value();
      const ElementType result = c.result_types[0].element_type;
      if (result != ElementType::kF16) {
        ++mixed[version - 2];
        EXPECT_TRUE(IsExactConversion(ElementType::kF16, result)) << Name(result);
      }
    }
  }
  EXPECT_EQ(mixed[0], 0);
  EXPECT_GT(mixed[1], 20);
}

TEST(CaseGeneratorTest, ShrinksStayValid) {
  const spec::OpSpec* op = TestRegistry().Find("slice");
  ASSERT_NE(op, nullptr);
  GenerationOptions options;
  options.primary_type = ElementType::kSI32;
  rc::Shrinkable<Case> shrinkable = GenerateCase(*op, options, 7, 80);
  int checked = 0;
  // Walk down the first shrink of each level: each must be valid too.
  for (int depth = 0; depth < 30; ++depth) {
    auto shrinks = shrinkable.shrinks();
    auto first = shrinks.next();
    if (!first) break;
    Case c = first->value();
    spec::VerifyResult verdict = spec::Verify(*op, c);
    ASSERT_TRUE(verdict.valid()) << verdict.Report();
    shrinkable = *first;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(CaseGeneratorTest, SizesGrowWithTheSizeParameter) {
  const spec::OpSpec* op = TestRegistry().Find("add");
  GenerationOptions options;
  options.primary_type = ElementType::kF32;
  int64_t small = 0;
  int64_t large = 0;
  for (int i = 0; i < 50; ++i) {
    small += GenerateCase(*op, options, i, 0).value().operands[0].num_elements();
    large += GenerateCase(*op, options, i, 100).value().operands[0].num_elements();
  }
  EXPECT_LT(small * 10, large);
}

}  // namespace
}  // namespace hlocheck
