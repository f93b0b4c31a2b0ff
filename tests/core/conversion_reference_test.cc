// Checks of the MPFR reference itself (tests/core/conversion_reference.h),
// so that agreement between it and the layer means something: it agrees
// with the hardware's f64 -> f32 rounding, with the compiler's _Float16
// conversions where the compiler has them, and with hand-derived values.
#include <gtest/gtest.h>

#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <random>

#include "tests/core/conversion_reference.h"

namespace hlocheck {
namespace {

using conversion_ref::Expected;
using conversion_ref::Hex;
using conversion_ref::Ref;
using conversion_ref::RefFormat;
using conversion_ref::Rounder;

double RandomDoubleNear(std::mt19937_64& rng, int lo, int hi) {
  const uint64_t r = rng();
  if (r % 4 == 0) return std::bit_cast<double>(rng());
  const int exponent = lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
  uint64_t mantissa = rng() >> 12;
  if (r % 4 == 1) mantissa &= ~((uint64_t{1} << (52 - 12 - (r >> 8) % 16)) - 1);  // short
  double v = std::ldexp(1.0 + std::ldexp(static_cast<double>(mantissa), -52), exponent);
  return (r >> 5) & 1 ? -v : v;
}

bool SameValue(const Expected& e, double hardware) {
  if (std::isnan(hardware)) return e.kind == Expected::kNaN;
  return e.kind == Expected::kValue && e.value == hardware &&
         std::signbit(e.value) == std::signbit(hardware);
}

TEST(ConversionReferenceSelfTest, AgreesWithHardwareF64ToF32) {
  std::mt19937_64 rng(7);
  Rounder rounder;
  const RefFormat& f32 = Ref(ElementType::kF32);
  int failures = 0;
  for (int i = 0; i < 2000000 && failures < 10; ++i) {
    const double v = RandomDoubleNear(rng, -152, 129);
    const double hardware = static_cast<double>(static_cast<float>(v));
    if (!SameValue(rounder.RoundDouble(f32, v), hardware)) {
      ++failures;
      ADD_FAILURE() << "f64 " << Hex(v) << " -> f32: reference "
                    << conversion_ref::DescribeExpected(rounder.RoundDouble(f32, v))
                    << ", hardware " << Hex(hardware);
    }
  }
}

#ifdef __FLT16_MAX__
TEST(ConversionReferenceSelfTest, AgreesWithCompilerFloat16) {
  std::mt19937_64 rng(8);
  Rounder rounder;
  const RefFormat& f16 = Ref(ElementType::kF16);
  int failures = 0;
  for (int i = 0; i < 1000000 && failures < 10; ++i) {
    const double v = RandomDoubleNear(rng, -27, 17);
    const double from_double = static_cast<double>(static_cast<_Float16>(v));
    const float f = static_cast<float>(v);
    const double from_float = static_cast<double>(static_cast<_Float16>(f));
    if (!SameValue(rounder.RoundDouble(f16, v), from_double)) {
      ++failures;
      ADD_FAILURE() << "f64 " << Hex(v) << " -> f16: reference "
                    << conversion_ref::DescribeExpected(rounder.RoundDouble(f16, v))
                    << ", compiler " << Hex(from_double);
    }
    if (!SameValue(rounder.RoundDouble(f16, static_cast<double>(f)), from_float)) {
      ++failures;
      ADD_FAILURE() << "f32 " << Hex(f) << " -> f16: reference "
                    << conversion_ref::DescribeExpected(
                           rounder.RoundDouble(f16, static_cast<double>(f)))
                    << ", compiler " << Hex(from_float);
    }
  }
}
#endif

TEST(ConversionReferenceSelfTest, HandDerivedValues) {
  Rounder r;
  auto value = [&](ElementType t, double v) {
    Expected e = r.RoundDouble(Ref(t), v);
    return e.kind == Expected::kValue ? e.value : std::nan("");
  };
  auto kind = [&](ElementType t, double v) { return r.RoundDouble(Ref(t), v).kind; };
  using ET = ElementType;
  EXPECT_EQ(value(ET::kF8E4M3FN, 464), 448);
  EXPECT_EQ(kind(ET::kF8E4M3FN, 465), Expected::kNaN);
  EXPECT_EQ(kind(ET::kF8E4M3FN, -1e9), Expected::kNaN);
  EXPECT_EQ(value(ET::kF16, 65519.99), 65504);
  EXPECT_EQ(value(ET::kF16, 65520), HUGE_VAL);
  EXPECT_EQ(value(ET::kF16, -65520), -HUGE_VAL);
  EXPECT_EQ(value(ET::kF8E5M2, 61440), HUGE_VAL);  // 57344 + 4096: tie, odd -> up
  EXPECT_EQ(value(ET::kF8E5M2FNUZ, 61439), 57344);
  EXPECT_EQ(kind(ET::kF8E5M2FNUZ, 61440), Expected::kNaN);
  EXPECT_EQ(value(ET::kF4E2M1FN, 100), 6);
  EXPECT_EQ(value(ET::kF4E2M1FN, -100), -6);
  EXPECT_EQ(value(ET::kF4E2M1FN, 0.25), 0);
  EXPECT_EQ(value(ET::kF4E2M1FN, 0.3), 0.5);
  EXPECT_EQ(value(ET::kF4E2M1FN, 5), 4);  // tie between 4 and 6 -> even (4)
  EXPECT_EQ(value(ET::kF6E3M2FN, 30), 28);
  EXPECT_EQ(value(ET::kF8E8M0FNU, 1.5), 2);
  EXPECT_EQ(value(ET::kF8E8M0FNU, 3), 4);
  EXPECT_EQ(value(ET::kF8E8M0FNU, 1.4999), 1);
  EXPECT_EQ(value(ET::kF8E8M0FNU, 0x1.7p127), 0x1p127);
  EXPECT_EQ(kind(ET::kF8E8M0FNU, 0x1.8p127), Expected::kNaN);
  EXPECT_EQ(kind(ET::kF8E8M0FNU, -1), Expected::kUnrepresentable);
  EXPECT_EQ(kind(ET::kF8E8M0FNU, 0), Expected::kUnrepresentable);
  const double fnuz_zero = value(ET::kF8E4M3FNUZ, -0x1p-20);
  EXPECT_EQ(fnuz_zero, 0);
  EXPECT_FALSE(std::signbit(fnuz_zero));
  EXPECT_TRUE(std::signbit(value(ET::kF8E4M3FN, -0x1p-20)));
  EXPECT_TRUE(std::signbit(value(ET::kF16, -0.0)));
  EXPECT_EQ(value(ET::kF16, 0x1p-25), 0);
  EXPECT_EQ(value(ET::kF16, 0x1.8p-25), 0x1p-24);
  EXPECT_EQ(value(ET::kF16, 1 + 0x1p-11 + 0x1p-40), 1 + 0x1p-10);
  EXPECT_EQ(value(ET::kBF16, 0x1.FFp127), HUGE_VAL);
  EXPECT_EQ(value(ET::kBF16, 0x1.FEFFFFp127), 0x1.FEp127);
}

}  // namespace
}  // namespace hlocheck
