#include "runners/program_bounds.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <set>

#include "core/dot_algorithm.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/literal.h"
#include "oracle/accumulation.h"

namespace hlocheck {
namespace {

uint64_t BitsAt(const Tensor& t, int64_t i) {
  const size_t bytes = static_cast<size_t>(ContainerBytes(t.element_type()));
  uint64_t bits = 0;
  std::memcpy(&bits, t.bytes().data() + static_cast<size_t>(i) * bytes, bytes);
  return bits;
}

void SetBits(Tensor& t, int64_t i, uint64_t bits) {
  const size_t bytes = static_cast<size_t>(ContainerBytes(t.element_type()));
  std::memcpy(t.bytes().data() + static_cast<size_t>(i) * bytes, &bits, bytes);
}

double ValueAt(const Tensor& t, int64_t i) {
  return DecodeFloat(Format(t.element_type()), BitsAt(t, i)).ToDouble();
}

bool NaNAt(const Tensor& t, int64_t i) {
  return IsFloat(t.element_type()) && IsNaNBits(Format(t.element_type()), BitsAt(t, i));
}

// Element i of an integer (a quantized tensor's storage) set to `value`.
void SetStorage(Tensor& t, int64_t i, int64_t value) {
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      t.values<T>()[static_cast<size_t>(i)] = WrapInteger<T>(static_cast<uint64_t>(value));
    }
  });
}

// An element's value for ordering: a float's, an integer's or a boolean's
// (every 64-bit integer is exact in long double).
long double OrderAt(const Tensor& t, int64_t i) {
  const ElementType type = t.element_type();
  if (IsFloat(type)) return ValueAt(t, i);
  return DispatchElementType(type, [&]<ElementType T>() -> long double {
    if constexpr (IsInteger(T)) {
      const uint64_t bits = IntegerBits<T>(t.values<T>()[static_cast<size_t>(i)]);
      if constexpr (IsSignedInt(T)) return static_cast<long double>(static_cast<int64_t>(bits));
      return static_cast<long double>(bits);
    } else if constexpr (T == ElementType::kI1) {
      return t.values<T>()[static_cast<size_t>(i)] ? 1 : 0;
    } else {
      return 0;
    }
  });
}

// `bits` moved `steps` ULPs down (or up), stopping at an infinity.
uint64_t Step(const FloatFormat& format, uint64_t bits, int steps, bool down) {
  for (int s = 0; s < steps; ++s) {
    const double v = DecodeFloat(format, bits).ToDouble();
    if (std::isinf(v) && ((v < 0) == down)) break;
    bits = NextFloatBits(format, bits, down);
  }
  return bits;
}

// The greatest value of `format` at most `v` (down) or the least at least
// `v` (up); none where the format has no such value (beyond its range
// without an infinity, below its least value, a NaN).
std::optional<uint64_t> RoundToward(const FloatFormat& format, long double v, bool down) {
  if (std::isnan(v)) return std::nullopt;
  double d = static_cast<double>(v);
  if (down ? d > v : d < v) d = std::nextafter(d, down ? -HUGE_VAL : HUGE_VAL);
  uint8_t flags = 0;
  uint64_t bits = EncodeDouble(format, d, RoundingMode::kNearestEven, &flags);
  if (IsNaNBits(format, bits)) return std::nullopt;
  double got = DecodeFloat(format, bits).ToDouble();
  if (down ? got > d : got < d) {
    bits = NextFloatBits(format, bits, down);
    if (IsNaNBits(format, bits)) return std::nullopt;
    got = DecodeFloat(format, bits).ToDouble();
    if (down ? got > d : got < d) return std::nullopt;  // past the format's end
  }
  return bits;
}

// A real result element as the exact interval around it the oracle
// allows: [center - bound, center + bound] for kErrorBound, the reference
// itself where exact; none where it is open, not finite, or bounded in
// ULPs (which the sums below do not meet).
struct CenterBound {
  long double center = 0;
  long double bound = 0;
};
std::optional<CenterBound> CenterBoundAt(const ResultExpectation& e, int64_t i) {
  const size_t k = static_cast<size_t>(i);
  if (e.distribution != nullptr || (k < e.free.size() && e.free[k] != 0) ||
      (e.permutable && k < e.permutable->run.size() && e.permutable->run[k] >= 0) ||
      (k < e.reading_differs.size() && e.reading_differs[k] != 0)) {
    return std::nullopt;
  }
  CenterBound cb;
  if (e.check == Check::kErrorBound) {
    if (k >= e.bound.size()) return std::nullopt;
    cb.center = static_cast<long double>(e.center_hi[k]) + e.center_lo[k];
    cb.bound = e.bound[k];
  } else if (e.check == Check::kExact || (e.check == Check::kUlp && e.allowed_ulp == 0)) {
    cb.center = ValueAt(e.reference, i);
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(cb.center) || !std::isfinite(cb.bound)) return std::nullopt;
  return cb;
}

// Element i's bounds from the real interval [lo, hi], widened by a margin
// for the long double arithmetic that computed it from terms of magnitude
// at most `scale` in all (each step's rounding is 2^-64 of its operands at
// most), then rounded into the type: `inward` where a backend's value is a
// value of the type inside [lo, hi] (the least such and the greatest),
// else outwards (a value rounded to the type after it was within them).
bool SetBounds(ElementBounds& b, int64_t i, long double lo, long double hi, long double scale,
               bool inward) {
  const FloatFormat& format = Format(b.lo.element_type());
  const long double margin = std::ldexp(scale, -58) + std::numeric_limits<double>::denorm_min();
  const std::optional<uint64_t> low = RoundToward(format, lo - margin, /*down=*/!inward);
  const std::optional<uint64_t> high = RoundToward(format, hi + margin, /*down=*/inward);
  if (!low || !high) return false;
  SetBits(b.lo, i, *low);
  SetBits(b.hi, i, *high);
  return true;
}

}  // namespace

ElementBounds ElementBounds::Exact(const Tensor& value) {
  return {value, value, std::vector<uint8_t>(static_cast<size_t>(value.num_elements()), 1)};
}

ElementBounds ElementBounds::None(const Tensor& value) {
  return {value, value, std::vector<uint8_t>(static_cast<size_t>(value.num_elements()), 0)};
}

bool ElementBounds::Holds(int64_t index, const Tensor& actual) const {
  if (!bounded[static_cast<size_t>(index)]) return true;
  if (IsComplex(actual.element_type())) return BitsAt(actual, index) == BitsAt(lo, index);
  if (NaNAt(lo, index) || NaNAt(hi, index)) return NaNAt(actual, index);
  if (NaNAt(actual, index)) return false;
  const long double v = OrderAt(actual, index);
  return OrderAt(lo, index) <= v && v <= OrderAt(hi, index);
}

std::string ElementBounds::Describe(int64_t index) const {
  const size_t offset = static_cast<size_t>(index) * ContainerBytes(lo.element_type());
  return "[" + PrintElementLiteral(lo.element_type(), lo.bytes().data() + offset) + ", " +
         PrintElementLiteral(hi.element_type(), hi.bytes().data() + offset) + "]";
}

CornerPolicy CornerPolicyOf(const std::string& op) {
  static const std::set<std::string> monotone = {
      // Data movement: every result element is a copy of an operand's.
      "reshape", "transpose", "broadcast_in_dim", "slice", "reverse", "concatenate", "pad",
      "dynamic_slice", "dynamic_update_slice", "gather", "select",
      // Elementwise, monotone in each operand the same way over every
      // interval (negate decreases: the least and greatest of the two runs
      // still bound it). Not rsqrt: rsqrt(-0) = -inf jumps.
      "add", "maximum", "minimum", "clamp", "convert", "exponential", "exponential_minus_one",
      "log", "log_plus_one", "sqrt", "cbrt", "tanh", "logistic", "floor", "ceil",
      "round_nearest_even", "round_nearest_afz", "reduce_precision", "negate",
      // sign never decreases (-0 and +0 are one value to an interval).
      "sign",
      // Quantized values: storage integers ordered as their values.
      "uniform_quantize", "uniform_dequantize"};
  if (monotone.count(op)) return CornerPolicy::kMonotone;
  if (op == "subtract") return CornerPolicy::kSubtract;
  if (op == "multiply" || op == "divide") return CornerPolicy::kBilinear;
  if (op == "dot_general" || op == "convolution") return CornerPolicy::kContraction;
  if (op == "reduce" || op == "reduce_window" || op == "scatter") return CornerPolicy::kByBody;
  if (op == "compare") return CornerPolicy::kByDirection;
  return CornerPolicy::kNone;
}

ElementBounds BoundsOfExpectation(const ResultExpectation& e) {
  const Tensor& ref = e.reference;
  const int64_t n = ref.num_elements();
  const bool exact = e.check == Check::kExact || (e.check == Check::kUlp && e.allowed_ulp == 0);
  ElementBounds b = ElementBounds::Exact(ref);
  const bool real = IsFloat(ref.element_type());
  for (int64_t i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(i);
    const bool open = e.distribution != nullptr || (k < e.free.size() && e.free[k] != 0) ||
                      (e.permutable && k < e.permutable->run.size() && e.permutable->run[k] >= 0) ||
                      (k < e.reading_differs.size() && e.reading_differs[k] != 0);
    const bool error_bound = e.check == Check::kErrorBound;
    if (!open && e.check == Check::kStorageRange && k < e.storage_low.size()) {
      // A quantized result: the storage integers allowed, an interval.
      SetStorage(b.lo, i, e.storage_low[k]);
      SetStorage(b.hi, i, e.storage_high[k]);
      continue;
    }
    if (open || (!exact && (!real || (e.check != Check::kUlp && !error_bound)))) {
      b.bounded[k] = 0;
      continue;
    }
    if (exact) continue;
    if (error_bound) {
      // The values of the type within the bound of the center; a NaN
      // center, as exact: only a NaN holds.
      if (k < e.center_hi.size() && std::isnan(e.center_hi[k])) continue;
      const std::optional<CenterBound> cb = CenterBoundAt(e, i);
      b.bounded[k] = cb && SetBounds(b, i, cb->center - cb->bound, cb->center + cb->bound,
                                     std::fabs(cb->center) + cb->bound, /*inward=*/true);
      // As the comparison does: where the bound reaches past the largest
      // finite value, that sign's overflow result (an infinity; the
      // largest value of a saturating type; a NaN, which no interval holds).
      const FloatFormat& format = Format(ref.element_type());
      const long double max_finite = DecodeFloat(format, format.max_finite_bits()).ToDouble();
      if (b.bounded[k] && cb->center + cb->bound > max_finite) {
        if (format.has_infinity) {
          SetBits(b.hi, i, format.infinity_bits());
        } else if (format.has_nan()) {
          b.bounded[k] = 0;
        } else {
          SetBits(b.hi, i, format.max_finite_bits());
        }
      }
      if (b.bounded[k] && cb->center - cb->bound < -max_finite) {
        if (format.has_infinity) {
          SetBits(b.lo, i, format.sign_mask() | format.infinity_bits());
        } else if (format.has_nan()) {
          b.bounded[k] = 0;
        } else {
          SetBits(b.lo, i, format.sign_mask() | format.max_finite_bits());
        }
      }
      continue;
    }
    const FloatFormat& format = Format(ref.element_type());
    const uint64_t bits = BitsAt(ref, i);
    if (IsNaNBits(format, bits)) continue;  // a NaN, as exact: only a NaN holds
    SetBits(b.lo, i, Step(format, bits, e.allowed_ulp, /*down=*/true));
    SetBits(b.hi, i, Step(format, bits, e.allowed_ulp, /*down=*/false));
  }
  return b;
}

namespace {

// Ops monotone in integer operands too (no wrapping), which may carry
// integer intervals; select only in its data operands.
bool MonotoneInIntegers(const std::string& op) {
  return op == "convert" || op == "maximum" || op == "minimum" || op == "clamp" ||
         op == "compare" || op == "select" || op == "sign";
}

// kByDirection made concrete: x < y (and <=, >, >=) only grows with y and
// shrinks with x, so its extremes are at (lo, hi) and (hi, lo); equality is
// not monotone, nor is a total order (-0 < +0 inside one interval of values).
CornerPolicy PolicyOfComparison(const Case& c) {
  auto direction = c.attributes.find("comparison_direction");
  if (direction == c.attributes.end()) return CornerPolicy::kNone;
  const EnumValue* value = std::get_if<EnumValue>(&direction->second);
  if (value == nullptr || value->name == "EQ" || value->name == "NE") return CornerPolicy::kNone;
  auto type = c.attributes.find("compare_type");
  if (type != c.attributes.end()) {
    const EnumValue* kind = std::get_if<EnumValue>(&type->second);
    if (kind == nullptr || kind->name == "TOTALORDER") return CornerPolicy::kNone;
  }
  return CornerPolicy::kSubtract;
}

// kByBody made concrete: maximum and minimum are monotone and exact; add
// (with them) a sum; any other body carries nothing.
CornerPolicy PolicyOfBody(const Case& c) {
  if (c.regions.size() != 1) return CornerPolicy::kNone;
  bool adds = false;
  for (oracle::Combiner kind : oracle::ClassifyCombiners(c.regions[0], c.result_types.size())) {
    if (kind == oracle::Combiner::kAdd) {
      adds = true;
    } else if (kind != oracle::Combiner::kMaximum && kind != oracle::Combiner::kMinimum) {
      return CornerPolicy::kNone;
    }
  }
  return adds ? CornerPolicy::kSum : CornerPolicy::kMonotone;
}

// Each element of `lo` and `hi` (same type), mapped by f to a value rounded
// up into the type; none where one is not representable.
template <typename F>
std::optional<Tensor> MapEnds(const Tensor& lo, const Tensor& hi, F f) {
  const FloatFormat& format = Format(lo.element_type());
  Tensor out = lo;
  for (int64_t i = 0; i < lo.num_elements(); ++i) {
    const std::optional<uint64_t> bits =
        RoundToward(format, f(static_cast<long double>(ValueAt(lo, i)), ValueAt(hi, i)),
                    /*down=*/false);
    if (!bits) return std::nullopt;
    SetBits(out, i, *bits);
  }
  return out;
}

// The end of [lo, hi] of larger magnitude, element by element.
Tensor MagnitudeCorner(const ElementBounds& b) {
  Tensor out = b.lo;
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    if (std::fabs(ValueAt(b.hi, i)) > std::fabs(ValueAt(b.lo, i))) SetBits(out, i, BitsAt(b.hi, i));
  }
  return out;
}

bool FiniteEnds(const ElementBounds& b) {
  for (int64_t i = 0; i < b.lo.num_elements(); ++i) {
    if (!std::isfinite(ValueAt(b.lo, i)) || !std::isfinite(ValueAt(b.hi, i))) return false;
  }
  return true;
}

// The expectations of `c` run on `operands`; none if the oracle declines.
std::optional<std::vector<ResultExpectation>> RunOn(const Case& c, std::vector<Tensor> operands,
                                                    const CaseCompute& compute) {
  Case cc = c;
  cc.operands = std::move(operands);
  auto expectations = compute(cc);
  if (!expectations.ok() || expectations->size() != c.result_types.size()) return std::nullopt;
  return std::move(*expectations);
}

// kSum: the exact sum is monotone in every term, so it lies between the
// all-lo and the all-hi corners' centers; any order's rounding error is at
// most the oracle's bound for the terms' magnitudes, which the magnitude
// corner maximises. Infinite ends are refused: inf - inf inside the box.
std::vector<ElementBounds> SumBounds(const Case& c, const std::vector<ElementBounds>& operands,
                                     const CaseCompute& compute, std::vector<ElementBounds> none) {
  std::vector<Tensor> lo, hi, magnitude;
  for (const ElementBounds& b : operands) {
    if (IsFloat(b.lo.element_type()) && !FiniteEnds(b)) return none;
    lo.push_back(b.lo);
    hi.push_back(b.hi);
    magnitude.push_back(IsFloat(b.lo.element_type()) ? MagnitudeCorner(b) : b.lo);
  }
  auto at_lo = RunOn(c, lo, compute);
  auto at_hi = RunOn(c, hi, compute);
  auto at_magnitude = RunOn(c, magnitude, compute);
  if (!at_lo || !at_hi || !at_magnitude) return none;
  std::vector<ElementBounds> out = std::move(none);
  for (size_t r = 0; r < out.size(); ++r) {
    if (!IsFloat(c.result_types[r].element_type)) continue;
    ElementBounds& b = out[r];
    for (int64_t i = 0; i < b.lo.num_elements(); ++i) {
      const auto low = CenterBoundAt((*at_lo)[r], i);
      const auto high = CenterBoundAt((*at_hi)[r], i);
      const auto error = CenterBoundAt((*at_magnitude)[r], i);
      if (!low || !high || !error) continue;
      b.bounded[static_cast<size_t>(i)] = SetBounds(
          b, i, low->center - error->bound, high->center + error->bound,
          std::fabs(low->center) + std::fabs(high->center) + error->bound, /*inward=*/false);
    }
  }
  return out;
}

// kContraction (docs/numerics.md, "Programs"): with x = xl + dx and y = yl +
// dy, 0 <= dx <= wx and 0 <= dy <= wy, the exact x.y is xl.yl plus
//   xl.dy in [-(xl-).wy, (xl+).wy],  dx.yl in [-wx.(yl-), wx.(yl+)],
//   dx.dy in [0, wx.wy]
// (x+ = max(x, 0), x- = max(-x, 0), each a contraction of the same
// dimensions, exact where its terms have one sign), widths rounded up; the
// rounding error is the oracle's bound at the magnitude corner, and the
// result is rounded outwards (a rounding after the sum). Operands of one
// real float type with zero and sign, no algorithm and no narrowing (whose
// oracle centers are of rounded operands, not bilinear): else none.
std::vector<ElementBounds> ContractionBounds(const Case& c,
                                             const std::vector<ElementBounds>& operands,
                                             const CaseCompute& compute,
                                             std::vector<ElementBounds> none) {
  if (operands.size() != 2 || c.result_types.size() != 1) return none;
  const ElementType type = c.operands[0].element_type();
  if (c.operands[1].element_type() != type || !IsFloat(type) ||
      !IsExactConversion(type, c.result_types[0].element_type)) {
    return none;
  }
  const FloatFormat& format = Format(type);
  if (!format.has_sign || !format.has_zero_and_subnormals) return none;
  auto algorithm = ReadDotAlgorithm(c);
  if (!algorithm.ok() || algorithm->has_value()) return none;
  for (const ElementBounds& b : operands) {
    if (!FiniteEnds(b)) return none;
  }
  const ElementBounds& x = operands[0];
  const ElementBounds& y = operands[1];
  auto width = [](long double l, long double h) { return h - l; };
  auto positive = [](long double l, long double) { return std::max(l, 0.0L); };
  auto negative = [](long double l, long double) { return std::max(-l, 0.0L); };
  const std::optional<Tensor> wx = MapEnds(x.lo, x.hi, width);
  const std::optional<Tensor> wy = MapEnds(y.lo, y.hi, width);
  if (!wx || !wy) return none;
  const bool x_varies = !x.lo.BitwiseEquals(x.hi);
  const bool y_varies = !y.lo.BitwiseEquals(y.hi);
  auto base = RunOn(c, {x.lo, y.lo}, compute);
  auto error = RunOn(c, {MagnitudeCorner(x), MagnitudeCorner(y)}, compute);
  if (!base || !error) return none;
  std::vector<std::vector<ResultExpectation>> below, above;  // subtracted, added
  auto term = [&](std::vector<std::vector<ResultExpectation>>& to, const std::optional<Tensor>& a,
                  const std::optional<Tensor>& b) {
    if (!a || !b) return false;
    auto e = RunOn(c, {*a, *b}, compute);
    if (!e) return false;
    to.push_back(std::move(*e));
    return true;
  };
  if (y_varies && !(term(below, MapEnds(x.lo, x.lo, negative), wy) &&
                    term(above, MapEnds(x.lo, x.lo, positive), wy))) {
    return none;
  }
  if (x_varies && !(term(below, wx, MapEnds(y.lo, y.lo, negative)) &&
                    term(above, wx, MapEnds(y.lo, y.lo, positive)))) {
    return none;
  }
  if (x_varies && y_varies && !term(above, wx, wy)) return none;
  if (!IsFloat(c.result_types[0].element_type)) return none;
  std::vector<ElementBounds> out = std::move(none);
  ElementBounds& b = out[0];
  for (int64_t i = 0; i < b.lo.num_elements(); ++i) {
    const auto center = CenterBoundAt((*base)[0], i);
    const auto rounding = CenterBoundAt((*error)[0], i);
    if (!center || !rounding) continue;
    long double lo = center->center - rounding->bound;
    long double hi = center->center + rounding->bound;
    long double scale = std::fabs(center->center) + rounding->bound;
    bool bounded = true;
    for (const std::vector<ResultExpectation>& e : below) {
      const auto part = CenterBoundAt(e[0], i);
      bounded = bounded && part;
      if (part) lo -= part->center, scale += std::fabs(part->center);
    }
    for (const std::vector<ResultExpectation>& e : above) {
      const auto part = CenterBoundAt(e[0], i);
      bounded = bounded && part;
      if (part) hi += part->center, scale += std::fabs(part->center);
    }
    b.bounded[static_cast<size_t>(i)] = bounded && SetBounds(b, i, lo, hi, scale, /*inward=*/false);
  }
  return out;
}

}  // namespace

std::vector<ElementBounds> PropagateBounds(const Case& c,
                                           const std::vector<ElementBounds>& operand_bounds,
                                           CornerPolicy policy, const CaseCompute& compute) {
  std::vector<ElementBounds> none;
  for (const TensorType& type : c.result_types) none.push_back(ElementBounds::None(Tensor(type)));
  if (policy == CornerPolicy::kNone || operand_bounds.size() != c.operands.size()) return none;
  // Non-float operands (indices, predicates) must be exact, but for the ops
  // monotone in them (select's predicate excepted): the corners vary them.
  for (size_t k = 0; k < c.operands.size(); ++k) {
    const ElementBounds& b = operand_bounds[k];
    for (uint8_t x : b.bounded) {
      if (!x) return none;
    }
    if (IsFloat(c.operands[k].element_type())) continue;
    // A quantized operand's storage orders its values (scales are
    // positive): the ops monotone in values are monotone in it.
    const bool may_vary = (MonotoneInIntegers(c.op) && !(c.op == "select" && k == 0)) ||
                          c.operands[k].type().quantization.has_value();
    if (!may_vary && !b.lo.BitwiseEquals(b.hi)) return none;
  }
  for (const Tensor& operand : c.operands) {
    if (IsComplex(operand.element_type())) return none;
  }
  if (policy == CornerPolicy::kByBody) policy = PolicyOfBody(c);
  if (policy == CornerPolicy::kByDirection) policy = PolicyOfComparison(c);
  if (policy == CornerPolicy::kSum) return SumBounds(c, operand_bounds, compute, std::move(none));
  if (policy == CornerPolicy::kContraction) {
    return ContractionBounds(c, operand_bounds, compute, std::move(none));
  }
  std::vector<std::vector<bool>> corners;  // per corner: operand k at its hi
  const size_t n = c.operands.size();
  switch (policy) {
    case CornerPolicy::kMonotone:
      corners = {std::vector<bool>(n, false), std::vector<bool>(n, true)};
      break;
    case CornerPolicy::kSubtract:
      if (n != 2) return none;
      corners = {{false, true}, {true, false}};
      break;
    case CornerPolicy::kBilinear:
      if (n != 2) return none;
      corners = {{false, false}, {false, true}, {true, false}, {true, true}};
      break;
    default:
      return none;
  }
  // Elements no corner can bound: a divisor interval that holds zero (x / y
  // is unbounded near it), and (below) arithmetic on an infinite end.
  std::vector<uint8_t> no_bound;
  if (c.op == "divide" && IsFloat(c.operands[1].element_type())) {
    const ElementBounds& y = operand_bounds[1];
    const bool same_shape = c.operands[1].shape() == c.result_types[0].shape;
    no_bound.assign(static_cast<size_t>(c.result_types[0].num_elements()), 0);
    for (int64_t i = 0; i < y.lo.num_elements(); ++i) {
      const bool holds_zero = !(ValueAt(y.lo, i) > 0 || ValueAt(y.hi, i) < 0);
      if (!holds_zero) continue;
      if (!same_shape) return none;
      no_bound[static_cast<size_t>(i)] = 1;
    }
  }
  // A conversion to a boolean (x != 0) is not monotone: an interval
  // holding zero but for being [0, 0] bounds nothing.
  if (c.op == "convert" && c.result_types[0].element_type == ElementType::kI1) {
    const ElementBounds& x = operand_bounds[0];
    no_bound.assign(static_cast<size_t>(c.result_types[0].num_elements()), 0);
    for (int64_t i = 0; i < x.lo.num_elements(); ++i) {
      const long double lo = OrderAt(x.lo, i), hi = OrderAt(x.hi, i);
      no_bound[static_cast<size_t>(i)] = lo <= 0 && hi >= 0 && !(lo == 0 && hi == 0);
    }
  }
  // Arithmetic on an interval with an infinite end: inside the box, inf -
  // inf, 0 * inf or inf / inf give NaN where no corner does.
  const bool arithmetic =
      c.op == "add" || c.op == "subtract" || c.op == "multiply" || c.op == "divide";
  if (arithmetic) {
    if (no_bound.empty()) no_bound.assign(static_cast<size_t>(c.result_types[0].num_elements()), 0);
    for (size_t k = 0; k < n; ++k) {
      const ElementBounds& b = operand_bounds[k];
      if (!IsFloat(b.lo.element_type())) continue;
      const bool same_shape = c.operands[k].shape() == c.result_types[0].shape;
      for (int64_t i = 0; i < b.lo.num_elements(); ++i) {
        if (!std::isinf(ValueAt(b.lo, i)) && !std::isinf(ValueAt(b.hi, i))) continue;
        if (!same_shape) return none;
        no_bound[static_cast<size_t>(i)] = 1;
      }
    }
  }
  std::vector<std::vector<ElementBounds>> at;  // per corner, per result
  for (const std::vector<bool>& corner : corners) {
    Case cc = c;
    for (size_t k = 0; k < n; ++k)
      cc.operands[k] = corner[k] ? operand_bounds[k].hi : operand_bounds[k].lo;
    auto expectations = compute(cc);
    if (!expectations.ok() || expectations->size() != c.result_types.size()) return none;
    std::vector<ElementBounds> results;
    for (const ResultExpectation& e : *expectations) results.push_back(BoundsOfExpectation(e));
    at.push_back(std::move(results));
  }
  std::vector<ElementBounds> out;
  for (size_t r = 0; r < c.result_types.size(); ++r) {
    const ElementType type = c.result_types[r].element_type;
    if (IsComplex(type)) {
      out.push_back(none[r]);
      continue;
    }
    ElementBounds b = at[0][r];
    for (int64_t i = 0; i < b.lo.num_elements(); ++i) {
      const size_t k = static_cast<size_t>(i);
      if (!no_bound.empty() && no_bound[k]) {
        b.bounded[k] = 0;
        continue;
      }
      for (const std::vector<ElementBounds>& corner : at) {
        const ElementBounds& x = corner[r];
        if (!x.bounded[k] || NaNAt(x.lo, i) || NaNAt(x.hi, i)) {
          b.bounded[k] = 0;
          break;
        }
        if (OrderAt(x.lo, i) < OrderAt(b.lo, i)) SetBits(b.lo, i, BitsAt(x.lo, i));
        if (OrderAt(x.hi, i) > OrderAt(b.hi, i)) SetBits(b.hi, i, BitsAt(x.hi, i));
      }
      // A boolean that may be either bounds nothing.
      if (type == ElementType::kI1 && b.bounded[k] && !(OrderAt(b.lo, i) == OrderAt(b.hi, i))) {
        b.bounded[k] = 0;
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace hlocheck
