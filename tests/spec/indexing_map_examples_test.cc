// The op files' indexing maps against the seed's own examples: every result
// element of each example equals the input element its map points to.
#include <gtest/gtest.h>

#include "spec/example.h"
#include "spec/indexing_map_check.h"
#include "spec/registry.h"

namespace hlocheck::spec {
namespace {

TEST(IndexingMapExamplesTest, ExampleResultsFollowTheMaps) {
  auto registry = DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  int checked = 0;
  for (const OpSpec& op : (*registry)->ops()) {
    if (op.indexing_maps == nullptr) continue;
    ASSERT_TRUE(op.example.runnable) << op.name;
    auto example = ExampleAsCase(op);
    ASSERT_TRUE(example.ok()) << op.name << ": " << example.status();
    auto maps = InstantiateIndexingMaps(op, example->c);
    ASSERT_TRUE(maps.ok()) << op.name << ": " << maps.status();
    auto compared = CheckValueMaps(*maps, example->c, example->expected[0]);
    ASSERT_TRUE(compared.ok()) << op.name << ": " << compared.status();
    EXPECT_EQ(compared->compared, example->expected[0].num_elements()) << op.name;
    ASSERT_TRUE(ReachedElements(*maps, example->c).ok()) << op.name;
    ++checked;
  }
  EXPECT_EQ(checked, 11);
}

// dynamic_update_slice's example overwrites part of its operand: those
// operand elements are reached by no map (the update map wins there), the
// others are, and so are every update element and start index.
TEST(IndexingMapExamplesTest, OverwrittenOperandElementsAreUnreached) {
  auto registry = DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  const OpSpec& op = *(*registry)->Find("dynamic_update_slice");
  auto example = ExampleAsCase(op);
  ASSERT_TRUE(example.ok()) << example.status();
  auto maps = InstantiateIndexingMaps(op, example->c);
  ASSERT_TRUE(maps.ok()) << maps.status();
  auto reached = ReachedElements(*maps, example->c);
  ASSERT_TRUE(reached.ok()) << reached.status();
  const int64_t update_elements = example->c.operands[1].num_elements();
  int64_t unreached_operand = 0;
  for (bool r : reached->inputs[0]) unreached_operand += !r;
  EXPECT_EQ(unreached_operand, update_elements);
  for (size_t o = 1; o < reached->inputs.size(); ++o) {
    for (bool r : reached->inputs[o]) EXPECT_TRUE(r) << "operand " << o;
  }
}

}  // namespace
}  // namespace hlocheck::spec
