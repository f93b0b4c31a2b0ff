#include "generators/data.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <type_traits>

#include "core/element_value.h"
#include "core/literal.h"
#include "generators/random_stream.h"

namespace hlocheck {
namespace {

// A small deterministic stream of 64-bit numbers from RapidCheck's Random
// (the numbers its next() gives, computed faster: random_stream.h).
class Bits {
 public:
  explicit Bits(const rc::Random& random) : stream_(random) {}
  uint64_t Next() { return stream_.Next(); }
  // Uniform in [0, n).
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }

 private:
  RandomStream stream_;
};

// A double rounded to T (for complex types: the real part, imaginary zero).
template <ElementType T>
ContainerT<T> FromDouble(double value) {
  uint8_t flags = 0;
  if constexpr (IsFloat(T)) {
    return FloatFromBits<T>(EncodeDouble(Format(T), value, RoundingMode::kNearestEven, &flags));
  } else {
    return FromExact<T>(ExactValue::FromDouble(value), RoundingMode::kNearestEven, &flags);
  }
}

template <ElementType T>
ContainerT<T> SmallInteger(Bits& bits) {
  if constexpr (IsBool(T)) {
    return static_cast<ContainerT<T>>(bits.Below(2));
  } else if constexpr (IsComplex(T)) {
    using Part = typename ContainerT<T>::value_type;
    return {static_cast<Part>(static_cast<int64_t>(bits.Below(17)) - 8),
            static_cast<Part>(static_cast<int64_t>(bits.Below(17)) - 8)};
  } else if constexpr (T == ElementType::kF8E8M0FNU) {
    // Only positive powers of two exist: 2^-3 .. 2^3.
    return FromDouble<T>(std::ldexp(1.0, static_cast<int>(bits.Below(7)) - 3));
  } else {
    int64_t lo = 0;
    int64_t hi = 8;
    if constexpr (IsSignedInt(T) || IsFloat(T)) lo = -8;
    if constexpr (IsInteger(T)) {
      lo = std::max(lo, IntegerMin(T));
      hi = std::min<int64_t>(hi, static_cast<int64_t>(IntegerMaxUnsigned(T)));
    }
    int64_t value = lo + static_cast<int64_t>(bits.Below(static_cast<uint64_t>(hi - lo + 1)));
    if constexpr (IsFloat(T)) return FromDouble<T>(static_cast<double>(value));
    return static_cast<ContainerT<T>>(value);
  }
}

template <ElementType T>
ContainerT<T> UniformValue(Bits& bits) {
  if constexpr (IsBool(T)) {
    return static_cast<ContainerT<T>>(bits.Below(2));
  } else if constexpr (IsInteger(T)) {
    return WrapInteger<T>(bits.Next());
  } else if constexpr (IsComplex(T)) {
    using Part = typename ContainerT<T>::value_type;
    constexpr ElementType kPart = ComponentType(T);
    return {static_cast<Part>(UniformValue<kPart>(bits)),
            static_cast<Part>(UniformValue<kPart>(bits))};
  } else {
    const int total = Format(T).total_bits();
    uint64_t raw = bits.Next();
    if (total < 64) raw &= (uint64_t{1} << total) - 1;
    return FloatFromBits<T>(raw);
  }
}

// The values real backends get wrong most often (../shared/FAULT-CLASSES.md).
template <ElementType T>
std::vector<ContainerT<T>> SpecialValues() {
  std::vector<ContainerT<T>> values;
  if constexpr (IsBool(T)) {
    values = {0, 1};
  } else if constexpr (IsInteger(T)) {
    int64_t min = IntegerMin(T);
    uint64_t max = IntegerMaxUnsigned(T);
    for (uint64_t v : {static_cast<uint64_t>(min), static_cast<uint64_t>(min) + 1, max, max - 1,
                       uint64_t{0}, uint64_t{1}, ~uint64_t{0}}) {
      // Wrapped to the type's width: all ones is -1 or the unsigned maximum,
      // never a container value outside the type (255 in a ui2).
      values.push_back(WrapInteger<T>(v));
    }
    // Shift amounts at the bit width: width - 1, width and width + 1.
    for (int v : {BitWidth(T) - 1, BitWidth(T), BitWidth(T) + 1}) {
      values.push_back(WrapInteger<T>(static_cast<uint64_t>(v)));
    }
  } else if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    for (auto re : SpecialValues<kPart>()) {
      values.push_back({re, 0});
      values.push_back({0, re});
    }
  } else {
    const FloatFormat& f = Format(T);
    const uint64_t sign = f.sign_mask();
    std::vector<uint64_t> patterns = {
        0,
        1,                                            // +0, smallest subnormal (or 2^-127)
        f.mantissa_mask(),                            // largest subnormal
        uint64_t{1} << f.mantissa_bits,               // smallest normal
        f.max_finite_bits(),                          // largest finite
        EncodeFloat(f, ExactValue::FromDouble(1.0)),  // 1
    };
    if (f.has_infinity) patterns.push_back(f.infinity_bits());
    if (f.has_nan()) patterns.push_back(f.nan_bits());
    std::vector<uint64_t> with_signs = patterns;
    if (f.has_sign) {
      for (uint64_t p : patterns) {
        if (!IsNaNBits(f, p | sign)) with_signs.push_back(p | sign);
      }
      if (f.nan_encoding == NanEncoding::kIeee) with_signs.push_back(f.nan_bits() | sign);
    }
    // A second quiet NaN payload: backends that canonicalise or compare
    // payloads differ from those that pass them through.
    if (f.nan_encoding == NanEncoding::kIeee && f.mantissa_bits >= 2)
      with_signs.push_back(f.nan_bits() | 1);
    for (uint64_t p : with_signs) values.push_back(FloatFromBits<T>(p));
  }
  return values;
}

// Conversion edges (FAULT-CLASSES "Conversion rounding, range and
// packing"): exact rounding midpoints of narrower formats after 1 (f16,
// bf16, f8E4M3 and f8E5M2 mantissas) and one ULP either side, the f8E4M3FN
// overflow edges, and the float -> si32/si64 limits; only where exact. Kept
// apart from SpecialValues so that NaN and the infinities stay frequent.
template <ElementType T>
std::vector<ContainerT<T>> ConversionEdges() {
  std::vector<ContainerT<T>> values;
  if constexpr (IsFloat(T)) {
    const FloatFormat& f = Format(T);
    const uint64_t sign = f.sign_mask();
    if (f.mantissa_bits >= 8) {
      for (int bits : {10, 7, 3, 2}) {
        if (bits >= f.mantissa_bits) continue;
        uint64_t one = EncodeFloat(f, ExactValue::FromDouble(1.0));
        uint64_t midpoint = one | (uint64_t{1} << (f.mantissa_bits - bits - 1));
        for (uint64_t p : {midpoint - 1, midpoint, midpoint + 1}) {
          values.push_back(FloatFromBits<T>(p));
          values.push_back(FloatFromBits<T>(p | sign));
        }
      }
      for (double edge : {448.0, 464.0, 465.0, 0x1p31, -0x1p31, 0x1p63, -0x1p63, 0x1p32}) {
        uint8_t flags = 0;
        ContainerT<T> v =
            FromExact<T>(ExactValue::FromDouble(edge), RoundingMode::kNearestEven, &flags);
        if (ToDouble<T>(v) == edge) values.push_back(v);
      }
    }
  }
  return values;
}

// The float formats with fewer significand bits than `significand_bits`:
// the destinations whose ties a value of that precision can hold exactly.
// Listed once per precision (it is asked for every element drawn).
const std::vector<const FloatFormat*>& NarrowerFormats(int significand_bits) {
  constexpr int kMost = 65;  // no element type has more (ui64's 64 magnitude bits)
  static const auto* const by_precision = [] {
    auto* lists = new std::vector<std::vector<const FloatFormat*>>(kMost + 1);
    for (int bits = 0; bits <= kMost; ++bits) {
      for (ElementType t : AllElementTypes()) {
        if (IsFloat(t) && Format(t).mantissa_bits + 1 < bits) (*lists)[bits].push_back(&Format(t));
      }
    }
    return lists;
  }();
  return (*by_precision)[std::clamp(significand_bits, 0, kMost)];
}

// An exact rounding tie of a narrower format, or one ULP of T beside it:
// the midpoint between two adjacent values of the narrow format, at a random
// binade of its range (its subnormals included), with a random significand
// and sign. Integers: the midpoint of two adjacent integers a float format
// holds (2^24 + 1 for f32), for the integer -> float conversions.
template <ElementType T>
ContainerT<T> RoundingTie(Bits& bits) {
  if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    return {RoundingTie<kPart>(bits), RoundingTie<kPart>(bits)};
  } else if constexpr (IsFloat(T)) {
    const FloatFormat& wide = Format(T);
    const auto& narrow = NarrowerFormats(wide.mantissa_bits + 1);
    if (narrow.empty()) return SmallInteger<T>(bits);
    const FloatFormat& f = *narrow[bits.Below(narrow.size())];
    // Exponents of the narrow format's binades, its subnormals' included;
    // kept where the wide format holds the tie and its neighbours exactly.
    const int lowest = f.min_normal_exponent() - (f.has_zero_and_subnormals ? 1 : 0);
    const int highest = std::ilogb(DecodeFloat(f, f.max_finite_bits()).ToDouble());
    const int exponent = lowest + static_cast<int>(bits.Below(highest - lowest + 1));
    const bool subnormal = exponent < f.min_normal_exponent();
    const int quantum = (subnormal ? f.min_normal_exponent() : exponent) - f.mantissa_bits;
    const uint64_t significand = bits.Below(uint64_t{1} << f.mantissa_bits) |
                                 (subnormal ? 0 : uint64_t{1} << f.mantissa_bits);
    // (significand + 1/2) * 2^quantum: halfway to the next value.
    const double tie = std::ldexp(static_cast<double>(2 * significand + 1), quantum - 1);
    uint8_t flags = 0;
    ContainerT<T> v = FromExact<T>(ExactValue::FromDouble(tie), RoundingMode::kNearestEven, &flags);
    if (flags != 0) return SmallInteger<T>(bits);  // beyond the wide format
    uint64_t pattern = FloatBits<T>(v);
    switch (bits.Below(4)) {  // the tie twice as often as each neighbour
      case 0:
        pattern -= 1;  // one ULP below (the tie is not a power of two: same binade)
        break;
      case 1:
        pattern += 1;
        break;
      default:
        break;
    }
    if (bits.Below(2) == 0 && wide.sign_mask() != 0) pattern |= wide.sign_mask();
    return FloatFromBits<T>(pattern);
  } else if constexpr (IsInteger(T) && !IsBool(T)) {
    const int magnitude_bits = BitWidth(T) - (IsSignedInt(T) ? 1 : 0);
    const auto& narrow = NarrowerFormats(magnitude_bits);
    if (narrow.empty()) return SmallInteger<T>(bits);
    const int m = narrow[bits.Below(narrow.size())]->mantissa_bits;
    // 2^k + (2r + 1) 2^(k - m - 1) for k in [m + 1, magnitude_bits - 1].
    const int k = m + 1 + static_cast<int>(bits.Below(magnitude_bits - m - 1));
    const uint64_t r = bits.Below(uint64_t{1} << m);
    uint64_t value = (uint64_t{1} << k) + ((2 * r + 1) << (k - m - 1));
    value += bits.Below(3) - 1;  // one below, the tie, one above
    if constexpr (IsSignedInt(T)) {
      if (bits.Below(2) == 0) value = ~value + 1;
    }
    return WrapInteger<T>(value);
  } else {
    return SmallInteger<T>(bits);
  }
}

// Cancelling values: base * sign + base * d * 2^-k, with one base per
// tensor (a significand of up to 10 random bits at an exponent within the
// format's precision of 1, so that products and sums of a few stay finite),
// d uniform in [-1, 1] and k from 2 to the format's precision, so that some
// deviations are near the base's last bit and some are not. Integers and
// booleans (exact in any order) get small integers.
struct CancellationPlan {
  double base = 1;
  bool all_positive = false;
};

template <ElementType T>
CancellationPlan PlanCancellation(Bits& bits) {
  CancellationPlan plan;
  constexpr ElementType kPart = IsComplex(T) ? ComponentType(T) : T;
  if constexpr (IsFloat(kPart)) {
    const FloatFormat& f = Format(kPart);
    const int precision = f.mantissa_bits + 1;
    const int significand_bits = std::min(f.mantissa_bits, 10);
    const double significand =
        1 + std::ldexp(static_cast<double>(bits.Below(uint64_t{1} << significand_bits)),
                       -significand_bits);
    const int exponent = static_cast<int>(bits.Below(2 * precision + 1)) - precision;
    plan.base = std::ldexp(significand, exponent);
    plan.all_positive = bits.Below(2) == 0;
  }
  return plan;
}

template <ElementType T>
ContainerT<T> CancellingValue(const CancellationPlan& plan, Bits& bits) {
  if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    return {CancellingValue<kPart>(plan, bits), CancellingValue<kPart>(plan, bits)};
  } else if constexpr (IsFloat(T) && T != ElementType::kF8E8M0FNU) {
    const int precision = Format(T).mantissa_bits + 1;
    const double sign = plan.all_positive || bits.Below(2) == 0 ? 1.0 : -1.0;
    const int k = 2 + static_cast<int>(bits.Below(std::max(1, precision - 1)));
    const double deviation =
        std::ldexp(static_cast<double>(bits.Below(2049)) / 1024.0 - 1.0, -k) * plan.base;
    uint8_t flags = 0;
    ContainerT<T> v = FromExact<T>(ExactValue::FromDouble(sign * plan.base + deviation),
                                   RoundingMode::kNearestEven, &flags);
    const bool beyond = (flags & (kConversionOverflow | kConversionUnrepresentable)) != 0;
    return beyond ? SmallInteger<T>(bits) : v;  // beyond the format: a plain value
  } else {
    return SmallInteger<T>(bits);
  }
}

template <ElementType T>
void Fill(Tensor& tensor, DataPolicy policy, Bits& bits) {
  auto values = tensor.values<T>();
  switch (policy) {
    case DataPolicy::kSmallIntegers:
      for (auto& v : values) v = SmallInteger<T>(bits);
      break;
    case DataPolicy::kUniform:
      for (auto& v : values) v = UniformValue<T>(bits);
      break;
    case DataPolicy::kRoundingTies:
      for (auto& v : values) v = RoundingTie<T>(bits);
      break;
    case DataPolicy::kCancellation: {
      const CancellationPlan plan = PlanCancellation<T>(bits);
      for (auto& v : values) v = CancellingValue<T>(plan, bits);
      break;
    }
    case DataPolicy::kSpecialValues: {
      const auto specials = SpecialValues<T>();
      const auto edges = ConversionEdges<T>();
      // Sometimes the whole tensor is one special value; otherwise about
      // half the elements are special, the rest small, and the first, middle
      // and last elements always special (kernels treat the ends of vectors
      // and the tails of unrolled loops separately).
      bool whole = bits.Below(8) == 0;
      auto fixed = specials[bits.Below(specials.size())];
      for (auto& v : values) {
        if (whole) {
          v = fixed;
        } else if (bits.Below(2) == 0) {
          v = !edges.empty() && bits.Below(4) == 0 ? edges[bits.Below(edges.size())]
                                                   : specials[bits.Below(specials.size())];
        } else {
          v = SmallInteger<T>(bits);
        }
      }
      if (!values.empty() && !whole) {
        for (size_t position : {size_t{0}, values.size() / 2, values.size() - 1}) {
          values[position] = specials[bits.Below(specials.size())];
        }
      }
      break;
    }
  }
}

// --- Shrinking --------------------------------------------------------------

// Candidates for one real value, each strictly simpler: zero, one, an
// integer instead of a fraction, half the magnitude, the positive value.
std::vector<double> SimplerReals(double v) {
  std::vector<double> candidates;
  if (v == 0 && !std::signbit(v)) return candidates;  // +0 is the simplest value
  candidates.push_back(0.0);
  if (!std::isfinite(v)) {
    candidates.push_back(1.0);
    return candidates;
  }
  // +-1 is simpler than any other non-zero value.
  if (v != 0 && std::fabs(v) != 1) candidates.push_back(std::copysign(1.0, v));
  if (std::trunc(v) != v) {
    candidates.push_back(std::trunc(v));
  } else if (std::fabs(v) >= 2) {
    candidates.push_back(std::trunc(v / 2));
  }
  if (v < 0) candidates.push_back(-v);
  return candidates;
}

// How complicated a real value looks, as an order: +0, -0, integers by
// magnitude (positive first), fractions by magnitude, infinities, NaN.
// Shrinking only ever moves down this order, so it cannot cycle, even in
// formats where "zero" rounds to something else (f8E8M0FNU has no zero).
std::tuple<int, double, bool> Complexity(double v) {
  if (std::isnan(v)) return {4, 0, false};
  if (std::isinf(v)) return {3, 0, std::signbit(v)};
  if (v == 0) return {0, 0, std::signbit(v)};
  return {v == std::trunc(v) ? 1 : 2, std::fabs(v), std::signbit(v)};
}

// The simplest value of a type: 0, or 1 where 0 does not exist.
template <ElementType T>
ContainerT<T> Simplest() {
  ContainerT<T> zero = FromDouble<T>(0.0);
  if constexpr (IsFloat(T)) {
    if (ToDouble<T>(zero) != 0) return FromDouble<T>(1.0);
  }
  return zero;
}

template <ElementType T>
std::vector<ContainerT<T>> SimplerElements(ContainerT<T> value) {
  std::vector<ContainerT<T>> result;
  if constexpr (IsBool(T)) {
    if (value != 0) result.push_back(0);
  } else if constexpr (IsInteger(T)) {
    if (value != 0) result.push_back(0);
    if (value / 2 != 0) result.push_back(static_cast<ContainerT<T>>(value / 2));
    if constexpr (IsSignedInt(T)) {
      if (value < 0 && value != static_cast<ContainerT<T>>(IntegerMin(T))) {
        result.push_back(static_cast<ContainerT<T>>(-value));
      }
    }
  } else if constexpr (IsComplex(T)) {
    using Part = typename ContainerT<T>::value_type;
    for (double re : SimplerReals(value.real())) {
      if (Complexity(static_cast<Part>(re)) < Complexity(value.real())) {
        result.push_back({static_cast<Part>(re), value.imag()});
      }
    }
    for (double im : SimplerReals(value.imag())) {
      if (Complexity(static_cast<Part>(im)) < Complexity(value.imag())) {
        result.push_back({value.real(), static_cast<Part>(im)});
      }
    }
  } else {
    const double v = ToDouble<T>(value);
    for (double candidate : SimplerReals(v)) {
      ContainerT<T> rounded = FromDouble<T>(candidate);
      if (Complexity(ToDouble<T>(rounded)) < Complexity(v)) result.push_back(rounded);
    }
  }
  return result;
}

template <ElementType T>
rc::Seq<Tensor> SimplerTensorsOf(const Tensor& tensor) {
  Tensor simplest(tensor.type());
  for (auto& v : simplest.values<T>()) v = Simplest<T>();
  rc::Seq<Tensor> all_simplest =
      tensor.BitwiseEquals(simplest) ? rc::Seq<Tensor>() : rc::seq::just(simplest);
  auto per_element =
      rc::seq::mapcat(rc::seq::range<int64_t>(0, tensor.num_elements()), [tensor](int64_t i) {
        std::vector<Tensor> candidates;
        for (auto simpler : SimplerElements<T>(tensor.values<T>()[i])) {
          Tensor copy = tensor;
          copy.values<T>()[i] = simpler;
          candidates.push_back(std::move(copy));
        }
        return rc::seq::fromContainer(std::move(candidates));
      });
  return rc::seq::concat(std::move(all_simplest), std::move(per_element));
}

}  // namespace

std::string_view DataPolicyName(DataPolicy policy) {
  switch (policy) {
    case DataPolicy::kSmallIntegers:
      return "small-integers";
    case DataPolicy::kUniform:
      return "uniform";
    case DataPolicy::kSpecialValues:
      return "special-values";
    case DataPolicy::kRoundingTies:
      return "rounding-ties";
    case DataPolicy::kCancellation:
      return "cancellation";
  }
  return "?";
}

std::vector<DataPolicy> AllDataPolicies() { return DataPoliciesOfVersion(4); }

std::vector<DataPolicy> DataPoliciesOfVersion(int version) {
  std::vector<DataPolicy> policies = {DataPolicy::kSmallIntegers, DataPolicy::kUniform,
                                      DataPolicy::kSpecialValues};
  if (version >= 3) policies.push_back(DataPolicy::kRoundingTies);
  if (version >= 4) policies.push_back(DataPolicy::kCancellation);
  return policies;
}

rc::Seq<Tensor> SimplerTensors(const Tensor& tensor) {
  return DispatchElementType(tensor.element_type(),
                             [&]<ElementType T>() { return SimplerTensorsOf<T>(tensor); });
}

rc::Gen<Tensor> TensorData(TensorType type, DataPolicy policy) {
  return rc::Gen<Tensor>([type = std::move(type), policy](const rc::Random& random, int) {
    Tensor tensor(type);
    Bits bits(random);
    DispatchElementType(type.element_type, [&]<ElementType T>() { Fill<T>(tensor, policy, bits); });
    return rc::shrinkable::shrinkRecur(std::move(tensor), &SimplerTensors);
  });
}

namespace {

// Index values around `bound`: the type's extremes, -1, 0, 1, values inside
// the bound and at it, and one past it, as the spec's clamping and skipping
// rules need (../shared/FAULT-CLASSES.md, "Index clamping").
template <ElementType T>
ContainerT<T> IndexValue(Bits& bits, int64_t bound) {
  if constexpr (IsInteger(T)) {
    int64_t min = IntegerMin(T);
    uint64_t max = IntegerMaxUnsigned(T);
    switch (bits.Below(10)) {
      case 0:
        return WrapInteger<T>(static_cast<uint64_t>(min));
      case 1:
        return WrapInteger<T>(max);
      case 2:
        return WrapInteger<T>(~uint64_t{0});  // -1, or the unsigned maximum
      case 3:
        return WrapInteger<T>(static_cast<uint64_t>(bound));
      case 4:
        return WrapInteger<T>(static_cast<uint64_t>(bound + 1));
      case 5:
        return WrapInteger<T>(static_cast<uint64_t>(bound > 0 ? bound - 1 : 0));
      default:
        return WrapInteger<T>(bits.Below(static_cast<uint64_t>(std::max<int64_t>(bound, 1))));
    }
  } else {
    return SmallInteger<T>(bits);
  }
}

}  // namespace

rc::Gen<Tensor> IndexData(TensorType type, int64_t bound) {
  return rc::Gen<Tensor>([type = std::move(type), bound](const rc::Random& random, int) {
    Tensor tensor(type);
    Bits bits(random);
    DispatchElementType(type.element_type, [&]<ElementType T>() {
      for (auto& v : tensor.values<T>()) v = IndexValue<T>(bits, bound);
    });
    return rc::shrinkable::shrinkRecur(std::move(tensor), &SimplerTensors);
  });
}

namespace {

// A complex or real value of T from two doubles (the imaginary part
// dropped for real types).
template <ElementType T>
ContainerT<T> FromParts(double re, double im) {
  if constexpr (IsComplex(T)) {
    using Part = typename ContainerT<T>::value_type;
    constexpr ElementType kPart =
        std::is_same_v<Part, float> ? ElementType::kF32 : ElementType::kF64;
    return {FromDouble<kPart>(re), FromDouble<kPart>(im)};
  } else {
    return FromDouble<T>(re);
  }
}

// A quarter in [-1, 1].
double Quarter(Bits& bits) { return (static_cast<double>(bits.Below(9)) - 4) / 4; }

template <ElementType T>
void FillMatrices(Tensor& tensor, MatrixKind kind, bool unit_diagonal, Bits& bits) {
  const Shape& shape = tensor.shape();
  const int64_t n = shape.size() < 2 ? 0 : shape.back();
  if (n == 0 || shape[shape.size() - 2] != n) return;
  auto values = tensor.values<T>();
  const int64_t batches = tensor.num_elements() / (n * n);
  for (int64_t b = 0; b < batches; ++b) {
    ContainerT<T>* m = values.data() + b * n * n;
    if (kind == MatrixKind::kPositiveDefinite) {
      // Hermitian and strictly diagonally dominant with a positive diagonal:
      // positive definite (Gershgorin), with a margin of 1 that rounding to
      // narrow types rarely eats.
      std::vector<double> row_sums(static_cast<size_t>(n), 0.0);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < i; ++j) {
          const double re = Quarter(bits), im = IsComplex(T) ? Quarter(bits) : 0.0;
          m[i * n + j] = FromParts<T>(re, im);
          m[j * n + i] = FromParts<T>(re, -im);
          row_sums[i] += std::hypot(re, im);
          row_sums[j] += std::hypot(re, im);
        }
      }
      for (int64_t i = 0; i < n; ++i) {
        m[i * n + i] =
            FromParts<T>(std::ceil(row_sums[i]) + 1 + static_cast<double>(bits.Below(3)), 0);
      }
    } else {
      // Ill-conditioned one time in four: small diagonal elements under
      // larger off-diagonal ones (|a^-1| grows like 8^n), still nonsingular.
      const bool ill_conditioned = bits.Below(4) == 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double re = Quarter(bits), im = IsComplex(T) ? Quarter(bits) : 0.0;
          if (i == j) {
            const double magnitude =
                ill_conditioned ? 0.25 : 1 + static_cast<double>(bits.Below(4));
            re = unit_diagonal ? 1 : (bits.Below(2) ? magnitude : -magnitude);
            im = 0;
          } else if (ill_conditioned) {
            re *= 2;
          }
          m[i * n + j] = FromParts<T>(re, im);
        }
      }
    }
  }
}

}  // namespace

rc::Gen<Tensor> MatrixData(TensorType type, MatrixKind kind, bool unit_diagonal) {
  return rc::Gen<Tensor>(
      [type = std::move(type), kind, unit_diagonal](const rc::Random& random, int) {
        Tensor tensor(type);
        Bits bits(random);
        DispatchElementType(type.element_type, [&]<ElementType T>() {
          if constexpr (IsFloat(T) || IsComplex(T)) {
            FillMatrices<T>(tensor, kind, unit_diagonal, bits);
          }
        });
        return rc::shrinkable::shrinkRecur(std::move(tensor), &SimplerTensors);
      });
}

rc::Gen<std::optional<Tensor>> LoopCounterData(TensorType type, int64_t lo, int64_t hi) {
  return rc::gen::exec([type, lo, hi]() -> std::optional<Tensor> {
    if (*rc::gen::inRange(0, 4) == 0) return std::nullopt;
    const int64_t first = std::max(lo - 3, IntegerMin(type.element_type));
    const int64_t start = *rc::gen::inRange(first, hi + 1);
    Tensor counter(type);
    if (!ParseElementLiteral(std::to_string(start), type.element_type, counter.raw()).ok()) {
      return std::nullopt;
    }
    return counter;
  });
}

// Data for a tensor of `type`; a quantized one gets random storage values
// (the recipes' quantized types take the storage type's whole range).
Tensor LeafData(const TensorType& type, DataPolicy policy) {
  if (!type.quantization) return *TensorData(type, policy);
  const UniformQuantization& q = *type.quantization;
  const int bits = BitWidth(type.element_type);
  const bool is_signed = IsSignedInt(type.element_type);
  const int64_t lowest = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t highest =
      is_signed ? (int64_t{1} << (bits - 1)) - 1 : static_cast<int64_t>((uint64_t{1} << bits) - 1);
  if (q.storage_min != lowest || q.storage_max != highest) {
    throw std::runtime_error("no data for " + type.ToString() +
                             ": a storage range narrower than its type is not generated");
  }
  Tensor storage = *TensorData(TensorType(type.shape, type.element_type), policy);
  return Tensor::Reusing(type, std::move(storage));
}

void AppendLeafData(const ValueType& type, DataPolicy policy, std::vector<Tensor>* leaves) {
  if (type.is_tensor()) leaves->push_back(LeafData(type.tensor(), policy));
  for (const ValueType& element : type.elements) AppendLeafData(element, policy, leaves);
}

}  // namespace hlocheck
