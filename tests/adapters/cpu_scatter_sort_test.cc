// The CPU adapter's scatter and sort: the spec's examples, hand-checked
// corner cases (batching dimensions, an implicit index vector, windows
// partly out of bounds, NaN keys, ties), references written here from the
// spec's formulas, and the typed kernels of the recognised bodies against
// the general body evaluator on bodies that compute the same thing in a form
// it does not recognise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "adapters/cpu/cpu_adapter.h"
#include "core/element_value.h"
#include "core/program.h"
#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

// ------------------------------------------------------------ region bodies

ValueType Scalar(ElementType type) { return ValueType::Of(TensorType{{}, type}); }

// Builds one block: arguments get ids 0..n-1, each op's result the next id.
class BodyBuilder {
 public:
  explicit BodyBuilder(const std::vector<ElementType>& arguments) {
    for (ElementType type : arguments) {
      block_.arguments.push_back(next_++);
      block_.argument_types.push_back(Scalar(type));
      types_.push_back(type);
    }
  }
  ValueId Op(const std::string& name, std::vector<ValueId> operands, ElementType result,
             std::map<std::string, Attribute> attributes = {}) {
    Operation op;
    op.name = "stablehlo." + name;
    for (ValueId v : operands) op.operand_types.push_back(Scalar(types_[v]));
    op.operands = std::move(operands);
    op.results = {next_++};
    op.result_types = {Scalar(result)};
    op.attributes = std::move(attributes);
    types_.push_back(result);
    block_.operations.push_back(std::move(op));
    return next_ - 1;
  }
  ValueId Compare(ValueId lhs, ValueId rhs, const std::string& direction,
                  const std::string& compare_type) {
    return Op("compare", {lhs, rhs}, ET::kI1,
              {{"comparison_direction", EnumValue{direction}},
               {"compare_type", EnumValue{compare_type}}});
  }
  ValueId True() {
    Tensor one(Shape{}, ET::kI1);
    one.values<ET::kI1>()[0] = 1;
    return Op("constant", {}, ET::kI1, {{"value", one}});
  }
  Region Return(const std::vector<ValueId>& values) {
    Operation op;
    op.name = "stablehlo.return";
    op.operands = values;
    for (ValueId v : values) op.operand_types.push_back(Scalar(types_[v]));
    block_.operations.push_back(std::move(op));
    Region region;
    region.blocks.push_back(block_);
    return region;
  }
  ElementType type(ValueId v) const { return types_[v]; }

 private:
  Block block_;
  std::vector<ElementType> types_;
  ValueId next_ = 0;
};

// update_computation of `types`: `kind` ("add", "multiply", "maximum",
// "minimum", "replace", "first" or any binary op) of current and update for
// each result. `hidden` passes each result through select(true, r, r), which
// the adapter does not recognise: its general evaluator then runs the body.
Region Combiner(const std::string& kind, const std::vector<ElementType>& types,
                bool hidden = false) {
  std::vector<ElementType> arguments = types;
  arguments.insert(arguments.end(), types.begin(), types.end());
  BodyBuilder b(arguments);
  const auto n = static_cast<ValueId>(types.size());
  std::vector<ValueId> out;
  for (ValueId i = 0; i < n; ++i) {
    ValueId r = kind == "replace" ? n + i : kind == "first" ? i : b.Op(kind, {i, n + i}, types[i]);
    if (hidden) {
      const ValueId yes = b.True();
      r = b.Op("select", {yes, r, r}, types[i]);
    }
    out.push_back(r);
  }
  return b.Return(out);
}

std::string CompareTypeOf(ElementType type, bool total) {
  if (IsFloat(type)) return total ? "TOTALORDER" : "FLOAT";
  return IsSignedInt(type) ? "SIGNED" : "UNSIGNED";
}

// comparator of inputs of `types`: compare `direction` of the first pair,
// optionally hidden behind select(true, p, p).
Region Comparator(const std::string& direction, const std::vector<ElementType>& types,
                  bool total = false, bool hidden = false) {
  std::vector<ElementType> arguments;
  for (ElementType t : types) arguments.insert(arguments.end(), {t, t});
  BodyBuilder b(arguments);
  ValueId p = b.Compare(0, 1, direction, CompareTypeOf(types[0], total));
  if (hidden) {
    const ValueId yes = b.True();
    p = b.Op("select", {yes, p, p}, ET::kI1);
  }
  return b.Return({p});
}

// ------------------------------------------------------------------- cases

struct Dims {
  std::vector<int64_t> update_window_dims{}, inserted_window_dims{}, input_batching_dims{},
      scatter_indices_batching_dims{}, scatter_dims_to_operand_dims{};
  int64_t index_vector_dim = 0;
};

Case ScatterCase(std::vector<Tensor> inputs, Tensor indices, std::vector<Tensor> updates,
                 const Dims& dims, Region body, std::vector<ElementType> result_types = {}) {
  Case c;
  c.op = "scatter";
  for (size_t i = 0; i < inputs.size(); ++i) {
    c.result_types.push_back(
        {inputs[i].shape(), result_types.empty() ? inputs[i].element_type() : result_types[i]});
  }
  const auto n = static_cast<int64_t>(inputs.size());
  c.operand_segments = {n, 1, n};
  c.operands = std::move(inputs);
  c.operands.push_back(std::move(indices));
  for (Tensor& u : updates) c.operands.push_back(std::move(u));
  c.attributes["update_window_dims"] = dims.update_window_dims;
  c.attributes["inserted_window_dims"] = dims.inserted_window_dims;
  c.attributes["input_batching_dims"] = dims.input_batching_dims;
  c.attributes["scatter_indices_batching_dims"] = dims.scatter_indices_batching_dims;
  c.attributes["scatter_dims_to_operand_dims"] = dims.scatter_dims_to_operand_dims;
  c.attributes["index_vector_dim"] = dims.index_vector_dim;
  c.attributes["indices_are_sorted"] = false;
  c.attributes["unique_indices"] = false;
  c.regions.push_back(std::move(body));
  return c;
}

Case SortCase(std::vector<Tensor> inputs, int64_t dimension, bool is_stable, Region comparator) {
  Case c;
  c.op = "sort";
  for (const Tensor& t : inputs) c.result_types.push_back(t.type());
  c.operand_segments = {static_cast<int64_t>(inputs.size())};
  c.operands = std::move(inputs);
  c.attributes["dimension"] = dimension;
  c.attributes["is_stable"] = is_stable;
  c.regions.push_back(std::move(comparator));
  return c;
}

std::vector<Tensor> RunAll(const Case& c) {
  AdapterSupport support = SharedAdapter().Supports(c);
  EXPECT_TRUE(support.supported) << support.reason;
  absl::StatusOr<std::vector<Tensor>> results = SharedAdapter().Run(c);
  EXPECT_TRUE(results.ok()) << results.status();
  if (!results.ok()) return {};
  EXPECT_EQ(results->size(), c.result_types.size());
  for (size_t i = 0; i < results->size() && i < c.result_types.size(); ++i) {
    EXPECT_EQ((*results)[i].type(), c.result_types[i]);
  }
  return *std::move(results);
}

// The same bytes, where any NaN matches any NaN of a float or complex type.
void ExpectSameTensors(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.type(), want.type()) << what;
  const ElementType type = got.element_type();
  if (!IsFloat(type) && !IsComplex(type)) {
    EXPECT_TRUE(got == want) << what;
    return;
  }
  const FloatFormat& format = Format(ComponentType(type));
  const int parts = IsComplex(type) ? 2 : 1;
  const int bytes = ContainerBytes(type) / parts;
  int failures = 0;
  for (int64_t i = 0; i < got.num_elements() * parts && failures < 5; ++i) {
    uint64_t g = 0;
    uint64_t w = 0;
    std::memcpy(&g, got.bytes().data() + i * bytes, bytes);
    std::memcpy(&w, want.bytes().data() + i * bytes, bytes);
    if (g != w && !(IsNaNBits(format, g) && IsNaNBits(format, w))) {
      ++failures;
      ADD_FAILURE() << what << ": element part " << i << " is 0x" << std::hex << g << ", not 0x"
                    << w;
    }
  }
}

// Random valid elements of T: integers wrapped to their width, booleans 0
// or 1, narrow floats' bit patterns within their width, any bits otherwise.
template <ElementType T>
Tensor RandomElements(Shape shape, std::mt19937_64& rng) {
  Tensor t = RandomBytes(std::move(shape), T, rng);
  for (ContainerT<T>& x : t.values<T>()) {
    if constexpr (IsBool(T)) {
      x = x & 1;
    } else if constexpr (IsInteger(T)) {
      x = WrapInteger<T>(static_cast<uint64_t>(x));
    } else if constexpr (kIsBitPatternFloat<T>) {
      x = static_cast<ContainerT<T>>(x & ((uint64_t{1} << BitWidth(T)) - 1));
    }
  }
  return t;
}

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
                                      const Tensor& updates, const Dims& d, Combine combine) {
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

Tensor RandomInts(Shape shape, int32_t low, int32_t high, std::mt19937_64& rng) {
  Tensor t(std::move(shape), ET::kSI32);
  std::uniform_int_distribution<int32_t> value(low, high);
  for (int32_t& x : t.values<ET::kSI32>()) x = value(rng);
  return t;
}

int32_t WrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// The public spec's batching example (input_batching_dims = [0] paired
// with scatter_indices dimension 1), with indices inside, at and beyond the
// bounds so that parts of windows fall out.
TEST(CpuScatterTest, BatchingDimensionsFollowTheFormula) {
  std::mt19937_64 rng(7);
  const Dims dims = {.update_window_dims = {3, 4},
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

// Random dimension numbers (batching dimensions on either side of
// index_vector_dim, windows partly out of bounds), against the formula.
TEST(CpuScatterTest, RandomDimensionNumbersFollowTheFormula) {
  std::mt19937_64 rng(11);
  const std::vector<std::pair<Shape, Shape>> shapes = {{{4, 3}, {3, 1}}, {{3, 4, 2}, {2, 3, 2}}};
  const std::vector<Dims> all = {
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
  const Dims dims = {
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
    const Dims dims = {
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
  const Dims dims = {
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
                              Combiner("add", {ET::kSI32}), {ET::kSI32});
  got = RunAll(promoted);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(Values<ET::kSI32>(got[0]), (std::vector<int32_t>{200, -200}));
}

// ------------------------------------------------- scatter: bad and unknown

TEST(CpuScatterTest, UnknownBodyOpsAreUnsupported) {
  const Dims dims = {
      .inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1};
  Case c = ScatterCase({Make<ET::kSI32>({2}, {1, 2})}, Make<ET::kSI32>({1, 1}, {0}),
                       {Make<ET::kSI32>({1}, {3})}, dims, Combiner("no_such_op", {ET::kSI32}));
  AdapterSupport support = SharedAdapter().Supports(c);
  EXPECT_FALSE(support.supported);
  EXPECT_NE(support.reason.find("stablehlo.no_such_op"), std::string::npos) << support.reason;
  EXPECT_EQ(SharedAdapter().Run(c).status().code(), absl::StatusCode::kUnimplemented);
}

TEST(CpuScatterTest, MalformedCasesAreInvalid) {
  const Dims dims = {
      .inserted_window_dims = {0}, .scatter_dims_to_operand_dims = {0}, .index_vector_dim = 1};
  auto make = [&](Region body, Dims d) {
    return ScatterCase({Make<ET::kSI32>({2}, {1, 2})}, Make<ET::kSI32>({1, 1}, {0}),
                       {Make<ET::kSI32>({1}, {3})}, d, std::move(body));
  };
  // A body of one argument too few, one returning an f32, an undefined value.
  BodyBuilder short_body({ET::kSI32});
  BodyBuilder wrong_type({ET::kSI32, ET::kSI32});
  Region f32_result = wrong_type.Return({wrong_type.Op("convert", {0}, ET::kF32)});
  Region undefined = Combiner("add", {ET::kSI32});
  undefined.blocks[0].operations[0].operands[1] = 42;
  Dims bad_vector = dims;
  bad_vector.index_vector_dim = 3;
  Dims bad_window = dims;
  bad_window.inserted_window_dims = {};
  for (const Case& c : {make(short_body.Return({0}), dims), make(f32_result, dims),
                        make(undefined, dims), make(Combiner("add", {ET::kSI32}), bad_vector),
                        make(Combiner("add", {ET::kSI32}), bad_window)}) {
    EXPECT_EQ(SharedAdapter().Run(c).status().code(), absl::StatusCode::kInvalidArgument);
  }
}

// ----------------------------------------------------------------- sort

// The spec's example: two inputs sorted along dimension 0 by GT of the first.
TEST(CpuSortTest, SpecExample) {
  BodyBuilder b({ET::kSI64, ET::kSI64, ET::kSI64, ET::kSI64});
  Region gt = b.Return({b.Compare(0, 1, "GT", "SIGNED")});
  Case c = SortCase(
      {Make<ET::kSI64>({2, 3}, {1, 2, 3, 3, 2, 1}), Make<ET::kSI64>({2, 3}, {3, 2, 1, 1, 2, 3})}, 0,
      true, gt);
  std::vector<Tensor> got = RunAll(c);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(Values<ET::kSI64>(got[0]), (std::vector<int64_t>{3, 2, 3, 1, 2, 1}));
  EXPECT_EQ(Values<ET::kSI64>(got[1]), (std::vector<int64_t>{1, 2, 1, 3, 2, 3}));
}

// Keys with many ties and an iota payload, along each dimension of a 3-D
// tensor (counted from either end): the stable order, whatever is_stable
// says, ascending and descending.
TEST(CpuSortTest, StableTiesAlongEveryDimension) {
  std::mt19937_64 rng(9);
  const Shape shape = {3, 5, 4};
  Tensor keys = RandomInts(shape, 0, 2, rng);
  Tensor payload(shape, ET::kSI32);
  std::iota(payload.values<ET::kSI32>().begin(), payload.values<ET::kSI32>().end(), 0);
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  for (int64_t dimension = -3; dimension < 3; ++dimension) {
    const int64_t axis = dimension < 0 ? dimension + 3 : dimension;
    for (const std::string direction : {"LT", "GT"}) {
      std::vector<Tensor> got = RunAll(SortCase({keys, payload}, dimension, dimension % 2 == 0,
                                                Comparator(direction, {ET::kSI32, ET::kSI32})));
      ASSERT_EQ(got.size(), 2u);
      std::vector<int32_t> want_keys = Values<ET::kSI32>(keys);
      std::vector<int32_t> want_payload = Values<ET::kSI32>(payload);
      Shape starts = shape;
      starts[axis] = 1;
      for (IndexIterator it(starts); !it.done(); it.Next()) {
        int64_t base = 0;
        for (int d = 0; d < 3; ++d) base += it.index()[d] * strides[d];
        std::vector<std::pair<int32_t, int32_t>> row;
        for (int64_t k = 0; k < shape[axis]; ++k) {
          const int64_t at = base + k * strides[axis];
          row.push_back({want_keys[at], want_payload[at]});
        }
        std::stable_sort(row.begin(), row.end(), [&](const auto& a, const auto& b) {
          return direction == "LT" ? a.first < b.first : a.first > b.first;
        });
        for (int64_t k = 0; k < shape[axis]; ++k) {
          want_keys[base + k * strides[axis]] = row[k].first;
          want_payload[base + k * strides[axis]] = row[k].second;
        }
      }
      EXPECT_EQ(Values<ET::kSI32>(got[0]), want_keys) << dimension << " " << direction;
      EXPECT_EQ(Values<ET::kSI32>(got[1]), want_payload) << dimension << " " << direction;
    }
  }
}

// totalOrder: -NaN < -Inf < -1 < -0 < +0 < 1 < Inf < NaN, and a stable sort
// keeps the payload of equal keys in order.
TEST(CpuSortTest, TotalOrderPlacesNaNAndZeros) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  Tensor keys = Make<ET::kF32>({8}, {1.f, nan, -0.f, -inf, 0.f, -nan, -1.f, inf});
  Tensor payload = Make<ET::kSI32>({8}, {0, 1, 2, 3, 4, 5, 6, 7});
  std::vector<Tensor> got =
      RunAll(SortCase({keys, payload}, 0, true, Comparator("LT", {ET::kF32, ET::kSI32}, true)));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(Values<ET::kSI32>(got[1]), (std::vector<int32_t>{5, 3, 6, 2, 4, 0, 7, 1}));
}

// FLOAT comparisons: -0 and +0 are equal (stable ties); with a NaN the
// comparator is no strict weak order and the result is some permutation.
TEST(CpuSortTest, FloatComparisonZerosTieAndNaNsPermute) {
  Tensor keys = Make<ET::kF32>({5}, {0.f, 2.f, -0.f, 1.f, 0.f});
  Tensor payload = Make<ET::kSI32>({5}, {0, 1, 2, 3, 4});
  std::vector<Tensor> got =
      RunAll(SortCase({keys, payload}, 0, true, Comparator("LT", {ET::kF32, ET::kSI32})));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(Values<ET::kSI32>(got[1]), (std::vector<int32_t>{0, 2, 4, 3, 1}));

  std::mt19937_64 rng(1);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> values(300);
  for (float& v : values) v = (rng() % 4 == 0) ? nan : static_cast<float>(rng() % 50);
  std::vector<int32_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  for (bool hidden : {false, true}) {
    got = RunAll(SortCase({Make<ET::kF32>({300}, values), Make<ET::kSI32>({300}, order)}, 0, false,
                          Comparator("GT", {ET::kF32, ET::kSI32}, false, hidden)));
    ASSERT_EQ(got.size(), 2u);
    std::vector<int32_t> permutation = Values<ET::kSI32>(got[1]);
    std::vector<float> sorted_keys = Values<ET::kF32>(got[0]);
    for (size_t k = 0; k < permutation.size(); ++k) {
      ASSERT_TRUE(permutation[k] >= 0 && permutation[k] < 300);
      const float want = values[permutation[k]];
      EXPECT_TRUE(std::isnan(want) ? std::isnan(sorted_keys[k]) : sorted_keys[k] == want);
    }
    std::sort(permutation.begin(), permutation.end());
    EXPECT_EQ(permutation, order) << "not a permutation";
  }
}

// A comparator that is no order at all (NE) still gives a permutation.
TEST(CpuSortTest, NoOrderStillPermutes) {
  std::mt19937_64 rng(2);
  Tensor keys = RandomInts({257}, 0, 5, rng);
  std::vector<int32_t> order(257);
  std::iota(order.begin(), order.end(), 0);
  std::vector<Tensor> got = RunAll(SortCase({keys, Make<ET::kSI32>({257}, order)}, 0, false,
                                            Comparator("NE", {ET::kSI32, ET::kSI32})));
  ASSERT_EQ(got.size(), 2u);
  std::vector<int32_t> permutation = Values<ET::kSI32>(got[1]);
  std::sort(permutation.begin(), permutation.end());
  EXPECT_EQ(permutation, order);
}

template <ElementType T>
void CheckKeySortMatchesEvaluator(std::mt19937_64& rng) {
  const Shape shape = {7, 300};
  Tensor keys = RandomElements<T>(shape, rng);
  Tensor payload = RandomElements<ET::kF16>(shape, rng);
  const std::vector<bool> orders =
      IsFloat(T) ? std::vector<bool>{false, true} : std::vector<bool>{false};
  for (bool total : orders) {
    for (const std::string direction : {"LT", "GT"}) {
      for (int64_t dimension : {0, 1}) {
        const std::string what = std::string(Name(T)) + " " + direction + (total ? " total" : "") +
                                 " along " + std::to_string(dimension);
        std::vector<Tensor> fast = RunAll(SortCase({keys, payload}, dimension, false,
                                                   Comparator(direction, {T, ET::kF16}, total)));
        std::vector<Tensor> general = RunAll(SortCase(
            {keys, payload}, dimension, false, Comparator(direction, {T, ET::kF16}, total, true)));
        ASSERT_EQ(fast.size(), 2u) << what;
        ASSERT_EQ(general.size(), 2u) << what;
        EXPECT_TRUE(fast[0] == general[0]) << what;
        EXPECT_TRUE(fast[1] == general[1]) << what;
      }
    }
  }
}

// The key sort and the evaluator both sort stably, and on NaN keys both
// run the same merge sort on the same answers: they agree byte for byte.
TEST(CpuSortTest, KeySortMatchesTheEvaluator) {
  std::mt19937_64 rng(4);
  CheckKeySortMatchesEvaluator<ET::kI1>(rng);
  CheckKeySortMatchesEvaluator<ET::kSI2>(rng);
  CheckKeySortMatchesEvaluator<ET::kSI16>(rng);
  CheckKeySortMatchesEvaluator<ET::kSI64>(rng);
  CheckKeySortMatchesEvaluator<ET::kUI4>(rng);
  CheckKeySortMatchesEvaluator<ET::kUI32>(rng);
  CheckKeySortMatchesEvaluator<ET::kF4E2M1FN>(rng);
  CheckKeySortMatchesEvaluator<ET::kF8E4M3FNUZ>(rng);
  CheckKeySortMatchesEvaluator<ET::kF8E8M0FNU>(rng);
  CheckKeySortMatchesEvaluator<ET::kBF16>(rng);
  CheckKeySortMatchesEvaluator<ET::kF16>(rng);
  CheckKeySortMatchesEvaluator<ET::kF32>(rng);
  CheckKeySortMatchesEvaluator<ET::kF64>(rng);
}

// Complex keys have no compare LT fast path; a constant comparator (every
// pair equal) keeps the input order.
TEST(CpuSortTest, ConstantComparatorKeepsTheOrder) {
  BodyBuilder b({ET::kComplexF32, ET::kComplexF32});
  Tensor no(Shape{}, ET::kI1);
  Region never = b.Return({b.Op("constant", {}, ET::kI1, {{"value", no}})});
  Tensor keys = Make<ET::kComplexF32>({3}, {{3, 1}, {1, 2}, {2, 0}});
  std::vector<Tensor> got = RunAll(SortCase({keys}, 0, true, never));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0] == keys);
}

TEST(CpuSortTest, BadComparatorsAreInvalidOrUnsupported) {
  Tensor keys = Make<ET::kSI32>({3}, {3, 1, 2});
  // Returns an si32, not an i1.
  BodyBuilder b({ET::kSI32, ET::kSI32});
  Region not_bool = b.Return({b.Op("add", {0, 1}, ET::kSI32)});
  EXPECT_EQ(SharedAdapter().Run(SortCase({keys}, 0, true, not_bool)).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Takes the arguments of two inputs but sorts one.
  EXPECT_EQ(SharedAdapter()
                .Run(SortCase({keys}, 0, true, Comparator("LT", {ET::kSI32, ET::kSI32})))
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      SharedAdapter().Run(SortCase({keys}, 1, true, Comparator("LT", {ET::kSI32}))).status().code(),
      absl::StatusCode::kInvalidArgument);
  BodyBuilder unknown({ET::kSI32, ET::kSI32});
  Region odd = unknown.Return({unknown.Op("no_such_compare", {0, 1}, ET::kI1)});
  Case c = SortCase({keys}, 0, true, odd);
  EXPECT_FALSE(SharedAdapter().Supports(c).supported);
  EXPECT_EQ(SharedAdapter().Run(c).status().code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace hlocheck::cpu_test
