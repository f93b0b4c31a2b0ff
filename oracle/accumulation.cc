// Bodies that combine values in an order the spec leaves open: recognising
// them, and the bounds every order meets.
#include "oracle/accumulation.h"

#include <cmath>
#include <cstring>

#include "core/element_value.h"
#include "core/exact_value.h"
#include "oracle/precise/double_double.h"
#include "oracle/step_errors.h"

namespace hlocheck::oracle {
namespace {

// The integer value of an element of an integer type, and the type's range.
struct IntegerRange {
  bool is_signed;
  int bits;
  uint64_t all_ones() const { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
};

template <ElementType T>
bool IsIdentityOf(Combiner kind, const void* element) {
  ContainerT<T> value;
  std::memcpy(&value, element, sizeof(value));
  if constexpr (IsBool(T)) {
    // i1: add is or, multiply is and.
    const bool set = value != 0;
    switch (kind) {
      case Combiner::kAdd:
      case Combiner::kOr:
      case Combiner::kXor:
      case Combiner::kMaximum:
        return !set;
      case Combiner::kMultiply:
      case Combiner::kAnd:
      case Combiner::kMinimum:
        return set;
      default:
        return false;
    }
  } else if constexpr (IsInteger(T)) {
    const IntegerRange range{IsSignedInt(T), BitWidth(T)};
    const uint64_t bits = IntegerBits<T>(value) & range.all_ones();
    const uint64_t sign = uint64_t{1} << (range.bits - 1);
    switch (kind) {
      case Combiner::kAdd:
      case Combiner::kOr:
      case Combiner::kXor:
        return bits == 0;
      case Combiner::kMultiply:
        return bits == 1;
      case Combiner::kAnd:
        return bits == range.all_ones();
      case Combiner::kMaximum:  // the type's smallest value
        return bits == (range.is_signed ? sign : 0);
      case Combiner::kMinimum:  // the type's largest value
        return bits == (range.is_signed ? sign - 1 : range.all_ones());
      default:
        return false;
    }
  } else if constexpr (IsComplex(T)) {
    if (kind == Combiner::kAdd) return value.real() == 0 && value.imag() == 0;
    if (kind == Combiner::kMultiply) return value.real() == 1 && value.imag() == 0;
    return false;
  } else {
    const FloatFormat& format = Format(T);
    const double x = ToDouble<T>(value);
    const double largest = MaxFinite(format);
    switch (kind) {
      case Combiner::kAdd:
        return x == 0;
      case Combiner::kMultiply:
        return x == 1;
      case Combiner::kMaximum:
        if (format.has_infinity) return x == -HUGE_VAL;
        // Without infinities, the lowest finite value (the smallest
        // positive one for an unsigned format).
        return format.has_sign ? x == -largest : FloatBits<T>(value) == 0;
      case Combiner::kMinimum:
        return format.has_infinity ? x == HUGE_VAL : x == largest;
      default:
        return false;
    }
  }
}

}  // namespace

std::vector<Combiner> ClassifyCombiners(const Region& region, size_t n) {
  std::vector<Combiner> kinds(n, Combiner::kOther);
  if (region.blocks.size() != 1) return kinds;
  const Block& block = region.blocks[0];
  if (block.arguments.size() != 2 * n || block.operations.empty()) return kinds;
  const Operation& terminator = block.operations.back();
  if (terminator.operands.size() != n) return kinds;
  for (size_t i = 0; i < n; ++i) {
    const ValueId current = block.arguments[i];
    const ValueId update = block.arguments[n + i];
    const ValueId returned = terminator.operands[i];
    if (returned == current) {
      kinds[i] = Combiner::kKeep;
      continue;
    }
    if (returned == update) {
      kinds[i] = Combiner::kReplace;
      continue;
    }
    for (const Operation& op : block.operations) {
      if (op.results.size() != 1 || op.results[0] != returned || op.operands.size() != 2) continue;
      const bool of_both = (op.operands[0] == current && op.operands[1] == update) ||
                           (op.operands[0] == update && op.operands[1] == current);
      if (!of_both) break;
      if (op.name == "stablehlo.add") kinds[i] = Combiner::kAdd;
      if (op.name == "stablehlo.multiply") kinds[i] = Combiner::kMultiply;
      if (op.name == "stablehlo.maximum") kinds[i] = Combiner::kMaximum;
      if (op.name == "stablehlo.minimum") kinds[i] = Combiner::kMinimum;
      if (op.name == "stablehlo.and") kinds[i] = Combiner::kAnd;
      if (op.name == "stablehlo.or") kinds[i] = Combiner::kOr;
      if (op.name == "stablehlo.xor") kinds[i] = Combiner::kXor;
    }
  }
  return kinds;
}

bool OrderIndependent(Combiner kind, ElementType type) {
  switch (kind) {
    case Combiner::kKeep:
    case Combiner::kAnd:
    case Combiner::kOr:
    case Combiner::kXor:
      return true;
    case Combiner::kAdd:
    case Combiner::kMultiply:
      return !IsFloat(type) && !IsComplex(type);
    case Combiner::kMaximum:
    case Combiner::kMinimum:
      return !IsComplex(type);
    default:
      return false;
  }
}

bool Bounded(Combiner kind, ElementType type) {
  if (kind == Combiner::kAdd) return IsFloat(type) || IsComplex(type);
  return kind == Combiner::kMultiply && IsFloat(type);
}

bool IsIdentity(Combiner kind, ElementType type, const void* element) {
  return DispatchElementType(
      type, [&]<ElementType T>() -> bool { return IsIdentityOf<T>(kind, element); });
}

OrderFreeValue OrderFreeSum(const std::vector<double>& terms, const FloatFormat& format) {
  OrderFreeValue v;
  precise::DoubleDouble sum;
  double magnitude = 0;
  bool nan = false, positive_infinity = false, negative_infinity = false;
  for (double x : terms) {
    if (std::isnan(x)) nan = true;
    if (std::isinf(x)) (x > 0 ? positive_infinity : negative_infinity) = true;
    if (!std::isfinite(x)) continue;
    sum.Add(x);
    magnitude += std::fabs(x);
  }
  if (nan || (positive_infinity && negative_infinity)) {
    v.hi = std::nan("");
    return v;
  }
  if (positive_infinity || negative_infinity) {
    v.hi = positive_infinity ? HUGE_VAL : -HUGE_VAL;
    // Some order of the finite terms may overflow to the other infinity,
    // and Inf - Inf is NaN.
    v.free = !(magnitude <= MaxFinite(format));
    return v;
  }
  v.hi = sum.hi();
  v.lo = sum.lo();
  const int64_t k = static_cast<int64_t>(terms.size()) - 1;
  const double unit_roundoff = UnitRoundoff(format);
  const double smallest = std::ldexp(1.0, format.min_normal_exponent() - format.mantissa_bits);
  const double bound = Gamma(k, unit_roundoff) * magnitude * (1 + std::ldexp(1.0, -20)) +
                       static_cast<double>(k) * (smallest + std::ldexp(magnitude, -100));
  // Some order may overflow where another does not.
  v.free = !(magnitude + bound <= MaxFinite(format));
  v.bound = bound;
  return v;
}

OrderFreeValue OrderFreeProduct(const std::vector<double>& factors, const FloatFormat& format) {
  OrderFreeValue v;
  bool nan = false, zero = false, infinity = false, negative = false;
  // log2 of the largest and the smallest magnitude a partial product (x0
  // times some of the updates) can have, from the finite nonzero factors.
  double largest = 0, smallest = 0;
  for (size_t i = 0; i < factors.size(); ++i) {
    const double x = factors[i];
    if (std::isnan(x)) nan = true;
    if (std::signbit(x)) negative = !negative;
    if (x == 0) zero = true;
    if (std::isinf(x)) infinity = true;
    if (x == 0 || !std::isfinite(x)) continue;
    const double e = std::log2(std::fabs(x));
    largest += i == 0 ? e : std::max(e, 0.0);
    smallest += i == 0 ? e : std::min(e, 0.0);
  }
  const int64_t k = static_cast<int64_t>(factors.size()) - 1;
  const double unit_roundoff = UnitRoundoff(format);
  // One binade of margin for the roundings and the logarithms' error.
  const bool no_overflow = largest + 1 < std::log2(MaxFinite(format));
  const bool no_underflow = smallest - 1 > format.min_normal_exponent();
  if (nan || (zero && infinity)) {
    v.hi = std::nan("");
    return v;
  }
  if (zero || infinity) {
    // Zero: an earlier overflow would give Inf * 0. Infinity: an earlier
    // underflow would give 0 * Inf.
    v.free = zero ? !no_overflow : !no_underflow;
    v.hi = zero ? (negative ? -0.0 : 0.0) : (negative ? -HUGE_VAL : HUGE_VAL);
    return v;
  }
  if (!no_overflow || !no_underflow) {
    v.free = true;
    v.bound = HUGE_VAL;
    return v;
  }
  // The product in double-double: (hi + lo) * x, renormalised.
  double hi = factors[0], lo = 0;
  for (size_t i = 1; i < factors.size(); ++i) {
    precise::TwoTerms p = precise::TwoProduct(hi, factors[i]);
    precise::TwoTerms s = precise::TwoSum(p.hi, p.lo + lo * factors[i]);
    hi = s.hi;
    lo = s.lo;
  }
  v.hi = hi;
  v.lo = lo;
  v.bound = (Gamma(k, unit_roundoff) * (1 + std::ldexp(1.0, -20)) +
             static_cast<double>(k) * std::ldexp(1.0, -100)) *
            std::fabs(hi);
  return v;
}

}  // namespace hlocheck::oracle
