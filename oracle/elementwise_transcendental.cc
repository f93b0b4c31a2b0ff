// Elementwise transcendental ops (seed 002: atan2, cbrt, cosine, exponential,
// exponential_minus_one, log, log_plus_one, logistic, power, rsqrt, sine,
// tanh; the public spec's tan). Floats are correctly rounded into their own
// type (oracle/precise/ziv.h), complex numbers part by part
// (oracle/precise/complex.h); backends get the ULP bounds of each op's YAML.
// The element type is dispatched once per op.
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "core/status_macros.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"
#include "oracle/precise/complex.h"
#include "oracle/precise/elementary.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;
using ComplexUnary = precise::ComplexBits (*)(const FloatFormat&, double, double);

constexpr char kComplexExceptions[] =
    "the spec leaves complex transcendental functions of non-finite values (and their poles) to "
    "the implementation; C99 Annex G is one convention among several";

// Which complex inputs the spec leaves open besides non-finite ones.
enum class ComplexZero { kDefined, kFree };

Results Expect(Tensor result, ResultExpectation expectation) {
  expectation.reference = std::move(result);
  // Within the op's ULP bound, unless the op set an error bound of its own.
  if (expectation.check != Check::kErrorBound) expectation.check = Check::kUlp;
  if (expectation.FreeCount() == 0) {
    expectation.free.clear();
    expectation.free_reason.clear();
  }
  std::vector<ResultExpectation> results;
  results.push_back(std::move(expectation));
  return results;
}

// Where the function's value does not exist in the element type (log(-1)
// is NaN, which f4E2M1FN lacks; log(1) is 0, which f8E8M0FNU lacks) the
// spec does not say what it becomes: the element is free, as for
// arithmetic. Only formats without some special value can meet this; the
// value in double (right in class and sign for every input of such a
// format) says which class it is.
template <class F, typename... Doubles>
bool Unrepresentable(const FloatFormat& format, Doubles... x) {
  if (format.has_nan() && format.has_sign && format.has_zero_and_subnormals) return false;
  uint8_t flags = 0;
  EncodeFloat(format, ExactValue::FromDouble(F::InDouble(x...)), RoundingMode::kNearestEven,
              &flags);
  return (flags & kConversionUnrepresentable) != 0;
}

// f applied to each element: F correctly rounded for floats, `complex` part
// by part for complex numbers.
template <class F>
Results Unary(const Case& c, ComplexUnary complex, ComplexZero zero, const char* op) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  ResultExpectation expectation;
  absl::Status status = DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    auto in = operand.values<T>();
    auto out = result.values<T>();
    if constexpr (IsFloat(T)) {
      const FloatFormat& format = Format(T);
      FreeElements free(out.size());
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = FloatFromBits<T>(precise::CorrectlyRounded<F>(format, ToDouble<T>(in[i])));
        if (Unrepresentable<F>(format, ToDouble<T>(in[i]))) free.Mark(i, kUnrepresentableReason);
      }
      std::move(free).MoveInto(expectation);
      return absl::OkStatus();
    } else if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      expectation.free.assign(out.size(), 0);
      expectation.free_reason = kComplexExceptions;
      for (size_t i = 0; i < out.size(); ++i) {
        double re = in[i].real();
        double im = in[i].imag();
        precise::ComplexBits bits = complex(Format(kPart), re, im);
        out[i] = {FloatFromBits<kPart>(bits.real), FloatFromBits<kPart>(bits.imag)};
        bool at_zero = zero == ComplexZero::kFree && re == 0 && im == 0;
        if (!std::isfinite(re) || !std::isfinite(im) || at_zero) expectation.free[i] = 1;
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError(std::string(op) + " takes float or complex tensors");
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return Expect(std::move(result), std::move(expectation));
}

// cosine, sine, tan, tanh: IEEE-754 cos, sin, tan, tanh; the complex
// functions for complex numbers.
Results Cosine(const Case& c) {
  return Unary<precise::Cos>(c, precise::ComplexCos, ComplexZero::kDefined, "cosine");
}
Results Sine(const Case& c) {
  return Unary<precise::Sin>(c, precise::ComplexSin, ComplexZero::kDefined, "sine");
}
Results Tan(const Case& c) {
  return Unary<precise::Tan>(c, precise::ComplexTan, ComplexZero::kDefined, "tan");
}
Results Tanh(const Case& c) {
  return Unary<precise::Tanh>(c, precise::ComplexTanh, ComplexZero::kDefined, "tanh");
}

// log: IEEE-754 log (log(±0) = -Inf, NaN below 0); the principal complex log.
Results Log(const Case& c) {
  return Unary<precise::Log>(c, precise::ComplexLog, ComplexZero::kDefined, "log");
}

// log_plus_one: IEEE-754 logp1; log(1 + z) for complex numbers.
Results LogPlusOne(const Case& c) {
  return Unary<precise::Log1p>(c, precise::ComplexLog1p, ComplexZero::kDefined, "log_plus_one");
}

// exponential_minus_one: IEEE-754 expm1; e^z - 1 for complex numbers.
Results ExponentialMinusOne(const Case& c) {
  return Unary<precise::Expm1>(c, precise::ComplexExpm1, ComplexZero::kDefined,
                               "exponential_minus_one");
}

// logistic: division(1, addition(1, exp(-x))) evaluated exactly and rounded
// once (the spec's formula names the function, not three roundings).
Results Logistic(const Case& c) {
  return Unary<precise::Logistic>(c, precise::ComplexLogistic, ComplexZero::kDefined, "logistic");
}

// cbrt: IEEE-754 rootn(x, 3) (cbrt(-8) = -2); the principal complex cube root.
Results Cbrt(const Case& c) {
  return Unary<precise::Cbrt>(c, precise::ComplexCbrt, ComplexZero::kDefined, "cbrt");
}

// rsqrt: IEEE-754 rSqrt (rsqrt(-0) = -Inf); 1/sqrt(z) on sqrt's principal
// branch, where 1/sqrt(0) is left open.
Results Rsqrt(const Case& c) {
  return Unary<precise::Rsqrt>(c, precise::ComplexRsqrt, ComplexZero::kFree, "rsqrt");
}

// atan2: IEEE-754 atan2(lhs, rhs) with C's special values; for complex
// numbers -i log((x + iy) / sqrt(x^2 + y^2)) (precise::ComplexAtan2).
Results Atan2(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result(c.result_types[0]);
  ResultExpectation expectation;
  absl::Status status = DispatchElementType(lhs.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      const FloatFormat& format = Format(T);
      auto y = lhs.values<T>();
      auto x = rhs.values<T>();
      auto out = result.values<T>();
      FreeElements free(out.size());
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = FloatFromBits<T>(precise::CorrectlyRounded<precise::Atan2>(
            format, ToDouble<T>(y[i]), ToDouble<T>(x[i])));
        if (Unrepresentable<precise::Atan2>(format, ToDouble<T>(y[i]), ToDouble<T>(x[i]))) {
          free.Mark(i, kUnrepresentableReason);
        }
      }
      std::move(free).MoveInto(expectation);
      return absl::OkStatus();
    } else if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      auto y = lhs.values<T>();
      auto x = rhs.values<T>();
      auto out = result.values<T>();
      expectation.free.assign(out.size(), 0);
      expectation.free_reason =
          "complex atan2 at a non-finite input, at x^2 + y^2 = 0 or x + iy = 0, or on its branch "
          "cut (w on the negative real axis)";
      for (size_t i = 0; i < out.size(); ++i) {
        bool open = false;
        precise::ComplexBits bits = precise::ComplexAtan2(Format(kPart), y[i].real(), y[i].imag(),
                                                          x[i].real(), x[i].imag(), &open);
        out[i] = {FloatFromBits<kPart>(bits.real), FloatFromBits<kPart>(bits.imag)};
        expectation.free[i] = open ? 1 : 0;
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("atan2 takes float or complex tensors");
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return Expect(std::move(result), std::move(expectation));
}

// Integer exponentiation by squaring, wrapping around like multiply. The
// spec does not say what a negative exponent gives: the reference is the
// exact value truncated (1 for base 1, ±1 for base -1, else 0), and every
// such element but base 1 is left open.
template <ElementType T>
ContainerT<T> IntegerPower(ContainerT<T> base, ContainerT<T> exponent, bool* open) {
  uint64_t b = IntegerBits<T>(base);
  if constexpr (IsSignedInt(T)) {
    if (exponent < 0) {
      *open = base != 1;
      if (base == 1) return 1;
      if (base == -1) return (exponent % 2 == 0) ? 1 : -1;
      return 0;
    }
  }
  uint64_t e = IntegerBits<T>(exponent);
  uint64_t accumulator = 1;
  while (e != 0) {
    if (e & 1) accumulator *= b;
    b *= b;
    e >>= 1;
  }
  return WrapInteger<T>(accumulator);
}

// Whether the exact base^exponent (exponent >= 0) lies outside T's range.
template <ElementType T>
bool IntegerPowerOverflows(ContainerT<T> base, uint64_t exponent) {
  constexpr int kWidth = BitWidth(T);
  constexpr __int128 kOne = 1;
  constexpr __int128 kLow = IsSignedInt(T) ? -(kOne << (kWidth - 1)) : 0;
  constexpr __int128 kHigh = IsSignedInt(T) ? (kOne << (kWidth - 1)) - 1 : (kOne << kWidth) - 1;
  const __int128 b = static_cast<__int128>(base);
  if (b >= -1 && b <= 1) return false;
  // |base| >= 2: past 128 factors no integer type holds the power.
  if (exponent >= 128) return true;
  __int128 accumulator = 1;
  for (uint64_t k = 0; k < exponent; ++k) {
    if (__builtin_mul_overflow(accumulator, b, &accumulator)) return true;
    if (accumulator < kLow || accumulator > kHigh) return true;
  }
  return false;
}

constexpr std::string_view kNegativeExponentReason =
    "the spec does not define integer power with a negative exponent";
// The spec's Errors section: integer overflow is implementation-defined.
// No de facto value either: the interpreter wraps the exact power around,
// XLA multiplies a fixed number of squarings (jax-ml/jax#10692).
constexpr std::string_view kPowerOverflowReason =
    "integer overflow is implementation-defined (spec, Errors), and the StableHLO interpreter "
    "(the exact power wrapped around) and XLA (a fixed number of squarings) disagree";

// IEEE 754-2019 says pow(x, +-0) is 1 "for any x (even a zero, quiet NaN, or
// infinity)" and pow(+1, y) is 1 "for any y (even a quiet NaN)" (9.2.1); a
// signaling NaN operand signals invalid and gives a quiet NaN (7.2), which
// the spec's "pow from IEEE-754" makes the reference. C's Annex F (F.10.4.4)
// and CUDA's math library give 1 for every NaN, and many backends call them.
constexpr char kSignalingNaNPowerReason[] =
    "pow(x, +-0) and pow(+1, y) with a signaling NaN: IEEE 754-2019 exempts quiet NaNs only "
    "(9.2.1), so a quiet NaN (7.2); C's Annex F (F.10.4.4) and CUDA's math library give 1 for "
    "any NaN";

// Whether `bits` is a signaling NaN: only IEEE-like formats tell them from
// quiet ones (the quiet bit is the mantissa's highest); the FN and FNUZ
// types' one NaN is taken as quiet.
bool IsSignalingNaNBits(const FloatFormat& format, uint64_t bits) {
  if (format.nan_encoding != NanEncoding::kIeee || format.mantissa_bits < 2) return false;
  const uint64_t quiet_bit = uint64_t{1} << (format.mantissa_bits - 1);
  return IsNaNBits(format, bits) && (bits & quiet_bit) == 0;
}

// power: integer exponentiation for integers, IEEE-754 pow for floats,
// complex exponentiation e^(rhs log lhs) for complex numbers (0^rhs left
// open), compared within the error that rounding rhs log lhs implies.
Results Power(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result(c.result_types[0]);
  ResultExpectation expectation;
  absl::Status status = DispatchElementType(lhs.element_type(), [&]<ElementType T>() {
    auto a = lhs.values<T>();
    auto b = rhs.values<T>();
    auto out = result.values<T>();
    if constexpr (IsInteger(T)) {
      FreeElements free(out.size());
      for (size_t i = 0; i < out.size(); ++i) {
        bool open = false;
        out[i] = IntegerPower<T>(a[i], b[i], &open);
        if (open) {
          free.Mark(i, kNegativeExponentReason);
        } else if (!(IsSignedInt(T) && b[i] < 0) &&
                   IntegerPowerOverflows<T>(a[i], IntegerBits<T>(b[i]))) {
          free.Mark(i, kPowerOverflowReason);
        }
      }
      std::move(free).MoveInto(expectation);
      return absl::OkStatus();
    } else if constexpr (IsFloat(T)) {
      const FloatFormat& format = Format(T);
      FreeElements free(out.size());
      // pow(x, +-0) and pow(+1, y) of a signaling NaN: IEEE's quiet NaN,
      // and C's 1 as the other reading (kSignalingNaNPowerReason).
      std::optional<Tensor> c_reading;
      std::vector<uint8_t> differs;
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = FloatFromBits<T>(
            precise::CorrectlyRounded<precise::Pow>(format, ToDouble<T>(a[i]), ToDouble<T>(b[i])));
        if (Unrepresentable<precise::Pow>(format, ToDouble<T>(a[i]), ToDouble<T>(b[i]))) {
          free.Mark(i, kUnrepresentableReason);
        }
        const bool exempt_for_quiet_nan_only =
            (IsSignalingNaNBits(format, FloatBits<T>(a[i])) && ToDouble<T>(b[i]) == 0) ||
            (ToDouble<T>(a[i]) == 1 && IsSignalingNaNBits(format, FloatBits<T>(b[i])));
        if (!exempt_for_quiet_nan_only) continue;
        if (!c_reading) {
          c_reading.emplace(c.result_types[0]);
          differs.assign(out.size(), 0);
        }
        c_reading->values<T>()[i] = out[i];  // 1
        out[i] = FloatFromBits<T>(format.nan_bits());
        differs[i] = 1;
      }
      std::move(free).MoveInto(expectation);
      if (c_reading) {
        for (size_t i = 0; i < out.size(); ++i) {
          if (!differs[i]) c_reading->values<T>()[i] = out[i];
        }
        auto other = std::make_shared<ResultExpectation>();
        other->reference = std::move(*c_reading);
        other->check = Check::kExact;
        expectation.reading_differs = std::move(differs);
        expectation.other_reading_reason = kSignalingNaNPowerReason;
        expectation.other_reading = std::move(other);
      }
      return absl::OkStatus();
    } else if constexpr (IsComplex(T)) {
      // x^y = e^w with w = y log x is as sensitive to w as e^w is: a relative
      // change u in w moves the result by |x^y| u |w|. No evaluation in the
      // type can do better than w rounded to it, so each part may be off by
      // that much plus 4 units of |x^y| (which also covers a part that is
      // exactly 0, as the real part of i^1). Where u |w| > 1 the phase, and
      // with it every sign, is lost to rounding: those elements are open, as
      // are overflows whose sign or whose overflowing the spread of w leaves
      // unclear.
      constexpr ElementType kPart = ComponentType(T);
      const FloatFormat& part = Format(kPart);
      const double unit = std::ldexp(1.0, -(part.mantissa_bits + 1));
      const double log_max = std::log(DecodeFloat(part, part.max_finite_bits()).ToDouble());
      const double smallest = DecodeFloat(part, 1).ToDouble();
      expectation.check = Check::kErrorBound;
      expectation.free.assign(out.size(), 0);
      expectation.free_reason =
          std::string(kComplexExceptions) +
          "; complex power where |y log x| exceeds the inverse of the type's precision (the "
          "phase of the result is lost to rounding in any evaluation)";
      for (size_t i = 0; i < out.size(); ++i) {
        const std::complex<double> x(a[i].real(), a[i].imag());
        const std::complex<double> y(b[i].real(), b[i].imag());
        bool finite = std::isfinite(x.real()) && std::isfinite(x.imag()) &&
                      std::isfinite(y.real()) && std::isfinite(y.imag());
        bool zero_base = x == 0.0;
        const std::complex<double> w = finite && !zero_base ? y * std::log(x) : 0.0;
        const double spread = unit * (std::abs(w) + 4);  // of w, absolute
        if (!finite || zero_base || spread > 1) {
          // Open whatever its value: the correctly rounded one would cost
          // MPC about log2 |w| bits, for display only. C++'s value shows.
          const std::complex<double> shown = std::pow(x, y);
          out[i] = {static_cast<ContainerT<kPart>>(shown.real()),
                    static_cast<ContainerT<kPart>>(shown.imag())};
          expectation.free[i] = 1;
          for (int part_index = 0; part_index < 2; ++part_index) {
            expectation.center_hi.push_back(part_index == 0 ? shown.real() : shown.imag());
            expectation.center_lo.push_back(0);
            expectation.bound.push_back(0);
          }
          continue;
        }
        precise::ComplexBits bits =
            precise::ComplexPow(part, a[i].real(), a[i].imag(), b[i].real(), b[i].imag());
        out[i] = {FloatFromBits<kPart>(bits.real), FloatFromBits<kPart>(bits.imag)};
        const double re = static_cast<double>(out[i].real());
        const double im = static_cast<double>(out[i].imag());
        // An overflowing part is ±Inf: its sign is the sign of cos or sin of
        // Im w, and whether it overflows at all depends on Re w; both must be
        // clear of the spread to be checked.
        const bool overflows = std::isinf(re) || std::isinf(im);
        const bool sign_unclear = std::fabs(std::cos(w.imag())) < 4 * spread ||
                                  std::fabs(std::sin(w.imag())) < 4 * spread;
        const bool near_threshold = w.real() - log_max < 4 * spread;
        if (overflows && (sign_unclear || near_threshold)) {
          expectation.free[i] = 1;
        }
        const double bound = std::hypot(re, im) * spread + 4 * smallest;
        for (double center : {re, im}) {
          expectation.center_hi.push_back(center);
          expectation.center_lo.push_back(0);
          expectation.bound.push_back(bound);
        }
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("power takes integer, float or complex tensors");
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return Expect(std::move(result), std::move(expectation));
}

// exponential: IEEE-754 exp for floats, the complex exponential for complex
// numbers, both correctly rounded.
Results Exponential(const Case& c) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  ResultExpectation expectation;
  absl::Status status = DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      const FloatFormat& format = Format(T);
      auto in = operand.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] =
            FloatFromBits<T>(precise::CorrectlyRounded<precise::Exp>(format, ToDouble<T>(in[i])));
      }
      return absl::OkStatus();
    } else if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      auto in = operand.values<T>();
      auto out = result.values<T>();
      expectation.free.assign(out.size(), 0);
      for (size_t i = 0; i < out.size(); ++i) {
        double re = in[i].real();
        double im = in[i].imag();
        precise::ComplexBits bits = precise::ComplexExp(Format(kPart), re, im);
        out[i] = {FloatFromBits<kPart>(bits.real), FloatFromBits<kPart>(bits.imag)};
        // The spec leaves exceptions of complex transcendental functions to
        // the implementation; C99 Annex G is one convention among several.
        if (!std::isfinite(re) || !std::isfinite(im)) expectation.free[i] = 1;
      }
      expectation.free_reason = "complex exp of a non-finite value is implementation-defined";
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("exponential takes float or complex tensors");
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  expectation.reference = std::move(result);
  expectation.check = Check::kUlp;
  if (expectation.FreeCount() == 0) expectation.free.clear();
  std::vector<ResultExpectation> results;
  results.push_back(std::move(expectation));
  return results;
}

}  // namespace

std::vector<OpEntry> ElementwiseTranscendentalOps() {
  return {{"atan2", Atan2},
          {"cbrt", Cbrt},
          {"exponential", Exponential},
          {"cosine", Cosine},
          {"exponential_minus_one", ExponentialMinusOne},
          {"log", Log},
          {"log_plus_one", LogPlusOne},
          {"logistic", Logistic},
          {"power", Power},
          {"rsqrt", Rsqrt},
          {"sine", Sine},
          {"tan", Tan},
          {"tanh", Tanh}};
}

}  // namespace hlocheck::oracle
