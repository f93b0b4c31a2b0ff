// The data movement oracle with static index maps (broadcast_in_dim,
// concatenate, pad, reshape, reverse, slice, transpose), checked against
// reference computations written here, and element-type independence.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/element_value.h"
#include "spec/example.h"
#include "tests/oracle/data_movement_test_util.h"

namespace hlocheck::testing {
namespace {

// Every spec example of these ops is runnable and the oracle reproduces it
// bit for bit (the golden test covers it too, but skips unrunnable ones).
TEST(DataMovementOracleTest, SpecExamples) {
  const spec::SpecRegistry* registry = *spec::DefaultRegistry();
  for (const char* name : {"broadcast_in_dim", "concatenate", "constant", "dynamic_slice",
                           "dynamic_update_slice", "gather", "get_dimension_size", "iota", "pad",
                           "reshape", "reverse", "slice", "transpose"}) {
    const spec::OpSpec* op = registry->Find(name);
    ASSERT_NE(op, nullptr) << name;
    ASSERT_TRUE(op->example.runnable) << name;
    auto example = spec::ExampleAsCase(*op);
    ASSERT_TRUE(example.ok()) << example.status();
    Tensor result = RunExact(example->c);
    EXPECT_TRUE(result.BitwiseEquals(example->expected[0])) << name;
  }
}

// pad on [1, 2, 3]: interior padding first ([1, p, 2, p, 3]), then the
// negative edges remove one element at each end.
TEST(PadOracleTest, NegativeEdgesRemoveFromTheInteriorPaddedOperand) {
  Case c;
  c.op = "pad";
  c.operands = {Literal("dense<[1, 2, 3]> : tensor<3xi32>"), Literal("dense<9> : tensor<i32>")};
  c.attributes["edge_padding_low"] = std::vector<int64_t>{-1};
  c.attributes["edge_padding_high"] = std::vector<int64_t>{-1};
  c.attributes["interior_padding"] = std::vector<int64_t>{1};
  c.result_types = {{{3}, ElementType::kSI32}};
  EXPECT_TRUE(RunExact(c).BitwiseEquals(Literal("dense<[9, 2, 9]> : tensor<3xi32>")));

  // Removing more than the edge padding adds: low -3 drops 1, p, 2.
  c.attributes["edge_padding_low"] = std::vector<int64_t>{-3};
  c.attributes["edge_padding_high"] = std::vector<int64_t>{2};
  c.result_types = {{{4}, ElementType::kSI32}};
  EXPECT_TRUE(RunExact(c).BitwiseEquals(Literal("dense<[9, 3, 9, 9]> : tensor<4xi32>")));

  // Everything removed: a result of size 0.
  c.attributes["edge_padding_low"] = std::vector<int64_t>{-2};
  c.attributes["edge_padding_high"] = std::vector<int64_t>{-3};
  c.result_types = {{{0}, ElementType::kSI32}};
  EXPECT_EQ(RunExact(c).num_elements(), 0);
}

TEST(PadOracleTest, TwoDimensionsMixedPadding) {
  // [[1, 2], [3, 4]] with rows: low 1, interior 2, high -1; columns: low -1,
  // interior 1, high 1.
  Case c;
  c.op = "pad";
  c.operands = {Literal("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"),
                Literal("dense<0> : tensor<i32>")};
  c.attributes["edge_padding_low"] = std::vector<int64_t>{1, -1};
  c.attributes["edge_padding_high"] = std::vector<int64_t>{-1, 1};
  c.attributes["interior_padding"] = std::vector<int64_t>{2, 1};
  // Rows: 2 + 1 + 2 - 1 = 4; columns: 2 - 1 + 1 + 1 = 3.
  c.result_types = {{{4, 3}, ElementType::kSI32}};
  EXPECT_TRUE(RunExact(c).BitwiseEquals(
      Literal("dense<[[0, 0, 0], [0, 2, 0], [0, 0, 0], [0, 0, 0]]> : tensor<4x3xi32>")));
}

// pad against the placement of every operand element: element operand_index
// goes to edge_padding_low + operand_index * (interior_padding + 1) when that
// lies inside the result; everything else is padding_value.
RC_GTEST_PROP(PadOracleProperty, PlacesEveryOperandElement, ()) {
  const int rank = Uniform<int64_t>(0, 4);
  Shape shape, result_shape;
  std::vector<int64_t> low, high, interior;
  for (int d = 0; d < rank; ++d) {
    const int64_t n = Dim();
    const int64_t lo = Uniform<int64_t>(-4, 5);
    const int64_t in = Uniform<int64_t>(0, 4);
    // The high edge keeps the size at 0 or more: down to -3, or to -base
    // where fewer elements are left.
    const int64_t base = lo + n + std::max<int64_t>(n - 1, 0) * in;
    const int64_t lowest_high = std::max<int64_t>(-base, -3);
    const int64_t hi = Uniform<int64_t>(lowest_high, lowest_high + 8);
    const int64_t size = base + hi;
    shape.push_back(n);
    low.push_back(lo);
    high.push_back(hi);
    interior.push_back(in);
    result_shape.push_back(size);
  }
  Case c;
  c.op = "pad";
  c.operands = {Numbered(shape), Literal("dense<-7> : tensor<i32>")};
  c.attributes["edge_padding_low"] = low;
  c.attributes["edge_padding_high"] = high;
  c.attributes["interior_padding"] = interior;
  c.result_types = {{result_shape, ElementType::kSI32}};
  HLOCHECK_RC_RUN_EXACT(c, result);

  Tensor expected(result_shape, ElementType::kSI32);
  auto out = expected.values<ElementType::kSI32>();
  std::fill(out.begin(), out.end(), -7);
  const auto in = c.operands[0].values<ElementType::kSI32>();
  for (IndexIterator it(shape); !it.done(); it.Next()) {
    std::vector<int64_t> position(rank);
    bool inside = true;
    for (int d = 0; d < rank; ++d) {
      position[d] = low[d] + it.index()[d] * (interior[d] + 1);
      inside = inside && 0 <= position[d] && position[d] < result_shape[d];
    }
    if (inside) out[Position(result_shape, position)] = in[it.linear()];
  }
  RC_ASSERT(result.BitwiseEquals(expected));
}

RC_GTEST_PROP(BroadcastInDimOracleProperty, MatchesTheIndexFormula, ()) {
  const int result_rank = Uniform<int64_t>(0, 5);
  const int rank = Uniform<int64_t>(0, result_rank + 1);
  Shape result_shape;
  for (int d = 0; d < result_rank; ++d) result_shape.push_back(Dim());
  std::vector<int64_t> dims(result_rank);
  std::iota(dims.begin(), dims.end(), 0);
  // A random choice of `rank` distinct result dimensions, in random order.
  std::vector<int64_t> broadcast_dimensions;
  std::vector<int64_t> pool = dims;
  for (int d = 0; d < rank; ++d) {
    const size_t pick = Uniform<size_t>(0, pool.size());
    broadcast_dimensions.push_back(pool[pick]);
    pool.erase(pool.begin() + pick);
  }
  Shape shape;
  for (int d = 0; d < rank; ++d) {
    shape.push_back(*rc::gen::arbitrary<bool>() ? 1 : result_shape[broadcast_dimensions[d]]);
  }
  Case c;
  c.op = "broadcast_in_dim";
  c.operands = {Numbered(shape)};
  c.attributes["broadcast_dimensions"] = broadcast_dimensions;
  c.result_types = {{result_shape, ElementType::kSI32}};
  HLOCHECK_RC_RUN_EXACT(c, result);

  const auto in = c.operands[0].values<ElementType::kSI32>();
  const auto out = result.values<ElementType::kSI32>();
  for (IndexIterator it(result_shape); !it.done(); it.Next()) {
    std::vector<int64_t> operand_index(rank);
    for (int d = 0; d < rank; ++d) {
      operand_index[d] = shape[d] == 1 ? 0 : it.index()[broadcast_dimensions[d]];
    }
    RC_ASSERT(out[it.linear()] == in[Position(shape, operand_index)]);
  }
}

RC_GTEST_PROP(ReverseOracleProperty, MirrorsTheChosenDimensions, ()) {
  const int rank = Uniform<int64_t>(0, 5);
  Shape shape;
  std::vector<int64_t> dimensions;
  for (int d = 0; d < rank; ++d) {
    shape.push_back(Dim());
    if (*rc::gen::arbitrary<bool>()) dimensions.push_back(d);
  }
  std::reverse(dimensions.begin(), dimensions.end());  // any order is valid
  Case c;
  c.op = "reverse";
  c.operands = {Numbered(shape)};
  c.attributes["dimensions"] = dimensions;
  c.result_types = {{shape, ElementType::kSI32}};
  HLOCHECK_RC_RUN_EXACT(c, result);

  const auto in = c.operands[0].values<ElementType::kSI32>();
  const auto out = result.values<ElementType::kSI32>();
  for (IndexIterator it(shape); !it.done(); it.Next()) {
    std::vector<int64_t> mirrored = it.index();
    for (int64_t d : dimensions) mirrored[d] = shape[d] - 1 - mirrored[d];
    RC_ASSERT(out[Position(shape, mirrored)] == in[it.linear()]);
  }
}

// concatenate, including inputs of size 0 along the dimension: the result
// is the inputs' slices laid side by side.
RC_GTEST_PROP(ConcatenateOracleProperty, LaysInputsSideBySide, ()) {
  const int rank = Uniform<int64_t>(1, 4);
  const int64_t dimension = Uniform<int64_t>(0, rank);
  Shape common;
  for (int d = 0; d < rank; ++d) common.push_back(Dim());
  const int count = Uniform<int64_t>(1, 5);
  Case c;
  c.op = "concatenate";
  Shape result_shape = common;
  result_shape[dimension] = 0;
  std::vector<int32_t> offsets;  // distinct values per input
  for (int k = 0; k < count; ++k) {
    Shape shape = common;
    shape[dimension] = Uniform<int64_t>(0, 4);
    Tensor input = Numbered(shape);
    for (int32_t& v : input.values<ElementType::kSI32>()) v += 1000 * k;
    c.operands.push_back(std::move(input));
    result_shape[dimension] += shape[dimension];
  }
  c.operand_segments = {count};
  c.attributes["dimension"] = dimension;
  c.result_types = {{result_shape, ElementType::kSI32}};
  HLOCHECK_RC_RUN_EXACT(c, result);

  const auto out = result.values<ElementType::kSI32>();
  int64_t start = 0;
  for (const Tensor& input : c.operands) {
    const auto in = input.values<ElementType::kSI32>();
    for (IndexIterator it(input.shape()); !it.done(); it.Next()) {
      std::vector<int64_t> at = it.index();
      at[dimension] += start;
      RC_ASSERT(out[Position(result_shape, at)] == in[it.linear()]);
    }
    start += input.shape()[dimension];
  }
}

TEST(ReshapeOracleTest, KeepsRowMajorOrder) {
  for (const Shape& shape : {Shape{2, 3, 4}, Shape{24}, Shape{4, 1, 6}, Shape{1, 1, 24, 1}}) {
    Case c;
    c.op = "reshape";
    c.operands = {Numbered({6, 4})};
    c.result_types = {{shape, ElementType::kSI32}};
    Tensor expected = Numbered(shape);
    EXPECT_TRUE(RunExact(c).BitwiseEquals(expected)) << ShapeToString(shape);
  }
  Case empty;
  empty.op = "reshape";
  empty.operands = {Numbered({0, 5})};
  empty.result_types = {{{5, 0, 2}, ElementType::kSI32}};
  EXPECT_EQ(RunExact(empty).num_elements(), 0);
}

// The same case on every element type: the result is the si32 result
// converted, element for element, so every container width moves whole.
Case Retyped(Case c, const std::vector<size_t>& data_operands, ElementType type) {
  for (size_t i : data_operands) {
    Tensor& t = c.operands[i];
    Tensor converted(t.shape(), type);
    ConvertElements(t.element_type(), t.raw(), type, converted.raw(), t.num_elements());
    t = std::move(converted);
  }
  c.result_types[0].element_type = type;
  return c;
}

std::vector<std::pair<Case, std::vector<size_t>>> SmallCasesOfEveryOp() {
  std::vector<std::pair<Case, std::vector<size_t>>> cases;
  auto add = [&](Case c, std::vector<size_t> data) { cases.emplace_back(std::move(c), data); };
  Case c;
  c.op = "transpose";
  c.operands = {Numbered({2, 3, 2})};
  c.attributes = {{"permutation", std::vector<int64_t>{2, 0, 1}}};
  c.result_types = {{{2, 2, 3}, ElementType::kSI32}};
  add(c, {0});
  c = MakeCase("broadcast_in_dim", {Numbered({3, 1})}, {{2, 3, 4}, ElementType::kSI32});
  c.attributes["broadcast_dimensions"] = std::vector<int64_t>{1, 0};
  add(c, {0});
  c = MakeCase("reverse", {Numbered({3, 2})}, {{3, 2}, ElementType::kSI32});
  c.attributes["dimensions"] = std::vector<int64_t>{0, 1};
  add(c, {0});
  c = MakeCase("reshape", {Numbered({3, 2})}, {{6}, ElementType::kSI32});
  add(c, {0});
  c = MakeCase("concatenate", {Numbered({1, 2}), Numbered({3, 2})}, {{4, 2}, ElementType::kSI32},
               {2});
  c.attributes["dimension"] = int64_t{0};
  add(c, {0, 1});
  c = MakeCase("pad", {Numbered({2, 3}), Literal("dense<11> : tensor<i32>")},
               {{4, 6}, ElementType::kSI32});
  c.attributes["edge_padding_low"] = std::vector<int64_t>{1, -1};
  c.attributes["edge_padding_high"] = std::vector<int64_t>{0, 2};
  c.attributes["interior_padding"] = std::vector<int64_t>{1, 1};
  add(c, {0, 1});
  c = MakeCase("slice", {Numbered({4, 5})}, {{2, 2}, ElementType::kSI32});
  c.attributes["start_indices"] = std::vector<int64_t>{1, 0};
  c.attributes["limit_indices"] = std::vector<int64_t>{4, 4};
  c.attributes["strides"] = std::vector<int64_t>{2, 3};
  add(c, {0});
  c = MakeCase(
      "dynamic_slice",
      {Numbered({4, 5}), Literal("dense<3> : tensor<ui8>"), Literal("dense<9> : tensor<ui8>")},
      {{2, 3}, ElementType::kSI32}, {1, 2});
  c.attributes["slice_sizes"] = std::vector<int64_t>{2, 3};
  add(c, {0});
  c = MakeCase("dynamic_update_slice",
               {Numbered({4, 5}), Numbered({2, 2}), Literal("dense<1> : tensor<i16>"),
                Literal("dense<-4> : tensor<i16>")},
               {{4, 5}, ElementType::kSI32}, {1, 1, 2});
  add(c, {0, 1});
  c = MakeCase("gather",
               {Numbered({3, 4}), Literal("dense<[[2, 1], [0, 3], [5, -1]]> : tensor<3x2xi32>")},
               {{3, 2, 2}, ElementType::kSI32});
  c.attributes["offset_dims"] = std::vector<int64_t>{1, 2};
  c.attributes["collapsed_slice_dims"] = std::vector<int64_t>{};
  c.attributes["start_index_map"] = std::vector<int64_t>{0, 1};
  c.attributes["index_vector_dim"] = int64_t{1};
  c.attributes["slice_sizes"] = std::vector<int64_t>{2, 2};
  c.attributes["indices_are_sorted"] = false;
  add(c, {0});
  return cases;
}

TEST(DataMovementOracleTest, EveryElementTypeMovesWhole) {
  for (const auto& [si32_case, data_operands] : SmallCasesOfEveryOp()) {
    Tensor si32_result = RunExact(si32_case);
    for (ElementType type : AllElementTypes()) {
      Case typed = Retyped(si32_case, data_operands, type);
      Tensor expected(si32_result.shape(), type);
      ConvertElements(ElementType::kSI32, si32_result.raw(), type, expected.raw(),
                      si32_result.num_elements());
      EXPECT_TRUE(RunExact(typed).BitwiseEquals(expected)) << si32_case.op << " " << Name(type);
    }
  }
}

}  // namespace
}  // namespace hlocheck::testing
