// Rounding boundaries of every narrowing float conversion, checked against
// the MPFR reference (tests/core/conversion_reference.h): every midpoint
// between consecutive target values and its neighbours in the source type,
// the target values themselves, the overflow threshold, and the special
// values of the source.
#include <gtest/gtest.h>

#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "tests/core/conversion_reference.h"

namespace hlocheck {
namespace {

using conversion_ref::AddCandidates;
using conversion_ref::Expected;
using conversion_ref::FiniteValues;
using conversion_ref::FloatChecker;
using conversion_ref::Log;
using conversion_ref::NarrowerTargets;
using conversion_ref::Ref;
using conversion_ref::RefDecode;
using conversion_ref::RefFormat;
using conversion_ref::SmallRefFormats;
using conversion_ref::Special;

// Values every source/target pair is checked at.
void AddSpecials(ElementType source, std::vector<double>* out) {
  const bool f32 = source == ElementType::kF32;
  const double min_sub = f32 ? 0x1p-149 : 0x1p-1074;
  const double max_sub = f32 ? 0x1.fffffcp-127 : 0x0.fffffffffffffp-1022;
  const double min_normal = f32 ? 0x1p-126 : 0x1p-1022;
  const double max = f32 ? static_cast<double>(FLT_MAX) : DBL_MAX;
  for (double v : {HUGE_VAL, 0.0, min_sub, 2 * min_sub, max_sub, min_normal, max, 1.0}) {
    out->push_back(v);
    out->push_back(-v);
  }
}

void RunChecks(ElementType source, const std::vector<double>& values, const RefFormat& target,
               FloatChecker* checker) {
  for (double v : values) {
    if (source == ElementType::kF64) {
      checker->CheckF64(v, target);
    } else {
      checker->CheckF32(static_cast<float>(v), target);  // exact: built from f32 values
    }
  }
}

void CheckNaNs(ElementType source, const RefFormat& target, FloatChecker* checker) {
  if (source == ElementType::kF64) {
    for (uint64_t bits : {uint64_t{0x7FF8000000000000}, uint64_t{0xFFF8000000000000},
                          uint64_t{0x7FF0000000000001}, uint64_t{0xFFFFFFFFFFFFFFFF}}) {
      checker->CheckBits(Ref(ElementType::kF64), bits, target);
    }
  } else {
    for (uint64_t bits :
         {uint64_t{0x7FC00000}, uint64_t{0xFFC00000}, uint64_t{0x7F800001}, uint64_t{0xFFFFFFFF}}) {
      checker->CheckBits(Ref(ElementType::kF32), bits, target);
    }
  }
}

// Candidates for a target of at most 16 bits: all its values and midpoints,
// and the first value past its largest one on each side.
std::vector<double> SmallTargetCandidates(ElementType source, const RefFormat& target) {
  std::vector<double> points = FiniteValues(target);
  const double past = target.MaxFinite() + target.TopUlp();
  points.push_back(past);
  points.push_back(2 * past);
  if (target.has_sign()) {
    points.push_back(-past);
    points.push_back(-2 * past);
  }
  std::sort(points.begin(), points.end());
  std::vector<double> candidates;
  for (size_t i = 0; i < points.size(); ++i) {
    AddCandidates(source, points[i], &candidates);
    if (i + 1 < points.size()) AddCandidates(source, (points[i] + points[i + 1]) / 2, &candidates);
  }
  if (target.special == Special::kE8M0) {
    // Below 2^-127, and negatives (unrepresentable, flag only).
    for (double v : {0x1p-127 * 0.75, 0x1p-128, 0x1p-129, 0x1p-140}) {
      AddCandidates(source, v, &candidates);
    }
    for (double v : FiniteValues(target)) AddCandidates(source, -v, &candidates);
    AddCandidates(source, -1.5, &candidates);
  }
  AddSpecials(source, &candidates);
  return candidates;
}

// For the f32 target (f64 source only): its pairs (a, next a) near zero,
// at every binade edge, near the largest value, and a random sample.
std::vector<double> F32TargetCandidates(int64_t* pair_count) {
  std::vector<uint32_t> a_bits;
  for (uint32_t b = 0; b < (1u << 17); ++b) a_bits.push_back(b);
  for (uint32_t ef = 1; ef <= 254; ++ef) {
    uint32_t edge = ef << 23;
    for (uint32_t d = 1; d <= 3; ++d) a_bits.push_back(edge - d);
    for (uint32_t d = 0; d <= 2; ++d) a_bits.push_back(edge + d);
  }
  for (uint32_t b = 0x7F7F0000u; b <= 0x7F7FFFFFu; ++b) a_bits.push_back(b);
  std::mt19937 rng(20240611);
  for (int i = 0; i < 200000; ++i) a_bits.push_back(rng() % 0x7F7FFFFFu);
  std::vector<double> candidates;
  for (uint32_t bits : a_bits) {
    const double a = static_cast<double>(std::bit_cast<float>(bits));
    // The value after FLT_MAX is 2^128 in the f32 grid continued upwards.
    const double b =
        bits == 0x7F7FFFFFu ? 0x1p128 : static_cast<double>(std::bit_cast<float>(bits + 1));
    const double m = (a + b) / 2;  // exact in f64
    for (double sign : {1.0, -1.0}) {
      AddCandidates(ElementType::kF64, sign * a, &candidates);
      AddCandidates(ElementType::kF64, sign * m, &candidates);
      if (bits == 0x7F7FFFFFu) AddCandidates(ElementType::kF64, sign * b, &candidates);
    }
    ++*pair_count;
  }
  AddSpecials(ElementType::kF64, &candidates);
  return candidates;
}

TEST(ConversionBoundaryTest, MidpointsAndNeighboursFromF32AndF64) {
  int64_t total = 0;
  for (ElementType source : {ElementType::kF32, ElementType::kF64}) {
    for (const RefFormat* target : NarrowerTargets(source)) {
      SCOPED_TRACE(std::string(Name(source)) + " -> " + target->name);
      Log log;
      FloatChecker checker(&log);
      int64_t pairs = 0;
      std::vector<double> candidates;
      if (target->type == ElementType::kF32) {
        candidates = F32TargetCandidates(&pairs);
      } else {
        candidates = SmallTargetCandidates(source, *target);
        pairs = static_cast<int64_t>(FiniteValues(*target).size()) + 1;
      }
      RunChecks(source, candidates, *target, &checker);
      CheckNaNs(source, *target, &checker);
      EXPECT_EQ(log.value_mismatches + log.flag_mismatches, 0) << log.Report();
      std::printf("[ConversionBoundaryTest] %s -> %s: %" PRId64 " value pairs, %" PRId64
                  " values checked\n",
                  std::string(Name(source)).c_str(), target->name, pairs, log.checked);
      total += log.checked;
    }
  }
  std::printf("[ConversionBoundaryTest] %" PRId64 " conversions checked in all\n", total);
}

// Every bit pattern of every float type of at most 16 bits, converted to
// every other such type.
TEST(ConversionBoundaryTest, ExhaustiveSmallToSmall) {
  int64_t total = 0;
  for (const RefFormat* source : SmallRefFormats()) {
    for (const RefFormat* target : SmallRefFormats()) {
      if (source == target) continue;
      SCOPED_TRACE(std::string(source->name) + " -> " + target->name);
      Log log;
      FloatChecker checker(&log);
      for (uint64_t bits = 0; bits < (uint64_t{1} << source->total_bits()); ++bits) {
        checker.CheckBits(*source, bits, *target);
      }
      EXPECT_EQ(log.value_mismatches + log.flag_mismatches, 0) << log.Report();
      total += log.checked;
    }
  }
  std::printf("[ConversionBoundaryTest] small -> small: %" PRId64 " conversions checked\n", total);
}

// The toward-zero mode of the same entry points (not used by `convert`,
// which rounds to nearest): the same candidates, truncated by MPFR.
TEST(ConversionBoundaryTest, TowardZeroMode) {
  int64_t total = 0;
  for (ElementType source : {ElementType::kF32, ElementType::kF64}) {
    for (const RefFormat* target : NarrowerTargets(source)) {
      if (target->type == ElementType::kF32) continue;
      SCOPED_TRACE(std::string(Name(source)) + " -> " + target->name + " toward zero");
      Log log;
      FloatChecker checker(&log);
      for (double v : SmallTargetCandidates(source, *target)) {
        if (source == ElementType::kF64) {
          checker.CheckBits(Ref(source), std::bit_cast<uint64_t>(v), *target,
                            RoundingMode::kTowardZero);
        } else {
          checker.CheckBits(Ref(source), std::bit_cast<uint32_t>(static_cast<float>(v)), *target,
                            RoundingMode::kTowardZero);
        }
      }
      EXPECT_EQ(log.value_mismatches + log.flag_mismatches, 0) << log.Report();
      total += log.checked;
    }
  }
  std::printf("[ConversionBoundaryTest] toward zero: %" PRId64 " conversions checked\n", total);
}

// Values where rounding through an intermediate format would round twice.
TEST(ConversionBoundaryTest, NoDoubleRounding) {
  struct Case {
    ElementType source;
    double value;  // exact in the source type
    ElementType target;
    uint64_t expected_bits;
  };
  const Case kCases[] = {
      // f64 -> f32 -> f16 would give the tie 1 + 2^-11 and then 1.0.
      {ElementType::kF64, 1 + 0x1p-11 + 0x1p-40, ElementType::kF16, 0x3C01},
      {ElementType::kF64, -(1 + 0x1p-11 + 0x1p-40), ElementType::kF16, 0xBC01},
      {ElementType::kF64, 1 + 0x1p-11 - 0x1p-40, ElementType::kF16, 0x3C00},
      {ElementType::kF64, 1 + 0x1p-10 + 0x1p-11 - 0x1p-45, ElementType::kF16, 0x3C01},
      {ElementType::kF64, 1 + 0x1p-10 + 0x1p-11, ElementType::kF16, 0x3C02},
      {ElementType::kF32, 1 + 0x1p-11 + 0x1p-23, ElementType::kF16, 0x3C01},
      // f16 subnormals: just above half the smallest subnormal.
      {ElementType::kF64, 0x1p-25 + 0x1p-60, ElementType::kF16, 0x0001},
      {ElementType::kF64, 0x1p-25, ElementType::kF16, 0x0000},
      {ElementType::kF64, 3 * 0x1p-25 - 0x1p-70, ElementType::kF16, 0x0001},
      // Just under the f16 overflow threshold 65520 (f32 would round it up to 65520).
      {ElementType::kF64, 65520 - 0x1p-37, ElementType::kF16, 0x7BFF},
      {ElementType::kF64, 65520, ElementType::kF16, 0x7C00},
      // bf16: f64 -> f32 would drop 2^-30 and leave the tie 1 + 2^-8.
      {ElementType::kF64, 1 + 0x1p-8 + 0x1p-30, ElementType::kBF16, 0x3F81},
      {ElementType::kF64, 1 + 0x1p-8, ElementType::kBF16, 0x3F80},
      // f8 types.
      {ElementType::kF64, 1 + 0x1p-4 + 0x1p-40, ElementType::kF8E4M3, 0x39},
      {ElementType::kF64, 1 + 0x1p-3 + 0x1p-50, ElementType::kF8E5M2, 0x3D},
      {ElementType::kF64, 464 - 0x1p-40, ElementType::kF8E4M3FN, 0x7E},
      {ElementType::kF64, 464, ElementType::kF8E4M3FN, 0x7E},
      {ElementType::kF64, 464 + 0x1p-40, ElementType::kF8E4M3FN, 0x7F},
      {ElementType::kF64, 465, ElementType::kF8E4M3FN, 0x7F},
      {ElementType::kF64, 1.5 - 0x1p-52, ElementType::kF8E8M0FNU, 0x7F},
      {ElementType::kF64, 1.5, ElementType::kF8E8M0FNU, 0x80},
      // f64 -> f32 itself: just above a tie that f64 -> bf16 -> ... never sees.
      {ElementType::kF64, 1 + 0x1p-24 + 0x1p-52, ElementType::kF32, 0x3F800001},
      {ElementType::kF64, 1 + 0x1p-24, ElementType::kF32, 0x3F800000},
  };
  Log log;
  FloatChecker checker(&log);
  for (const Case& c : kCases) {
    alignas(8) unsigned char in[8] = {};
    if (c.source == ElementType::kF64) {
      std::memcpy(in, &c.value, 8);
    } else {
      float f = static_cast<float>(c.value);
      ASSERT_EQ(static_cast<double>(f), c.value);
      std::memcpy(in, &f, 4);
    }
    alignas(8) unsigned char out[8] = {};
    ConvertElement(c.source, in, c.target, out);
    EXPECT_EQ(conversion_ref::ReadBits(c.target, out), c.expected_bits)
        << Name(c.source) << " " << conversion_ref::Hex(c.value) << " -> " << Name(c.target);
    // The hand-derived expectation agrees with the reference.
    Expected e = checker.rounder().RoundDouble(Ref(c.target), c.value);
    double expected_value = conversion_ref::ValueOfBits(Ref(c.target), c.expected_bits);
    if (e.kind == Expected::kNaN) {
      EXPECT_TRUE(std::isnan(expected_value));
    } else {
      EXPECT_EQ(e.value, expected_value) << conversion_ref::Hex(c.value);
    }
    if (c.source == ElementType::kF64) {
      checker.CheckF64(c.value, Ref(c.target));
    } else {
      checker.CheckF32(static_cast<float>(c.value), Ref(c.target));
    }
  }
  EXPECT_EQ(log.value_mismatches + log.flag_mismatches, 0) << log.Report();
}

}  // namespace
}  // namespace hlocheck
