// reduce on the oracle: the spec's example, and what every reduction tree
// allows. Integer and boolean monoids are exact; float sums and products
// are bounded so that every order passes (sequential either way, pairwise,
// eight interleaved lanes) and a wrong answer fails (one term lost, the sum
// accumulated in bf16 instead of f32); an init value that is not the body's
// identity, or a body the oracle does not recognise, leaves the element to
// the implementation with the interpreter's schedule as the convention.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

#include "core/element_value.h"
#include "core/exact_value.h"
#include "oracle/accumulation.h"
#include "oracle/compare.h"
#include "oracle/step_errors.h"
#include "tests/oracle/data_movement_test_util.h"
#include "tests/support/case_builders.h"

namespace hlocheck {
namespace {

using testing::Literal;
using testing::ReduceCase;
using testing::ReduceWindowCase;
using testing::SelectAndScatterCase;
using testing::TheOracle;
using ET = ElementType;

// A body of `kind` (a binary stablehlo op) over (arg i, arg N + i) for each
// of `types`; `hidden` wraps each output in select(true, r, r), which the
// oracle does not recognise.
Region Body(const std::string& kind, const std::vector<ElementType>& types, bool hidden = false) {
  Region region;
  Block block;
  const auto n = static_cast<ValueId>(types.size());
  ValueId next = 0;
  auto scalar = [](ElementType t) { return ValueType::Of(TensorType{{}, t}); };
  for (int pass = 0; pass < 2; ++pass) {
    for (ElementType t : types) {
      block.arguments.push_back(next++);
      block.argument_types.push_back(scalar(t));
    }
  }
  auto emit = [&](std::string name, std::vector<ValueId> operands, ElementType result,
                  std::map<std::string, Attribute> attributes = {}) {
    Operation op;
    op.name = "stablehlo." + std::move(name);
    for (ValueId v : operands) {
      op.operand_types.push_back(scalar(v < 2 * n ? types[v % n] : result));
    }
    op.operands = std::move(operands);
    op.results = {next++};
    op.result_types = {scalar(result)};
    op.attributes = std::move(attributes);
    block.operations.push_back(std::move(op));
    return next - 1;
  };
  Operation ret;
  ret.name = "stablehlo.return";
  for (ValueId i = 0; i < n; ++i) {
    ValueId r = emit(kind, {i, n + i}, types[i]);
    if (hidden) {
      Tensor yes(Shape{}, ET::kI1);
      yes.values<ET::kI1>()[0] = 1;
      const ValueId condition = emit("constant", {}, ET::kI1, {{"value", yes}});
      Operation select;
      select.name = "stablehlo.select";
      select.operands = {condition, r, r};
      select.operand_types = {scalar(ET::kI1), scalar(types[i]), scalar(types[i])};
      select.results = {next++};
      select.result_types = {scalar(types[i])};
      block.operations.push_back(std::move(select));
      r = next - 1;
    }
    ret.operands.push_back(r);
    ret.operand_types.push_back(scalar(types[i]));
  }
  block.operations.push_back(std::move(ret));
  region.blocks.push_back(std::move(block));
  return region;
}

std::vector<ResultExpectation> RunOk(const Case& c) {
  auto results = TheOracle().Run(c);
  EXPECT_TRUE(results.ok()) << results.status();
  return results.ok() ? *results : std::vector<ResultExpectation>{};
}

bool Passes(const std::vector<ResultExpectation>& e, const std::vector<Tensor>& actual) {
  std::vector<ResultComparison> comparisons = CompareResults(e, actual);
  if (comparisons.size() != e.size()) return false;
  for (const ResultComparison& c : comparisons) {
    if (!c.ok()) return false;
  }
  return true;
}

template <ElementType T>
Tensor Make(Shape shape, std::vector<ContainerT<T>> values) {
  Tensor t(std::move(shape), T);
  std::copy(values.begin(), values.end(), t.values<T>().begin());
  return t;
}

Tensor F32(Shape shape, const std::vector<float>& values) {
  return Make<ET::kF32>(std::move(shape), values);
}

// ------------------------------------------------------------- the spec

TEST(ReduceOracleTest, SpecExample) {
  Case c = ReduceCase({Literal("dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>")},
                      {Literal("dense<0> : tensor<i64>")}, {1}, Body("add", {ET::kSI64}));
  std::vector<ResultExpectation> e = RunOk(c);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].check, Check::kExact);
  EXPECT_TRUE(e[0].free.empty());
  EXPECT_EQ(e[0].reference.values<ET::kSI64>()[0], 15);
}

// Every subset of the dimensions, listed in any order: the slice is taken
// in ascending index order, the result keeps the other dimensions in order.
TEST(ReduceOracleTest, DimensionsInAnyOrderReduceTheSameSlices) {
  std::vector<int32_t> values(24);
  std::iota(values.begin(), values.end(), 0);
  const Tensor input = Make<ET::kSI32>({2, 3, 4}, values);
  auto sum = [&](std::vector<int64_t> dims) {
    std::vector<ResultExpectation> e = RunOk(
        ReduceCase({input}, {Make<ET::kSI32>({}, {0})}, std::move(dims), Body("add", {ET::kSI32})));
    auto v = e.at(0).reference.values<ET::kSI32>();
    return std::vector<int32_t>(v.begin(), v.end());
  };
  EXPECT_EQ(sum({2, 0}), sum({0, 2}));
  // Over dimensions 0 and 2: for j, sum over i, k of 12 i + 4 j + k.
  EXPECT_EQ(sum({0, 2}), (std::vector<int32_t>{60, 92, 124}));
  EXPECT_EQ(sum({0, 1, 2}), (std::vector<int32_t>{276}));
  EXPECT_EQ(sum({}), values);
}

// ----------------------------------------------------- exact monoids

TEST(ReduceOracleTest, IntegerMonoidsWithTheirIdentityAreExact) {
  const Tensor input = Make<ET::kSI8>({2, 3}, {100, 100, 100, -1, 7, 3});
  struct Kind {
    std::string body;
    int8_t identity;
    std::vector<int8_t> want;
  };
  // Add wraps modulo 2^8: 300 is 44.
  for (const Kind& k :
       {Kind{"add", 0, {44, 9}}, Kind{"multiply", 1, {64, -21}}, Kind{"maximum", -128, {100, 7}},
        Kind{"minimum", 127, {100, -1}}, Kind{"and", -1, {100, 3}}, Kind{"or", 0, {100, -1}},
        Kind{"xor", 0, {100, -5}}}) {
    std::vector<ResultExpectation> e = RunOk(
        ReduceCase({input}, {Make<ET::kSI8>({}, {k.identity})}, {1}, Body(k.body, {ET::kSI8})));
    ASSERT_EQ(e.size(), 1u) << k.body;
    EXPECT_EQ(e[0].check, Check::kExact) << k.body;
    EXPECT_TRUE(e[0].free.empty()) << k.body;
    auto v = e[0].reference.values<ET::kSI8>();
    EXPECT_EQ(std::vector<int8_t>(v.begin(), v.end()), k.want) << k.body;
  }
}

// The number of init values in the tree is the implementation's: an init
// value that is not the identity leaves the element open, with the
// interpreter's answer (the init value once) as the convention.
TEST(ReduceOracleTest, AnInitValueOtherThanTheIdentityIsLeftToTheImplementation) {
  const Tensor input = Make<ET::kSI32>({2, 2}, {1, 2, 3, 4});
  std::vector<ResultExpectation> e =
      RunOk(ReduceCase({input}, {Make<ET::kSI32>({}, {10})}, {1}, Body("add", {ET::kSI32})));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].free, (std::vector<uint8_t>{kFreeWithConvention, kFreeWithConvention}));
  auto v = e[0].reference.values<ET::kSI32>();
  EXPECT_EQ(std::vector<int32_t>(v.begin(), v.end()), (std::vector<int32_t>{13, 17}));
  // Two init values (XLA's vectorised reductions start each lane with one):
  // allowed.
  EXPECT_TRUE(Passes(e, {Make<ET::kSI32>({2}, {23, 27})}));
}

TEST(ReduceOracleTest, AnEmptySliceIsTheInitValue) {
  const Tensor input(Shape{3, 0}, ET::kF32);
  std::vector<ResultExpectation> e =
      RunOk(ReduceCase({input}, {F32({}, {-INFINITY})}, {1}, Body("maximum", {ET::kF32})));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(e[0].free.empty());
  EXPECT_TRUE(Passes(e, {F32({3}, {-INFINITY, -INFINITY, -INFINITY})}));
  EXPECT_FALSE(Passes(e, {F32({3}, {-INFINITY, 0.0f, -INFINITY})}));
}

TEST(ReduceOracleTest, FloatMaximumPropagatesNaNAndOrdersSignedZeros) {
  const Tensor input = F32({2, 3}, {-0.0f, 0.0f, -0.0f, 1.0f, NAN, 2.0f});
  std::vector<ResultExpectation> e =
      RunOk(ReduceCase({input}, {F32({}, {-INFINITY})}, {1}, Body("maximum", {ET::kF32})));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].check, Check::kExact);
  EXPECT_TRUE(Passes(e, {F32({2}, {0.0f, NAN})}));
  EXPECT_FALSE(Passes(e, {F32({2}, {-0.0f, NAN})}));
  EXPECT_FALSE(Passes(e, {F32({2}, {0.0f, 2.0f})}));
}

// The body computes in its own, wider type: si8 values summed in si32 do
// not wrap at 8 bits.
TEST(ReduceOracleTest, APromotedBodyComputesInItsType) {
  const Tensor input = Make<ET::kSI8>({3}, {100, 100, 100});
  std::vector<ResultExpectation> e = RunOk(
      ReduceCase({input}, {Make<ET::kSI8>({}, {0})}, {0}, Body("add", {ET::kSI32}), {ET::kSI32}));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].reference.element_type(), ET::kSI32);
  EXPECT_EQ(e[0].reference.values<ET::kSI32>()[0], 300);
}

// A body the oracle cannot prove order-independent (here an add hidden
// behind a select) is free, its convention the interpreter's schedule.
TEST(ReduceOracleTest, AnUnrecognisedBodyIsLeftToTheImplementation) {
  const Tensor input = Make<ET::kSI32>({4}, {1, 2, 3, 4});
  std::vector<ResultExpectation> e =
      RunOk(ReduceCase({input}, {Make<ET::kSI32>({}, {0})}, {0}, Body("add", {ET::kSI32}, true)));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].free, (std::vector<uint8_t>{kFreeWithConvention}));
  EXPECT_EQ(e[0].reference.values<ET::kSI32>()[0], 10);
}

// Several inputs reduce side by side, each with its own combiner's rules.
TEST(ReduceOracleTest, VariadicInputsReduceSideBySide) {
  const Tensor values = F32({2, 2}, {1.5f, -2.0f, 4.0f, 8.0f});
  const Tensor counts = Make<ET::kSI32>({2, 2}, {1, 1, 1, 1});
  std::vector<ResultExpectation> e =
      RunOk(ReduceCase({values, counts}, {F32({}, {0.0f}), Make<ET::kSI32>({}, {0})}, {1},
                       Body("add", {ET::kF32, ET::kSI32})));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].check, Check::kErrorBound);
  EXPECT_EQ(e[1].check, Check::kExact);
  EXPECT_TRUE(Passes(e, {F32({2}, {-0.5f, 12.0f}), Make<ET::kSI32>({2}, {2, 2})}));
  EXPECT_FALSE(Passes(e, {F32({2}, {-0.5f, 12.0f}), Make<ET::kSI32>({2}, {2, 3})}));
}

// ------------------------------------------------------ float bounds

// Sums of `values` in several orders, each step rounded to f32 (or, for the
// faulty one, to bf16).
float Sequential(const std::vector<float>& v, bool reverse) {
  float sum = 0;
  for (size_t i = 0; i < v.size(); ++i) sum += v[reverse ? v.size() - 1 - i : i];
  return sum;
}

float Pairwise(const float* v, size_t n) {
  if (n == 1) return v[0];
  return Pairwise(v, n / 2) + Pairwise(v + n / 2, n - n / 2);
}

float Lanes(const std::vector<float>& v) {
  float lanes[8] = {};
  for (size_t i = 0; i < v.size(); ++i) lanes[i % 8] += v[i];
  for (int width = 4; width > 0; width /= 2) {
    for (int j = 0; j < width; ++j) lanes[j] += lanes[j + width];
  }
  return lanes[0];
}

float RoundToBf16(float x) {
  uint32_t bits = std::bit_cast<uint32_t>(x);
  bits += 0x7FFF + ((bits >> 16) & 1);
  return std::bit_cast<float>(bits & 0xFFFF0000u);
}

float InBf16(const std::vector<float>& v) {
  float sum = 0;
  for (float x : v) sum = RoundToBf16(sum + x);
  return sum;
}

std::vector<ResultExpectation> SumOf(const std::vector<float>& values) {
  const auto n = static_cast<int64_t>(values.size());
  return RunOk(ReduceCase({F32({1, n}, values)}, {F32({}, {0.0f})}, {1}, Body("add", {ET::kF32})));
}

// Uniform values, and cancellation-heavy ones (large terms of both signs
// that nearly cancel, leaving a small sum).
std::vector<float> Data(std::mt19937& rng, size_t n, bool cancelling) {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = unit(rng);
    if (cancelling) v[i] = (i % 2 ? -1.0f : 1.0f) * std::ldexp(1.0f + v[i], 20) + v[i];
  }
  return v;
}

TEST(ReduceOracleTest, EveryOrderOfAFloatSumPasses) {
  std::mt19937 rng(7);
  for (size_t n : {2u, 3u, 17u, 100u, 1000u, 4096u}) {
    for (bool cancelling : {false, true}) {
      const std::vector<float> v = Data(rng, n, cancelling);
      std::vector<ResultExpectation> e = SumOf(v);
      ASSERT_EQ(e.size(), 1u);
      ASSERT_EQ(e[0].check, Check::kErrorBound);
      for (float sum :
           {Sequential(v, false), Sequential(v, true), Pairwise(v.data(), n), Lanes(v)}) {
        EXPECT_TRUE(Passes(e, {F32({1}, {sum})})) << n << " terms: " << sum;
      }
    }
  }
}

// The bound is tight enough to see one lost term and an accumulator of the
// wrong precision.
TEST(ReduceOracleTest, TheBoundCatchesALostTermAndABf16Accumulator) {
  std::mt19937 rng(11);
  for (size_t n : {16u, 100u, 1000u}) {
    const std::vector<float> v = Data(rng, n, false);
    std::vector<ResultExpectation> e = SumOf(v);
    const std::vector<float> shorter(v.begin(), v.end() - 1);
    EXPECT_FALSE(Passes(e, {F32({1}, {Sequential(shorter, false)})})) << n;
    EXPECT_FALSE(Passes(e, {F32({1}, {InBf16(v)})})) << n;
  }
}

// A float product in any order: within Higham's bound for the k roundings.
TEST(ReduceOracleTest, EveryOrderOfAFloatProductPasses) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> near_one(0.5f, 2.0f);
  std::vector<float> v(64);
  for (float& x : v) x = near_one(rng);
  std::vector<ResultExpectation> e =
      RunOk(ReduceCase({F32({64}, v)}, {F32({}, {1.0f})}, {0}, Body("multiply", {ET::kF32})));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].check, Check::kErrorBound);
  float forward = 1, backward = 1;
  for (size_t i = 0; i < v.size(); ++i) {
    forward *= v[i];
    backward *= v[v.size() - 1 - i];
  }
  EXPECT_TRUE(Passes(e, {F32({}, {forward})}));
  EXPECT_TRUE(Passes(e, {F32({}, {backward})}));
  EXPECT_FALSE(Passes(e, {F32({}, {forward / v.back()})}));
}

// Some order of huge terms overflows and another does not: free.
TEST(ReduceOracleTest, ASumThatSomeOrderOverflowsIsFree) {
  const float big = std::numeric_limits<float>::max();
  std::vector<ResultExpectation> e = SumOf({big, big, -big});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].free, (std::vector<uint8_t>{kFreeAnyValue}));
}

// Property: any permutation of the slice, summed sequentially in f32, passes.
RC_GTEST_PROP(ReduceOracleProperty, AnyPermutationOfAFloatSumPasses, ()) {
  const auto n = *rc::gen::inRange<size_t>(1, 200);
  const auto seed = *rc::gen::arbitrary<uint32_t>();
  std::mt19937 rng(seed);
  std::vector<float> v = Data(rng, n, seed % 2 == 0);
  std::vector<ResultExpectation> e = SumOf(v);
  std::shuffle(v.begin(), v.end(), rng);
  RC_ASSERT(Passes(e, {F32({1}, {Sequential(v, false)})}));
}

// Property: where the oracle recognises an exact combiner with its
// identity it folds with the op directly, without interpreting the body
// (the gate's reductions spend most of their oracle time there otherwise):
// the references are the interpreted body's, bit for bit (NaN for NaN),
// for reduce and for the collectives' reduction (no init value), over
// every integer and boolean monoid and float maximum and minimum, with
// random bit patterns (NaN, infinities and signed zeros among them).
template <ElementType T>
Tensor RandomBits(Shape shape) {
  Tensor t(std::move(shape), T);
  for (auto& v : t.values<T>()) {
    uint64_t bits = *rc::gen::arbitrary<uint64_t>();
    switch (*rc::gen::inRange(0, 4)) {  // zeros of both signs, now and then
      case 0:
        bits = 0;
        break;
      case 1:
        bits = uint64_t{1} << (BitWidth(T) - 1);
        break;
      default:
        break;
    }
    if constexpr (IsBool(T)) {
      v = static_cast<ContainerT<T>>(bits & 1);
    } else if constexpr (IsInteger(T)) {
      v = WrapInteger<T>(bits);
    } else {
      v = FloatFromBits<T>(BitWidth(T) == 64 ? bits : bits & ((uint64_t{1} << BitWidth(T)) - 1));
    }
  }
  return t;
}

// The scalar of T that is `kind`'s identity, among the candidates an
// identity can be; none where T has none.
template <ElementType T>
std::optional<Tensor> IdentityOf(oracle::Combiner kind) {
  std::vector<ContainerT<T>> candidates;
  if constexpr (IsBool(T)) {
    candidates = {0, 1};
  } else if constexpr (IsInteger(T)) {
    for (uint64_t bits : {uint64_t{0}, uint64_t{1}, ~uint64_t{0},
                          static_cast<uint64_t>(IntegerMin(T)), IntegerMaxUnsigned(T)}) {
      candidates.push_back(WrapInteger<T>(bits));
    }
  } else {
    const FloatFormat& f = Format(T);
    for (double x : {0.0, 1.0, -HUGE_VAL, HUGE_VAL, oracle::MaxFinite(f), -oracle::MaxFinite(f)}) {
      uint8_t flags = 0;
      candidates.push_back(
          FromExact<T>(ExactValue::FromDouble(x), RoundingMode::kNearestEven, &flags));
    }
    candidates.push_back(FloatFromBits<T>(0));
  }
  for (const ContainerT<T>& candidate : candidates) {
    if (oracle::IsIdentity(kind, T, &candidate)) return Make<T>({}, {candidate});
  }
  return std::nullopt;
}

template <ElementType T>
void ExpectDirectFoldIsTheBodys() {
  using oracle::Combiner;
  std::vector<std::pair<std::string, Combiner>> kinds = {{"maximum", Combiner::kMaximum},
                                                         {"minimum", Combiner::kMinimum}};
  if constexpr (IsInteger(T) || IsBool(T)) {
    kinds.insert(kinds.end(), {{"add", Combiner::kAdd},
                               {"multiply", Combiner::kMultiply},
                               {"and", Combiner::kAnd},
                               {"or", Combiner::kOr},
                               {"xor", Combiner::kXor}});
  }
  const auto& [name, kind] = *rc::gen::elementOf(kinds);
  const Tensor input =
      RandomBits<T>({*rc::gen::inRange<int64_t>(1, 4), *rc::gen::inRange<int64_t>(0, 6)});
  auto same = [](const ResultExpectation& direct, const ResultExpectation& interpreted) {
    RC_ASSERT(direct.check == Check::kExact);
    RC_ASSERT(direct.free.empty());
    RC_ASSERT(interpreted.free.size() == static_cast<size_t>(direct.reference.num_elements()));
    RC_ASSERT(Passes({direct}, {interpreted.reference}));
  };
  if (std::optional<Tensor> identity = IdentityOf<T>(kind)) {
    const std::vector<ResultExpectation> direct =
        RunOk(ReduceCase({input}, {*identity}, {1}, Body(name, {T})));
    const std::vector<ResultExpectation> interpreted =
        RunOk(ReduceCase({input}, {*identity}, {1}, Body(name, {T}, true)));
    RC_ASSERT(direct.size() == 1u && interpreted.size() == 1u);
    same(direct[0], interpreted[0]);
  }
  // The collectives' reduction: the group's operands stacked, no init value.
  const int64_t members = input.shape()[0];
  const TensorType one_result({input.shape()[1]}, T);
  Tensor stacked(Shape{input.num_elements()}, T);
  if (!input.bytes().empty()) {
    std::memcpy(stacked.bytes().data(), input.bytes().data(), input.bytes().size());
  }
  auto across = [&](bool hidden) {
    auto reduced =
        oracle::ReduceAcrossGroup(std::span<const Tensor>(&stacked, 1), Body(name, {T}, hidden),
                                  std::span<const TensorType>(&one_result, 1), members);
    RC_ASSERT(reduced.ok());
    return std::move(reduced->at(0));
  };
  same(across(false), across(true));
}

RC_GTEST_PROP(ReduceOracleProperty, ADirectFoldGivesTheInterpretedBodysValues, ()) {
  switch (*rc::gen::inRange(0, 10)) {
    case 0:
      return ExpectDirectFoldIsTheBodys<ET::kI1>();
    case 1:
      return ExpectDirectFoldIsTheBodys<ET::kSI4>();
    case 2:
      return ExpectDirectFoldIsTheBodys<ET::kUI8>();
    case 3:
      return ExpectDirectFoldIsTheBodys<ET::kSI16>();
    case 4:
      return ExpectDirectFoldIsTheBodys<ET::kUI32>();
    case 5:
      return ExpectDirectFoldIsTheBodys<ET::kSI64>();
    case 6:
      return ExpectDirectFoldIsTheBodys<ET::kF32>();
    case 7:
      return ExpectDirectFoldIsTheBodys<ET::kBF16>();
    case 8:
      return ExpectDirectFoldIsTheBodys<ET::kF8E4M3FNUZ>();
    default:
      return ExpectDirectFoldIsTheBodys<ET::kF64>();
  }
}

// ------------------------------------------------------- reduce_window

TEST(ReduceWindowOracleTest, SpecExample) {
  Case c = ReduceWindowCase({Literal("dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>")},
                            {Literal("dense<0> : tensor<i64>")},
                            {.window_dimensions = {2, 1},
                             .window_strides = {4, 1},
                             .base_dilations = {2, 1},
                             .window_dilations = {3, 1},
                             .padding = {{2, 1}, {0, 0}}},
                            {2, 2}, Body("add", {ET::kSI64}));
  std::vector<ResultExpectation> e = RunOk(c);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].check, Check::kExact);
  auto v = e[0].reference.values<ET::kSI64>();
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()), (std::vector<int64_t>{0, 0, 3, 4}));
}

// A max pool: -Inf padding, a NaN inside one window (it wins there only),
// stride larger than the window (elements no window reaches).
TEST(ReduceWindowOracleTest, MaxPoolWithPaddingNaNAndGaps) {
  const Tensor input = F32({7}, {1, 5, NAN, 2, 8, 3, 4});
  Case c = ReduceWindowCase({input}, {F32({}, {-INFINITY})},
                            {.window_dimensions = {2}, .window_strides = {3}, .padding = {{1, 0}}},
                            {3}, Body("maximum", {ET::kF32}));
  // Padded: [-Inf, 1, 5, NaN, 2, 8, 3, 4]; windows at 0, 3, 6.
  std::vector<ResultExpectation> e = RunOk(c);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(Passes(e, {F32({3}, {1, NAN, 4})}));
  EXPECT_FALSE(Passes(e, {F32({3}, {1, 2, 4})}));
}

// Negative padding crops; a window larger than the padded input gives an
// empty result.
TEST(ReduceWindowOracleTest, NegativePaddingAndWindowsLargerThanTheInput) {
  const Tensor input = Make<ET::kSI32>({5}, {1, 2, 3, 4, 5});
  std::vector<ResultExpectation> cropped = RunOk(ReduceWindowCase(
      {input}, {Make<ET::kSI32>({}, {0})}, {.window_dimensions = {2}, .padding = {{-1, -2}}}, {1},
      Body("add", {ET::kSI32})));
  ASSERT_EQ(cropped.size(), 1u);
  EXPECT_EQ(cropped[0].reference.values<ET::kSI32>()[0], 5);  // 2 + 3
  std::vector<ResultExpectation> empty =
      RunOk(ReduceWindowCase({input}, {Make<ET::kSI32>({}, {0})}, {.window_dimensions = {6}}, {0},
                             Body("add", {ET::kSI32})));
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_EQ(empty[0].reference.num_elements(), 0);
}

// Base dilation puts init values between the elements; window dilation
// skips elements inside a window.
TEST(ReduceWindowOracleTest, DilationsOfBaseAndWindow) {
  const Tensor input = Make<ET::kSI32>({2, 3}, {1, 2, 3, 4, 5, 6});
  // Base-dilated by 2 along dimension 1: [1 _ 2 _ 3]; windows of 3 with
  // dilation 2 cover positions 0, 2, 4: 1 + 2 + 3 and 4 + 5 + 6.
  std::vector<ResultExpectation> e = RunOk(ReduceWindowCase(
      {input}, {Make<ET::kSI32>({}, {0})},
      {.window_dimensions = {1, 3}, .base_dilations = {1, 2}, .window_dilations = {1, 2}}, {2, 1},
      Body("add", {ET::kSI32})));
  ASSERT_EQ(e.size(), 1u);
  auto v = e[0].reference.values<ET::kSI32>();
  EXPECT_EQ(std::vector<int32_t>(v.begin(), v.end()), (std::vector<int32_t>{6, 15}));
}

// A float sum over windows that overlap the padding: bounded, every order
// passes, a lost term does not.
TEST(ReduceWindowOracleTest, FloatWindowSumsAreBounded) {
  std::mt19937 rng(5);
  const std::vector<float> v = Data(rng, 40, true);
  std::vector<ResultExpectation> e = RunOk(
      ReduceWindowCase({F32({40}, v)}, {F32({}, {0.0f})},
                       {.window_dimensions = {20}, .window_strides = {10}, .padding = {{5, 5}}},
                       {4}, Body("add", {ET::kF32})));
  ASSERT_EQ(e.size(), 1u);
  ASSERT_EQ(e[0].check, Check::kErrorBound);
  std::vector<float> forward(4), backward(4), lost(4);
  for (int w = 0; w < 4; ++w) {
    std::vector<float> window;
    for (int k = 0; k < 20; ++k) {
      const int i = w * 10 + k - 5;
      window.push_back(i < 0 || i >= 40 ? 0.0f : v[i]);
    }
    forward[w] = Sequential(window, false);
    backward[w] = Sequential(window, true);
    // The last term of the window that is not padding.
    std::vector<float> shorter = window;
    for (int k = 19; k >= 0; --k) {
      if (w * 10 + k - 5 < 40) {
        shorter.erase(shorter.begin() + k);
        break;
      }
    }
    lost[w] = Sequential(shorter, false);
  }
  EXPECT_TRUE(Passes(e, {F32({4}, forward)}));
  EXPECT_TRUE(Passes(e, {F32({4}, backward)}));
  EXPECT_FALSE(Passes(e, {F32({4}, lost)}));
}

// -------------------------------------------------- select_and_scatter

// select(a, b) = compare(direction, a, b, compare_type).
Region Select(const std::string& direction, ElementType type, const std::string& compare_type) {
  auto scalar = [](ElementType t) { return ValueType::Of(TensorType{{}, t}); };
  Block block;
  block.arguments = {0, 1};
  block.argument_types = {scalar(type), scalar(type)};
  Operation compare;
  compare.name = "stablehlo.compare";
  compare.operands = {0, 1};
  compare.operand_types = {scalar(type), scalar(type)};
  compare.results = {2};
  compare.result_types = {scalar(ET::kI1)};
  compare.attributes["comparison_direction"] = EnumValue{direction};
  compare.attributes["compare_type"] = EnumValue{compare_type};
  Operation ret;
  ret.name = "stablehlo.return";
  ret.operands = {2};
  ret.operand_types = {scalar(ET::kI1)};
  block.operations = {compare, ret};
  Region region;
  region.blocks.push_back(block);
  return region;
}

TEST(SelectAndScatterOracleTest, SpecExample) {
  Case c =
      SelectAndScatterCase(Literal("dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi64>"),
                           Literal("dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>"),
                           Literal("dense<0> : tensor<i64>"), {3, 1}, {2, 1}, {{0, 1}, {0, 0}},
                           Select("GE", ET::kSI64, "SIGNED"), Body("add", {ET::kSI64}));
  std::vector<ResultExpectation> e = RunOk(c);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].check, Check::kExact);
  EXPECT_TRUE(e[0].free.empty());
  auto v = e[0].reference.values<ET::kSI64>();
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()),
            (std::vector<int64_t>{0, 0, 0, 0, 5, 14, 7, 0}));
}

// GE gives a tie to the first element, GT to the last, in every tree.
TEST(SelectAndScatterOracleTest, TiesGoToTheFirstUnderGEAndTheLastUnderGT) {
  const Tensor operand = Make<ET::kSI32>({3}, {7, 7, 7});
  const Tensor source = Make<ET::kSI32>({1}, {5});
  for (const auto& [direction, want] :
       {std::pair<std::string, std::vector<int32_t>>{"GE", {5, 0, 0}}, {"GT", {0, 0, 5}}}) {
    std::vector<ResultExpectation> e = RunOk(
        SelectAndScatterCase(operand, source, Make<ET::kSI32>({}, {0}), {3}, {1}, {},
                             Select(direction, ET::kSI32, "SIGNED"), Body("add", {ET::kSI32})));
    ASSERT_EQ(e.size(), 1u) << direction;
    EXPECT_TRUE(e[0].free.empty()) << direction;
    auto v = e[0].reference.values<ET::kSI32>();
    EXPECT_EQ(std::vector<int32_t>(v.begin(), v.end()), want) << direction;
  }
}

// With NaN in a window of three, FLOAT GE is no total order: the tree
// decides, so the window's elements are free (the left fold as convention);
// TOTALORDER keeps them fixed.
TEST(SelectAndScatterOracleTest, NaNUnderAFloatComparisonLeavesTheWindowOpen) {
  const Tensor operand = F32({3}, {1, NAN, 2});
  const Tensor source = F32({1}, {5});
  std::vector<ResultExpectation> open =
      RunOk(SelectAndScatterCase(operand, source, F32({}, {0}), {3}, {1}, {},
                                 Select("GE", ET::kF32, "FLOAT"), Body("add", {ET::kF32})));
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].free, (std::vector<uint8_t>(3, kFreeWithConvention)));
  std::vector<ResultExpectation> total =
      RunOk(SelectAndScatterCase(operand, source, F32({}, {0}), {3}, {1}, {},
                                 Select("GE", ET::kF32, "TOTALORDER"), Body("add", {ET::kF32})));
  ASSERT_EQ(total.size(), 1u);
  EXPECT_TRUE(total[0].free.empty());
  // TOTALORDER: +NaN is above every number, so it takes the value.
  EXPECT_TRUE(Passes(total, {F32({3}, {0, 5, 0})}));
}

// A window in the padding alone has no element to select: unspecified
// (openxla/stablehlo#731), so every element is free, with "scattered
// nowhere" as the convention.
TEST(SelectAndScatterOracleTest, AWindowWithoutElementsIsUnspecified) {
  std::vector<ResultExpectation> e = RunOk(SelectAndScatterCase(
      Make<ET::kSI32>({2}, {1, 2}), Make<ET::kSI32>({2}, {5, 6}), Make<ET::kSI32>({}, {0}), {2},
      {2}, {{0, 2}}, Select("GE", ET::kSI32, "SIGNED"), Body("add", {ET::kSI32})));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].free, (std::vector<uint8_t>(2, kFreeWithConvention)));
  auto v = e[0].reference.values<ET::kSI32>();
  EXPECT_EQ(std::vector<int32_t>(v.begin(), v.end()), (std::vector<int32_t>{0, 5}));
}

}  // namespace
}  // namespace hlocheck
