// The fast correctly rounded exp (Ziv's test over libm) must give exactly
// what MPFR alone gives, in every float type, while rarely needing MPFR.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/exact_value.h"
#include "oracle/precise/complex.h"
#include "oracle/precise/elementary.h"

namespace hlocheck::precise {
namespace {

void ExpectSameAsMpfr(const FloatFormat& format, double x) {
  uint64_t fast = CorrectlyRounded<Exp>(format, x);
  uint64_t slow = ByMpfr<Exp>(format, x);
  bool both_nan = IsNaNBits(format, fast) && IsNaNBits(format, slow);
  ASSERT_TRUE(fast == slow || both_nan)
      << "exp(" << x << "): fast 0x" << std::hex << fast << ", MPFR 0x" << slow;
}

// Every input of every type of up to 16 bits.
TEST(ExpCorrectlyRoundedTest, ExhaustiveForNarrowTypes) {
  for (ElementType type : AllElementTypes()) {
    if (!IsFloat(type) || BitWidth(type) > 16) continue;
    const FloatFormat& format = Format(type);
    for (uint64_t bits = 0; bits < (uint64_t{1} << format.total_bits()); ++bits) {
      ExpectSameAsMpfr(format, DecodeFloat(format, bits).ToDouble());
    }
  }
}

TEST(ExpCorrectlyRoundedTest, RandomF32AndF64) {
  std::mt19937_64 random(20261121);
  const FloatFormat& f32 = Format(ElementType::kF32);
  const FloatFormat& f64 = Format(ElementType::kF64);
  std::uniform_real_distribution<double> in_range(-750.0, 720.0);
  for (int i = 0; i < 200000; ++i) {
    // Random bit patterns, and values where exp is finite and non-zero.
    double x32 = DecodeFloat(f32, random() & 0xFFFFFFFF).ToDouble();
    ExpectSameAsMpfr(f32, x32);
    ExpectSameAsMpfr(f32, static_cast<float>(in_range(random) / 8));
    ExpectSameAsMpfr(f64, std::bit_cast<double>(random()));
    ExpectSameAsMpfr(f64, in_range(random));
  }
}

TEST(ExpCorrectlyRoundedTest, SpecialValuesAndRangeEdges) {
  for (ElementType type : AllElementTypes()) {
    if (!IsFloat(type)) continue;
    const FloatFormat& format = Format(type);
    for (double x : {0.0, -0.0, 1.0, -1.0, HUGE_VAL, -HUGE_VAL, std::nan(""), 88.72283905206835,
                     88.72283935546875, 709.782712893384, 709.7827128933841, -745.1332191019411,
                     -745.1332191019412, -103.97207708399179, 1e-300, -1e-300}) {
      ExpectSameAsMpfr(format, x);
    }
  }
  const FloatFormat& f64 = Format(ElementType::kF64);
  EXPECT_EQ(CorrectlyRounded<Exp>(f64, 1.0), std::bit_cast<uint64_t>(2.7182818284590451));
  EXPECT_EQ(CorrectlyRounded<Exp>(f64, HUGE_VAL), f64.infinity_bits());
  EXPECT_EQ(CorrectlyRounded<Exp>(f64, -HUGE_VAL), 0u);
  // f8E4M3FN has no Inf: exp(10) = 22026 overflows to NaN.
  const FloatFormat& e4m3fn = Format(ElementType::kF8E4M3FN);
  EXPECT_TRUE(IsNaNBits(e4m3fn, CorrectlyRounded<Exp>(e4m3fn, 10.0)));
}

TEST(ExpCorrectlyRoundedTest, TheFastPathDecidesAlmostAlways) {
  ZivStatistics before = ThreadZivStatistics(ZivFunction::kExp);
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> in_range(-80.0, 80.0);
  for (int i = 0; i < 100000; ++i) {
    CorrectlyRounded<Exp>(Format(ElementType::kF32), static_cast<float>(in_range(random)));
    CorrectlyRounded<Exp>(Format(ElementType::kF64), in_range(random));
  }
  ZivStatistics after = ThreadZivStatistics(ZivFunction::kExp);
  uint64_t fast = after.fast - before.fast;
  uint64_t mpfr = after.mpfr - before.mpfr;
  EXPECT_GT(fast, 199000u);
  EXPECT_LT(mpfr, 1000u) << "fast " << fast << ", MPFR " << mpfr;
}

TEST(ComplexExpTest, SpecExampleAndCorpusValue) {
  const FloatFormat& f64 = Format(ElementType::kF64);
  ComplexBits z = ComplexExp(f64, 1.0, 2.0);
  EXPECT_EQ(std::bit_cast<double>(z.real), -1.1312043837568135);
  EXPECT_EQ(std::bit_cast<double>(z.imag), 2.4717266720048188);
  // exp(x + 0i) has an exactly zero imaginary part even when e^x overflows.
  z = ComplexExp(f64, 800.0, 0.0);
  EXPECT_EQ(z.real, f64.infinity_bits());
  EXPECT_EQ(z.imag, 0u);
}

}  // namespace
}  // namespace hlocheck::precise
