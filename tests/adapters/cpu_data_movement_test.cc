// The CPU adapter's data movement ops beyond transpose and slice
// (broadcast_in_dim, concatenate, constant, dynamic_slice,
// dynamic_update_slice, gather, get_dimension_size, iota, pad, reshape,
// reverse, optimization_barrier): the spec's examples, hand-checked edge
// cases (clamping, negative padding, implicit index vectors, huge unsigned
// indices, empty dimensions), and a naive gather written here from the
// spec's formula, sharing no code with the adapter.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

using Ints = std::vector<int64_t>;

Case Nary(std::string op, std::vector<Tensor> operands, TensorType result) {
  Case c;
  c.op = std::move(op);
  c.operands = std::move(operands);
  c.result_types.push_back(std::move(result));
  return c;
}

template <ElementType T>
Tensor Scalar(ContainerT<T> value) {
  return Make<T>({}, {value});
}

// ------------------------------------------------------------ spec examples

TEST(CpuDataMovementTest, BroadcastInDimSpecExample) {
  Case c = Unary("broadcast_in_dim", Make<ET::kSI32>({1, 3}, {1, 2, 3}), {{2, 3, 2}, ET::kSI32});
  c.attributes["broadcast_dimensions"] = Ints{2, 1};
  EXPECT_EQ(Values<ET::kSI32>(RunOne(c)),
            (std::vector<int32_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
}

TEST(CpuDataMovementTest, ConcatenateSpecExample) {
  Case c = Nary("concatenate",
                {Make<ET::kSI64>({3, 2}, {1, 2, 3, 4, 5, 6}), Make<ET::kSI64>({1, 2}, {7, 8})},
                {{4, 2}, ET::kSI64});
  c.operand_segments = {2};
  c.attributes["dimension"] = int64_t{0};
  EXPECT_EQ(Values<ET::kSI64>(RunOne(c)), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(CpuDataMovementTest, ConstantSpecExample) {
  Case c = Nary("constant", {}, {{2, 2}, ET::kF32});
  c.attributes["value"] = Make<ET::kF32>({2, 2}, {0.0f, 1.0f, 2.0f, 3.0f});
  EXPECT_EQ(Values<ET::kF32>(RunOne(c)), (std::vector<float>{0.0f, 1.0f, 2.0f, 3.0f}));
}

TEST(CpuDataMovementTest, DynamicSliceSpecExample) {
  Case c = Nary("dynamic_slice",
                {Make<ET::kSI32>({4, 4}, {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}),
                 Scalar<ET::kSI64>(-1), Scalar<ET::kSI64>(3)},
                {{2, 2}, ET::kSI32});
  c.operand_segments = {1, 2};
  c.attributes["slice_sizes"] = Ints{2, 2};
  EXPECT_EQ(Values<ET::kSI32>(RunOne(c)), (std::vector<int32_t>{1, 1, 1, 1}));
}

TEST(CpuDataMovementTest, DynamicUpdateSliceSpecExample) {
  Case c =
      Nary("dynamic_update_slice",
           {Make<ET::kSI32>({4, 4}, {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}),
            Make<ET::kSI32>({2, 2}, {1, 1, 1, 1}), Scalar<ET::kSI64>(-1), Scalar<ET::kSI64>(3)},
           {{4, 4}, ET::kSI32});
  c.operand_segments = {1, 1, 2};
  EXPECT_EQ(Values<ET::kSI32>(RunOne(c)), std::vector<int32_t>(16, 1));
}

Tensor Iota3x4x2() {
  std::vector<int32_t> values(24);
  std::iota(values.begin(), values.end(), 1);
  return Make<ET::kSI32>({3, 4, 2}, values);
}

TEST(CpuDataMovementTest, GatherSpecExample) {
  Case c = GatherCase(Iota3x4x2(), Make<ET::kSI64>({2, 3, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 2}),
                      {.offset_dims = {2, 3},
                       .collapsed_slice_dims = {0},
                       .start_index_map = {1, 0},
                       .slice_sizes = {1, 2, 2},
                       .index_vector_dim = 2},
                      {2, 3, 2, 2});
  EXPECT_EQ(Values<ET::kSI32>(RunOne(c)),
            (std::vector<int32_t>{1, 2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,
                                  9, 10, 11, 12, 11, 12, 13, 14, 17, 18, 19, 20}));
}

TEST(CpuDataMovementTest, GetDimensionSizeSpecExample) {
  Case c =
      Unary("get_dimension_size", Make<ET::kSI64>({2, 3}, {1, 2, 3, 4, 5, 6}), {{}, ET::kSI32});
  c.attributes["dimension"] = int64_t{1};
  EXPECT_EQ(Values<ET::kSI32>(RunOne(c)), (std::vector<int32_t>{3}));
}

TEST(CpuDataMovementTest, IotaSpecExamples) {
  Case c = Nary("iota", {}, {{4, 5}, ET::kSI32});
  c.attributes["iota_dimension"] = int64_t{0};
  std::vector<int32_t> rows;
  for (int32_t i = 0; i < 4; ++i) rows.insert(rows.end(), 5, i);
  EXPECT_EQ(Values<ET::kSI32>(RunOne(c)), rows);
  c.attributes["iota_dimension"] = int64_t{1};
  std::vector<int32_t> columns;
  for (int i = 0; i < 4; ++i) columns.insert(columns.end(), {0, 1, 2, 3, 4});
  EXPECT_EQ(Values<ET::kSI32>(RunOne(c)), columns);
}

TEST(CpuDataMovementTest, PadSpecExample) {
  Case c = Binary("pad", Make<ET::kSI32>({2, 3}, {1, 2, 3, 4, 5, 6}), Scalar<ET::kSI32>(0),
                  {{5, 9}, ET::kSI32});
  c.attributes["edge_padding_low"] = Ints{0, 1};
  c.attributes["edge_padding_high"] = Ints{2, 1};
  c.attributes["interior_padding"] = Ints{1, 2};
  std::vector<int32_t> want(45, 0);
  for (auto [at, value] :
       std::vector<std::pair<int, int>>{{1, 1}, {4, 2}, {7, 3}, {19, 4}, {22, 5}, {25, 6}}) {
    want[at] = value;
  }
  EXPECT_EQ(Values<ET::kSI32>(RunOne(c)), want);
}

TEST(CpuDataMovementTest, ReshapeAndReverseSpecExamples) {
  Case reshape = Unary("reshape", Make<ET::kSI32>({2, 3}, {1, 2, 3, 4, 5, 6}), {{3, 2}, ET::kSI32});
  EXPECT_EQ(Values<ET::kSI32>(RunOne(reshape)), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  Case reverse = Unary("reverse", Make<ET::kSI32>({3, 2}, {1, 2, 3, 4, 5, 6}), {{3, 2}, ET::kSI32});
  reverse.attributes["dimensions"] = Ints{1};
  EXPECT_EQ(Values<ET::kSI32>(RunOne(reverse)), (std::vector<int32_t>{2, 1, 4, 3, 6, 5}));
  reverse.attributes["dimensions"] = Ints{1, 0};
  EXPECT_EQ(Values<ET::kSI32>(RunOne(reverse)), (std::vector<int32_t>{6, 5, 4, 3, 2, 1}));
}

TEST(CpuDataMovementTest, OptimizationBarrierIsTheIdentityPerOperand) {
  Case c =
      Nary("optimization_barrier",
           {Scalar<ET::kF32>(0.0f), Make<ET::kSI4>({3}, {-8, 7, -1}), Tensor({0, 5}, ET::kF64)},
           {Shape{}, ET::kF32});
  c.result_types = {c.operands[0].type(), c.operands[1].type(), c.operands[2].type()};
  c.operand_segments = {3};
  CpuAdapter& adapter = SharedAdapter();
  ASSERT_TRUE(adapter.Supports(c).supported);
  absl::StatusOr<std::vector<Tensor>> results = adapter.Run(c);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE((*results)[i].BitwiseEquals(c.operands[i])) << i;
}

// ------------------------------------------------------------ start index clamping

// dynamic_slice of a 1-D iota at `start`, of size 3, with start indices of `T`.
template <ElementType T>
std::vector<int32_t> SliceOfTenAt(ContainerT<T> start) {
  std::vector<int32_t> ten(10);
  std::iota(ten.begin(), ten.end(), 0);
  Case c = Nary("dynamic_slice", {Make<ET::kSI32>({10}, ten), Scalar<T>(start)}, {{3}, ET::kSI32});
  c.attributes["slice_sizes"] = Ints{3};
  return Values<ET::kSI32>(RunOne(c));
}

TEST(CpuDataMovementTest, DynamicSliceClampsStartIndicesOfEveryIntegerType) {
  const std::vector<int32_t> front = {0, 1, 2};
  const std::vector<int32_t> back = {7, 8, 9};
  EXPECT_EQ(SliceOfTenAt<ET::kSI64>(std::numeric_limits<int64_t>::min()), front);
  EXPECT_EQ(SliceOfTenAt<ET::kSI64>(std::numeric_limits<int64_t>::max()), back);
  EXPECT_EQ(SliceOfTenAt<ET::kSI64>(4), (std::vector<int32_t>{4, 5, 6}));
  // ui64 values at and above 2^63 are huge positive starts, not negative ones.
  EXPECT_EQ(SliceOfTenAt<ET::kUI64>(std::numeric_limits<uint64_t>::max()), back);
  EXPECT_EQ(SliceOfTenAt<ET::kUI64>(uint64_t{1} << 63), back);
  EXPECT_EQ(SliceOfTenAt<ET::kUI32>(0xFFFFFFFFu), back);
  EXPECT_EQ(SliceOfTenAt<ET::kSI32>(-5), front);
  EXPECT_EQ(SliceOfTenAt<ET::kSI16>(7), back);
  EXPECT_EQ(SliceOfTenAt<ET::kSI8>(6), (std::vector<int32_t>{6, 7, 8}));
  EXPECT_EQ(SliceOfTenAt<ET::kUI8>(255), back);
  // The narrow types sit sign- or zero-extended in a byte.
  EXPECT_EQ(SliceOfTenAt<ET::kSI4>(-8), front);
  EXPECT_EQ(SliceOfTenAt<ET::kSI4>(5), (std::vector<int32_t>{5, 6, 7}));
  EXPECT_EQ(SliceOfTenAt<ET::kSI2>(-2), front);
  EXPECT_EQ(SliceOfTenAt<ET::kSI2>(1), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(SliceOfTenAt<ET::kUI4>(15), back);
  EXPECT_EQ(SliceOfTenAt<ET::kUI2>(3), (std::vector<int32_t>{3, 4, 5}));
}

TEST(CpuDataMovementTest, DynamicUpdateSliceClampsAndHandlesEmptyUpdates) {
  Case c = Nary("dynamic_update_slice",
                {Make<ET::kF64>({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7}), Make<ET::kF64>({1, 2}, {-1, -2}),
                 Scalar<ET::kUI64>(~uint64_t{0}), Scalar<ET::kUI64>(uint64_t{1} << 63)},
                {{2, 4}, ET::kF64});
  EXPECT_EQ(Values<ET::kF64>(RunOne(c)), (std::vector<double>{0, 1, 2, 3, 4, 5, -1, -2}));
  c.operands[2] = Scalar<ET::kUI64>(0);
  c.operands[3] = Scalar<ET::kUI64>(1);
  EXPECT_EQ(Values<ET::kF64>(RunOne(c)), (std::vector<double>{0, -1, -2, 3, 4, 5, 6, 7}));
  c.operands[1] = Tensor({0, 2}, ET::kF64);
  EXPECT_EQ(Values<ET::kF64>(RunOne(c)), (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(CpuDataMovementTest, DynamicSliceOfEmptySizesAndEmptyOperands) {
  Case c =
      Nary("dynamic_slice", {Tensor({0, 3}, ET::kBF16), Scalar<ET::kSI8>(5), Scalar<ET::kSI8>(-5)},
           {{0, 2}, ET::kBF16});
  c.attributes["slice_sizes"] = Ints{0, 2};
  EXPECT_EQ(RunOne(c).num_elements(), 0);
}

// ------------------------------------------------------------ gather

TEST(CpuDataMovementTest, GatherWithImplicitIndexVectorDimension) {
  // index_vector_dim = rank(start_indices): each scalar is a start index
  // for operand dimension 0 (rows), clamped into [0, 3 - 1].
  Case c = GatherCase(Make<ET::kF32>({3, 2}, {0, 1, 10, 11, 20, 21}),
                      Make<ET::kSI4>({2, 2}, {2, -8, 7, 1}),
                      {.offset_dims = {2},
                       .collapsed_slice_dims = {0},
                       .start_index_map = {0},
                       .slice_sizes = {1, 2},
                       .index_vector_dim = 2},
                      {2, 2, 2});
  EXPECT_EQ(Values<ET::kF32>(RunOne(c)), (std::vector<float>{20, 21, 0, 1, 20, 21, 10, 11}));
}

TEST(CpuDataMovementTest, GatherClampsHugeUnsignedIndices) {
  Case c = GatherCase(Make<ET::kSI8>({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}),
                      Make<ET::kUI64>({2, 2}, {~uint64_t{0}, uint64_t{1} << 63, 0, 1}),
                      {.offset_dims = {1, 2},
                       .start_index_map = {0, 1},
                       .slice_sizes = {2, 3},
                       .index_vector_dim = 1},
                      {2, 2, 3});
  // Both starts clamp to [0, 2 - 2] and [0, 5 - 3]: (0, 2); then (0, 1).
  EXPECT_EQ(Values<ET::kSI8>(RunOne(c)), (std::vector<int8_t>{2, 3, 4, 7, 8, 9, 1, 2, 3, 6, 7, 8}));
}

TEST(CpuDataMovementTest, GatherWithBatchingDimensions) {
  // The public spec's example: operand 2x3x4x2 and start indices 2x2x3x2,
  // operand_batching_dims = [0] paired with start_indices_batching_dims = [1].
  std::vector<int32_t> values(48);
  std::iota(values.begin(), values.end(), 1);
  Case c = GatherCase(Make<ET::kSI32>({2, 3, 4, 2}, values),
                      Make<ET::kSI64>({2, 2, 3, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9,
                                                     0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0}),
                      {.offset_dims = {3, 4},
                       .collapsed_slice_dims = {1},
                       .operand_batching_dims = {0},
                       .start_indices_batching_dims = {1},
                       .start_index_map = {2, 1},
                       .slice_sizes = {1, 1, 2, 2},
                       .index_vector_dim = 3},
                      {2, 2, 3, 2, 2});
  const std::vector<int32_t> got = Values<ET::kSI32>(RunOne(c));
  ASSERT_EQ(got.size(), 48u);
  // result[i0, i1, i2, o0, o1] = operand[i1, index[..][1], index[..][0] + o0, o1]
  // with index[..] = start_indices[i0, i1, i2, :] clamped to [0, 2] and [0, 2].
  const std::vector<int32_t> indices = {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9,
                                        0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0};
  for (int i0 = 0; i0 < 2; ++i0) {
    for (int i1 = 0; i1 < 2; ++i1) {
      for (int i2 = 0; i2 < 3; ++i2) {
        const int vector = ((i0 * 2 + i1) * 3 + i2) * 2;
        const int d2 = std::clamp(indices[vector], 0, 2);
        const int d1 = std::clamp(indices[vector + 1], 0, 2);
        for (int o0 = 0; o0 < 2; ++o0) {
          for (int o1 = 0; o1 < 2; ++o1) {
            const int at = (((i0 * 2 + i1) * 3 + i2) * 2 + o0) * 2 + o1;
            EXPECT_EQ(got[at], values[((i1 * 3 + d1) * 4 + d2 + o0) * 2 + o1]) << at;
          }
        }
      }
    }
  }
}

TEST(CpuDataMovementTest, GatherOfCollapsedSliceOfSizeZeroReadsNothingOutside) {
  // slice_sizes[0] = 0 on a collapsed dimension: a start clamped to 3 lies
  // outside the operand (no value in the spec, and nothing may be read);
  // a start inside still selects its row.
  Case c =
      GatherCase(Make<ET::kSI32>({3, 2}, {0, 1, 10, 11, 20, 21}), Make<ET::kSI32>({2, 1}, {99, 1}),
                 {.offset_dims = {1},
                  .collapsed_slice_dims = {0},
                  .start_index_map = {0},
                  .slice_sizes = {0, 2},
                  .index_vector_dim = 1},
                 {2, 2});
  const std::vector<int32_t> got = Values<ET::kSI32>(RunOne(c));
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[2], 10);
  EXPECT_EQ(got[3], 11);
}

TEST(CpuDataMovementTest, GatherWithNoPositionsOrEmptySlices) {
  Case none = GatherCase(Make<ET::kF64>({3, 2}, {0, 1, 2, 3, 4, 5}), Tensor({0, 1}, ET::kUI8),
                         {.offset_dims = {1},
                          .collapsed_slice_dims = {0},
                          .start_index_map = {0},
                          .slice_sizes = {1, 2},
                          .index_vector_dim = 1},
                         {0, 2});
  EXPECT_EQ(RunOne(none).num_elements(), 0);
  Case empty =
      GatherCase(Make<ET::kF64>({3, 2}, {0, 1, 2, 3, 4, 5}), Make<ET::kUI8>({2, 1}, {1, 2}),
                 {.offset_dims = {1},
                  .collapsed_slice_dims = {0},
                  .start_index_map = {0},
                  .slice_sizes = {1, 0},
                  .index_vector_dim = 1},
                 {2, 0});
  EXPECT_EQ(RunOne(empty).num_elements(), 0);
}

// The spec's formula, element by element, for gathers without batching
// dimensions: result[batch..., offset...] = operand[clamped start + offset].
Tensor NaiveRowGather(const Tensor& table, const std::vector<int64_t>& rows, int64_t width,
                      int64_t column) {
  const int64_t count = static_cast<int64_t>(rows.size());
  Tensor result({count, width}, table.element_type());
  const int64_t bytes = ContainerBytes(table.element_type());
  const int64_t table_rows = table.shape()[0];
  const int64_t table_width = table.shape()[1];
  const int64_t start_column = std::clamp<int64_t>(column, 0, table_width - width);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t row = std::clamp<int64_t>(rows[i], 0, table_rows - 1);
    std::memcpy(result.bytes().data() + i * width * bytes,
                table.bytes().data() + (row * table_width + start_column) * bytes, width * bytes);
  }
  return result;
}

TEST(CpuDataMovementTest, RowGatherOnThePoolMatchesTheFormula) {
  std::mt19937_64 rng(11);
  for (ElementType type : {ET::kI1, ET::kF16, ET::kF32, ET::kSI64, ET::kComplexF64}) {
    for (int64_t count : {1, 3, 1000}) {
      Tensor table = RandomBytes({50, 40}, type, rng);
      std::vector<int64_t> rows(count);
      Tensor indices({count, 2}, ET::kSI32);
      for (int64_t i = 0; i < count; ++i) {
        rows[i] = static_cast<int64_t>(rng() % 70) - 10;
        indices.values<ET::kSI32>()[2 * i] = static_cast<int32_t>(rows[i]);
        indices.values<ET::kSI32>()[2 * i + 1] = 30;
      }
      Case c = GatherCase(table, indices,
                          {.offset_dims = {1},
                           .collapsed_slice_dims = {0},
                           .start_index_map = {0, 1},
                           .slice_sizes = {1, 17},
                           .index_vector_dim = 1},
                          {count, 17});
      EXPECT_TRUE(RunOne(c).BitwiseEquals(NaiveRowGather(table, rows, 17, 30)))
          << Name(type) << " x " << count;
    }
  }
}

// ------------------------------------------------------------ pad

Case PadCase(Tensor operand, Tensor padding, Shape result, Ints low, Ints high, Ints interior) {
  const ElementType type = operand.element_type();
  Case c = Binary("pad", std::move(operand), std::move(padding), {std::move(result), type});
  c.attributes["edge_padding_low"] = std::move(low);
  c.attributes["edge_padding_high"] = std::move(high);
  c.attributes["interior_padding"] = std::move(interior);
  return c;
}

TEST(CpuDataMovementTest, PadWithNegativeEdgesRemovesElements) {
  const Tensor row = Make<ET::kSI16>({5}, {1, 2, 3, 4, 5});
  // Interior padding first (1 _ 2 _ 3 _ 4 _ 5), then -3 low and -2 high.
  EXPECT_EQ(Values<ET::kSI16>(RunOne(PadCase(row, Scalar<ET::kSI16>(0), {4}, {-3}, {-2}, {1}))),
            (std::vector<int16_t>{0, 3, 0, 4}));
  // A low edge that removes more than the operand, given back by the high one.
  EXPECT_EQ(Values<ET::kSI16>(RunOne(PadCase(row, Scalar<ET::kSI16>(9), {2}, {-7}, {4}, {0}))),
            (std::vector<int16_t>{9, 9}));
  // Negative on one side, positive on the other, in two dimensions.
  Case two = PadCase(Make<ET::kSI16>({2, 3}, {1, 2, 3, 4, 5, 6}), Scalar<ET::kSI16>(-1), {3, 3},
                     {1, -1}, {0, 1}, {0, 0});
  EXPECT_EQ(Values<ET::kSI16>(RunOne(two)), (std::vector<int16_t>{-1, -1, -1, 2, 3, -1, 5, 6, -1}));
  // Everything removed: an empty result.
  EXPECT_EQ(RunOne(PadCase(row, Scalar<ET::kSI16>(0), {0}, {-3}, {-2}, {0})).num_elements(), 0);
}

TEST(CpuDataMovementTest, PadOfEmptyOperandsIsAllPadding) {
  Case c = PadCase(Tensor({0, 2}, ET::kComplexF32), Scalar<ET::kComplexF32>({1.5f, -2.0f}), {3, 2},
                   {1, 0}, {2, 0}, {4, 0});
  EXPECT_EQ(Values<ET::kComplexF32>(RunOne(c)),
            std::vector<std::complex<float>>(6, std::complex<float>(1.5f, -2.0f)));
}

// ------------------------------------------------------------ iota

TEST(CpuDataMovementTest, IotaRoundsIndicesToNarrowFloatsOnce) {
  auto iota = [](ElementType type, int64_t size) {
    Case c = Nary("iota", {}, {{size}, type});
    c.attributes["iota_dimension"] = int64_t{0};
    return RunOne(c);
  };
  // f8E4M3FN: 17 lies halfway between 16 and 18 and rounds to even (16).
  const float sixteen = 16.0f, eighteen = 18.0f;
  uint8_t f8_16 = 0, f8_18 = 0;
  ConvertElement(ET::kF32, &sixteen, ET::kF8E4M3FN, &f8_16);
  ConvertElement(ET::kF32, &eighteen, ET::kF8E4M3FN, &f8_18);
  const std::vector<uint8_t> f8 = Values<ET::kF8E4M3FN>(iota(ET::kF8E4M3FN, 20));
  EXPECT_EQ(f8[16], f8_16);
  EXPECT_EQ(f8[17], f8_16);
  EXPECT_EQ(f8[18], f8_18);
  // bf16 holds 8 significant bits: 257 rounds to 256, 259 to 260.
  const std::vector<uint16_t> bf16 = Values<ET::kBF16>(iota(ET::kBF16, 260));
  EXPECT_EQ(bf16[257], 0x4380);  // 256
  EXPECT_EQ(bf16[259], 0x4382);  // 260
  // f16 holds 11: 2049 rounds to 2048.
  const std::vector<uint16_t> f16 = Values<ET::kF16>(iota(ET::kF16, 2050));
  EXPECT_EQ(f16[2049], 0x6800);
  EXPECT_EQ(Values<ET::kComplexF64>(iota(ET::kComplexF64, 3)),
            (std::vector<std::complex<double>>{{0, 0}, {1, 0}, {2, 0}}));
  EXPECT_EQ(Values<ET::kUI4>(iota(ET::kUI4, 4)), (std::vector<uint8_t>{0, 1, 2, 3}));
  EXPECT_EQ(Values<ET::kF32>(iota(ET::kF32, 0)), std::vector<float>{});
}

TEST(CpuDataMovementTest, IotaAlongAMiddleDimension) {
  Case c = Nary("iota", {}, {{2, 3, 2}, ET::kSI64});
  c.attributes["iota_dimension"] = int64_t{1};
  EXPECT_EQ(Values<ET::kSI64>(RunOne(c)),
            (std::vector<int64_t>{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}));
}

// ------------------------------------------------------------ shapes with zeros

TEST(CpuDataMovementTest, ZeroSizedDimensions) {
  Case broadcast = Unary("broadcast_in_dim", Tensor({0}, ET::kF32), {{3, 0}, ET::kF32});
  broadcast.attributes["broadcast_dimensions"] = Ints{1};
  EXPECT_EQ(RunOne(broadcast).num_elements(), 0);
  Case reverse = Unary("reverse", Tensor({2, 0}, ET::kF32), {{2, 0}, ET::kF32});
  reverse.attributes["dimensions"] = Ints{0, 1};
  EXPECT_EQ(RunOne(reverse).num_elements(), 0);
  Case concatenate =
      Nary("concatenate",
           {Tensor({2, 0}, ET::kSI8), Make<ET::kSI8>({2, 1}, {1, 2}), Tensor({2, 0}, ET::kSI8)},
           {{2, 1}, ET::kSI8});
  concatenate.attributes["dimension"] = int64_t{1};
  EXPECT_EQ(Values<ET::kSI8>(RunOne(concatenate)), (std::vector<int8_t>{1, 2}));
  Case size = Unary("get_dimension_size", Tensor({0, 7}, ET::kF32), {{}, ET::kSI32});
  size.attributes["dimension"] = int64_t{0};
  EXPECT_EQ(Values<ET::kSI32>(RunOne(size)), (std::vector<int32_t>{0}));
}

TEST(CpuDataMovementTest, BroadcastThatTransposes) {
  // broadcast_dimensions need not be sorted: operand dimension 0 goes to
  // result dimension 2, dimension 1 to result dimension 0.
  Case c = Unary("broadcast_in_dim", Make<ET::kUI16>({2, 3}, {1, 2, 3, 4, 5, 6}),
                 {{3, 2, 2}, ET::kUI16});
  c.attributes["broadcast_dimensions"] = Ints{2, 0};
  EXPECT_EQ(Values<ET::kUI16>(RunOne(c)),
            (std::vector<uint16_t>{1, 4, 1, 4, 2, 5, 2, 5, 3, 6, 3, 6}));
}

TEST(CpuDataMovementTest, LargeConcatenateAndReverseUseThePool) {
  std::mt19937_64 rng(12);
  Tensor a = RandomBytes({64, 100, 9}, ET::kF32, rng);
  Tensor b = RandomBytes({64, 37, 9}, ET::kF32, rng);
  Case c = Nary("concatenate", {a, b}, {{64, 137, 9}, ET::kF32});
  c.attributes["dimension"] = int64_t{1};
  Tensor joined = RunOne(c);
  Case r = Unary("reverse", joined, joined.type());
  r.attributes["dimensions"] = Ints{0, 2};
  Tensor reversed = RunOne(r);
  const auto got = reversed.values<ET::kF32>();
  const auto av = a.values<ET::kF32>();
  const auto bv = b.values<ET::kF32>();
  int mismatches = 0;
  for (int64_t i = 0; i < 64; ++i) {
    for (int64_t j = 0; j < 137; ++j) {
      for (int64_t k = 0; k < 9; ++k) {
        const float want = j < 100 ? av[(i * 100 + j) * 9 + k] : bv[(i * 37 + j - 100) * 9 + k];
        const float have = got[((63 - i) * 137 + j) * 9 + (8 - k)];
        mismatches += std::memcmp(&want, &have, 4) != 0;
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// ------------------------------------------------------------ supports and errors

TEST(CpuDataMovementTest, SaysWhatItCannotRun) {
  CpuAdapter& adapter = SharedAdapter();
  TensorType quantized({2}, ET::kSI8);
  quantized.quantization = UniformQuantization{};
  quantized.quantization->scales = {1.0};
  quantized.quantization->zero_points = {0};
  // A quantized reshape or constant moves the storage integers
  // (quantized_ops.cc), a quantized iota quantizes its indices.
  EXPECT_TRUE(adapter.Supports(Unary("reshape", Tensor(quantized), quantized)).supported);
  Case quantized_iota = Nary("iota", {}, quantized);
  quantized_iota.attributes["iota_dimension"] = int64_t{0};
  EXPECT_TRUE(adapter.Supports(quantized_iota).supported);
  Case quantized_constant = Nary("constant", {}, quantized);
  quantized_constant.attributes["value"] = Tensor(quantized);
  EXPECT_TRUE(adapter.Supports(quantized_constant).supported);

  Case barrier = Nary("optimization_barrier", {Tensor({2}, ET::kF32)}, {{2}, ET::kF32});
  barrier.result_types.push_back({{2}, ET::kF32});
  EXPECT_FALSE(adapter.Supports(barrier).supported);

  Case iota = Nary("iota", {}, {{2}, ET::kI1});
  iota.attributes["iota_dimension"] = int64_t{0};
  EXPECT_FALSE(adapter.Supports(iota).supported);

  Case empty_concatenate = Nary("concatenate", {}, {{0}, ET::kF32});
  EXPECT_FALSE(adapter.Supports(empty_concatenate).supported);
}

TEST(CpuDataMovementTest, MalformedCasesAreErrorsNotCrashes) {
  CpuAdapter& adapter = SharedAdapter();
  auto code = [&](const Case& c) { return adapter.Run(c).status().code(); };
  const auto kInvalid = absl::StatusCode::kInvalidArgument;

  Case slice =
      Nary("dynamic_slice", {Tensor({4}, ET::kF32), Scalar<ET::kF32>(1.0f)}, {{2}, ET::kF32});
  slice.attributes["slice_sizes"] = Ints{2};
  EXPECT_EQ(code(slice), kInvalid);  // a float start index
  slice.operands[1] = Scalar<ET::kSI32>(1);
  slice.attributes["slice_sizes"] = Ints{5};
  EXPECT_EQ(code(slice), kInvalid);  // a slice larger than the operand

  Case pad = PadCase(Tensor({3}, ET::kSI8), Scalar<ET::kSI8>(0), {1}, {0}, {0}, {-1});
  EXPECT_EQ(code(pad), kInvalid);  // negative interior padding

  Case gather = GatherCase(Tensor({3, 2}, ET::kF32), Tensor({2, 1}, ET::kSI32),
                           {.offset_dims = {1},
                            .collapsed_slice_dims = {0},
                            .start_index_map = {0},
                            .slice_sizes = {2, 2},
                            .index_vector_dim = 1},
                           {2, 2});
  EXPECT_EQ(code(gather), kInvalid);  // collapsed dimension with slice size 2
  gather.attributes["slice_sizes"] = Ints{1, 2};
  gather.attributes["index_vector_dim"] = int64_t{3};
  EXPECT_EQ(code(gather), kInvalid);
  gather.attributes["index_vector_dim"] = int64_t{1};
  gather.attributes["start_index_map"] = Ints{0, 1};
  EXPECT_EQ(code(gather), kInvalid);  // two map entries for a vector of one
  gather.attributes["start_index_map"] = Ints{0};
  gather.result_types[0].shape = {2, 3};
  EXPECT_EQ(code(gather), kInvalid);

  Case broadcast = Unary("broadcast_in_dim", Tensor({2}, ET::kF32), {{3}, ET::kF32});
  broadcast.attributes["broadcast_dimensions"] = Ints{0};
  EXPECT_EQ(code(broadcast), kInvalid);

  Case constant = Nary("constant", {}, {{2}, ET::kF32});
  constant.attributes["value"] = Tensor({3}, ET::kF32);
  EXPECT_EQ(code(constant), kInvalid);

  Case concatenate =
      Nary("concatenate", {Tensor({2, 2}, ET::kF32), Tensor({2, 3}, ET::kF32)}, {{4, 2}, ET::kF32});
  concatenate.attributes["dimension"] = int64_t{0};
  EXPECT_EQ(code(concatenate), kInvalid);
}

}  // namespace
}  // namespace hlocheck::cpu_test
