// compare (every direction and type), maximum/minimum/clamp with NaN and
// signed zeros, select and is_finite.
#include <gtest/gtest.h>

#include <cmath>

#include "core/element_value.h"
#include "tests/oracle/elementwise_test_util.h"

namespace hlocheck::testing {
namespace {

const char* kDirections[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};

std::vector<int> CompareAll(const Tensor& a, const Tensor& b, const std::string& direction,
                            const std::string& type) {
  std::map<std::string, Attribute> attributes = {{"comparison_direction", EnumValue{direction}}};
  if (!type.empty()) attributes["compare_type"] = EnumValue{type};
  ResultExpectation e =
      RunOp("compare", {a, b}, TensorType(a.shape(), ElementType::kI1), std::move(attributes));
  auto v = e.reference.values<ElementType::kI1>();
  return std::vector<int>(v.begin(), v.end());
}

bool Expected(const std::string& direction, int order /* -1, 0, 1, or 2 for unordered */) {
  if (direction == "EQ") return order == 0;
  if (direction == "NE") return order != 0;
  if (direction == "GE") return order == 0 || order == 1;
  if (direction == "GT") return order == 1;
  if (direction == "LE") return order == 0 || order == -1;
  return order == -1;
}

TEST(ElementwiseCompareTest, TotalOrderOfF32) {
  // Ascending in IEEE-754 totalOrder.
  std::vector<uint32_t> ascending = {
      0xFFC00001, 0xFFC00000, 0xFF800001,  // -NaNs (quiet > signalling)
      0xFF800000, 0xC0000000, 0x80000001, 0x80000000, 0x00000000, 0x00000001,
      0x40000000, 0x7F800000, 0x7F800001, 0x7FC00000, 0x7FC00001};
  const int n = static_cast<int>(ascending.size());
  std::vector<float> lhs, rhs;
  std::vector<int> order;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      lhs.push_back(std::bit_cast<float>(ascending[i]));
      rhs.push_back(std::bit_cast<float>(ascending[j]));
      order.push_back(i < j ? -1 : i > j ? 1 : 0);
    }
  }
  Tensor a = Vector<ElementType::kF32>(lhs);
  Tensor b = Vector<ElementType::kF32>(rhs);
  for (const char* direction : kDirections) {
    std::vector<int> got = CompareAll(a, b, direction, "TOTALORDER");
    for (size_t k = 0; k < got.size(); ++k) {
      ASSERT_EQ(got[k], Expected(direction, order[k]))
          << direction << " " << lhs[k] << " vs " << rhs[k] << " (#" << k << ")";
    }
  }
}

TEST(ElementwiseCompareTest, FloatComparisonIsQuietAndZerosAreEqual) {
  Tensor a =
      Literal("dense<[0.0, -0.0, 0x7FF8000000000000, 1.0, 0x7FF0000000000000]> : tensor<5xf64>");
  Tensor b =
      Literal("dense<[-0.0, 0.0, 0x7FF8000000000000, 0x7FF8000000000000, 1.0]> : tensor<5xf64>");
  std::vector<int> order = {0, 0, 2, 2, 1};
  for (const char* direction : kDirections) {
    for (const char* type : {"FLOAT", ""}) {
      std::vector<int> got = CompareAll(a, b, direction, type);
      for (size_t k = 0; k < got.size(); ++k)
        ASSERT_EQ(got[k], Expected(direction, order[k])) << direction << k;
    }
  }
  // The same on a bit-pattern format: f8E4M3FN (NaN 0x7F, no Inf).
  Tensor x = Vector<ElementType::kF8E4M3FN>({0x00, 0x7F, 0x38, 0xB8});
  Tensor y = Vector<ElementType::kF8E4M3FN>({0x80, 0x38, 0x38, 0x38});
  EXPECT_EQ(CompareAll(x, y, "EQ", "FLOAT"), (std::vector<int>{1, 0, 1, 0}));
  EXPECT_EQ(CompareAll(x, y, "LT", "FLOAT"), (std::vector<int>{0, 0, 0, 1}));
  EXPECT_EQ(CompareAll(x, y, "LT", "TOTALORDER"), (std::vector<int>{0, 0, 0, 1}));
  EXPECT_EQ(CompareAll(x, y, "GT", "TOTALORDER"), (std::vector<int>{1, 1, 0, 0}));
}

TEST(ElementwiseCompareTest, IntegersSignedAndUnsignedAndBooleans) {
  Tensor s = Literal("dense<[-1, 0, 1]> : tensor<3xi8>");
  Tensor t = Literal("dense<[0, 0, -1]> : tensor<3xi8>");
  EXPECT_EQ(CompareAll(s, t, "LT", "SIGNED"), (std::vector<int>{1, 0, 0}));
  Tensor u = Literal("dense<[255, 0, 1]> : tensor<3xui8>");
  Tensor v = Literal("dense<[0, 0, 255]> : tensor<3xui8>");
  EXPECT_EQ(CompareAll(u, v, "GT", "UNSIGNED"), (std::vector<int>{1, 0, 0}));
  Tensor p = Literal("dense<[true, false]> : tensor<2xi1>");
  Tensor q = Literal("dense<[false, false]> : tensor<2xi1>");
  EXPECT_EQ(CompareAll(p, q, "GT", "UNSIGNED"), (std::vector<int>{1, 0}));
}

TEST(ElementwiseCompareTest, ComplexIsLexicographic) {
  Tensor a = Literal(
      "dense<[(1.0, 5.0), (1.0, 2.0), (1.0, 2.0), (0x7FC00000, 0.0)]> : tensor<4xcomplex<f32>>");
  Tensor b = Literal(
      "dense<[(2.0, 0.0), (1.0, 3.0), (1.0, 2.0), (0x7FC00000, 0.0)]> : tensor<4xcomplex<f32>>");
  std::vector<int> order = {-1, -1, 0, 2};
  for (const char* direction : kDirections) {
    std::vector<int> got = CompareAll(a, b, direction, "FLOAT");
    for (size_t k = 0; k < got.size(); ++k)
      ASSERT_EQ(got[k], Expected(direction, order[k])) << direction << k;
  }
}

TEST(ElementwiseMinMaxTest, NaNPropagatesAndNegativeZeroIsSmaller) {
  Tensor a = Literal("dense<[0.0, -0.0, 0x7FC00000, 1.0, -2.0]> : tensor<5xf32>");
  Tensor b = Literal("dense<[-0.0, 0.0, 1.0, 0x7FC00000, 3.0]> : tensor<5xf32>");
  ResultExpectation max = RunSame("maximum", {a, b});
  ResultExpectation min = RunSame("minimum", {a, b});
  auto hi = max.reference.values<ElementType::kF32>();
  auto lo = min.reference.values<ElementType::kF32>();
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(hi[i] == 0 && !std::signbit(hi[i])) << i;
    EXPECT_TRUE(lo[i] == 0 && std::signbit(lo[i])) << i;
  }
  EXPECT_TRUE(std::isnan(hi[2]) && std::isnan(hi[3]) && std::isnan(lo[2]) && std::isnan(lo[3]));
  EXPECT_EQ(hi[4], 3.0f);
  EXPECT_EQ(lo[4], -2.0f);
  // f8E4M3FNUZ has no -0 (0x80 is NaN): NaN still propagates.
  ResultExpectation fnuz = RunSame("maximum", {Vector<ElementType::kF8E4M3FNUZ>({0x80, 0x00}),
                                               Vector<ElementType::kF8E4M3FNUZ>({0x38, 0xB8})});
  EXPECT_EQ(fnuz.reference.values<ElementType::kF8E4M3FNUZ>()[0], 0x80);
  EXPECT_EQ(fnuz.reference.values<ElementType::kF8E4M3FNUZ>()[1], 0x00);
  ResultExpectation b1 = RunSame("maximum", {Literal("dense<[true, false]> : tensor<2xi1>"),
                                             Literal("dense<[false, false]> : tensor<2xi1>")});
  EXPECT_EQ(b1.reference.values<ElementType::kI1>()[0], 1);
  EXPECT_EQ(b1.reference.values<ElementType::kI1>()[1], 0);
}

TEST(ElementwiseMinMaxTest, ComplexLexicographicWithOpenCasesFree) {
  Tensor a = Literal(
      "dense<[(1.0, 5.0), (1.0, 2.0), (0.0, 1.0), (0x7FF8000000000000, 0.0)]> : "
      "tensor<4xcomplex<f64>>");
  Tensor b =
      Literal("dense<[(2.0, 0.0), (1.0, 3.0), (-0.0, 2.0), (1.0, 0.0)]> : tensor<4xcomplex<f64>>");
  ResultExpectation max = RunSame("maximum", {a, b});
  auto v = max.reference.values<ElementType::kComplexF64>();
  EXPECT_EQ(v[0], std::complex<double>(2, 0));
  EXPECT_EQ(v[1], std::complex<double>(1, 3));
  EXPECT_FALSE(IsFree(max, 0) || IsFree(max, 1));
  EXPECT_TRUE(IsFree(max, 2));  // only the sign of the zero real parts differs
  EXPECT_TRUE(IsFree(max, 3));  // NaN
}

TEST(ElementwiseMinMaxTest, ClampWithScalarAndFullBounds) {
  ResultExpectation scalar =
      RunOp("clamp",
            {Literal("dense<0.0> : tensor<f32>"),
             Literal("dense<[-1.0, 0.5, 2.0, 0x7FC00000, -0.0]> : tensor<5xf32>"),
             Literal("dense<1.0> : tensor<f32>")},
            Type("tensor<5xf32>"));
  auto v = scalar.reference.values<ElementType::kF32>();
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_EQ(v[1], 0.5f);
  EXPECT_EQ(v[2], 1.0f);
  EXPECT_TRUE(std::isnan(v[3]));
  EXPECT_TRUE(v[4] == 0 && !std::signbit(v[4]));  // maximum(-0, +0) = +0
  ResultExpectation full =
      RunOp("clamp",
            {Literal("dense<[5, 10, 15]> : tensor<3xi32>"),
             Literal("dense<[3, 13, 23]> : tensor<3xi32>"), Literal("dense<20> : tensor<i32>")},
            Type("tensor<3xi32>"));
  auto w = full.reference.values<ElementType::kSI32>();
  EXPECT_EQ(w[0], 5);
  EXPECT_EQ(w[1], 13);
  EXPECT_EQ(w[2], 20);
}

TEST(ElementwiseSelectTest, ScalarAndFullPredicates) {
  Tensor on_true = Literal("dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f64>>");
  Tensor on_false = Literal("dense<[(5.0, 6.0), (7.0, 8.0)]> : tensor<2xcomplex<f64>>");
  ResultExpectation scalar =
      RunOp("select", {Literal("dense<true> : tensor<i1>"), on_true, on_false}, on_true.type());
  EXPECT_TRUE(scalar.reference.BitwiseEquals(on_true));
  ResultExpectation full =
      RunOp("select", {Literal("dense<[false, true]> : tensor<2xi1>"), on_true, on_false},
            on_true.type());
  auto v = full.reference.values<ElementType::kComplexF64>();
  EXPECT_EQ(v[0], std::complex<double>(5, 6));
  EXPECT_EQ(v[1], std::complex<double>(3, 4));
  ResultExpectation empty =
      RunOp("select",
            {Literal("dense<true> : tensor<i1>"), Tensor(Shape{0, 3}, ElementType::kSI4),
             Tensor(Shape{0, 3}, ElementType::kSI4)},
            TensorType(Shape{0, 3}, ElementType::kSI4));
  EXPECT_EQ(empty.reference.num_elements(), 0);
}

TEST(ElementwiseIsFiniteTest, EveryFloatType) {
  for (ElementType type : AllElementTypes()) {
    if (!IsFloat(type)) continue;
    const FloatFormat& format = Format(type);
    const int n = type == ElementType::kF32 || type == ElementType::kF64
                      ? 1000
                      : 1 << std::min(16, format.total_bits());
    Tensor x(Shape{n}, type);
    std::vector<bool> finite(n);
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsFloat(T)) {
        for (int i = 0; i < n; ++i) {
          uint64_t bits = n == 1000 ? (uint64_t{0x7FF} << 52) * (i % 2) + i : i;
          if (T == ElementType::kF32 && n == 1000) bits = (uint64_t{0xFF} << 23) * (i % 2) + i;
          x.values<T>()[i] = FloatFromBits<T>(bits);
          double d = DecodeFloat(format, bits).ToDouble();
          finite[i] = std::isfinite(d);
        }
      }
    });
    ResultExpectation e = RunOp("is_finite", {x}, TensorType(Shape{n}, ElementType::kI1));
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(e.reference.values<ElementType::kI1>()[i], finite[i] ? 1 : 0) << Name(type) << i;
  }
}

}  // namespace
}  // namespace hlocheck::testing
