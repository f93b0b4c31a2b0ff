// The region ops on quantized values on the oracle: reductions whose body
// is add, maximum or minimum (oracle/quantized_fold.cc) are exact where no
// step can round or saturate, a storage range where a partial sum may
// saturate, open (with an integer kernel's value as the convention) where
// the expressed type may round a step; every tree of the spec lies inside
// what the oracle allows (a property over random trees, each step computed
// by the oracle's own quantized op); a kernel that forgets the zero points
// fails. The other region ops run their bodies on quantized scalars.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>

#include "oracle/quantization.h"
#include "oracle/quantized_fold.h"
#include "tests/oracle/oracle_test_util.h"
#include "tests/support/case_builders.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::Accepts;
using ::hlocheck::testing::MakeCase;
using ::hlocheck::testing::QuantizedLiteral;
using ::hlocheck::testing::ReduceCase;
using ::hlocheck::testing::RegionOf;
using ::hlocheck::testing::RunOk;
using ::hlocheck::testing::ValueTypeOf;
using ::hlocheck::testing::WindowAttributes;

using Outcome = oracle::QuantizedFold::Outcome;

TensorType ScalarType(const std::string& element) {
  return ValueTypeOf("tensor<" + element + ">").tensor();
}

// A body `op` of two scalars of `element` ("!quant.uniform<i8:f32, 0.5:2>").
Region BodyOf(const std::string& op, const std::string& element) {
  const std::string scalar = "tensor<" + element + ">";
  return RegionOf({scalar, scalar}, scalar,
                  "%r = \"stablehlo." + op + "\"(%a0, %a1) : (" + scalar + ", " + scalar + ") -> " +
                      scalar + "\nfunc.return %r : " + scalar);
}

// reduce over dimension 1 of `storage` (a 2-D literal of the storage type)
// with init value `init`, both of quantized `element`.
Case QuantizedReduce(const std::string& op, const std::string& element, const std::string& shape,
                     const std::string& storage, int64_t init) {
  Tensor input = QuantizedLiteral("tensor<" + shape + "x" + element + ">", storage);
  TensorType scalar = ScalarType(element);
  Tensor init_value(scalar);
  oracle::SetStorage(init_value, 0, init);
  Case c = ReduceCase({input}, {init_value}, {1}, BodyOf(op, element));
  c.result_types[0].quantization = scalar.quantization;
  return c;
}

constexpr char kI8[] = "!quant.uniform<i8:f32, 0.5:2>";

TEST(QuantizedFoldTest, SumsThatCannotSaturateAreExact) {
  const TensorType type = ScalarType(kI8);
  const std::vector<int64_t> storages = {2, 10, 20, 30, 40};  // the init value 2 first
  const oracle::QuantizedFold fold = oracle::FoldQuantized(oracle::Combiner::kAdd, storages, type);
  EXPECT_EQ(fold.outcome, Outcome::kExact);
  EXPECT_EQ(fold.reference, 2 + 8 + 18 + 28 + 38);
}

// 98 + 98 + 98 - 102 (offsets; storage 127 is offset 125): a tree that
// adds the positive ones first saturates at 125 and ends at 23; one that
// starts with -102 ends at 125.
TEST(QuantizedFoldTest, PartialSumsThatMaySaturateGiveTheirRange) {
  const TensorType type = ScalarType(kI8);
  const oracle::QuantizedFold fold = oracle::FoldQuantized(
      oracle::Combiner::kAdd, std::vector<int64_t>{100, 100, 100, -100}, type);
  EXPECT_EQ(fold.outcome, Outcome::kRange);
  EXPECT_EQ(fold.low, 2 + 23);
  EXPECT_EQ(fold.high, 127);
  EXPECT_EQ(fold.reference, 127);  // an integer kernel's: 2 + 192, saturated once
}

TEST(QuantizedFoldTest, MaximumAndMinimumAreExact) {
  const TensorType type = ScalarType(kI8);
  EXPECT_EQ(
      oracle::FoldQuantized(oracle::Combiner::kMaximum, std::vector<int64_t>{-128, 5, -7, 90}, type)
          .reference,
      90);
  EXPECT_EQ(
      oracle::FoldQuantized(oracle::Combiner::kMinimum, std::vector<int64_t>{127, 5, -7, 90}, type)
          .reference,
      -7);
}

// bf16 holds 8 significant bits: offsets near 100 at scale 0.3 round when
// dequantized, so the tree shows in the result.
TEST(QuantizedFoldTest, ANarrowExpressedTypeLeavesLargeOffsetsOpen) {
  const TensorType narrow = ScalarType("!quant.uniform<i8:bf16, 0.3:0>");
  EXPECT_EQ(oracle::FoldQuantized(oracle::Combiner::kAdd, std::vector<int64_t>{100, 90, 80}, narrow)
                .outcome,
            Outcome::kOpen);
  EXPECT_EQ(
      oracle::FoldQuantized(oracle::Combiner::kAdd, std::vector<int64_t>{1, 2, 1}, narrow).outcome,
      Outcome::kExact);
}

TEST(QuantizedFoldTest, IdentitiesAreQuantizedValues) {
  const TensorType type = ScalarType("!quant.uniform<i8<-127:127>:f32, 0.5:2>");
  EXPECT_TRUE(oracle::IsQuantizedIdentity(oracle::Combiner::kAdd, 2, type));
  EXPECT_FALSE(oracle::IsQuantizedIdentity(oracle::Combiner::kAdd, 0, type));
  EXPECT_TRUE(oracle::IsQuantizedIdentity(oracle::Combiner::kMaximum, -127, type));
  EXPECT_TRUE(oracle::IsQuantizedIdentity(oracle::Combiner::kMinimum, 127, type));
}

// The oracle's reduce: the right sum passes; summing the storage integers
// (zero points included, as a lowering that drops the quantization does)
// fails.
TEST(QuantizedReductionTest, ReduceAddsOffsetsNotStorageIntegers) {
  const std::vector<ResultExpectation> results = RunOk(QuantizedReduce(
      "add", kI8, "2x4", "dense<[[10, 20, 30, 40], [3, 4, 5, 6]]> : tensor<2x4xi8>", 2));
  ASSERT_EQ(results.size(), 1u);
  const std::string result = std::string("tensor<2x") + kI8 + ">";
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral(result, "dense<[94, 12]> : tensor<2xi8>")));
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(result, "dense<[102, 20]> : tensor<2xi8>")));
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(result, "dense<[93, 12]> : tensor<2xi8>")));
}

// Where a partial sum may saturate, every tree's value passes and a value
// outside the range does not.
TEST(QuantizedReductionTest, ASaturatingSumAllowsEveryTree) {
  const std::vector<ResultExpectation> results = RunOk(
      QuantizedReduce("add", kI8, "1x4", "dense<[[100, 100, 100, -100]]> : tensor<1x4xi8>", 2));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].check, Check::kStorageRange);
  const std::string result = std::string("tensor<1x") + kI8 + ">";
  for (const char* value : {"127", "25", "123"}) {
    EXPECT_TRUE(Accepts(
        results[0], QuantizedLiteral(result, std::string("dense<[") + value + "]> : tensor<1xi8>")))
        << value;
  }
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(result, "dense<[24]> : tensor<1xi8>")));
}

// reduce_window pads with the init value (quantized 0 for add).
TEST(QuantizedReductionTest, ReduceWindowPadsWithTheInitValue) {
  const std::string element = kI8;
  Tensor input =
      QuantizedLiteral("tensor<4x" + element + ">", "dense<[3, 4, 5, 6]> : tensor<4xi8>");
  Tensor init(ScalarType(element));
  oracle::SetStorage(init, 0, 2);
  WindowAttributes window;
  window.window_dimensions = {2};
  window.padding = {{1, 0}};
  Case c = testing::ReduceWindowCase({input}, {init}, window, {4}, BodyOf("add", element));
  c.result_types[0].quantization = ScalarType(element).quantization;
  const std::vector<ResultExpectation> results = RunOk(c);
  ASSERT_EQ(results.size(), 1u);
  // Offsets 1, 2, 3, 4: windows [pad, 1], [1, 2], [2, 3], [3, 4].
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral("tensor<4x" + element + ">",
                                                   "dense<[3, 5, 7, 9]> : tensor<4xi8>")));
}

// Sorting quantized keys compares their dequantized values: with a negative
// zero point the order is the storage order shifted, and a stable sort
// keeps ties.
TEST(QuantizedReductionTest, SortComparesDequantizedValues) {
  const std::string element = "!quant.uniform<i8:f32, 0.25:-3>";
  const std::string scalar = "tensor<" + element + ">";
  Region less =
      RegionOf({scalar, scalar}, "tensor<i1>",
               "%r = \"stablehlo.compare\"(%a0, %a1) {comparison_direction = "
               "#stablehlo<comparison_direction LT>, compare_type = "
               "#stablehlo<comparison_type FLOAT>} : (" +
                   scalar + ", " + scalar + ") -> tensor<i1>\nfunc.return %r : tensor<i1>");
  Tensor keys =
      QuantizedLiteral("tensor<4x" + element + ">", "dense<[7, -9, 0, 7]> : tensor<4xi8>");
  const std::vector<ResultExpectation> results =
      RunOk(testing::SortCase({keys}, 0, true, std::move(less)));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral("tensor<4x" + element + ">",
                                                   "dense<[-9, 0, 7, 7]> : tensor<4xi8>")));
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral("tensor<4x" + element + ">",
                                                    "dense<[7, 7, 0, -9]> : tensor<4xi8>")));
}

// A map whose computation is a quantized add: dequantize, add, quantize,
// element by element.
TEST(QuantizedReductionTest, MapRunsItsComputationOnQuantizedScalars) {
  const std::string element = kI8;
  const std::string type = "tensor<3x" + element + ">";
  Tensor x = QuantizedLiteral(type, "dense<[3, 10, 120]> : tensor<3xi8>");
  Tensor y = QuantizedLiteral(type, "dense<[4, -20, 100]> : tensor<3xi8>");
  Case c = testing::MapCase({x, y}, BodyOf("add", element), ElementType::kSI8);
  c.result_types[0].quantization = ScalarType(element).quantization;
  const std::vector<ResultExpectation> results = RunOk(c);
  ASSERT_EQ(results.size(), 1u);
  // Offsets 1 + 2, 8 - 22, 118 + 98 (saturates).
  EXPECT_TRUE(Accepts(results[0], QuantizedLiteral(type, "dense<[5, -12, 127]> : tensor<3xi8>")));
  EXPECT_FALSE(Accepts(results[0], QuantizedLiteral(type, "dense<[7, -10, 127]> : tensor<3xi8>")));
}

// Every tree of the spec (a random full binary tree over the values in
// order, identity init values interspersed), each step the oracle's own
// quantized op (its seed-002 reference), gives a storage integer the fold
// allows: the one value where it says exact.
RC_GTEST_PROP(QuantizedFoldProperty, EveryTreeLiesInsideTheFold, ()) {
  const std::string storage = *rc::gen::element<std::string>("i4", "i8", "i8", "u8", "i16");
  // The expressed type is wider than the storage type (quantized type C1).
  const std::string expressed =
      storage == "i16" ? "f32" : *rc::gen::element<std::string>("f32", "f16", "bf16", "bf16");
  const std::string scale =
      *rc::gen::element<std::string>("1.0", "0.5", "0.25", "0.1", "3.0", "0.3", "0.7", "1.3");
  const bool is_unsigned = storage[0] == 'u';
  const int bits = std::stoi(storage.substr(1));
  const int64_t lowest = is_unsigned ? 0 : -(int64_t{1} << (bits - 1));
  const int64_t highest = is_unsigned ? (int64_t{1} << bits) - 1 : (int64_t{1} << (bits - 1)) - 1;
  const int64_t zero_point = *rc::gen::inRange<int64_t>(lowest, highest + 1);
  const std::string element = "!quant.uniform<" + storage + ":" + expressed + ", " + scale + ":" +
                              std::to_string(zero_point) + ">";
  const TensorType type = ScalarType(element);
  const auto kind = *rc::gen::element(oracle::Combiner::kAdd, oracle::Combiner::kMaximum,
                                      oracle::Combiner::kMinimum);
  // Values near the zero point most of the time, anywhere now and then.
  const int64_t spread = *rc::gen::element<int64_t>(3, 20, 100, highest - lowest);
  const auto values = *rc::gen::container<std::vector<int64_t>>(
      *rc::gen::inRange<size_t>(1, 7),
      rc::gen::map(rc::gen::inRange<int64_t>(-spread, spread + 1), [&](int64_t offset) {
        return std::clamp(zero_point + offset, lowest, highest);
      }));
  const int64_t identity = kind == oracle::Combiner::kAdd       ? zero_point
                           : kind == oracle::Combiner::kMaximum ? lowest
                                                                : highest;
  // The leaves in order: an identity (the init value) first, more now and then.
  std::vector<int64_t> leaves = {identity};
  for (int64_t v : values) {
    leaves.push_back(v);
    if (*rc::gen::inRange(0, 4) == 0) leaves.push_back(identity);
  }
  const oracle::QuantizedFold fold = oracle::FoldQuantized(kind, leaves, type);
  RC_PRE(fold.outcome != Outcome::kOpen);

  const std::string op = kind == oracle::Combiner::kAdd       ? "add"
                         : kind == oracle::Combiner::kMaximum ? "maximum"
                                                              : "minimum";
  auto scalar = [&](int64_t storage_value) {
    Tensor t(type);
    oracle::SetStorage(t, 0, storage_value);
    return t;
  };
  std::function<int64_t(size_t, size_t)> tree = [&](size_t first, size_t last) -> int64_t {
    if (last - first == 1) return leaves[first];
    const size_t split = *rc::gen::inRange(first + 1, last);
    const int64_t left = tree(first, split);
    const int64_t right = tree(split, last);
    const std::vector<ResultExpectation> step =
        RunOk(MakeCase(op, {scalar(left), scalar(right)}, type));
    RC_ASSERT(step.size() == 1u);
    return oracle::StorageAt(step[0].reference, 0);
  };
  const int64_t value = tree(0, leaves.size());
  RC_ASSERT(fold.low <= value);
  RC_ASSERT(value <= fold.high);
  if (fold.outcome == Outcome::kExact) RC_ASSERT(value == fold.reference);
}

}  // namespace
}  // namespace hlocheck
