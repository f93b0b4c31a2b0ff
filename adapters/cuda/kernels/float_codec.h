// Decoding and encoding of the narrow float formats (f16, bf16, the f8, f6
// and f4 types) by bit manipulation alone, for CUDA kernels and host code.
//
// This is a self-contained copy of the semantics of core/exact_value.cc
// (DecodeFloat, EncodeFloat with round to nearest, ties to even) for use
// where core cannot go: device code. It includes nothing but <cstdint>, uses
// no exceptions, no recursion and no <cmath> (frexp/ldexp do not behave
// identically on device); tests/adapters/cuda_float_codec_test.cc checks it
// bit for bit against core.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_FLOAT_CODEC_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_FLOAT_CODEC_H_

#include <cstdint>

// Shared by the kernel headers: callable from host and device code.
#ifndef HLOCHECK_HD
#if defined(__CUDACC__)
#define HLOCHECK_HD __host__ __device__ __forceinline__
#else
#define HLOCHECK_HD inline
#endif
#endif

namespace hlocheck::cuda {

// Values of MiniFloat::nan_encoding; the same order as core's NanEncoding.
enum : int {
  kMiniFloatNanNone = 0,          // finite-only formats (f4E2M1FN, f6*): no NaN at all
  kMiniFloatNanIeee = 1,          // exponent all ones, mantissa non-zero
  kMiniFloatNanAllOnes = 2,       // exponent and mantissa all ones (f8E4M3FN, f8E8M0FNU)
  kMiniFloatNanNegativeZero = 3,  // the bit pattern of -0 (the FNUZ types)
};

// A float format; mirrors core's FloatFormat (core/element_type.h) field for
// field. Supported: the formats whose every value is a normal double, i.e.
// mantissa_bits <= 52 and exponents well inside double's range (all formats
// of at most 32 bits); DecodeMiniFloatToFloat further needs every value to be
// exact in float (all formats of at most 16 bits are).
struct MiniFloat {
  int exponent_bits;
  int mantissa_bits;  // stored fraction bits, without the implicit leading one
  int bias;
  bool has_sign;
  bool has_infinity;
  bool has_zero_and_subnormals;  // false only for f8E8M0FNU
  int nan_encoding;              // a kMiniFloatNan* value
};

// The narrow float types, with the values of core's Format(type).
HLOCHECK_HD constexpr MiniFloat MiniFloatIeee(int e, int m, int bias) {
  return {e, m, bias, true, true, true, kMiniFloatNanIeee};
}
HLOCHECK_HD constexpr MiniFloat MiniFloatNanAllOnes(int e, int m, int bias) {
  return {e, m, bias, true, false, true, kMiniFloatNanAllOnes};
}
HLOCHECK_HD constexpr MiniFloat MiniFloatFnuz(int e, int m, int bias) {
  return {e, m, bias, true, false, true, kMiniFloatNanNegativeZero};
}
HLOCHECK_HD constexpr MiniFloat MiniFloatFiniteOnly(int e, int m, int bias) {
  return {e, m, bias, true, false, true, kMiniFloatNanNone};
}

HLOCHECK_HD constexpr MiniFloat F16() { return MiniFloatIeee(5, 10, 15); }
HLOCHECK_HD constexpr MiniFloat BF16() { return MiniFloatIeee(8, 7, 127); }
HLOCHECK_HD constexpr MiniFloat F8E3M4() { return MiniFloatIeee(3, 4, 3); }
HLOCHECK_HD constexpr MiniFloat F8E4M3() { return MiniFloatIeee(4, 3, 7); }
HLOCHECK_HD constexpr MiniFloat F8E5M2() { return MiniFloatIeee(5, 2, 15); }
HLOCHECK_HD constexpr MiniFloat F8E4M3FN() { return MiniFloatNanAllOnes(4, 3, 7); }
HLOCHECK_HD constexpr MiniFloat F8E4M3FNUZ() { return MiniFloatFnuz(4, 3, 8); }
HLOCHECK_HD constexpr MiniFloat F8E4M3B11FNUZ() { return MiniFloatFnuz(4, 3, 11); }
HLOCHECK_HD constexpr MiniFloat F8E5M2FNUZ() { return MiniFloatFnuz(5, 2, 16); }
// OCP MX E8M0 scale: no sign, no zero, no subnormals, no Inf, NaN = 0xFF.
HLOCHECK_HD constexpr MiniFloat F8E8M0FNU() {
  return {8, 0, 127, false, false, false, kMiniFloatNanAllOnes};
}
HLOCHECK_HD constexpr MiniFloat F4E2M1FN() { return MiniFloatFiniteOnly(2, 1, 1); }
HLOCHECK_HD constexpr MiniFloat F6E2M3FN() { return MiniFloatFiniteOnly(2, 3, 1); }
HLOCHECK_HD constexpr MiniFloat F6E3M2FN() { return MiniFloatFiniteOnly(3, 2, 3); }

// Properties of a format, as core's FloatFormat members compute them.
HLOCHECK_HD constexpr int MiniFloatTotalBits(const MiniFloat& f) {
  return (f.has_sign ? 1 : 0) + f.exponent_bits + f.mantissa_bits;
}
HLOCHECK_HD constexpr uint32_t MiniFloatSignMask(const MiniFloat& f) {
  return f.has_sign ? uint32_t{1} << (f.exponent_bits + f.mantissa_bits) : 0u;
}
HLOCHECK_HD constexpr uint32_t MiniFloatExponentFieldMax(const MiniFloat& f) {
  return (uint32_t{1} << f.exponent_bits) - 1u;
}
HLOCHECK_HD constexpr uint32_t MiniFloatMantissaMask(const MiniFloat& f) {
  return (uint32_t{1} << f.mantissa_bits) - 1u;
}
HLOCHECK_HD constexpr bool MiniFloatHasNegativeZero(const MiniFloat& f) {
  return f.has_sign && f.has_zero_and_subnormals && f.nan_encoding != kMiniFloatNanNegativeZero;
}
// Bit pattern of the largest finite positive value.
HLOCHECK_HD constexpr uint32_t MiniFloatMaxFiniteBits(const MiniFloat& f) {
  uint32_t exponent = MiniFloatExponentFieldMax(f);
  uint32_t mantissa = MiniFloatMantissaMask(f);
  if (f.nan_encoding == kMiniFloatNanIeee) {
    exponent -= 1u;
  } else if (f.nan_encoding == kMiniFloatNanAllOnes) {
    // All ones is NaN; the largest finite value is one step below it.
    if (f.mantissa_bits == 0) {
      exponent -= 1u;
    } else {
      mantissa -= 1u;
    }
  }
  return (exponent << f.mantissa_bits) | mantissa;
}
// Bit pattern of the canonical (positive, quiet) NaN; 0 for formats without
// NaN (where core asserts and, in release builds, also answers 0).
HLOCHECK_HD constexpr uint32_t MiniFloatNanBits(const MiniFloat& f) {
  switch (f.nan_encoding) {
    case kMiniFloatNanIeee:
      return (MiniFloatExponentFieldMax(f) << f.mantissa_bits) |
             (uint32_t{1} << (f.mantissa_bits - 1));
    case kMiniFloatNanAllOnes:
      return (MiniFloatExponentFieldMax(f) << f.mantissa_bits) | MiniFloatMantissaMask(f);
    case kMiniFloatNanNegativeZero:
      return MiniFloatSignMask(f);
    default:
      return 0u;
  }
}
// Bit pattern of +Inf; only meaningful if has_infinity.
HLOCHECK_HD constexpr uint32_t MiniFloatInfinityBits(const MiniFloat& f) {
  return MiniFloatExponentFieldMax(f) << f.mantissa_bits;
}
HLOCHECK_HD constexpr bool MiniFloatIsNaNBits(const MiniFloat& f, uint32_t bits) {
  const uint32_t magnitude = bits & ~MiniFloatSignMask(f);
  switch (f.nan_encoding) {
    case kMiniFloatNanIeee:
      return (magnitude >> f.mantissa_bits) == MiniFloatExponentFieldMax(f) &&
             (magnitude & MiniFloatMantissaMask(f)) != 0u;
    case kMiniFloatNanAllOnes:
      return magnitude ==
             ((MiniFloatExponentFieldMax(f) << f.mantissa_bits) | MiniFloatMantissaMask(f));
    case kMiniFloatNanNegativeZero:
      return bits == MiniFloatSignMask(f);
    default:
      return false;
  }
}
HLOCHECK_HD constexpr bool MiniFloatIsInfinityBits(const MiniFloat& f, uint32_t bits) {
  return f.has_infinity && (bits & ~MiniFloatSignMask(f)) == MiniFloatInfinityBits(f);
}

// Bit casts that work in device code and on the host alike.
HLOCHECK_HD uint64_t BitsOfDouble(double value) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint64_t>(__double_as_longlong(value));
#else
  return __builtin_bit_cast(uint64_t, value);
#endif
}
HLOCHECK_HD double DoubleOfBits(uint64_t bits) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(bits));
#else
  return __builtin_bit_cast(double, bits);
#endif
}
HLOCHECK_HD float FloatOfBits(uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  return __builtin_bit_cast(float, bits);
#endif
}
HLOCHECK_HD uint32_t BitsOfFloat(float value) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(value);
#else
  return __builtin_bit_cast(uint32_t, value);
#endif
}

namespace float_codec_internal {

// Index of the highest set bit; x must be non-zero.
HLOCHECK_HD int HighestBit(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(static_cast<long long>(x));
#else
  return 63 - __builtin_clzll(x);
#endif
}

enum : int { kZero, kFinite, kInfinity, kNaN };

// A decoded bit pattern: (-1)^negative * significand * 2^exponent.
struct Decoded {
  int cls;
  bool negative;
  uint32_t significand;  // non-zero exactly when cls == kFinite
  int exponent;
};

// core's DecodeFloat.
HLOCHECK_HD Decoded Decode(const MiniFloat& f, uint32_t bits) {
  const uint32_t sign_mask = MiniFloatSignMask(f);
  const bool negative = (bits & sign_mask) != 0u;
  if (MiniFloatIsNaNBits(f, bits)) return {kNaN, negative, 0u, 0};
  if (MiniFloatIsInfinityBits(f, bits)) return {kInfinity, negative, 0u, 0};
  const uint32_t magnitude = bits & ~sign_mask;
  const uint32_t exponent_field = magnitude >> f.mantissa_bits;
  const uint32_t mantissa = magnitude & MiniFloatMantissaMask(f);
  if (exponent_field == 0u && f.has_zero_and_subnormals) {
    if (mantissa == 0u) return {kZero, negative, 0u, 0};
    return {kFinite, negative, mantissa, 1 - f.bias - f.mantissa_bits};
  }
  // Normal; in f8E8M0FNU (no subnormals) exponent field 0 is 2^-127.
  return {kFinite, negative, (uint32_t{1} << f.mantissa_bits) | mantissa,
          static_cast<int>(exponent_field) - f.bias - f.mantissa_bits};
}

// What core's EncodeFloat answers for a zero, or a value that rounds to zero.
HLOCHECK_HD uint32_t ZeroBits(const MiniFloat& f, bool negative) {
  // f8E8M0FNU has no zero; like core (and LLVM's APFloat) answer its smallest
  // value, 2^-127, whose pattern is 0.
  if (!f.has_zero_and_subnormals) return 0u;
  // -0 becomes +0 where the format has no -0 (FNUZ: that pattern is NaN).
  if (negative && MiniFloatHasNegativeZero(f)) return MiniFloatSignMask(f);
  return 0u;
}

// The overflow rule: Inf; else NaN (unsigned in FNUZ, where NaN is the one
// pattern -0); else the largest finite value of the sign.
HLOCHECK_HD uint32_t OverflowBits(const MiniFloat& f, bool negative) {
  const uint32_t sign = negative ? MiniFloatSignMask(f) : 0u;
  if (f.has_infinity) return sign | MiniFloatInfinityBits(f);
  if (f.nan_encoding == kMiniFloatNanNegativeZero) return MiniFloatNanBits(f);
  if (f.nan_encoding != kMiniFloatNanNone) return sign | MiniFloatNanBits(f);
  return sign | MiniFloatMaxFiniteBits(f);
}

}  // namespace float_codec_internal

// The exact value of a bit pattern (in the low MiniFloatTotalBits bits), as
// core's DecodeFloat(format, bits).ToDouble(): signed zeros and infinities
// kept, NaN patterns give a quiet NaN of the pattern's sign.
HLOCHECK_HD double DecodeMiniFloat(const MiniFloat& f, uint32_t bits) {
  namespace in = float_codec_internal;
  const in::Decoded d = in::Decode(f, bits);
  const uint64_t sign = d.negative ? uint64_t{1} << 63 : 0u;
  switch (d.cls) {
    case in::kZero:
      return DoubleOfBits(sign);
    case in::kInfinity:
      return DoubleOfBits(sign | 0x7ff0000000000000u);
    case in::kNaN:
      return DoubleOfBits(sign | 0x7ff8000000000000u);
    default:
      break;
  }
  // significand * 2^exponent is a normal double for every supported format:
  // place the highest set bit as the implicit one.
  const int msb = in::HighestBit(d.significand);
  const uint64_t biased = static_cast<uint64_t>(msb + d.exponent + 1023);
  const uint64_t fraction = (uint64_t{d.significand} << (52 - msb)) & ((uint64_t{1} << 52) - 1u);
  return DoubleOfBits(sign | (biased << 52) | fraction);
}

// The same value as a float, built from bits (so no double -> float
// conversion, which flush-to-zero modes could alter): exact for every format
// of at most 16 bits, subnormal floats (bf16's smallest values, f8E8M0FNU's
// 2^-127) included.
HLOCHECK_HD float DecodeMiniFloatToFloat(const MiniFloat& f, uint32_t bits) {
  namespace in = float_codec_internal;
  const in::Decoded d = in::Decode(f, bits);
  const uint32_t sign = d.negative ? uint32_t{1} << 31 : 0u;
  switch (d.cls) {
    case in::kZero:
      return FloatOfBits(sign);
    case in::kInfinity:
      return FloatOfBits(sign | 0x7f800000u);
    case in::kNaN:
      return FloatOfBits(sign | 0x7fc00000u);
    default:
      break;
  }
  const int msb = in::HighestBit(d.significand);
  const int biased = msb + d.exponent + 127;
  if (biased <= 0) {
    // Subnormal float: significand * 2^exponent = field * 2^-149, exact as
    // long as exponent >= -149 (true for every format of at most 16 bits).
    return FloatOfBits(sign | (d.significand << (d.exponent + 149)));
  }
  const uint32_t fraction = (d.significand << (23 - msb)) & ((uint32_t{1} << 23) - 1u);
  return FloatOfBits(sign | (static_cast<uint32_t>(biased) << 23) | fraction);
}

// `value` rounded once to the format (to nearest, ties to even), with the
// format's overflow rule; the same bits as core's
// EncodeFloat(format, ExactValue::FromDouble(value)) for every double.
//
// The rounding starts from the double's exact significand and exponent, so
// the result is correctly rounded: there is no intermediate format (such as
// float) and so no double rounding to worry about.
//
// Special cases, all as in core:
// - NaN: the format's canonical NaN with the value's sign; unsigned where the
//   format has one NaN pattern only (FNUZ: -0's pattern) or no sign
//   (f8E8M0FNU); +0 in finite-only formats (f4E2M1FN, f6*), which have no NaN.
// - +-Inf: +-Inf; else NaN (as for overflow); finite-only: +-max finite.
// - +-0, and values that round to zero: -0 only where the format has it
//   (not FNUZ: +0 there); f8E8M0FNU, which has no zero, answers 0x00 = 2^-127.
// - Negative values in f8E8M0FNU (no sign): NaN (0xFF); but -0 gives 0x00.
// - Overflow (the value rounded to the format's precision exceeds the largest
//   finite value): has_infinity -> +-Inf; NaN but no Inf -> NaN (signed in
//   f8E4M3FN, unsigned in FNUZ); finite-only -> +-max finite.
HLOCHECK_HD uint32_t EncodeMiniFloat(const MiniFloat& f, double value) {
  namespace in = float_codec_internal;
  const uint64_t d = BitsOfDouble(value);
  const bool negative = (d >> 63) != 0u;
  const uint32_t sign = negative ? MiniFloatSignMask(f) : 0u;
  const int double_exponent_field = static_cast<int>((d >> 52) & 0x7ffu);
  const uint64_t double_fraction = d & ((uint64_t{1} << 52) - 1u);

  if (double_exponent_field == 0x7ff) {
    if (double_fraction != 0u) {  // NaN
      if (f.nan_encoding == kMiniFloatNanNone) return 0u;
      if (f.nan_encoding == kMiniFloatNanNegativeZero || !f.has_sign) return MiniFloatNanBits(f);
      return sign | MiniFloatNanBits(f);
    }
    return in::OverflowBits(f, negative);  // +-Inf: the same three outcomes
  }
  if (double_exponent_field == 0 && double_fraction == 0u) return in::ZeroBits(f, negative);
  if (negative && !f.has_sign) return MiniFloatNanBits(f);

  // |value| = m * 2^e exactly, m < 2^53.
  uint64_t m;
  int e;
  if (double_exponent_field == 0) {
    m = double_fraction;
    e = -1074;
  } else {
    m = double_fraction | (uint64_t{1} << 52);
    e = double_exponent_field - 1075;
  }

  // Round to a multiple of 2^quantum: the value's ulp in the format, or the
  // subnormal spacing below the smallest normal.
  const int mbits = f.mantissa_bits;
  const int value_exponent = in::HighestBit(m) + e;  // |value| in [2^x, 2^(x+1))
  const int min_normal_exponent = f.has_zero_and_subnormals ? 1 - f.bias : -f.bias;
  int quantum =
      (value_exponent > min_normal_exponent ? value_exponent : min_normal_exponent) - mbits;
  const int shift = quantum - e;
  uint64_t n;
  if (shift <= 0) {
    n = m << -shift;  // exact: n < 2^(mbits+1)
  } else if (shift >= 64) {
    n = 0u;  // m < 2^53 is below half a quantum
  } else {
    n = m >> shift;
    const uint64_t remainder = m & ((uint64_t{1} << shift) - 1u);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (remainder > half || (remainder == half && (n & 1u) != 0u)) ++n;
  }
  if (n == (uint64_t{1} << (mbits + 1))) {  // rounded up into the next binade
    n >>= 1;
    ++quantum;
  }
  if (n == 0u) return in::ZeroBits(f, negative);

  uint32_t exponent_field;
  uint32_t mantissa;
  if (n < (uint64_t{1} << mbits)) {
    exponent_field = 0u;  // subnormal
    mantissa = static_cast<uint32_t>(n);
  } else {
    const int biased = quantum + mbits + f.bias;
    if (biased > static_cast<int>(MiniFloatExponentFieldMax(f))) {
      return in::OverflowBits(f, negative);
    }
    exponent_field = static_cast<uint32_t>(biased);
    mantissa = static_cast<uint32_t>(n - (uint64_t{1} << mbits));
  }
  const uint32_t magnitude = (exponent_field << mbits) | mantissa;
  // Catches the Inf/NaN patterns of the top binade (IEEE, f8E4M3FN, E8M0).
  if (magnitude > MiniFloatMaxFiniteBits(f)) return in::OverflowBits(f, negative);
  return sign | magnitude;
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_FLOAT_CODEC_H_
