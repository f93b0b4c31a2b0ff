// Element-wise arithmetic (seed 002: add, subtract, multiply, divide, remainder,
// negate, abs, sign, sqrt). One function per op, written as the spec's
// semantics; the element type is dispatched once per op.
//
// Float results are correctly rounded into their own type, once:
// - f64 uses the host's IEEE-754 binary64 operation (+ - * / sqrt and fmod
//   are correctly rounded, round to nearest even).
// - Every narrower type has at most 24 significand bits. Its values are
//   exact doubles; the double result of + - / sqrt rounded once more to the
//   type is the correctly rounded result, because double has at least
//   2p + 2 bits (Figueroa, "When is double rounding innocuous?", 1995). A
//   product of two such values is even exact in double.
// - Complex products, quotients, moduli and square roots go through MPFR and
//   MPC (oracle/precise/complex_arithmetic.h): each part is exact or
//   correctly rounded before its one rounding into the part type.
#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"
#include "oracle/precise/complex_arithmetic.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

absl::Status Unsupported(std::string_view op, ElementType type) {
  return absl::InvalidArgumentError("unsupported: " + std::string(op) + " of " +
                                    std::string(Name(type)) + " tensors");
}

constexpr std::string_view kComplexSpecialsReason =
    "a complex operation on infinite or NaN parts (or dividing by zero) is "
    "implementation-defined; C99 Annex G is one convention among several";

bool IsFiniteComplex(double re, double im) { return std::isfinite(re) && std::isfinite(im); }

// out[i] = fn(a[i], b[i], &flags) for every element; results that T cannot
// hold are marked free.
template <ElementType T, typename Fn>
void MapBinary(const Tensor& lhs, const Tensor& rhs, Tensor& result, FreeElements& free, Fn fn) {
  auto a = lhs.values<T>();
  auto b = rhs.values<T>();
  auto out = result.values<T>();
  for (size_t i = 0; i < out.size(); ++i) {
    uint8_t flags = 0;
    out[i] = fn(a[i], b[i], &flags);
    if (flags & kConversionUnrepresentable) free.Mark(i, kUnrepresentableReason);
  }
}

template <ElementType T, ElementType R, typename Fn>
void MapUnary(const Tensor& operand, Tensor& result, FreeElements& free, Fn fn) {
  auto in = operand.values<T>();
  auto out = result.values<R>();
  for (size_t i = 0; i < out.size(); ++i) {
    uint8_t flags = 0;
    out[i] = fn(in[i], &flags);
    if (flags & kConversionUnrepresentable) free.Mark(i, kUnrepresentableReason);
  }
}

// The error a backend may make in one part of a complex product or quotient.
// These are not IEEE-754 basic operations and the spec gives no accuracy, so
// the reference is correctly rounded but the check accepts the textbook
// algorithms:
// - product, real part ac - bd: rounding ac, bd and their difference errs by
//   at most (2u + u^2)(|ac| + |bd|), and the reference itself by u|ac - bd|;
// - quotient: the textbook formula and Smith's algorithm err by a few
//   u|x / y| per part (Cauchy-Schwarz: |ac| + |bd| <= |x||y|); we allow 8.
// u is the part type's unit roundoff; each rounding may also lose half the
// smallest subnormal.
struct ComplexBound {
  double unit_roundoff;
  double underflow;

  explicit ComplexBound(const FloatFormat& part)
      : unit_roundoff(std::ldexp(1.0, -(part.mantissa_bits + 1))),
        underflow(std::ldexp(1.0, part.min_normal_exponent() - part.mantissa_bits)) {}
  double Product(double magnitude_sum) const {
    return (3 + unit_roundoff) * unit_roundoff * magnitude_sum * (1 + 0x1p-50) + 2 * underflow;
  }
  double Quotient(double quotient_modulus) const {
    return 8 * unit_roundoff * quotient_modulus + 4 * underflow;
  }
};

// The reference and per-part bounds of a complex product or quotient.
template <ElementType T, typename PartsFn>
std::vector<ResultExpectation> ComplexWithinBound(const Tensor& lhs, const Tensor& rhs,
                                                  Tensor result, PartsFn parts) {
  constexpr ElementType kPart = ComponentType(T);
  precise::PreciseComplex precise(Format(kPart));
  ComplexBound model(Format(kPart));
  auto a = lhs.values<T>();
  auto b = rhs.values<T>();
  auto out = result.values<T>();
  FreeElements free(out.size());
  ResultExpectation expectation;
  expectation.center_hi.resize(2 * out.size());
  expectation.center_lo.assign(2 * out.size(), 0.0);
  expectation.bound.resize(2 * out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    double x_re = a[i].real(), x_im = a[i].imag(), y_re = b[i].real(), y_im = b[i].imag();
    double bound[2];
    bool open = false;
    precise::ComplexBits bits = parts(precise, model, x_re, x_im, y_re, y_im, bound, &open);
    out[i] = {FloatFromBits<kPart>(bits.real), FloatFromBits<kPart>(bits.imag)};
    expectation.center_hi[2 * i] = out[i].real();
    expectation.center_hi[2 * i + 1] = out[i].imag();
    expectation.bound[2 * i] = bound[0];
    expectation.bound[2 * i + 1] = bound[1];
    if (open) free.Mark(i, kComplexSpecialsReason);
  }
  expectation.reference = std::move(result);
  expectation.check = Check::kErrorBound;
  std::move(free).MoveInto(expectation);
  std::vector<ResultExpectation> results;
  results.push_back(std::move(expectation));
  return results;
}

// subtract: wrapping subtraction for integers, IEEE-754 subtraction for
// floats and for each part of complex numbers.
template <ElementType T>
ContainerT<T> SubtractValues(ContainerT<T> a, ContainerT<T> b, uint8_t* flags) {
  if constexpr (IsInteger(T)) {
    return WrapInteger<T>(IntegerBits<T>(a) - IntegerBits<T>(b));
  } else if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    return {SubtractValues<kPart>(a.real(), b.real(), flags),
            SubtractValues<kPart>(a.imag(), b.imag(), flags)};
  } else if constexpr (T == ElementType::kF64) {
    return a - b;
  } else {
    return RoundDouble<T>(ToDouble<T>(a) - ToDouble<T>(b), flags);  // 2p + 2 bits: see the top
  }
}

Results Subtract(const Case& c) {
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsBool(T)) {
      return Unsupported("subtract", T);
    } else {
      MapBinary<T>(c.operands[0], c.operands[1], result, free, SubtractValues<T>);
      return absl::OkStatus();
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kUlp, std::move(free));
}

// multiply: logical AND for booleans, wrapping multiplication for integers,
// IEEE-754 multiplication for floats, complex multiplication.
template <ElementType T>
ContainerT<T> MultiplyValues(ContainerT<T> a, ContainerT<T> b, uint8_t* flags) {
  if constexpr (IsBool(T)) {
    return (a & b) & 1;
  } else if constexpr (IsInteger(T)) {
    return WrapInteger<T>(IntegerBits<T>(a) * IntegerBits<T>(b));  // modulo 2^64, then 2^N
  } else if constexpr (T == ElementType::kF64) {
    return a * b;
  } else {
    // Two significands of at most 24 bits: the double product is exact.
    return RoundDouble<T>(ToDouble<T>(a) * ToDouble<T>(b), flags);
  }
}

Results Multiply(const Case& c) {
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  if (IsComplex(result.element_type())) {
    return DispatchElementType(result.element_type(), [&]<ElementType T>() -> Results {
      if constexpr (IsComplex(T)) {
        return ComplexWithinBound<T>(
            c.operands[0], c.operands[1], std::move(result),
            [](precise::PreciseComplex& p, const ComplexBound& model, double a, double b, double x,
               double y, double* bound, bool* open) {
              // (a + bi)(x + yi) = (ax - by) + (ay + bx)i
              bound[0] = model.Product(std::fabs(a * x) + std::fabs(b * y));
              bound[1] = model.Product(std::fabs(a * y) + std::fabs(b * x));
              *open = !IsFiniteComplex(a, b) || !IsFiniteComplex(x, y);
              return p.Multiply(a, b, x, y);
            });
      } else {
        return Unsupported("multiply", T);
      }
    });
  }
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (!IsComplex(T)) {
      MapBinary<T>(c.operands[0], c.operands[1], result, free, MultiplyValues<T>);
    }
  });
  return OneResult(std::move(result), Check::kUlp, std::move(free));
}

constexpr std::string_view kDivisionByZeroReason =
    "integer division by zero is implementation-defined (the reference shows XLA's: x / 0 = -1, "
    "x % 0 = x)";
constexpr std::string_view kDivisionOverflowReason =
    "the signed quotient min / -1 overflows; implementation-defined (the reference shows XLA's: "
    "min / -1 = min, min % -1 = 0)";

// Whether an integer quotient is one the spec leaves open; marks it.
template <ElementType T>
bool IntegerQuotientIsOpen(ContainerT<T> a, ContainerT<T> b, size_t i, FreeElements& free) {
  if (b == 0) {
    free.Mark(i, kDivisionByZeroReason);
    return true;
  }
  if constexpr (IsSignedInt(T)) {
    if (b == -1 && static_cast<int64_t>(a) == IntegerMin(T)) {
      free.Mark(i, kDivisionOverflowReason);
      return true;
    }
  }
  return false;
}

// divide: the algebraic quotient truncated toward zero for integers,
// IEEE-754 division for floats, complex division.
Results Divide(const Case& c) {
  Tensor result(c.result_types[0]);
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  FreeElements free(result.num_elements());
  return DispatchElementType(result.element_type(), [&]<ElementType T>() -> Results {
    if constexpr (IsBool(T)) {
      return Unsupported("divide", T);
    } else if constexpr (IsInteger(T)) {
      auto a = lhs.values<T>();
      auto b = rhs.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        if (IntegerQuotientIsOpen<T>(a[i], b[i], i, free)) {
          out[i] = b[i] == 0 ? WrapInteger<T>(~uint64_t{0}) : a[i];
        } else {
          out[i] = static_cast<ContainerT<T>>(a[i] / b[i]);  // C++ truncates toward zero
        }
      }
      return OneResult(std::move(result), Check::kExact, std::move(free));
    } else if constexpr (IsFloat(T)) {
      MapBinary<T>(lhs, rhs, result, free, [](ContainerT<T> a, ContainerT<T> b, uint8_t* flags) {
        if constexpr (T == ElementType::kF64) {
          return a / b;
        } else {
          return RoundDouble<T>(ToDouble<T>(a) / ToDouble<T>(b), flags);  // 2p + 2 bits
        }
      });
      return OneResult(std::move(result), Check::kUlp, std::move(free));
    } else {
      return ComplexWithinBound<T>(
          lhs, rhs, std::move(result),
          [](precise::PreciseComplex& p, const ComplexBound& model, double a, double b, double x,
             double y, double* bound, bool* open) {
            bound[0] = bound[1] = model.Quotient(std::hypot(a, b) / std::hypot(x, y));
            *open = !IsFiniteComplex(a, b) || !IsFiniteComplex(x, y) || (x == 0 && y == 0);
            return p.Divide(a, b, x, y);
          });
    }
  });
}

// remainder: lhs - d * rhs with the sign of the dividend, where d is the
// integer quotient (divide) for integers and the quotient truncated toward
// zero for floats. For floats that is C's fmod, whose result is always
// representable: it is exact, in double as in every narrower type.
Results Remainder(const Case& c) {
  Tensor result(c.result_types[0]);
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsBool(T)) {
      return Unsupported("remainder", T);
    } else if constexpr (IsInteger(T)) {
      auto a = lhs.values<T>();
      auto b = rhs.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        if (IntegerQuotientIsOpen<T>(a[i], b[i], i, free)) {
          out[i] = b[i] == 0 ? a[i] : 0;
        } else {
          out[i] = static_cast<ContainerT<T>>(a[i] % b[i]);  // the sign of the dividend
        }
      }
    } else if constexpr (IsFloat(T)) {
      MapBinary<T>(lhs, rhs, result, free, [](ContainerT<T> a, ContainerT<T> b, uint8_t* flags) {
        return RoundDouble<T>(std::fmod(ToDouble<T>(a), ToDouble<T>(b)), flags);  // exact
      });
    } else {
      // The spec leaves complex remainder TBD (#997): every element is open.
      for (int64_t i = 0; i < result.num_elements(); ++i) {
        free.Mark(i, "complex remainder is TBD in the spec (#997)");
      }
    }
    return absl::OkStatus();
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kUlp, std::move(free));
}

// negate: integer negation (unsigned: through the signed type, so modulo
// 2^N), IEEE-754 negate for floats (the sign flips, NaN included), complex
// negation. Formats without -0 (FNUZ) keep their zero and their NaN;
// f8E8M0FNU has no negative values at all.
template <ElementType T>
ContainerT<T> NegateValue(ContainerT<T> x, uint8_t* flags) {
  if constexpr (IsInteger(T)) {
    return WrapInteger<T>(uint64_t{0} - IntegerBits<T>(x));
  } else if constexpr (IsComplex(T)) {
    return -x;  // flips the sign bit of each part
  } else if constexpr (T == ElementType::kF32 || T == ElementType::kF64) {
    return -x;
  } else {
    const FloatFormat& format = Format(T);
    uint64_t bits = FloatBits<T>(x);
    // The FNUZ NaN has no sign to flip; f8E8M0FNU's NaN has no sign bit.
    if (IsNaNBits(format, bits) &&
        (format.nan_encoding == NanEncoding::kNegativeZero || !format.has_sign)) {
      return x;
    }
    if (!format.has_sign) {
      *flags |= kConversionUnrepresentable;
      return x;
    }
    if (!format.has_negative_zero() && (bits & ~format.sign_mask()) == 0) return x;
    return FloatFromBits<T>(bits ^ format.sign_mask());
  }
}

Results Negate(const Case& c) {
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsBool(T)) {
      return Unsupported("negate", T);
    } else {
      MapUnary<T, T>(c.operands[0], result, free, NegateValue<T>);
      return absl::OkStatus();
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kExact, std::move(free));
}

// abs: integer modulus for signed integers (the minimum wraps to itself),
// IEEE-754 abs for floats (clears the sign; a NaN stays NaN, which matters
// for FNUZ types whose NaN is the -0 pattern), and the complex modulus,
// correctly rounded into the part type.
template <ElementType T>
ContainerT<T> AbsValue(ContainerT<T> x, uint8_t*) {
  if constexpr (IsInteger(T)) {
    return static_cast<int64_t>(x) < 0 ? WrapInteger<T>(uint64_t{0} - IntegerBits<T>(x)) : x;
  } else if constexpr (T == ElementType::kF32 || T == ElementType::kF64) {
    return std::fabs(x);
  } else {
    const FloatFormat& format = Format(T);
    uint64_t bits = FloatBits<T>(x);
    if (IsNaNBits(format, bits)) return x;
    return FloatFromBits<T>(bits & ~format.sign_mask());
  }
}

Results Abs(const Case& c) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsBool(T) || IsUnsignedInt(T)) {
      return Unsupported("abs", T);
    } else if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      precise::PreciseComplex precise(Format(kPart));
      auto in = operand.values<T>();
      auto out = result.values<kPart>();
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = FloatFromBits<kPart>(precise.Modulus(in[i].real(), in[i].imag()));
      }
      return absl::OkStatus();
    } else {
      MapUnary<T, T>(operand, result, free, AbsValue<T>);
      return absl::OkStatus();
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kUlp, std::move(free));
}

// sign, as the spec's Python: -1, 0 or 1 for integers; NaN, the zero
// itself, -1.0 or 1.0 for floats; (NaN, NaN), (0, 0) or
// divide(x, convert(abs(x), type(x))) for complex numbers. The division by
// a real modulus m is (re / m, im / m), each part an IEEE division.
template <ElementType T>
ContainerT<T> SignValue(ContainerT<T> x, uint8_t* flags) {
  if constexpr (IsInteger(T)) {
    return static_cast<ContainerT<T>>(x < 0 ? -1 : (x == 0 ? 0 : 1));
  } else {
    if (IsNaNValue<T>(x)) return x;
    double value = ToDouble<T>(x);
    if (value == 0) return x;
    return RoundDouble<T>(value < 0 ? -1.0 : 1.0, flags);
  }
}

Results Sign(const Case& c) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsBool(T) || IsUnsignedInt(T)) {
      return Unsupported("sign", T);
    } else if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      using Part = ContainerT<kPart>;
      precise::PreciseComplex precise(Format(kPart));
      auto in = operand.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        double re = in[i].real();
        double im = in[i].imag();
        if (std::isnan(re) || std::isnan(im)) {
          out[i] = {std::numeric_limits<Part>::quiet_NaN(), std::numeric_limits<Part>::quiet_NaN()};
        } else if (re == 0 && im == 0) {
          out[i] = {0, 0};
        } else {
          double m = ToDouble<kPart>(FloatFromBits<kPart>(precise.Modulus(re, im)));
          uint8_t flags = 0;
          out[i] = {RoundDouble<kPart>(re / m, &flags), RoundDouble<kPart>(im / m, &flags)};
          if (!IsFiniteComplex(re, im)) free.Mark(i, kComplexSpecialsReason);
        }
      }
    } else {
      MapUnary<T, T>(operand, result, free, SignValue<T>);
    }
    return absl::OkStatus();
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kUlp, std::move(free));
}

// sqrt: IEEE-754 squareRoot for floats, the principal complex square root.
Results Sqrt(const Case& c) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      MapUnary<T, T>(operand, result, free, [](ContainerT<T> x, uint8_t* flags) {
        if constexpr (T == ElementType::kF64) {
          return std::sqrt(x);
        } else {
          return RoundDouble<T>(std::sqrt(ToDouble<T>(x)), flags);  // 2p + 2 bits
        }
      });
      return absl::OkStatus();
    } else if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      precise::PreciseComplex precise(Format(kPart));
      auto in = operand.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        precise::ComplexBits bits = precise.Sqrt(in[i].real(), in[i].imag());
        out[i] = {FloatFromBits<kPart>(bits.real), FloatFromBits<kPart>(bits.imag)};
        if (!IsFiniteComplex(in[i].real(), in[i].imag())) free.Mark(i, kComplexSpecialsReason);
      }
      return absl::OkStatus();
    } else {
      return Unsupported("sqrt", T);
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kUlp, std::move(free));
}

ResultExpectation WithinUlps(Tensor reference) {
  ResultExpectation expectation;
  expectation.reference = std::move(reference);
  expectation.check = Check::kUlp;
  return expectation;
}

// add: logical OR for booleans, wrapping addition for integers, IEEE-754
// addition for floats and for each part of complex numbers.
template <ElementType T>
ContainerT<T> AddValues(ContainerT<T> a, ContainerT<T> b) {
  if constexpr (IsBool(T)) {
    return (a | b) & 1;
  } else if constexpr (IsInteger(T)) {
    return WrapInteger<T>(IntegerBits<T>(a) + IntegerBits<T>(b));
  } else if constexpr (IsComplex(T)) {
    return {AddValues<ComponentType(T)>(a.real(), b.real()),
            AddValues<ComponentType(T)>(a.imag(), b.imag())};
  } else if constexpr (T == ElementType::kF64) {
    return a + b;  // the host's IEEE-754 binary64 addition, round to nearest even
  } else {
    // The double sum of two values of at most 24 significand bits, rounded
    // once more to T, is the correctly rounded sum: double has at least
    // 2p + 2 bits (Figueroa, "When is double rounding innocuous?", 1995).
    return RoundDouble<T>(ToDouble<T>(a) + ToDouble<T>(b));
  }
}

Results Add(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result(c.result_types[0]);
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    auto a = lhs.values<T>();
    auto b = rhs.values<T>();
    auto out = result.values<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = AddValues<T>(a[i], b[i]);
  });
  std::vector<ResultExpectation> results;
  results.push_back(WithinUlps(std::move(result)));
  return results;
}

}  // namespace

std::vector<OpEntry> ElementwiseArithmeticOps() {
  return {{"abs", Abs},           {"add", Add},       {"divide", Divide},
          {"multiply", Multiply}, {"negate", Negate}, {"remainder", Remainder},
          {"sign", Sign},         {"sqrt", Sqrt},     {"subtract", Subtract}};
}

}  // namespace hlocheck::oracle
