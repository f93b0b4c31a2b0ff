// The CUDA kernels' float codec (adapters/cuda/kernels/float_codec.h), built
// here as host code, against core's DecodeFloat / EncodeFloat: the format
// table, every bit pattern of every narrow float type, and encoding of every
// representable value, its neighbours, the rounding midpoints, the overflow
// and underflow thresholds, the special values and random doubles.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "adapters/cuda/kernels/float_codec.h"
#include "core/element_type.h"
#include "core/exact_value.h"

namespace hlocheck {
namespace {

using cuda::MiniFloat;

// The factories are usable in constant expressions and the struct is POD.
static_assert(std::is_trivial_v<MiniFloat> && std::is_standard_layout_v<MiniFloat>);
static_assert(cuda::F16().mantissa_bits == 10 && cuda::BF16().bias == 127);
static_assert(cuda::MiniFloatMaxFiniteBits(cuda::F8E4M3FN()) == 0x7e);
static_assert(cuda::MiniFloatNanBits(cuda::F8E5M2FNUZ()) == 0x80);

struct NarrowType {
  ElementType type;
  MiniFloat format;
};

MiniFloat Factory(ElementType type) {
  switch (type) {
    case ElementType::kF4E2M1FN:
      return cuda::F4E2M1FN();
    case ElementType::kF6E2M3FN:
      return cuda::F6E2M3FN();
    case ElementType::kF6E3M2FN:
      return cuda::F6E3M2FN();
    case ElementType::kF8E3M4:
      return cuda::F8E3M4();
    case ElementType::kF8E4M3:
      return cuda::F8E4M3();
    case ElementType::kF8E4M3FN:
      return cuda::F8E4M3FN();
    case ElementType::kF8E4M3FNUZ:
      return cuda::F8E4M3FNUZ();
    case ElementType::kF8E4M3B11FNUZ:
      return cuda::F8E4M3B11FNUZ();
    case ElementType::kF8E5M2:
      return cuda::F8E5M2();
    case ElementType::kF8E5M2FNUZ:
      return cuda::F8E5M2FNUZ();
    case ElementType::kF8E8M0FNU:
      return cuda::F8E8M0FNU();
    case ElementType::kBF16:
      return cuda::BF16();
    case ElementType::kF16:
      return cuda::F16();
    default:
      ADD_FAILURE() << "no factory for " << Name(type);
      return {};
  }
}

// Every float element type except f32 and f64, with its factory's format.
const std::vector<NarrowType>& NarrowTypes() {
  static const std::vector<NarrowType> types = [] {
    std::vector<NarrowType> out;
    for (ElementType type : AllElementTypes()) {
      if (!IsFloat(type) || type == ElementType::kF32 || type == ElementType::kF64) continue;
      out.push_back({type, Factory(type)});
    }
    return out;
  }();
  return types;
}

std::string Hex(uint64_t bits) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, bits);
  return buffer;
}

// Same bits, or both NaN of the same sign.
bool SameDouble(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) {
    return std::isnan(a) && std::isnan(b) && std::signbit(a) == std::signbit(b);
  }
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

uint32_t CoreEncode(const FloatFormat& format, double value) {
  return static_cast<uint32_t>(EncodeFloat(format, ExactValue::FromDouble(value)));
}

TEST(CudaFloatCodecTest, ThirteenNarrowTypes) { EXPECT_EQ(NarrowTypes().size(), 13u); }

TEST(CudaFloatCodecTest, FactoriesEqualCoreFormats) {
  for (const NarrowType& t : NarrowTypes()) {
    SCOPED_TRACE(Name(t.type));
    const FloatFormat& core = Format(t.type);
    const MiniFloat& mine = t.format;
    EXPECT_EQ(mine.exponent_bits, core.exponent_bits);
    EXPECT_EQ(mine.mantissa_bits, core.mantissa_bits);
    EXPECT_EQ(mine.bias, core.bias);
    EXPECT_EQ(mine.has_sign, core.has_sign);
    EXPECT_EQ(mine.has_infinity, core.has_infinity);
    EXPECT_EQ(mine.has_zero_and_subnormals, core.has_zero_and_subnormals);
    EXPECT_EQ(mine.nan_encoding, static_cast<int>(core.nan_encoding));
    // The derived properties too.
    EXPECT_EQ(cuda::MiniFloatTotalBits(mine), core.total_bits());
    EXPECT_EQ(cuda::MiniFloatTotalBits(mine), BitWidth(t.type));
    EXPECT_EQ(cuda::MiniFloatSignMask(mine), core.sign_mask());
    EXPECT_EQ(cuda::MiniFloatHasNegativeZero(mine), core.has_negative_zero());
    EXPECT_EQ(cuda::MiniFloatMaxFiniteBits(mine), core.max_finite_bits());
    if (core.has_nan()) {
      EXPECT_EQ(cuda::MiniFloatNanBits(mine), core.nan_bits());
    }
    if (core.has_infinity) {
      EXPECT_EQ(cuda::MiniFloatInfinityBits(mine), core.infinity_bits());
    }
  }
}

TEST(CudaFloatCodecTest, DecodeEveryBitPattern) {
  for (const NarrowType& t : NarrowTypes()) {
    SCOPED_TRACE(Name(t.type));
    const FloatFormat& core = Format(t.type);
    const uint32_t count = uint32_t{1} << core.total_bits();
    int failures = 0;
    for (uint32_t bits = 0; bits < count && failures < 10; ++bits) {
      const double expected = DecodeFloat(core, bits).ToDouble();
      const double as_double = cuda::DecodeMiniFloat(t.format, bits);
      const float as_float = cuda::DecodeMiniFloatToFloat(t.format, bits);
      bool ok = SameDouble(as_double, expected) &&
                SameDouble(static_cast<double>(as_float), expected) &&
                cuda::MiniFloatIsNaNBits(t.format, bits) == IsNaNBits(core, bits) &&
                cuda::MiniFloatIsInfinityBits(t.format, bits) == IsInfinityBits(core, bits);
      if (!ok) {
        ++failures;
        ADD_FAILURE() << "bits " << Hex(bits) << ": core " << expected << ", DecodeMiniFloat "
                      << as_double << ", DecodeMiniFloatToFloat " << as_float;
      }
    }
  }
}

// The values of every narrow type (NaN and Inf included) and, per type, the
// points where rounding changes: midpoints of consecutive values, the
// overflow threshold, the underflow thresholds; with their double
// neighbours and negations.
std::vector<double> EncodeCandidates() {
  std::vector<double> base;
  for (const NarrowType& t : NarrowTypes()) {
    const FloatFormat& core = Format(t.type);
    const uint32_t count = uint32_t{1} << core.total_bits();
    std::vector<double> finite;
    for (uint32_t bits = 0; bits < count; ++bits) {
      double v = DecodeFloat(core, bits).ToDouble();
      base.push_back(v);
      if (std::isfinite(v)) finite.push_back(v);
    }
    std::sort(finite.begin(), finite.end());
    for (size_t i = 0; i + 1 < finite.size(); ++i) {
      base.push_back(finite[i] + (finite[i + 1] - finite[i]) / 2);  // exact in double
    }
    // Overflow threshold: the largest finite value plus half its ulp; and
    // points on both sides of the next binade.
    const double max = DecodeFloat(core, core.max_finite_bits()).ToDouble();
    const double ulp = std::ldexp(1.0, std::ilogb(max) - core.mantissa_bits);
    for (double v : {max + ulp / 2, max + ulp, max + ulp * 3 / 2, max + 2 * ulp, 2 * max,
                     std::ldexp(1.0, std::ilogb(max) + 1), 4 * max, max * 1e10}) {
      base.push_back(v);
    }
    // Underflow: fractions of the smallest positive value.
    const double min = DecodeFloat(core, 1).ToDouble();
    for (double v : {min, min / 2, min / 4, min * 3 / 4, min * 3 / 2, min / 1024, min * 1e-30}) {
      base.push_back(v);
    }
  }
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (double v : {0.0, inf, nan, std::numeric_limits<double>::signaling_NaN(),
                   std::bit_cast<double>(uint64_t{0x7ff0000000000001}),
                   std::bit_cast<double>(uint64_t{0x7fffffffffffffff}),
                   std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                   std::numeric_limits<double>::denorm_min(), 1.0, 1e300, 1e-300}) {
    base.push_back(v);
  }

  std::vector<double> out;
  for (double v : base) {
    for (double w : {v, std::nextafter(v, inf), std::nextafter(v, -inf)}) {
      out.push_back(w);
      out.push_back(-w);
    }
  }
  // Deduplicate by bit pattern.
  std::vector<uint64_t> bits;
  bits.reserve(out.size());
  for (double v : out) bits.push_back(std::bit_cast<uint64_t>(v));
  std::sort(bits.begin(), bits.end());
  bits.erase(std::unique(bits.begin(), bits.end()), bits.end());
  out.clear();
  for (uint64_t b : bits) out.push_back(std::bit_cast<double>(b));
  return out;
}

// Exact comparison, NaN results included: the codec reproduces core's NaN
// sign rules, so there is no "any NaN" leeway.
TEST(CudaFloatCodecTest, EncodeMatchesCoreOnBoundaryCandidates) {
  const std::vector<double> candidates = EncodeCandidates();
  EXPECT_GT(candidates.size(), 500000u);
  for (const NarrowType& t : NarrowTypes()) {
    SCOPED_TRACE(Name(t.type));
    const FloatFormat& core = Format(t.type);
    int failures = 0;
    for (double v : candidates) {
      const uint32_t expected = CoreEncode(core, v);
      const uint32_t actual = cuda::EncodeMiniFloat(t.format, v);
      if (actual != expected && ++failures <= 10) {
        ADD_FAILURE() << "value " << v << " (" << Hex(std::bit_cast<uint64_t>(v)) << "): core "
                      << Hex(expected) << ", EncodeMiniFloat " << Hex(actual);
      }
    }
    EXPECT_EQ(failures, 0);
  }
}

// Every bit pattern decodes and re-encodes as core does it: to itself, except
// that NaN patterns become the format's canonical NaN of their sign.
TEST(CudaFloatCodecTest, RoundTripMatchesCore) {
  for (const NarrowType& t : NarrowTypes()) {
    SCOPED_TRACE(Name(t.type));
    const FloatFormat& core = Format(t.type);
    const uint32_t count = uint32_t{1} << core.total_bits();
    for (uint32_t bits = 0; bits < count; ++bits) {
      const uint32_t expected = static_cast<uint32_t>(EncodeFloat(core, DecodeFloat(core, bits)));
      const uint32_t actual =
          cuda::EncodeMiniFloat(t.format, cuda::DecodeMiniFloat(t.format, bits));
      ASSERT_EQ(actual, expected) << "bits " << Hex(bits);
      if (!IsNaNBits(core, bits)) {
        EXPECT_EQ(actual, bits) << "bits " << Hex(bits);
      }
    }
  }
}

// The special cases the header documents, spelled out.
TEST(CudaFloatCodecTest, DocumentedSpecialCases) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // f8E8M0FNU: no zero, no sign.
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E8M0FNU(), 0.0), 0x00u);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E8M0FNU(), -0.0), 0x00u);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E8M0FNU(), -1.0), 0xffu);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E8M0FNU(), -nan), 0xffu);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E8M0FNU(), -inf), 0xffu);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E8M0FNU(), 1e-300), 0x00u);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E8M0FNU(), 3.0), 0x81u);  // tie 2|4 -> 4
  EXPECT_EQ(cuda::DecodeMiniFloatToFloat(cuda::F8E8M0FNU(), 0x00), std::ldexp(1.0f, -127));
  // Finite-only: NaN becomes +0, Inf saturates.
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F4E2M1FN(), -nan), 0x0u);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F4E2M1FN(), -inf), 0xfu);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F4E2M1FN(), 100.0), 0x7u);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F4E2M1FN(), -0.0), 0x8u);
  // FNUZ: one unsigned NaN, no -0.
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E4M3FNUZ(), -0.0), 0x00u);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E4M3FNUZ(), -1e-30), 0x00u);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E4M3FNUZ(), -inf), 0x80u);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E4M3FNUZ(), -nan), 0x80u);
  // f8E4M3FN: signed NaN on overflow; 464 is the tie between 448 and 480.
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E4M3FN(), -inf), 0xffu);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E4M3FN(), 464.0), 0x7eu);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F8E4M3FN(), std::nextafter(464.0, inf)), 0x7fu);
  // IEEE: f16 overflow threshold 65520.
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F16(), 65519.99), 0x7bffu);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F16(), -65520.0), 0xfc00u);
  EXPECT_EQ(cuda::EncodeMiniFloat(cuda::F16(), -nan), 0xfe00u);
}

// A fixed-seed sweep of doubles with exponents near the narrow formats'
// ranges and arbitrary mantissas, and of arbitrary bit patterns.
TEST(CudaFloatCodecTest, EncodeMatchesCoreOnRandomDoubles) {
  std::mt19937_64 rng(20240611);
  std::uniform_int_distribution<int> exponent(-160, 140);
  for (int i = 0; i < 400000; ++i) {
    const uint64_t r = rng();
    double v;
    if (i % 4 == 0) {
      v = std::bit_cast<double>(r);
    } else {
      const uint64_t biased = static_cast<uint64_t>(exponent(rng) + 1023);
      // Short mantissas land on ties more often.
      uint64_t mantissa = r & ((uint64_t{1} << 52) - 1);
      if (i % 4 == 2) mantissa &= ~((uint64_t{1} << (r >> 58)) - 1) << 12;
      v = std::bit_cast<double>((r & (uint64_t{1} << 63)) | (biased << 52) | mantissa);
    }
    for (const NarrowType& t : NarrowTypes()) {
      ASSERT_EQ(cuda::EncodeMiniFloat(t.format, v), CoreEncode(Format(t.type), v))
          << Name(t.type) << " value " << v << " (" << Hex(std::bit_cast<uint64_t>(v)) << ")";
    }
  }
}

RC_GTEST_PROP(CudaFloatCodecProperty, EncodeMatchesCoreOnRandomBitPatterns, (uint64_t bits)) {
  const double v = std::bit_cast<double>(bits);
  for (const NarrowType& t : NarrowTypes()) {
    RC_ASSERT(cuda::EncodeMiniFloat(t.format, v) == CoreEncode(Format(t.type), v));
  }
}

RC_GTEST_PROP(CudaFloatCodecProperty, EncodeMatchesCoreNearNarrowRanges, ()) {
  const bool negative = *rc::gen::arbitrary<bool>();
  const int exponent = *rc::gen::inRange(-160, 141);
  const uint64_t mantissa = *rc::gen::arbitrary<uint64_t>() & ((uint64_t{1} << 52) - 1);
  const double v = std::bit_cast<double>((negative ? uint64_t{1} << 63 : 0) |
                                         (static_cast<uint64_t>(exponent + 1023) << 52) | mantissa);
  for (const NarrowType& t : NarrowTypes()) {
    RC_ASSERT(cuda::EncodeMiniFloat(t.format, v) == CoreEncode(Format(t.type), v));
  }
}

RC_GTEST_PROP(CudaFloatCodecProperty, DecodeMatchesCore, (uint16_t raw)) {
  for (const NarrowType& t : NarrowTypes()) {
    const FloatFormat& core = Format(t.type);
    const uint32_t bits = raw & ((uint32_t{1} << core.total_bits()) - 1);
    RC_ASSERT(
        SameDouble(cuda::DecodeMiniFloat(t.format, bits), DecodeFloat(core, bits).ToDouble()));
  }
}

}  // namespace
}  // namespace hlocheck
