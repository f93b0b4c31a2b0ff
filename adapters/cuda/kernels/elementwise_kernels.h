// The elementwise kernels: one functor per element storage, the op a
// run-time switch that every thread of a launch takes the same way. A
// machine runs them through its executor: exec.ForEach(n, functor) calls
// functor(i) for every i in [0, n), on the GPU as a grid, on the host in a
// loop.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_ELEMENTWISE_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_ELEMENTWISE_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/float_codec.h"
#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/cuda/kernels/scalar.h"

namespace hlocheck::cuda {

// ---------------------------------------------------------------- floats

// Float storages: the container C and the type R it is computed in.
template <Storage S>
struct FloatStorage;
template <>
struct FloatStorage<Storage::kF32> {
  using C = float;
  using R = float;
};
template <>
struct FloatStorage<Storage::kF64> {
  using C = double;
  using R = double;
};
// The narrow formats are computed in double: decoding is exact, each
// basic operation rounded once more to the format is correct (53 >= 2p + 2
// significand bits), and the library functions' own errors are far enough
// below the format's ULP that rounding rarely meets them (in float, atan2 of
// a tiny quotient lands on a tie of f8 that the exact value is not on).
template <>
struct FloatStorage<Storage::kMini8> {
  using C = uint8_t;
  using R = double;
};
template <>
struct FloatStorage<Storage::kMini16> {
  using C = uint16_t;
  using R = double;
};

template <Storage S>
HLOCHECK_HD typename FloatStorage<S>::R LoadFloat(const MiniFloat& mini,
                                                  typename FloatStorage<S>::C c) {
  if constexpr (S == Storage::kMini8 || S == Storage::kMini16) {
    return DecodeMiniFloat(mini, c);
  } else {
    return c;
  }
}

template <Storage S>
HLOCHECK_HD typename FloatStorage<S>::C StoreFloat(const MiniFloat& mini,
                                                   typename FloatStorage<S>::R r) {
  if constexpr (S == Storage::kMini8 || S == Storage::kMini16) {
    return static_cast<typename FloatStorage<S>::C>(EncodeMiniFloat(mini, r));
  } else {
    return r;
  }
}

// The container's bits, for totalOrder.
template <Storage S>
HLOCHECK_HD uint64_t FloatBits(typename FloatStorage<S>::C c) {
  if constexpr (S == Storage::kF32) {
    return BitsOfFloat(c);
  } else if constexpr (S == Storage::kF64) {
    return BitsOfDouble(c);
  } else {
    return c;
  }
}

// x, or zero of its sign where x is an f32 subnormal and `flush` is set.
template <typename R>
HLOCHECK_HD R Flushed(R x, bool flush) {
  if (flush && x != R(0) && x < R(1.17549435e-38f) && x > -R(1.17549435e-38f)) return R(0) * x;
  return x;
}

template <Storage S>
struct FloatElementwise {
  using C = typename FloatStorage<S>::C;
  using R = typename FloatStorage<S>::R;
  ElementwiseArgs args;

  // reduce_precision on the element's own encoding.
  HLOCHECK_HD C ReducePrecision(C x) const {
    const int e = args.reduce_exponent_bits;
    const int m = args.reduce_mantissa_bits;
    if constexpr (S == Storage::kF32) {
      return FloatOfBits(static_cast<uint32_t>(
          ReducePrecisionBits(BitsOfFloat(x), IsNan(x), 8, 23, 127, uint64_t{1} << 31, e, m)));
    } else if constexpr (S == Storage::kF64) {
      return DoubleOfBits(
          ReducePrecisionBits(BitsOfDouble(x), IsNan(x), 11, 52, 1023, uint64_t{1} << 63, e, m));
    } else {
      const MiniFloat& f = args.in.mini;
      const bool nan = MiniFloatIsNaNBits(f, x);
      // Without an infinity a NaN has nowhere else to go; without -0 a
      // flushed negative value is +0 (the FNUZ NaN has -0's pattern).
      if (nan && !f.has_infinity) return x;
      const uint64_t sign_mask = MiniFloatSignMask(f);
      const uint64_t total_mask = (uint64_t{1} << MiniFloatTotalBits(f)) - 1;
      uint64_t r =
          ReducePrecisionBits(x, nan, f.exponent_bits, f.mantissa_bits, f.bias, sign_mask, e, m) &
          total_mask;
      if (!MiniFloatHasNegativeZero(f) && sign_mask != 0 && r == sign_mask) r = 0;
      return static_cast<C>(r);
    }
  }

  HLOCHECK_HD void operator()(int64_t i) const {
    const C* a = static_cast<const C*>(args.a);
    const C* b = static_cast<const C*>(args.b);
    const C* c = static_cast<const C*>(args.c);
    const MiniFloat& mini = args.in.mini;
    const ElementOp op = args.op;
    if (op == ElementOp::kSelect) {
      const uint8_t* pred = static_cast<const uint8_t*>(args.a);
      static_cast<C*>(args.z)[i] =
          pred[i * args.a_stride] != 0 ? b[i * args.b_stride] : c[i * args.c_stride];
      return;
    }
    if (op == ElementOp::kReducePrecision) {
      static_cast<C*>(args.z)[i] = ReducePrecision(a[i * args.a_stride]);
      return;
    }
    const bool flush = S == Storage::kF32 && args.flush_subnormals;
    const auto load = [&](C bits) { return Flushed(LoadFloat<S>(mini, bits), flush); };
    const C x_bits = a[i * args.a_stride];
    const R x = load(x_bits);
    if (op == ElementOp::kIsFinite) {
      static_cast<uint8_t*>(args.z)[i] = (x - x == R(0)) ? 1 : 0;
      return;
    }
    if (op == ElementOp::kCompare) {
      const C y_bits = b[i * args.b_stride];
      bool result;
      if (args.compare_type == CompareType::kTotalOrder) {
        // A format without a sign bit (f8E8M0FNU) orders as its bits.
        const bool has_sign = S == Storage::kF32 || S == Storage::kF64 || mini.has_sign;
        const int64_t p = has_sign ? TotalOrderKey(FloatBits<S>(x_bits), args.in.bits)
                                   : static_cast<int64_t>(FloatBits<S>(x_bits));
        const int64_t q = has_sign ? TotalOrderKey(FloatBits<S>(y_bits), args.in.bits)
                                   : static_cast<int64_t>(FloatBits<S>(y_bits));
        result = CompareReal(args.direction, p, q);
      } else {
        result = CompareReal(args.direction, x, load(y_bits));
      }
      static_cast<uint8_t*>(args.z)[i] = result ? 1 : 0;
      return;
    }
    R r;
    if (op == ElementOp::kClamp) {
      // clamp(min = a, operand = b, max = c)
      const R operand = load(b[i * args.b_stride]);
      const R max = load(c[i * args.c_stride]);
      r = FloatExtremum(FloatExtremum(operand, x, true), max, false);
    } else if (op >= ElementOp::kAdd) {
      r = FloatBinary(op, x, load(b[i * args.b_stride]));
    } else {
      r = FloatUnary(op, x);
    }
    static_cast<C*>(args.z)[i] = StoreFloat<S>(mini, Flushed(r, flush));
  }
};

// -------------------------------------------------------------- integers

// Integer and boolean storages, of container C: every op on the 64-bit
// pattern, wrapped back to the width.
template <typename C>
struct IntElementwise {
  ElementwiseArgs args;

  HLOCHECK_HD uint64_t Load(const void* p, int64_t i) const {
    // Containers hold the value sign- or zero-extended to their own width;
    // C is the unsigned type of the container's size.
    return WrapBits(static_cast<const C*>(p)[i], 8 * static_cast<int>(sizeof(C)),
                    args.in.storage == Storage::kSigned);
  }

  HLOCHECK_HD void operator()(int64_t i) const {
    const ElementOp op = args.op;
    const bool is_bool = args.in.storage == Storage::kBool;
    const bool is_signed = args.in.storage == Storage::kSigned;
    const int bits = args.in.bits;
    if (op == ElementOp::kSelect) {
      const uint8_t* pred = static_cast<const uint8_t*>(args.a);
      static_cast<C*>(args.z)[i] = pred[i * args.a_stride] != 0
                                       ? static_cast<const C*>(args.b)[i * args.b_stride]
                                       : static_cast<const C*>(args.c)[i * args.c_stride];
      return;
    }
    const uint64_t x = Load(args.a, i * args.a_stride);
    if (op == ElementOp::kCompare) {
      const uint64_t y = Load(args.b, i * args.b_stride);
      const bool result =
          is_signed ? CompareReal(args.direction, static_cast<int64_t>(x), static_cast<int64_t>(y))
                    : CompareReal(args.direction, x, y);
      static_cast<uint8_t*>(args.z)[i] = result ? 1 : 0;
      return;
    }
    uint64_t r = 0;
    if (is_bool) {
      const bool p = x != 0;
      const bool q = op >= ElementOp::kAdd && Load(args.b, i * args.b_stride) != 0;
      switch (op) {
        case ElementOp::kNot:
          r = !p;
          break;
        case ElementOp::kAdd:
        case ElementOp::kOr:
        case ElementOp::kMaximum:
          r = p || q;
          break;
        case ElementOp::kMultiply:
        case ElementOp::kAnd:
        case ElementOp::kMinimum:
          r = p && q;
          break;
        case ElementOp::kXor:
          r = p != q;
          break;
        case ElementOp::kClamp: {
          const bool operand = q;
          const bool max = Load(args.c, i * args.c_stride) != 0;
          r = (operand || p) && max;
          break;
        }
        default:
          r = p;
      }
      static_cast<C*>(args.z)[i] = static_cast<C>(r);
      return;
    }
    const auto as_signed = [](uint64_t v) { return static_cast<int64_t>(v); };
    const auto less = [&](uint64_t p, uint64_t q) {
      return is_signed ? as_signed(p) < as_signed(q) : p < q;
    };
    if (op == ElementOp::kClamp) {
      const uint64_t operand = Load(args.b, i * args.b_stride);
      const uint64_t max = Load(args.c, i * args.c_stride);
      r = less(operand, x) ? x : operand;
      r = less(max, r) ? max : r;
    } else if (op >= ElementOp::kAdd) {
      const uint64_t y = Load(args.b, i * args.b_stride);
      switch (op) {
        case ElementOp::kAdd:
          r = x + y;
          break;
        case ElementOp::kSubtract:
          r = x - y;
          break;
        case ElementOp::kMultiply:
          r = x * y;
          break;
        case ElementOp::kDivide:
          r = IntDivide(x, y, is_signed);
          break;
        case ElementOp::kRemainder:
          r = IntRemainder(x, y, is_signed);
          break;
        case ElementOp::kMaximum:
          r = less(x, y) ? y : x;
          break;
        case ElementOp::kMinimum:
          r = less(y, x) ? y : x;
          break;
        case ElementOp::kPower:
          r = IntPower(x, y, is_signed);
          break;
        case ElementOp::kAnd:
          r = x & y;
          break;
        case ElementOp::kOr:
          r = x | y;
          break;
        case ElementOp::kXor:
          r = x ^ y;
          break;
        case ElementOp::kShiftLeft:
          r = IntShift(x, y, bits, is_signed, ShiftKind::kLeft);
          break;
        case ElementOp::kShiftRightArithmetic:
          r = IntShift(x, y, bits, is_signed, ShiftKind::kRightArithmetic);
          break;
        case ElementOp::kShiftRightLogical:
          r = IntShift(x, y, bits, is_signed, ShiftKind::kRightLogical);
          break;
        default:
          r = x;
      }
    } else {
      switch (op) {
        case ElementOp::kAbs:
          r = is_signed && as_signed(x) < 0 ? uint64_t{0} - x : x;
          break;
        case ElementOp::kNegate:
          r = uint64_t{0} - x;
          break;
        case ElementOp::kSign:
          r = !is_signed ? (x != 0 ? 1 : 0) : as_signed(x) < 0 ? ~uint64_t{0} : x != 0 ? 1 : 0;
          break;
        case ElementOp::kNot:
          r = ~x;
          break;
        case ElementOp::kPopcnt:
          r = static_cast<uint64_t>(PopCount(x & WidthMask(bits)));
          break;
        case ElementOp::kCountLeadingZeros:
          r = static_cast<uint64_t>(CountLeadingZeros(x, bits));
          break;
        default:
          r = x;
      }
    }
    static_cast<C*>(args.z)[i] = static_cast<C>(WrapBits(r, bits, is_signed));
  }
};

// ------------------------------------------------------------- convert

// One real element of any storage, as convert reads it: floats as their
// (exact) double value, integers and booleans as their 64-bit pattern.
struct Number {
  bool is_float = false;
  bool is_signed = false;
  double f = 0;
  uint64_t i = 0;
};

HLOCHECK_HD Number LoadNumber(const ElementKind& kind, const void* p, int64_t index) {
  Number n;
  switch (kind.storage) {
    case Storage::kF32:
      n.is_float = true;
      n.f = static_cast<const float*>(p)[index];
      return n;
    case Storage::kF64:
      n.is_float = true;
      n.f = static_cast<const double*>(p)[index];
      return n;
    case Storage::kMini8:
      n.is_float = true;
      n.f = DecodeMiniFloat(kind.mini, static_cast<const uint8_t*>(p)[index]);
      return n;
    case Storage::kMini16:
      n.is_float = true;
      n.f = DecodeMiniFloat(kind.mini, static_cast<const uint16_t*>(p)[index]);
      return n;
    case Storage::kComplex64:  // the real part, as convert reads it
      n.is_float = true;
      n.f = static_cast<const float*>(p)[2 * index];
      return n;
    case Storage::kComplex128:
      n.is_float = true;
      n.f = static_cast<const double*>(p)[2 * index];
      return n;
    case Storage::kBool:
      n.i = static_cast<const uint8_t*>(p)[index] != 0 ? 1 : 0;
      return n;
    case Storage::kSigned:
      n.is_signed = true;
      switch (kind.bytes) {
        case 1:
          n.i = static_cast<uint64_t>(static_cast<const int8_t*>(p)[index]);
          break;
        case 2:
          n.i = static_cast<uint64_t>(static_cast<const int16_t*>(p)[index]);
          break;
        case 4:
          n.i = static_cast<uint64_t>(static_cast<const int32_t*>(p)[index]);
          break;
        default:
          n.i = static_cast<uint64_t>(static_cast<const int64_t*>(p)[index]);
      }
      return n;
    case Storage::kUnsigned:
      switch (kind.bytes) {
        case 1:
          n.i = static_cast<const uint8_t*>(p)[index];
          break;
        case 2:
          n.i = static_cast<const uint16_t*>(p)[index];
          break;
        case 4:
          n.i = static_cast<const uint32_t*>(p)[index];
          break;
        default:
          n.i = static_cast<const uint64_t*>(p)[index];
      }
      return n;
  }
  return n;
}

// A float truncated toward zero into a `bits`-wide integer; out of range
// saturates and NaN gives 0 (the spec leaves both open).
HLOCHECK_HD uint64_t TruncateToInteger(double f, int bits, bool is_signed) {
  if (IsNan(f)) return 0;
  if (is_signed) {
    const double limit = IntToDoubleRoundOdd(uint64_t{1} << (bits - 1));  // 2^(bits-1), exact
    if (f >= limit) return (uint64_t{1} << (bits - 1)) - 1;
    if (f < -limit) return uint64_t{0} - (uint64_t{1} << (bits - 1));
    const double t = f < 0 ? -Floor(-f) : Floor(f);
    return static_cast<uint64_t>(static_cast<int64_t>(t));
  }
  if (f <= -1) return 0;
  if (bits == 64) {
    if (f >= 18446744073709551616.0) return ~uint64_t{0};
  } else if (f >= static_cast<double>(uint64_t{1} << bits)) {
    return (uint64_t{1} << bits) - 1;
  }
  return f < 1 ? 0 : static_cast<uint64_t>(Floor(f));
}

HLOCHECK_HD void StoreNumber(const ElementKind& kind, void* p, int64_t index, const Number& n) {
  if (kind.storage == Storage::kBool) {
    static_cast<uint8_t*>(p)[index] = (n.is_float ? n.f != 0 || IsNan(n.f) : n.i != 0) ? 1 : 0;
    return;
  }
  if (kind.storage == Storage::kSigned || kind.storage == Storage::kUnsigned) {
    const bool is_signed = kind.storage == Storage::kSigned;
    const uint64_t bits = n.is_float ? TruncateToInteger(n.f, kind.bits, is_signed)
                                     : WrapBits(n.i, kind.bits, is_signed);
    switch (kind.bytes) {
      case 1:
        static_cast<uint8_t*>(p)[index] = static_cast<uint8_t>(bits);
        break;
      case 2:
        static_cast<uint16_t*>(p)[index] = static_cast<uint16_t>(bits);
        break;
      case 4:
        static_cast<uint32_t*>(p)[index] = static_cast<uint32_t>(bits);
        break;
      default:
        static_cast<uint64_t*>(p)[index] = bits;
    }
    return;
  }
  // A float result. An integer is first made a double rounded to odd, so
  // that rounding it once more to the result is correct (f64 itself
  // converts directly, which rounds to nearest even once).
  double value = n.f;
  if (!n.is_float) {
    const bool negative = n.is_signed && static_cast<int64_t>(n.i) < 0;
    const uint64_t magnitude = negative ? uint64_t{0} - n.i : n.i;
    if (kind.storage == Storage::kF64 || kind.storage == Storage::kComplex128) {
      value = negative ? -static_cast<double>(magnitude) : static_cast<double>(magnitude);
    } else {
      value = IntToDoubleRoundOdd(magnitude);
      if (negative) value = -value;
    }
  }
  switch (kind.storage) {
    case Storage::kComplex64:  // (value, +0)
      static_cast<float*>(p)[2 * index] = static_cast<float>(value);
      static_cast<float*>(p)[2 * index + 1] = 0.0f;
      break;
    case Storage::kComplex128:
      static_cast<double*>(p)[2 * index] = value;
      static_cast<double*>(p)[2 * index + 1] = 0.0;
      break;
    case Storage::kF32:
      static_cast<float*>(p)[index] = static_cast<float>(value);
      break;
    case Storage::kF64:
      static_cast<double*>(p)[index] = value;
      break;
    case Storage::kMini8:
      static_cast<uint8_t*>(p)[index] = static_cast<uint8_t>(EncodeMiniFloat(kind.mini, value));
      break;
    default:
      static_cast<uint16_t*>(p)[index] = static_cast<uint16_t>(EncodeMiniFloat(kind.mini, value));
  }
}

HLOCHECK_HD bool IsComplexStorage(Storage s) {
  return s == Storage::kComplex64 || s == Storage::kComplex128;
}

struct ConvertElementwise {
  ElementwiseArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    StoreNumber(args.out, args.z, i, LoadNumber(args.in, args.a, i));
    if (IsComplexStorage(args.in.storage) && IsComplexStorage(args.out.storage)) {
      // complex to complex: the imaginary part too, rounded once.
      const double im = args.in.storage == Storage::kComplex64
                            ? static_cast<const float*>(args.a)[2 * i + 1]
                            : static_cast<const double*>(args.a)[2 * i + 1];
      if (args.out.storage == Storage::kComplex64) {
        static_cast<float*>(args.z)[2 * i + 1] = static_cast<float>(im);
      } else {
        static_cast<double*>(args.z)[2 * i + 1] = im;
      }
    }
  }
};

// -------------------------------------------------------------- complex

// 2^e as a double, for |e| <= 1022.
HLOCHECK_HD double PowerOfTwo(int e) { return DoubleOfBits(static_cast<uint64_t>(e + 1023) << 52); }

// The binary exponent of a finite double's leading bit, within [-1022,
// 1022] so that 2^-e and 2^e are both doubles (subnormals and zero count
// as -1022: close enough for scaling).
HLOCHECK_HD int ClampedExponent(double x) {
  const int e = static_cast<int>((BitsOfDouble(x) >> 52) & 0x7ff) - 1023;
  return e < -1022 ? -1022 : e > 1022 ? 1022 : e;
}

// A product that nvcc does not contract into a fused multiply-add.
HLOCHECK_HD double UncontractedProduct(double x, double y) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(x, y);
#else
  return x * y;
#endif
}

// (xr + i xi)(yr + i yi) by the textbook formula, whose error the spec
// allows. complex<f32> in double, where its products are exact and cannot
// overflow; complex<f64> directly, and where that overflows in a product
// although the inputs are finite (inf - inf, a NaN the exact result does
// not have), again on operands scaled by powers of two near 1 and the
// result scaled back. The products are never contracted: nvcc's
// fma(b, c, a * d) with an a * d overflowed to +inf gave +inf for a sum
// whose b * c is -1e405 (seen on an H200), where the NaN of inf - inf
// would have sent it to the scaled path.
HLOCHECK_HD void ComplexMultiply(float xr, float xi, float yr, float yi, float& re, float& im) {
  const double a = xr, b = xi, c = yr, d = yi;
  re = static_cast<float>(a * c - b * d);
  im = static_cast<float>(a * d + b * c);
}
HLOCHECK_HD void ComplexMultiply(double xr, double xi, double yr, double yi, double& re,
                                 double& im) {
  re = UncontractedProduct(xr, yr) - UncontractedProduct(xi, yi);
  im = UncontractedProduct(xr, yi) + UncontractedProduct(xi, yr);
  const bool finite_inputs = xr - xr == 0 && xi - xi == 0 && yr - yr == 0 && yi - yi == 0;
  if (!finite_inputs || (re == re && im == im)) return;
  const double x_max = (xr < 0 ? -xr : xr) > (xi < 0 ? -xi : xi) ? xr : xi;
  const double y_max = (yr < 0 ? -yr : yr) > (yi < 0 ? -yi : yi) ? yr : yi;
  const int ex = ClampedExponent(x_max);
  const int ey = ClampedExponent(y_max);
  const double ar = xr * PowerOfTwo(-ex), ai = xi * PowerOfTwo(-ex);
  const double br = yr * PowerOfTwo(-ey), bi = yi * PowerOfTwo(-ey);
  // Scaled back in two steps, each within a double's exponent range; only
  // the part that was NaN (scaling can lose a part far smaller than the other).
  const double back_x = PowerOfTwo(ex);
  const double back_y = PowerOfTwo(ey);
  if (re != re) re = (ar * br - ai * bi) * back_x * back_y;
  if (im != im) im = (ar * bi + ai * br) * back_x * back_y;
}

// (xr + i xi) / (yr + i yi) by Smith's algorithm (dividing by the larger
// part of the divisor first), within the spec's allowance. complex<f32> in
// double, where nothing overflows; complex<f64> on the divisor scaled by a
// power of two near its size, the quotient scaled likewise.
HLOCHECK_HD void SmithDivide(double xr, double xi, double yr, double yi, double& re, double& im) {
  const double abs_r = yr < 0 ? -yr : yr;
  const double abs_i = yi < 0 ? -yi : yi;
  if (abs_r >= abs_i) {
    const double ratio = yi / yr;
    const double denominator = yr + yi * ratio;
    re = (xr + xi * ratio) / denominator;
    im = (xi - xr * ratio) / denominator;
  } else {
    const double ratio = yr / yi;
    const double denominator = yr * ratio + yi;
    re = (xr * ratio + xi) / denominator;
    im = (xi * ratio - xr) / denominator;
  }
}
HLOCHECK_HD void ComplexDivide(float xr, float xi, float yr, float yi, float& re, float& im) {
  double r, i;
  SmithDivide(xr, xi, yr, yi, r, i);
  re = static_cast<float>(r);
  im = static_cast<float>(i);
}
HLOCHECK_HD void ComplexDivide(double xr, double xi, double yr, double yi, double& re, double& im) {
  const double abs_r = yr < 0 ? -yr : yr;
  const double abs_i = yi < 0 ? -yi : yi;
  const double y_max = abs_r > abs_i ? abs_r : abs_i;
  if (!(y_max - y_max == 0) || y_max == 0) {
    SmithDivide(xr, xi, yr, yi, re, im);  // inf, NaN or zero divisors: as they come
    return;
  }
  const int ey = ClampedExponent(y_max);
  const double scale = PowerOfTwo(-ey);
  SmithDivide(xr, xi, yr * scale, yi * scale, re, im);
  re *= scale;
  im *= scale;
}

template <typename P>
HLOCHECK_HD P QuietNan() {
  if constexpr (sizeof(P) == 4) {
    return FloatOfBits(0x7fc00000u);
  } else {
    return DoubleOfBits(0x7ff8000000000000u);
  }
}

// maximum or minimum of complex numbers, ordered lexicographically by
// (real, imaginary); a NaN part makes both parts NaN; of equal numbers, x.
template <typename P>
HLOCHECK_HD void ComplexExtremum(P xr, P xi, P yr, P yi, bool is_max, P& re, P& im) {
  if (IsNan(xr) || IsNan(xi) || IsNan(yr) || IsNan(yi)) {
    re = im = QuietNan<P>();
    return;
  }
  const bool equal = xr == yr && xi == yi;
  const bool greater = xr > yr || (xr == yr && xi > yi);
  const bool take_x = equal || greater == is_max;
  re = take_x ? xr : yr;
  im = take_x ? xi : yi;
}

// Complex elements of parts P, (re, im) in memory: select, compare (EQ and
// NE), negate, add, subtract, multiply (the textbook formula, within the
// spec's allowance for it) and divide (Smith's algorithm, likewise).
template <typename P>
struct ComplexElementwise {
  ElementwiseArgs args;

  HLOCHECK_HD void operator()(int64_t i) const {
    const P* a = static_cast<const P*>(args.a);
    const P* b = static_cast<const P*>(args.b);
    P* z = static_cast<P*>(args.z);
    const ElementOp op = args.op;
    if (op == ElementOp::kSelect) {
      const uint8_t* pred = static_cast<const uint8_t*>(args.a);
      const P* from = pred[i * args.a_stride] != 0
                          ? b + 2 * i * args.b_stride
                          : static_cast<const P*>(args.c) + 2 * i * args.c_stride;
      z[2 * i] = from[0];
      z[2 * i + 1] = from[1];
      return;
    }
    const P xr = a[2 * i * args.a_stride];
    const P xi = a[2 * i * args.a_stride + 1];
    if (op == ElementOp::kClamp) {
      // clamp(min = a, operand = b, max = c) = minimum(maximum(b, a), c).
      const P* c = static_cast<const P*>(args.c);
      P re, im;
      ComplexExtremum(b[2 * i * args.b_stride], b[2 * i * args.b_stride + 1], xr, xi, true, re, im);
      ComplexExtremum(re, im, c[2 * i * args.c_stride], c[2 * i * args.c_stride + 1], false,
                      z[2 * i], z[2 * i + 1]);
      return;
    }
    if (op == ElementOp::kNegate) {
      z[2 * i] = -xr;
      z[2 * i + 1] = -xi;
      return;
    }
    const P yr = b[2 * i * args.b_stride];
    const P yi = b[2 * i * args.b_stride + 1];
    if (op == ElementOp::kCompare) {
      const bool equal = xr == yr && xi == yi;
      static_cast<uint8_t*>(args.z)[i] =
          (args.direction == CompareDirection::kEq ? equal : !equal) ? 1 : 0;
      return;
    }
    P re = 0;
    P im = 0;
    switch (op) {
      case ElementOp::kAdd:
        re = xr + yr;
        im = xi + yi;
        break;
      case ElementOp::kSubtract:
        re = xr - yr;
        im = xi - yi;
        break;
      case ElementOp::kMultiply:
        ComplexMultiply(xr, xi, yr, yi, re, im);
        break;
      case ElementOp::kDivide:
        ComplexDivide(xr, xi, yr, yi, re, im);
        break;
      case ElementOp::kMaximum:
      case ElementOp::kMinimum:
        ComplexExtremum(xr, xi, yr, yi, op == ElementOp::kMaximum, re, im);
        break;
      default:
        break;
    }
    z[2 * i] = re;
    z[2 * i + 1] = im;
  }
};

// -------------------------------------------------- f32/f64 arithmetic

// add, subtract, multiply, divide, maximum and minimum of f32 or f64
// without flushing: a kernel per op. They are memory-bound, and the general
// functor above carries the registers of every op it might take (pow,
// atan2, ...), which leaves too few threads resident to keep the memory
// busy (add ran at 0.62 of a device-to-device copy's bandwidth on an H200).
template <typename R, ElementOp kOp>
struct FloatArithmetic {
  ElementwiseArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    const R x = static_cast<const R*>(args.a)[i * args.a_stride];
    const R y = static_cast<const R*>(args.b)[i * args.b_stride];
    static_cast<R*>(args.z)[i] = FloatBinary(kOp, x, y);
  }
};

template <typename R, typename Exec>
std::string RunFloatArithmetic(const Exec& exec, const ElementwiseArgs& args, bool* ran) {
  *ran = true;
  switch (args.op) {
    case ElementOp::kAdd:
      return exec.ForEach(args.n, FloatArithmetic<R, ElementOp::kAdd>{args});
    case ElementOp::kSubtract:
      return exec.ForEach(args.n, FloatArithmetic<R, ElementOp::kSubtract>{args});
    case ElementOp::kMultiply:
      return exec.ForEach(args.n, FloatArithmetic<R, ElementOp::kMultiply>{args});
    case ElementOp::kDivide:
      return exec.ForEach(args.n, FloatArithmetic<R, ElementOp::kDivide>{args});
    case ElementOp::kMaximum:
      return exec.ForEach(args.n, FloatArithmetic<R, ElementOp::kMaximum>{args});
    case ElementOp::kMinimum:
      return exec.ForEach(args.n, FloatArithmetic<R, ElementOp::kMinimum>{args});
    default:
      *ran = false;
      return "";
  }
}

// ------------------------------------------------------------ dispatch

// Runs args on `exec`, dispatching once on the operands' storage.
template <typename Exec>
std::string RunElementwise(const Exec& exec, const ElementwiseArgs& args) {
  if (args.n == 0) return "";
  if (args.op == ElementOp::kConvert) return exec.ForEach(args.n, ConvertElementwise{args});
  switch (args.in.storage) {
    case Storage::kComplex64:
      return exec.ForEach(args.n, ComplexElementwise<float>{args});
    case Storage::kComplex128:
      return exec.ForEach(args.n, ComplexElementwise<double>{args});
    case Storage::kF32:
      if (!args.flush_subnormals) {
        bool ran = false;
        std::string error = RunFloatArithmetic<float>(exec, args, &ran);
        if (ran) return error;
      }
      return exec.ForEach(args.n, FloatElementwise<Storage::kF32>{args});
    case Storage::kF64: {
      bool ran = false;
      std::string error = RunFloatArithmetic<double>(exec, args, &ran);
      if (ran) return error;
      return exec.ForEach(args.n, FloatElementwise<Storage::kF64>{args});
    }
    case Storage::kMini8:
      return exec.ForEach(args.n, FloatElementwise<Storage::kMini8>{args});
    case Storage::kMini16:
      return exec.ForEach(args.n, FloatElementwise<Storage::kMini16>{args});
    case Storage::kBool:
      return exec.ForEach(args.n, IntElementwise<uint8_t>{args});
    case Storage::kSigned:
    case Storage::kUnsigned:
      switch (args.in.bytes) {
        case 1:
          return exec.ForEach(args.n, IntElementwise<uint8_t>{args});
        case 2:
          return exec.ForEach(args.n, IntElementwise<uint16_t>{args});
        case 4:
          return exec.ForEach(args.n, IntElementwise<uint32_t>{args});
        default:
          return exec.ForEach(args.n, IntElementwise<uint64_t>{args});
      }
  }
  return "unknown element storage";
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_ELEMENTWISE_KERNELS_H_
