// Indexing maps (seed 004; ../shared/SEED-CATALOG.md §5): the notation reads
// and prints back every map of the catalog, and the op files' templates,
// instantiated for the catalog's HLO examples, give the catalog's maps and
// domains.
#include "spec/indexing_map.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "spec/indexing_map_template.h"
#include "spec/instance.h"
#include "spec/registry.h"
#include "tests/support/spec_registry.h"

namespace hlocheck::spec {
namespace {

// Every map string of §5.2 rows 2, 4, 5, 6, 7, 8, 10, 11a-d, 13 and 15,
// out->in, in->out and the runtime variables' access maps.
TEST(IndexingMapNotationTest, CatalogMapsPrintBackAsWritten) {
  const char* kMaps[] = {
      // 2 broadcast
      "(d0, d1, d2) -> (d1)",
      "(d0)[s0, s1] -> (s0, d0, s1)",
      // 4 dynamic_slice
      "(d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2)",
      "(d0, d1, d2) -> ()",
      // 5 dynamic_update_slice
      "(d0, d1) -> (d0, d1)",
      "(d0, d1)[s0, s1] -> (d0 - s0, d1 - s1)",
      "(d0, d1) -> ()",
      // 6 gather
      "(d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3)",
      "(d0, d1, d2, d3) -> (d0, 0)",
      "(d0, d1, d2, d3) -> (d0, 1)",
      "(d0, d1, d2, d3)[s0] -> (d0, s0)",
      // 7 transpose
      "(d0, d1, d2, d3) -> (d0, d3, d1, d2)",
      "(d0, d1, d2, d3) -> (d0, d2, d3, d1)",
      // 8 reverse
      "(d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3)",
      // 10 slice
      "(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2)",
      "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)",
      // 11a, 11b reshape
      "(d0) -> (d0 floordiv 8, d0 mod 8)",
      "(d0, d1) -> (d0 * 8 + d1)",
      // 11c
      "(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4)",
      "(d0, d1) -> (d0 floordiv 2, d1 floordiv 4 + (d0 mod 2) * 2, d1 mod 4)",
      // 11d
      "(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2)",
      "(d0, d1, d2) -> (d0 * 8 + d1, d2 floordiv 4, d2 mod 4)",
      // 13 concatenate
      "(d0, d1, d2) -> (d0, d1, d2)",
      "(d0, d1, d2) -> (d0, d1 - 5, d2)",
      "(d0, d1, d2) -> (d0, d1 - 16, d2)",
      "(d0, d1, d2) -> (d0, d1 + 5, d2)",
      "(d0, d1, d2) -> (d0, d1 + 16, d2)",
      // 15 pad
      "(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4)",
      // 9 and the intro: symbols only, and the AffineMap example
      "()[s0] -> (s0)",
      "(d0)[s0, s1] -> (s0 + 5, d0 * 2, s1 * 3 + 50)",
  };
  for (const char* text : kMaps) {
    auto map = ParseAffineMap(text);
    ASSERT_TRUE(map.ok()) << text << ": " << map.status();
    EXPECT_EQ(map->ToString(), text);
  }
  // The constraints of rows 10 and 15.
  for (const char* text : {"(d1 - 3) mod 7", "d2 mod 2", "(d0 - 1) mod 2"}) {
    auto expr = ParseAffineExpr(text, 3, 0);
    ASSERT_TRUE(expr.ok()) << text << ": " << expr.status();
    EXPECT_EQ(PrintAffineExpr(*expr), text);
  }
}

TEST(IndexingMapNotationTest, IndexingMapsWithDomainsPrintBack) {
  const char* kMaps[] = {
      "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2); domain: d0 in [5, 9], "
      "d1 in [3, 17], d2 in [0, 48], (d1 - 3) mod 7 in [0, 0], d2 mod 2 in [0, 0]",
      "(d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3); domain: d0 in [0, 1805], "
      "d1 in [0, 6], d2 in [0, 7], d3 in [0, 3], "
      "s0 in [0, 26] (rt: start_indices at (d0, d1, d2, d3) -> (d0, 0)), "
      "s1 in [0, 68] (rt: start_indices at (d0, d1, d2, d3) -> (d0, 1))",
      "(d0)[s0] -> (s0, d0); domain: d0 in [0, 9], s0 in [0, 255]",
      "(d0, d1)[s0] -> (d0 - s0); domain: d0 in [0, 9], d1 in [-3, 2], "
      "s0 in [0, 1] (rt: start_indices[1] at (d0, d1) -> ()), d0 - s0 in [0, 4]",
      "(d0)[s0] -> (s0); domain: d0 in [0, 3], s0 in [0, 4] (rt: start_indices at (d0) -> (d0, "
      "0)), s0 in [0, 3]",
      "() -> ()",
  };
  for (const char* text : kMaps) {
    auto map = ParseIndexingMap(text);
    ASSERT_TRUE(map.ok()) << text << ": " << map.status();
    EXPECT_EQ(map->ToString(), text);
  }
}

// Parse errors say where (offset) and what was expected.
TEST(IndexingMapNotationTest, ParseErrorsNamePositionAndExpectation) {
  struct Bad {
    const char* text;
    int offset;
    const char* message;
  };
  const Bad kBad[] = {
      {"(d0, d1) -> (d0 * d1)", 16, "a product needs a constant factor"},
      {"(d0) -> (d0 floordiv 0)", 12, "expected a positive constant divisor after floordiv"},
      {"(d0) -> (d0 mod d0)", 12, "expected a positive constant divisor after mod"},
      {"(d0, d2) -> (d0)", 5, "expected d1 (variables are numbered from 0 in order)"},
      {"(d0) -> (d1)", 9, "d1 is not a dimension of this map (it has 1)"},
      {"(d0)[s0] -> (s1)", 13, "s1 is not a symbol of this map (it has 1)"},
      {"(d0) -> (d0 +)", 13, "expected an integer, a dimension d<N>, a symbol s<N>, '-' or '('"},
      {"(d0) -> (d0", 11, "expected ')' to close the results"},
      {"(d0) (d0)", 5, "expected '->' between the variables and the results"},
      {"(d0) -> (d0); domain: d0 in [0 9]", 31, "expected ',' between the bounds"},
      {"(d0, d1) -> (d0); domain: d0 in [0, 9]", 38, "the domain has no bounds for d1"},
      {"(d0)[s0] -> (d0); domain: d0 in [0, 9], s0 in [0, 1] (rt: x at (d0) -> ()), "
       "s0 in [0, 0] (rt: x at (d0) -> ())",
       76, "a runtime source belongs to the first bound of s0"},
      {"(d0) -> (d0)", 12, "expected '; domain:' with the bounds of every variable"},
      {"(d0)[s0] -> (s0); domain: d0 in [0, 1], s0 in [0, 1] (rt: x at (d0, d1) -> ())", 63,
       "expected an access map of the map's 1 dims and no symbols"},
      {"(d0) -> (99999999999999999999)", 9, "expected an integer that fits in 64 bits"},
  };
  for (const Bad& bad : kBad) {
    AffineParseError error;
    auto map = ParseIndexingMap(bad.text, &error);
    ASSERT_FALSE(map.ok()) << bad.text;
    EXPECT_EQ(error.offset, bad.offset) << bad.text << ": " << error.message;
    EXPECT_NE(error.message.find(bad.message), std::string::npos) << error.message;
    EXPECT_NE(std::string(map.status().message()).find("at offset " + std::to_string(bad.offset)),
              std::string::npos)
        << map.status();
  }
}

TEST(IndexingMapEvaluationTest, FloorDivAndModRoundTowardsNegativeInfinity) {
  auto e = ParseAffineExpr("(d0 - 5) floordiv 2 + (d0 - 5) mod 2 * 100", 1, 0);
  ASSERT_TRUE(e.ok()) << e.status();
  int64_t d = 2;  // (-3) floordiv 2 = -2, (-3) mod 2 = 1
  EXPECT_EQ(EvaluateAffineExpr(*e, std::span(&d, 1), {}), -2 + 100);
}

TEST(IndexingMapEvaluationTest, RuntimeVariablesAreClampedAndConstraintsDecideTheDomain) {
  auto map = ParseIndexingMap(
      "(d0)[s0] -> (d0 - s0); domain: d0 in [0, 9], "
      "s0 in [0, 6] (rt: start_indices[0] at (d0) -> ()), d0 - s0 in [0, 3]");
  ASSERT_TRUE(map.ok()) << map.status();
  int64_t offset = 100;  // clamped to 6
  RuntimeValueReader read = [&](const RuntimeVar& var,
                                std::span<const int64_t> index) -> absl::StatusOr<int64_t> {
    EXPECT_EQ(var.SourceName(), "start_indices[0]");
    EXPECT_TRUE(index.empty());
    return offset;
  };
  for (int64_t d = 0; d < 10; ++d) {
    auto at = map->Evaluate(std::span(&d, 1), read);
    ASSERT_TRUE(at.ok()) << at.status();
    if (d >= 6) {
      ASSERT_TRUE(at->has_value()) << d;
      EXPECT_EQ(**at, std::vector<int64_t>{d - 6});
    } else {
      EXPECT_FALSE(at->has_value()) << d;
    }
  }
  offset = -5;  // clamped to 0
  int64_t d = 3;
  auto at = map->Evaluate(std::span(&d, 1), read);
  ASSERT_TRUE(at.ok() && at->has_value());
  EXPECT_EQ(**at, std::vector<int64_t>{3});
  int64_t outside = 10;
  EXPECT_FALSE(map->Evaluate(std::span(&outside, 1), read)->has_value());
}

TEST(IndexingMapEvaluationTest, RangeVariablesGiveEveryPoint) {
  auto map = ParseIndexingMap(
      "(d0)[s0, s1] -> (s0, d0, s1); domain: d0 in [0, 19], "
      "s0 in [0, 1], s1 in [0, 2], s0 + s1 in [0, 2]");
  ASSERT_TRUE(map.ok()) << map.status();
  std::vector<std::vector<int64_t>> points;
  int64_t d = 7;
  ASSERT_TRUE(map->ForEachPoint(
                     std::span(&d, 1), nullptr,
                     [&](std::span<const int64_t> p) { points.emplace_back(p.begin(), p.end()); })
                  .ok());
  std::vector<std::vector<int64_t>> expected = {
      {0, 7, 0}, {0, 7, 1}, {0, 7, 2}, {1, 7, 0}, {1, 7, 1}};
  EXPECT_EQ(points, expected);
  EXPECT_FALSE(map->Evaluate(std::span(&d, 1), nullptr).ok());  // several points
}

// The simplifier examples of §5.2 ("Indexing-map simplifier examples").
TEST(AffineSimplifierTest, CatalogExamples) {
  struct Example {
    const char* map;
    std::vector<Interval> dims;
    const char* simplified;
  };
  const Example kExamples[] = {
      {"(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16)", {{0, 6}, {0, 14}}, "(d0, d1) -> (d0, d1)"},
      {"(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) floordiv 100, "
       "((d0 * 100 + d1 * 10 + d2) mod 100) floordiv 10, d2 mod 10)",
       {{0, 9}, {0, 9}, {0, 9}},
       "(d0, d1, d2) -> (d0, d1, d2)"},
      {"(d0, d1, d2) -> ((d0 * 16 + d1 * 4 + d2) floordiv 8, (d0 * 16 + d1 * 4 + d2) mod 8)",
       {{0, 9}, {0, 9}, {0, 9}},
       "(d0, d1, d2) -> (d0 * 2 + (d1 * 4 + d2) floordiv 8, (d1 * 4 + d2) mod 8)"},
      // The catalog's -(-11d0 - d1 + 109) floordiv 11 + 9, the negation
      // taken over the quotient as the simplified result d0 requires.
      {"(d0, d1) -> (-((d0 * -11 - d1 + 109) floordiv 11) + 9)",
       {{0, 9}, {0, 10}},
       "(d0, d1) -> (d0)"},
  };
  for (const Example& example : kExamples) {
    auto map = ParseAffineMap(example.map);
    ASSERT_TRUE(map.ok()) << example.map << ": " << map.status();
    for (AffineExpr& e : map->results) e = SimplifyAffineExpr(e, example.dims, {});
    EXPECT_EQ(map->ToString(), example.simplified) << example.map;
  }
}

// The simplifier keeps every value: checked on every point of small boxes.
TEST(AffineSimplifierTest, KeepsValuesOnEveryPoint) {
  const char* kExprs[] = {
      "(d0 * 12 + d1 * 4 + d2) floordiv 96 mod 4",
      "(d0 * 16 + d1 * 4 + d2 - 3) mod 8",
      "(d0 * 6 + d1 * 3 + d2 + 1) floordiv 3",
      "(d0 * -4 + d1 * 2 + d2) mod 4",
      "((d0 - 2) * 3 + d2) floordiv 6",
      "(d1 * 5 + d2 * 10) mod 20 floordiv 5",
  };
  const std::vector<Interval> dims = {{0, 5}, {0, 3}, {0, 2}};
  for (const char* text : kExprs) {
    auto e = ParseAffineExpr(text, 3, 0);
    ASSERT_TRUE(e.ok()) << text << ": " << e.status();
    AffineExpr simplified = SimplifyAffineExpr(*e, dims, {});
    for (int64_t a = 0; a <= 5; ++a) {
      for (int64_t b = 0; b <= 3; ++b) {
        for (int64_t c = 0; c <= 2; ++c) {
          const int64_t d[] = {a, b, c};
          ASSERT_EQ(EvaluateAffineExpr(*e, d, {}), EvaluateAffineExpr(simplified, d, {}))
              << text << " -> " << PrintAffineExpr(simplified) << " at " << a << "," << b << ","
              << c;
        }
      }
    }
  }
}

using ::hlocheck::testing::TestRegistry;

// The maps of `op` for an instance given as case YAML, as "NAME: MAP; domain: ...".
std::vector<std::string> Maps(const std::string& op_name, const std::string& yaml) {
  const OpSpec* op = TestRegistry().Find(op_name);
  EXPECT_NE(op, nullptr) << op_name;
  if (op == nullptr) return {};
  auto instance = InstanceFromYamlText(*op, yaml, op_name + " example");
  EXPECT_TRUE(instance.ok()) << instance.status();
  if (!instance.ok()) return {};
  auto maps = InstantiateIndexingMaps(*op, *instance);
  EXPECT_TRUE(maps.ok()) << maps.status();
  if (!maps.ok()) return {};
  std::vector<std::string> out;
  for (const InputIndexingMap& m : maps->maps) out.push_back(m.Name() + ": " + m.map.ToString());
  return out;
}

using Strings = std::vector<std::string>;

TEST(IndexingMapTemplateTest, Row2Broadcast) {
  EXPECT_EQ(Maps("broadcast_in_dim",
                 "operands: {operand: tensor<20xf32>}\n"
                 "attributes: {broadcast_dimensions: [1]}\n"
                 "results: {result: tensor<10x20x30xf32>}"),
            Strings{"operand: (d0, d1, d2) -> (d1); domain: d0 in [0, 9], d1 in [0, 19], "
                    "d2 in [0, 29]"});
}

TEST(IndexingMapTemplateTest, Row4DynamicSlice) {
  const std::string domain = "d0 in [0, 0], d1 in [0, 1], d2 in [0, 31]";
  EXPECT_EQ(Maps("dynamic_slice",
                 "operands: {operand: tensor<2x2x258xi32>,\n"
                 "  start_indices: [tensor<i32>, tensor<i32>, tensor<i32>]}\n"
                 "attributes: {slice_sizes: [1, 2, 32]}\n"
                 "results: {result: tensor<1x2x32xi32>}"),
            (Strings{"operand: (d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2); domain: " +
                         domain +
                         ", s0 in [0, 1] (rt: start_indices[0] at (d0, d1, d2) -> ()), "
                         "s1 in [0, 0] (rt: start_indices[1] at (d0, d1, d2) -> ()), "
                         "s2 in [0, 226] (rt: start_indices[2] at (d0, d1, d2) -> ())",
                     "start_indices[0]: (d0, d1, d2) -> (); domain: " + domain,
                     "start_indices[1]: (d0, d1, d2) -> (); domain: " + domain,
                     "start_indices[2]: (d0, d1, d2) -> (); domain: " + domain}));
}

// The catalog's update map has no constraint (an over-approximation that
// points outside the update); the template bounds it to the updated window,
// so its domain is the catalog's plus the two window constraints.
TEST(IndexingMapTemplateTest, Row5DynamicUpdateSlice) {
  const std::string domain = "d0 in [0, 19], d1 in [0, 29]";
  const std::string catalog_update =
      "update: (d0, d1)[s0, s1] -> (d0 - s0, d1 - s1); domain: " + domain +
      ", s0 in [0, 15] (rt: start_indices[0] at (d0, d1) -> ()), "
      "s1 in [0, 20] (rt: start_indices[1] at (d0, d1) -> ())";
  EXPECT_EQ(Maps("dynamic_update_slice",
                 "operands: {operand: tensor<20x30xi32>, update: tensor<5x10xi32>,\n"
                 "  start_indices: [tensor<i32>, tensor<i32>]}\n"
                 "results: {result: tensor<20x30xi32>}"),
            (Strings{catalog_update + ", d0 - s0 in [0, 4], d1 - s1 in [0, 9]",
                     "operand: (d0, d1) -> (d0, d1); domain: " + domain,
                     "start_indices[0]: (d0, d1) -> (); domain: " + domain,
                     "start_indices[1]: (d0, d1) -> (); domain: " + domain}));
}

TEST(IndexingMapTemplateTest, Row6Gather) {
  const std::string domain = "d0 in [0, 1805], d1 in [0, 6], d2 in [0, 7], d3 in [0, 3]";
  EXPECT_EQ(
      Maps("gather",
           "operands: {operand: tensor<33x76x70xf32>, start_indices: tensor<1806x2xi32>}\n"
           "attributes: {offset_dims: [1, 2, 3], collapsed_slice_dims: [],\n"
           "  start_index_map: [0, 1], index_vector_dim: 1, slice_sizes: [7, 8, 4],\n"
           "  indices_are_sorted: false}\n"
           "results: {result: tensor<1806x7x8x4xf32>}"),
      (Strings{"operand: (d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3); domain: " + domain +
                   ", s0 in [0, 26] (rt: start_indices at (d0, d1, d2, d3) -> (d0, 0)), "
                   "s1 in [0, 68] (rt: start_indices at (d0, d1, d2, d3) -> (d0, 1))",
               "start_indices: (d0, d1, d2, d3)[s0] -> (d0, s0); domain: " + domain +
                   ", s0 in [0, 1]"}));
}

// C8 lets a collapsed dimension have slice size 0: its start index is
// clamped into [0, 3] and the result element has a value only where the
// clamped index lies inside the operand, a constraint on the runtime
// variable (the other results are uncovered: the spec gives them none).
TEST(IndexingMapTemplateTest, GatherCollapsedSliceOfSizeZero) {
  EXPECT_EQ(Maps("gather",
                 "operands: {operand: tensor<3x4xf32>, start_indices: tensor<2x1xi32>}\n"
                 "attributes: {offset_dims: [1], collapsed_slice_dims: [0],\n"
                 "  start_index_map: [0], index_vector_dim: 1, slice_sizes: [0, 4],\n"
                 "  indices_are_sorted: false}\n"
                 "results: {result: tensor<2x4xf32>}"),
            (Strings{"operand: (d0, d1)[s0] -> (s0, d1); domain: d0 in [0, 1], d1 in [0, 3], "
                     "s0 in [0, 3] (rt: start_indices at (d0, d1) -> (d0, 0)), s0 in [0, 2]",
                     "start_indices: (d0, d1)[s0] -> (d0, s0); domain: d0 in [0, 1], "
                     "d1 in [0, 3], s0 in [0, 0]"}));
}

TEST(IndexingMapTemplateTest, Row7Transpose) {
  EXPECT_EQ(Maps("transpose",
                 "operands: {operand: tensor<3x12288x6x128xf32>}\n"
                 "attributes: {permutation: [0, 2, 3, 1]}\n"
                 "results: {result: tensor<3x6x128x12288xf32>}"),
            Strings{"operand: (d0, d1, d2, d3) -> (d0, d3, d1, d2); domain: d0 in [0, 2], "
                    "d1 in [0, 5], d2 in [0, 127], d3 in [0, 12287]"});
}

TEST(IndexingMapTemplateTest, Row8Reverse) {
  EXPECT_EQ(Maps("reverse",
                 "operands: {operand: tensor<1x17x9x9xf32>}\n"
                 "attributes: {dimensions: [1, 2]}\n"
                 "results: {result: tensor<1x17x9x9xf32>}"),
            Strings{"operand: (d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3); domain: "
                    "d0 in [0, 0], d1 in [0, 16], d2 in [0, 8], d3 in [0, 8]"});
}

TEST(IndexingMapTemplateTest, Row10Slice) {
  EXPECT_EQ(Maps("slice",
                 "operands: {operand: tensor<10x20x50xf32>}\n"
                 "attributes: {start_indices: [5, 3, 0], limit_indices: [10, 20, 50],\n"
                 "  strides: [1, 7, 2]}\n"
                 "results: {result: tensor<5x3x25xf32>}"),
            Strings{"operand: (d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2); domain: "
                    "d0 in [0, 4], d1 in [0, 2], d2 in [0, 24]"});
}

std::vector<std::string> Reshape(const std::string& from, const std::string& to) {
  return Maps("reshape", "operands: {operand: \"tensor<" + from + "xf32>\"}\n" +
                             "results: {result: \"tensor<" + to + "xf32>\"}");
}

TEST(IndexingMapTemplateTest, Row11ReshapeCollapseExpandAndGeneric) {
  EXPECT_EQ(Reshape("4x8", "32"),
            Strings{"operand: (d0) -> (d0 floordiv 8, d0 mod 8); domain: d0 in [0, 31]"});
  EXPECT_EQ(Reshape("32", "4x8"),
            Strings{"operand: (d0, d1) -> (d0 * 8 + d1); domain: d0 in [0, 3], d1 in [0, 7]"});
  EXPECT_EQ(Reshape("4x8", "2x4x4"),
            Strings{"operand: (d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4); "
                    "domain: d0 in [0, 1], d1 in [0, 3], d2 in [0, 3]"});
  EXPECT_EQ(Reshape("4x8x12", "32x3x4"),
            Strings{"operand: (d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2); "
                    "domain: d0 in [0, 31], d1 in [0, 2], d2 in [0, 3]"});
}

TEST(IndexingMapTemplateTest, Row13Concatenate) {
  EXPECT_EQ(Maps("concatenate",
                 "operands: {inputs: [tensor<2x5x7xf32>, tensor<2x11x7xf32>, "
                 "tensor<2x17x7xf32>]}\n"
                 "attributes: {dimension: 1}\n"
                 "results: {result: tensor<2x33x7xf32>}"),
            (Strings{"inputs[0]: (d0, d1, d2) -> (d0, d1, d2); domain: d0 in [0, 1], "
                     "d1 in [0, 4], d2 in [0, 6]",
                     "inputs[1]: (d0, d1, d2) -> (d0, d1 - 5, d2); domain: d0 in [0, 1], "
                     "d1 in [5, 15], d2 in [0, 6]",
                     "inputs[2]: (d0, d1, d2) -> (d0, d1 - 16, d2); domain: d0 in [0, 1], "
                     "d1 in [16, 32], d2 in [0, 6]"}));
}

TEST(IndexingMapTemplateTest, Row15Pad) {
  EXPECT_EQ(Maps("pad",
                 "operands: {operand: tensor<4x4xf32>, padding_value: tensor<f32>}\n"
                 "attributes: {edge_padding_low: [1, 4], edge_padding_high: [4, 8],\n"
                 "  interior_padding: [1, 0]}\n"
                 "results: {result: tensor<12x16xf32>}"),
            (Strings{"operand: (d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4); domain: d0 in [1, 7], "
                     "d1 in [4, 7], (d0 - 1) mod 2 in [0, 0]",
                     "padding_value: (d0, d1) -> (); domain: d0 in [0, 11], d1 in [0, 15]"}));
}

TEST(IndexingMapTemplateTest, PadWithNegativeEdgesBoundsTheKeptElements) {
  // Operand positions -3, -1, 1, 3, 5 (low -3, interior 1); the result
  // (high -2) keeps 1 and 3.
  EXPECT_EQ(Maps("pad",
                 "operands: {operand: tensor<5xf32>, padding_value: tensor<f32>}\n"
                 "attributes: {edge_padding_low: [-3], edge_padding_high: [-2],\n"
                 "  interior_padding: [1]}\n"
                 "results: {result: tensor<4xf32>}"),
            (Strings{"operand: (d0) -> ((d0 + 3) floordiv 2); domain: d0 in [1, 3], "
                     "(d0 + 3) mod 2 in [0, 0]",
                     "padding_value: (d0) -> (); domain: d0 in [0, 3]"}));
  // One kept element: the map is a constant and the constraint always holds.
  EXPECT_EQ(Maps("pad",
                 "operands: {operand: tensor<5xf32>, padding_value: tensor<f32>}\n"
                 "attributes: {edge_padding_low: [-3], edge_padding_high: [-4],\n"
                 "  interior_padding: [1]}\n"
                 "results: {result: tensor<2xf32>}"),
            (Strings{"operand: (d0) -> (2); domain: d0 in [1, 1]",
                     "padding_value: (d0) -> (); domain: d0 in [0, 1]"}));
}

TEST(IndexingMapTemplateTest, IotaHasOnlyItsValueMap) {
  const OpSpec* op = TestRegistry().Find("iota");
  ASSERT_NE(op, nullptr);
  auto instance = InstanceFromYamlText(
      *op, "attributes: {iota_dimension: 1}\nresults: {output: tensor<4x5xi32>}", "iota");
  ASSERT_TRUE(instance.ok()) << instance.status();
  auto maps = InstantiateIndexingMaps(*op, *instance);
  ASSERT_TRUE(maps.ok()) << maps.status();
  EXPECT_TRUE(maps->maps.empty());
  ASSERT_TRUE(maps->value_of_index.has_value());
  EXPECT_EQ(maps->value_of_index->ToString(), "(d0, d1) -> (d1)");
}

TEST(IndexingMapTemplateTest, TheElevenOpsHaveMaps) {
  for (const char* op :
       {"broadcast_in_dim", "transpose", "reverse", "slice", "reshape", "concatenate", "pad",
        "dynamic_slice", "dynamic_update_slice", "gather", "iota"}) {
    ASSERT_NE(TestRegistry().Find(op), nullptr) << op;
    EXPECT_NE(TestRegistry().Find(op)->indexing_maps, nullptr) << op;
    EXPECT_FALSE(TestRegistry().Find(op)->indexing_maps->note.empty()) << op;
  }
}

// Loading errors name file:line:column and what was expected.
TEST(IndexingMapTemplateTest, LoadErrorsNamePositionAndExpectation) {
  std::ifstream in(std::string(HLOCHECK_SOURCE_DIR) + "/spec/ops/transpose.yaml");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string original = buffer.str();
  const std::string good = "results: \"d{index_of(permutation, k)}\"";
  const size_t at = original.find(good);
  ASSERT_NE(at, std::string::npos);
  const int line = 1 + static_cast<int>(std::count(original.begin(), original.begin() + at, '\n'));
  struct Bad {
    std::string replacement;
    std::string message;
  };
  const Bad kBad[] = {
      {"results: \"d{index_of(permutation, k)} +\"",
       ":" + std::to_string(line) +
           ":46: in template 'd{index_of(permutation, k)} +': expected "
           "an integer, a dimension d<N>, a symbol s<N>, '-' or '('"},
      {"results: \"d{index_of(permutation, k}\"",
       ":" + std::to_string(line) +
           ":42: in template 'd{index_of(permutation, k}': in "
           "{index_of(permutation, k}: expected"},
      {"results: \"d{k\"", ":" + std::to_string(line) + ":18: in template 'd{k': expected '}'"},
      {"result: \"d{k}\"", ":" + std::to_string(line) +
                               ":7: unknown key 'result' in map; "
                               "expected one of: input, kind, dims, symbols, results, constraints"},
      {"results: [{when: k = 0, expr: d0}]",
       ":" + std::to_string(line) + ":17: the last case of results is the default"},
  };
  for (const Bad& bad : kBad) {
    std::string text = original;
    text.replace(at, good.size(), bad.replacement);
    auto op = ParseOpSpec(text, "transpose.yaml");
    ASSERT_FALSE(op.ok()) << bad.replacement;
    EXPECT_NE(std::string(op.status().message()).find("transpose.yaml" + bad.message),
              std::string::npos)
        << op.status();
  }
}

}  // namespace
}  // namespace hlocheck::spec
