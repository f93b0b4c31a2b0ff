// Elementwise math on floats and complex numbers: the transcendental
// functions (libm in f32 and f64, narrow floats computed in float and
// rounded once), square roots, the roundings to integral values, is_finite,
// reduce_precision, atan2 and power (which also takes integers).
#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"

namespace hlocheck::cpu {
namespace {

bool IsFloatType(ElementType t) { return IsFloat(t); }

// Calls f on the complex value widened to complex<double> when its parts are
// float, so that a formula's intermediate roundings stay far below float's,
// and rounds each part once.
template <typename P, typename F>
std::complex<P> Widened(std::complex<P> z, F f) {
  using W = WideT<P>;
  const std::complex<W> r = f(std::complex<W>(z.real(), z.imag()));
  return {static_cast<P>(r.real()), static_cast<P>(r.imag())};
}

// ----------------------------------------------- complex formulas

// expm1(x + iy) = (e^x cos y - 1) + i e^x sin y, with the real part as
// expm1(x) cos y - 2 sin^2(y / 2), which does not cancel near zero. On the
// real axis the imaginary part is the zero itself: e^x sin(±0) = ±0 even
// where e^x overflows (Inf * 0 would be NaN).
template <typename W>
std::complex<W> ComplexExpm1(std::complex<W> z) {
  const W x = z.real();
  const W y = z.imag();
  const W half = std::sin(y / 2);
  const W imag = y == 0 ? y : std::exp(x) * std::sin(y);
  return {std::expm1(x) * std::cos(y) - 2 * half * half, imag};
}

// log1p(z) = log|1 + z| + i arg(1 + z); near zero |1 + z|^2 - 1 =
// x (2 + x) + y^2 goes through log1p.
template <typename W>
std::complex<W> ComplexLog1p(std::complex<W> z) {
  const W x = z.real();
  const W y = z.imag();
  if (std::fabs(x) < W{0.5} && std::fabs(y) < W{0.5}) {
    return {W{0.5} * std::log1p(x * (2 + x) + y * y), std::atan2(y, 1 + x)};
  }
  return std::log(std::complex<W>(1 + x, y));
}

// logistic(z) = (1 + tanh(z / 2)) / 2. With D = 2 (cosh x + cos y)
// = 4 (sinh^2(x / 2) + cos^2(y / 2)), which does not cancel near the poles:
//   Re = (e^x + cos y) / D = (expm1(x) + 2 cos^2(y / 2)) / D,  Im = sin y / D,
// so that Re is exactly 1/2 on the imaginary axis (1/(1 + e^-z) evaluated
// as written was 8 ULP off there). Beyond |x| = 600 the terms in e^-|x|
// are below every format's precision: Re is 1 (or e^x cos y) and
// Im e^-|x| sin y.
template <typename W>
std::complex<W> ComplexLogistic(std::complex<W> z) {
  const W x = z.real();
  const W y = z.imag();
  if (x > 600) return {W{1}, std::exp(-x) * std::sin(y)};
  if (x < -600) return {std::exp(x) * std::cos(y), std::exp(x) * std::sin(y)};
  const W half_cos = std::cos(y / 2);
  const W half_sinh = std::sinh(x / 2);
  const W d = 4 * (half_sinh * half_sinh + half_cos * half_cos);
  return {(std::expm1(x) + 2 * half_cos * half_cos) / d, std::sin(y) / d};
}

template <typename W>
std::complex<W> ComplexRsqrt(std::complex<W> z) {
  return W{1} / std::sqrt(z);
}

// The principal cube root: |z|^(1/3) at a third of arg z.
template <typename W>
std::complex<W> ComplexCbrt(std::complex<W> z) {
  const W modulus = std::cbrt(std::hypot(z.real(), z.imag()));
  const W angle = std::atan2(z.imag(), z.real()) / 3;
  return {modulus * std::cos(angle), modulus * std::sin(angle)};
}

// a * b + c * d in W, with the products' rounding errors kept (fma gives
// them exactly): accurate to W's precision even where the products cancel.
template <typename W, typename P>
W ProductSum(P a, P b, P c, P d) {
  const W ab = W{a} * W{b};
  const W cd = W{c} * W{d};
  return (ab + cd) + (std::fma(W{a}, W{b}, -ab) + std::fma(W{c}, W{d}, -cd));
}

// atan2(y, x) = -i log(w), w = (x + iy) / sqrt(x^2 + y^2): the public
// interpreter's formula. Evaluated as written it loses all relative accuracy
// where a part is near zero, so it is rearranged with u = x + iy and
// v = x - iy (x^2 + y^2 = uv, so w^2 = u / v) and P = conj(x) y, whose
// parts come exactly from products (u conj(v) = |x|^2 - |y|^2 + 2i Re P,
// |v|^2 - |u|^2 = 4 Im P):
//   Im = -ln|w| = (ln|v|^2 - ln|u|^2) / 4 = atanh(2 Im P / (|x|^2 + |y|^2)) / 2,
//   Re = arg w = atan2(2 Re P, |x|^2 - |y|^2) / 2 (mod π), the multiple of
//        π read off the coarser (arg u - arg v) / 2, moved by π where the
//        principal square root of uv is -sqrt(u) sqrt(v).
template <typename P>
std::complex<P> ComplexAtan2(std::complex<P> y, std::complex<P> x) {
  using W = WideT<P>;
  const W pi = std::numbers::pi_v<W>;
  const P xr = x.real(), xi = x.imag(), yr = y.real(), yi = y.imag();
  if (!std::isfinite(xr) || !std::isfinite(xi) || !std::isfinite(yr) || !std::isfinite(yi)) {
    // The spec leaves non-finite inputs open; the formula's own value.
    const std::complex<W> i(0, 1);
    const std::complex<W> wy(yr, yi), wx(xr, xi);
    const std::complex<W> r = -i * std::log((wx + i * wy) / std::sqrt(wx * wx + wy * wy));
    return {static_cast<P>(r.real()), static_cast<P>(r.imag())};
  }
  const W p_re = ProductSum<W>(xr, yr, xi, yi);
  const W p_im = ProductSum<W>(xr, yi, -xi, yr);
  const W norms = ProductSum<W>(xr, xr, xi, xi) + ProductSum<W>(yr, yr, yi, yi);
  const W norm_difference = ProductSum<W>(xr, xr, -yr, yr) + ProductSum<W>(xi, xi, -yi, yi);
  const std::complex<W> u(W{xr} - W{yi}, W{xi} + W{yr});
  const std::complex<W> v(W{xr} + W{yi}, W{xi} - W{yr});

  const W ratio = 2 * p_im / norms;
  const W imag = std::fabs(ratio) <= W{0.5} ? std::atanh(ratio) / 2
                                            : (std::log(std::norm(v)) - std::log(std::norm(u))) / 4;

  const W half = std::atan2(2 * p_re, norm_difference) / 2;
  W rough = (std::arg(u) - std::arg(v)) / 2;
  // sqrt(uv) = sqrt(u) sqrt(v) iff arg u + arg v lies in (-π, π]. Near ±π
  // the sum's rounding cannot tell; the sign of Im(uv) = 2 (Re x Im x +
  // Re y Im y), exact in sign, can.
  const W arg_sum = std::arg(u) + std::arg(v);
  const W s_imag = ProductSum<W>(xr, xi, yr, yi);
  const bool product_is_principal = arg_sum > pi / 2    ? s_imag >= 0
                                    : arg_sum < -pi / 2 ? s_imag < 0
                                                        : true;
  if (!product_is_principal) rough += rough > 0 ? -pi : pi;
  // arg w is `half` or `half` moved by π towards zero; `rough`, accurate to
  // a few ulps of π, tells them apart where they are far apart: by sign
  // when |half| > π/4 (Im w is then the larger part), else by whether
  // |arg w| < π/2.
  const W moved = half > 0 ? half - pi : half + pi;
  const W real = std::fabs(half) > pi / 4
                     ? (std::signbit(rough) == std::signbit(half) ? half : moved)
                     : (std::fabs(rough) < pi / 2 ? half : moved);
  return {static_cast<P>(real), static_cast<P>(imag)};
}

// ------------------------------------------------------ unary driver

// A float or complex unary op: `real` takes float (f32 and every narrower
// float) or double, `complex` takes std::complex<float or double>.
template <typename Allowed, typename Real, typename Complex>
absl::StatusOr<Results> RunFloatUnary(const Case& c, const Device& device, Allowed allowed,
                                      Real real, Complex complex) {
  return RunSameType(c, 1, allowed, [&]<ElementType T>(Tensor& result) {
    using C = ContainerT<T>;
    const C* x = c.operands[0].values<T>().data();
    C* z = result.values<T>().data();
    const int64_t n = result.num_elements();
    if constexpr (IsComplex(T)) {
      if constexpr (std::is_invocable_v<Complex, C>) {
        MapUnary(x, z, n, device, [complex](C a) -> C { return complex(a); });
      }
    } else if constexpr (IsFloat(T)) {
      MapUnary(x, z, n, device, LiftFloat<T>([real](ComputeT<T> a) { return real(a); }));
    }
  });
}

// For ops without complex operands.
struct NoComplex {};

template <typename P>
P WideRsqrt(P a) {
  return static_cast<P>(WideT<P>{1} / std::sqrt(static_cast<WideT<P>>(a)));
}

// glibc's cbrt is up to 4 ULP off in double; cbrtl rounded to double is
// within about half an ULP. float's cbrtf is within 1 ULP.
template <typename P>
P WideCbrt(P a) {
  if constexpr (std::is_same_v<P, double>) {
    return static_cast<double>(std::cbrt(static_cast<long double>(a)));
  } else {
    return std::cbrt(a);
  }
}

template <typename P>
P WideLogistic(P a) {
  using W = WideT<P>;
  return static_cast<P>(W{1} / (W{1} + std::exp(-static_cast<W>(a))));
}

#define HLOCHECK_LIBM_OP(Name, Function)                                             \
  absl::StatusOr<Results> Run##Name(const Case& c, const Device& device) {           \
    return RunFloatUnary(                                                            \
        c, device, FloatOrComplex, [](auto a) { return std::Function(a); },          \
        [](auto z) { return Widened(z, [](auto w) { return std::Function(w); }); }); \
  }

// The complex functions of the standard library, widened for complex<f32>.
HLOCHECK_LIBM_OP(Sine, sin)
HLOCHECK_LIBM_OP(Cosine, cos)
HLOCHECK_LIBM_OP(Tan, tan)
HLOCHECK_LIBM_OP(Tanh, tanh)
HLOCHECK_LIBM_OP(Log, log)
HLOCHECK_LIBM_OP(Sqrt, sqrt)
#undef HLOCHECK_LIBM_OP

#define HLOCHECK_FORMULA_OP(Name, RealFunction, ComplexFunction)                       \
  absl::StatusOr<Results> Run##Name(const Case& c, const Device& device) {             \
    return RunFloatUnary(                                                              \
        c, device, FloatOrComplex, [](auto a) { return RealFunction(a); },             \
        [](auto z) { return Widened(z, [](auto w) { return ComplexFunction(w); }); }); \
  }

HLOCHECK_FORMULA_OP(ExponentialMinusOne, std::expm1, ComplexExpm1)
HLOCHECK_FORMULA_OP(LogPlusOne, std::log1p, ComplexLog1p)
HLOCHECK_FORMULA_OP(Logistic, WideLogistic, ComplexLogistic)
HLOCHECK_FORMULA_OP(Rsqrt, WideRsqrt, ComplexRsqrt)
HLOCHECK_FORMULA_OP(Cbrt, WideCbrt, ComplexCbrt)
#undef HLOCHECK_FORMULA_OP

#define HLOCHECK_ROUNDING_OP(Name, Function)                                           \
  absl::StatusOr<Results> Run##Name(const Case& c, const Device& device) {             \
    return RunFloatUnary(                                                              \
        c, device, IsFloatType, [](auto a) { return std::Function(a); }, NoComplex{}); \
  }

HLOCHECK_ROUNDING_OP(Floor, floor)
HLOCHECK_ROUNDING_OP(Ceil, ceil)
HLOCHECK_ROUNDING_OP(RoundNearestAfz, round)
// nearbyint rounds in the current mode, which is to nearest even.
HLOCHECK_ROUNDING_OP(RoundNearestEven, nearbyint)
#undef HLOCHECK_ROUNDING_OP

absl::StatusOr<Results> RunIsFinite(const Case& c, const Device& device) {
  if (absl::Status status = CheckElementwise(c, 1, false); !status.ok()) return status;
  const Tensor& operand = c.operands[0];
  Tensor result = NewResult(c.result_types[0]);
  if (!IsFloat(operand.element_type()) || !IsBool(result.element_type())) {
    return absl::InvalidArgumentError("is_finite: needs a float operand and an i1 result");
  }
  uint8_t* z = result.values<ElementType::kI1>().data();
  const int64_t n = result.num_elements();
  DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    using C = ContainerT<T>;
    if constexpr (IsFloat(T)) {
      MapUnary(operand.values<T>().data(), z, n, device,
               [](C a) -> uint8_t { return std::isfinite(FloatValue<T>(a)) ? 1 : 0; });
    }
  });
  return OneResult(std::move(result));
}

// ---------------------------------------------------- reduce_precision

// XLA's reduce_precision on the encoding of a float format with
// `exponent_bits`, `mantissa_bits`, exponent `bias` and `sign_mask` (0 for
// an unsigned format): round the mantissa to nearest even at `mantissa`
// (a tie with no fraction bit left goes to the even exponent field), then
// overflow beyond the reduced exponent range to the encoding of infinity and
// flush below its smallest normal to zero. A NaN is kept where a mantissa
// bit is left to hold it; with none it becomes an infinity of its sign, as
// in XLA. (Where the format has no infinity or zero, the spec leaves those
// elements free.)
template <typename U>
U ReducePrecisionBits(U x, bool nan, int exponent_bits, int mantissa_bits, int64_t bias,
                      U sign_mask, int64_t exponent, int64_t mantissa) {
  const U exponent_mask = static_cast<U>(((U{1} << exponent_bits) - 1) << mantissa_bits);
  if (nan) return mantissa > 0 ? x : static_cast<U>((x & sign_mask) | exponent_mask);
  U r = x;
  if (mantissa < mantissa_bits) {
    const int dropped = mantissa_bits - static_cast<int>(mantissa);
    const U last = U{1} << dropped;
    const U base_bias = (last >> 1) - 1;
    const U last_bit = (r & last) >> dropped;
    r = static_cast<U>((r + last_bit + base_bias) & ~(last - 1));
  }
  if (exponent < exponent_bits) {
    const U sign = x & sign_mask;
    const U x_exponent = r & exponent_mask;
    const int64_t reduced_bias = (int64_t{1} << (exponent - 1)) - 1;
    const U max_exponent = static_cast<U>(bias + reduced_bias) << mantissa_bits;
    const U min_exponent = static_cast<U>(std::max<int64_t>(bias - reduced_bias, 0))
                           << mantissa_bits;
    if (x_exponent > max_exponent || (r & sign_mask) != sign) {
      r = sign | exponent_mask;
    } else if (x_exponent <= min_exponent) {
      r = sign;
    }
  }
  return r;
}

absl::StatusOr<Results> RunReducePrecision(const Case& c, const Device& device) {
  absl::StatusOr<int64_t> exponent = IntAttribute(c, "exponent_bits");
  if (!exponent.ok()) return exponent.status();
  absl::StatusOr<int64_t> mantissa = IntAttribute(c, "mantissa_bits");
  if (!mantissa.ok()) return mantissa.status();
  if (*exponent < 1 || *mantissa < 0) {
    return absl::InvalidArgumentError("reduce_precision: exponent_bits < 1 or mantissa_bits < 0");
  }
  const int64_t e = *exponent;
  const int64_t m = *mantissa;
  return RunSameType(c, 1, IsFloatType, [&]<ElementType T>(Tensor& result) {
    using C = ContainerT<T>;
    const C* x = c.operands[0].values<T>().data();
    C* z = result.values<T>().data();
    const int64_t n = result.num_elements();
    if constexpr (T == ElementType::kF32) {
      MapUnary(x, z, n, device, [e, m](float a) {
        return std::bit_cast<float>(ReducePrecisionBits<uint32_t>(
            std::bit_cast<uint32_t>(a), std::isnan(a), 8, 23, 127, uint32_t{1} << 31, e, m));
      });
    } else if constexpr (T == ElementType::kF64) {
      MapUnary(x, z, n, device, [e, m](double a) {
        return std::bit_cast<double>(ReducePrecisionBits<uint64_t>(
            std::bit_cast<uint64_t>(a), std::isnan(a), 11, 52, 1023, uint64_t{1} << 63, e, m));
      });
    } else if constexpr (IsFloat(T)) {
      // Narrow floats on their own encoding, with their own bias.
      const FloatFormat& f = Format(T);
      const int eb = f.exponent_bits;
      const int mb = f.mantissa_bits;
      const int64_t bias = f.bias;
      const C sign_mask = static_cast<C>(f.sign_mask());
      const C total_mask = static_cast<C>((uint64_t{1} << f.total_bits()) - 1);
      const bool has_infinity = f.has_infinity;
      const bool has_negative_zero = f.has_negative_zero();
      MapUnary(x, z, n, device, [=](C a) -> C {
        const bool nan = std::isnan(ToFloat<T>(a));
        // Without an infinity a NaN has nowhere else to go; without -0 a
        // flushed negative value is +0 (the FNUZ NaN has -0's pattern).
        if (nan && !has_infinity) return a;
        C r = static_cast<C>(ReducePrecisionBits<C>(a, nan, eb, mb, bias, sign_mask, e, m) &
                             total_mask);
        if (!has_negative_zero && sign_mask != 0 && r == sign_mask) r = 0;
        return r;
      });
    }
  });
}

// ----------------------------------------------------- atan2, power

absl::StatusOr<Results> RunAtan2(const Case& c, const Device& device) {
  return RunSameType(c, 2, FloatOrComplex, [&]<ElementType T>(Tensor& result) {
    using C = ContainerT<T>;
    const C* x = c.operands[0].values<T>().data();
    const C* y = c.operands[1].values<T>().data();
    C* z = result.values<T>().data();
    const int64_t n = result.num_elements();
    if constexpr (IsComplex(T)) {
      MapBinary(x, y, z, n, device, [](C a, C b) -> C { return ComplexAtan2(a, b); });
    } else if constexpr (IsFloat(T)) {
      MapBinary(x, y, z, n, device,
                LiftFloat2Wide<T>([](auto a, auto b) { return std::atan2(a, b); }));
    }
  });
}

// Integer power by squaring (wrapping as repeated multiplication does). A
// negative exponent gives XLA's results: 1 for base 1, +-1 for base -1 and
// 0 otherwise.
template <ElementType T>
uint64_t IntPower(uint64_t base, uint64_t exponent) {
  if constexpr (IsSignedInt(T)) {
    if (static_cast<int64_t>(exponent) < 0) {
      const auto b = static_cast<int64_t>(base);
      if (b == 1) return 1;
      if (b == -1) return (exponent & 1) != 0 ? ~uint64_t{0} : 1;
      return 0;
    }
  }
  uint64_t result = 1;
  while (exponent != 0) {
    if ((exponent & 1) != 0) result *= base;
    base *= base;
    exponent >>= 1;
  }
  return result;
}

absl::StatusOr<Results> RunPower(const Case& c, const Device& device) {
  return RunSameType(c, 2, IntFloatOrComplex, [&]<ElementType T>(Tensor& result) {
    using C = ContainerT<T>;
    const C* x = c.operands[0].values<T>().data();
    const C* y = c.operands[1].values<T>().data();
    C* z = result.values<T>().data();
    const int64_t n = result.num_elements();
    if constexpr (IsInteger(T)) {
      MapBinary(x, y, z, n, device, LiftInt2<T>(IntPower<T>));
    } else if constexpr (IsComplex(T)) {
      using P = typename C::value_type;
      using W = WideT<P>;
      MapBinary(x, y, z, n, device, [](C a, C b) -> C {
        const std::complex<W> r =
            std::pow(std::complex<W>(a.real(), a.imag()), std::complex<W>(b.real(), b.imag()));
        return {static_cast<P>(r.real()), static_cast<P>(r.imag())};
      });
    } else if constexpr (IsFloat(T)) {
      MapBinary(x, y, z, n, device,
                LiftFloat2<T>([](ComputeT<T> a, ComputeT<T> b) { return std::pow(a, b); }));
    }
  });
}

AdapterSupport SupportsFloatOrComplex(const Case& c) {
  return SupportsTypes(c, FloatOrComplex, "float and complex types");
}
AdapterSupport SupportsFloat(const Case& c) { return SupportsTypes(c, IsFloatType, "float types"); }
AdapterSupport SupportsIntFloatOrComplex(const Case& c) {
  return SupportsTypes(c, IntFloatOrComplex, "integer, float and complex types");
}

}  // namespace

std::vector<OpEntry> MathOps() {
  return {
      {"sine", 1, &SupportsFloatOrComplex, &RunSine},
      {"cosine", 1, &SupportsFloatOrComplex, &RunCosine},
      {"tan", 1, &SupportsFloatOrComplex, &RunTan},
      {"tanh", 1, &SupportsFloatOrComplex, &RunTanh},
      {"log", 1, &SupportsFloatOrComplex, &RunLog},
      {"sqrt", 1, &SupportsFloatOrComplex, &RunSqrt},
      {"exponential_minus_one", 1, &SupportsFloatOrComplex, &RunExponentialMinusOne},
      {"log_plus_one", 1, &SupportsFloatOrComplex, &RunLogPlusOne},
      {"logistic", 1, &SupportsFloatOrComplex, &RunLogistic},
      {"rsqrt", 1, &SupportsFloatOrComplex, &RunRsqrt},
      {"cbrt", 1, &SupportsFloatOrComplex, &RunCbrt},
      {"floor", 1, &SupportsFloat, &RunFloor},
      {"ceil", 1, &SupportsFloat, &RunCeil},
      {"round_nearest_afz", 1, &SupportsFloat, &RunRoundNearestAfz},
      {"round_nearest_even", 1, &SupportsFloat, &RunRoundNearestEven},
      {"is_finite", 1, &SupportsFloat, &RunIsFinite},
      {"reduce_precision", 1, &SupportsFloat, &RunReducePrecision},
      {"atan2", 2, &SupportsFloatOrComplex, &RunAtan2},
      {"power", 2, &SupportsIntFloatOrComplex, &RunPower},
  };
}

}  // namespace hlocheck::cpu
