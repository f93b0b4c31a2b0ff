// An MPFR-based reference for the element-type conversion layer, written
// independently of core/exact_value.cc: the format parameters are a table of
// their own (checked against the public definitions of the formats), bit
// patterns are decoded from their fields with ldexp, and every rounding is
// done by MPFR (scale by the format's quantum, mpfr_rint, scale back), with
// the overflow rules applied here. Only the Conversion* tests use it.
#ifndef HLOCHECK_TESTS_CORE_CONVERSION_REFERENCE_H_
#define HLOCHECK_TESTS_CORE_CONVERSION_REFERENCE_H_

#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"

namespace hlocheck::conversion_ref {

enum class Special : uint8_t {
  kIeee,        // Inf and NaN with the exponent field all ones
  kNanAllOnes,  // f8E4M3FN: only S.1111.111 is NaN, no Inf
  kFnuz,        // NaN is the -0 pattern, no Inf, no -0
  kFiniteOnly,  // f4/f6: no NaN, no Inf
  kE8M0,        // unsigned powers of two 2^-127..2^127, NaN 0xFF, no zero
};

struct RefFormat {
  ElementType type;
  const char* name;
  int exponent_bits;
  int mantissa_bits;
  int bias;
  Special special;
  double published_max;  // the largest finite value as the format's definition states it

  bool has_sign() const { return special != Special::kE8M0; }
  int total_bits() const { return (has_sign() ? 1 : 0) + exponent_bits + mantissa_bits; }
  bool has_nan() const { return special != Special::kFiniteOnly; }
  bool has_inf() const { return special == Special::kIeee; }
  bool has_zero() const { return special != Special::kE8M0; }
  bool has_negative_zero() const {
    return special == Special::kIeee || special == Special::kNanAllOnes ||
           special == Special::kFiniteOnly;
  }
  // Unbiased exponent of the smallest normal value.
  int emin() const { return special == Special::kE8M0 ? -bias : 1 - bias; }
  // Largest finite value, from the fields.
  double MaxFinite() const {
    int64_t ef_max = (int64_t{1} << exponent_bits) - 1;
    int64_t mf_max = (int64_t{1} << mantissa_bits) - 1;
    int64_t ef = ef_max;
    int64_t mf = mf_max;
    switch (special) {
      case Special::kIeee:
      case Special::kE8M0:
        ef = ef_max - 1;
        break;
      case Special::kNanAllOnes:
        mf = mf_max - 1;
        break;
      case Special::kFnuz:
      case Special::kFiniteOnly:
        break;
    }
    return std::ldexp(static_cast<double>((int64_t{1} << mantissa_bits) + mf),
                      static_cast<int>(ef - bias - mantissa_bits));
  }
  // Spacing of the values in the top binade.
  double TopUlp() const { return std::ldexp(1.0, std::ilogb(MaxFinite()) - mantissa_bits); }
};

inline const std::vector<RefFormat>& AllRefFormats() {
  using ET = ElementType;
  static const std::vector<RefFormat> kFormats = {
      {ET::kF4E2M1FN, "f4E2M1FN", 2, 1, 1, Special::kFiniteOnly, 6.0},
      {ET::kF6E2M3FN, "f6E2M3FN", 2, 3, 1, Special::kFiniteOnly, 7.5},
      {ET::kF6E3M2FN, "f6E3M2FN", 3, 2, 3, Special::kFiniteOnly, 28.0},
      {ET::kF8E3M4, "f8E3M4", 3, 4, 3, Special::kIeee, 15.5},
      {ET::kF8E4M3, "f8E4M3", 4, 3, 7, Special::kIeee, 240.0},
      {ET::kF8E4M3FN, "f8E4M3FN", 4, 3, 7, Special::kNanAllOnes, 448.0},
      {ET::kF8E4M3FNUZ, "f8E4M3FNUZ", 4, 3, 8, Special::kFnuz, 240.0},
      {ET::kF8E4M3B11FNUZ, "f8E4M3B11FNUZ", 4, 3, 11, Special::kFnuz, 30.0},
      {ET::kF8E5M2, "f8E5M2", 5, 2, 15, Special::kIeee, 57344.0},
      {ET::kF8E5M2FNUZ, "f8E5M2FNUZ", 5, 2, 16, Special::kFnuz, 57344.0},
      {ET::kF8E8M0FNU, "f8E8M0FNU", 8, 0, 127, Special::kE8M0, 0x1p127},
      {ET::kBF16, "bf16", 8, 7, 127, Special::kIeee, 0x1.FEp127},
      {ET::kF16, "f16", 5, 10, 15, Special::kIeee, 65504.0},
      {ET::kF32, "f32", 8, 23, 127, Special::kIeee, static_cast<double>(FLT_MAX)},
      {ET::kF64, "f64", 11, 52, 1023, Special::kIeee, DBL_MAX},
  };
  return kFormats;
}

inline const RefFormat& Ref(ElementType type) {
  for (const RefFormat& f : AllRefFormats()) {
    if (f.type == type) return f;
  }
  std::fprintf(stderr, "no reference format for type %d\n", static_cast<int>(type));
  std::abort();
}

// The float formats of at most 16 bits.
inline std::vector<const RefFormat*> SmallRefFormats() {
  std::vector<const RefFormat*> out;
  for (const RefFormat& f : AllRefFormats()) {
    if (f.total_bits() <= 16) out.push_back(&f);
  }
  return out;
}

// The value of a bit pattern, computed from its fields; NaN for NaN patterns.
inline double RefDecode(const RefFormat& f, uint64_t bits) {
  const int em = f.exponent_bits + f.mantissa_bits;
  const bool negative = f.has_sign() && ((bits >> em) & 1) != 0;
  const uint64_t magnitude = bits & ((uint64_t{1} << em) - 1);
  const uint64_t ef = magnitude >> f.mantissa_bits;
  const uint64_t mf = magnitude & ((uint64_t{1} << f.mantissa_bits) - 1);
  const uint64_t ef_max = (uint64_t{1} << f.exponent_bits) - 1;
  const uint64_t mf_max = (uint64_t{1} << f.mantissa_bits) - 1;
  switch (f.special) {
    case Special::kIeee:
      if (ef == ef_max) {
        if (mf != 0) return std::nan("");
        return negative ? -HUGE_VAL : HUGE_VAL;
      }
      break;
    case Special::kNanAllOnes:
      if (ef == ef_max && mf == mf_max) return std::nan("");
      break;
    case Special::kFnuz:
      if (negative && magnitude == 0) return std::nan("");
      break;
    case Special::kE8M0:
      if (bits == 0xFF) return std::nan("");
      return std::ldexp(1.0, static_cast<int>(bits) - 127);
    case Special::kFiniteOnly:
      break;
  }
  double value;
  if (ef == 0) {
    value = std::ldexp(static_cast<double>(mf), 1 - f.bias - f.mantissa_bits);
  } else {
    value = std::ldexp(static_cast<double>((uint64_t{1} << f.mantissa_bits) | mf),
                       static_cast<int>(ef) - f.bias - f.mantissa_bits);
  }
  return negative ? -value : value;
}

// Sorted distinct finite values of a format of at most 16 bits (one zero).
inline std::vector<double> FiniteValues(const RefFormat& f) {
  std::vector<double> values;
  for (uint64_t bits = 0; bits < (uint64_t{1} << f.total_bits()); ++bits) {
    double v = RefDecode(f, bits);
    if (std::isfinite(v)) values.push_back(v == 0 ? 0.0 : v);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

// What the conversion of one value must give.
struct Expected {
  enum Kind : uint8_t {
    kValue,            // exactly `value` (sign of zero included)
    kNaN,              // some NaN of the target
    kUnrepresentable,  // kConversionUnrepresentable set; the value is not checked
    kE8M0Underflow,    // below 2^-127 in f8E8M0FNU: 2^-127 (APFloat); flags not checked
  };
  static constexpr uint8_t kAnyFlags = 0xFF;
  Kind kind = kValue;
  double value = 0;
  uint8_t flags = kAnyFlags;  // the exact flag byte, or kAnyFlags
};

// The rounding to a format by MPFR. One instance per thread.
class Rounder {
 public:
  Rounder() { mpfr_inits2(128, x_, y_, n_, max_, static_cast<mpfr_ptr>(nullptr)); }
  ~Rounder() { mpfr_clears(x_, y_, n_, max_, static_cast<mpfr_ptr>(nullptr)); }
  Rounder(const Rounder&) = delete;
  Rounder& operator=(const Rounder&) = delete;

  Expected RoundDouble(const RefFormat& f, double value, bool toward_zero = false) {
    mpfr_set_d(x_, value, MPFR_RNDN);  // exact: 128 bits
    return Round(f, x_, toward_zero);
  }
  Expected RoundSigned(const RefFormat& f, int64_t value) {
    mpfr_set_sj(x_, value, MPFR_RNDN);
    return Round(f, x_);
  }
  Expected RoundUnsigned(const RefFormat& f, uint64_t value) {
    mpfr_set_uj(x_, value, MPFR_RNDN);
    return Round(f, x_);
  }

  // x is exact (any precision up to 128 bits). Rounds to nearest (ties to
  // even; up for f8E8M0FNU), or toward zero, where overflow gives the
  // largest finite value of that sign in every format.
  Expected Round(const RefFormat& f, mpfr_srcptr x, bool toward_zero = false) {
    Expected e;
    if (mpfr_nan_p(x)) {
      e.kind = f.has_nan() ? Expected::kNaN : Expected::kUnrepresentable;
      return e;
    }
    const bool negative = mpfr_signbit(x) != 0;
    if (mpfr_inf_p(x)) {
      if (f.has_inf()) {
        e.value = negative ? -HUGE_VAL : HUGE_VAL;
        e.flags = 0;
      } else if (f.has_nan()) {
        e.kind = Expected::kNaN;  // the overflow rule of NaN-but-no-Inf formats
      } else {
        e.kind = Expected::kUnrepresentable;
      }
      return e;
    }
    if (mpfr_zero_p(x)) {
      if (!f.has_zero()) {
        e.kind = Expected::kUnrepresentable;
        return e;
      }
      e.value = negative && f.has_negative_zero() ? -0.0 : 0.0;
      e.flags = 0;
      return e;
    }
    if (negative && !f.has_sign()) {
      e.kind = Expected::kUnrepresentable;
      return e;
    }
    // |x| in [2^exp, 2^(exp+1)).
    const long exp = static_cast<long>(mpfr_get_exp(x)) - 1;
    if (f.special == Special::kE8M0 && exp < f.emin()) {
      e.kind = Expected::kE8M0Underflow;
      return e;
    }
    const long quantum = std::max<long>(exp, f.emin()) - f.mantissa_bits;
    mpfr_mul_2si(y_, x, -quantum, MPFR_RNDN);  // exact
    int ternary;
    if (toward_zero) {
      ternary = mpfr_rint(n_, y_, MPFR_RNDZ);
    } else if (f.special == Special::kE8M0) {
      // Precision 1: ties between 2^k and 2^(k+1) go up, as in APFloat
      // (only positive values get here).
      ternary = mpfr_round(n_, y_);
    } else {
      ternary = mpfr_rint(n_, y_, MPFR_RNDN);  // ties to even
    }
    const bool inexact = ternary != 0;
    mpfr_mul_2si(n_, n_, quantum, MPFR_RNDN);  // exact
    if (mpfr_zero_p(n_)) {
      e.value = negative && f.has_negative_zero() ? -0.0 : 0.0;
      e.flags = inexact ? kConversionInexact : 0;
      return e;
    }
    if (&f != max_format_) {
      mpfr_set_d(max_, f.MaxFinite(), MPFR_RNDN);
      max_format_ = &f;
    }
    if (mpfr_cmpabs(n_, max_) > 0) {
      const double max = f.MaxFinite();
      e.flags = kConversionInexact | kConversionOverflow;
      if (toward_zero) {
        e.value = negative ? -max : max;
        return e;
      }
      switch (f.special) {
        case Special::kIeee:
          e.value = negative ? -HUGE_VAL : HUGE_VAL;
          break;
        case Special::kNanAllOnes:
        case Special::kFnuz:
        case Special::kE8M0:
          e.kind = Expected::kNaN;
          break;
        case Special::kFiniteOnly:
          e.value = negative ? -max : max;
          break;
      }
      return e;
    }
    e.value = mpfr_get_d(n_, MPFR_RNDN);  // exact: at most 53 bits
    e.flags = inexact ? kConversionInexact : 0;
    return e;
  }

 private:
  mpfr_t x_, y_, n_, max_;
  const RefFormat* max_format_ = nullptr;  // whose largest finite value max_ holds
};

// Reads the element a conversion wrote, as a bit pattern.
inline uint64_t ReadBits(ElementType type, const void* p) {
  switch (type) {
    case ElementType::kF32: {
      uint32_t b;
      std::memcpy(&b, p, 4);
      return b;
    }
    case ElementType::kF64: {
      uint64_t b;
      std::memcpy(&b, p, 8);
      return b;
    }
    case ElementType::kBF16:
    case ElementType::kF16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return b;
    }
    default: {
      uint8_t b;
      std::memcpy(&b, p, 1);
      return b;
    }
  }
}

inline int FloatContainerBytes(ElementType type) {
  switch (type) {
    case ElementType::kF32:
      return 4;
    case ElementType::kF64:
      return 8;
    case ElementType::kBF16:
    case ElementType::kF16:
      return 2;
    default:
      return 1;
  }
}

// The value of a result bit pattern of any reference format.
inline double ValueOfBits(const RefFormat& f, uint64_t bits) {
  if (f.type == ElementType::kF32) {
    return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  }
  if (f.type == ElementType::kF64) return std::bit_cast<double>(bits);
  return RefDecode(f, bits);
}

inline std::string Hex(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

inline std::string DescribeExpected(const Expected& e) {
  std::string s;
  switch (e.kind) {
    case Expected::kValue: {
      char buf[64];
      std::snprintf(buf, sizeof buf, " (%.17g)", e.value);
      s = Hex(e.value) + buf;
      break;
    }
    case Expected::kNaN:
      s = "NaN";
      break;
    case Expected::kUnrepresentable:
      s = "flag kConversionUnrepresentable";
      break;
    case Expected::kE8M0Underflow:
      s = "0x1p-127 (E8M0 underflow)";
      break;
  }
  if (e.flags != Expected::kAnyFlags) s += " flags=" + std::to_string(e.flags);
  return s;
}

// Counts checks and keeps the first mismatches for the failure message.
class Log {
 public:
  int64_t checked = 0;
  int64_t value_mismatches = 0;
  int64_t flag_mismatches = 0;
  std::vector<std::string> examples;

  // Compares one converted result with the expectation.
  void Check(const std::string& source_description, const RefFormat& target, const Expected& e,
             uint64_t got_bits, uint8_t got_flags) {
    ++checked;
    bool stray_bits = target.total_bits() < 64 && (got_bits >> target.total_bits()) != 0;
    double got = ValueOfBits(target, got_bits);
    bool value_ok = !stray_bits;
    bool flags_ok = true;
    switch (e.kind) {
      case Expected::kValue:
        value_ok = value_ok && !std::isnan(got) && got == e.value &&
                   std::signbit(got) == std::signbit(e.value);
        break;
      case Expected::kNaN:
        value_ok = value_ok && std::isnan(got);
        break;
      case Expected::kUnrepresentable:
        value_ok = (got_flags & kConversionUnrepresentable) != 0;
        break;
      case Expected::kE8M0Underflow:
        value_ok = value_ok && got == 0x1p-127;
        break;
    }
    if (e.flags != Expected::kAnyFlags && got_flags != e.flags) flags_ok = false;
    if (value_ok && flags_ok) return;
    if (!value_ok) ++value_mismatches;
    if (!flags_ok) ++flag_mismatches;
    if (examples.size() < 40) {
      char buf[128];
      std::snprintf(buf, sizeof buf, " got bits=0x%" PRIx64 " (%s) flags=%u", got_bits,
                    Hex(got).c_str(), got_flags);
      examples.push_back(std::string(value_ok ? "[flags] " : "[VALUE] ") + source_description +
                         " -> " + target.name + ": expected " + DescribeExpected(e) + ";" + buf);
    }
  }

  void Merge(const Log& other) {
    checked += other.checked;
    value_mismatches += other.value_mismatches;
    flag_mismatches += other.flag_mismatches;
    for (const std::string& s : other.examples) {
      if (examples.size() < 40) examples.push_back(s);
    }
  }

  std::string Report() const {
    std::string s = "checked " + std::to_string(checked) + ", value mismatches " +
                    std::to_string(value_mismatches) + ", flag mismatches " +
                    std::to_string(flag_mismatches);
    for (const std::string& example : examples) s += "\n  " + example;
    return s;
  }
};

// Converts one source value (f32, f64 or a bit-pattern float type) to
// `target` through ConvertElement and checks it against the reference.
class FloatChecker {
 public:
  explicit FloatChecker(Log* log) : log_(log) {}

  void CheckBits(const RefFormat& source, uint64_t source_bits, const RefFormat& target,
                 RoundingMode mode = RoundingMode::kNearestEven) {
    alignas(8) unsigned char in[8] = {};
    std::memcpy(in, &source_bits, FloatContainerBytes(source.type));  // little-endian host
    alignas(8) unsigned char out[8] = {};
    uint8_t flags = ConvertElement(source.type, in, target.type, out, mode);
    const double value = ValueOfBits(source, source_bits);
    Expected e = rounder_.RoundDouble(target, value, mode == RoundingMode::kTowardZero);
    uint64_t bits = ReadBits(target.type, out);
    if (Quick(e, target, bits, flags)) {
      ++log_->checked;
      return;
    }
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s bits=0x%" PRIx64 " (%a)%s", source.name, source_bits, value,
                  mode == RoundingMode::kTowardZero ? " toward zero" : "");
    log_->Check(buf, target, e, bits, flags);
  }

  void CheckF64(double v, const RefFormat& target) {
    CheckBits(Ref(ElementType::kF64), std::bit_cast<uint64_t>(v), target);
  }
  void CheckF32(float v, const RefFormat& target) {
    CheckBits(Ref(ElementType::kF32), std::bit_cast<uint32_t>(v), target);
  }

  Rounder& rounder() { return rounder_; }

  // True when the result certainly matches (saves building the description).
  static bool Quick(const Expected& e, const RefFormat& target, uint64_t bits, uint8_t flags) {
    if (target.total_bits() < 64 && (bits >> target.total_bits()) != 0) return false;
    if (e.flags != Expected::kAnyFlags && flags != e.flags) return false;
    double got = ValueOfBits(target, bits);
    switch (e.kind) {
      case Expected::kValue:
        return !std::isnan(got) && got == e.value && std::signbit(got) == std::signbit(e.value);
      case Expected::kNaN:
        return std::isnan(got);
      case Expected::kUnrepresentable:
        return (flags & kConversionUnrepresentable) != 0;
      case Expected::kE8M0Underflow:
        return got == 0x1p-127;
    }
    return false;
  }

 private:
  Log* log_;
  Rounder rounder_;
};

// The source values at and around `v`: v itself when the source holds it
// (else its two nearest source neighbours), and one and two source ULPs on
// either side of those.
inline void AddCandidates(ElementType source, double v, std::vector<double>* out) {
  if (std::isnan(v)) return;
  if (source == ElementType::kF64) {
    out->push_back(v);
    if (std::isinf(v)) return;
    double up = v;
    double down = v;
    for (int i = 0; i < 2; ++i) {
      up = std::nextafter(up, HUGE_VAL);
      down = std::nextafter(down, -HUGE_VAL);
      out->push_back(up);
      out->push_back(down);
    }
    return;
  }
  std::vector<float> bases;
  if (std::isinf(v)) {
    bases.push_back(static_cast<float>(v));
  } else if (std::fabs(v) > static_cast<double>(FLT_MAX)) {
    // Past the source's range: its largest value on that side stands in.
    bases.push_back(std::copysign(FLT_MAX, static_cast<float>(v)));
  } else {
    float f = static_cast<float>(v);
    if (static_cast<double>(f) == v) {
      bases.push_back(f);
    } else if (static_cast<double>(f) < v) {
      bases.push_back(f);
      bases.push_back(std::nextafter(f, HUGE_VALF));
    } else {
      bases.push_back(f);
      bases.push_back(std::nextafter(f, -HUGE_VALF));
    }
  }
  for (float b : bases) {
    out->push_back(b);
    if (std::isinf(b)) continue;
    float up = b;
    float down = b;
    for (int i = 0; i < 2; ++i) {
      up = std::nextafter(up, HUGE_VALF);
      down = std::nextafter(down, -HUGE_VALF);
      out->push_back(up);
      out->push_back(down);
    }
  }
}

// Float targets narrower than a source type.
inline std::vector<const RefFormat*> NarrowerTargets(ElementType source) {
  std::vector<const RefFormat*> out;
  for (const RefFormat* f : SmallRefFormats()) out.push_back(f);
  if (source == ElementType::kF64) out.push_back(&Ref(ElementType::kF32));
  return out;
}

}  // namespace hlocheck::conversion_ref

#endif  // HLOCHECK_TESTS_CORE_CONVERSION_REFERENCE_H_
