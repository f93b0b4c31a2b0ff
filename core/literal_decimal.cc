// Decimal text -> float bit pattern, rounded once. f32 and f64 use
// std::from_chars, which is correctly rounded. Narrower formats go through a
// double only when that provably cannot double-round, and through MPFR
// otherwise.
#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <climits>
#include <string>
#include <system_error>

#include "core/literal_internal.h"

namespace hlocheck::literal_internal {
namespace {

static_assert(sizeof(unsigned long) == sizeof(uint64_t),  // NOLINT(runtime/int)
              "mpz_get_ui must return a full 64-bit significand");

// The working precision: two bits more than any target format's significand
// (f64: 53 bits) so that one round-to-odd step followed by the target's own
// rounding equals a single rounding.
constexpr mpfr_prec_t kWorkingPrecision = 64;

// MPFR's default exponent range; fixed here because other code may change
// the thread's range, and because it keeps the exponent within int32.
constexpr mpfr_exp_t kMinExponent = 1 - (mpfr_exp_t{1} << 30);
constexpr mpfr_exp_t kMaxExponent = (mpfr_exp_t{1} << 30) - 1;

// One MPFR number and its scratch, reused by every conversion of a thread.
class MpfrScratch {
 public:
  MpfrScratch() {
    mpfr_init2(value_, kWorkingPrecision);
    mpz_init(significand_);
  }
  ~MpfrScratch() {
    mpfr_clear(value_);
    mpz_clear(significand_);
  }
  MpfrScratch(const MpfrScratch&) = delete;
  MpfrScratch& operator=(const MpfrScratch&) = delete;

  ExactValue RoundToOdd(std::string_view digits, bool negative) {
    text_.assign(digits);
    const mpfr_exp_t saved_min = mpfr_get_emin();
    const mpfr_exp_t saved_max = mpfr_get_emax();
    mpfr_set_emin(kMinExponent);
    mpfr_set_emax(kMaxExponent);
    char* end = nullptr;
    const int ternary = mpfr_strtofr(value_, text_.c_str(), &end, 10, MPFR_RNDZ);
    ExactValue result = ExactValue::Zero(negative);
    // Below MPFR's range the decimal flushes to zero, which is also what
    // every target format rounds it to.
    if (mpfr_regular_p(value_)) {
      const mpfr_exp_t exponent = mpfr_get_z_2exp(significand_, value_);
      uint64_t significand = mpz_get_ui(significand_);
      // Round to odd: the sticky bit remembers that digits were dropped.
      if (ternary != 0) significand |= 1;
      result = ExactValue::Finite(negative, significand, static_cast<int32_t>(exponent));
    }
    mpfr_set_emin(saved_min);
    mpfr_set_emax(saved_max);
    return result;
  }

 private:
  mpfr_t value_;
  mpz_t significand_;
  std::string text_;
};

// std::from_chars into a host float; false when the result is out of the
// host type's range (then the caller needs the exact path).
template <typename Host>
bool HostFromChars(std::string_view digits, Host* out) {
  const char* end = digits.data() + digits.size();
  auto [ptr, error] = std::from_chars(digits.data(), end, *out, std::chars_format::general);
  return error == std::errc() && ptr == end;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool IsUnsignedDecimalSyntax(std::string_view text) {
  size_t i = 0;
  size_t integer_digits = 0;
  while (i < text.size() && IsDigit(text[i])) ++i, ++integer_digits;
  size_t fraction_digits = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) ++i, ++fraction_digits;
  }
  if (integer_digits + fraction_digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < text.size() && IsDigit(text[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == text.size();
}

ExactValue DecimalRoundedToOdd(std::string_view digits, bool negative) {
  thread_local MpfrScratch scratch;
  return scratch.RoundToOdd(digits, negative);
}

bool IsRoundingTie(const FloatFormat& format, const ExactValue& value) {
  if (value.cls != ExactValue::Class::kFinite) return false;
  // With an odd significand, the value is a tie exactly when its lowest bit
  // sits one place below the format's quantum at this magnitude (the same
  // quantum EncodeFloat rounds to).
  const int64_t msb = 63 - std::countl_zero(value.significand);
  const int64_t value_exponent = msb + value.exponent;
  const int64_t quantum =
      std::max<int64_t>(value_exponent, format.min_normal_exponent()) - format.mantissa_bits;
  return value.exponent == quantum - 1;
}

uint64_t RoundDecimalToFloatBitsViaMpfr(ElementType type, std::string_view digits, bool negative) {
  return EncodeFloat(Format(type), DecimalRoundedToOdd(digits, negative));
}

uint64_t RoundDecimalToFloatBits(ElementType type, std::string_view digits, bool negative) {
  if (type == ElementType::kF32) {
    float value;
    if (HostFromChars(digits, &value)) return std::bit_cast<uint32_t>(negative ? -value : value);
  } else if (type == ElementType::kF64) {
    double value;
    if (HostFromChars(digits, &value)) return std::bit_cast<uint64_t>(negative ? -value : value);
  } else {
    // Every narrower format's values and halfway points are doubles, and
    // rounding to double is monotonic and keeps doubles fixed. So a decimal
    // strictly between two halfway points of the format rounds to a double
    // in the closed interval between them, and that double rounds to the
    // same value of the format, unless it landed on a halfway point itself:
    // only then is the exact path needed.
    double value;
    if (HostFromChars(digits, &value)) {
      const FloatFormat& format = Format(type);
      const ExactValue exact = ExactValue::FromDouble(negative ? -value : value);
      if (!IsRoundingTie(format, exact)) return EncodeFloat(format, exact);
    }
  }
  return RoundDecimalToFloatBitsViaMpfr(type, digits, negative);
}

}  // namespace hlocheck::literal_internal
