// map on the oracle: the spec's example; exact computations compared bit
// for bit; a computation with an op of a looser tolerance (exponential, a
// complex product) leaves its elements free with the oracle's value as the
// convention; an op that leaves a value to the implementation leaves it
// free.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "mlir/reader.h"
#include "oracle/compare.h"
#include "tests/oracle/oracle_test_util.h"

namespace hlocheck {
namespace {

using testing::Literal;
using testing::MapCase;
using testing::RunOk;
using testing::TheOracle;
using ET = ElementType;

// The body of `func.func @r(args) -> result { body }` as a region.
Region RegionOf(const std::string& arguments, const std::string& result, const std::string& body) {
  const std::string text = "func.func @r(" + arguments + ") -> " + result + " {\n" + body + "\n}\n";
  auto module = mlir::ReadModule(text, "test", **spec::DefaultRegistry());
  EXPECT_TRUE(module.ok()) << module.status() << "\n" << text;
  return module.ok() ? module->functions.at(0).body : Region();
}

TEST(MapOracleTest, SpecExample) {
  Region multiply = RegionOf("%a: tensor<i64>, %b: tensor<i64>", "tensor<i64>",
                             "  %p = stablehlo.multiply %a, %b : tensor<i64>\n"
                             "  func.return %p : tensor<i64>");
  std::vector<ResultExpectation> e =
      RunOk(MapCase({Literal("dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>"),
                     Literal("dense<[[4, 5], [6, 7]]> : tensor<2x2xi64>")},
                    multiply, ET::kSI64));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].check, Check::kExact);
  EXPECT_TRUE(e[0].free.empty());
  auto v = e[0].reference.values<ET::kSI64>();
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()), (std::vector<int64_t>{0, 5, 12, 21}));
}

// Float add and multiply are correctly rounded: exact, and a value one ULP
// off fails.
TEST(MapOracleTest, CorrectlyRoundedComputationsAreExact) {
  Region add = RegionOf("%a: tensor<f32>, %b: tensor<f32>", "tensor<f32>",
                        "  %s = stablehlo.add %a, %b : tensor<f32>\n"
                        "  func.return %s : tensor<f32>");
  std::vector<ResultExpectation> e = RunOk(MapCase({Literal("dense<[0.1, 1.0e30]> : tensor<2xf32>"),
                                                    Literal("dense<[0.2, 1.0]> : tensor<2xf32>")},
                                                   add, ET::kF32));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(e[0].free.empty());
  const float sum = 0.1f + 0.2f;
  EXPECT_TRUE(CompareResults(e, {Literal("dense<[0.3, 1.0e30]> : tensor<2xf32>")})[0].ok() ==
              (sum == 0.3f));
  Tensor off = e[0].reference;
  off.values<ET::kF32>()[0] = std::nextafter(sum, 1.0f);
  EXPECT_FALSE(CompareResults(e, {off})[0].ok());
}

// An exponential inside the computation has a ULP bound the oracle does not
// carry through the region: free, with the oracle's value as convention.
TEST(MapOracleTest, AComputationWithATranscendentalOpIsConventional) {
  Region exp = RegionOf("%a: tensor<f32>", "tensor<f32>",
                        "  %e = stablehlo.exponential %a : tensor<f32>\n"
                        "  func.return %e : tensor<f32>");
  std::vector<ResultExpectation> e =
      RunOk(MapCase({Literal("dense<[0.5, 1.0, 2.0]> : tensor<3xf32>")}, exp, ET::kF32));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].free, (std::vector<uint8_t>(3, kFreeWithConvention)));
  EXPECT_NE(e[0].free_reason.find("stablehlo.exponential"), std::string::npos) << e[0].free_reason;
  EXPECT_FLOAT_EQ(e[0].reference.values<ET::kF32>()[1], std::exp(1.0f));
}

TEST(MapOracleTest, AComplexProductIsConventional) {
  Region multiply =
      RegionOf("%a: tensor<complex<f32>>, %b: tensor<complex<f32>>", "tensor<complex<f32>>",
               "  %p = stablehlo.multiply %a, %b : tensor<complex<f32>>\n"
               "  func.return %p : tensor<complex<f32>>");
  std::vector<ResultExpectation> e =
      RunOk(MapCase({Literal("dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>"),
                     Literal("dense<[(3.0, 4.0)]> : tensor<1xcomplex<f32>>")},
                    multiply, ET::kComplexF32));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].free, (std::vector<uint8_t>{kFreeWithConvention}));
}

// A shift by the bit width is implementation-defined: that element is free.
TEST(MapOracleTest, AnOpenValueInsideTheComputationIsFree) {
  Region shift = RegionOf("%a: tensor<i32>, %b: tensor<i32>", "tensor<i32>",
                          "  %s = stablehlo.shift_left %a, %b : tensor<i32>\n"
                          "  func.return %s : tensor<i32>");
  std::vector<ResultExpectation> e = RunOk(
      MapCase({Literal("dense<[1, 1]> : tensor<2xi32>"), Literal("dense<[3, 32]> : tensor<2xi32>")},
              shift, ET::kSI32));
  ASSERT_EQ(e.size(), 1u);
  ASSERT_EQ(e[0].free.size(), 2u);
  EXPECT_EQ(e[0].free[0], 0);
  EXPECT_NE(e[0].free[1], 0);
  EXPECT_EQ(e[0].reference.values<ET::kSI32>()[0], 8);
}

}  // namespace
}  // namespace hlocheck
