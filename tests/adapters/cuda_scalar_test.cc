// The CUDA kernels' scalar functions (adapters/cuda/kernels/scalar.h and
// elementwise_kernels.h), compiled here as host code: convert between every
// pair of real types against core's conversion, integer arithmetic at its
// edges, totalOrder keys, and the reduction tree's lane counts.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "adapters/cuda/cuda_internal.h"
#include "adapters/cuda/kernels/data_movement_kernels.h"
#include "adapters/cuda/kernels/elementwise_kernels.h"
#include "adapters/cuda/kernels/reduction_kernels.h"
#include "adapters/cuda/kernels/scalar.h"
#include "adapters/cuda/machines.h"
#include "core/element_type.h"
#include "core/element_value.h"

namespace hlocheck {
namespace {

using cuda::ElementKind;

std::vector<ElementType> RealTypes() {
  std::vector<ElementType> types;
  for (ElementType t : AllElementTypes()) {
    if (!IsComplex(t)) types.push_back(t);
  }
  return types;
}

// A valid element of `type` from raw bits: what a tensor of that type can
// hold (sub-byte integers sign- or zero-extended, narrow floats in the
// format's low bits, booleans 0 or 1).
std::vector<uint8_t> ElementFromBits(ElementType type, uint64_t bits) {
  std::vector<uint8_t> bytes(ContainerBytes(type), 0);
  if (IsBool(type)) {
    bytes[0] = bits & 1;
  } else if (IsInteger(type)) {
    const bool is_signed = IsSignedInt(type);
    const uint64_t value = cuda::WrapBits(bits, BitWidth(type), is_signed);
    std::memcpy(bytes.data(), &value, bytes.size());
  } else if (type == ElementType::kF32 || type == ElementType::kF64) {
    std::memcpy(bytes.data(), &bits, bytes.size());
  } else {
    const uint64_t value = bits & ((uint64_t{1} << Format(type).total_bits()) - 1);
    std::memcpy(bytes.data(), &value, bytes.size());
  }
  return bytes;
}

bool IsNanElement(ElementType type, const std::vector<uint8_t>& bytes) {
  if (!IsFloat(type)) return false;
  uint64_t bits = 0;
  std::memcpy(&bits, bytes.data(), bytes.size());
  if (type == ElementType::kF32)
    return std::isnan(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  if (type == ElementType::kF64) return std::isnan(std::bit_cast<double>(bits));
  return DecodeFloat(Format(type), bits).cls == ExactValue::Class::kNaN;
}

void ExpectConvertsAsCore(ElementType from, ElementType to, uint64_t bits) {
  const std::vector<uint8_t> in = ElementFromBits(from, bits);
  std::vector<uint8_t> expected(ContainerBytes(to), 0);
  std::vector<uint8_t> got(ContainerBytes(to), 0);
  ConvertElement(from, in.data(), to, expected.data());
  const ElementKind in_kind = *cuda::KindOf(from);
  const ElementKind out_kind = *cuda::KindOf(to);
  cuda::StoreNumber(out_kind, got.data(), 0, cuda::LoadNumber(in_kind, in.data(), 0));
  if (IsNanElement(to, expected) && IsNanElement(to, got)) return;  // payloads are free
  EXPECT_EQ(got, expected) << Name(from) << " -> " << Name(to) << " of bits 0x" << std::hex << bits;
}

// Every pair of real types, on the patterns at the edges of each type.
TEST(CudaScalar, ConvertMatchesCoreOnEdges) {
  std::vector<uint64_t> patterns = {0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff};
  for (int shift : {23, 31, 52, 53, 62, 63}) {
    patterns.push_back(uint64_t{1} << shift);
    patterns.push_back((uint64_t{1} << shift) - 1);
    patterns.push_back((uint64_t{1} << shift) + 1);
  }
  for (uint64_t p : {0x7f800000ull, 0xff800000ull, 0x7fc00000ull, 0x4f000000ull, 0xdf000000ull,
                     0x5f800000ull, 0x3f000000ull, 0xbf7fffffull, 0x7ff0000000000000ull,
                     0xc3e0000000000000ull, 0x43f0000000000000ull, 0x43dfffffffffffffull,
                     0xfff8000000000000ull, 0x0000000000000001ull, 0x8000000000000000ull,
                     0xffffffffffffffffull, 0x7fffffffffffffffull, 0x0020000000000001ull}) {
    patterns.push_back(p);
  }
  for (ElementType from : RealTypes()) {
    for (ElementType to : RealTypes()) {
      for (uint64_t bits : patterns) ExpectConvertsAsCore(from, to, bits);
    }
  }
}

// Every pattern of every type of at most 16 bits, into every real type.
TEST(CudaScalar, ConvertMatchesCoreOnEveryNarrowPattern) {
  for (ElementType from : RealTypes()) {
    if (BitWidth(from) > 16) continue;
    for (ElementType to : RealTypes()) {
      for (uint64_t bits = 0; bits < (uint64_t{1} << BitWidth(from)); ++bits) {
        ExpectConvertsAsCore(from, to, bits);
      }
    }
  }
}

RC_GTEST_PROP(CudaScalarProperty, ConvertMatchesCoreOnRandomPatterns, (uint64_t bits)) {
  const std::vector<ElementType> types = RealTypes();
  const auto from = *rc::gen::elementOf(types);
  const auto to = *rc::gen::elementOf(types);
  ExpectConvertsAsCore(from, to, bits);
  RC_ASSERT(!::testing::Test::HasFailure());
}

TEST(CudaScalar, IntegerEdgesAreXlas) {
  using cuda::IntDivide;
  using cuda::IntPower;
  using cuda::IntRemainder;
  const uint64_t min64 = uint64_t{1} << 63;
  const uint64_t minus_one = ~uint64_t{0};
  EXPECT_EQ(IntDivide(7, 0, true), minus_one);
  EXPECT_EQ(IntDivide(min64, minus_one, true), min64);
  EXPECT_EQ(IntDivide(static_cast<uint64_t>(-7), 2, true), static_cast<uint64_t>(-3));
  EXPECT_EQ(IntRemainder(7, 0, true), 7u);
  EXPECT_EQ(IntRemainder(min64, minus_one, true), 0u);
  EXPECT_EQ(IntRemainder(static_cast<uint64_t>(-7), 2, true), static_cast<uint64_t>(-1));
  EXPECT_EQ(IntDivide(7, 0, false), minus_one);
  EXPECT_EQ(IntPower(3, 4, true), 81u);
  EXPECT_EQ(IntPower(2, static_cast<uint64_t>(-1), true), 0u);
  EXPECT_EQ(IntPower(minus_one, static_cast<uint64_t>(-3), true), minus_one);
  EXPECT_EQ(IntPower(1, static_cast<uint64_t>(-3), true), 1u);
  EXPECT_EQ(IntPower(2, 64, false), 0u);  // wraps as repeated multiplication
}

TEST(CudaScalar, ShiftsPastTheWidth) {
  using cuda::IntShift;
  using cuda::ShiftKind;
  // si4: -8 >> 5 is the sign fill; ui4 0b1000 >>a 1 shifts its top bit in.
  EXPECT_EQ(
      cuda::WrapBits(IntShift(static_cast<uint64_t>(-8), 5, 4, true, ShiftKind::kRightArithmetic),
                     4, true),
      static_cast<uint64_t>(-1));
  EXPECT_EQ(cuda::WrapBits(IntShift(8, 1, 4, false, ShiftKind::kRightArithmetic), 4, false),
            0b1100u);
  EXPECT_EQ(IntShift(1, 4, 4, false, ShiftKind::kLeft), 0u);
  EXPECT_EQ(IntShift(0xff, 8, 8, false, ShiftKind::kRightLogical), 0u);
  // The amount is read unsigned in the type's width: si8 -1 is 255.
  EXPECT_EQ(IntShift(1, static_cast<uint64_t>(-1), 8, true, ShiftKind::kLeft), 0u);
  EXPECT_EQ(IntShift(1, 3, 8, true, ShiftKind::kLeft), 8u);
}

TEST(CudaScalar, CountsWithinTheWidth) {
  EXPECT_EQ(cuda::CountLeadingZeros(1, 4), 3);
  EXPECT_EQ(cuda::CountLeadingZeros(0, 2), 2);
  EXPECT_EQ(cuda::CountLeadingZeros(static_cast<uint64_t>(-1), 8), 0);
  EXPECT_EQ(cuda::PopCount(cuda::WrapBits(static_cast<uint64_t>(-1), 4, true) & cuda::WidthMask(4)),
            4);
}

TEST(CudaScalar, IntToDoubleRoundsToOdd) {
  EXPECT_EQ(cuda::IntToDoubleRoundOdd(12345), 12345.0);
  // 2^53 + 1 is not a double: rounding to odd keeps the sticky bit (2^53 + 2).
  EXPECT_EQ(cuda::IntToDoubleRoundOdd((uint64_t{1} << 53) + 1), 9007199254740994.0);
  EXPECT_EQ(cuda::IntToDoubleRoundOdd(uint64_t{1} << 63), 9223372036854775808.0);
  // i64 2^62 + 2^38 + 1 to f32: halfway plus a sticky bit, so up.
  const uint64_t x = (uint64_t{1} << 62) + (uint64_t{1} << 38) + 1;
  EXPECT_EQ(static_cast<float>(cuda::IntToDoubleRoundOdd(x)), std::nextafter(0x1p62f, 1e30f));
}

TEST(CudaScalar, TotalOrderKeysOrderF16AsValues) {
  const ElementKind f16 = *cuda::KindOf(ElementType::kF16);
  std::vector<uint16_t> patterns;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if (!std::isnan(cuda::DecodeMiniFloat(f16.mini, bits))) patterns.push_back(bits);
  }
  std::sort(patterns.begin(), patterns.end(), [](uint16_t a, uint16_t b) {
    return cuda::TotalOrderKey(a, 16) < cuda::TotalOrderKey(b, 16);
  });
  for (size_t i = 1; i < patterns.size(); ++i) {
    const double a = cuda::DecodeMiniFloat(f16.mini, patterns[i - 1]);
    const double b = cuda::DecodeMiniFloat(f16.mini, patterns[i]);
    ASSERT_TRUE(a < b || (a == 0 && b == 0 && std::signbit(a) && !std::signbit(b)))
        << std::hex << patterns[i - 1] << " " << patterns[i];
  }
  EXPECT_LT(cuda::TotalOrderKey(0xfe00, 16), cuda::TotalOrderKey(0xfc00, 16));  // -NaN < -Inf
  EXPECT_GT(cuda::TotalOrderKey(0x7e00, 16), cuda::TotalOrderKey(0x7c00, 16));  // +NaN > +Inf
}

TEST(CudaScalar, MaximumPropagatesNanAndOrdersZeros) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(cuda::FloatExtremum(1.0, nan, true)));
  EXPECT_TRUE(std::isnan(cuda::FloatExtremum(nan, 1.0, false)));
  EXPECT_FALSE(std::signbit(cuda::FloatExtremum(-0.0, 0.0, true)));
  EXPECT_TRUE(std::signbit(cuda::FloatExtremum(0.0, -0.0, false)));
}

// Powers that are exactly doubles are computed exactly (so that a narrow
// type's midpoint rounds as the tie it is); the others fall back to pow.
TEST(CudaScalar, ExactPowersAreExact) {
  EXPECT_EQ(cuda::Power(0.0390625, 2.0), 25 * 0x1p-14);  // a midpoint of f8E4M3B11FNUZ
  EXPECT_EQ(cuda::Power(2.25, 1.5), 3.375);              // 27/8, a midpoint of f8E4M3
  EXPECT_EQ(cuda::Power(-1.5, 3.0), -3.375);
  EXPECT_EQ(cuda::Power(3.0, 33.0), 5559060566555523.0);  // 3^33 < 2^53
  EXPECT_EQ(cuda::Power(0.5, -3.0), 8.0);
  EXPECT_EQ(cuda::Power(4.0, -0.5), 0.5);
  EXPECT_EQ(cuda::Power(7.0, 0.0), 1.0);
  // Not exact in double (3^34 > 2^53), a non-half exponent, a negative
  // base with a half, zero and infinity: pow's answers.
  EXPECT_EQ(cuda::Power(3.0, 34.0), cuda::Pow(3.0, 34.0));
  EXPECT_EQ(cuda::Power(2.0, 0.25), cuda::Pow(2.0, 0.25));
  EXPECT_TRUE(std::isnan(cuda::Power(-4.0, 0.5)));
  EXPECT_EQ(cuda::Power(0.0, -2.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(cuda::Power(std::numeric_limits<double>::infinity(), 2.0),
            std::numeric_limits<double>::infinity());
  // The host's stand-in for CUDA's pow, where glibc's powl is wrong.
  EXPECT_EQ(cuda::Power(-std::numeric_limits<double>::infinity(), -0x1p63), 0.0);
  // A product that would underflow is not checked exact: pow.
  EXPECT_EQ(cuda::Power(0x1p-600, 2.0), cuda::Pow(0x1p-600, 2.0));
}

TEST(CudaScalar, ReductionLanesAreAWarpAtMost) {
  EXPECT_EQ(cuda::ReduceLaneCount(0), 1);
  EXPECT_EQ(cuda::ReduceLaneCount(1), 1);
  EXPECT_EQ(cuda::ReduceLaneCount(5), 8);
  EXPECT_EQ(cuda::ReduceLaneCount(32), 32);
  EXPECT_EQ(cuda::ReduceLaneCount(1000), 32);
}

}  // namespace
}  // namespace hlocheck

namespace hlocheck {
namespace {

// Transposes that move the operand's contiguous dimension go by tiles
// (data_movement_kernels.h): on the host machine, the tiled path against
// the definition, for sizes that leave partial tiles and every element size.
TEST(CudaKernels, TiledTransposeMatchesTheDefinition) {
  std::unique_ptr<cuda::Machine> machine = cuda::CreateHostMachine();
  const Shape shape = {33, 5, 70};
  const std::vector<int64_t> permutation = {2, 0, 1};
  const Shape result = {70, 33, 5};
  for (int bytes : {1, 2, 4, 8, 16}) {
    const int64_t n = 33 * 5 * 70;
    std::vector<uint8_t> in(static_cast<size_t>(n * bytes));
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
    std::vector<uint8_t> out(in.size(), 0);
    cuda::StridedCopyArgs args =
        cuda::PermutingCopy(shape, result, permutation, bytes, in.data(), out.data());
    ASSERT_GE(cuda::PlanTiles(args).j, 0) << "not the tiled path";
    ASSERT_EQ(machine->StridedCopy(args), "");
    for (int64_t r0 = 0; r0 < 70; ++r0) {
      for (int64_t r1 = 0; r1 < 33; ++r1) {
        for (int64_t r2 = 0; r2 < 5; ++r2) {
          // result[r0, r1, r2] = operand[r1, r2, r0]
          const int64_t from = (r1 * 5 + r2) * 70 + r0;
          const int64_t to = (r0 * 33 + r1) * 5 + r2;
          ASSERT_EQ(std::memcmp(out.data() + to * bytes, in.data() + from * bytes, bytes), 0)
              << bytes << "-byte elements at " << r0 << "," << r1 << "," << r2;
        }
      }
    }
  }
}

}  // namespace
}  // namespace hlocheck
