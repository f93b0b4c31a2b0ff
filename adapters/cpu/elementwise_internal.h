// Internal to the CPU adapter's elementwise files: the Eigen drivers that
// map a scalar function over whole tensors on the pool, and the liftings
// that let one scalar function serve every element type of a family (narrow
// floats computed in float and rounded once, integers computed on their
// 64-bit two's complement pattern and wrapped back to their width).
#ifndef HLOCHECK_ADAPTERS_CPU_ELEMENTWISE_INTERNAL_H_
#define HLOCHECK_ADAPTERS_CPU_ELEMENTWISE_INTERNAL_H_

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <quadmath.h>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/cpu_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {

// Checks a unary or binary elementwise case: operands of the result's shape
// (and, unless `same_type` is false, of its element type).
absl::Status CheckElementwise(const Case& c, size_t operands, bool same_type);

// No for a quantized operand or result (this backend has no quantized
// kernels), else No unless `allowed(type)` holds for the element type of the
// operand `operand`, where `what` names the types the op takes.
template <typename Allowed>
AdapterSupport SupportsTypes(const Case& c, Allowed allowed, std::string_view what,
                             size_t operand = 0) {
  if (AdapterSupport unquantized = SupportsUnquantized(c); !unquantized.supported) {
    return unquantized;
  }
  if (operand >= c.operands.size()) return AdapterSupport::No(absl::StrCat(c.op, ": no operand"));
  const ElementType type = c.operands[operand].element_type();
  if (!allowed(type)) {
    return AdapterSupport::No(
        absl::StrCat(c.op, " is implemented for ", std::string(what), ", not ", TypeName(type)));
  }
  return AdapterSupport::Yes();
}

inline bool AnyType(ElementType) { return true; }
inline bool FloatOrComplex(ElementType t) { return IsFloat(t) || IsComplex(t); }
inline bool IntFloatOrComplex(ElementType t) { return IsInteger(t) || FloatOrComplex(t); }
inline bool BoolOrInt(ElementType t) { return IsBool(t) || IsInteger(t); }

// z[i] = f(x[i]) as one Eigen expression on the pool.
template <typename In, typename Out, typename F>
void MapUnary(const In* x, Out* z, int64_t n, const Device& device, F f) {
  if (n <= 0) return;
  Map<Out>(z, n).device(device) = ConstMap<In>(x, n).unaryExpr(f);
}

// z[i] = f(x[i], y[i]) as one Eigen expression on the pool.
template <typename In, typename Out, typename F>
void MapBinary(const In* x, const In* y, Out* z, int64_t n, const Device& device, F f) {
  if (n <= 0) return;
  Map<Out>(z, n).device(device) = ConstMap<In>(x, n).binaryExpr(ConstMap<In>(y, n), f);
}

// A function of float (or double) values as a function of T's containers:
// narrow floats are decoded to float, computed, and rounded once to T.
template <ElementType T, typename F>
auto LiftFloat(F f) {
  using C = ContainerT<T>;
  if constexpr (kIsBitPatternFloat<T>) {
    const FloatFormat* format = &Format(T);
    return [f, format](C x) -> C { return FromFloat<T>(f(ToFloat<T>(x)), *format); };
  } else {
    return [f](C x) -> C { return f(x); };
  }
}

template <ElementType T, typename F>
auto LiftFloat2(F f) {
  using C = ContainerT<T>;
  if constexpr (kIsBitPatternFloat<T>) {
    const FloatFormat* format = &Format(T);
    return [f, format](C x, C y) -> C {
      return FromFloat<T>(f(ToFloat<T>(x), ToFloat<T>(y)), *format);
    };
  } else {
    return [f](C x, C y) -> C { return f(x, y); };
  }
}

// A function of 64-bit two's complement patterns (sign-extended for signed
// types) as a function of T's containers, wrapped to T's width.
template <ElementType T, typename F>
auto LiftInt(F f) {
  using C = ContainerT<T>;
  return [f](C x) -> C { return WrapInteger<T>(f(IntegerBits<T>(x))); };
}

template <ElementType T, typename F>
auto LiftInt2(F f) {
  using C = ContainerT<T>;
  return [f](C x, C y) -> C { return WrapInteger<T>(f(IntegerBits<T>(x), IntegerBits<T>(y))); };
}

// The scalar a real float element is computed in.
template <ElementType T>
using ComputeT = std::conditional_t<kIsBitPatternFloat<T>, float, ContainerT<T>>;

// The value of a real float element in its compute type.
template <ElementType T>
inline ComputeT<T> FloatValue(ContainerT<T> x) {
  if constexpr (kIsBitPatternFloat<T>) {
    return ToFloat<T>(x);
  } else {
    return x;
  }
}

// The wider type a formula on float (double) parts is computed in where it
// would otherwise cancel, overflow in an intermediate or round several times:
// double for float, x87 long double (64 significand bits, 15 exponent bits)
// for double; the result is rounded once per part.
template <typename P>
using WideT = std::conditional_t<std::is_same_v<P, float>, double, long double>;

// A complex operation computed on widened parts, each part rounded once.
template <typename P, typename F>
std::complex<P> Widened2(std::complex<P> a, std::complex<P> b, F f) {
  using W = WideT<P>;
  const std::complex<W> r =
      f(std::complex<W>(a.real(), a.imag()), std::complex<W>(b.real(), b.imag()));
  return {static_cast<P>(r.real()), static_cast<P>(r.imag())};
}

// a*c + b*d rounded once from its exact value: the products are exact in
// binary128 (106 of its 113 bits), their sum is split exactly into s + e,
// and a sum that lands on a double midpoint is decided by e's sign. Long
// double rounded each product to 64 bits and then to double: twice
// (-(352.00000000000006 x 0.28125000000000006) came out 1 ULP off), and a
// double-double sum still lost the direction at exact ties.
inline double SumOfTwoProducts(double a, double c, double b, double d) {
  const __float128 p = static_cast<__float128>(a) * c;
  const __float128 q = static_cast<__float128>(b) * d;
  const __float128 s = p + q;
  const __float128 t = s - p;
  const __float128 e = (p - (s - t)) + (q - t);
  const double r = static_cast<double>(s);
  const __float128 m = r;
  if (e == 0 || !std::isfinite(r) || m == s) return r;
  const double other = std::nextafter(r, s > m ? HUGE_VAL : -HUGE_VAL);
  if ((m + static_cast<__float128>(other)) / 2 != s) return r;  // not a midpoint
  return (static_cast<__float128>(other) > m) == (e > 0) ? other : r;
}

// hi + lo (a double-double, |lo| <= half an ULP of hi) rounded once to
// float: a cast of hi alone rounds twice where hi is a float midpoint.
inline float RoundToFloat(double hi, double lo) {
  const float r = static_cast<float>(hi);
  const double m = r;
  if (lo == 0 || !std::isfinite(hi) || m == hi) return r;
  const float other = std::nextafterf(r, hi > m ? HUGE_VALF : -HUGE_VALF);
  if ((m + static_cast<double>(other)) / 2 != hi) return r;  // not a midpoint
  // On a midpoint the exact value lies on lo's side of it.
  return (static_cast<double>(other) > m) == (lo > 0) ? other : r;
}

// Complex multiplication, each part rounded once from its exact value for
// finite operands (f64: SumOfTwoProducts; f32: exact products in double,
// their sum as a double-double), else (NaN and infinities) in the wider type.
template <typename P>
std::complex<P> ComplexMultiply(std::complex<P> x, std::complex<P> y) {
  if constexpr (std::is_same_v<P, float>) {
    auto part = [](double p, double q) {
      const double s = p + q;
      const double t = s - p;
      return RoundToFloat(s, (p - (s - t)) + (q - t));
    };
    const double a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
    if (std::isfinite(a * c) && std::isfinite(b * d) && std::isfinite(a * d) &&
        std::isfinite(b * c)) {
      return {part(a * c, -(b * d)), part(a * d, b * c)};
    }
  }
  if constexpr (std::is_same_v<P, double>) {
    const bool finite = std::isfinite(x.real()) && std::isfinite(x.imag()) &&
                        std::isfinite(y.real()) && std::isfinite(y.imag());
    if (finite) {
      return {SumOfTwoProducts(x.real(), y.real(), -x.imag(), y.imag()),
              SumOfTwoProducts(x.real(), y.imag(), x.imag(), y.real())};
    }
  }
  return Widened2(x, y, [](auto p, auto q) { return p * q; });
}

// Like LiftFloat2, but narrow floats are computed in double and rounded
// once, directly from the double, to T: for functions such as atan2 whose
// exact result can lie within float's precision of (or on) a midpoint of T
// without being one, where rounding through float would round twice.
template <ElementType T, typename F>
auto LiftFloat2Wide(F f) {
  using C = ContainerT<T>;
  if constexpr (kIsBitPatternFloat<T>) {
    const FloatFormat* format = &Format(T);
    return [f, format](C x, C y) -> C {
      const double r = f(static_cast<double>(ToFloat<T>(x)), static_cast<double>(ToFloat<T>(y)));
      return static_cast<C>(EncodeFloat(*format, ExactValue::FromDouble(r)));
    };
  } else {
    return [f](C x, C y) -> C { return f(x, y); };
  }
}

// The comparing ops' scalar functions (elementwise_compare_select.cc), which scatter
// and sort (data_movement_scatter.cc, data_movement_sort.cc) use as their
// combiners and keys.

// IEEE-754 maximum (kMax) or minimum of two real values.
template <bool kMax, typename P>
P FloatExtremum(P a, P b) {
  if (std::isnan(a) || std::isnan(b)) return a + b;
  if (a == b) return (std::signbit(a) == kMax) ? b : a;  // -0 < +0
  return (a > b) == kMax ? a : b;
}

// Complex numbers are ordered lexicographically by (real, imag); a NaN part
// makes the result NaN.
template <bool kMax, typename P>
std::complex<P> ComplexExtremum(std::complex<P> a, std::complex<P> b) {
  if (std::isnan(a.real()) || std::isnan(a.imag()) || std::isnan(b.real()) ||
      std::isnan(b.imag())) {
    const P nan = std::numeric_limits<P>::quiet_NaN();
    return {nan, nan};
  }
  const bool greater = a.real() > b.real() || (a.real() == b.real() && a.imag() > b.imag());
  const bool equal = a.real() == b.real() && a.imag() == b.imag();
  if (equal) return a;
  return greater == kMax ? a : b;
}

// max or min as a function of T's containers.
template <bool kMax, ElementType T>
auto Extremum() {
  using C = ContainerT<T>;
  if constexpr (IsBool(T)) {
    return [](C a, C b) -> C {
      const bool x = a != 0;
      const bool y = b != 0;
      return (kMax ? (x || y) : (x && y)) ? 1 : 0;
    };
  } else if constexpr (IsInteger(T)) {
    // Containers hold the value sign- or zero-extended: compare them as is.
    return [](C a, C b) -> C { return (a > b) == kMax ? a : b; };
  } else if constexpr (IsComplex(T)) {
    return [](C a, C b) -> C { return ComplexExtremum<kMax>(a, b); };
  } else {
    return LiftFloat2<T>([](ComputeT<T> a, ComputeT<T> b) { return FloatExtremum<kMax>(a, b); });
  }
}

// IEEE-754 totalOrder as a signed key of the encoding: negative values
// (sign bit set) count down from -1, so -NaN < -Inf < ... < -0 < +0 < ...
template <ElementType T>
int64_t TotalOrderKey(ContainerT<T> value) {
  const uint64_t bits = FloatBits<T>(value);
  const uint64_t sign_mask = [] {
    if constexpr (T == ElementType::kF32) return uint64_t{1} << 31;
    if constexpr (T == ElementType::kF64) return uint64_t{1} << 63;
    return Format(T).sign_mask();
  }();
  if (sign_mask != 0 && (bits & sign_mask) != 0) {
    return -static_cast<int64_t>(bits & ~sign_mask) - 1;
  }
  return static_cast<int64_t>(bits);
}

// Runs a same-type elementwise op: checks the case, makes the result and
// calls kernel.template operator()<T>(result) once for its element type,
// which is known to satisfy `allowed`.
template <typename Allowed, typename Kernel>
absl::StatusOr<Results> RunSameType(const Case& c, size_t operands, Allowed allowed,
                                    Kernel&& kernel) {
  HLOCHECK_RETURN_IF_ERROR(CheckElementwise(c, operands, true));
  Tensor result = NewResult(c.result_types[0]);
  const ElementType type = result.element_type();
  if (!allowed(type)) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, ": element type ", TypeName(type), " is not supported"));
  }
  DispatchElementType(type, [&]<ElementType T>() { kernel.template operator()<T>(result); });
  return OneResult(std::move(result));
}

// The bits of T's width (bitwise ops and bitcast_convert).
template <ElementType T>
constexpr uint64_t kMask = BitWidth(T) == 64 ? ~uint64_t{0} : (uint64_t{1} << BitWidth(T)) - 1;

// Support answers by the element types an op takes.
inline bool IsFloatType(ElementType t) { return IsFloat(t); }
inline AdapterSupport SupportsAny(const Case& c) { return SupportsTypes(c, AnyType, "every type"); }
inline AdapterSupport SupportsFloat(const Case& c) {
  return SupportsTypes(c, IsFloatType, "float types");
}
inline AdapterSupport SupportsFloatOrComplex(const Case& c) {
  return SupportsTypes(c, FloatOrComplex, "float and complex types");
}
inline AdapterSupport SupportsIntFloatOrComplex(const Case& c) {
  return SupportsTypes(c, IntFloatOrComplex, "integer, float and complex types");
}

// Calls f on the complex value widened to complex<double> when its parts are
// float, so that a formula's intermediate roundings stay far below float's,
// and rounds each part once.
template <typename P, typename F>
std::complex<P> Widened(std::complex<P> z, F f) {
  using W = WideT<P>;
  const std::complex<W> r = f(std::complex<W>(z.real(), z.imag()));
  return {static_cast<P>(r.real()), static_cast<P>(r.imag())};
}

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

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_ELEMENTWISE_INTERNAL_H_
