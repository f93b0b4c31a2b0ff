// The CPU adapter against the spec's own examples, hand-checked values for
// every class of element type, and references written here (naive index
// loops, double arithmetic) that share no code with the adapter's kernels.
#include "adapters/cpu/cpu_adapter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adapters/adapter.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

// ------------------------------------------------------------ spec examples

TEST(CpuAdapterTest, AddSpecExample) {
  Tensor result = RunOne(Binary("add", Make<ET::kSI32>({2, 2}, {1, 2, 3, 4}),
                                Make<ET::kSI32>({2, 2}, {5, 6, 7, 8}), {{2, 2}, ET::kSI32}));
  EXPECT_EQ(Values<ET::kSI32>(result), (std::vector<int32_t>{6, 8, 10, 12}));
}

TEST(CpuAdapterTest, ExponentialSpecExamples) {
  Tensor result = RunOne(
      Unary("exponential", Make<ET::kF64>({2, 2}, {0.0, 1.0, 2.0, 3.0}), {{2, 2}, ET::kF64}));
  const std::vector<double> want = {1.0, 2.7182818284590451, 7.3890560989306504,
                                    20.085536923187668};
  std::vector<double> got = Values<ET::kF64>(result);
  const FloatFormat& f64 = Format(ET::kF64);
  for (int i = 0; i < 4; ++i) {
    // spec/ops/exponential.yaml allows f64 exp 1 ULP, complex parts 4.
    EXPECT_LE(UlpDistance(f64, std::bit_cast<uint64_t>(got[i]), std::bit_cast<uint64_t>(want[i])),
              1)
        << i;
  }
  EXPECT_EQ(got[0], 1.0);

  Tensor complex =
      RunOne(Unary("exponential", Make<ET::kComplexF64>({}, {{1.0, 2.0}}), {{}, ET::kComplexF64}));
  const std::complex<double> z = Values<ET::kComplexF64>(complex)[0];
  EXPECT_LE(UlpDistance(f64, std::bit_cast<uint64_t>(z.real()),
                        std::bit_cast<uint64_t>(-1.1312043837568135)),
            4);
  EXPECT_LE(UlpDistance(f64, std::bit_cast<uint64_t>(z.imag()),
                        std::bit_cast<uint64_t>(2.4717266720048188)),
            4);
}

TEST(CpuAdapterTest, ConvertSpecExample) {
  Tensor result =
      RunOne(Unary("convert", Make<ET::kSI64>({3}, {-1, 0, 1}), {{3}, ET::kComplexF64}));
  EXPECT_EQ(Values<ET::kComplexF64>(result),
            (std::vector<std::complex<double>>{{-1.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}}));
}

TEST(CpuAdapterTest, TransposeSpecExample) {
  Case c = Unary("transpose", Make<ET::kSI32>({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}),
                 {{2, 3, 2}, ET::kSI32});
  c.attributes["permutation"] = std::vector<int64_t>{2, 1, 0};
  EXPECT_EQ(Values<ET::kSI32>(RunOne(c)),
            (std::vector<int32_t>{1, 7, 3, 9, 5, 11, 2, 8, 4, 10, 6, 12}));
}

TEST(CpuAdapterTest, SliceSpecExample) {
  Case c = Unary("slice", Make<ET::kSI64>({3, 4}, {0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1}),
                 {{2, 2}, ET::kSI64});
  c.attributes["start_indices"] = std::vector<int64_t>{1, 2};
  c.attributes["limit_indices"] = std::vector<int64_t>{3, 4};
  c.attributes["strides"] = std::vector<int64_t>{1, 1};
  EXPECT_EQ(Values<ET::kSI64>(RunOne(c)), (std::vector<int64_t>{1, 1, 1, 1}));
}

TEST(CpuAdapterTest, DotGeneralSpecExamples) {
  Tensor batched = RunOne(Dot(Make<ET::kSI64>({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
                              Make<ET::kSI64>({2, 2, 2}, {1, 0, 0, 1, 1, 0, 0, 1}), {2, 2, 2}, {0},
                              {0}, {2}, {1}));
  EXPECT_EQ(Values<ET::kSI64>(batched), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  // The interpreter corpus's "empty dims" case: an outer product.
  Tensor outer = RunOne(Dot(Make<ET::kSI64>({2, 2}, {1, 2, 3, 4}),
                            Make<ET::kSI64>({2, 2}, {1, 0, 0, 1}), {2, 2, 2, 2}, {}, {}, {}, {}));
  EXPECT_EQ(Values<ET::kSI64>(outer),
            (std::vector<int64_t>{1, 0, 0, 1, 2, 0, 0, 2, 3, 0, 0, 3, 4, 0, 0, 4}));
}

// ------------------------------------------------------------ add, by class

template <ElementType T>
std::vector<ContainerT<T>> AddValues(std::vector<ContainerT<T>> lhs,
                                     std::vector<ContainerT<T>> rhs) {
  const int64_t n = static_cast<int64_t>(lhs.size());
  Case c = Binary("add", Make<T>({n}, std::move(lhs)), Make<T>({n}, std::move(rhs)), {{n}, T});
  return Values<T>(RunOne(c));
}

TEST(CpuAdapterAddTest, BoolIsLogicalOr) {
  EXPECT_EQ(AddValues<ET::kI1>({0, 0, 1, 1}, {0, 1, 0, 1}), (std::vector<uint8_t>{0, 1, 1, 1}));
}

TEST(CpuAdapterAddTest, SubByteIntegersWrapAtTheirOwnWidth) {
  EXPECT_EQ(AddValues<ET::kSI2>({1, -2, -1, 1}, {1, -1, 1, 0}), (std::vector<int8_t>{-2, 1, 0, 1}));
  EXPECT_EQ(AddValues<ET::kSI4>({7, -8, 3, -8}, {1, -1, 4, -8}),
            (std::vector<int8_t>{-8, 7, 7, 0}));
  EXPECT_EQ(AddValues<ET::kUI2>({3, 2, 1}, {1, 3, 1}), (std::vector<uint8_t>{0, 1, 2}));
  EXPECT_EQ(AddValues<ET::kUI4>({15, 9, 7}, {1, 9, 8}), (std::vector<uint8_t>{0, 2, 15}));
}

TEST(CpuAdapterAddTest, FullWidthIntegersWrapAround) {
  EXPECT_EQ(AddValues<ET::kSI8>({127, -128, -1}, {1, -1, 1}), (std::vector<int8_t>{-128, 127, 0}));
  EXPECT_EQ(AddValues<ET::kSI16>({32767, -32768}, {1, -1}), (std::vector<int16_t>{-32768, 32767}));
  constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(AddValues<ET::kSI32>({kMax32, kMin32, 5}, {1, -1, -7}),
            (std::vector<int32_t>{kMin32, kMax32, -2}));
  constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(AddValues<ET::kSI64>({kMax64, kMin64, kMin64}, {1, -1, kMin64}),
            (std::vector<int64_t>{kMin64, kMax64, 0}));
  EXPECT_EQ(AddValues<ET::kUI8>({255, 200}, {1, 100}), (std::vector<uint8_t>{0, 44}));
  EXPECT_EQ(AddValues<ET::kUI16>({65535, 40000}, {1, 40000}), (std::vector<uint16_t>{0, 14464}));
  EXPECT_EQ(AddValues<ET::kUI32>({0xffffffffu}, {2}), (std::vector<uint32_t>{1}));
  EXPECT_EQ(AddValues<ET::kUI64>({~uint64_t{0}}, {~uint64_t{0}}),
            (std::vector<uint64_t>{~uint64_t{0} - 1}));
}

TEST(CpuAdapterAddTest, F32AndF64RoundToNearestEven) {
  const float f_max = std::numeric_limits<float>::max();
  const float f_inf = std::numeric_limits<float>::infinity();
  std::vector<float> f = AddValues<ET::kF32>(
      {1.0f, 1.0f, f_max, f_inf, -0.0f, 0.0f},
      {std::ldexp(1.0f, -24), std::ldexp(3.0f, -24), f_max, -f_inf, -0.0f, -0.0f});
  EXPECT_EQ(f[0], 1.0f);  // a tie, to even
  EXPECT_EQ(f[1], 1.0f + std::ldexp(1.0f, -22));
  EXPECT_EQ(f[2], f_inf);
  EXPECT_TRUE(std::isnan(f[3]));
  EXPECT_EQ(std::bit_cast<uint32_t>(f[4]), 0x80000000u);
  EXPECT_EQ(std::bit_cast<uint32_t>(f[5]), 0u);
  std::vector<double> d =
      AddValues<ET::kF64>({1.0, 1.0, -0.0}, {std::ldexp(1.0, -53), std::ldexp(3.0, -53), -0.0});
  EXPECT_EQ(d[0], 1.0);
  EXPECT_EQ(d[1], 1.0 + std::ldexp(1.0, -51));
  EXPECT_EQ(std::bit_cast<uint64_t>(d[2]), uint64_t{1} << 63);
}

TEST(CpuAdapterAddTest, HalfAndBfloat16RoundOnceToNearestEven) {
  // f16: 1 + 2^-11 is a tie (to 1); (1 + 2^-10) + 2^-11 ties to 1 + 2^-9;
  // max + max overflows to Inf; subnormals add exactly; -0 + -0 = -0.
  EXPECT_EQ(AddValues<ET::kF16>({0x3c00, 0x3c01, 0x7bff, 0x0001, 0x8000},
                                {0x1000, 0x1000, 0x7bff, 0x0001, 0x8000}),
            (std::vector<uint16_t>{0x3c00, 0x3c02, 0x7c00, 0x0002, 0x8000}));
  EXPECT_EQ(AddValues<ET::kBF16>({0x3f80, 0x3f81, 0x7f7f}, {0x3b80, 0x3b80, 0x7f7f}),
            (std::vector<uint16_t>{0x3f80, 0x3f82, 0x7f80}));
}

TEST(CpuAdapterAddTest, NarrowFloatsFollowEachFormatsOverflowRule) {
  EXPECT_EQ(AddValues<ET::kF8E4M3FN>({0x38, 0x7e}, {0x38, 0x7e}),
            (std::vector<uint8_t>{0x40, 0x7f}));  // 1+1=2; 448+448 -> NaN
  EXPECT_EQ(AddValues<ET::kF8E5M2>({0x3c, 0x7b}, {0x3c, 0x7b}),
            (std::vector<uint8_t>{0x40, 0x7c}));  // 57344+57344 -> Inf
  EXPECT_EQ(AddValues<ET::kF8E4M3>({0x38, 0x77}, {0x38, 0x77}),
            (std::vector<uint8_t>{0x40, 0x78}));  // 240+240 -> Inf
  EXPECT_EQ(AddValues<ET::kF8E3M4>({0x30, 0x6f}, {0x30, 0x6f}),
            (std::vector<uint8_t>{0x40, 0x70}));  // 15.5+15.5 -> Inf
  // FNUZ: 1 + -1 is +0 (there is no -0); the NaN is the -0 pattern.
  EXPECT_EQ(AddValues<ET::kF8E4M3FNUZ>({0x40, 0x80}, {0xc0, 0x40}),
            (std::vector<uint8_t>{0x00, 0x80}));
  EXPECT_EQ(AddValues<ET::kF8E5M2FNUZ>({0x40, 0x40}, {0x40, 0xc0}),
            (std::vector<uint8_t>{0x44, 0x00}));
  EXPECT_EQ(AddValues<ET::kF8E4M3B11FNUZ>({0x58}, {0x58}), (std::vector<uint8_t>{0x60}));
  // Finite-only formats saturate.
  EXPECT_EQ(AddValues<ET::kF4E2M1FN>({0x1, 0x7, 0xf}, {0x1, 0x7, 0xf}),
            (std::vector<uint8_t>{0x2, 0x7, 0xf}));  // 0.5+0.5=1; 6+6 -> 6; -6-6 -> -6
  EXPECT_EQ(AddValues<ET::kF6E2M3FN>({0x08, 0x1f}, {0x08, 0x08}),
            (std::vector<uint8_t>{0x10, 0x1f}));  // 1+1=2; 7.5+1 -> 7.5
  EXPECT_EQ(AddValues<ET::kF6E3M2FN>({0x1f}, {0x1f}), (std::vector<uint8_t>{0x1f}));
  // E8M0: powers of two; 2^127 + 2^127 overflows to NaN.
  EXPECT_EQ(AddValues<ET::kF8E8M0FNU>({0x7f, 0xfe, 0xff}, {0x7f, 0xfe, 0x7f}),
            (std::vector<uint8_t>{0x80, 0xff, 0xff}));
}

TEST(CpuAdapterAddTest, ComplexAddsParts) {
  EXPECT_EQ(AddValues<ET::kComplexF32>({{1.5f, -2.0f}}, {{0.25f, 4.0f}}),
            (std::vector<std::complex<float>>{{1.75f, 2.0f}}));
  EXPECT_EQ(AddValues<ET::kComplexF64>({{1.0, 1e300}}, {{std::ldexp(1.0, -53), 1e300}}),
            (std::vector<std::complex<double>>{{1.0, 2e300}}));
}

// Every pair of values of a type of at most 8 bits, against the exact sum
// rounded once (double holds these sums exactly, except for f8E8M0FNU, where
// double's 53 bits still make its rounding innocuous).
template <ElementType T>
void CheckAllPairsAdd() {
  const FloatFormat& format = Format(T);
  const uint64_t count = uint64_t{1} << format.total_bits();
  std::vector<uint8_t> lhs;
  std::vector<uint8_t> rhs;
  std::vector<uint8_t> want;
  for (uint64_t a = 0; a < count; ++a) {
    for (uint64_t b = 0; b < count; ++b) {
      lhs.push_back(static_cast<uint8_t>(a));
      rhs.push_back(static_cast<uint8_t>(b));
      const double sum = DecodeFloat(format, a).ToDouble() + DecodeFloat(format, b).ToDouble();
      want.push_back(static_cast<uint8_t>(EncodeFloat(format, ExactValue::FromDouble(sum))));
    }
  }
  ExpectSameFloats<T>(AddValues<T>(lhs, rhs), want, std::string(Name(T)));
}

TEST(CpuAdapterAddTest, NarrowFloatsAreCorrectlyRoundedForEveryPair) {
  CheckAllPairsAdd<ET::kF4E2M1FN>();
  CheckAllPairsAdd<ET::kF6E2M3FN>();
  CheckAllPairsAdd<ET::kF6E3M2FN>();
  CheckAllPairsAdd<ET::kF8E3M4>();
  CheckAllPairsAdd<ET::kF8E4M3>();
  CheckAllPairsAdd<ET::kF8E4M3FN>();
  CheckAllPairsAdd<ET::kF8E4M3FNUZ>();
  CheckAllPairsAdd<ET::kF8E4M3B11FNUZ>();
  CheckAllPairsAdd<ET::kF8E5M2>();
  CheckAllPairsAdd<ET::kF8E5M2FNUZ>();
  CheckAllPairsAdd<ET::kF8E8M0FNU>();
}

template <ElementType T>
void CheckRandomPairsAdd() {
  std::mt19937_64 rng(7);
  const FloatFormat& format = Format(T);
  std::vector<uint16_t> lhs;
  std::vector<uint16_t> rhs;
  std::vector<uint16_t> want;
  for (int i = 0; i < (1 << 20); ++i) {
    const uint64_t r = rng();
    const uint16_t a = static_cast<uint16_t>(r);
    // Half the pairs close in magnitude, where rounding decides most.
    const uint16_t b = (r >> 63) ? static_cast<uint16_t>(r >> 16)
                                 : static_cast<uint16_t>(a + static_cast<int8_t>(r >> 16));
    lhs.push_back(a);
    rhs.push_back(b);
    const double sum = DecodeFloat(format, a).ToDouble() + DecodeFloat(format, b).ToDouble();
    want.push_back(static_cast<uint16_t>(EncodeFloat(format, ExactValue::FromDouble(sum))));
  }
  ExpectSameFloats<T>(AddValues<T>(lhs, rhs), want, std::string(Name(T)));
}

TEST(CpuAdapterAddTest, HalfAndBfloat16AreCorrectlyRoundedOnRandomPairs) {
  CheckRandomPairsAdd<ET::kF16>();
  CheckRandomPairsAdd<ET::kBF16>();
}

// ------------------------------------------------------------ exponential

template <ElementType T>
std::vector<ContainerT<T>> ExpValues(std::vector<ContainerT<T>> values) {
  const int64_t n = static_cast<int64_t>(values.size());
  return Values<T>(RunOne(Unary("exponential", Make<T>({n}, std::move(values)), {{n}, T})));
}

// spec/ops/exponential.yaml allows f32 exp 2 ULP (Eigen's is within 1 in a
// baseline x86-64 build, 2 with AVX-512), at both ends of the range too.
TEST(CpuAdapterExponentialTest, F32WithinTwoUlpIncludingUnderflowOverflowAndSpecials) {
  std::vector<float> in = {0.0f,    -0.0f,   -INFINITY, INFINITY, NAN,    -87.5f, -100.0f,
                           -103.9f, -104.0f, -200.0f,   88.5f,    88.72f, 88.73f, 1e-30f};
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 4099) {
    in.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  }
  std::vector<float> got = ExpValues<ET::kF32>(in);
  const FloatFormat& f32 = Format(ET::kF32);
  for (size_t i = 0; i < in.size(); ++i) {
    const float want = static_cast<float>(std::exp(static_cast<double>(in[i])));
    ASSERT_LE(UlpDistance(f32, std::bit_cast<uint32_t>(got[i]), std::bit_cast<uint32_t>(want)), 2)
        << "exp(" << in[i] << ") = " << got[i] << ", want " << want;
  }
  EXPECT_EQ(std::bit_cast<uint32_t>(got[2]), 0u);  // exp(-inf) = +0
  EXPECT_EQ(got[1], 1.0f);
}

// The reference is expl rounded to double: off by up to 0.5 ULP + a hair.
TEST(CpuAdapterExponentialTest, F64WithinOneUlp) {
  std::vector<double> in = {0.0,    -0.0,   -INFINITY, INFINITY, NAN,   -708.5,
                            -720.0, -745.0, -746.0,    709.78,   709.79};
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> uniform(-750.0, 712.0);
  for (int i = 0; i < 200000; ++i) in.push_back(uniform(rng));
  std::vector<double> got = ExpValues<ET::kF64>(in);
  const FloatFormat& f64 = Format(ET::kF64);
  for (size_t i = 0; i < in.size(); ++i) {
    const double want = static_cast<double>(std::exp(static_cast<long double>(in[i])));
    ASSERT_LE(UlpDistance(f64, std::bit_cast<uint64_t>(got[i]), std::bit_cast<uint64_t>(want)), 1)
        << "exp(" << in[i] << ") = " << got[i] << ", want " << want;
  }
  EXPECT_EQ(std::bit_cast<uint64_t>(got[2]), 0u);
}

// Every value of a type narrower than f32 against the exponential rounded
// once from double, within the bound of spec/ops/exponential.yaml: 1 ULP
// for f16 and bf16, none for the types of 8 bits or fewer.
template <ElementType T>
void CheckExpEveryValue() {
  const FloatFormat& format = Format(T);
  const int64_t bound = BitWidth(T) == 16 ? 1 : 0;
  std::vector<ContainerT<T>> in;
  for (uint64_t bits = 0; bits < (uint64_t{1} << format.total_bits()); ++bits) {
    in.push_back(static_cast<ContainerT<T>>(bits));
  }
  std::vector<ContainerT<T>> got = ExpValues<T>(in);
  for (size_t i = 0; i < in.size(); ++i) {
    const double x = DecodeFloat(format, in[i]).ToDouble();
    const uint64_t want = EncodeFloat(format, ExactValue::FromDouble(std::exp(x)));
    ASSERT_LE(UlpDistance(format, got[i], want), bound)
        << Name(T) << " exp(" << x << "): got 0x" << std::hex << uint64_t{got[i]} << ", want 0x"
        << want;
  }
}

TEST(CpuAdapterExponentialTest, NarrowFloatsWithinTheirBoundForEveryValue) {
  CheckExpEveryValue<ET::kF4E2M1FN>();
  CheckExpEveryValue<ET::kF6E2M3FN>();
  CheckExpEveryValue<ET::kF6E3M2FN>();
  CheckExpEveryValue<ET::kF8E3M4>();
  CheckExpEveryValue<ET::kF8E4M3>();
  CheckExpEveryValue<ET::kF8E4M3FN>();
  CheckExpEveryValue<ET::kF8E4M3FNUZ>();
  CheckExpEveryValue<ET::kF8E4M3B11FNUZ>();
  CheckExpEveryValue<ET::kF8E5M2>();
  CheckExpEveryValue<ET::kF8E5M2FNUZ>();
  CheckExpEveryValue<ET::kF8E8M0FNU>();
  CheckExpEveryValue<ET::kF16>();
  CheckExpEveryValue<ET::kBF16>();
}

TEST(CpuAdapterExponentialTest, ComplexF32) {
  std::complex<float> got = ExpValues<ET::kComplexF32>({{1.0f, 2.0f}})[0];
  const std::complex<double> want = std::exp(std::complex<double>(1.0, 2.0));
  EXPECT_NEAR(got.real(), want.real(), 1e-6);
  EXPECT_NEAR(got.imag(), want.imag(), 1e-6);
}

// ------------------------------------------------------------ convert

TEST(CpuAdapterConvertTest, MatchesTheSharedConversionLayerForEveryPair) {
  std::mt19937_64 rng(11);
  constexpr int64_t kCount = 4097;  // odd, so blocks split unevenly
  for (ElementType from : AllElementTypes()) {
    Tensor operand = RandomBytes({kCount}, from, rng);
    for (ElementType to : AllElementTypes()) {
      Tensor want({kCount}, to);
      ConvertElements(from, operand.raw(), to, want.raw(), kCount);
      Tensor got = RunOne(Unary("convert", operand, {{kCount}, to}));
      EXPECT_TRUE(got.BitwiseEquals(want)) << Name(from) << " -> " << Name(to);
    }
  }
}

TEST(CpuAdapterConvertTest, HandChecked) {
  EXPECT_EQ(Values<ET::kF8E4M3FN>(RunOne(Unary(
                "convert", Make<ET::kF32>({3}, {1.0f, 500.0f, -0.0f}), {{3}, ET::kF8E4M3FN}))),
            (std::vector<uint8_t>{0x38, 0x7f, 0x80}));
  EXPECT_EQ(
      Values<ET::kSI4>(RunOne(Unary("convert", Make<ET::kF64>({2}, {-7.9, 3.5}), {{2}, ET::kSI4}))),
      (std::vector<int8_t>{-7, 3}));
  EXPECT_EQ(Values<ET::kI1>(
                RunOne(Unary("convert", Make<ET::kF32>({3}, {0.0f, -0.0f, 0.5f}), {{3}, ET::kI1}))),
            (std::vector<uint8_t>{0, 0, 1}));
}

// ------------------------------------------------------------ transpose and slice

// Element-by-element, with the spec's index formulas.
Tensor NaiveTranspose(const Tensor& operand, const std::vector<int64_t>& perm) {
  Shape shape(perm.size());
  for (size_t d = 0; d < perm.size(); ++d) shape[d] = operand.shape()[perm[d]];
  Tensor result(shape, operand.element_type());
  const int bytes = ContainerBytes(operand.element_type());
  const std::vector<int64_t> strides = RowMajorStrides(operand.shape());
  for (IndexIterator it(shape); !it.done(); it.Next()) {
    int64_t offset = 0;
    for (size_t d = 0; d < perm.size(); ++d) offset += it.index()[d] * strides[perm[d]];
    std::memcpy(result.bytes().data() + it.linear() * bytes,
                operand.bytes().data() + offset * bytes, bytes);
  }
  return result;
}

const ElementType kMovementTypes[] = {ET::kI1,  ET::kSI4,        ET::kBF16,       ET::kF32,
                                      ET::kF64, ET::kComplexF32, ET::kComplexF64, ET::kF8E8M0FNU};

Shape RandomShape(int rank, std::mt19937_64& rng) {
  Shape shape(rank);
  for (int64_t& dim : shape) dim = rank <= 3 ? 1 + rng() % 9 : 1 + rng() % 3;
  if (rank > 0 && rng() % 12 == 0) shape[rng() % rank] = 0;
  return shape;
}

TEST(CpuAdapterTransposeTest, MatchesNaiveReferenceForEveryContainerSizeAndRank) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 600; ++trial) {
    const ElementType type = kMovementTypes[trial % std::size(kMovementTypes)];
    const int rank = trial % 9;
    Tensor operand = RandomBytes(RandomShape(rank, rng), type, rng);
    std::vector<int64_t> perm(rank);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    Tensor want = NaiveTranspose(operand, perm);
    Case c = Unary("transpose", operand, want.type());
    c.attributes["permutation"] = perm;
    EXPECT_TRUE(RunOne(c).BitwiseEquals(want)) << operand.type().ToString() << " trial " << trial;
  }
}

TEST(CpuAdapterTransposeTest, LargeEnoughToUseEveryThread) {
  std::mt19937_64 rng(6);
  Tensor operand = RandomBytes({64, 33, 47}, ET::kF32, rng);
  for (const std::vector<int64_t>& perm :
       {std::vector<int64_t>{2, 0, 1}, {1, 0, 2}, {0, 2, 1}, {2, 1, 0}}) {
    Tensor want = NaiveTranspose(operand, perm);
    Case c = Unary("transpose", operand, want.type());
    c.attributes["permutation"] = perm;
    EXPECT_TRUE(RunOne(c).BitwiseEquals(want));
  }
}

// Transposes that move the innermost dimension are copied in 64 x 64 tiles:
// planes of several tiles with ragged edges, with and without outer
// dimensions, for every container size.
TEST(CpuAdapterTransposeTest, TiledPlanesWithRaggedEdges) {
  std::mt19937_64 rng(7);
  for (ElementType type : kMovementTypes) {
    for (const auto& [shape, perm] :
         std::vector<std::pair<Shape, std::vector<int64_t>>>{{{130, 70}, {1, 0}},
                                                             {{3, 130, 70}, {2, 0, 1}},
                                                             {{3, 130, 70}, {0, 2, 1}},
                                                             {{65, 2, 129}, {2, 1, 0}},
                                                             {{2, 64, 3, 65}, {3, 0, 2, 1}}}) {
      Tensor operand = RandomBytes(shape, type, rng);
      Tensor want = NaiveTranspose(operand, perm);
      Case c = Unary("transpose", operand, want.type());
      c.attributes["permutation"] = perm;
      EXPECT_TRUE(RunOne(c).BitwiseEquals(want)) << operand.type().ToString();
    }
  }
}

TEST(CpuAdapterSliceTest, MatchesNaiveReferenceForEveryContainerSizeAndRank) {
  std::mt19937_64 rng(9);
  for (int trial = 0; trial < 600; ++trial) {
    const ElementType type = kMovementTypes[trial % std::size(kMovementTypes)];
    const int rank = trial % 9;
    Tensor operand = RandomBytes(RandomShape(rank, rng), type, rng);
    std::vector<int64_t> start(rank), limit(rank), strides(rank);
    Shape shape(rank);
    for (int d = 0; d < rank; ++d) {
      const int64_t dim = operand.shape()[d];
      const bool whole = rng() % 3 == 0;
      start[d] = whole ? 0 : static_cast<int64_t>(rng() % (dim + 1));
      limit[d] = whole ? dim : start[d] + static_cast<int64_t>(rng() % (dim - start[d] + 1));
      strides[d] = whole ? 1 : 1 + static_cast<int64_t>(rng() % 3);
      shape[d] = (limit[d] - start[d] + strides[d] - 1) / strides[d];
    }
    Tensor want(shape, type);
    const int bytes = ContainerBytes(type);
    const std::vector<int64_t> operand_strides = RowMajorStrides(operand.shape());
    for (IndexIterator it(shape); !it.done(); it.Next()) {
      int64_t offset = 0;
      for (int d = 0; d < rank; ++d) {
        offset += (start[d] + it.index()[d] * strides[d]) * operand_strides[d];
      }
      std::memcpy(want.bytes().data() + it.linear() * bytes,
                  operand.bytes().data() + offset * bytes, bytes);
    }
    Case c = Unary("slice", operand, want.type());
    c.attributes["start_indices"] = start;
    c.attributes["limit_indices"] = limit;
    c.attributes["strides"] = strides;
    EXPECT_TRUE(RunOne(c).BitwiseEquals(want)) << operand.type().ToString() << " trial " << trial;
  }
}

// ------------------------------------------------------------ supports and errors

TEST(CpuAdapterSupportsTest, SaysWhatItCannotRun) {
  CpuAdapter& adapter = SharedAdapter();
  Case unknown = Unary("not_an_op", Tensor({2, 2}, ET::kF32), {{2, 2}, ET::kF32});
  EXPECT_FALSE(adapter.Supports(unknown).supported);
  EXPECT_FALSE(adapter.Run(unknown).ok());
  // uniform_quantize to a float type: declined, and an error if run anyway.
  Case unquantized = Unary("uniform_quantize", Tensor({2, 2}, ET::kF32), {{2, 2}, ET::kF32});
  EXPECT_FALSE(adapter.Supports(unquantized).supported);
  EXPECT_FALSE(adapter.Run(unquantized).ok());

  AdapterSupport exp_int =
      adapter.Supports(Unary("exponential", Tensor({2}, ET::kSI32), {{2}, ET::kSI32}));
  EXPECT_FALSE(exp_int.supported);
  EXPECT_NE(exp_int.reason.find("si32"), std::string::npos) << exp_int.reason;

  // A result type that neither holds the operands' values nor is a narrower
  // type of their kind.
  Case mixed = Dot(Tensor({2}, ET::kSI32), Tensor({2}, ET::kSI32), {}, {}, {}, {0}, {0});
  mixed.result_types[0].element_type = ET::kF16;
  EXPECT_FALSE(adapter.Supports(mixed).supported);

  Case rank9 = Unary("transpose", Tensor(Shape(9, 1), ET::kF32), {Shape(9, 1), ET::kF32});
  rank9.attributes["permutation"] = std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_FALSE(adapter.Supports(rank9).supported);

  std::vector<std::string> ops = CpuAdapter::Ops();
  for (const char* op : {"add", "exponential", "convert", "transpose", "slice", "dot_general",
                         "cosine", "divide", "compare", "select", "reduce_precision"}) {
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
  }
  EXPECT_EQ(std::find(ops.begin(), ops.end(), "not_an_op"), ops.end());
  for (ElementType type : AllElementTypes()) {
    Case add = Binary("add", Tensor({1}, type), Tensor({1}, type), {{1}, type});
    EXPECT_TRUE(adapter.Supports(add).supported) << Name(type);
  }
}

TEST(CpuAdapterSupportsTest, MalformedCasesAreErrorsNotCrashes) {
  CpuAdapter& adapter = SharedAdapter();
  Case perm = Unary("transpose", Tensor({2, 3}, ET::kF32), {{3, 2}, ET::kF32});
  perm.attributes["permutation"] = std::vector<int64_t>{0, 0};
  EXPECT_EQ(adapter.Run(perm).status().code(), absl::StatusCode::kInvalidArgument);
  perm.attributes.clear();
  EXPECT_EQ(adapter.Run(perm).status().code(), absl::StatusCode::kInvalidArgument);

  Case slice = Unary("slice", Tensor({4}, ET::kSI8), {{2}, ET::kSI8});
  slice.attributes["start_indices"] = std::vector<int64_t>{3};
  slice.attributes["limit_indices"] = std::vector<int64_t>{5};
  slice.attributes["strides"] = std::vector<int64_t>{1};
  EXPECT_EQ(adapter.Run(slice).status().code(), absl::StatusCode::kInvalidArgument);

  Case dot = Dot(Tensor({2, 3}, ET::kF32), Tensor({4, 2}, ET::kF32), {2, 2}, {}, {}, {1}, {0});
  EXPECT_EQ(adapter.Run(dot).status().code(), absl::StatusCode::kInvalidArgument);
  Case wrong_result =
      Dot(Tensor({2, 3}, ET::kF32), Tensor({3, 2}, ET::kF32), {2, 3}, {}, {}, {1}, {0});
  EXPECT_EQ(adapter.Run(wrong_result).status().code(), absl::StatusCode::kInvalidArgument);

  Case add = Binary("add", Tensor({2}, ET::kF32), Tensor({3}, ET::kF32), {{2}, ET::kF32});
  EXPECT_EQ(adapter.Run(add).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(AdapterRegistryTest, ListsAndCreatesTheCpuAdapter) {
  std::vector<AdapterDescription> list = ListAdapters();
  EXPECT_TRUE(std::any_of(list.begin(), list.end(),
                          [](const AdapterDescription& d) { return d.name == "cpu"; }));
  absl::StatusOr<std::unique_ptr<Adapter>> cpu = CreateAdapter("cpu", AdapterOptions{});
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  EXPECT_EQ((*cpu)->name(), "cpu");
  absl::StatusOr<std::unique_ptr<Adapter>> none = CreateAdapter("nope", AdapterOptions{});
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(none.status().message().find("cpu"), std::string_view::npos);
}

}  // namespace
}  // namespace hlocheck::cpu_test
