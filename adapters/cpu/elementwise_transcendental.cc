// Elementwise transcendental functions on floats and complex numbers
// (libm in f32 and f64, narrow floats computed in float and rounded once):
// exponential, the other libm functions, atan2 and power (which also takes
// integers).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include <quadmath.h>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// -------------------------------------------------------- exponential

// Eigen 3.4's vectorized float exp (SSE, AVX, AVX2) is within 1 ULP
// (measured on every 97th float) where its result is normal, but it clamps
// its argument, so where the result is subnormal or zero it is wrong
// (exp(-100) = exp(-inf) = 2.9e-39); below kExpVectorMin libm's expf takes
// over. Its AVX-512 exp is a different algorithm, up to 5 ULP off and
// overflowing from x = 88.4 on, beyond the 2 ULP that
// spec/ops/exponential.yaml allows, so a build for AVX-512 uses libm alone.
void ExpBlock(const float* in, float* out, int64_t n) {
#ifdef EIGEN_VECTORIZE_AVX512
  for (int64_t i = 0; i < n; ++i) out[i] = std::exp(in[i]);
#else
  constexpr float kExpVectorMin = -87.0f;
  Map<float>(out, n) = ConstMap<float>(in, n).exp();
  for (int64_t i = 0; i < n; ++i) {
    if (in[i] < kExpVectorMin) out[i] = std::exp(in[i]);
  }
#endif
}

template <ElementType T>
void ExponentialKernel(const Tensor& operand, Tensor& out, const Device& device) {
  using C = ContainerT<T>;
  const int64_t n = out.num_elements();
  if (n == 0) return;
  const C* x = operand.values<T>().data();
  C* z = out.values<T>().data();
  if constexpr (T == ElementType::kF32) {
    ParallelFor(device, n, sizeof(C), 30,
                [&](int64_t first, int64_t last) { ExpBlock(x + first, z + first, last - first); });
  } else if constexpr (T == ElementType::kF64) {
    // Eigen 3.4's vectorized double exp is up to 2 ULP off (19 in 4M random
    // arguments), beyond the 1 ULP that spec/ops/exponential.yaml allows;
    // glibc's exp is within 0.52 ULP.
    ParallelFor(device, n, sizeof(C), 40, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) z[i] = std::exp(x[i]);
    });
  } else if constexpr (IsComplex(T)) {
    Map<C>(z, n).device(device) = ConstMap<C>(x, n).exp();
  } else {
    // Narrow floats: exp in float (vectorized on a small stack buffer), then
    // one rounding to the type.
    const FloatFormat& format = Format(T);
    ParallelFor(device, n, sizeof(C), 60, [&](int64_t first, int64_t last) {
      constexpr int64_t kBlock = 256;
      std::array<float, kBlock> in;
      std::array<float, kBlock> result;
      for (int64_t start = first; start < last; start += kBlock) {
        const int64_t count = std::min(kBlock, last - start);
        for (int64_t i = 0; i < count; ++i) in[i] = ToFloat<T>(x[start + i]);
        ExpBlock(in.data(), result.data(), count);
        for (int64_t i = 0; i < count; ++i) z[start + i] = FromFloat<T>(result[i], format);
      }
    });
  }
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
  const W scaled = std::expm1(x) * std::cos(y);
  W real = scaled - 2 * half * half;
  if constexpr (std::is_same_v<W, long double>) {
    // Where e^x cos y is near 1 the two terms cancel beyond long double's
    // 64 bits (0.00830078125 + 2.09e24i loses 15 and was 72 ULP off in
    // f64, found by the cancellation data): recomputed in binary128 there.
    if (std::fabs(real) < (std::fabs(scaled) + 2 * half * half) * W{0x1p-6}) {
      const __float128 q_half = sinq(static_cast<__float128>(y) / 2);
      real = static_cast<W>(expm1q(static_cast<__float128>(x)) * cosq(static_cast<__float128>(y)) -
                            2 * q_half * q_half);
    }
  }
  return {real, imag};
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
  const W e = std::expm1(x);
  W numerator = e + 2 * half_cos * half_cos;
  if constexpr (std::is_same_v<W, long double>) {
    // Near the zeros of e^x + cos y the two terms cancel beyond long
    // double's 64 bits (-0.328125 + 2.375i loses 17: the real part was 19
    // ULP off in f64): recomputed in binary128 there.
    if (std::fabs(numerator) < (std::fabs(e) + 2 * half_cos * half_cos) * W{0x1p-6}) {
      const __float128 q_half_cos = cosq(static_cast<__float128>(y) / 2);
      numerator = static_cast<W>(expm1q(static_cast<__float128>(x)) + 2 * q_half_cos * q_half_cos);
    }
  }
  return {numerator / d, std::sin(y) / d};
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

// The sum of the products a_k b_k, accurate to W's precision however they
// cancel: each product split exactly into two W values (fma), the parts
// accumulated into a nonoverlapping expansion (Shewchuk's grow-expansion of
// two-sums, zeros dropped), which is then summed from its smallest
// component up.
template <typename W, typename P, size_t N>
W SumOfProducts(const std::array<std::array<P, 2>, N>& products) {
  std::array<W, 2 * N> expansion{};
  size_t size = 0;
  auto grow = [&](W value) {
    size_t kept = 0;
    W carry = value;
    for (size_t i = 0; i < size; ++i) {
      const W sum = expansion[i] + carry;
      const W b_virtual = sum - expansion[i];
      const W a_virtual = sum - b_virtual;
      const W error = (expansion[i] - a_virtual) + (carry - b_virtual);
      if (error != 0) expansion[kept++] = error;
      carry = sum;
    }
    expansion[kept++] = carry;
    size = kept;
  };
  for (const auto& [a, b] : products) {
    const W high = W{a} * W{b};
    grow(high);
    grow(std::fma(W{a}, W{b}, -high));
  }
  W total = 0;
  for (size_t i = 0; i < size; ++i) total += expansion[i];
  return total;
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
  // |x|^2 - |y|^2 of four squares, which may cancel in any pairing
  // ((5, 5e-37) and (-5e-10, -5): 25 - 25 leaves 2.5e-19, which a sum of
  // two pairs lost; found by the cancellation data).
  const W norm_difference = SumOfProducts<W, P, 4>({{{xr, xr}, {-yr, yr}, {xi, xi}, {-yi, yi}}});
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

absl::StatusOr<Results> RunExponential(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckElementwise(c, 1, true));
  Tensor result = NewResult(c.result_types[0]);
  const ElementType type = result.element_type();
  if (!IsFloat(type) && !IsComplex(type)) {
    return absl::InvalidArgumentError(
        absl::StrCat("exponential: element type ", TypeName(type), " is not float or complex"));
  }
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsFloat(T) || IsComplex(T)) ExponentialKernel<T>(c.operands[0], result, device);
  });
  Results results;
  results.push_back(std::move(result));
  return results;
}
}  // namespace

std::vector<OpEntry> ElementwiseTranscendentalOps() {
  return {
      {"exponential", 1, &SupportsFloatOrComplex, &RunExponential},
      {"sine", 1, &SupportsFloatOrComplex, &RunSine},
      {"cosine", 1, &SupportsFloatOrComplex, &RunCosine},
      {"tan", 1, &SupportsFloatOrComplex, &RunTan},
      {"tanh", 1, &SupportsFloatOrComplex, &RunTanh},
      {"log", 1, &SupportsFloatOrComplex, &RunLog},
      {"exponential_minus_one", 1, &SupportsFloatOrComplex, &RunExponentialMinusOne},
      {"log_plus_one", 1, &SupportsFloatOrComplex, &RunLogPlusOne},
      {"logistic", 1, &SupportsFloatOrComplex, &RunLogistic},
      {"rsqrt", 1, &SupportsFloatOrComplex, &RunRsqrt},
      {"cbrt", 1, &SupportsFloatOrComplex, &RunCbrt},
      {"atan2", 2, &SupportsFloatOrComplex, &RunAtan2},
      {"power", 2, &SupportsIntFloatOrComplex, &RunPower},
  };
}

}  // namespace hlocheck::cpu
