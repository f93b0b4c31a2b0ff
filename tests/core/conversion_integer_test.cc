// Float <-> integer conversions checked against MPFR: f32/f64 -> every
// integer type truncates toward zero (mpfr_trunc, mpfr_get_sj/uj) and flags
// what does not fit; si64/ui64/si32/ui32 -> every float type rounds once
// (mpfr_set_sj/uj and the reference rounding of conversion_reference.h).
#include <gtest/gtest.h>

#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "tests/core/conversion_reference.h"

namespace hlocheck {
namespace {

using conversion_ref::AddCandidates;
using conversion_ref::AllRefFormats;
using conversion_ref::Expected;
using conversion_ref::FloatChecker;
using conversion_ref::Hex;
using conversion_ref::Log;
using conversion_ref::ReadBits;
using conversion_ref::RefFormat;
using conversion_ref::Rounder;

constexpr uint64_t kSeed = 0x1A7E6E5ull;

struct IntType {
  ElementType type;
  const char* name;
  int bits;
  bool is_signed;
  int bytes;  // container
};

const IntType kIntTypes[] = {
    {ElementType::kSI2, "si2", 2, true, 1},     {ElementType::kSI4, "si4", 4, true, 1},
    {ElementType::kSI8, "si8", 8, true, 1},     {ElementType::kSI16, "si16", 16, true, 2},
    {ElementType::kSI32, "si32", 32, true, 4},  {ElementType::kSI64, "si64", 64, true, 8},
    {ElementType::kUI2, "ui2", 2, false, 1},    {ElementType::kUI4, "ui4", 4, false, 1},
    {ElementType::kUI8, "ui8", 8, false, 1},    {ElementType::kUI16, "ui16", 16, false, 2},
    {ElementType::kUI32, "ui32", 32, false, 4}, {ElementType::kUI64, "ui64", 64, false, 8},
};

// Reads an integer container, sign- or zero-extending it.
int64_t ReadSigned(const unsigned char* p, int bytes) {
  switch (bytes) {
    case 1:
      return static_cast<int8_t>(p[0]);
    case 2: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

uint64_t ReadUnsigned(const unsigned char* p, int bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, bytes);  // little-endian host
  return v;
}

// f32/f64 -> integer checks against MPFR truncation.
class TruncChecker {
 public:
  TruncChecker() { mpfr_inits2(256, x_, t_, lo_, hi_, static_cast<mpfr_ptr>(nullptr)); }
  ~TruncChecker() { mpfr_clears(x_, t_, lo_, hi_, static_cast<mpfr_ptr>(nullptr)); }

  int64_t checked = 0;
  int64_t value_mismatches = 0;
  int64_t flag_mismatches = 0;
  std::vector<std::string> examples;

  void Check(ElementType source, double value, const IntType& target) {
    ++checked;
    alignas(8) unsigned char in[8] = {};
    if (source == ElementType::kF64) {
      std::memcpy(in, &value, 8);
    } else {
      float f = static_cast<float>(value);  // callers pass f32 values
      std::memcpy(in, &f, 4);
    }
    alignas(8) unsigned char out[8] = {};
    const uint8_t flags = ConvertElement(source, in, target.type, out);

    mpfr_set_d(x_, value, MPFR_RNDN);
    bool in_range = false;
    if (mpfr_number_p(x_)) {
      mpfr_trunc(t_, x_);
      if (target.is_signed) {
        mpfr_set_si_2exp(lo_, -1, target.bits - 1, MPFR_RNDN);
        mpfr_set_ui_2exp(hi_, 1, target.bits - 1, MPFR_RNDN);
      } else {
        mpfr_set_ui(lo_, 0, MPFR_RNDN);
        mpfr_set_ui_2exp(hi_, 1, target.bits, MPFR_RNDN);
      }
      mpfr_sub_ui(hi_, hi_, 1, MPFR_RNDN);  // exact at 256 bits
      in_range = mpfr_cmp(t_, lo_) >= 0 && mpfr_cmp(t_, hi_) <= 0;
    }
    bool value_ok;
    bool flags_ok = true;
    std::string expected;
    if (!in_range) {
      value_ok = (flags & kConversionUnrepresentable) != 0;
      expected = "flag kConversionUnrepresentable";
    } else {
      const uint8_t expected_flags = mpfr_equal_p(t_, x_) ? 0 : kConversionInexact;
      flags_ok = flags == expected_flags;
      if (target.is_signed) {
        const intmax_t want = mpfr_get_sj(t_, MPFR_RNDZ);
        value_ok = ReadSigned(out, target.bytes) == want;
        expected = std::to_string(want);
      } else {
        const uintmax_t want = mpfr_get_uj(t_, MPFR_RNDZ);
        value_ok = ReadUnsigned(out, target.bytes) == want;
        expected = std::to_string(want);
      }
      expected += " flags=" + std::to_string(expected_flags);
    }
    if (value_ok && flags_ok) return;
    if (!value_ok) ++value_mismatches;
    if (!flags_ok) ++flag_mismatches;
    if (examples.size() < 40) {
      std::string got = target.is_signed ? std::to_string(ReadSigned(out, target.bytes))
                                         : std::to_string(ReadUnsigned(out, target.bytes));
      examples.push_back(std::string(value_ok ? "[flags] " : "[VALUE] ") +
                         std::string(Name(source)) + " " + Hex(value) + " -> " + target.name +
                         ": expected " + expected + "; got " + got +
                         " flags=" + std::to_string(flags));
    }
  }

  std::string Report() const {
    std::string s = "checked " + std::to_string(checked) + ", value mismatches " +
                    std::to_string(value_mismatches) + ", flag mismatches " +
                    std::to_string(flag_mismatches);
    for (const std::string& e : examples) s += "\n  " + e;
    return s;
  }

 private:
  mpfr_t x_, t_, lo_, hi_;
};

std::vector<double> FloatToIntBoundaries(ElementType source) {
  std::vector<double> v;
  for (int n : {1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 52, 53, 54, 63, 64, 65}) {
    const double p = std::ldexp(1.0, n);
    for (double base : {p, p - 1, p + 1, p - 0.5, p + 0.5, p - 0.25, p + 0.75, p - 2}) {
      AddCandidates(source, base, &v);
      AddCandidates(source, -base, &v);
    }
  }
  for (double base : {0.0, 0.5, 0.9999, 1.0, 1.5, 2.5, 0.25, 0x1p-149, 0x1p-1074, 0x1p-1022,
                      static_cast<double>(FLT_MAX), DBL_MAX, HUGE_VAL, 1e10, 1e19, 1e20}) {
    AddCandidates(source, base, &v);
    AddCandidates(source, -base, &v);
  }
  v.push_back(std::nan(""));
  v.push_back(-std::nan(""));
  // Drop what the source cannot hold (f64-only values for an f32 source).
  if (source == ElementType::kF32) {
    std::vector<double> kept;
    for (double d : v) {
      if (std::isnan(d) || static_cast<double>(static_cast<float>(d)) == d) kept.push_back(d);
    }
    v = kept;
  }
  return v;
}

double RandomFloatForIntegers(std::mt19937_64& rng, bool f64) {
  const uint64_t r = rng();
  double value;
  switch (r % 4) {
    case 0:  // uniform bits
      if (f64) return std::bit_cast<double>(rng());
      return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(rng())));
    case 1:
    case 2: {  // magnitudes 2^-3 .. 2^66, random mantissa
      const int exponent = -3 + static_cast<int>(rng() % 70);
      const uint64_t mantissa = rng() >> 12;
      value = std::ldexp(1.0 + std::ldexp(static_cast<double>(mantissa), -52), exponent);
      break;
    }
    default: {  // an integer of random width plus a small fraction
      const int width = static_cast<int>(rng() % 66);
      const double integer = std::ldexp(static_cast<double>(rng() >> 11), width - 53);
      static const double kFractions[] = {0.0, 0.5, 0.25, 0.75, 0x1p-20, 1 - 0x1p-20};
      value = std::trunc(integer) + kFractions[(r >> 8) % 6];
      break;
    }
  }
  if ((r >> 4) & 1) value = -value;
  if (!f64) value = static_cast<double>(static_cast<float>(value));
  return value;
}

TEST(ConversionIntegerTest, FloatToEveryIntegerTypeTruncates) {
  std::mt19937_64 rng(kSeed);
  std::printf("[ConversionIntegerTest] seed=0x%" PRIx64 "\n", kSeed);
  const int kRandom = 1000000;
  for (ElementType source : {ElementType::kF32, ElementType::kF64}) {
    std::vector<double> values = FloatToIntBoundaries(source);
    const size_t boundary_count = values.size();
    for (int i = 0; i < kRandom; ++i) {
      values.push_back(RandomFloatForIntegers(rng, source == ElementType::kF64));
    }
    for (const IntType& target : kIntTypes) {
      TruncChecker checker;
      for (double v : values) checker.Check(source, v, target);
      EXPECT_EQ(checker.value_mismatches + checker.flag_mismatches, 0)
          << Name(source) << " -> " << target.name << ": " << checker.Report();
    }
    std::printf(
        "[ConversionIntegerTest] %s -> 12 integer types: %zu boundary + %d random "
        "values each\n",
        std::string(Name(source)).c_str(), boundary_count, kRandom);
  }
}

// Negative values beyond si64's range (and -Inf) saturate through a path
// that must not overflow int64 itself; under UBSan this is where a signed
// negation of INT64_MIN would be reported.
TEST(ConversionIntegerTest, NegativeOverflowIntoSi64IsFlagged) {
  const IntType& si64 = kIntTypes[5];
  ASSERT_EQ(si64.type, ElementType::kSI64);
  TruncChecker checker;
  for (double v : {-0x1p63, -0x1.0000000000001p63, -1e19, -0x1p64, -DBL_MAX, -HUGE_VAL}) {
    checker.Check(ElementType::kF64, v, si64);
  }
  for (float v : {-0x1p63f, -0x1.000002p63f, -FLT_MAX, -HUGE_VALF}) {
    checker.Check(ElementType::kF32, static_cast<double>(v), si64);
  }
  EXPECT_EQ(checker.value_mismatches + checker.flag_mismatches, 0) << checker.Report();
}

// Integer sources: si64, ui64, si32, ui32.
struct IntSource {
  ElementType type;
  int bits;
  bool is_signed;
};
const IntSource kIntSources[] = {
    {ElementType::kSI64, 64, true},
    {ElementType::kUI64, 64, false},
    {ElementType::kSI32, 32, true},
    {ElementType::kUI32, 32, false},
};

// Raw 64-bit patterns (two's complement for signed sources), cut to the
// source's width below.
std::vector<uint64_t> IntegerBoundaries() {
  std::vector<uint64_t> v = {0, 1, ~uint64_t{0}, uint64_t{1} << 63, (uint64_t{1} << 63) - 1};
  for (int k = 0; k < 64; ++k) {
    const uint64_t p = uint64_t{1} << k;
    for (int d = -3; d <= 3; ++d) v.push_back(p + static_cast<uint64_t>(static_cast<int64_t>(d)));
  }
  // Ties and near-ties of every target precision p (1 for E8M0 .. 53 for f64).
  for (int precision = 1; precision <= 53; ++precision) {
    for (int k = precision; k < 64; ++k) {
      const uint64_t p = uint64_t{1} << k;
      const uint64_t half_ulp = uint64_t{1} << (k - precision);
      for (uint64_t base : {p + half_ulp, p + 3 * half_ulp, 2 * p - half_ulp}) {
        for (int d = -1; d <= 1; ++d) {
          v.push_back(base + static_cast<uint64_t>(static_cast<int64_t>(d)));
        }
      }
    }
  }
  // Negatives of all of these.
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(uint64_t{0} - v[i]);
  return v;
}

uint64_t RandomInteger(std::mt19937_64& rng) {
  const uint64_t r = rng();
  switch (r % 4) {
    case 0:
      return rng();
    case 1:
      return rng() >> (rng() % 64);
    case 2: {  // a few top bits and a low bit: ties and near-ties
      const int shift = static_cast<int>(rng() % 64);
      uint64_t x = (rng() >> 52) << (shift > 52 ? 52 : shift);
      if ((r >> 3) & 1) x += (r >> 4) & 3;
      return (r >> 6) & 1 ? x : uint64_t{0} - x;
    }
    default:
      return uint64_t{0} - (rng() >> (rng() % 64));
  }
}

TEST(ConversionIntegerTest, IntegerToEveryFloatTypeRoundsOnce) {
  std::mt19937_64 rng(kSeed + 1);
  std::printf("[ConversionIntegerTest] seed=0x%" PRIx64 "\n", kSeed + 1);
  const int kRandom = 300000;
  const std::vector<uint64_t> boundaries = IntegerBoundaries();
  std::vector<uint64_t> raw = boundaries;
  for (int i = 0; i < kRandom; ++i) raw.push_back(RandomInteger(rng));
  Rounder rounder;
  for (const IntSource& source : kIntSources) {
    for (const RefFormat& target : AllRefFormats()) {
      Log log;
      for (uint64_t bits : raw) {
        alignas(8) unsigned char in[8] = {};
        Expected e;
        std::string description;
        if (source.bits == 64) {
          std::memcpy(in, &bits, 8);
          e = source.is_signed ? rounder.RoundSigned(target, static_cast<int64_t>(bits))
                               : rounder.RoundUnsigned(target, bits);
        } else {
          uint32_t b32 = static_cast<uint32_t>(bits);
          std::memcpy(in, &b32, 4);
          e = source.is_signed ? rounder.RoundSigned(target, static_cast<int32_t>(b32))
                               : rounder.RoundUnsigned(target, b32);
        }
        alignas(8) unsigned char out[8] = {};
        const uint8_t flags = ConvertElement(source.type, in, target.type, out);
        const uint64_t got = ReadBits(target.type, out);
        if (FloatChecker::Quick(e, target, got, flags)) {
          ++log.checked;
          continue;
        }
        const uint64_t cut = source.bits == 64 ? bits : (bits & 0xFFFFFFFFu);
        if (source.is_signed) {
          description =
              std::string(Name(source.type)) + " " +
              std::to_string(source.bits == 64 ? static_cast<int64_t>(cut)
                                               : static_cast<int64_t>(static_cast<int32_t>(cut)));
        } else {
          description = std::string(Name(source.type)) + " " + std::to_string(cut);
        }
        log.Check(description, target, e, got, flags);
      }
      EXPECT_EQ(log.value_mismatches + log.flag_mismatches, 0)
          << Name(source.type) << " -> " << target.name << ": " << log.Report();
    }
  }
  std::printf(
      "[ConversionIntegerTest] si64/ui64/si32/ui32 -> 15 float types: %zu boundary + "
      "%d random values each\n",
      boundaries.size(), kRandom);
}

}  // namespace
}  // namespace hlocheck
