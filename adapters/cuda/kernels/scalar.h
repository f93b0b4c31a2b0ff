// The CUDA adapter's scalar arithmetic, one element at a time, written
// __host__ __device__ so that the host tests every function the GPU runs
// (tests/adapters/cuda_scalar_test.cc). Integers are computed on their
// 64-bit two's complement pattern (sign- or zero-extended from their width)
// and wrapped back; floats narrower than f32 are computed in float and
// rounded once (EncodeMiniFloat); f32 in float, f64 in double, with CUDA's
// math library on the GPU and the C library on the host.
//
// Where the spec leaves a result to the implementation (integer division
// by zero, float to integer out of range, shifts past the width), the
// results are XLA's.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_SCALAR_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_SCALAR_H_

#include <cstdint>

#if !defined(__CUDACC__)
#include <cmath>
#endif

#include "adapters/cuda/kernels/float_codec.h"
#include "adapters/cuda/kernels/kernel_api.h"

namespace hlocheck::cuda {

// ------------------------------------------------------------ integers

// The low `bits` bits of x, sign-extended (signed) or zero-extended.
HLOCHECK_HD uint64_t WrapBits(uint64_t x, int bits, bool is_signed) {
  if (bits >= 64) return x;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  x &= mask;
  if (is_signed && ((x >> (bits - 1)) & 1) != 0) x |= ~mask;
  return x;
}

HLOCHECK_HD uint64_t WidthMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// Quotient truncated toward zero; x / 0 is -1 (all bits set) and
// min / -1 is min, as XLA defines them.
HLOCHECK_HD uint64_t IntDivide(uint64_t x, uint64_t y, bool is_signed) {
  if (y == 0) return ~uint64_t{0};
  if (is_signed) {
    const auto b = static_cast<int64_t>(y);
    if (b == -1) return uint64_t{0} - x;
    return static_cast<uint64_t>(static_cast<int64_t>(x) / b);
  }
  return x / y;
}

// Remainder with the dividend's sign; x % 0 is x and min % -1 is 0 (XLA).
HLOCHECK_HD uint64_t IntRemainder(uint64_t x, uint64_t y, bool is_signed) {
  if (y == 0) return x;
  if (is_signed) {
    const auto b = static_cast<int64_t>(y);
    if (b == -1) return 0;
    return static_cast<uint64_t>(static_cast<int64_t>(x) % b);
  }
  return x % y;
}

// Power by squaring, wrapping as repeated multiplication does; a negative
// exponent gives XLA's results: 1 for base 1, +-1 for base -1, else 0.
HLOCHECK_HD uint64_t IntPower(uint64_t base, uint64_t exponent, bool is_signed) {
  if (is_signed && static_cast<int64_t>(exponent) < 0) {
    const auto b = static_cast<int64_t>(base);
    if (b == 1) return 1;
    if (b == -1) return (exponent & 1) != 0 ? ~uint64_t{0} : 1;
    return 0;
  }
  uint64_t result = 1;
  while (exponent != 0) {
    if ((exponent & 1) != 0) result *= base;
    base *= base;
    exponent >>= 1;
  }
  return result;
}

enum class ShiftKind : uint8_t { kLeft, kRightArithmetic, kRightLogical };

// The amount is read as unsigned in the type's width; past the width a
// left or logical shift gives 0 and an arithmetic one the sign fill.
HLOCHECK_HD uint64_t IntShift(uint64_t a, uint64_t b, int bits, bool is_signed, ShiftKind kind) {
  const uint64_t mask = WidthMask(bits);
  const uint64_t amount = b & mask;
  const bool in_range = amount < static_cast<uint64_t>(bits);
  if (kind == ShiftKind::kLeft) return in_range ? a << amount : 0;
  if (kind == ShiftKind::kRightLogical) return in_range ? (a & mask) >> amount : 0;
  const bool negative = ((a >> (bits - 1)) & 1) != 0;
  if (!in_range) return negative ? ~uint64_t{0} : 0;
  if (is_signed) return static_cast<uint64_t>(static_cast<int64_t>(a) >> amount);
  // An unsigned pattern with its top bit set shifts that bit in, as the
  // same bits would as signed.
  const uint64_t fill = negative ? ~(mask >> amount) : 0;
  return ((a & mask) >> amount) | fill;
}

HLOCHECK_HD int PopCount(uint64_t x) {
  int count = 0;
  while (x != 0) {
    x &= x - 1;
    ++count;
  }
  return count;
}

// Leading zeros of the low `bits` bits.
HLOCHECK_HD int CountLeadingZeros(uint64_t x, int bits) {
  x &= WidthMask(bits);
  int count = 0;
  for (int bit = bits - 1; bit >= 0 && ((x >> bit) & 1) == 0; --bit) ++count;
  return count;
}

// An integer's magnitude as a double rounded to odd: exact below 2^53,
// else its top 53 bits with a sticky last bit, so that rounding it once
// more to any format of at most 51 significand bits rounds x correctly.
HLOCHECK_HD double IntToDoubleRoundOdd(uint64_t magnitude) {
  if (magnitude < (uint64_t{1} << 53)) return static_cast<double>(magnitude);
  int shift = 0;
  while ((magnitude >> shift) >= (uint64_t{1} << 53)) ++shift;
  uint64_t kept = magnitude >> shift;
  if ((magnitude & ((uint64_t{1} << shift) - 1)) != 0) kept |= 1;
  double value = static_cast<double>(kept);
  for (int i = 0; i < shift; ++i) value *= 2.0;
  return value;
}

// ------------------------------------------------------------ floats

HLOCHECK_HD bool IsNan(double x) { return x != x; }
HLOCHECK_HD bool IsNan(float x) { return x != x; }

template <typename R>
HLOCHECK_HD bool SignBit(R x) {
#if defined(__CUDACC__)
  return signbit(x);
#else
  return std::signbit(x);
#endif
}

// IEEE maximum/minimum as the spec has them: NaN propagates, -0 < +0.
template <typename R>
HLOCHECK_HD R FloatExtremum(R a, R b, bool is_max) {
  if (IsNan(a) || IsNan(b)) return a + b;
  if (a == b) return (SignBit(a) == is_max) ? b : a;
  return (a > b) == is_max ? a : b;
}

// The math library's functions by compute type. On the GPU, CUDA's: the
// float names for float, the double ones for double, with the ULP bounds
// CUDA documents (backends/cuda.yaml). On the host, which stands in for
// the GPU only to test the kernels' logic, the C library's, one precision
// wider and rounded once, so that its own errors stay below CUDA's bounds.
// Functions the spec determines exactly (sqrt, floor, fmod, ...) are never
// widened: a second rounding could move their result.
#if defined(__CUDA_ARCH__)
#define HLOCHECK_INEXACT_MATH(Name, float_name, double_name)  \
  HLOCHECK_HD float Name(float x) { return ::float_name(x); } \
  HLOCHECK_HD double Name(double x) { return ::double_name(x); }
#define HLOCHECK_INEXACT_MATH2(Name, float_name, double_name)             \
  HLOCHECK_HD float Name(float x, float y) { return ::float_name(x, y); } \
  HLOCHECK_HD double Name(double x, double y) { return ::double_name(x, y); }
#define HLOCHECK_EXACT_MATH(Name, float_name, double_name)    \
  HLOCHECK_HD float Name(float x) { return ::float_name(x); } \
  HLOCHECK_HD double Name(double x) { return ::double_name(x); }
#else
#define HLOCHECK_INEXACT_MATH(Name, float_name, double_name)                   \
  inline float Name(float x) {                                                 \
    return static_cast<float>(std::double_name(static_cast<double>(x)));       \
  }                                                                            \
  inline double Name(double x) {                                               \
    return static_cast<double>(std::double_name(static_cast<long double>(x))); \
  }
#define HLOCHECK_INEXACT_MATH2(Name, float_name, double_name)                                    \
  inline float Name(float x, float y) {                                                          \
    return static_cast<float>(std::double_name(static_cast<double>(x), static_cast<double>(y))); \
  }                                                                                              \
  inline double Name(double x, double y) {                                                       \
    return static_cast<double>(                                                                  \
        std::double_name(static_cast<long double>(x), static_cast<long double>(y)));             \
  }
#define HLOCHECK_EXACT_MATH(Name, float_name, double_name)   \
  inline float Name(float x) { return std::double_name(x); } \
  inline double Name(double x) { return std::double_name(x); }
#endif

HLOCHECK_INEXACT_MATH(Exp, expf, exp)
HLOCHECK_INEXACT_MATH(Expm1, expm1f, expm1)
HLOCHECK_INEXACT_MATH(Log, logf, log)
HLOCHECK_INEXACT_MATH(Log1p, log1pf, log1p)
HLOCHECK_INEXACT_MATH(Sin, sinf, sin)
HLOCHECK_INEXACT_MATH(Cos, cosf, cos)
HLOCHECK_INEXACT_MATH(Tan, tanf, tan)
HLOCHECK_INEXACT_MATH(Tanh, tanhf, tanh)
HLOCHECK_INEXACT_MATH(Cbrt, cbrtf, cbrt)
#if defined(__CUDA_ARCH__)
HLOCHECK_INEXACT_MATH2(Pow, powf, pow)
#else
inline float Pow(float x, float y) {
  return static_cast<float>(std::pow(static_cast<double>(x), static_cast<double>(y)));
}
// glibc's powl answers inf for pow(-inf, -2^63) (its integer exponent path
// overflows); the special values and the huge (even) exponents are exact in
// double's pow anyway.
inline double Pow(double x, double y) {
  if (!std::isfinite(x) || !(std::fabs(y) < 0x1p62)) return std::pow(x, y);
  return static_cast<double>(std::pow(static_cast<long double>(x), static_cast<long double>(y)));
}
#endif
HLOCHECK_INEXACT_MATH2(Atan2, atan2f, atan2)
HLOCHECK_EXACT_MATH(Fabs, fabsf, fabs)
HLOCHECK_EXACT_MATH(Sqrt, sqrtf, sqrt)
HLOCHECK_EXACT_MATH(Floor, floorf, floor)
HLOCHECK_EXACT_MATH(Ceil, ceilf, ceil)
// Round half to even (rint, under the default rounding mode) and half away
// from zero (round).
HLOCHECK_EXACT_MATH(RoundEven, rintf, rint)
HLOCHECK_EXACT_MATH(RoundAfz, roundf, round)
#undef HLOCHECK_INEXACT_MATH
#undef HLOCHECK_INEXACT_MATH2
#undef HLOCHECK_EXACT_MATH

HLOCHECK_HD float Fmod(float x, float y) {
#if defined(__CUDA_ARCH__)
  return ::fmodf(x, y);
#else
  return std::fmod(x, y);
#endif
}
HLOCHECK_HD double Fmod(double x, double y) {
#if defined(__CUDA_ARCH__)
  return ::fmod(x, y);
#else
  return std::fmod(x, y);
#endif
}

HLOCHECK_HD float Rsqrt(float x) {
#if defined(__CUDA_ARCH__)
  return ::rsqrtf(x);
#else
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
#endif
}
HLOCHECK_HD double Rsqrt(double x) {
#if defined(__CUDA_ARCH__)
  return ::rsqrt(x);
#else
  return static_cast<double>(1.0L / std::sqrt(static_cast<long double>(x)));
#endif
}

HLOCHECK_HD double Fma(double x, double y, double z) {
#if defined(__CUDA_ARCH__)
  return ::fma(x, y, z);
#else
  return std::fma(x, y, z);
#endif
}

// x * y into *product when the product is exact: fma finds its rounding
// error, which it represents exactly only above 2^-968 (no underflow).
HLOCHECK_HD bool ExactProduct(double x, double y, double* product) {
  const double p = x * y;
  if (!(p - p == 0) || Fabs(p) < 0x1p-968) return false;
  if (Fma(x, y, -p) != 0) return false;
  *product = p;
  return true;
}

// x^y for double. CUDA's pow is within 2 ULP, not exact even where x^y is
// a short dyadic number: 0.0390625^2 came out a hair above 25 * 2^-14, a
// midpoint of f8E4M3B11FNUZ, and rounding that to the 8-bit type went up
// instead of to even (seen on an H200). So where the power is exactly a
// double, it is computed exactly: y an integer or half of one (|y| <= 64),
// x^|2y| by squaring with every product checked exact, then one correctly
// rounded sqrt for a half and one division for a negative y (their results
// are never a narrow type's midpoint unless exact). Elsewhere, pow.
HLOCHECK_HD double Power(double x, double y) {
  const double twice = y * 2;
  if (!(x - x == 0) || x == 0 || !(Fabs(twice) <= 128) || twice != Floor(twice)) return Pow(x, y);
  const int doubled = static_cast<int>(twice);
  const bool half = (doubled & 1) != 0;
  if (half && x < 0) return Pow(x, y);
  int n = (doubled < 0 ? -doubled : doubled) / (half ? 1 : 2);
  double result = 1;
  double base = x;
  while (n != 0) {
    if ((n & 1) != 0 && !ExactProduct(result, base, &result)) return Pow(x, y);
    n >>= 1;
    if (n != 0 && !ExactProduct(base, base, &base)) return Pow(x, y);
  }
  if (half) result = Sqrt(result);
  return doubled < 0 ? 1 / result : result;
}
HLOCHECK_HD float Power(float x, float y) { return Pow(x, y); }

// 1 / (1 + e^-x), in the form that neither overflows nor cancels: at most
// 2 ULP in double (exp's 1, the sum's and the quotient's half each), and
// f32 computed in double, so that exp's 2 ULP in float do not add up to
// more than the spec's 3.
HLOCHECK_HD double Logistic(double x) {
  if (x >= 0) return 1.0 / (1.0 + Exp(-x));
  const double e = Exp(x);
  return e / (1.0 + e);
}
HLOCHECK_HD float Logistic(float x) { return static_cast<float>(Logistic(static_cast<double>(x))); }

template <typename R>
HLOCHECK_HD R FloatSign(R x) {
  if (IsNan(x) || x == R(0)) return x;
  return x > R(0) ? R(1) : R(-1);
}

// A real float unary op in the compute type R.
template <typename R>
HLOCHECK_HD R FloatUnary(ElementOp op, R x) {
  switch (op) {
    case ElementOp::kAbs:
      return Fabs(x);
    case ElementOp::kNegate:
      return -x;
    case ElementOp::kSign:
      return FloatSign(x);
    case ElementOp::kSqrt:
      return Sqrt(x);
    case ElementOp::kRsqrt:
      return Rsqrt(x);
    case ElementOp::kCbrt:
      return Cbrt(x);
    case ElementOp::kExponential:
      return Exp(x);
    case ElementOp::kExponentialMinusOne:
      return Expm1(x);
    case ElementOp::kLog:
      return Log(x);
    case ElementOp::kLogPlusOne:
      return Log1p(x);
    case ElementOp::kLogistic:
      return Logistic(x);
    case ElementOp::kSine:
      return Sin(x);
    case ElementOp::kCosine:
      return Cos(x);
    case ElementOp::kTan:
      return Tan(x);
    case ElementOp::kTanh:
      return Tanh(x);
    case ElementOp::kFloor:
      return Floor(x);
    case ElementOp::kCeil:
      return Ceil(x);
    case ElementOp::kRoundNearestEven:
      return RoundEven(x);
    case ElementOp::kRoundNearestAfz:
      return RoundAfz(x);
    default:
      return x;
  }
}

template <typename R>
HLOCHECK_HD R FloatBinary(ElementOp op, R x, R y) {
  switch (op) {
    case ElementOp::kAdd:
      return x + y;
    case ElementOp::kSubtract:
      return x - y;
    case ElementOp::kMultiply:
      return x * y;
    case ElementOp::kDivide:
      return x / y;
    case ElementOp::kRemainder:
      return Fmod(x, y);
    case ElementOp::kMaximum:
      return FloatExtremum(x, y, true);
    case ElementOp::kMinimum:
      return FloatExtremum(x, y, false);
    case ElementOp::kPower:
      return Power(x, y);
    case ElementOp::kAtan2:
      return Atan2(x, y);
    default:
      return x;
  }
}

// compare's IEEE comparisons: every one but kNe is false with a NaN.
template <typename R>
HLOCHECK_HD bool CompareReal(CompareDirection direction, R x, R y) {
  switch (direction) {
    case CompareDirection::kEq:
      return x == y;
    case CompareDirection::kNe:
      return x != y;
    case CompareDirection::kGe:
      return x >= y;
    case CompareDirection::kGt:
      return x > y;
    case CompareDirection::kLe:
      return x <= y;
    case CompareDirection::kLt:
      return x < y;
  }
  return false;
}

// XLA's reduce_precision on a float's encoding (`exponent_bits`,
// `mantissa_bits`, `bias`, `sign_mask` 0 for an unsigned format): the
// mantissa rounded to nearest even at `mantissa` bits (a tie with no
// fraction bit left goes to the even exponent field), then beyond the
// reduced exponent range to infinity's encoding, below its smallest normal
// to zero of the sign. A NaN keeps its bits where a mantissa bit is left to
// hold it, else becomes an infinity of its sign.
HLOCHECK_HD uint64_t ReducePrecisionBits(uint64_t x, bool nan, int exponent_bits, int mantissa_bits,
                                         int64_t bias, uint64_t sign_mask, int exponent,
                                         int mantissa) {
  const uint64_t exponent_mask = ((uint64_t{1} << exponent_bits) - 1) << mantissa_bits;
  if (nan) return mantissa > 0 ? x : (x & sign_mask) | exponent_mask;
  uint64_t r = x;
  if (mantissa < mantissa_bits) {
    const int dropped = mantissa_bits - mantissa;
    const uint64_t last = uint64_t{1} << dropped;
    const uint64_t half_less_one = (last >> 1) - 1;
    const uint64_t last_kept = (r & last) >> dropped;
    r = (r + last_kept + half_less_one) & ~(last - 1);
  }
  if (exponent < exponent_bits) {
    const uint64_t sign = x & sign_mask;
    const uint64_t r_exponent = r & exponent_mask;
    const int64_t reduced_bias = (int64_t{1} << (exponent - 1)) - 1;
    const uint64_t max_exponent = static_cast<uint64_t>(bias + reduced_bias) << mantissa_bits;
    const int64_t min_biased = bias - reduced_bias > 0 ? bias - reduced_bias : 0;
    const uint64_t min_exponent = static_cast<uint64_t>(min_biased) << mantissa_bits;
    if (r_exponent > max_exponent || (r & sign_mask) != sign) {
      r = sign | exponent_mask;  // the rounding carried into the sign, or beyond the range
    } else if (r_exponent <= min_exponent) {
      r = sign;
    }
  }
  return r;
}

// A key that orders a float's bit pattern (sign and magnitude) as IEEE's
// totalOrder does: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
HLOCHECK_HD int64_t TotalOrderKey(uint64_t bits, int total_bits) {
  const uint64_t sign = uint64_t{1} << (total_bits - 1);
  const auto magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) != 0 ? -magnitude - 1 : magnitude;
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_SCALAR_H_
