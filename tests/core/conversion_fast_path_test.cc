// The conversion layer's fast paths (core/element_value.cc) against its
// exact path: a float converted to f32 or f64 where the target holds it
// exactly goes through the hardware instead of an ExactValue, and
// RoundedToFloatType(f32, x) rounds with the hardware. Both must give the
// exact path's bits and flags: every pattern of every float format of up to
// 16 bits, and random f32 and f64 patterns (specials, subnormals and values
// beyond f32's range among them).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"

namespace hlocheck {
namespace {

// ConvertElements' answer and the exact path's for one source element:
// equal bits and equal flags, or a failure naming the pattern.
template <ElementType From, ElementType To>
void ExpectSameAsExactPath(uint64_t pattern) {
  ContainerT<From> source;
  if constexpr (IsFloat(From)) source = FloatFromBits<From>(pattern);
  ContainerT<To> fast{};
  uint8_t fast_flags = 0;
  ConvertElements(From, &source, To, &fast, 1, &fast_flags, RoundingMode::kNearestEven);
  uint8_t exact_flags = 0;
  const ContainerT<To> exact =
      FromExact<To>(ToExact<From>(source), RoundingMode::kNearestEven, &exact_flags);
  ASSERT_EQ(FloatBits<To>(fast), FloatBits<To>(exact))
      << Name(From) << " pattern 0x" << std::hex << pattern << " to " << Name(To);
  ASSERT_EQ(fast_flags, exact_flags)
      << Name(From) << " pattern 0x" << std::hex << pattern << " to " << Name(To);
}

template <ElementType From>
void EveryPatternToF32AndF64() {
  const int bits = Format(From).total_bits();
  for (uint64_t pattern = 0; pattern < (uint64_t{1} << bits); ++pattern) {
    ExpectSameAsExactPath<From, ElementType::kF32>(pattern);
    ExpectSameAsExactPath<From, ElementType::kF64>(pattern);
  }
}

TEST(ConversionFastPathTest, EveryNarrowFloatToF32AndF64IsTheExactPaths) {
  int formats = 0;
  for (ElementType type : AllElementTypes()) {
    if (!IsFloat(type) || Format(type).total_bits() > 16) continue;
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsFloat(T)) EveryPatternToF32AndF64<T>();
    });
    ++formats;
  }
  EXPECT_GE(formats, 10);  // f16, bf16, the f8, f6 and f4 formats
}

TEST(ConversionFastPathTest, RandomF32AndF64AreTheExactPaths) {
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t r = rng();
    ExpectSameAsExactPath<ElementType::kF32, ElementType::kF64>(r & 0xFFFFFFFF);
    ExpectSameAsExactPath<ElementType::kF64, ElementType::kF32>(r);
    // Doubles that f32 holds exactly (the fast path's case), and their
    // neighbours (which it does not).
    const double held = static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(r)));
    const uint64_t held_bits = std::bit_cast<uint64_t>(held);
    for (uint64_t pattern : {held_bits, held_bits + 1, held_bits - 1}) {
      ExpectSameAsExactPath<ElementType::kF64, ElementType::kF32>(pattern);
    }
  }
}

TEST(ConversionFastPathTest, RoundedToF32IsTheExactPaths) {
  std::mt19937_64 rng(7);
  const double largest = static_cast<double>(std::numeric_limits<float>::max());
  std::vector<double> values = {0.0,
                                -0.0,
                                largest,
                                -largest,
                                std::nextafter(largest, HUGE_VAL),
                                std::ldexp(1.0, -149),
                                std::ldexp(1.0, -150),
                                std::ldexp(1.5, -150),
                                std::ldexp(1.0, -126),
                                HUGE_VAL};
  for (int i = 0; i < 200000; ++i) values.push_back(std::bit_cast<double>(rng()));
  for (double value : values) {
    uint8_t flags = 0;
    const float exact = FromExact<ElementType::kF32>(ExactValue::FromDouble(value),
                                                     RoundingMode::kNearestEven, &flags);
    const double rounded = RoundedToFloatType(ElementType::kF32, value);
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(rounded));
      continue;
    }
    ASSERT_EQ(std::bit_cast<uint64_t>(rounded), std::bit_cast<uint64_t>(static_cast<double>(exact)))
        << std::hexfloat << value;
  }
}

// ToDouble of a float type of at most 16 bits reads a table built from
// DecodeFloat: every container value gives the decoded value's bits.
TEST(ConversionFastPathTest, NarrowFloatToDoubleIsTheDecodedValue) {
  int formats = 0;
  for (ElementType type : AllElementTypes()) {
    if (!IsFloat(type) || Format(type).total_bits() > 16) continue;
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsFloat(T) && sizeof(ContainerT<T>) <= 2) {
        for (uint64_t pattern = 0; pattern < (uint64_t{1} << Format(T).total_bits()); ++pattern) {
          const double decoded = DecodeFloat(Format(T), pattern).ToDouble();
          const double read = ToDouble<T>(FloatFromBits<T>(pattern));
          ASSERT_EQ(std::bit_cast<uint64_t>(read), std::bit_cast<uint64_t>(decoded))
              << Name(T) << " pattern 0x" << std::hex << pattern;
        }
        ++formats;
      }
    });
  }
  EXPECT_GE(formats, 13);
}

// ExactValue::ToDouble places a value that is a double with ldexp, and
// rounds any other through EncodeFloat: the same bits as EncodeFloat for
// values at the edges of double's range and beyond.
TEST(ConversionFastPathTest, ExactValueToDoubleIsEncodeFloats) {
  std::mt19937_64 rng(11);
  const FloatFormat& f64 = Format(ElementType::kF64);
  for (int i = 0; i < 400000; ++i) {
    const int width = 1 + static_cast<int>(rng() % 64);
    const uint64_t significand = rng() >> (64 - width);
    const int32_t exponent = static_cast<int32_t>(rng() % 2400) - 1200 - width;
    const ExactValue value = ExactValue::Finite((rng() & 1) != 0, significand, exponent);
    ASSERT_EQ(std::bit_cast<uint64_t>(value.ToDouble()), EncodeFloat(f64, value))
        << value.DebugString();
  }
  for (int32_t exponent : {-1075, -1074, -1073, 970, 971, 972, 1023, 1024, INT32_MAX / 2}) {
    for (uint64_t significand : {uint64_t{1}, uint64_t{3}, (uint64_t{1} << 53) - 1}) {
      const ExactValue value = ExactValue::Finite(false, significand, exponent);
      ASSERT_EQ(std::bit_cast<uint64_t>(value.ToDouble()), EncodeFloat(f64, value))
          << value.DebugString();
    }
  }
}

// EncodeDouble's fast path against EncodeFloat of the same value, bits and
// flags, in every float format narrower than f64: every value of the
// format, the midpoints between neighbours (ties) and the doubles next to
// them, and random doubles of every exponent.
TEST(ConversionFastPathTest, EncodeDoubleIsEncodeFloats) {
  std::mt19937_64 rng(13);
  auto expect_same = [](const FloatFormat& f, ElementType type, double value) {
    uint8_t fast_flags = 0;
    uint8_t exact_flags = 0;
    const uint64_t fast = EncodeDouble(f, value, RoundingMode::kNearestEven, &fast_flags);
    const uint64_t exact =
        EncodeFloat(f, ExactValue::FromDouble(value), RoundingMode::kNearestEven, &exact_flags);
    ASSERT_EQ(fast, exact) << Name(type) << " " << std::hexfloat << value;
    ASSERT_EQ(fast_flags, exact_flags) << Name(type) << " " << std::hexfloat << value;
  };
  int formats = 0;
  for (ElementType type : AllElementTypes()) {
    if (!IsFloat(type) || type == ElementType::kF64) continue;
    const FloatFormat& f = Format(type);
    ++formats;
    std::vector<double> values;
    if (f.total_bits() <= 16) {
      for (uint64_t bits = 0; bits < (uint64_t{1} << f.total_bits()); ++bits) {
        const double v = DecodeFloat(f, bits).ToDouble();
        if (std::isfinite(v)) values.push_back(v);
      }
    }
    std::sort(values.begin(), values.end());
    const size_t count = values.size();
    for (size_t i = 0; i + 1 < count; ++i) {
      const double mid = values[i] + (values[i + 1] - values[i]) / 2;  // exact
      for (double v : {values[i], mid, std::nextafter(mid, -HUGE_VAL),
                       std::nextafter(mid, HUGE_VAL), std::nextafter(values[i], HUGE_VAL)}) {
        expect_same(f, type, v);
        expect_same(f, type, -v);
      }
    }
    for (int i = 0; i < 20000; ++i) {
      const double v = std::ldexp(std::uniform_real_distribution<double>(1, 2)(rng),
                                  static_cast<int>(rng() % 300) - 150);
      expect_same(f, type, (rng() & 1) ? -v : v);
      expect_same(f, type, std::bit_cast<double>(rng()));
    }
  }
  EXPECT_GE(formats, 14);
}

}  // namespace
}  // namespace hlocheck
