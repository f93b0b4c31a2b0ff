// The CPU adapter's dot_general against a naive reference written from the
// spec's formula: every element type, with operands for which the
// reference is exact, over every class of dimension numbers and shape
// (batching, several contracting pairs, rank 0 and 1, empty dimensions).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/cpu_adapter.h"
#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

// ------------------------------------------------------------ dot_general

struct DotShape {
  Shape lhs, rhs;
  std::vector<int64_t> lhs_batch, rhs_batch, lhs_contract, rhs_contract;
};

std::vector<int64_t> FreeDims(const Shape& shape, const std::vector<int64_t>& batch,
                              const std::vector<int64_t>& contract) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contract.begin(), contract.end(), d) == contract.end()) {
      free.push_back(d);
    }
  }
  return free;
}

Shape DotResultShape(const DotShape& s) {
  Shape shape;
  for (int64_t d : s.lhs_batch) shape.push_back(s.lhs[d]);
  for (int64_t d : FreeDims(s.lhs, s.lhs_batch, s.lhs_contract)) shape.push_back(s.lhs[d]);
  for (int64_t d : FreeDims(s.rhs, s.rhs_batch, s.rhs_contract)) shape.push_back(s.rhs[d]);
  return shape;
}

// Calls term(result, lhs, rhs) with the linear indices of every product the
// spec's formula sums into each result element.
template <typename Fn>
void ForEachTerm(const DotShape& s, Fn term) {
  const std::vector<int64_t> lhs_free = FreeDims(s.lhs, s.lhs_batch, s.lhs_contract);
  const std::vector<int64_t> rhs_free = FreeDims(s.rhs, s.rhs_batch, s.rhs_contract);
  const std::vector<int64_t> ls = RowMajorStrides(s.lhs);
  const std::vector<int64_t> rs = RowMajorStrides(s.rhs);
  Shape contract;
  for (int64_t d : s.lhs_contract) contract.push_back(s.lhs[d]);
  const Shape result = DotResultShape(s);
  const size_t nb = s.lhs_batch.size();
  for (IndexIterator r(result); !r.done(); r.Next()) {
    int64_t lhs_base = 0;
    int64_t rhs_base = 0;
    for (size_t i = 0; i < nb; ++i) {
      lhs_base += r.index()[i] * ls[s.lhs_batch[i]];
      rhs_base += r.index()[i] * rs[s.rhs_batch[i]];
    }
    for (size_t j = 0; j < lhs_free.size(); ++j) lhs_base += r.index()[nb + j] * ls[lhs_free[j]];
    for (size_t j = 0; j < rhs_free.size(); ++j) {
      rhs_base += r.index()[nb + lhs_free.size() + j] * rs[rhs_free[j]];
    }
    for (IndexIterator k(contract); !k.done(); k.Next()) {
      int64_t lhs_offset = lhs_base;
      int64_t rhs_offset = rhs_base;
      for (size_t i = 0; i < contract.size(); ++i) {
        lhs_offset += k.index()[i] * ls[s.lhs_contract[i]];
        rhs_offset += k.index()[i] * rs[s.rhs_contract[i]];
      }
      term(r.linear(), lhs_offset, rhs_offset);
    }
  }
}

// The low BitWidth(T) bits of `bits`, sign- or zero-extended, as tensors
// store integers.
template <ElementType T>
ContainerT<T> Canonical(uint64_t bits) {
  constexpr int kBits = BitWidth(T);
  if (kBits < 64) {
    bits &= (uint64_t{1} << kBits) - 1;
    if (IsSignedInt(T) && (bits >> (kBits - 1)) != 0) bits |= ~uint64_t{0} << kBits;
  }
  return static_cast<ContainerT<T>>(bits);
}

// Random operand values for which the reference below is exact: any value
// for integers; for floats, small values every type holds exactly, whose
// products and sums float and double also hold exactly.
template <ElementType T>
Tensor DotOperand(const Shape& shape, std::mt19937_64& rng) {
  Tensor tensor(shape, T);
  std::vector<ContainerT<T>> pool;
  if constexpr (IsFloat(T) || IsComplex(T)) {
    constexpr ElementType kPart = T == ET::kComplexF32   ? ET::kF32
                                  : T == ET::kComplexF64 ? ET::kF64
                                                         : T;
    for (double v : {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, -0.5, -1.0, -2.0, -3.0, 4.0}) {
      uint8_t flags = 0;
      const uint64_t bits =
          EncodeFloat(Format(kPart), ExactValue::FromDouble(v), RoundingMode::kNearestEven, &flags);
      if (flags != 0) continue;
      if constexpr (IsComplex(T)) {
        const auto part = FloatFromBits<kPart>(bits);
        pool.push_back({part, part / 2});
      } else {
        pool.push_back(FloatFromBits<T>(bits));
      }
    }
  }
  for (auto& value : tensor.values<T>()) {
    if constexpr (IsBool(T)) {
      value = rng() & 1;
    } else if constexpr (IsInteger(T)) {
      value = Canonical<T>(rng());
    } else {
      value = pool[rng() % pool.size()];
    }
  }
  return tensor;
}

template <ElementType T>
Tensor DotReference(const DotShape& s, const Tensor& lhs, const Tensor& rhs) {
  Tensor result(DotResultShape(s), T);
  auto a = lhs.values<T>();
  auto b = rhs.values<T>();
  auto out = result.values<T>();
  if constexpr (IsBool(T)) {
    std::vector<uint8_t> acc(out.size(), 0);
    ForEachTerm(s, [&](int64_t r, int64_t i, int64_t j) { acc[r] |= (a[i] != 0 && b[j] != 0); });
    std::copy(acc.begin(), acc.end(), out.begin());
  } else if constexpr (IsInteger(T)) {
    std::vector<uint64_t> acc(out.size(), 0);
    ForEachTerm(s, [&](int64_t r, int64_t i, int64_t j) {
      acc[r] += static_cast<uint64_t>(a[i]) * static_cast<uint64_t>(b[j]);
    });
    for (size_t r = 0; r < acc.size(); ++r) out[r] = Canonical<T>(acc[r]);
  } else if constexpr (IsComplex(T)) {
    std::vector<std::complex<double>> acc(out.size());
    ForEachTerm(s, [&](int64_t r, int64_t i, int64_t j) {
      acc[r] += std::complex<double>(a[i]) * std::complex<double>(b[j]);
    });
    for (size_t r = 0; r < acc.size(); ++r) out[r] = ContainerT<T>(acc[r]);
  } else {
    std::vector<double> acc(out.size(), 0.0);
    ForEachTerm(s, [&](int64_t r, int64_t i, int64_t j) {
      acc[r] += ToDouble<T>(a[i]) * ToDouble<T>(b[j]);
    });
    for (size_t r = 0; r < acc.size(); ++r) {
      out[r] = FloatFromBits<T>(EncodeFloat(Format(T), ExactValue::FromDouble(acc[r])));
    }
  }
  return result;
}

const DotShape kDotShapes[] = {
    {{3, 4}, {4, 5}, {}, {}, {1}, {0}},                      // matmul
    {{4, 3}, {5, 4}, {}, {}, {0}, {1}},                      // both transposed
    {{3, 2, 4}, {4, 2, 5}, {1}, {1}, {2}, {0}},              // batch dimension in the middle
    {{2, 3, 4}, {4, 3, 5}, {}, {}, {1, 2}, {1, 0}},          // two contracting pairs, crossed
    {{2, 3, 4, 2}, {2, 4, 2, 3}, {0, 3}, {2, 0}, {1}, {3}},  // two batch pairs
    {{7}, {7}, {}, {}, {0}, {0}},                            // vector . vector -> rank 0
    {{}, {}, {}, {}, {}, {}},                                // scalar x scalar
    {{3, 4}, {4}, {}, {}, {1}, {0}},                         // matrix . vector
    {{2, 2}, {2, 2}, {}, {}, {}, {}},                        // outer product, K = 1
    {{3, 0}, {0, 4}, {}, {}, {1}, {0}},                      // K = 0: zeros
    {{0, 3}, {3, 4}, {}, {}, {1}, {0}},                      // M = 0
    {{0, 2, 3}, {0, 3, 2}, {0}, {0}, {2}, {1}},              // B = 0
    {{100, 3, 4}, {100, 4, 2}, {0}, {0}, {2}, {1}},          // many small batches
    {{400, 12, 12}, {400, 12, 12}, {0}, {0}, {2}, {1}},      // small batches over threads
    {{70, 80}, {80, 90}, {}, {}, {1}, {0}},                  // one product split over threads
};

template <ElementType T>
void CheckDotShapes() {
  std::mt19937_64 rng(static_cast<uint64_t>(T) + 1);
  for (const DotShape& s : kDotShapes) {
    Tensor lhs = DotOperand<T>(s.lhs, rng);
    Tensor rhs = DotOperand<T>(s.rhs, rng);
    Tensor want = DotReference<T>(s, lhs, rhs);
    Tensor got = RunOne(
        Dot(lhs, rhs, want.shape(), s.lhs_batch, s.rhs_batch, s.lhs_contract, s.rhs_contract));
    const std::string what = absl::StrCat(std::string(Name(T)), " ", lhs.type().ToString(), " x ",
                                          rhs.type().ToString());
    if constexpr (IsFloat(T)) {
      ExpectSameFloats<T>(Values<T>(got), Values<T>(want), what);
    } else {
      EXPECT_TRUE(got.BitwiseEquals(want)) << what;
    }
  }
}

TEST(CpuAdapterDotGeneralTest, EveryElementTypeAndShapeClassIsExact) {
  []<size_t... I>(std::index_sequence<I...>) {
    (CheckDotShapes<static_cast<ElementType>(I)>(), ...);
  }
  (std::make_index_sequence<kNumElementTypes>());
}

// A result type of its own: the operands widened to it, the products and
// sums in it (si8 x si8 -> si32 does not wrap; bf16 x bf16 -> f32 is exact
// for these values).
TEST(CpuAdapterDotGeneralTest, AResultTypeOfItsOwnAccumulatesInIt) {
  Case ints =
      Dot(Make<ET::kSI8>({2}, {100, 100}), Make<ET::kSI8>({2}, {100, 1}), {}, {}, {}, {0}, {0});
  ints.result_types[0].element_type = ET::kSI32;
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(ints);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<ET::kSI32>((*r)[0]), std::vector<int32_t>{10100});
  // A narrower result: the operand type's product, rounded (or wrapped) once.
  const float x = 1.0f + std::ldexp(1.0f, -12);
  Case narrowing =
      Dot(Make<ET::kF32>({2}, {x, 2048}), Make<ET::kF32>({2}, {x, 1}), {}, {}, {}, {0}, {0});
  narrowing.result_types[0].element_type = ET::kBF16;
  Tensor bf16 = RunOne(narrowing);
  float got;
  ConvertElements(ET::kBF16, bf16.raw(), ET::kF32, &got, 1);
  EXPECT_EQ(got, 2048.0f);  // 2049.0005 rounds to bf16's 2048
  Case wrapping =
      Dot(Make<ET::kSI32>({2}, {300, 2}), Make<ET::kSI32>({2}, {1, 1}), {}, {}, {}, {0}, {0});
  wrapping.result_types[0].element_type = ET::kSI8;
  EXPECT_EQ(Values<ET::kSI8>(RunOne(wrapping)), std::vector<int8_t>{46});
  Case mixed =
      Dot(Make<ET::kSI32>({2}, {3, 2}), Make<ET::kSI32>({2}, {1, 1}), {}, {}, {}, {0}, {0});
  mixed.result_types[0].element_type = ET::kF16;
  EXPECT_FALSE(SharedAdapter().Supports(mixed).supported);
}

TEST(CpuAdapterDotGeneralTest, F32WithinTheAccumulationBound) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const DotShape s = {{2, 150, 130}, {2, 130, 170}, {0}, {0}, {2}, {1}};
  Tensor lhs(s.lhs, ET::kF32);
  Tensor rhs(s.rhs, ET::kF32);
  for (float& v : lhs.values<ET::kF32>()) v = uniform(rng);
  for (float& v : rhs.values<ET::kF32>()) v = uniform(rng);
  Tensor got = RunOne(Dot(lhs, rhs, DotResultShape(s), {0}, {0}, {2}, {1}));
  std::vector<double> exact(got.num_elements(), 0.0);
  std::vector<double> magnitude(got.num_elements(), 0.0);
  auto a = lhs.values<ET::kF32>();
  auto b = rhs.values<ET::kF32>();
  ForEachTerm(s, [&](int64_t r, int64_t i, int64_t j) {
    exact[r] += double{a[i]} * b[j];
    magnitude[r] += std::abs(double{a[i]} * b[j]);
  });
  auto out = got.values<ET::kF32>();
  const double gamma = 131 * std::ldexp(1.0, -24);  // Higham's gamma_K for K = 130, and margin
  for (size_t r = 0; r < exact.size(); ++r) {
    ASSERT_LE(std::abs(out[r] - exact[r]), gamma * magnitude[r]) << r;
  }
}

// dot_general's algorithm: x = 1 + 2^-10 is not a bf16 (1 is), so x * x
// shows how each algorithm rounds and splits its operands.
Case SquareWithAlgorithm(const std::string& precision, const std::string& accumulation,
                         int64_t components, int64_t products) {
  const float x = 1.0f + std::ldexp(1.0f, -10);
  Case c = Dot(Make<ET::kF32>({1}, {x}), Make<ET::kF32>({1}, {x}), {}, {}, {}, {0}, {0});
  ::hlocheck::testing::SetDotAlgorithm(c, precision, accumulation, components, products);
  return c;
}

TEST(CpuAdapterDotGeneralTest, AnAlgorithmRoundsAndSplitsTheOperands) {
  auto square = [](const std::string& precision, int64_t components, int64_t products) {
    return Values<ET::kF32>(RunOne(SquareWithAlgorithm(precision, "f32", components, products)))
        .at(0);
  };
  const float x = 1.0f + std::ldexp(1.0f, -10);
  EXPECT_EQ(square("bf16", 1, 1), 1.0f);                         // both rounded to 1
  EXPECT_EQ(square("bf16", 2, 3), 1.0f + std::ldexp(1.0f, -9));  // 1 + 2 * 2^-10
  EXPECT_EQ(square("bf16", 3, 6), x * x);                        // i + j <= 2 takes x1 * x1 too
  EXPECT_EQ(square("bf16", 2, 4), x * x);                        // every product
  EXPECT_EQ(square("tf32", 1, 1), x * x);                        // x is a tf32
  EXPECT_EQ(square("f32", 1, 1), x * x);
  EXPECT_EQ(Values<ET::kF32>(RunOne(SquareWithAlgorithm("bf16", "f64", 1, 1))).at(0), 1.0f);
}

TEST(CpuAdapterDotGeneralTest, AlgorithmsItCannotRunAreUnsupportedWithTheReason) {
  for (const Case& c :
       {SquareWithAlgorithm("bf16", "bf16", 1, 1), SquareWithAlgorithm("bf16", "f32", 3, 5),
        SquareWithAlgorithm("f64", "f32", 1, 1)}) {
    const AdapterSupport support = SharedAdapter().Supports(c);
    EXPECT_FALSE(support.supported);
    EXPECT_NE(support.reason.find("algorithm <"), std::string::npos) << support.reason;
  }
  // Integer operands keep their exact products whatever the algorithm.
  Case ints =
      Dot(Make<ET::kSI32>({2}, {3, 5}), Make<ET::kSI32>({2}, {7, 11}), {}, {}, {}, {0}, {0});
  ints.attributes = SquareWithAlgorithm("tf32", "f32", 1, 1).attributes;
  EXPECT_EQ(Values<ET::kSI32>(RunOne(ints)), std::vector<int32_t>{76});
}

TEST(CpuAdapterTest, ThreadCountComesFromTheOptions) {
  EXPECT_EQ(CpuAdapter(AdapterOptions(3)).threads(), 3);
  EXPECT_EQ(CpuAdapter(AdapterOptions(0)).threads(),
            std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
  // One thread gives the same exact results.
  CpuAdapter single{AdapterOptions(1)};
  std::mt19937_64 rng(17);
  Tensor lhs = DotOperand<ET::kSI32>({40, 50}, rng);
  Tensor rhs = DotOperand<ET::kSI32>({50, 60}, rng);
  Case c = Dot(lhs, rhs, {40, 60}, {}, {}, {1}, {0});
  EXPECT_TRUE(RunOne(c, single).BitwiseEquals(RunOne(c)));
}

}  // namespace
}  // namespace hlocheck::cpu_test
