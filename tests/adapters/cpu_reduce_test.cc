// The CPU adapter's reduce and reduce_window: the spec's examples, a
// reference written here from the spec's definition (integer sums over
// every subset of the dimensions of random shapes: the rows, columns and
// general layouts of the kernels), the typed kernels against the general
// body evaluator, the body's wider type, malformed and unsupported cases,
// and windows of every attribute against the spec's pad-then-slice
// definition.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tests/adapters/cpu_region_test_util.h"

namespace hlocheck::cpu_test {
namespace {

using ::hlocheck::testing::ReduceCase;
using ::hlocheck::testing::ReduceWindowCase;
using ::hlocheck::testing::WindowAttributes;

TEST(CpuReduceTest, SpecExample) {
  Case c = ReduceCase({Make<ET::kSI64>({1, 6}, {0, 1, 2, 3, 4, 5})}, {Make<ET::kSI64>({}, {0})},
                      {1}, Combiner("add", {ET::kSI64}));
  std::vector<Tensor> results = RunAll(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<ET::kSI64>(results[0]), (std::vector<int64_t>{15}));
}

// results[j] = init + the sum of inputs over the slice of j, from the
// spec's definition: every input index maps to the result index without
// the reduced dimensions.
std::vector<int32_t> ReferenceSum(const Tensor& input, const std::vector<int64_t>& dimensions,
                                  int32_t init) {
  Shape kept;
  for (int64_t d = 0; d < input.rank(); ++d) {
    if (std::find(dimensions.begin(), dimensions.end(), d) == dimensions.end()) {
      kept.push_back(input.shape()[d]);
    }
  }
  std::vector<int32_t> out(static_cast<size_t>(NumElements(kept)), init);
  const std::vector<int64_t> strides = RowMajorStrides(kept);
  auto values = input.values<ET::kSI32>();
  for (IndexIterator it(input.shape()); !it.done(); it.Next()) {
    int64_t position = 0;
    for (int64_t d = 0, k = 0; d < input.rank(); ++d) {
      if (std::find(dimensions.begin(), dimensions.end(), d) != dimensions.end()) continue;
      position += it.index()[d] * strides[k++];
    }
    out[position] += values[it.linear()];
  }
  return out;
}

TEST(CpuReduceTest, EverySubsetOfDimensionsFollowsTheDefinition) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 40; ++trial) {
    const int rank = static_cast<int>(rng() % 5);
    Shape shape;
    for (int d = 0; d < rank; ++d) shape.push_back(static_cast<int64_t>(rng() % 5) + (d == 0));
    // Now and then a long innermost dimension, for the rows kernel's lanes.
    if (rank > 0 && trial % 4 == 0) shape.back() = 37;
    const Tensor input = RandomInts(shape, -1000, 1000, rng);
    for (uint32_t mask = 0; mask < (1u << rank); ++mask) {
      std::vector<int64_t> dimensions;
      for (int d = rank - 1; d >= 0; --d) {
        if (mask & (1u << d)) dimensions.push_back(d);
      }
      std::vector<Tensor> results = RunAll(ReduceCase({input}, {Make<ET::kSI32>({}, {5})},
                                                      dimensions, Combiner("add", {ET::kSI32})));
      ASSERT_EQ(results.size(), 1u);
      EXPECT_EQ(Values<ET::kSI32>(results[0]), ReferenceSum(input, dimensions, 5))
          << ShapeToString(shape) << " over mask " << mask;
    }
  }
}

// Exact combiners agree bit for bit between the typed kernels and the
// general evaluator (a body hidden behind select), in every layout.
template <ElementType T>
void CheckKernelsMatchEvaluator(const std::vector<std::string>& kinds, std::mt19937_64& rng) {
  const Tensor input = RandomElements<T>({6, 5, 40}, rng);
  const Tensor init = RandomElements<T>({}, rng);
  for (const std::vector<int64_t>& dimensions :
       std::vector<std::vector<int64_t>>{{2}, {0}, {1}, {0, 2}, {0, 1, 2}}) {
    for (const std::string& kind : kinds) {
      const std::string what = std::string(Name(T)) + " " + kind;
      std::vector<Tensor> fast =
          RunAll(ReduceCase({input}, {init}, dimensions, Combiner(kind, {T})));
      std::vector<Tensor> general =
          RunAll(ReduceCase({input}, {init}, dimensions, Combiner(kind, {T}, true)));
      ASSERT_EQ(fast.size(), 1u) << what;
      ASSERT_EQ(general.size(), 1u) << what;
      ExpectSameTensors(fast[0], general[0], what);
    }
  }
}

TEST(CpuReduceTest, TypedKernelsMatchTheEvaluator) {
  std::mt19937_64 rng(9);
  const std::vector<std::string> integer = {"add", "multiply", "maximum", "minimum",
                                            "and", "or",       "xor"};
  CheckKernelsMatchEvaluator<ET::kI1>(integer, rng);
  CheckKernelsMatchEvaluator<ET::kSI4>(integer, rng);
  CheckKernelsMatchEvaluator<ET::kSI32>(integer, rng);
  CheckKernelsMatchEvaluator<ET::kUI8>(integer, rng);
  CheckKernelsMatchEvaluator<ET::kUI64>(integer, rng);
  // Float maximum and minimum are exact in any order.
  CheckKernelsMatchEvaluator<ET::kF8E4M3FN>({"maximum", "minimum"}, rng);
  CheckKernelsMatchEvaluator<ET::kBF16>({"maximum", "minimum"}, rng);
  CheckKernelsMatchEvaluator<ET::kF32>({"maximum", "minimum"}, rng);
  CheckKernelsMatchEvaluator<ET::kF64>({"maximum", "minimum"}, rng);
}

// A float sum of a long row: eight interleaved lanes. Exact on integers
// held in f32, so the order does not show.
TEST(CpuReduceTest, FloatRowSumsAreExactOnSmallIntegers) {
  std::vector<float> values(1000);
  std::iota(values.begin(), values.end(), 0.0f);
  std::vector<Tensor> results =
      RunAll(ReduceCase({Make<ET::kF32>({2, 500}, values)}, {Make<ET::kF32>({}, {0.0f})}, {1},
                        Combiner("add", {ET::kF32})));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<ET::kF32>(results[0]), (std::vector<float>{124750.0f, 374750.0f}));
}

// si8 inputs summed by an si32 body do not wrap at 8 bits; variadic inputs
// reduce side by side.
TEST(CpuReduceTest, PromotedAndVariadicBodies) {
  Case c = ReduceCase({Make<ET::kSI8>({3}, {100, 100, 100}), Make<ET::kUI8>({3}, {1, 2, 3})},
                      {Make<ET::kSI8>({}, {0}), Make<ET::kUI8>({}, {255})}, {0},
                      Combiner("add", {ET::kSI32, ET::kUI8}), {ET::kSI32, ET::kUI8});
  // The second body is add over ui8: 255 + 1 + 2 + 3 wraps to 5.
  std::vector<Tensor> results = RunAll(c);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(Values<ET::kSI32>(results[0]), (std::vector<int32_t>{300}));
  EXPECT_EQ(Values<ET::kUI8>(results[1]), (std::vector<uint8_t>{5}));
}

TEST(CpuReduceTest, UnknownBodyOpsAreUnsupported) {
  Case c = ReduceCase({Make<ET::kSI32>({2}, {1, 2})}, {Make<ET::kSI32>({}, {0})}, {0},
                      Combiner("no_such_op", {ET::kSI32}));
  AdapterSupport support = SharedAdapter().Supports(c);
  EXPECT_FALSE(support.supported);
  EXPECT_NE(support.reason.find("no_such_op"), std::string::npos) << support.reason;
}

TEST(CpuReduceTest, MalformedCasesAreInvalid) {
  const Region add = Combiner("add", {ET::kSI32});
  Case repeated =
      ReduceCase({Make<ET::kSI32>({2, 2}, {1, 2, 3, 4})}, {Make<ET::kSI32>({}, {0})}, {1}, add);
  repeated.attributes["dimensions"] = std::vector<int64_t>{1, 1};
  Case beyond = repeated;
  beyond.attributes["dimensions"] = std::vector<int64_t>{2};
  Case wrong_result =
      ReduceCase({Make<ET::kSI32>({2, 2}, {1, 2, 3, 4})}, {Make<ET::kSI32>({}, {0})}, {1}, add);
  wrong_result.result_types[0].shape = {3};
  Case missing_init =
      ReduceCase({Make<ET::kSI32>({2, 2}, {1, 2, 3, 4})}, {Make<ET::kSI32>({}, {0})}, {1}, add);
  missing_init.operands.pop_back();
  missing_init.operand_segments = {1, 0};
  for (const Case& c : {repeated, beyond, wrong_result, missing_init}) {
    absl::StatusOr<std::vector<Tensor>> results = SharedAdapter().Run(c);
    ASSERT_FALSE(results.ok());
    EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument) << results.status();
  }
}

// ------------------------------------------------------- reduce_window

TEST(CpuReduceWindowTest, SpecExample) {
  Case c =
      ReduceWindowCase({Make<ET::kSI64>({3, 2}, {1, 2, 3, 4, 5, 6})}, {Make<ET::kSI64>({}, {0})},
                       {.window_dimensions = {2, 1},
                        .window_strides = {4, 1},
                        .base_dilations = {2, 1},
                        .window_dilations = {3, 1},
                        .padding = {{2, 1}, {0, 0}}},
                       {2, 2}, Combiner("add", {ET::kSI64}));
  std::vector<Tensor> results = RunAll(c);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<ET::kSI64>(results[0]), (std::vector<int64_t>{0, 0, 3, 4}));
}

// The spec's definition, step by step for si32 add: pad (low, high and
// interior) with the init value, then sum each strided, dilated window.
std::vector<int32_t> ReferenceWindowSum(const Tensor& input, int32_t init,
                                        const WindowAttributes& w, Shape* result_shape) {
  const auto rank = static_cast<size_t>(input.rank());
  Shape padded_shape;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t dilated =
        input.shape()[d] == 0 ? 0 : (input.shape()[d] - 1) * w.base_dilations[d] + 1;
    padded_shape.push_back(w.padding[d].first + dilated + w.padding[d].second);
  }
  // The padded input: every position that is an input element after
  // dilation and padding takes it, the rest the init value.
  std::vector<int32_t> padded(static_cast<size_t>(NumElements(padded_shape)), init);
  auto values = input.values<ET::kSI32>();
  const std::vector<int64_t> padded_strides = RowMajorStrides(padded_shape);
  for (IndexIterator it(input.shape()); !it.done(); it.Next()) {
    int64_t position = 0;
    bool inside = true;
    for (size_t d = 0; d < rank; ++d) {
      const int64_t p = w.padding[d].first + it.index()[d] * w.base_dilations[d];
      inside = inside && p >= 0 && p < padded_shape[d];
      position += p * padded_strides[d];
    }
    if (inside) padded[position] = values[it.linear()];
  }
  result_shape->clear();
  for (size_t d = 0; d < rank; ++d) {
    const int64_t window = (w.window_dimensions[d] - 1) * w.window_dilations[d] + 1;
    result_shape->push_back(
        padded_shape[d] < window ? 0 : (padded_shape[d] - window) / w.window_strides[d] + 1);
  }
  std::vector<int32_t> out;
  const Shape window_shape(w.window_dimensions.begin(), w.window_dimensions.end());
  for (IndexIterator r(*result_shape); !r.done(); r.Next()) {
    int32_t sum = init;
    for (IndexIterator k(window_shape); !k.done(); k.Next()) {
      int64_t position = 0;
      for (size_t d = 0; d < rank; ++d) {
        position += (r.index()[d] * w.window_strides[d] + k.index()[d] * w.window_dilations[d]) *
                    padded_strides[d];
      }
      sum += padded[position];
    }
    out.push_back(sum);
  }
  return out;
}

TEST(CpuReduceWindowTest, RandomWindowsFollowTheDefinition) {
  std::mt19937_64 rng(23);
  auto draw = [&](int64_t low, int64_t high) {
    return low + static_cast<int64_t>(rng() % static_cast<uint64_t>(high - low + 1));
  };
  for (int trial = 0; trial < 300; ++trial) {
    const int rank = static_cast<int>(draw(1, 3));
    Shape shape;
    WindowAttributes w;
    for (int d = 0; d < rank; ++d) {
      shape.push_back(draw(1, 6));
      w.window_dimensions.push_back(draw(1, 4));
      w.window_strides.push_back(draw(1, 3));
      w.base_dilations.push_back(draw(1, 3));
      w.window_dilations.push_back(draw(1, 3));
      // Negative padding no deeper than keeps the dimension non-empty.
      const int64_t dilated = (shape.back() - 1) * w.base_dilations.back() + 1;
      const int64_t low = std::max<int64_t>(draw(-3, 3), 1 - dilated);
      const int64_t high = std::max<int64_t>(draw(-3, 3), 1 - dilated - low);
      w.padding.push_back({low, high});
    }
    const Tensor input = RandomInts(shape, -100, 100, rng);
    Shape result_shape;
    const std::vector<int32_t> want = ReferenceWindowSum(input, 7, w, &result_shape);
    std::vector<Tensor> results = RunAll(ReduceWindowCase(
        {input}, {Make<ET::kSI32>({}, {7})}, w, result_shape, Combiner("add", {ET::kSI32})));
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(Values<ET::kSI32>(results[0]), want) << "trial " << trial;
    // The general evaluator walks the same windows.
    std::vector<Tensor> general = RunAll(ReduceWindowCase(
        {input}, {Make<ET::kSI32>({}, {7})}, w, result_shape, Combiner("add", {ET::kSI32}, true)));
    ASSERT_EQ(general.size(), 1u);
    EXPECT_EQ(Values<ET::kSI32>(general[0]), want) << "trial " << trial;
  }
}

TEST(CpuReduceWindowTest, ResultShapesThatDoNotFitTheWindowsAreInvalid) {
  Case c = ReduceWindowCase({Make<ET::kSI32>({4}, {1, 2, 3, 4})}, {Make<ET::kSI32>({}, {0})},
                            {.window_dimensions = {2}}, {2}, Combiner("add", {ET::kSI32}));
  absl::StatusOr<std::vector<Tensor>> results = SharedAdapter().Run(c);
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument) << results.status();
  EXPECT_NE(results.status().message().find("the windows give 3"), std::string::npos)
      << results.status();
}

}  // namespace
}  // namespace hlocheck::cpu_test
