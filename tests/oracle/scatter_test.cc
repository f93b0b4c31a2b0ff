// scatter on the oracle (and the prepared regions its update computation
// runs in): the spec's example, the public interpreter's scatter.mlir, and
// targeted cases checked against a brute-force scatter applied update by
// update from the spec's formula, written independently of the oracle. The
// freedom the spec leaves (the order of repeated updates) is checked through
// CompareResults: every allowed answer passes, a wrong one fails.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "tests/oracle/oracle_test_util.h"

namespace hlocheck {
namespace {

using testing::Literal;
using testing::RegionOf;
using testing::RunOk;
using testing::ScatterCase;
using testing::ScatterDims;
using testing::TheOracle;

// ---------------------------------------------------------------- scatter

// update_computation: the named op of current and update (or "replace").
Region Combine(const std::string& op, const std::string& element_type) {
  const std::string t = "tensor<" + element_type + ">";
  std::string body =
      op == "replace" ? "  func.return %a1 : " + t
                      : "  %r = stablehlo." + op + " %a0, %a1 : " + t + "\n  func.return %r : " + t;
  return RegionOf({t, t}, t, body);
}

// The spec's scatter, one update element after another in row-major order,
// for si64 data and add: written from the formula without the oracle's
// helpers (result_index assembled dimension by dimension).
Tensor BruteForceScatterAdd(const Tensor& input, const Tensor& indices, const Tensor& updates,
                            const ScatterDims& dims) {
  Tensor result = input;
  auto out = result.values<ElementType::kSI64>();
  auto idx = indices.values<ElementType::kSI64>();
  auto upd = updates.values<ElementType::kSI64>();
  const Shape& is = indices.shape();
  const int64_t ivd = dims.index_vector_dim;
  const int64_t in_rank = input.rank();
  auto contains = [](const std::vector<int64_t>& v, int64_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  for (IndexIterator it(updates.shape()); !it.done(); it.Next()) {
    const auto& u = it.index();
    std::vector<int64_t> scatter_index;
    for (size_t d = 0; d < u.size(); ++d) {
      if (!contains(dims.update_window_dims, d)) scatter_index.push_back(u[d]);
    }
    // start_index
    std::vector<int64_t> start;
    const int64_t vector_size = ivd < indices.rank() ? is[ivd] : 1;
    for (int64_t k = 0; k < vector_size; ++k) {
      std::vector<int64_t> at = scatter_index;
      if (ivd < indices.rank()) at.insert(at.begin() + ivd, k);
      int64_t linear = 0;
      for (size_t d = 0; d < at.size(); ++d) linear = linear * is[d] + at[d];
      start.push_back(idx[linear]);
    }
    std::vector<int64_t> result_index(in_rank, 0);
    for (size_t k = 0; k < start.size(); ++k) {
      result_index[dims.scatter_dims_to_operand_dims[k]] += start[k];
    }
    for (size_t b = 0; b < dims.input_batching_dims.size(); ++b) {
      const int64_t d_start = dims.scatter_indices_batching_dims[b];
      result_index[dims.input_batching_dims[b]] += scatter_index[d_start - (d_start < ivd ? 0 : 1)];
    }
    size_t w = 0;
    for (int64_t d = 0; d < in_rank; ++d) {
      if (contains(dims.inserted_window_dims, d) || contains(dims.input_batching_dims, d)) continue;
      result_index[d] += u[dims.update_window_dims[w++]];
    }
    bool in_bounds = true;
    int64_t linear = 0;
    for (int64_t d = 0; d < in_rank; ++d) {
      in_bounds = in_bounds && 0 <= result_index[d] && result_index[d] < input.shape()[d];
      linear = linear * input.shape()[d] + result_index[d];
    }
    if (in_bounds) out[linear] += upd[it.linear()];
  }
  return result;
}

Tensor Iota64(const Shape& shape, int64_t scale) {
  Tensor t(shape, ElementType::kSI64);
  auto v = t.values<ElementType::kSI64>();
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i) * scale;
  return t;
}

void ExpectBruteForce(const Tensor& input, const Tensor& indices, const Shape& update_shape,
                      const ScatterDims& dims) {
  Tensor updates = Iota64(update_shape, 1000);
  auto e = RunOk(ScatterCase({input}, indices, {updates}, dims, Combine("add", "i64")));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].check, Check::kExact);
  EXPECT_EQ(e[0].FreeCount(), 0);
  EXPECT_EQ(e[0].reference, BruteForceScatterAdd(input, indices, updates, dims))
      << PrintDenseAttribute(e[0].reference);
}

TEST(ScatterTest, SpecExample) {
  ScatterDims dims{{2, 3}, {0}, {}, {}, {1, 0}, 2};
  Tensor input = Literal(
      "dense<[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]], "
      "[[17, 18], [19, 20], [21, 22], [23, 24]]]> : tensor<3x4x2xi64>");
  Tensor indices =
      Literal("dense<[[[0, 2], [1, 0], [2, 1]], [[0, 1], [1, 0], [0, 9]]]> : tensor<2x3x2xi64>");
  Tensor updates = Literal("dense<1> : tensor<2x3x2x2xi64>");
  auto e = RunOk(ScatterCase({input}, indices, {updates}, dims, Combine("add", "i64")));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].reference,
            Literal("dense<[[[1, 2], [5, 6], [7, 8], [7, 8]], [[10, 11], [12, 13], [14, 15], [16, "
                    "17]], [[18, 19], [20, 21], [21, 22], [23, 24]]]> : tensor<3x4x2xi64>"));
  EXPECT_EQ(e[0].FreeCount(), 0);
  EXPECT_EQ(e[0].reference, BruteForceScatterAdd(input, indices, updates, dims));
}

TEST(ScatterTest, DimensionNumbersAgainstBruteForce) {
  // index_vector_dim = rank(scatter_indices): scalar indices.
  ExpectBruteForce(Iota64({5}, 1), Literal("dense<[3, 0, 4, 3]> : tensor<4xi64>"), {4},
                   {{}, {0}, {}, {}, {0}, 1});
  // index_vector_dim = 0, windows of 2x2 into a 4x3 input.
  ExpectBruteForce(Iota64({4, 3}, 1), Literal("dense<[[0, 2, 1], [1, 0, 1]]> : tensor<2x3xi64>"),
                   {3, 2, 2}, {{1, 2}, {}, {}, {}, {0, 1}, 0});
  // Window dimensions first in the updates, scatter dims last; a partial
  // scatter_dims_to_operand_dims (dimension 1 only).
  ExpectBruteForce(Iota64({3, 4}, 1), Literal("dense<[[2], [0], [3]]> : tensor<3x1xi64>"), {3, 3},
                   {{0}, {1}, {}, {}, {1}, 1});
  // Batching dimensions (the public example's shapes) with index_vector_dim
  // at the end, and with batching dims on both sides of index_vector_dim.
  Tensor batch_indices = Literal(
      "dense<[[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]], [[[0, 0], [2, 1], [2, 2]], "
      "[[1, 2], [0, 1], [1, 0]]]]> : tensor<2x2x3x2xi64>");
  ExpectBruteForce(Iota64({2, 3, 4, 2}, 1), batch_indices, {2, 2, 3, 2, 2},
                   {{3, 4}, {1}, {0}, {1}, {2, 1}, 3});
  Tensor middle_vector =
      Literal("dense<[[[0, 1], [2, 0]], [[1, 1], [0, 3]], [[2, 2], [1, 0]]]> : tensor<3x2x2xi64>");
  // scatter_indices 3 (batch, = input dim 0) x 2 (index vector) x 2 (batch, = input dim 2).
  ExpectBruteForce(Iota64({3, 4, 2, 5}, 1), middle_vector, {3, 2, 2, 3},
                   {{2, 3}, {}, {0, 2}, {0, 2}, {1, 3}, 1});
}

TEST(ScatterTest, OutOfBoundsIndicesAreSkippedElementByElement) {
  // The spec's formula tests result_index (start + window offset) for every
  // update element: a window that sticks out is applied where it lies
  // inside, and a negative start is applied where start + offset >= 0.
  Tensor input = Iota64({5}, 0);
  Tensor indices = Literal("dense<[[4], [-1], [7], [-9]]> : tensor<4x1xi64>");
  Tensor updates = Literal("dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi64>");
  ScatterDims dims{{1}, {}, {}, {}, {0}, 1};
  auto e = RunOk(ScatterCase({input}, indices, {updates}, dims, Combine("add", "i64")));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].reference, Literal("dense<[4, 0, 0, 0, 1]> : tensor<5xi64>"));
  EXPECT_EQ(e[0].reference, BruteForceScatterAdd(input, indices, updates, dims));
}

TEST(ScatterTest, AWindowThatSticksOutMayAlsoBeLeftOutWhole) {
  // openxla/stablehlo#1931 reads the text otherwise: a window partly out of
  // bounds is dropped whole (XLA does so). The two windows that stick out
  // reach elements 0 and 4; either reading's value passes there, and only
  // there.
  Tensor input = Literal("dense<[10, 20, 30, 40, 50]> : tensor<5xi64>");
  Tensor indices = Literal("dense<[[4], [-1], [7], [1]]> : tensor<4x1xi64>");
  Tensor updates = Literal("dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi64>");
  ScatterDims dims{{1}, {}, {}, {}, {0}, 1};
  auto e = RunOk(ScatterCase({input}, indices, {updates}, dims, Combine("add", "i64")));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].reference, Literal("dense<[14, 27, 38, 40, 51]> : tensor<5xi64>"));
  ASSERT_NE(e[0].other_reading, nullptr);
  EXPECT_EQ(e[0].other_reading->reference, Literal("dense<[10, 27, 38, 40, 50]> : tensor<5xi64>"));
  EXPECT_NE(e[0].other_reading_reason.find("openxla/stablehlo#1931"), std::string::npos);
  EXPECT_TRUE(CompareResult(e[0], e[0].reference).ok());
  ResultComparison whole = CompareResult(e[0], e[0].other_reading->reference);
  EXPECT_TRUE(whole.ok());
  EXPECT_EQ(whole.other_reading, 2);
  // Any other value fails, at those elements as anywhere else.
  EXPECT_FALSE(CompareResult(e[0], Literal("dense<[15, 27, 38, 40, 51]> : tensor<5xi64>")).ok());
  EXPECT_FALSE(CompareResult(e[0], Literal("dense<[14, 20, 38, 40, 51]> : tensor<5xi64>")).ok());
  // A case whose windows all fit has one reading.
  Tensor inside = Literal("dense<[[0], [3]]> : tensor<2x1xi64>");
  Tensor two = Literal("dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>");
  auto fits = RunOk(ScatterCase({input}, inside, {two}, dims, Combine("add", "i64")));
  EXPECT_EQ(fits[0].other_reading, nullptr);
  EXPECT_TRUE(fits[0].reading_differs.empty());
}

// The comparison itself: an element marked in reading_differs passes with
// the other reading's value, or with any value where the other reading
// leaves it open; elements not marked keep the one reading.
TEST(ScatterTest, TheOtherReadingIsComparedOnlyWhereItDiffers) {
  ResultExpectation e;
  e.reference = Literal("dense<[1, 2, 3]> : tensor<3xi64>");
  auto other = std::make_shared<ResultExpectation>();
  other->reference = Literal("dense<[7, 8, 9]> : tensor<3xi64>");
  other->free = {0, 0, kFreeAnyValue};
  e.other_reading = other;
  e.reading_differs = {1, 0, 1};
  ResultComparison c = CompareResult(e, Literal("dense<[7, 2, 42]> : tensor<3xi64>"));
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.other_reading, 2);
  EXPECT_FALSE(CompareResult(e, Literal("dense<[6, 2, 3]> : tensor<3xi64>")).ok());
  EXPECT_FALSE(CompareResult(e, Literal("dense<[1, 8, 3]> : tensor<3xi64>")).ok());
}

TEST(ScatterTest, RepeatedFloatAddAcceptsAnyOrderAndCatchesADroppedUpdate) {
  // Element 0 gets four tiny updates and 1.0: their sum is lost next to
  // 1.0 in one order and not in the other. Element 1 gets one update.
  const std::vector<float> terms = {3e-8f, 3e-8f, 3e-8f, 3e-8f, 1.0f, 0.01f};
  Tensor input = Literal("dense<[0.0, 5.0]> : tensor<2xf32>");
  Tensor indices(Shape{6, 1}, ElementType::kSI32);
  Tensor updates(Shape{6}, ElementType::kF32);
  for (int i = 0; i < 6; ++i) {
    indices.values<ElementType::kSI32>()[i] = i == 5 ? 1 : 0;
    updates.values<ElementType::kF32>()[i] = terms[i];
  }
  ScatterDims dims{{}, {0}, {}, {}, {0}, 1};
  auto e = RunOk(ScatterCase({input}, indices, {updates}, dims, Combine("add", "f32")));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].check, Check::kErrorBound);
  // Two summation orders, each rounding to f32 at every step.
  float forward = 0.0f, backward = 0.0f;
  for (int i = 0; i < 5; ++i) forward += terms[i];
  for (int i = 4; i >= 0; --i) backward += terms[i];
  ASSERT_NE(forward, backward);  // the orders really differ
  const float single = 5.0f + 0.01f;
  Tensor a(Shape{2}, ElementType::kF32), b = a, dropped = a;
  a.values<ElementType::kF32>()[0] = forward;
  b.values<ElementType::kF32>()[0] = backward;
  dropped.values<ElementType::kF32>()[0] = forward - 1.0f;
  for (Tensor* t : {&a, &b, &dropped}) t->values<ElementType::kF32>()[1] = single;
  EXPECT_TRUE(CompareResult(e[0], a).ok());
  EXPECT_TRUE(CompareResult(e[0], b).ok());
  EXPECT_FALSE(CompareResult(e[0], dropped).ok());
  // The element with one update is exact.
  Tensor off = a;
  off.values<ElementType::kF32>()[1] = std::nextafter(single, 10.0f);
  EXPECT_FALSE(CompareResult(e[0], off).ok());
}

TEST(ScatterTest, RepeatedFloatMultiplyIsBounded) {
  Tensor input = Literal("dense<[1.5]> : tensor<1xf32>");
  Tensor indices = Literal("dense<[0, 0, 0]> : tensor<3xi64>");
  Tensor updates = Literal("dense<[1.1, 0.3, 7.7]> : tensor<3xf32>");
  ScatterDims dims{{}, {0}, {}, {}, {0}, 1};
  auto e = RunOk(ScatterCase({input}, indices, {updates}, dims, Combine("multiply", "f32")));
  ASSERT_EQ(e[0].check, Check::kErrorBound);
  float forward = ((1.5f * 1.1f) * 0.3f) * 7.7f, backward = ((1.5f * 7.7f) * 0.3f) * 1.1f;
  for (float v : {forward, backward}) {
    Tensor t(Shape{1}, ElementType::kF32);
    t.values<ElementType::kF32>()[0] = v;
    EXPECT_TRUE(CompareResult(e[0], t).ok()) << v;
  }
  Tensor dropped(Shape{1}, ElementType::kF32);
  dropped.values<ElementType::kF32>()[0] = 1.5f * 1.1f * 7.7f;
  EXPECT_FALSE(CompareResult(e[0], dropped).ok());
}

TEST(ScatterTest, RepeatedFloatAddWithAnInfinityMayBeNaN) {
  // 0 + max + max overflows to +Inf, and + -Inf is then NaN; -Inf first
  // gives -Inf: either order is allowed.
  const float max = std::numeric_limits<float>::max();
  const float inf = std::numeric_limits<float>::infinity();
  Tensor input = Literal("dense<[0.0]> : tensor<1xf32>");
  Tensor indices = Literal("dense<[0, 0, 0]> : tensor<3xi64>");
  Tensor updates(Shape{3}, ElementType::kF32);
  updates.values<ElementType::kF32>()[0] = max;
  updates.values<ElementType::kF32>()[1] = max;
  updates.values<ElementType::kF32>()[2] = -inf;
  ScatterDims dims{{}, {0}, {}, {}, {0}, 1};
  auto e = RunOk(ScatterCase({input}, indices, {updates}, dims, Combine("add", "f32")));
  ASSERT_EQ(e.size(), 1u);
  for (float v : {std::nanf(""), -inf}) {
    Tensor t(Shape{1}, ElementType::kF32);
    t.values<ElementType::kF32>()[0] = v;
    EXPECT_TRUE(CompareResult(e[0], t).ok()) << v;
  }
}

TEST(ScatterTest, ComplexProductsWithInfinitiesAreImplementationDefined) {
  // As for multiply itself: C99 Annex G recovers (Inf, -Inf) where the
  // textbook formula gives NaN parts. A finite product stays exact.
  const float inf = std::numeric_limits<float>::infinity();
  const ElementType c64 = ElementType::kComplexF32;
  Tensor input(Shape{2}, c64);
  input.values<ElementType::kComplexF32>()[0] = {-inf, -inf};
  input.values<ElementType::kComplexF32>()[1] = {1.0f, 2.0f};
  Tensor indices = Literal("dense<[0, 1]> : tensor<2xi64>");
  Tensor updates(Shape{2}, c64);
  updates.values<ElementType::kComplexF32>()[0] = {0.0f, 2.0f};
  updates.values<ElementType::kComplexF32>()[1] = {3.0f, 4.0f};
  ScatterDims dims{{}, {0}, {}, {}, {0}, 1};
  auto e =
      RunOk(ScatterCase({input}, indices, {updates}, dims, Combine("multiply", "complex<f32>")));
  ASSERT_EQ(e.size(), 1u);
  Tensor annex_g(Shape{2}, c64);
  annex_g.values<ElementType::kComplexF32>()[0] = {inf, -inf};
  annex_g.values<ElementType::kComplexF32>()[1] = {-5.0f, 10.0f};
  EXPECT_TRUE(CompareResult(e[0], annex_g).ok());
  Tensor off = annex_g;
  off.values<ElementType::kComplexF32>()[1] = {-5.0f, 11.0f};
  EXPECT_FALSE(CompareResult(e[0], off).ok());
}

TEST(ScatterTest, OrderIndependentComputationsAreExact) {
  Tensor indices = Literal("dense<[1, 1, 0, 1]> : tensor<4xi64>");
  ScatterDims dims{{}, {0}, {}, {}, {0}, 1};
  auto max = RunOk(ScatterCase({Literal("dense<[0, 0]> : tensor<2xi16>")}, indices,
                               {Literal("dense<[3, -7, 2, 9]> : tensor<4xi16>")}, dims,
                               Combine("maximum", "i16")));
  EXPECT_EQ(max[0].check, Check::kExact);
  EXPECT_EQ(max[0].reference, Literal("dense<[2, 9]> : tensor<2xi16>"));
  auto wrap = RunOk(ScatterCase({Literal("dense<[1, 100]> : tensor<2xui8>")}, indices,
                                {Literal("dense<[100, 3, 2, 1]> : tensor<4xui8>")}, dims,
                                Combine("multiply", "ui8")));
  EXPECT_EQ(wrap[0].reference, Literal("dense<[2, 48]> : tensor<2xui8>"));  // 30000 mod 256
  EXPECT_EQ(wrap[0].FreeCount(), 0);
}

TEST(ScatterTest, ReplaceWithRepeatedIndices) {
  ScatterDims dims{{}, {0}, {}, {}, {0}, 1};
  Tensor indices = Literal("dense<[0, 0, 1]> : tensor<3xi64>");
  auto differ = RunOk(ScatterCase({Literal("dense<[0, 0]> : tensor<2xi32>")}, indices,
                                  {Literal("dense<[5, 6, 7]> : tensor<3xi32>")}, dims,
                                  Combine("replace", "i32")));
  EXPECT_EQ(differ[0].free, (std::vector<uint8_t>{1, 0}));
  EXPECT_NE(differ[0].free_reason.find("order"), std::string::npos);
  EXPECT_EQ(differ[0].reference.values<ElementType::kSI32>()[1], 7);
  auto same = RunOk(ScatterCase({Literal("dense<[0, 0]> : tensor<2xi32>")}, indices,
                                {Literal("dense<[5, 5, 7]> : tensor<3xi32>")}, dims,
                                Combine("replace", "i32")));
  EXPECT_EQ(same[0].FreeCount(), 0);
  EXPECT_EQ(same[0].reference, Literal("dense<[5, 7]> : tensor<2xi32>"));
}

TEST(ScatterTest, BrokenPromisesAreUndefinedBehaviour) {
  ScatterDims dims{{}, {0}, {}, {}, {0}, 1};
  Tensor input = Literal("dense<[0, 0, 0]> : tensor<3xi32>");
  Tensor updates = Literal("dense<[1, 2, 3]> : tensor<3xi32>");
  auto unsorted = RunOk(ScatterCase({input}, Literal("dense<[2, 0, 1]> : tensor<3xi64>"), {updates},
                                    dims, Combine("add", "i32"), /*sorted=*/true));
  EXPECT_EQ(unsorted[0].FreeCount(), 3);
  EXPECT_NE(unsorted[0].free_reason.find("indices_are_sorted"), std::string::npos);
  auto sorted = RunOk(ScatterCase({input}, Literal("dense<[0, 1, 2]> : tensor<3xi64>"), {updates},
                                  dims, Combine("add", "i32"), /*sorted=*/true, /*unique=*/true));
  EXPECT_EQ(sorted[0].FreeCount(), 0);
  auto repeated = RunOk(ScatterCase({input}, Literal("dense<[0, 1, 1]> : tensor<3xi64>"), {updates},
                                    dims, Combine("add", "i32"), false, /*unique=*/true));
  EXPECT_EQ(repeated[0].FreeCount(), 3);
  EXPECT_NE(repeated[0].free_reason.find("unique_indices"), std::string::npos);
}

TEST(ScatterTest, VariadicWithTwoComputations) {
  // results[0] = add, results[1] = max, over one update_computation.
  Region both = RegionOf({"tensor<i32>", "tensor<f32>", "tensor<i32>", "tensor<f32>"},
                         "(tensor<i32>, tensor<f32>)",
                         "  %s = stablehlo.add %a0, %a2 : tensor<i32>\n"
                         "  %m = stablehlo.maximum %a1, %a3 : tensor<f32>\n"
                         "  func.return %s, %m : tensor<i32>, tensor<f32>");
  ScatterDims dims{{}, {0}, {}, {}, {0}, 1};
  auto e = RunOk(ScatterCase({Literal("dense<[1, 2, 3]> : tensor<3xi32>"),
                              Literal("dense<[0.5, 0.5, 0.5]> : tensor<3xf32>")},
                             Literal("dense<[2, 0, 2, 2]> : tensor<4xi64>"),
                             {Literal("dense<[10, 20, 30, 40]> : tensor<4xi32>"),
                              Literal("dense<[-1.0, 4.0, 8.0, 2.0]> : tensor<4xf32>")},
                             dims, both));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].reference, Literal("dense<[21, 2, 83]> : tensor<3xi32>"));
  EXPECT_EQ(e[1].reference, Literal("dense<[4.0, 0.5, 8.0]> : tensor<3xf32>"));
  EXPECT_EQ(e[0].check, Check::kExact);
  EXPECT_EQ(e[1].check, Check::kExact);
  EXPECT_EQ(e[0].FreeCount() + e[1].FreeCount(), 0);
}

TEST(ScatterTest, PromotedComputationType) {
  // f16 inputs and updates, an f32 computation: results are f32.
  ScatterDims dims{{}, {0}, {}, {}, {0}, 1};
  auto e = RunOk(ScatterCase({Literal("dense<[1.0, 2.0]> : tensor<2xf16>")},
                             Literal("dense<[1]> : tensor<1xi64>"),
                             {Literal("dense<[0.5]> : tensor<1xf16>")}, dims, Combine("add", "f32"),
                             false, false, {ElementType::kF32}));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].reference, Literal("dense<[1.0, 2.5]> : tensor<2xf32>"));
}

// ---------------------------------------------------------------- prepared regions

Tensor ScalarOf(ElementType type, double value) {
  Tensor t(Shape{}, type);
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (!IsComplex(T)) t.values<T>()[0] = static_cast<ContainerT<T>>(value);
  });
  return t;
}

// After its first call a prepared region skips the interpreter; every call
// must still give what the interpreter gives, constants and op order included.
TEST(PreparedRegionTest, LaterCallsMatchTheInterpreter) {
  Region body = RegionOf({"tensor<f32>", "tensor<f32>", "tensor<f32>", "tensor<f32>"},
                         "(tensor<f32>, tensor<f32>)", R"(
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %s = stablehlo.add %a0, %a2 : tensor<f32>
  %m = stablehlo.multiply %s, %c : tensor<f32>
  %p = stablehlo.compare GT, %m, %a1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %r = stablehlo.select %p, %m, %a3 : tensor<i1>, tensor<f32>
  func.return %r, %s : tensor<f32>, tensor<f32>)");
  oracle::PreparedRegion prepared(body);
  EXPECT_FALSE(prepared.prepared());
  for (int k = 0; k < 40; ++k) {
    std::vector<Tensor> arguments;
    for (int i = 0; i < 4; ++i)
      arguments.push_back(ScalarOf(ElementType::kF32, (k * 7 + i * 3) % 11 - 5.25));
    auto expected = oracle::CallRegion(body, arguments);
    ASSERT_TRUE(expected.ok()) << expected.status();
    auto got = prepared.Call(arguments);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_TRUE(prepared.prepared());
    ASSERT_EQ(got->size(), expected->size());
    for (size_t j = 0; j < got->size(); ++j) {
      EXPECT_EQ((*got)[j], (*expected)[j]) << "call " << k << " result " << j;
    }
  }
}

// Arguments of other types than the first call's go through the interpreter
// again (and are verified there) rather than through cases built for f32.
TEST(PreparedRegionTest, OtherArgumentTypesAreNotRunOnTheFirstCallsCases) {
  Region body = RegionOf({"tensor<f32>", "tensor<f32>"}, "tensor<i1>", R"(
  %p = stablehlo.compare LT, %a0, %a1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  func.return %p : tensor<i1>)");
  oracle::PreparedRegion prepared(body);
  const std::vector<Tensor> floats = {ScalarOf(ElementType::kF32, 1),
                                      ScalarOf(ElementType::kF32, 2)};
  const std::vector<Tensor> ints = {ScalarOf(ElementType::kSI32, 3),
                                    ScalarOf(ElementType::kSI32, 2)};
  for (const auto* arguments : {&floats, &ints, &floats}) {
    auto expected = oracle::CallRegion(body, *arguments);
    auto got = prepared.Call(*arguments);
    ASSERT_TRUE(expected.ok() && got.ok()) << expected.status() << " " << got.status();
    ASSERT_EQ(got->size(), 1u);
    EXPECT_EQ((*got)[0], (*expected)[0]);
  }
}

// A body the spec forbids fails at its first call, and at every later one
// (it is never prepared), with the interpreter's message.
TEST(PreparedRegionTest, AnInvalidBodyFailsEveryCall) {
  Region body = RegionOf({"tensor<i32>", "tensor<i32>"}, "tensor<i1>", R"(
  %p = stablehlo.compare LT, %a0, %a1, FLOAT : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %p : tensor<i1>)");
  oracle::PreparedRegion prepared(body);
  const std::vector<Tensor> arguments = {ScalarOf(ElementType::kSI32, 1),
                                         ScalarOf(ElementType::kSI32, 2)};
  auto expected = oracle::CallRegion(body, arguments);
  ASSERT_FALSE(expected.ok());
  for (int k = 0; k < 3; ++k) {
    auto got = prepared.Call(arguments);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status(), expected.status());
    EXPECT_FALSE(prepared.prepared());
  }
}

}  // namespace
}  // namespace hlocheck
