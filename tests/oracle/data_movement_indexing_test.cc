// dynamic_slice, dynamic_update_slice and gather on the oracle: start
// indices of every integer type clamped as the spec says, and gather with
// every kind of dimension attribute, against references written here.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>

#include "core/element_value.h"
#include "tests/oracle/data_movement_test_util.h"

namespace hlocheck::testing {
namespace {

using Int128 = __int128;

std::string ToDecimal(Int128 value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  std::string digits;
  while (value != 0) {
    const int digit = static_cast<int>(value % 10);
    digits.push_back(static_cast<char>('0' + (negative ? -digit : digit)));
    value /= 10;
  }
  if (negative) digits.push_back('-');
  return {digits.rbegin(), digits.rend()};
}

Tensor Scalar(ElementType type, Int128 value) {
  return Literal("dense<" + ToDecimal(value) + "> : tensor<" + std::string(MlirName(type)) + ">");
}

// Start index values worth trying for a type: its extremes, and values
// around the valid range [0, 4] of the tests below, all within the type.
std::vector<Int128> InterestingValues(ElementType type) {
  const Int128 lowest = IntegerMin(type);
  const Int128 highest = IntegerMaxUnsigned(type);
  std::vector<Int128> values = {lowest, highest};
  for (Int128 v : {-9, -2, -1, 0, 1, 2, 3, 4, 5, 6, 100, 128, 255, 256, 70000}) {
    if (lowest <= v && v <= highest) values.push_back(v);
  }
  return values;
}

Int128 Clamp(Int128 low, Int128 value, Int128 high) { return std::min(std::max(value, low), high); }

std::vector<ElementType> IntegerTypes() {
  std::vector<ElementType> types;
  for (ElementType type : AllElementTypes()) {
    if (IsInteger(type)) types.push_back(type);
  }
  return types;
}

// dynamic_slice of a 6x5 operand with slice sizes 2x3: the start indices
// clamp into [0, 4] x [0, 2], whatever their type and value.
TEST(DynamicSliceOracleTest, StartIndicesClampForEveryIntegerType) {
  const Shape shape = {6, 5};
  const Tensor operand = Numbered(shape);
  for (ElementType type : IntegerTypes()) {
    const std::vector<Int128> values = InterestingValues(type);
    for (size_t i = 0; i < values.size(); ++i) {
      const Int128 first = values[i];
      const Int128 second = values[(i + 3) % values.size()];
      Case c = MakeCase("dynamic_slice", {operand, Scalar(type, first), Scalar(type, second)},
                        {{2, 3}, ElementType::kSI32}, {1, 2});
      c.attributes["slice_sizes"] = std::vector<int64_t>{2, 3};
      const int64_t row = static_cast<int64_t>(Clamp(0, first, 6 - 2));
      const int64_t column = static_cast<int64_t>(Clamp(0, second, 5 - 3));
      Tensor expected({2, 3}, ElementType::kSI32);
      for (int64_t r = 0; r < 2; ++r) {
        for (int64_t k = 0; k < 3; ++k) {
          expected.values<ElementType::kSI32>()[r * 3 + k] =
              operand.values<ElementType::kSI32>()[(row + r) * 5 + column + k];
        }
      }
      EXPECT_TRUE(RunExact(c).BitwiseEquals(expected))
          << Name(type) << " start (" << ToDecimal(first) << ", " << ToDecimal(second) << ")";
    }
  }
}

TEST(DynamicUpdateSliceOracleTest, StartIndicesClampForEveryIntegerType) {
  const Shape shape = {6, 5};
  const Tensor operand = Numbered(shape);
  Tensor update = Numbered({2, 3});
  for (int32_t& v : update.values<ElementType::kSI32>()) v += 100;
  for (ElementType type : IntegerTypes()) {
    const std::vector<Int128> values = InterestingValues(type);
    for (size_t i = 0; i < values.size(); ++i) {
      const Int128 first = values[(i + 5) % values.size()];
      const Int128 second = values[i];
      Case c = MakeCase("dynamic_update_slice",
                        {operand, update, Scalar(type, first), Scalar(type, second)},
                        {shape, ElementType::kSI32}, {1, 1, 2});
      const int64_t row = static_cast<int64_t>(Clamp(0, first, 6 - 2));
      const int64_t column = static_cast<int64_t>(Clamp(0, second, 5 - 3));
      Tensor expected = operand;
      for (int64_t r = 0; r < 2; ++r) {
        for (int64_t k = 0; k < 3; ++k) {
          expected.values<ElementType::kSI32>()[(row + r) * 5 + column + k] =
              update.values<ElementType::kSI32>()[r * 3 + k];
        }
      }
      EXPECT_TRUE(RunExact(c).BitwiseEquals(expected))
          << Name(type) << " start (" << ToDecimal(first) << ", " << ToDecimal(second) << ")";
    }
  }
}

TEST(DynamicSliceOracleTest, ZeroSizedSlicesAndRankZero) {
  Case empty =
      MakeCase("dynamic_slice",
               {Numbered({3, 0}), Scalar(ElementType::kSI32, 7), Scalar(ElementType::kSI32, -7)},
               {{0, 0}, ElementType::kSI32}, {1, 2});
  empty.attributes["slice_sizes"] = std::vector<int64_t>{0, 0};
  EXPECT_EQ(RunExact(empty).num_elements(), 0);

  Case scalar = MakeCase("dynamic_slice", {Numbered({})}, {{}, ElementType::kSI32}, {1, 0});
  scalar.attributes["slice_sizes"] = std::vector<int64_t>{};
  EXPECT_TRUE(RunExact(scalar).BitwiseEquals(Numbered({})));

  Case whole = MakeCase("dynamic_update_slice",
                        {Numbered({2, 2}), Literal("dense<[[7, 8], [9, 10]]> : tensor<2x2xi32>"),
                         Scalar(ElementType::kUI64, Int128(IntegerMaxUnsigned(ElementType::kUI64))),
                         Scalar(ElementType::kUI64, 1)},
                        {{2, 2}, ElementType::kSI32}, {1, 1, 2});
  // The update covers the operand: every start index clamps to 0.
  EXPECT_TRUE(RunExact(whole).BitwiseEquals(whole.operands[1]));
}

// The public spec's example, with operand and start_indices batching dimensions.
TEST(GatherOracleTest, PublicSpecExampleWithBatchingDims) {
  Tensor operand = Numbered({2, 3, 4, 2});
  Tensor start_indices = Literal(
      "dense<[[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],"
      " [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]]> : tensor<2x2x3x2xi64>");
  GatherDims g;
  g.offset_dims = {3, 4};
  g.collapsed_slice_dims = {1};
  g.operand_batching_dims = {0};
  g.start_indices_batching_dims = {1};
  g.start_index_map = {2, 1};
  g.index_vector_dim = 3;
  g.slice_sizes = {1, 1, 2, 2};
  Case c = GatherCase(operand, start_indices, g, {2, 2, 3, 2, 2});
  EXPECT_TRUE(RunExact(c).BitwiseEquals(
      Literal("dense<[[[[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]],"
              " [[[33, 34], [35, 36]], [[35, 36], [37, 38]], [[41, 42], [43, 44]]]],"
              " [[[[1, 2], [3, 4]], [[13, 14], [15, 16]], [[21, 22], [23, 24]]],"
              " [[[43, 44], [45, 46]], [[33, 34], [35, 36]], [[27, 28], [29, 30]]]]]>"
              " : tensor<2x2x3x2x2xi32>")));
}

// Whole rows of a 5x4 operand, one per entry of a rank-1 start_indices
// (index_vector_dim = rank(start_indices) = 1).
GatherDims RowsOf5x4() {
  GatherDims g;
  g.offset_dims = {1};
  g.collapsed_slice_dims = {0};
  g.start_index_map = {0};
  g.index_vector_dim = 1;
  g.slice_sizes = {1, 4};
  return g;
}

// index_vector_dim = rank(start_indices): each start index is one scalar.
TEST(GatherOracleTest, IndexVectorDimEqualToRank) {
  // Rows of a 5x4 operand at [4, -1, 7] (ui8 cannot hold -1: use si8).
  GatherDims g = RowsOf5x4();
  Case rows = GatherCase(Numbered({5, 4}), Literal("dense<[4, -1, 7]> : tensor<3xi8>"), g, {3, 4});
  EXPECT_TRUE(RunExact(rows).BitwiseEquals(
      Literal("dense<[[17, 18, 19, 20], [1, 2, 3, 4], [17, 18, 19, 20]]> : tensor<3x4xi32>")));

  // A rank-0 start index (index_vector_dim = 0 = rank): one 2x2 window of
  // columns 2..3, the start clamped from 200 to 4 - 2.
  g.offset_dims = {0, 1};
  g.collapsed_slice_dims = {};
  g.start_index_map = {1};
  g.index_vector_dim = 0;
  g.slice_sizes = {2, 2};
  Case window = GatherCase(Numbered({5, 4}), Literal("dense<200> : tensor<ui8>"), g, {2, 2});
  EXPECT_TRUE(RunExact(window).BitwiseEquals(Literal("dense<[[3, 4], [7, 8]]> : tensor<2x2xi32>")));

  // Extremes of 64-bit start indices clamp too.
  g.start_index_map = {0};
  g.slice_sizes = {2, 4};
  g.offset_dims = {1, 2};
  g.index_vector_dim = 1;
  Case extremes = GatherCase(
      Numbered({5, 4}), Literal("dense<[18446744073709551615, 0]> : tensor<2xui64>"), g, {2, 2, 4});
  Tensor expected({2, 2, 4}, ElementType::kSI32);
  for (int i = 0; i < 8; ++i) {
    expected.values<ElementType::kSI32>()[i] = 12 + 1 + i;  // rows 3..4
    expected.values<ElementType::kSI32>()[8 + i] = 1 + i;   // rows 0..1
  }
  EXPECT_TRUE(RunExact(extremes).BitwiseEquals(expected));
  extremes.operands[1] =
      Literal("dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>");
  for (int i = 0; i < 8; ++i) {
    std::swap(expected.values<ElementType::kSI32>()[i],
              expected.values<ElementType::kSI32>()[8 + i]);
  }
  EXPECT_TRUE(RunExact(extremes).BitwiseEquals(expected));
}

// indices_are_sorted = true promises sorted start indices; when they are not,
// the behaviour is undefined and the oracle leaves every element free.
TEST(GatherOracleTest, UnsortedIndicesWithTheSortedPromiseAreFree) {
  GatherDims g = RowsOf5x4();
  g.indices_are_sorted = true;
  Case sorted =
      GatherCase(Numbered({5, 4}), Literal("dense<[0, 2, 2, 9]> : tensor<4xi32>"), g, {4, 4});
  auto results = TheOracle().Run(sorted);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].FreeCount(), 0);

  Case unsorted = sorted;
  unsorted.operands[1] = Literal("dense<[0, 2, 1, 9]> : tensor<4xi32>");
  results = TheOracle().Run(unsorted);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].FreeCount(), 16);
  EXPECT_FALSE((*results)[0].free_reason.empty());

  // Without the promise, the same indices are an ordinary gather.
  unsorted.attributes["indices_are_sorted"] = false;
  Tensor rows = RunExact(unsorted);
  EXPECT_EQ(rows.values<ElementType::kSI32>()[8], 5);  // row 1 starts with 5
}

// A random valid gather: operand dimensions are offset, collapsed or
// batching dimensions; start_index_map picks some non-batching ones; the
// start indices have free batch dimensions and the paired batching
// dimensions in any order, with the index vector anywhere (or implicit).
struct RandomGather {
  Case c;
  GatherDims g;
  std::vector<int64_t> batch_shape;  // shape(start_indices) without index_vector_dim
};

RandomGather GenerateGather() {
  RandomGather out;
  GatherDims& g = out.g;
  const int rank = Uniform<int64_t>(1, 4);
  Shape shape;
  std::vector<int> role(rank);      // 0 offset, 1 collapsed, 2 batching
  std::vector<int64_t> candidates;  // for start_index_map
  for (int d = 0; d < rank; ++d) {
    shape.push_back(Dim());
    role[d] = Uniform<int64_t>(0, 3);
    const int64_t max_size = role[d] == 0 ? shape[d] : std::min<int64_t>(shape[d], 1);
    g.slice_sizes.push_back(Uniform<int64_t>(0, max_size + 1));
    if (role[d] == 1) g.collapsed_slice_dims.push_back(d);
    if (role[d] == 2) g.operand_batching_dims.push_back(d);
    if (role[d] != 2) candidates.push_back(d);
  }
  // start_index_map: a random selection of candidates, in random order.
  const int map_size = Uniform<int>(0, candidates.size() + 1);
  for (int k = 0; k < map_size; ++k) {
    const size_t pick = Uniform<size_t>(0, candidates.size());
    g.start_index_map.push_back(candidates[pick]);
    candidates.erase(candidates.begin() + pick);
  }
  // Batch dimensions of start_indices: free ones, and one per operand
  // batching dimension (of its size), shuffled. paired[i] = batch position
  // of operand_batching_dims[i].
  std::vector<int64_t> owner;  // -1 free, else index into operand_batching_dims
  const int free_batch = Uniform<int64_t>(0, 3);
  for (int i = 0; i < free_batch; ++i) owner.push_back(-1);
  for (size_t i = 0; i < g.operand_batching_dims.size(); ++i) owner.push_back(i);
  for (size_t i = owner.size(); i > 1; --i) {
    std::swap(owner[i - 1], owner[Uniform<size_t>(0, i)]);
  }
  std::vector<int64_t> paired(g.operand_batching_dims.size());
  for (size_t p = 0; p < owner.size(); ++p) {
    if (owner[p] < 0) {
      out.batch_shape.push_back(Dim());
    } else {
      out.batch_shape.push_back(shape[g.operand_batching_dims[owner[p]]]);
      paired[owner[p]] = p;
    }
  }
  const int64_t batch_rank = out.batch_shape.size();
  // The index vector: explicit at a random position, or implicit
  // (index_vector_dim = rank(start_indices)) when it has one entry.
  const bool implicit = map_size == 1 && *rc::gen::arbitrary<bool>();
  Shape indices_shape = out.batch_shape;
  if (implicit) {
    g.index_vector_dim = batch_rank;
  } else {
    g.index_vector_dim = Uniform<int64_t>(0, batch_rank + 1);
    indices_shape.insert(indices_shape.begin() + g.index_vector_dim, map_size);
  }
  for (int64_t p : paired) {
    g.start_indices_batching_dims.push_back(p < g.index_vector_dim || implicit ? p : p + 1);
  }
  // Start index values around and beyond the valid range, in a random type.
  const std::vector<ElementType> types = IntegerTypes();
  const ElementType index_type = types[Uniform<size_t>(0, types.size())];
  Tensor indices(indices_shape, ElementType::kSI64);
  for (int64_t& v : indices.values<ElementType::kSI64>()) {
    v = std::clamp<int64_t>(
        Uniform<int64_t>(-3, 8), IntegerMin(index_type),
        static_cast<int64_t>(std::min<uint64_t>(IntegerMaxUnsigned(index_type), 1000)));
  }
  Tensor typed_indices(indices_shape, index_type);
  ConvertElements(ElementType::kSI64, indices.raw(), index_type, typed_indices.raw(),
                  indices.num_elements());
  // Result: batch sizes at batch_dims, offset sizes at offset_dims.
  std::vector<int64_t> offset_sizes;
  for (int d = 0; d < rank; ++d) {
    if (role[d] == 0) offset_sizes.push_back(g.slice_sizes[d]);
  }
  const int64_t result_rank = batch_rank + offset_sizes.size();
  std::vector<bool> is_offset(result_rank, false);
  std::vector<int64_t> pool(result_rank);
  for (int64_t d = 0; d < result_rank; ++d) pool[d] = d;
  for (size_t chosen = 0; chosen < offset_sizes.size(); ++chosen) {
    const size_t pick = Uniform<size_t>(0, pool.size());
    is_offset[pool[pick]] = true;
    pool.erase(pool.begin() + pick);
  }
  Shape result_shape;
  size_t next_batch = 0, next_offset = 0;
  for (int64_t d = 0; d < result_rank; ++d) {
    if (is_offset[d]) {
      g.offset_dims.push_back(d);
      result_shape.push_back(offset_sizes[next_offset++]);
    } else {
      result_shape.push_back(out.batch_shape[next_batch++]);
    }
  }
  out.c = GatherCase(Numbered(shape), std::move(typed_indices), g, result_shape);
  return out;
}

// Every (batch position, slice position) pair sends one operand element to
// one result element: the reference walks them forwards. A dimension that
// the result drops (collapsed or batching) is walked at its one position,
// even with slice size 0; where that position lies outside the operand the
// spec gives no value, and the element is expected to be free.
struct Forwards {
  Tensor result;
  std::vector<uint8_t> free;
};

Forwards GatherForwards(const RandomGather& r) {
  const Tensor& operand = r.c.operands[0];
  const GatherDims& g = r.g;
  const Shape& shape = operand.shape();
  Tensor indices(r.c.operands[1].shape(), ElementType::kSI64);
  ConvertElements(r.c.operands[1].element_type(), r.c.operands[1].raw(), ElementType::kSI64,
                  indices.raw(), indices.num_elements());
  const Shape& result_shape = r.c.result_types[0].shape;
  Forwards out{Tensor(result_shape, ElementType::kSI32),
               std::vector<uint8_t>(NumElements(result_shape), 0)};
  auto dropped = [&](int64_t d) {
    return std::count(g.collapsed_slice_dims.begin(), g.collapsed_slice_dims.end(), d) +
               std::count(g.operand_batching_dims.begin(), g.operand_batching_dims.end(), d) >
           0;
  };
  Shape walk;
  for (size_t d = 0; d < shape.size(); ++d) walk.push_back(dropped(d) ? 1 : g.slice_sizes[d]);
  const bool implicit = g.index_vector_dim == indices.rank();
  for (IndexIterator batch(r.batch_shape); !batch.done(); batch.Next()) {
    std::vector<int64_t> start(shape.size(), 0);
    for (size_t k = 0; k < g.start_index_map.size(); ++k) {
      std::vector<int64_t> at = batch.index();
      if (!implicit) at.insert(at.begin() + g.index_vector_dim, k);
      const int64_t d = g.start_index_map[k];
      start[d] =
          std::clamp<int64_t>(indices.values<ElementType::kSI64>()[Position(indices.shape(), at)],
                              0, shape[d] - g.slice_sizes[d]);
    }
    for (size_t i = 0; i < g.operand_batching_dims.size(); ++i) {
      int64_t p = g.start_indices_batching_dims[i];
      if (!implicit && p > g.index_vector_dim) --p;
      start[g.operand_batching_dims[i]] = batch.index()[p];
    }
    for (IndexIterator slice(walk); !slice.done(); slice.Next()) {
      std::vector<int64_t> operand_at(shape.size());
      std::vector<int64_t> offsets;
      bool inside = true;
      for (size_t d = 0; d < shape.size(); ++d) {
        operand_at[d] = start[d] + slice.index()[d];
        inside = inside && operand_at[d] < shape[d];
        if (!dropped(d)) offsets.push_back(slice.index()[d]);
      }
      std::vector<int64_t> result_at;
      size_t next_batch = 0, next_offset = 0;
      for (size_t d = 0; d < result_shape.size(); ++d) {
        const bool offset = std::count(g.offset_dims.begin(), g.offset_dims.end(), d) > 0;
        result_at.push_back(offset ? offsets[next_offset++] : batch.index()[next_batch++]);
      }
      const int64_t at = Position(result_shape, result_at);
      if (inside) {
        out.result.values<ElementType::kSI32>()[at] =
            operand.values<ElementType::kSI32>()[Position(shape, operand_at)];
      } else {
        out.free[at] = 1;
      }
    }
  }
  return out;
}

RC_GTEST_PROP(GatherOracleProperty, MatchesTheForwardReference, ()) {
  const RandomGather r = GenerateGather();
  RC_TAG(r.g.operand_batching_dims.empty() ? "no batching dims" : "batching dims");
  RC_TAG(r.g.index_vector_dim == r.c.operands[1].rank() ? "implicit index vector"
                                                        : "explicit index vector");
  auto results = TheOracle().Run(r.c);
  if (!results.ok()) RC_FAIL(results.status().ToString());
  const ResultExpectation& e = (*results)[0];
  RC_ASSERT(e.check == Check::kExact);
  const Forwards expected = GatherForwards(r);
  std::vector<uint8_t> free = e.free;
  if (free.empty()) free.assign(expected.free.size(), 0);
  RC_ASSERT(free == expected.free);
  const auto actual = e.reference.values<ElementType::kSI32>();
  for (size_t i = 0; i < free.size(); ++i) {
    if (!free[i]) RC_ASSERT(actual[i] == expected.result.values<ElementType::kSI32>()[i]);
  }
}

}  // namespace
}  // namespace hlocheck::testing
