// Element-wise rounding (seed 002: ceil, floor, round_nearest_afz,
// round_nearest_even, reduce_precision). Every value of every float type is
// an exact double, and the rounded value is representable in the operand's
// type, so the results are exact.
#include <cmath>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

// Ties to even: std::round ties away from zero; at a tie, twice the rounded
// half is the even neighbour. r - x and x / 2 are exact for |x| < 2^53
// (beyond, every double is an integer and r == x). Keeps the sign of zero.
double RoundHalfEven(double x) {
  double r = std::round(x);
  if (std::fabs(r - x) == 0.5) r = 2.0 * std::round(x / 2.0);
  return r;
}

// Applies a rounding of doubles (exact on these inputs) to every element;
// a result the type cannot hold (f8E8M0FNU has no zero) is free.
template <typename Fn>
Results MapRounding(const Case& c, std::string_view op, Fn round) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      auto in = operand.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        if (IsNaNValue<T>(in[i])) {
          out[i] = in[i];
          continue;
        }
        uint8_t flags = 0;
        out[i] = RoundDouble<T>(round(ToDouble<T>(in[i])), &flags);
        if (flags & kConversionUnrepresentable) free.Mark(i, kUnrepresentableReason);
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("unsupported: " + std::string(op) + " of " +
                                        std::string(Name(T)));
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kExact, std::move(free));
}

// ceil: IEEE-754 roundToIntegralTowardPositive.
Results Ceil(const Case& c) {
  return MapRounding(c, "ceil", [](double x) { return std::ceil(x); });
}

// floor: IEEE-754 roundToIntegralTowardNegative.
Results Floor(const Case& c) {
  return MapRounding(c, "floor", [](double x) { return std::floor(x); });
}

// round_nearest_afz: IEEE-754 roundToIntegralTiesToAway.
Results RoundNearestAfz(const Case& c) {
  return MapRounding(c, "round_nearest_afz", [](double x) { return std::round(x); });
}

// round_nearest_even: IEEE-754 roundToIntegralTiesToEven.
Results RoundNearestEven(const Case& c) {
  return MapRounding(c, "round_nearest_even", RoundHalfEven);
}

// reduce_precision of one value of a type with format `source`, as the spec
// describes it and XLA implements it:
// 1. if mantissa_bits is below the type's, the significand is rounded to
//    mantissa_bits fraction bits, ties to even (with no fraction bit left,
//    to the even exponent field, see below; the type's subnormals keep
//    their fixed quantum, 2^(min exponent - mantissa_bits)); rounding past
//    the type's largest finite value gives infinity;
// 2. if exponent_bits is below the type's, a result whose exponent exceeds
//    the reduced format's largest, 2^(exponent_bits - 1) - 1, overflows to
//    infinity, and one below the reduced format's smallest normal exponent
//    underflows to zero (the reduced format keeps no subnormals), both with
//    the original sign.
// NaN stays NaN. Returns the exact double result.
double ReducePrecisionValue(double x, const FloatFormat& source, int64_t exponent_bits,
                            int64_t mantissa_bits) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  if (mantissa_bits < source.mantissa_bits) {
    int quantum =
        std::max(std::ilogb(x), source.min_normal_exponent()) - static_cast<int>(mantissa_bits);
    double scaled = std::ldexp(x, -quantum);  // scalings by powers of two are exact
    double rounded = RoundHalfEven(scaled);
    if (mantissa_bits == 0 && std::ilogb(x) >= source.min_normal_exponent() &&
        std::fabs(scaled - std::trunc(scaled)) == 0.5) {
      // No fraction bit is left, so 1.5 * 2^e lies between two odd
      // significands (1 * 2^e and 1 * 2^(e+1)). XLA rounds the bit pattern,
      // whose last kept bit is then the lowest bit of the exponent field:
      // the tie goes to the even exponent field.
      bool odd_field = ((std::ilogb(x) + source.bias) & 1) != 0;
      rounded = std::copysign(odd_field ? 2.0 : 1.0, x);
    }
    x = std::ldexp(rounded, quantum);
    double max_finite = DecodeFloat(source, source.max_finite_bits()).ToDouble();
    if (std::fabs(x) > max_finite) x = std::copysign(HUGE_VAL, x);
  }
  if (exponent_bits < source.exponent_bits && std::isfinite(x) && x != 0) {
    int reduced_bias = (1 << (exponent_bits - 1)) - 1;
    int exponent = std::ilogb(x);
    if (exponent > reduced_bias) x = std::copysign(HUGE_VAL, x);
    if (exponent < 1 - reduced_bias) x = std::copysign(0.0, x);
  }
  return x;
}

Results ReducePrecision(const Case& c) {
  const Tensor& operand = c.operands[0];
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t exponent_bits, IntAttribute(c, "exponent_bits"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t mantissa_bits, IntAttribute(c, "mantissa_bits"));
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      const FloatFormat& format = Format(T);
      auto in = operand.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        if (IsNaNValue<T>(in[i]) && (mantissa_bits > 0 || !format.has_infinity)) {
          out[i] = in[i];
          continue;
        }
        if (IsNaNValue<T>(in[i])) {
          // A format without mantissa bits has no NaN: its all-ones exponent
          // is infinity, which is what the NaN becomes (XLA's bit-level
          // rounding and the public interpreter give +-Inf, keeping the sign).
          bool negative =
              (FloatBits<T>(in[i]) >> (format.exponent_bits + format.mantissa_bits)) & 1;
          out[i] = RoundDouble<T>(negative ? -HUGE_VAL : HUGE_VAL);
          continue;
        }
        double reduced =
            ReducePrecisionValue(ToDouble<T>(in[i]), format, exponent_bits, mantissa_bits);
        uint8_t flags = 0;
        out[i] = RoundDouble<T>(reduced, &flags);  // exact, or not representable
        if (std::isinf(reduced) && !format.has_infinity) {
          free.Mark(i, "reduce_precision overflows to infinity, which the type does not have");
        } else if (flags & kConversionUnrepresentable) {
          free.Mark(i, kUnrepresentableReason);
        }
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("unsupported: reduce_precision of " + std::string(Name(T)));
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kExact, std::move(free));
}

}  // namespace

std::vector<OpEntry> ElementwiseRoundingOps() {
  return {{"ceil", Ceil},
          {"floor", Floor},
          {"reduce_precision", ReducePrecision},
          {"round_nearest_afz", RoundNearestAfz},
          {"round_nearest_even", RoundNearestEven}};
}

}  // namespace hlocheck::oracle
