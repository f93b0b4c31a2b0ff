// Range-aware rewriting of floordiv and mod (SimplifyAffineExpr). Each rule
// is an identity on integers given the variables' ranges; the comments give
// the argument.
#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "spec/indexing_map.h"

namespace hlocheck::spec {

namespace {

// A sum as its terms atom * coefficient, in order, plus a constant.
struct Term {
  AffineExpr atom;
  int64_t coefficient;
};
struct Sum {
  std::vector<Term> terms;
  int64_t constant = 0;
};

void Flatten(const AffineExpr& e, Sum& sum) {
  int64_t c = 0;
  if (e->kind == AffineKind::kAdd) {
    Flatten(e->lhs, sum);
    Flatten(e->rhs, sum);
  } else if (IsConstant(e, &c)) {
    sum.constant += c;
  } else if (e->kind == AffineKind::kMul && IsConstant(e->rhs, &c)) {
    sum.terms.push_back({e->lhs, c});
  } else {
    sum.terms.push_back({e, 1});
  }
}

AffineExpr Rebuild(const std::vector<Term>& terms, int64_t constant) {
  AffineExpr result = AffineConstant(0);
  for (const Term& t : terms) {
    result = AffineAdd(result, AffineMul(t.atom, AffineConstant(t.coefficient)));
  }
  return AffineAdd(result, AffineConstant(constant));
}

bool SameExpr(const AffineExpr& a, const AffineExpr& b) {
  if (a == b) return true;
  if (a->kind != b->kind || a->value != b->value) return false;
  if (a->lhs == nullptr) return true;
  return SameExpr(a->lhs, b->lhs) && SameExpr(a->rhs, b->rhs);
}

// The sum with equal atoms combined (the first occurrence keeps its place)
// and terms whose coefficients cancel dropped.
AffineExpr Linear(const Sum& sum) {
  std::vector<Term> merged;
  for (const Term& t : sum.terms) {
    auto same = std::find_if(merged.begin(), merged.end(),
                             [&](const Term& m) { return SameExpr(m.atom, t.atom); });
    if (same == merged.end()) {
      merged.push_back(t);
    } else {
      same->coefficient += t.coefficient;
    }
  }
  std::erase_if(merged, [](const Term& t) { return t.coefficient == 0; });
  return Rebuild(merged, sum.constant);
}

int64_t FloorDivide(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

class Simplifier {
 public:
  Simplifier(std::span<const Interval> dims, std::span<const Interval> symbols)
      : dims_(dims), symbols_(symbols) {}

  AffineExpr Simplify(const AffineExpr& e) {
    int64_t c = 0;
    switch (e->kind) {
      case AffineKind::kAdd: {
        Sum sum;
        Flatten(Simplify(e->lhs), sum);
        Flatten(Simplify(e->rhs), sum);
        return Linear(sum);
      }
      case AffineKind::kMul: {
        AffineExpr lhs = Simplify(e->lhs);
        if (lhs->kind == AffineKind::kAdd && IsConstant(e->rhs, &c)) {
          // (a + b) * c = a * c + b * c.
          Sum sum;
          Flatten(lhs, sum);
          for (Term& t : sum.terms) t.coefficient *= c;
          sum.constant *= c;
          return Linear(sum);
        }
        return AffineMul(lhs, Simplify(e->rhs));
      }
      case AffineKind::kFloorDiv:
        if (IsConstant(e->rhs, &c) && c > 0) return FloorDiv(Simplify(e->lhs), c);
        return e;
      case AffineKind::kMod:
        if (IsConstant(e->rhs, &c) && c > 0) return Mod(Simplify(e->lhs), c);
        return e;
      default:
        return e;
    }
  }

 private:
  Interval Range(const AffineExpr& e) const { return ExprRange(e, dims_, symbols_); }

  // The period of `divisor` that holds every value of `e`, if one does.
  std::optional<int64_t> SinglePeriod(const AffineExpr& e, int64_t divisor) const {
    Interval r = Range(e);
    int64_t first = FloorDivide(r.lower, divisor);
    if (r.empty() || first != FloorDivide(r.upper, divisor)) return std::nullopt;
    return first;
  }

  // A split of `rest` into large terms L, whose coefficients share a factor
  // g > 1 with the divisor, and the small rest S (the other terms and the
  // constant) with every value in [0, g - 1]. Tried with L the 1, 2, ...
  // terms of largest coefficient.
  struct Split {
    int64_t g;
    std::vector<Term> large_over_g;  // L / g
    std::vector<Term> small;
  };
  std::optional<Split> FindSplit(const Sum& rest, int64_t divisor) const {
    std::vector<size_t> order(rest.terms.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::abs(rest.terms[a].coefficient) > std::abs(rest.terms[b].coefficient);
    });
    int64_t g = divisor;
    std::vector<bool> large(rest.terms.size(), false);
    for (size_t t = 0; t < order.size(); ++t) {
      g = std::gcd(g, std::abs(rest.terms[order[t]].coefficient));
      if (g <= 1) return std::nullopt;
      large[order[t]] = true;
      Split split{g, {}, {}};
      for (size_t i = 0; i < rest.terms.size(); ++i) {  // in the sum's own order
        const Term& term = rest.terms[i];
        if (large[i]) {
          split.large_over_g.push_back({term.atom, term.coefficient / g});
        } else {
          split.small.push_back(term);
        }
      }
      Interval r = Range(Rebuild(split.small, rest.constant));
      if (!r.empty() && r.lower >= 0 && r.upper < g) return split;
    }
    return std::nullopt;
  }

  // Terms whose coefficient `divisor` divides, and the rest.
  static std::pair<std::vector<Term>, Sum> Divisible(const Sum& sum, int64_t divisor) {
    std::vector<Term> divisible;
    Sum rest;
    rest.constant = sum.constant;
    for (const Term& t : sum.terms) {
      if (t.coefficient % divisor == 0) {
        divisible.push_back(t);
      } else {
        rest.terms.push_back(t);
      }
    }
    return {divisible, rest};
  }

  AffineExpr FloorDiv(const AffineExpr& x, int64_t c) {
    if (std::optional<int64_t> period = SinglePeriod(x, c)) return AffineConstant(*period);
    Sum sum;
    Flatten(x, sum);
    auto [divisible, rest] = Divisible(sum, c);
    // (c * A + R) floordiv c = A + R floordiv c.
    for (Term& t : divisible) t.coefficient /= c;
    AffineExpr outside = Rebuild(divisible, 0);
    AffineExpr rest_expr = Rebuild(rest.terms, rest.constant);
    AffineExpr rest_quotient;
    if (std::optional<int64_t> period = SinglePeriod(rest_expr, c)) {
      rest_quotient = AffineConstant(*period);
    } else if (std::optional<Split> split = FindSplit(rest, c)) {
      // (g * L' + S) floordiv (g * c') = L' floordiv c' when 0 <= S < g:
      // g * L' is a multiple of g, so adding S never crosses a multiple of g * c'.
      rest_quotient = FloorDiv(Rebuild(split->large_over_g, 0), c / split->g);
    } else if (divisible.empty()) {
      return AffineFloorDiv(x, AffineConstant(c));
    } else {
      rest_quotient = AffineFloorDiv(rest_expr, AffineConstant(c));
    }
    return AffineAdd(outside, rest_quotient);
  }

  AffineExpr Mod(const AffineExpr& x, int64_t c) {
    if (std::optional<int64_t> period = SinglePeriod(x, c)) {
      return AffineAdd(x, AffineConstant(-*period * c));
    }
    Sum sum;
    Flatten(x, sum);
    // (c * A + R) mod c = R mod c.
    auto [divisible, rest] = Divisible(sum, c);
    AffineExpr rest_expr = Rebuild(rest.terms, rest.constant);
    if (std::optional<int64_t> period = SinglePeriod(rest_expr, c)) {
      return AffineAdd(rest_expr, AffineConstant(-*period * c));
    }
    if (std::optional<Split> split = FindSplit(rest, c)) {
      // (g * L' + S) mod (g * c') = S + (L' mod c') * g when 0 <= S < g.
      return AffineAdd(
          Rebuild(split->small, rest.constant),
          AffineMul(Mod(Rebuild(split->large_over_g, 0), c / split->g), AffineConstant(split->g)));
    }
    if (divisible.empty()) return AffineMod(x, AffineConstant(c));
    return AffineMod(rest_expr, AffineConstant(c));
  }

  std::span<const Interval> dims_;
  std::span<const Interval> symbols_;
};

}  // namespace

AffineExpr SimplifyAffineExpr(const AffineExpr& expr, std::span<const Interval> dims,
                              std::span<const Interval> symbols) {
  // With an empty box there is no point on which to keep the value, and
  // the range rules would reason about nothing.
  auto empty = [](const Interval& i) { return i.empty(); };
  if (std::any_of(dims.begin(), dims.end(), empty) ||
      std::any_of(symbols.begin(), symbols.end(), empty)) {
    return expr;
  }
  return Simplifier(dims, symbols).Simplify(expr);
}

}  // namespace hlocheck::spec
