// Exhaustive checks of every bit pattern of the float formats of at most 16
// bits, and of every value of the integer types of at most 16 bits, against
// an independent decoding (tests/core/conversion_reference.h).
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "tests/core/conversion_reference.h"

namespace hlocheck {
namespace {

using conversion_ref::AllRefFormats;
using conversion_ref::FloatContainerBytes;
using conversion_ref::Hex;
using conversion_ref::ReadBits;
using conversion_ref::RefDecode;
using conversion_ref::RefFormat;
using conversion_ref::SmallRefFormats;
using conversion_ref::Special;

bool SameDouble(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

// The layer's format table agrees with the independent one and with the
// published largest finite values.
TEST(ConversionDecodeTest, FormatTableMatchesPublishedDefinitions) {
  for (const RefFormat& ref : AllRefFormats()) {
    SCOPED_TRACE(ref.name);
    EXPECT_EQ(Name(ref.type), ref.name);
    const FloatFormat& f = Format(ref.type);
    EXPECT_EQ(f.exponent_bits, ref.exponent_bits);
    EXPECT_EQ(f.mantissa_bits, ref.mantissa_bits);
    EXPECT_EQ(f.bias, ref.bias);
    EXPECT_EQ(f.has_sign, ref.has_sign());
    EXPECT_EQ(f.has_infinity, ref.has_inf());
    EXPECT_EQ(f.has_nan(), ref.has_nan());
    EXPECT_EQ(f.has_zero_and_subnormals, ref.has_zero());
    EXPECT_EQ(f.has_negative_zero(), ref.has_negative_zero());
    EXPECT_EQ(f.total_bits(), ref.total_bits());
    EXPECT_EQ(f.min_normal_exponent(), ref.emin());
    EXPECT_EQ(ref.MaxFinite(), ref.published_max);
    EXPECT_EQ(DecodeFloat(f, f.max_finite_bits()).ToDouble(), ref.published_max);
    if (f.has_nan()) {
      EXPECT_TRUE(std::isnan(DecodeFloat(f, f.nan_bits()).ToDouble()));
    }
    if (f.has_infinity) {
      EXPECT_EQ(DecodeFloat(f, f.infinity_bits()).ToDouble(), HUGE_VAL);
    }
  }
}

// Every bit pattern: DecodeFloat equals the independent decoding; encoding
// it back gives the same bits; and so do the conversions to f32 and f64
// and back through ConvertElement.
TEST(ConversionDecodeTest, ExhaustiveSmallFloatRoundTrip) {
  int64_t checked = 0;
  for (const RefFormat* ref : SmallRefFormats()) {
    SCOPED_TRACE(ref->name);
    const FloatFormat& f = Format(ref->type);
    int failures = 0;
    const uint64_t count = uint64_t{1} << ref->total_bits();
    for (uint64_t bits = 0; bits < count && failures < 20; ++bits) {
      ++checked;
      const double expected = RefDecode(*ref, bits);
      const bool expected_nan = std::isnan(expected);
      char where[64];
      std::snprintf(where, sizeof where, "%s bits=0x%" PRIx64, ref->name, bits);

      // Classification and decoding.
      ExactValue decoded = DecodeFloat(f, bits);
      double got = decoded.ToDouble();
      bool ok = SameDouble(got, expected);
      ok &= IsNaNBits(f, bits) == expected_nan;
      ok &= IsInfinityBits(f, bits) == std::isinf(expected);
      ok &= decoded.is_nan() == expected_nan;
      ok &= decoded.is_infinity() == std::isinf(expected);
      ok &= decoded.is_zero() == (expected == 0);
      if (!ok) {
        ++failures;
        ADD_FAILURE() << where << ": DecodeFloat gives " << Hex(got) << " ("
                      << decoded.DebugString() << "), expected " << Hex(expected);
        continue;
      }

      // Encoding the exact value gives the same bits back, exactly.
      uint8_t flags = 0;
      uint64_t encoded = EncodeFloat(f, decoded, RoundingMode::kNearestEven, &flags);
      bool encode_ok = expected_nan ? std::isnan(RefDecode(*ref, encoded)) : encoded == bits;
      if (!expected_nan) encode_ok &= flags == kConversionExact;
      if (!encode_ok) {
        ++failures;
        ADD_FAILURE() << where << ": EncodeFloat(DecodeFloat) gives bits 0x" << std::hex << encoded
                      << std::dec << " flags " << int{flags};
      }

      // Through ConvertElement to f32 and f64 and back.
      for (ElementType wide : {ElementType::kF32, ElementType::kF64}) {
        alignas(8) unsigned char in[8] = {};
        std::memcpy(in, &bits, FloatContainerBytes(ref->type));  // little-endian host
        alignas(8) unsigned char out[8] = {};
        uint8_t to_flags = ConvertElement(ref->type, in, wide, out);
        double widened = wide == ElementType::kF32
                             ? static_cast<double>(
                                   std::bit_cast<float>(static_cast<uint32_t>(ReadBits(wide, out))))
                             : std::bit_cast<double>(ReadBits(wide, out));
        alignas(8) unsigned char back[8] = {};
        uint8_t back_flags = ConvertElement(wide, out, ref->type, back);
        uint64_t back_bits = ReadBits(ref->type, back);
        bool convert_ok = SameDouble(widened, expected);
        if (!expected_nan) {
          convert_ok &= to_flags == 0 && back_flags == 0 && back_bits == bits;
        } else {
          convert_ok &= std::isnan(RefDecode(*ref, back_bits));
        }
        if (!convert_ok) {
          ++failures;
          ADD_FAILURE() << where << " via " << Name(wide) << ": widened to " << Hex(widened)
                        << " flags " << int{to_flags} << ", back to bits 0x" << std::hex
                        << back_bits << std::dec << " flags " << int{back_flags};
        }
      }
    }
  }
  std::printf("[ConversionDecodeTest] %" PRId64 " bit patterns checked\n", checked);
}

// Every value of every integer type of at most 16 bits goes to f64 (and
// f32) exactly and comes back unchanged, without flags.
TEST(ConversionDecodeTest, ExhaustiveSmallIntegerRoundTrip) {
  struct IntType {
    ElementType type;
    int64_t min;
    int64_t max;
    int bytes;
    bool is_signed;
  };
  const IntType kTypes[] = {
      {ElementType::kI1, 0, 1, 1, false},           {ElementType::kSI2, -2, 1, 1, true},
      {ElementType::kSI4, -8, 7, 1, true},          {ElementType::kSI8, -128, 127, 1, true},
      {ElementType::kSI16, -32768, 32767, 2, true}, {ElementType::kUI2, 0, 3, 1, false},
      {ElementType::kUI4, 0, 15, 1, false},         {ElementType::kUI8, 0, 255, 1, false},
      {ElementType::kUI16, 0, 65535, 2, false},
  };
  int64_t checked = 0;
  for (const IntType& t : kTypes) {
    SCOPED_TRACE(Name(t.type));
    int failures = 0;
    for (int64_t v = t.min; v <= t.max && failures < 20; ++v) {
      ++checked;
      alignas(8) unsigned char in[8] = {};
      if (t.bytes == 1) {
        uint8_t b = static_cast<uint8_t>(v);  // sign-extended for signed types
        std::memcpy(in, &b, 1);
      } else {
        uint16_t b = static_cast<uint16_t>(v);
        std::memcpy(in, &b, 2);
      }
      for (ElementType wide : {ElementType::kF32, ElementType::kF64}) {
        alignas(8) unsigned char out[8] = {};
        uint8_t to_flags = ConvertElement(t.type, in, wide, out);
        double widened = wide == ElementType::kF32
                             ? static_cast<double>(
                                   std::bit_cast<float>(static_cast<uint32_t>(ReadBits(wide, out))))
                             : std::bit_cast<double>(ReadBits(wide, out));
        alignas(8) unsigned char back[8] = {};
        uint8_t back_flags = ConvertElement(wide, out, t.type, back);
        int64_t back_value;
        if (t.bytes == 1) {
          back_value = t.is_signed ? static_cast<int64_t>(static_cast<int8_t>(back[0]))
                                   : static_cast<int64_t>(back[0]);
        } else {
          uint16_t b;
          std::memcpy(&b, back, 2);
          back_value =
              t.is_signed ? static_cast<int64_t>(static_cast<int16_t>(b)) : static_cast<int64_t>(b);
        }
        bool ok = widened == static_cast<double>(v) && std::signbit(widened) == (v < 0) &&
                  to_flags == 0 && back_flags == 0 && back_value == v;
        if (!ok) {
          ++failures;
          ADD_FAILURE() << Name(t.type) << " " << v << " via " << Name(wide) << ": widened "
                        << Hex(widened) << " flags " << int{to_flags} << ", back " << back_value
                        << " flags " << int{back_flags};
        }
      }
    }
  }
  std::printf("[ConversionDecodeTest] %" PRId64 " integer values checked\n", checked);
}

}  // namespace
}  // namespace hlocheck
