// The CPU adapter's scatter: the spec's example, hand-checked corner cases
// (batching dimensions, an implicit index vector, windows partly out of
// bounds, an empty input), a reference written here from the spec's
// formula, and the typed kernels of the recognised combiners against the
// general body evaluator on bodies that compute the same thing in a form it
// does not recognise.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/adapters/cpu_region_test_util.h"

namespace hlocheck::cpu_test {
namespace {

// ------------------------------------------------------ scatter: examples

// The spec's example: add of 1s into a 3x4x2 input at 2x3 index pairs, one
// of them (0, 9) out of bounds.
TEST(CpuScatterTest, SpecExample) {
  std::vector<int64_t> input(24);
  std::iota(input.begin(), input.end(), 1);
  Case c = ScatterCase({Make<ET::kSI64>({3, 4, 2}, input)},
                       Make<ET::kSI64>({2, 3, 2}, {0, 2, 1, 0, 2, 1, 0, 1, 1, 0, 0, 9}),
                       {Make<ET::kSI64>({2, 3, 2, 2}, std::vector<int64_t>(24, 1))},
                       {.update_window_dims = {2, 3},
                        .inserted_window_dims = {0},
                        .scatter_dims_to_operand_dims = {1, 0},
                        .index_vector_dim = 2},
                       Combiner("add", {ET::kSI64}));
  const std::vector<int64_t> want = {1,  2,  5,  6,  7,  8,  7,  8,  10, 11, 12, 13,
                                     14, 15, 16, 17, 18, 19, 20, 21, 21, 22, 23, 24};
  std::vector<Tensor> results = RunAll(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<ET::kSI64>(results[0]), want);
}

// The scatter formula, written out for si32 data: result_index assembled
// dimension by dimension from the spec's definitions, the updates applied
// in row-major order with `combine`.
template <typename Combine>
std::vector<int32_t> ReferenceScatter(const Tensor& input, const Tensor& indices,
                                      const Tensor& updates, const ScatterDims& d,
                                      Combine combine) {
  std::vector<int32_t> out = Values<ET::kSI32>(input);
  const std::vector<int64_t> strides = RowMajorStrides(input.shape());
  const std::vector<int64_t> index_strides = RowMajorStrides(indices.shape());
  auto has = [](const std::vector<int64_t>& v, int64_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  for (IndexIterator it(updates.shape()); !it.done(); it.Next()) {
    const std::vector<int64_t>& update_index = it.index();
    std::vector<int64_t> scatter_index;
    std::vector<int64_t> window_index;
    for (int64_t u = 0; u < updates.rank(); ++u) {
      (has(d.update_window_dims, u) ? window_index : scatter_index).push_back(update_index[u]);
    }
    // scatter_indices[scatter_index with ":" at index_vector_dim]
    std::vector<int64_t> start_index;
    const int64_t count =
        d.index_vector_dim < indices.rank() ? indices.shape()[d.index_vector_dim] : 1;
    for (int64_t k = 0; k < count; ++k) {
      std::vector<int64_t> at = scatter_index;
      if (d.index_vector_dim < indices.rank()) at.insert(at.begin() + d.index_vector_dim, k);
      int64_t offset = 0;
      for (size_t j = 0; j < at.size(); ++j) offset += at[j] * index_strides[j];
      start_index.push_back(indices.values<ET::kSI32>()[offset]);
    }
    std::vector<int64_t> result_index(input.rank(), 0);
    for (size_t k = 0; k < d.scatter_dims_to_operand_dims.size(); ++k) {
      result_index[d.scatter_dims_to_operand_dims[k]] += start_index[k];
    }
    for (size_t i = 0; i < d.input_batching_dims.size(); ++i) {
      const int64_t s = d.scatter_indices_batching_dims[i];
      result_index[d.input_batching_dims[i]] += scatter_index[s < d.index_vector_dim ? s : s - 1];
    }
    size_t w = 0;
    for (int64_t dim = 0; dim < input.rank(); ++dim) {
      if (!has(d.inserted_window_dims, dim) && !has(d.input_batching_dims, dim)) {
        result_index[dim] += window_index[w++];
      }
    }
    bool in_bounds = true;
    int64_t position = 0;
    for (int64_t dim = 0; dim < input.rank(); ++dim) {
      in_bounds = in_bounds && result_index[dim] >= 0 && result_index[dim] < input.shape()[dim];
      position += result_index[dim] * strides[dim];
    }
    if (in_bounds) {
      out[position] = combine(out[position], updates.values<ET::kSI32>()[it.linear()]);
    }
  }
  return out;
}

int32_t WrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// The public spec's batching example (input_batching_dims = [0] paired
// with scatter_indices dimension 1), with indices inside, at and beyond the
// bounds so that parts of windows fall out.
TEST(CpuScatterTest, BatchingDimensionsFollowTheFormula) {
  std::mt19937_64 rng(7);
  const ScatterDims dims = {.update_window_dims = {3, 4},
                            .inserted_window_dims = {1},
                            .input_batching_dims = {0},
                            .scatter_indices_batching_dims = {1},
                            .scatter_dims_to_operand_dims = {2, 1},
                            .index_vector_dim = 3};
  for (int trial = 0; trial < 20; ++trial) {
    Tensor input = RandomInts({2, 3, 4, 2}, -100, 100, rng);
    Tensor indices = RandomInts({2, 2, 3, 2}, -2, 4, rng);
    Tensor updates = RandomInts({2, 2, 3, 2, 2}, -100, 100, rng);
    const std::vector<int32_t> want = ReferenceScatter(input, indices, updates, dims, WrappingAdd);
    std::vector<Tensor> got =
        RunAll(ScatterCase({input}, indices, {updates}, dims, Combiner("add", {ET::kSI32})));
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(Values<ET::kSI32>(got[0]), want) << "trial " << trial;
  }
}

// index_vector_dim = rank(scatter_indices): every index is one number.
TEST(CpuScatterTest, ImplicitIndexVector) {
  Case c = ScatterCase(
      {Make<ET::kSI32>({5}, {0, 0, 0, 0, 0})}, Make<ET::kSI32>({4}, {1, 3, 1, 5}),
      {Make<ET::kSI32>({4}, {10, 20, 30, 40})},
      {.inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1},
      Combiner("add", {ET::kSI32}));
  std::vector<Tensor> got = RunAll(c);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(Values<ET::kSI32>(got[0]), (std::vector<int32_t>{0, 40, 0, 20, 0}));
}

// 2x3 windows into a 4x3 input at rows 3, 1, -1 and 2^63 - 1: the rows of
// a window inside the input are written, the others skipped (so start -1
// writes row 0 from its second window row).
TEST(CpuScatterTest, WindowsPartlyOutOfBounds) {
  std::vector<int32_t> updates(4 * 6);
  std::iota(updates.begin(), updates.end(), 1);
  Case c = ScatterCase(
      {Make<ET::kSI32>({4, 3}, std::vector<int32_t>(12, 0))},
      Make<ET::kSI64>({4, 1}, {3, 1, -1, std::numeric_limits<int64_t>::max()}),
      {Make<ET::kSI32>({4, 2, 3}, updates)},
      {.update_window_dims = {1, 2}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1},
      Combiner("replace", {ET::kSI32}));
  std::vector<Tensor> got = RunAll(c);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(Values<ET::kSI32>(got[0]),
            (std::vector<int32_t>{16, 17, 18, 7, 8, 9, 10, 11, 12, 1, 2, 3}));

  // ui64 indices beyond int64's range are out of bounds too.
  Case unsigned_indices = ScatterCase(
      {Make<ET::kSI32>({3}, {1, 2, 3})},
      Make<ET::kUI64>({2, 1}, {std::numeric_limits<uint64_t>::max(), 2}),
      {Make<ET::kSI32>({2}, {50, 60})},
      {.inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1},
      Combiner("add", {ET::kSI32}));
  got = RunAll(unsigned_indices);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(Values<ET::kSI32>(got[0]), (std::vector<int32_t>{1, 2, 63}));
}

// An input with a dimension of size 0 has no element for any update, even
// where its index is 0 at an inserted dimension without a start index.
TEST(CpuScatterTest, EmptyInputTakesNoUpdates) {
  Case c =
      ScatterCase({Tensor(Shape{0, 3}, ET::kSI32)}, Tensor(Shape{2, 0}, ET::kSI32),
                  {Make<ET::kSI32>({2, 3}, {1, 2, 3, 4, 5, 6})},
                  {.update_window_dims = {1}, .inserted_window_dims = {0}, .index_vector_dim = 1},
                  Combiner("add", {ET::kSI32}));
  std::vector<Tensor> got = RunAll(c);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].num_elements(), 0);
}

// Random dimension numbers (batching dimensions on either side of
// index_vector_dim, windows partly out of bounds), against the formula.
TEST(CpuScatterTest, RandomDimensionNumbersFollowTheFormula) {
  std::mt19937_64 rng(11);
  const std::vector<std::pair<Shape, Shape>> shapes = {{{4, 3}, {3, 1}}, {{3, 4, 2}, {2, 3, 2}}};
  const std::vector<ScatterDims> all = {
      {.update_window_dims = {1},
       .inserted_window_dims = {0},
       .scatter_dims_to_operand_dims = {0},
       .index_vector_dim = 1},
      {.update_window_dims = {2, 3},
       .inserted_window_dims = {0},
       .scatter_dims_to_operand_dims = {1, 0},
       .index_vector_dim = 2},
  };
  const std::vector<Shape> update_shapes = {{3, 2}, {2, 3, 2, 2}};
  for (size_t k = 0; k < all.size(); ++k) {
    for (int trial = 0; trial < 20; ++trial) {
      Tensor input = RandomInts(shapes[k].first, -9, 9, rng);
      Tensor indices = RandomInts(shapes[k].second, -2, 4, rng);
      Tensor updates = RandomInts(update_shapes[k], -9, 9, rng);
      auto multiply = [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
      };
      std::vector<Tensor> got = RunAll(
          ScatterCase({input}, indices, {updates}, all[k], Combiner("multiply", {ET::kSI32})));
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(Values<ET::kSI32>(got[0]),
                ReferenceScatter(input, indices, updates, all[k], multiply));
    }
  }
}

// Bodies the adapter does not recognise, run by its evaluator: subtract
// (order-independent for integers) and current + update * update.
TEST(CpuScatterTest, GeneralBodiesFollowTheFormula) {
  std::mt19937_64 rng(3);
  const ScatterDims dims = {
      .inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1};
  Tensor input = RandomInts({6}, -50, 50, rng);
  Tensor indices = RandomInts({20, 1}, -1, 6, rng);
  Tensor updates = RandomInts({20}, -50, 50, rng);
  std::vector<Tensor> got =
      RunAll(ScatterCase({input}, indices, {updates}, dims, Combiner("subtract", {ET::kSI32})));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(Values<ET::kSI32>(got[0]),
            ReferenceScatter(input, indices, updates, dims, [](int32_t a, int32_t b) {
              return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
            }));

  BodyBuilder b({ET::kSI32, ET::kSI32});
  const ValueId square = b.Op("multiply", {1, 1}, ET::kSI32);
  Region sum_of_squares = b.Return({b.Op("add", {0, square}, ET::kSI32)});
  got = RunAll(ScatterCase({input}, indices, {updates}, dims, sum_of_squares));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(Values<ET::kSI32>(got[0]),
            ReferenceScatter(input, indices, updates, dims,
                             [](int32_t a, int32_t b) { return WrappingAdd(a, b * b); }));
}

// ------------------------------------- scatter: typed kernels vs evaluator

template <ElementType T>
void CheckKernelsMatchEvaluator(const std::vector<std::string>& kinds, std::mt19937_64& rng) {
  // 3000 updates into 40 elements (many repeats), and 40000 updates into
  // 50000 elements: enough for the threads to share out the results.
  const std::vector<std::pair<int64_t, int64_t>> sizes = {{40, 3000}, {50000, 40000}};
  for (const auto& [table, count] : sizes) {
    Tensor input = RandomElements<T>({table}, rng);
    Tensor updates = RandomElements<T>({count}, rng);
    Tensor indices(Shape{count, 1}, ET::kSI32);
    std::uniform_int_distribution<int32_t> index(-2, static_cast<int32_t>(table) + 1);
    for (int32_t& i : indices.values<ET::kSI32>()) i = index(rng);
    const ScatterDims dims = {
        .inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1};
    for (const std::string& kind : kinds) {
      const std::string what = std::string(Name(T)) + " " + kind + " into " + std::to_string(table);
      std::vector<Tensor> fast =
          RunAll(ScatterCase({input}, indices, {updates}, dims, Combiner(kind, {T})));
      std::vector<Tensor> general =
          RunAll(ScatterCase({input}, indices, {updates}, dims, Combiner(kind, {T}, true)));
      ASSERT_EQ(fast.size(), 1u) << what;
      ASSERT_EQ(general.size(), 1u) << what;
      ExpectSameTensors(fast[0], general[0], what);
    }
  }
}

// Both apply the updates of each element in row-major order, so they agree
// bit for bit, floats included.
TEST(CpuScatterTest, TypedKernelsMatchTheEvaluator) {
  std::mt19937_64 rng(5);
  const std::vector<std::string> all = {"add",     "multiply", "maximum",
                                        "minimum", "replace",  "first"};
  CheckKernelsMatchEvaluator<ET::kI1>(all, rng);
  CheckKernelsMatchEvaluator<ET::kSI4>(all, rng);
  CheckKernelsMatchEvaluator<ET::kSI32>(all, rng);
  CheckKernelsMatchEvaluator<ET::kUI8>(all, rng);
  CheckKernelsMatchEvaluator<ET::kUI64>(all, rng);
  CheckKernelsMatchEvaluator<ET::kF8E4M3FN>(all, rng);
  CheckKernelsMatchEvaluator<ET::kF8E5M2FNUZ>(all, rng);
  CheckKernelsMatchEvaluator<ET::kBF16>(all, rng);
  CheckKernelsMatchEvaluator<ET::kF16>(all, rng);
  CheckKernelsMatchEvaluator<ET::kF32>(all, rng);
  CheckKernelsMatchEvaluator<ET::kF64>(all, rng);
  CheckKernelsMatchEvaluator<ET::kComplexF32>(all, rng);
  CheckKernelsMatchEvaluator<ET::kComplexF64>(all, rng);
}

// Float add of one update per element: the sum rounded once to the type.
TEST(CpuScatterTest, NarrowFloatAddRoundsOnce) {
  // bf16: 1 + 2^-8 is halfway between 1 and 1 + 2^-7; to even gives 1.
  // 1 + 3 * 2^-9 (0x3F80 + 0x3BC0) rounds up to 1 + 2^-7.
  const uint16_t one = 0x3F80;
  Case c = ScatterCase(
      {Make<ET::kBF16>({2}, {one, one})}, Make<ET::kSI32>({2, 1}, {0, 1}),
      {Make<ET::kBF16>({2}, {0x3B80, 0x3BC0})},
      {.inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1},
      Combiner("add", {ET::kBF16}));
  std::vector<Tensor> got = RunAll(c);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(Values<ET::kBF16>(got[0]), (std::vector<uint16_t>{0x3F80, 0x3F81}));
}

// Two inputs of different types, combined by different kinds, and a body
// in a wider type than the inputs (is_promotable).
TEST(CpuScatterTest, VariadicAndPromotedBodies) {
  const ScatterDims dims = {
      .inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1};
  BodyBuilder b({ET::kSI32, ET::kF32, ET::kSI32, ET::kF32});
  Region mixed = b.Return({b.Op("maximum", {2, 0}, ET::kSI32), 3});
  Case c = ScatterCase({Make<ET::kSI32>({3}, {5, 5, 5}), Make<ET::kF32>({3}, {0.5f, 1.5f, 2.5f})},
                       Make<ET::kSI32>({3, 1}, {2, 0, 2}),
                       {Make<ET::kSI32>({3}, {9, 1, 7}), Make<ET::kF32>({3}, {-1.f, -2.f, -3.f})},
                       dims, mixed);
  std::vector<Tensor> got = RunAll(c);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(Values<ET::kSI32>(got[0]), (std::vector<int32_t>{5, 5, 9}));
  EXPECT_EQ(Values<ET::kF32>(got[1]), (std::vector<float>{-2.f, 1.5f, -3.f}));

  Case promoted = ScatterCase({Make<ET::kSI8>({2}, {100, -100})}, Make<ET::kSI32>({2, 1}, {0, 1}),
                              {Make<ET::kSI8>({2}, {100, -100})}, dims,
                              Combiner("add", {ET::kSI32}), false, false, {ET::kSI32});
  got = RunAll(promoted);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(Values<ET::kSI32>(got[0]), (std::vector<int32_t>{200, -200}));
}

// ------------------------------------------------- scatter: bad and unknown

TEST(CpuScatterTest, UnknownBodyOpsAreUnsupported) {
  const ScatterDims dims = {
      .inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1};
  Case c = ScatterCase({Make<ET::kSI32>({2}, {1, 2})}, Make<ET::kSI32>({1, 1}, {0}),
                       {Make<ET::kSI32>({1}, {3})}, dims, Combiner("no_such_op", {ET::kSI32}));
  AdapterSupport support = SharedAdapter().Supports(c);
  EXPECT_FALSE(support.supported);
  EXPECT_NE(support.reason.find("stablehlo.no_such_op"), std::string::npos) << support.reason;
  EXPECT_EQ(SharedAdapter().Run(c).status().code(), absl::StatusCode::kUnimplemented);
}

TEST(CpuScatterTest, MalformedCasesAreInvalid) {
  const ScatterDims dims = {
      .inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1};
  auto make = [&](Region body, ScatterDims d) {
    return ScatterCase({Make<ET::kSI32>({2}, {1, 2})}, Make<ET::kSI32>({1, 1}, {0}),
                       {Make<ET::kSI32>({1}, {3})}, d, std::move(body));
  };
  // A body of one argument too few, one returning an f32, an undefined value.
  BodyBuilder short_body({ET::kSI32});
  BodyBuilder wrong_type({ET::kSI32, ET::kSI32});
  Region f32_result = wrong_type.Return({wrong_type.Op("convert", {0}, ET::kF32)});
  Region undefined = Combiner("add", {ET::kSI32});
  undefined.blocks[0].operations[0].operands[1] = 42;
  ScatterDims bad_vector = dims;
  bad_vector.index_vector_dim = 3;
  ScatterDims bad_window = dims;
  bad_window.inserted_window_dims = {};
  for (const Case& c : {make(short_body.Return({0}), dims), make(f32_result, dims),
                        make(undefined, dims), make(Combiner("add", {ET::kSI32}), bad_vector),
                        make(Combiner("add", {ET::kSI32}), bad_window)}) {
    EXPECT_EQ(SharedAdapter().Run(c).status().code(), absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace hlocheck::cpu_test
