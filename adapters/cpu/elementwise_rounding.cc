// Elementwise roundings of floats: to integral values (ceil, floor,
// round_nearest_afz, round_nearest_even) and to a narrower format
// (reduce_precision).
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

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
  HLOCHECK_RETURN_IF_ERROR(exponent.status());
  absl::StatusOr<int64_t> mantissa = IntAttribute(c, "mantissa_bits");
  HLOCHECK_RETURN_IF_ERROR(mantissa.status());
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

}  // namespace

std::vector<OpEntry> ElementwiseRoundingOps() {
  return {
      {"ceil", 1, &SupportsFloat, &RunCeil},
      {"floor", 1, &SupportsFloat, &RunFloor},
      {"round_nearest_afz", 1, &SupportsFloat, &RunRoundNearestAfz},
      {"round_nearest_even", 1, &SupportsFloat, &RunRoundNearestEven},
      {"reduce_precision", 1, &SupportsFloat, &RunReducePrecision},
  };
}

}  // namespace hlocheck::cpu
