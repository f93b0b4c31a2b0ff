#include "spec/indexing_map.h"

#include <algorithm>
#include <limits>

#include "absl/status/status.h"
#include "core/status_macros.h"

namespace hlocheck::spec {

namespace {

AffineExpr Node(AffineKind kind, int64_t value, AffineExpr lhs = nullptr,
                AffineExpr rhs = nullptr) {
  return std::make_shared<const AffineNode>(
      AffineNode{kind, value, std::move(lhs), std::move(rhs)});
}

// Floor division and modulo (the result of mod has the divisor's sign), as
// MLIR's floordiv and mod; `divisor` is never 0 here.
int64_t FloorDiv(int64_t a, int64_t divisor) {
  int64_t q = a / divisor;
  if ((a % divisor != 0) && ((a < 0) != (divisor < 0))) --q;
  return q;
}
int64_t FloorMod(int64_t a, int64_t divisor) { return a - FloorDiv(a, divisor) * divisor; }

}  // namespace

bool IsConstant(const AffineExpr& expr, int64_t* value) {
  if (expr->kind != AffineKind::kConstant) return false;
  if (value != nullptr) *value = expr->value;
  return true;
}

AffineExpr AffineConstant(int64_t value) { return Node(AffineKind::kConstant, value); }
AffineExpr AffineDim(int64_t position) { return Node(AffineKind::kDim, position); }
AffineExpr AffineSymbol(int64_t position) { return Node(AffineKind::kSymbol, position); }

AffineExpr AffineAdd(AffineExpr lhs, AffineExpr rhs) {
  int64_t a, b;
  if (IsConstant(lhs, &a) && IsConstant(rhs, &b)) return AffineConstant(a + b);
  if (IsConstant(lhs)) std::swap(lhs, rhs);
  if (IsConstant(rhs, &b)) {
    if (b == 0) return lhs;
    if (lhs->kind == AffineKind::kAdd && IsConstant(lhs->rhs, &a)) {
      return AffineAdd(lhs->lhs, AffineConstant(a + b));
    }
  }
  return Node(AffineKind::kAdd, 0, std::move(lhs), std::move(rhs));
}

AffineExpr AffineMul(AffineExpr lhs, AffineExpr rhs) {
  int64_t a, b;
  if (IsConstant(lhs, &a) && IsConstant(rhs, &b)) return AffineConstant(a * b);
  if (IsConstant(lhs)) std::swap(lhs, rhs);
  if (IsConstant(rhs, &b)) {
    if (b == 1) return lhs;
    if (b == 0) return rhs;
    if (lhs->kind == AffineKind::kMul && IsConstant(lhs->rhs, &a)) {
      return AffineMul(lhs->lhs, AffineConstant(a * b));
    }
  }
  return Node(AffineKind::kMul, 0, std::move(lhs), std::move(rhs));
}

AffineExpr AffineFloorDiv(AffineExpr lhs, AffineExpr rhs) {
  int64_t a, b;
  if (IsConstant(rhs, &b) && b != 0) {
    if (IsConstant(lhs, &a)) return AffineConstant(FloorDiv(a, b));
    if (b == 1) return lhs;
  }
  return Node(AffineKind::kFloorDiv, 0, std::move(lhs), std::move(rhs));
}

AffineExpr AffineMod(AffineExpr lhs, AffineExpr rhs) {
  int64_t a, b;
  if (IsConstant(rhs, &b) && b != 0) {
    if (IsConstant(lhs, &a)) return AffineConstant(FloorMod(a, b));
    if (b == 1) return AffineConstant(0);
  }
  return Node(AffineKind::kMod, 0, std::move(lhs), std::move(rhs));
}

namespace {

// MLIR's AsmPrinter::printAffineExprInternal: a strong context (an operand
// of *, floordiv or mod) parenthesises any binary expression; x * -1 prints
// as -x, and x + y * -c, x + -c print as subtractions.
void Print(const AffineExpr& e, bool strong, std::string& out) {
  switch (e->kind) {
    case AffineKind::kConstant:
      out += std::to_string(e->value);
      return;
    case AffineKind::kDim:
      out += "d" + std::to_string(e->value);
      return;
    case AffineKind::kSymbol:
      out += "s" + std::to_string(e->value);
      return;
    default:
      break;
  }
  if (strong) out += '(';
  int64_t c;
  if (e->kind == AffineKind::kAdd) {
    const AffineExpr& rhs = e->rhs;
    if (rhs->kind == AffineKind::kMul && IsConstant(rhs->rhs, &c) && c <= -1) {
      Print(e->lhs, false, out);
      out += " - ";
      if (c == -1) {
        Print(rhs->lhs, rhs->lhs->kind == AffineKind::kAdd, out);
      } else {
        Print(rhs->lhs, true, out);
        out += " * " + std::to_string(-c);
      }
    } else if (IsConstant(rhs, &c) && c < 0) {
      Print(e->lhs, false, out);
      out += " - " + std::to_string(-c);
    } else {
      Print(e->lhs, false, out);
      out += " + ";
      Print(rhs, false, out);
    }
  } else if (e->kind == AffineKind::kMul && IsConstant(e->rhs, &c) && c == -1) {
    out += "-";
    Print(e->lhs, true, out);
  } else {
    Print(e->lhs, true, out);
    out += e->kind == AffineKind::kMul        ? " * "
           : e->kind == AffineKind::kFloorDiv ? " floordiv "
                                              : " mod ";
    Print(e->rhs, true, out);
  }
  if (strong) out += ')';
}

std::string VariableList(char letter, int64_t count) {
  std::string out;
  for (int64_t i = 0; i < count; ++i) {
    if (i > 0) out += ", ";
    out += letter + std::to_string(i);
  }
  return out;
}

const Interval kEmpty{0, -1};

}  // namespace

std::string PrintAffineExpr(const AffineExpr& expr) {
  std::string out;
  Print(expr, false, out);
  return out;
}

std::string Interval::ToString() const {
  return "[" + std::to_string(lower) + ", " + std::to_string(upper) + "]";
}

Interval ExprRange(const AffineExpr& e, std::span<const Interval> dims,
                   std::span<const Interval> symbols) {
  switch (e->kind) {
    case AffineKind::kConstant:
      return {e->value, e->value};
    case AffineKind::kDim:
      return e->value < static_cast<int64_t>(dims.size()) ? dims[e->value] : kEmpty;
    case AffineKind::kSymbol:
      return e->value < static_cast<int64_t>(symbols.size()) ? symbols[e->value] : kEmpty;
    default:
      break;
  }
  Interval lhs = ExprRange(e->lhs, dims, symbols);
  if (lhs.empty()) return kEmpty;
  if (e->kind == AffineKind::kAdd) {
    Interval rhs = ExprRange(e->rhs, dims, symbols);
    if (rhs.empty()) return kEmpty;
    return {lhs.lower + rhs.lower, lhs.upper + rhs.upper};
  }
  int64_t c = 0;
  if (!IsConstant(e->rhs, &c) || (e->kind != AffineKind::kMul && c <= 0)) {
    return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
  switch (e->kind) {
    case AffineKind::kMul:
      return c >= 0 ? Interval{lhs.lower * c, lhs.upper * c}
                    : Interval{lhs.upper * c, lhs.lower * c};
    case AffineKind::kFloorDiv:
      return {FloorDiv(lhs.lower, c), FloorDiv(lhs.upper, c)};
    default:  // kMod
      if (FloorDiv(lhs.lower, c) == FloorDiv(lhs.upper, c)) {
        return {FloorMod(lhs.lower, c), FloorMod(lhs.upper, c)};
      }
      return {0, c - 1};
  }
}

int64_t EvaluateAffineExpr(const AffineExpr& e, std::span<const int64_t> dims,
                           std::span<const int64_t> symbols) {
  switch (e->kind) {
    case AffineKind::kConstant:
      return e->value;
    case AffineKind::kDim:
      return dims[e->value];
    case AffineKind::kSymbol:
      return symbols[e->value];
    default:
      break;
  }
  int64_t a = EvaluateAffineExpr(e->lhs, dims, symbols);
  int64_t b = EvaluateAffineExpr(e->rhs, dims, symbols);
  switch (e->kind) {
    case AffineKind::kAdd:
      return a + b;
    case AffineKind::kMul:
      return a * b;
    case AffineKind::kFloorDiv:
      return FloorDiv(a, b);
    default:
      return FloorMod(a, b);
  }
}

std::string AffineMap::ToString() const {
  std::string out = "(" + VariableList('d', num_dims) + ")";
  if (num_symbols > 0) out += "[" + VariableList('s', num_symbols) + "]";
  out += " -> (";
  for (size_t i = 0; i < results.size(); ++i) {
    if (i > 0) out += ", ";
    out += PrintAffineExpr(results[i]);
  }
  return out + ")";
}

std::string RuntimeVar::SourceName() const {
  return element >= 0 ? operand + "[" + std::to_string(element) + "]" : operand;
}

std::vector<Interval> IndexingMap::SymbolBounds() const {
  std::vector<Interval> bounds = range_vars;
  for (const RuntimeVar& rt : rt_vars) bounds.push_back(rt.feasible);
  return bounds;
}

std::string IndexingMap::DomainToString() const {
  std::vector<std::string> items;
  for (size_t i = 0; i < dim_vars.size(); ++i) {
    items.push_back("d" + std::to_string(i) + " in " + dim_vars[i].ToString());
  }
  for (size_t i = 0; i < range_vars.size(); ++i) {
    items.push_back("s" + std::to_string(i) + " in " + range_vars[i].ToString());
  }
  for (size_t i = 0; i < rt_vars.size(); ++i) {
    const RuntimeVar& rt = rt_vars[i];
    items.push_back("s" + std::to_string(range_vars.size() + i) + " in " + rt.feasible.ToString() +
                    " (rt: " + rt.SourceName() + " at " + rt.access.ToString() + ")");
  }
  for (const Constraint& c : constraints) {
    items.push_back(PrintAffineExpr(c.expr) + " in " + c.range.ToString());
  }
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string IndexingMap::ToString() const {
  std::string domain = DomainToString();
  return domain.empty() ? map.ToString() : map.ToString() + "; domain: " + domain;
}

absl::Status IndexingMap::ForEachPoint(
    std::span<const int64_t> dims, const RuntimeValueReader& read,
    const std::function<void(std::span<const int64_t>)>& visit) const {
  if (static_cast<int64_t>(dims.size()) != map.num_dims || dim_vars.size() != dims.size()) {
    return absl::InvalidArgumentError("an index of rank " + std::to_string(dims.size()) +
                                      " for a map of " + std::to_string(map.num_dims) + " dims");
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!dim_vars[i].Contains(dims[i])) return absl::OkStatus();
  }
  std::vector<int64_t> symbols(range_vars.size() + rt_vars.size());
  for (size_t i = 0; i < rt_vars.size(); ++i) {
    const RuntimeVar& rt = rt_vars[i];
    if (rt.feasible.empty()) return absl::OkStatus();
    std::vector<int64_t> at;
    for (const AffineExpr& e : rt.access.results) at.push_back(EvaluateAffineExpr(e, dims, {}));
    absl::StatusOr<int64_t> value = read(rt, at);
    HLOCHECK_RETURN_IF_ERROR(value.status());
    symbols[range_vars.size() + i] = std::clamp(*value, rt.feasible.lower, rt.feasible.upper);
  }
  for (size_t i = 0; i < range_vars.size(); ++i) {
    if (range_vars[i].empty()) return absl::OkStatus();
    symbols[i] = range_vars[i].lower;
  }
  std::vector<int64_t> point(map.results.size());
  while (true) {
    bool holds = std::all_of(constraints.begin(), constraints.end(), [&](const Constraint& c) {
      return c.range.Contains(EvaluateAffineExpr(c.expr, dims, symbols));
    });
    if (holds) {
      for (size_t r = 0; r < point.size(); ++r) {
        point[r] = EvaluateAffineExpr(map.results[r], dims, symbols);
      }
      visit(point);
    }
    // The next assignment of the range variables, the last fastest.
    size_t i = range_vars.size();
    while (i > 0 && symbols[i - 1] == range_vars[i - 1].upper) {
      symbols[i - 1] = range_vars[i - 1].lower;
      --i;
    }
    if (i == 0) return absl::OkStatus();
    ++symbols[i - 1];
  }
}

absl::StatusOr<std::optional<std::vector<int64_t>>> IndexingMap::Evaluate(
    std::span<const int64_t> dims, const RuntimeValueReader& read) const {
  if (!range_vars.empty()) {
    return absl::InvalidArgumentError(
        "a map with range variables gives several indices; use ForEachPoint");
  }
  std::optional<std::vector<int64_t>> result;
  absl::Status status = ForEachPoint(dims, read, [&](std::span<const int64_t> point) {
    result.emplace(point.begin(), point.end());
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return result;
}

}  // namespace hlocheck::spec
