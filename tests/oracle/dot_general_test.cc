// The dot_general oracle: exact integers, a (nearly) exact float reference
// and a bound that every summation order meets but a wrong sum does not.
#include <gtest/gtest.h>

#include <cmath>

#include "core/element_value.h"
#include "oracle/compare.h"
#include "oracle/oracle.h"
#include "tests/oracle/oracle_test_util.h"

namespace hlocheck {
namespace {

Case Dot(Tensor lhs, Tensor rhs, Shape result) {
  Case c;
  c.op = "dot_general";
  ElementType type = lhs.element_type();
  c.operands = {std::move(lhs), std::move(rhs)};
  c.attributes["lhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["rhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["lhs_contracting_dimensions"] = std::vector<int64_t>{0};
  c.attributes["rhs_contracting_dimensions"] = std::vector<int64_t>{0};
  c.result_types.push_back({std::move(result), type});
  return c;
}

template <ElementType T>
Tensor Vector(std::vector<ContainerT<T>> values) {
  Tensor t(Shape{static_cast<int64_t>(values.size())}, T);
  std::copy(values.begin(), values.end(), t.values<T>().begin());
  return t;
}

const Oracle& TheOracle() {
  static Oracle* oracle = new Oracle(*spec::DefaultRegistry());
  return *oracle;
}

TEST(DotGeneralOracleTest, IntegersWrapAround) {
  Case c = Dot(Vector<ElementType::kSI8>({100, 100}), Vector<ElementType::kSI8>({1, 1}), {});
  auto results = TheOracle().Run(c);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].reference.values<ElementType::kSI8>()[0], -56);  // 200 - 256
  EXPECT_EQ((*results)[0].check, Check::kExact);
}

// A result type of its own accumulates in it: si8 x si8 -> si32 does not
// wrap, and f16 x f16 -> f32 keeps the exact products (2047 * 2047 is not an
// f16, and 4190209 is an f32).
TEST(DotGeneralOracleTest, AResultTypeOfItsOwnAccumulatesInIt) {
  Case ints = Dot(Vector<ElementType::kSI8>({100, 100}), Vector<ElementType::kSI8>({100, 1}), {});
  ints.result_types[0].element_type = ElementType::kSI32;
  auto results = TheOracle().Run(ints);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].reference.values<ElementType::kSI32>()[0], 10100);

  Tensor lhs(Shape{1}, ElementType::kF16);
  const double value = 2047;
  ConvertElements(ElementType::kF64, &value, ElementType::kF16, lhs.raw(), 1);
  Case halves = Dot(lhs, lhs, {});
  halves.result_types[0].element_type = ElementType::kF32;
  results = TheOracle().Run(halves);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].reference.values<ElementType::kF32>()[0], 4190209.0f);
}

// A narrower result (f32 operands, f16 result) is not settled by the spec
// (#755): the bound admits the most lossy reading, the operands rounded to
// f16 first, and so every other; integers wrap, which every reading agrees on.
TEST(DotGeneralOracleTest, ANarrowerResultTypeIsBoundedByTheMostLossyReading) {
  const float x = 1.0f + std::ldexp(1.0f, -12);  // not an f16: rounds to 1
  Case c = Dot(Vector<ElementType::kF32>({x, x}), Vector<ElementType::kF32>({x, 1.0f}), {});
  c.result_types[0].element_type = ElementType::kF16;
  auto results = TheOracle().Run(c);
  ASSERT_TRUE(results.ok()) << results.status();
  auto f16 = [](double v) {
    Tensor t(Shape{}, ElementType::kF16);
    ConvertElements(ElementType::kF64, &v, ElementType::kF16, t.raw(), 1);
    return t;
  };
  EXPECT_TRUE(CompareResult((*results)[0], f16(2.0)).ok());  // operands rounded first
  const double exact = double{x} * x + x;
  EXPECT_TRUE(CompareResult((*results)[0], f16(exact)).ok());  // the sum rounded once
  EXPECT_FALSE(CompareResult((*results)[0], f16(2.01)).ok());
  EXPECT_FALSE(CompareResult((*results)[0], f16(1.99)).ok());

  Case ints = Dot(Vector<ElementType::kSI32>({300, 2}), Vector<ElementType::kSI32>({1, 1}), {});
  ints.result_types[0].element_type = ElementType::kSI8;
  results = TheOracle().Run(ints);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].reference.values<ElementType::kSI8>()[0], 302 - 256);
  EXPECT_EQ((*results)[0].check, Check::kExact);

  Case mixed = Dot(Vector<ElementType::kSI32>({3, 2}), Vector<ElementType::kSI32>({1, 1}), {});
  mixed.result_types[0].element_type = ElementType::kF16;  // holds no si32 value exactly
  results = TheOracle().Run(mixed);
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), absl::StatusCode::kUnimplemented) << results.status();
}

TEST(DotGeneralOracleTest, CancellationIsExact) {
  // 1e16 + 1 - 1e16 is 0 or 1 in double depending on the order; the
  // reference is the exact 1 and the bound admits both orders.
  Case c =
      Dot(Vector<ElementType::kF64>({1e16, 1.0, -1e16}), Vector<ElementType::kF64>({1, 1, 1}), {});
  auto results = TheOracle().Run(c);
  ASSERT_TRUE(results.ok());
  const ResultExpectation& e = (*results)[0];
  EXPECT_EQ(e.center_hi[0] + e.center_lo[0], 1.0);
  for (double backend : {0.0, 1.0, 2.0}) {
    Tensor actual(Shape{}, ElementType::kF64);
    actual.values<ElementType::kF64>()[0] = backend;
    EXPECT_TRUE(CompareResult(e, actual).ok()) << backend;
  }
  Tensor wrong(Shape{}, ElementType::kF64);
  wrong.values<ElementType::kF64>()[0] = 1e16;
  EXPECT_FALSE(CompareResult(e, wrong).ok());
}

TEST(DotGeneralOracleTest, ADroppedTermExceedsTheBound) {
  Case c = Dot(Vector<ElementType::kF32>({1.5f, 2.25f, -3.0f, 0.125f}),
               Vector<ElementType::kF32>({4.0f, -1.0f, 2.0f, 8.0f}), {});
  auto results = TheOracle().Run(c);
  ASSERT_TRUE(results.ok());
  const ResultExpectation& e = (*results)[0];
  EXPECT_EQ(e.reference.values<ElementType::kF32>()[0], 6.0f - 2.25f - 6.0f + 1.0f);
  Tensor dropped(Shape{}, ElementType::kF32);
  dropped.values<ElementType::kF32>()[0] = 6.0f - 2.25f - 6.0f;
  EXPECT_FALSE(CompareResult(e, dropped).ok());
  Tensor one_ulp_off(Shape{}, ElementType::kF32);
  one_ulp_off.values<ElementType::kF32>()[0] = std::nextafter(-1.25f, 0.0f);
  EXPECT_TRUE(CompareResult(e, one_ulp_off).ok());
}

TEST(DotGeneralOracleTest, SpecialValues) {
  const float inf = HUGE_VALF;
  auto run = [](std::vector<float> a, std::vector<float> b) {
    return (*TheOracle().Run(Dot(Vector<ElementType::kF32>(std::move(a)),
                                 Vector<ElementType::kF32>(std::move(b)), {})))[0];
  };
  EXPECT_TRUE(std::isnan(run({inf, 1}, {0, 1}).center_hi[0]));  // Inf * 0
  EXPECT_TRUE(std::isnan(run({inf, -inf}, {1, 1}).center_hi[0]));
  EXPECT_EQ(run({inf, 1}, {1, 1}).center_hi[0], HUGE_VAL);
  // Magnitudes beyond f32's range: the order decides, so the element is free.
  ResultExpectation e = run({3e38f, 3e38f, -3e38f}, {1, 1, 1});
  EXPECT_EQ(e.FreeCount(), 1);
}

TEST(DotGeneralOracleTest, SpecExample) {
  Tensor lhs(Shape{2, 2, 2}, ElementType::kSI64);
  Tensor rhs(Shape{2, 2, 2}, ElementType::kSI64);
  int64_t a[] = {1, 2, 3, 4, 5, 6, 7, 8};
  int64_t b[] = {1, 0, 0, 1, 1, 0, 0, 1};
  std::copy(a, a + 8, lhs.values<ElementType::kSI64>().begin());
  std::copy(b, b + 8, rhs.values<ElementType::kSI64>().begin());
  Case c;
  c.op = "dot_general";
  c.operands = {lhs, rhs};
  c.attributes["lhs_batching_dimensions"] = std::vector<int64_t>{0};
  c.attributes["rhs_batching_dimensions"] = std::vector<int64_t>{0};
  c.attributes["lhs_contracting_dimensions"] = std::vector<int64_t>{2};
  c.attributes["rhs_contracting_dimensions"] = std::vector<int64_t>{1};
  c.result_types.push_back({{2, 2, 2}, ElementType::kSI64});
  auto results = TheOracle().Run(c);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_TRUE((*results)[0].reference.BitwiseEquals(lhs));
}

// ------------------------------------------------------------ algorithm

using ::hlocheck::testing::Passes;
using ::hlocheck::testing::RunOk;

void SetAlgorithm(Case& c, const std::string& precision, const std::string& accumulation,
                  int64_t components, int64_t products, bool imprecise = false) {
  ::hlocheck::testing::SetDotAlgorithm(c, precision, accumulation, components, products, imprecise);
}

Tensor F32Scalar(float value) {
  Tensor t(Shape{}, ElementType::kF32);
  t.values<ElementType::kF32>()[0] = value;
  return t;
}

// The spec's own example: tf32 on i64 operands keeps the exact products.
TEST(DotGeneralOracleTest, AnAlgorithmLeavesIntegersExact) {
  Case c = Dot(Vector<ElementType::kSI64>({3, 5}), Vector<ElementType::kSI64>({7, 11}), {});
  SetAlgorithm(c, "tf32", "f32", 1, 1);
  auto results = TheOracle().Run(c);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].reference.values<ElementType::kSI64>()[0], 76);
  EXPECT_EQ((*results)[0].check, Check::kExact);
}

// x = 1 + 2^-10 is not a bf16: with the operands rounded to bf16 the
// product x * x may be 1, with them split in two components (bf16_3x) it is
// within a few f32 ulps of x^2, and with f32 precision exact.
TEST(DotGeneralOracleTest, ThePrecisionTypeDecidesHowFarTheResultMayBe) {
  const float x = 1.0f + std::ldexp(1.0f, -10);
  const float square = x * x;  // 1 + 2^-9 + 2^-20, exact in f32
  auto expectation = [&](const std::string& precision, int64_t components, int64_t products) {
    Case c = Dot(Vector<ElementType::kF32>({x}), Vector<ElementType::kF32>({x}), {});
    SetAlgorithm(c, precision, "f32", components, products);
    return RunOk(c);
  };
  const auto bf16 = expectation("bf16", 1, 1);
  EXPECT_TRUE(Passes(bf16, F32Scalar(1.0f)));  // what bf16 rounding gives
  EXPECT_TRUE(Passes(bf16, F32Scalar(square)));
  EXPECT_FALSE(Passes(bf16, F32Scalar(0.99f)));
  const auto tf32 = expectation("tf32", 1, 1);  // x is a tf32: exact products
  EXPECT_TRUE(Passes(tf32, F32Scalar(square)));
  EXPECT_FALSE(Passes(tf32, F32Scalar(1.0f)));
  const auto bf16_3x = expectation("bf16", 2, 3);
  EXPECT_TRUE(Passes(bf16_3x, F32Scalar(square)));
  EXPECT_FALSE(Passes(bf16_3x, F32Scalar(1.0f)));  // the single pass's answer
  const auto f32 = expectation("f32", 1, 1);
  EXPECT_TRUE(Passes(f32, F32Scalar(square)));
  EXPECT_FALSE(Passes(f32, F32Scalar(std::nextafter(square, 2.0f) + 1e-6f)));
}

// tf32 where bf16_6x (3 components, 6 products: about f32's accuracy) is
// asked: caught on values with bits beyond tf32's 11.
TEST(DotGeneralOracleTest, TheBoundOfASplitCatchesTf32) {
  const float a = 1.0f + std::ldexp(1.0f, -15);
  const float b = 3.0f + std::ldexp(1.0f, -14);
  Case c = Dot(Vector<ElementType::kF32>({a, b}), Vector<ElementType::kF32>({b, a}), {});
  SetAlgorithm(c, "bf16", "f32", 3, 6);
  const auto e = RunOk(c);
  EXPECT_TRUE(Passes(e, F32Scalar(a * b + b * a)));
  EXPECT_FALSE(Passes(e, F32Scalar(2.0f * 1.0f * 3.0f)));  // tf32 rounds both to 1 and 3
}

// An infinity times a value that rounds to 0 in the precision type is NaN,
// as the rounded operands multiply.
TEST(DotGeneralOracleTest, AnInfinityTimesAValueThatRoundsToZeroIsNaN) {
  Case c = Dot(Vector<ElementType::kF32>({HUGE_VALF}), Vector<ElementType::kF32>({1e-45f}), {});
  SetAlgorithm(c, "bf16", "f32", 1, 1);
  EXPECT_TRUE(std::isnan(RunOk(c)[0].center_hi[0]));
  SetAlgorithm(c, "f32", "f32", 1, 1);
  EXPECT_EQ(RunOk(c)[0].center_hi[0], HUGE_VAL);
}

TEST(DotGeneralOracleTest, AlgorithmsWithoutABoundAreUnimplemented) {
  Case c = Dot(Vector<ElementType::kF32>({1, 2}), Vector<ElementType::kF32>({3, 4}), {});
  SetAlgorithm(c, "f8E5M2", "f32", 1, 1, /*imprecise=*/true);
  auto results = TheOracle().Run(c);
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), absl::StatusCode::kUnimplemented) << results.status();
  EXPECT_NE(results.status().message().find("allow_imprecise_accumulation"), std::string::npos);
  SetAlgorithm(c, "bf16", "f32", 3, 5);  // five of nine products: which five?
  results = TheOracle().Run(c);
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), absl::StatusCode::kUnimplemented) << results.status();
  SetAlgorithm(c, "f33", "f32", 1, 1);
  results = TheOracle().Run(c);
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("not a FloatType or tf32"), std::string::npos);
}

TEST(OracleTest, RejectsInvalidCasesNamingTheConstraint) {
  Case c = Dot(Vector<ElementType::kF32>({1, 2}), Vector<ElementType::kF32>({1, 2, 3}), {});
  auto results = TheOracle().Run(c);
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("C10 violated"), std::string::npos) << results.status();
}

}  // namespace
}  // namespace hlocheck
