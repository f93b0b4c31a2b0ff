// Elementwise arithmetic: add, subtract, multiply, divide, remainder,
// negate, sign, abs and sqrt. Each op
// dispatches on the element type once and maps a scalar function over the
// tensor as an Eigen expression on the pool. Integers wrap around; where the
// spec leaves a result to the implementation (division by zero, min / -1)
// the results are XLA's, computed without undefined behaviour.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <quadmath.h>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// ---------------------------------------------------------------- add

template <ElementType T>
void AddKernel(const Tensor& lhs, const Tensor& rhs, Tensor& out, const Device& device) {
  using C = ContainerT<T>;
  const int64_t n = out.num_elements();
  if (n == 0) return;
  const C* x = lhs.values<T>().data();
  const C* y = rhs.values<T>().data();
  C* z = out.values<T>().data();
  constexpr double kBytes = sizeof(C);
  if constexpr (T == ElementType::kF32 || T == ElementType::kF64 || IsComplex(T)) {
    Map<C>(z, n).device(device) = ConstMap<C>(x, n) + ConstMap<C>(y, n);
  } else if constexpr (T == ElementType::kF16) {
    // Eigen's half adds in float and rounds once, to nearest even.
    Map<Eigen::half>(reinterpret_cast<Eigen::half*>(z), n).device(device) =
        ConstMap<Eigen::half>(reinterpret_cast<const Eigen::half*>(x), n) +
        ConstMap<Eigen::half>(reinterpret_cast<const Eigen::half*>(y), n);
  } else if constexpr (kIsBitPatternFloat<T>) {
    // bf16 goes through here too: Eigen's vectorized bfloat16 add, built
    // with AVX512-BF16, rounds with vcvtneps2bf16, which flushes subnormal
    // results to zero; its scalar conversion (in FromFloat) does not.
    const FloatFormat& format = Format(T);
    ParallelFor(device, n, kBytes, 40, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        z[i] = FromFloat<T>(ToFloat<T>(x[i]) + ToFloat<T>(y[i]), format);
      }
    });
  } else if constexpr (IsBool(T)) {
    // i1 addition is logical or; any non-zero byte counts as true.
    ParallelFor(device, n, kBytes, 1, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) z[i] = (x[i] | y[i]) != 0 ? 1 : 0;
    });
  } else if constexpr (BitWidth(T) == 8 * sizeof(C)) {
    // Full-width integers wrap in their unsigned counterpart, where overflow
    // is defined; the signed result is the same bits.
    using U = std::make_unsigned_t<C>;
    Map<U>(reinterpret_cast<U*>(z), n).device(device) =
        ConstMap<U>(reinterpret_cast<const U*>(x), n) +
        ConstMap<U>(reinterpret_cast<const U*>(y), n);
  } else {
    // si2, si4, ui2, ui4: wrap to the type's width, not the byte's.
    ParallelFor(device, n, kBytes, 2, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        z[i] = WrapInteger<T>(IntegerBits<T>(x[i]) + IntegerBits<T>(y[i]));
      }
    });
  }
}

bool SignedFloatOrComplex(ElementType t) { return IsSignedInt(t) || IsFloat(t) || IsComplex(t); }

// Integer quotient truncated toward zero; x / 0 is -1 (all bits set) and
// min / -1 is min, as XLA defines them.
template <ElementType T>
uint64_t IntDivide(uint64_t x, uint64_t y) {
  if (y == 0) return ~uint64_t{0};
  if constexpr (IsSignedInt(T)) {
    const auto a = static_cast<int64_t>(x);
    const auto b = static_cast<int64_t>(y);
    if (b == -1) return uint64_t{0} - x;  // wraps min to itself
    return static_cast<uint64_t>(a / b);
  } else {
    return x / y;
  }
}

// Remainder with the dividend's sign; x % 0 is x and min % -1 is 0 (XLA).
template <ElementType T>
uint64_t IntRemainder(uint64_t x, uint64_t y) {
  if (y == 0) return x;
  if constexpr (IsSignedInt(T)) {
    const auto a = static_cast<int64_t>(x);
    const auto b = static_cast<int64_t>(y);
    if (b == -1) return 0;
    return static_cast<uint64_t>(a % b);
  } else {
    return x % y;
  }
}

// Complex remainder is left open by the spec (#997): this is the part-wise
// C fmod, which is what the textbook lhs - trunc(lhs / rhs) * rhs gives for
// real operands.
template <typename P>
std::complex<P> ComplexRemainder(std::complex<P> x, std::complex<P> y) {
  return {std::fmod(x.real(), y.real()), std::fmod(x.imag(), y.imag())};
}

// ------------------------------------------------------ binary arithmetic

enum class Arith { kSubtract, kMultiply, kDivide, kRemainder };

template <Arith kOp, ElementType T>
void ArithKernel(const Tensor& lhs, const Tensor& rhs, Tensor& out, const Device& device) {
  using C = ContainerT<T>;
  const C* x = lhs.values<T>().data();
  const C* y = rhs.values<T>().data();
  C* z = out.values<T>().data();
  const int64_t n = out.num_elements();
  if constexpr (IsBool(T)) {
    // Only multiply takes booleans: logical and.
    MapBinary(x, y, z, n, device, [](C a, C b) -> C { return (a != 0 && b != 0) ? 1 : 0; });
  } else if constexpr (IsInteger(T)) {
    if constexpr (kOp == Arith::kSubtract) {
      MapBinary(x, y, z, n, device, LiftInt2<T>([](uint64_t a, uint64_t b) { return a - b; }));
    } else if constexpr (kOp == Arith::kMultiply) {
      MapBinary(x, y, z, n, device, LiftInt2<T>([](uint64_t a, uint64_t b) { return a * b; }));
    } else if constexpr (kOp == Arith::kDivide) {
      MapBinary(x, y, z, n, device, LiftInt2<T>(IntDivide<T>));
    } else {
      MapBinary(x, y, z, n, device, LiftInt2<T>(IntRemainder<T>));
    }
  } else if constexpr (T == ElementType::kF32 || T == ElementType::kF64) {
    // Native types: Eigen's vectorized operators (IEEE, correctly rounded).
    auto a = ConstMap<C>(x, n);
    auto b = ConstMap<C>(y, n);
    if (n == 0) return;
    if constexpr (kOp == Arith::kSubtract) {
      Map<C>(z, n).device(device) = a - b;
    } else if constexpr (kOp == Arith::kMultiply) {
      Map<C>(z, n).device(device) = a * b;
    } else if constexpr (kOp == Arith::kDivide) {
      Map<C>(z, n).device(device) = a / b;
    } else {
      MapBinary(x, y, z, n, device, [](C p, C q) { return std::fmod(p, q); });
    }
  } else if constexpr (IsComplex(T)) {
    if constexpr (kOp == Arith::kSubtract) {
      MapBinary(x, y, z, n, device, [](C a, C b) { return a - b; });
    } else if constexpr (kOp == Arith::kMultiply) {
      // Each part rounded once from its exact value (ComplexMultiply).
      MapBinary(x, y, z, n, device, [](C a, C b) { return ComplexMultiply(a, b); });
    } else if constexpr (kOp == Arith::kDivide) {
      MapBinary(x, y, z, n, device,
                [](C a, C b) { return Widened2(a, b, [](auto p, auto q) { return p / q; }); });
    } else {
      MapBinary(x, y, z, n, device, [](C a, C b) { return ComplexRemainder(a, b); });
    }
  } else {
    // Narrow floats: one basic operation in float, rounded once (exact by
    // the double rounding theorem, see cpu_internal.h); fmod is exact.
    if constexpr (kOp == Arith::kSubtract) {
      MapBinary(x, y, z, n, device, LiftFloat2<T>([](float a, float b) { return a - b; }));
    } else if constexpr (kOp == Arith::kMultiply) {
      MapBinary(x, y, z, n, device, LiftFloat2<T>([](float a, float b) { return a * b; }));
    } else if constexpr (kOp == Arith::kDivide) {
      MapBinary(x, y, z, n, device, LiftFloat2<T>([](float a, float b) { return a / b; }));
    } else {
      MapBinary(x, y, z, n, device,
                LiftFloat2<T>([](float a, float b) { return std::fmod(a, b); }));
    }
  }
}

template <Arith kOp>
absl::StatusOr<Results> RunArith(const Case& c, const Device& device) {
  auto allowed = kOp == Arith::kMultiply ? AnyType : IntFloatOrComplex;
  return RunSameType(c, 2, allowed, [&]<ElementType T>(Tensor& result) {
    if constexpr (kOp == Arith::kMultiply || !IsBool(T)) {
      ArithKernel<kOp, T>(c.operands[0], c.operands[1], result, device);
    }
  });
}

absl::StatusOr<Results> RunAdd(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckElementwise(c, 2, true));
  Tensor result = NewResult(c.result_types[0]);
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    AddKernel<T>(c.operands[0], c.operands[1], result, device);
  });
  Results results;
  results.push_back(std::move(result));
  return results;
}
// ------------------------------------------------------------ unary ops

template <typename P>
std::complex<P> ComplexSign(std::complex<P> z) {
  const P re = z.real();
  const P im = z.imag();
  if (std::isnan(re) || std::isnan(im)) {
    return {std::numeric_limits<P>::quiet_NaN(), std::numeric_limits<P>::quiet_NaN()};
  }
  if (re == 0 && im == 0) return z;
  // The seed's divide(x, convert(abs(x))): the modulus rounded to the part
  // type first (so a modulus beyond its range is infinity and the sign 0),
  // then each part divided and rounded once.
  using W = WideT<P>;
  const P modulus = static_cast<P>(std::hypot(static_cast<W>(re), static_cast<W>(im)));
  return {static_cast<P>(static_cast<W>(re) / modulus),
          static_cast<P>(static_cast<W>(im) / modulus)};
}

enum class Unary { kNegate, kSign };

template <Unary kOp, ElementType T>
void UnaryKernel(const Tensor& operand, Tensor& out, const Device& device) {
  using C = ContainerT<T>;
  const C* x = operand.values<T>().data();
  C* z = out.values<T>().data();
  const int64_t n = out.num_elements();
  if constexpr (IsInteger(T)) {
    if constexpr (kOp == Unary::kNegate) {
      MapUnary(x, z, n, device, LiftInt<T>([](uint64_t a) { return uint64_t{0} - a; }));
    } else {
      MapUnary(x, z, n, device, LiftInt<T>([](uint64_t a) -> uint64_t {
                 const auto s = static_cast<int64_t>(a);
                 return static_cast<uint64_t>(s > 0 ? 1 : (s < 0 ? -1 : 0));
               }));
    }
  } else if constexpr (IsComplex(T)) {
    if constexpr (kOp == Unary::kNegate) {
      MapUnary(x, z, n, device, [](C a) { return -a; });
    } else {
      MapUnary(x, z, n, device, [](C a) { return ComplexSign(a); });
    }
  } else if constexpr (IsFloat(T)) {
    using P = ComputeT<T>;
    if constexpr (kOp == Unary::kNegate) {
      MapUnary(x, z, n, device, LiftFloat<T>([](P a) { return -a; }));
    } else {
      // NaN and signed zeros are their own sign.
      MapUnary(x, z, n, device, LiftFloat<T>([](P a) -> P {
                 if (std::isnan(a) || a == 0) return a;
                 return a > 0 ? P{1} : P{-1};
               }));
    }
  }
}

template <Unary kOp>
absl::StatusOr<Results> RunUnary(const Case& c, const Device& device) {
  auto allowed = kOp == Unary::kNegate ? IntFloatOrComplex : SignedFloatOrComplex;
  return RunSameType(c, 1, allowed, [&]<ElementType T>(Tensor& result) {
    if constexpr (!IsBool(T) && !(kOp == Unary::kSign && IsUnsignedInt(T))) {
      UnaryKernel<kOp, T>(c.operands[0], result, device);
    }
  });
}

// sqrt(re^2 + im^2) correctly rounded, as the spec's abs is (libm's hypot
// is within an ulp but not correctly rounded: the fresh-seed gate found
// |13.845998919774365 + 6.510019261193612i| one ulp low). Long double
// (64 bits, and a range that holds every square of a double) decides all
// but the results within 2^-60 of a midpoint of P; those are redone in
// binary128, where the squares are exact and the sum is within 2^-113.
template <typename P>
P CorrectlyRoundedModulus(P re, P im) {
  if (!std::isfinite(re) || !std::isfinite(im)) return std::hypot(re, im);
  using L = long double;
  const L root = std::sqrt(L{re} * L{re} + L{im} * L{im});
  const P rounded = static_cast<P>(root);
  const L half_ulp =
      (L{std::nextafter(rounded, std::numeric_limits<P>::infinity())} - L{rounded}) / 2;
  const L from_midpoint = std::fabs(std::fabs(root - L{rounded}) - half_ulp);
  if (from_midpoint > std::ldexp(root, -60) || std::isinf(rounded)) return rounded;
  const __float128 wide_re = re;
  const __float128 wide_im = im;
  return static_cast<P>(sqrtq(wide_re * wide_re + wide_im * wide_im));
}

// abs: complex operands give their float modulus.
absl::StatusOr<Results> RunAbs(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckElementwise(c, 1, false));
  const Tensor& operand = c.operands[0];
  Tensor result = NewResult(c.result_types[0]);
  const ElementType type = operand.element_type();
  if (!SignedFloatOrComplex(type) || ComponentType(type) != result.element_type()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "abs: ", TypeName(type), " -> ", TypeName(result.element_type()), " is not supported"));
  }
  const int64_t n = result.num_elements();
  DispatchElementType(type, [&]<ElementType T>() {
    using C = ContainerT<T>;
    const C* x = operand.values<T>().data();
    if constexpr (IsSignedInt(T)) {
      MapUnary(x, result.values<T>().data(), n, device, LiftInt<T>([](uint64_t a) {
                 return static_cast<int64_t>(a) < 0 ? uint64_t{0} - a : a;
               }));
    } else if constexpr (IsComplex(T)) {
      constexpr ElementType R = ComponentType(T);
      using P = ContainerT<R>;
      MapUnary(x, result.values<R>().data(), n, device,
               [](C a) -> P { return CorrectlyRoundedModulus(a.real(), a.imag()); });
    } else if constexpr (T == ElementType::kF32 || T == ElementType::kF64) {
      if (n > 0) Map<C>(result.values<T>().data(), n).device(device) = ConstMap<C>(x, n).abs();
    } else if constexpr (IsFloat(T)) {
      MapUnary(x, result.values<T>().data(), n, device,
               LiftFloat<T>([](float a) { return std::fabs(a); }));
    }
  });
  return OneResult(std::move(result));
}

// ----------------------------------------------------------------- sqrt

absl::StatusOr<Results> RunSqrt(const Case& c, const Device& device) {
  return RunFloatUnary(
      c, device, FloatOrComplex, [](auto a) { return std::sqrt(a); },
      [](auto z) { return Widened(z, [](auto w) { return std::sqrt(w); }); });
}

AdapterSupport SupportsSignedFloatOrComplex(const Case& c) {
  return SupportsTypes(c, SignedFloatOrComplex, "signed integer, float and complex types");
}

}  // namespace

std::vector<OpEntry> ElementwiseArithmeticOps() {
  return {
      {"add", 2, &SupportsAny, &RunAdd},
      {"subtract", 2, &SupportsIntFloatOrComplex, &RunArith<Arith::kSubtract>},
      {"multiply", 2, &SupportsAny, &RunArith<Arith::kMultiply>},
      {"divide", 2, &SupportsIntFloatOrComplex, &RunArith<Arith::kDivide>},
      {"remainder", 2, &SupportsIntFloatOrComplex, &RunArith<Arith::kRemainder>},
      {"negate", 1, &SupportsIntFloatOrComplex, &RunUnary<Unary::kNegate>},
      {"sign", 1, &SupportsSignedFloatOrComplex, &RunUnary<Unary::kSign>},
      {"abs", 1, &SupportsSignedFloatOrComplex, &RunAbs},
      {"sqrt", 1, &SupportsFloatOrComplex, &RunSqrt},
  };
}

}  // namespace hlocheck::cpu
