#include "oracle/precise/exponential.h"

#include <mpc.h>
#include <mpfr.h>

#include <atomic>
#include <cfloat>
#include <cmath>

#include "core/exact_value.h"
#include "oracle/precise/round_to_odd.h"

namespace hlocheck::precise {
namespace {

std::atomic<uint64_t> fast_count{0};
std::atomic<uint64_t> mpfr_count{0};

// Rounds `lo` and `hi` (an interval known to contain e^x) to the format;
// true when both ends agree, which makes that the correctly rounded result.
template <typename Wide>
bool SameRounding(const FloatFormat& format, Wide lo, Wide hi, uint64_t* bits, uint8_t* flags) {
  auto exact = [](Wide v) {
    if constexpr (sizeof(Wide) == sizeof(double)) {
      return ExactValue::FromDouble(v);
    } else {
      return ExactValue::FromLongDouble(v);
    }
  };
  uint8_t lo_flags = 0;
  uint8_t hi_flags = 0;
  uint64_t lo_bits = EncodeFloat(format, exact(lo), RoundingMode::kNearestEven, &lo_flags);
  uint64_t hi_bits = EncodeFloat(format, exact(hi), RoundingMode::kNearestEven, &hi_flags);
  if (lo_bits != hi_bits) return false;
  *bits = lo_bits;
  *flags = lo_flags | hi_flags;
  return true;
}

}  // namespace

uint64_t ExpByMpfr(const FloatFormat& format, double x, uint8_t* flags) {
  MpfrNumber input(53);
  MpfrNumber result(kOddPrecision);
  mpfr_set_d(input.get(), x, MPFR_RNDN);  // exact
  int ternary = mpfr_exp(result.get(), input.get(), MPFR_RNDZ);
  return EncodeFloat(format, FromRoundedToOdd(result.get(), ternary), RoundingMode::kNearestEven,
                     flags);
}

uint64_t ExpCorrectlyRounded(const FloatFormat& format, double x, uint8_t* flags) {
  if (std::isnan(x))
    return EncodeFloat(format, ExactValue::NaN(), RoundingMode::kNearestEven, flags);
  if (x == 0)
    return EncodeFloat(format, ExactValue::FromDouble(1.0), RoundingMode::kNearestEven, flags);
  if (std::isinf(x)) {
    return EncodeFloat(format, x > 0 ? ExactValue::Infinity(false) : ExactValue::Zero(false),
                       RoundingMode::kNearestEven, flags);
  }
  const int precision = format.mantissa_bits + 1;
  uint64_t bits;
  if (precision <= 24) {
    // glibc's exp is within 1 ulp of double; two ulps either side is safe.
    double y = std::exp(x);
    double lo = std::nextafter(std::nextafter(y, 0.0), 0.0);
    double hi = std::nextafter(std::nextafter(y, HUGE_VAL), HUGE_VAL);
    if (SameRounding(format, lo, hi, &bits, flags)) {
      fast_count.fetch_add(1, std::memory_order_relaxed);
      return bits;
    }
  } else if (LDBL_MANT_DIG >= 64 && precision <= 53) {
    long double y = std::exp(static_cast<long double>(x));
    long double lo = std::nextafter(std::nextafter(y, 0.0L), 0.0L);
    long double hi = std::nextafter(std::nextafter(y, HUGE_VALL), HUGE_VALL);
    if (SameRounding(format, lo, hi, &bits, flags)) {
      fast_count.fetch_add(1, std::memory_order_relaxed);
      return bits;
    }
  }
  mpfr_count.fetch_add(1, std::memory_order_relaxed);
  *flags = 0;
  return ExpByMpfr(format, x, flags);
}

void ComplexExpCorrectlyRounded(const FloatFormat& part_format, double re, double im,
                                uint64_t* real_bits, uint64_t* imag_bits) {
  mpc_t input;
  mpc_t result;
  mpc_init2(input, 53);
  mpc_init2(result, kOddPrecision);
  mpc_set_d_d(input, re, im, MPC_RNDNN);  // exact
  int inexact = mpc_exp(result, input, MPC_RNDZZ);
  uint8_t flags = 0;
  *real_bits = EncodeFloat(part_format, FromRoundedToOdd(mpc_realref(result), MPC_INEX_RE(inexact)),
                           RoundingMode::kNearestEven, &flags);
  *imag_bits = EncodeFloat(part_format, FromRoundedToOdd(mpc_imagref(result), MPC_INEX_IM(inexact)),
                           RoundingMode::kNearestEven, &flags);
  mpc_clear(input);
  mpc_clear(result);
}

ZivStatistics ExpStatistics() { return {fast_count.load(), mpfr_count.load()}; }

}  // namespace hlocheck::precise
