#include "runners/program_bounds.h"

#include <cmath>
#include <cstring>
#include <set>

#include "core/exact_value.h"
#include "core/literal.h"

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

bool NaNAt(const Tensor& t, int64_t i) { return IsNaNBits(Format(t.element_type()), BitsAt(t, i)); }

// `bits` moved `steps` ULPs down (or up), stopping at an infinity.
uint64_t Step(const FloatFormat& format, uint64_t bits, int steps, bool down) {
  for (int s = 0; s < steps; ++s) {
    const double v = DecodeFloat(format, bits).ToDouble();
    if (std::isinf(v) && ((v < 0) == down)) break;
    bits = NextFloatBits(format, bits, down);
  }
  return bits;
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
  if (!IsFloat(actual.element_type())) return BitsAt(actual, index) == BitsAt(lo, index);
  if (NaNAt(lo, index) || NaNAt(hi, index)) return NaNAt(actual, index);
  if (NaNAt(actual, index)) return false;
  const double v = ValueAt(actual, index);
  return ValueAt(lo, index) <= v && v <= ValueAt(hi, index);
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
      "round_nearest_even", "round_nearest_afz", "reduce_precision", "negate"};
  if (monotone.count(op)) return CornerPolicy::kMonotone;
  if (op == "subtract") return CornerPolicy::kSubtract;
  if (op == "multiply" || op == "divide") return CornerPolicy::kBilinear;
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
    if (open || (!exact && (!real || e.check != Check::kUlp))) {
      b.bounded[k] = 0;
      continue;
    }
    if (exact) continue;
    const FloatFormat& format = Format(ref.element_type());
    const uint64_t bits = BitsAt(ref, i);
    if (IsNaNBits(format, bits)) continue;  // a NaN, as exact: only a NaN holds
    SetBits(b.lo, i, Step(format, bits, e.allowed_ulp, /*down=*/true));
    SetBits(b.hi, i, Step(format, bits, e.allowed_ulp, /*down=*/false));
  }
  return b;
}

std::vector<ElementBounds> PropagateBounds(const Case& c,
                                           const std::vector<ElementBounds>& operand_bounds,
                                           CornerPolicy policy, const CaseCompute& compute) {
  std::vector<ElementBounds> none;
  for (const TensorType& type : c.result_types) none.push_back(ElementBounds::None(Tensor(type)));
  if (policy == CornerPolicy::kNone || operand_bounds.size() != c.operands.size()) return none;
  // Non-float operands (indices, predicates) must be exact: the corners
  // vary the float ones only.
  for (size_t k = 0; k < c.operands.size(); ++k) {
    const ElementBounds& b = operand_bounds[k];
    if (IsFloat(c.operands[k].element_type())) continue;
    for (uint8_t x : b.bounded) {
      if (!x) return none;
    }
    if (!b.lo.BitwiseEquals(b.hi)) return none;
  }
  for (const Tensor& operand : c.operands) {
    if (IsComplex(operand.element_type())) return none;
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
    case CornerPolicy::kNone:
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
    if (!IsFloat(c.result_types[r].element_type)) {
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
        if (ValueAt(x.lo, i) < ValueAt(b.lo, i)) SetBits(b.lo, i, BitsAt(x.lo, i));
        if (ValueAt(x.hi, i) > ValueAt(b.hi, i)) SetBits(b.hi, i, BitsAt(x.hi, i));
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace hlocheck
