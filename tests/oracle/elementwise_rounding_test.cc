// Rounding ops: ceil/floor/round_* against libm on every f16 and many f32
// values; reduce_precision against an independent bit-level computation
// (XLA's algorithm on the bit pattern) for many exponent/mantissa sizes.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <random>

#include "core/element_value.h"
#include "tests/oracle/elementwise_test_util.h"

namespace hlocheck::testing {
namespace {

// XLA's ReducePrecision on the bits of an IEEE format (sign, e, m bits).
uint64_t ReducePrecisionBits(uint64_t x, int src_exponent_bits, int src_mantissa_bits,
                             int exponent_bits, int mantissa_bits) {
  const int total = 1 + src_exponent_bits + src_mantissa_bits;
  const uint64_t all = total == 64 ? ~uint64_t{0} : (uint64_t{1} << total) - 1;
  const uint64_t exponent_mask = ((uint64_t{1} << src_exponent_bits) - 1) << src_mantissa_bits;
  const uint64_t mantissa_mask = (uint64_t{1} << src_mantissa_bits) - 1;
  const bool is_nan = (x & exponent_mask) == exponent_mask && (x & mantissa_mask) != 0;
  uint64_t result = x;
  if (mantissa_bits < src_mantissa_bits) {
    const int drop = src_mantissa_bits - mantissa_bits;
    const uint64_t last_bit_mask = uint64_t{1} << drop;
    const uint64_t base_bias = (last_bit_mask >> 1) - 1;
    const uint64_t bias = ((result & last_bit_mask) >> drop) + base_bias;
    result = ((result + bias) & ~(last_bit_mask - 1)) & all;
  }
  if (exponent_bits < src_exponent_bits) {
    const uint64_t sign = uint64_t{1} << (total - 1);
    const int64_t bias = (int64_t{1} << (src_exponent_bits - 1)) - 1;
    const int64_t reduced_bias = (int64_t{1} << (exponent_bits - 1)) - 1;
    const uint64_t max_exponent = static_cast<uint64_t>(bias + reduced_bias) << src_mantissa_bits;
    const uint64_t min_exponent = static_cast<uint64_t>(bias - reduced_bias) << src_mantissa_bits;
    const uint64_t exponent = result & exponent_mask;
    if (exponent > max_exponent) {
      result = (result & sign) | exponent_mask;
    } else if (exponent <= min_exponent) {
      result = result & sign;
    }
  }
  if (is_nan && mantissa_bits == 0) {
    // No mantissa bit can hold a NaN: it becomes infinity of its sign (the
    // public interpreter's reduce_precision test expects +Inf for +NaN).
    return (x & (uint64_t{1} << (total - 1))) | exponent_mask;
  }
  return is_nan ? x : result;
}

void CheckReducePrecision(ElementType type, const std::vector<uint64_t>& inputs) {
  const FloatFormat& format = Format(type);
  Tensor x(Shape{static_cast<int64_t>(inputs.size())}, type);
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      for (size_t i = 0; i < inputs.size(); ++i) x.values<T>()[i] = FloatFromBits<T>(inputs[i]);
    }
  });
  for (int e = 1; e <= format.exponent_bits + 1; ++e) {
    for (int m = 0; m <= format.mantissa_bits + 1; ++m) {
      ResultExpectation r = RunSame("reduce_precision", {x},
                                    {{"exponent_bits", int64_t{e}}, {"mantissa_bits", int64_t{m}}});
      DispatchElementType(type, [&]<ElementType T>() {
        if constexpr (IsFloat(T)) {
          for (size_t i = 0; i < inputs.size(); ++i) {
            uint64_t expected =
                ReducePrecisionBits(inputs[i], format.exponent_bits, format.mantissa_bits, e, m);
            uint64_t actual = FloatBits<T>(r.reference.values<T>()[i]);
            bool both_nan = IsNaNBits(format, expected) && IsNaNBits(format, actual);
            ASSERT_TRUE(actual == expected || both_nan)
                << Name(type) << " e=" << e << " m=" << m << " x=0x" << std::hex << inputs[i]
                << ": 0x" << actual << " != 0x" << expected;
          }
        }
      });
    }
  }
}

TEST(ReducePrecisionTest, EveryF16AndBf16ValueMatchesTheBitLevelAlgorithm) {
  std::vector<uint64_t> all;
  for (uint64_t b = 0; b < 0x10000; b += 7) all.push_back(b);  // every 7th pattern
  for (uint64_t b : {0x0000, 0x8000, 0x7BFF, 0xFBFF, 0x7C00, 0x0001, 0x03FF, 0x0400})
    all.push_back(b);
  CheckReducePrecision(ElementType::kF16, all);
  CheckReducePrecision(ElementType::kBF16, all);
}

TEST(ReducePrecisionTest, RandomF32AndF64MatchTheBitLevelAlgorithm) {
  std::mt19937_64 random(5);
  std::vector<uint64_t> f32, f64;
  for (int i = 0; i < 3000; ++i) {
    f32.push_back(random() & 0xFFFFFFFF);
    f64.push_back(random());
  }
  for (uint64_t b : {0x7F7FFFFFull, 0x00000001ull, 0x007FFFFFull, 0x7F800000ull, 0x477FF000ull}) {
    f32.push_back(b);
  }
  f64.push_back(0x7FEFFFFFFFFFFFFFull);
  f64.push_back(0x0000000000000001ull);
  f64.push_back(std::bit_cast<uint64_t>(65519.0));
  f64.push_back(std::bit_cast<uint64_t>(65520.0));
  CheckReducePrecision(ElementType::kF32, f32);
  CheckReducePrecision(ElementType::kF64, f64);
}

TEST(ReducePrecisionTest, FormatsWithoutInfinityLeaveOverflowFree) {
  // f8E4M3FN: 448 rounded to one mantissa bit is 512, beyond its range; it
  // would be infinity, which the type lacks.
  Tensor x = Vector<ElementType::kF8E4M3FN>({0x7E, 0x38});
  ResultExpectation r = RunSame("reduce_precision", {x},
                                {{"exponent_bits", int64_t{4}}, {"mantissa_bits", int64_t{1}}});
  EXPECT_TRUE(IsFree(r, 0));
  EXPECT_FALSE(IsFree(r, 1));
  EXPECT_EQ(r.reference.values<ElementType::kF8E4M3FN>()[1], 0x38);
}

// ceil, floor, round_nearest_afz and round_nearest_even of every f16 value
// and of random f32 values, against libm in double.
TEST(RoundingTest, AgainstLibm) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  for (ElementType type : {ElementType::kF16, ElementType::kF32}) {
    const FloatFormat& format = Format(type);
    std::mt19937_64 random(9);
    const int n = 0x10000;
    std::vector<uint64_t> bits(n);
    for (int i = 0; i < n; ++i) bits[i] = type == ElementType::kF16 ? i : random() & 0xFFFFFFFF;
    Tensor x(Shape{n}, type);
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsFloat(T)) {
        for (int i = 0; i < n; ++i) x.values<T>()[i] = FloatFromBits<T>(bits[i]);
      }
    });
    struct Op {
      const char* name;
      double (*fn)(double);
    } ops[] = {{"ceil", [](double v) { return std::ceil(v); }},
               {"floor", [](double v) { return std::floor(v); }},
               {"round_nearest_afz", [](double v) { return std::round(v); }},
               {"round_nearest_even", [](double v) { return std::nearbyint(v); }}};
    for (const Op& op : ops) {
      ResultExpectation r = RunSame(op.name, {x});
      for (int i = 0; i < n; ++i) {
        double v = DecodeFloat(format, bits[i]).ToDouble();
        double expected = op.fn(v);
        uint64_t actual_bits = DispatchElementType(type, [&]<ElementType T>() -> uint64_t {
          if constexpr (IsFloat(T)) return FloatBits<T>(r.reference.values<T>()[i]);
          return 0;
        });
        double actual = DecodeFloat(format, actual_bits).ToDouble();
        if (std::isnan(expected)) {
          ASSERT_TRUE(std::isnan(actual));
        } else {
          ASSERT_EQ(std::bit_cast<uint64_t>(actual), std::bit_cast<uint64_t>(expected))
              << op.name << "(" << v << ")";
        }
      }
    }
  }
}

TEST(RoundingTest, FormatsWithoutZero) {
  // f8E8M0FNU holds 2^-127 .. 2^127 only: floor(2^-1) = 0 does not exist.
  ResultExpectation r = RunSame("floor", {Vector<ElementType::kF8E8M0FNU>({126, 127, 128})});
  EXPECT_TRUE(IsFree(r, 0));
  EXPECT_EQ(r.reference.values<ElementType::kF8E8M0FNU>()[1], 127);
  EXPECT_EQ(r.reference.values<ElementType::kF8E8M0FNU>()[2], 128);
}

}  // namespace
}  // namespace hlocheck::testing
