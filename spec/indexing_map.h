// Indexing maps as seed 004 (XLA's "HLO indexing analysis") defines them: an
// affine map from the multi-index d of one tensor (here always an op's
// output) to the index of another (one of its inputs), over symbols s that
// stand for range variables (dimensions the input has and the output lacks,
// e.g. the whole index vector a gather reads) and runtime variables (values
// read from an input while the op runs, e.g. a dynamic_slice offset), and a
// domain: inclusive box bounds on every variable plus constraints
// `lb <= expr <= ub`.
//
// Text form, as the seed writes it:
//   (d0, d1)[s0, s1] -> (d0 + s0, d1 floordiv 8, d1 mod 8)
//   domain: d0 in [0, 9], d1 in [0, 15], s0 in [0, 26],
//           s1 in [0, 3] (rt: start_indices at (d0, d1) -> (d0, 0)),
//           (d1 - 1) mod 2 in [0, 0]
// Symbols are numbered range variables first, then runtime variables (XLA's
// order). Expressions print as MLIR prints affine expressions.
#ifndef HLOCHECK_SPEC_INDEXING_MAP_H_
#define HLOCHECK_SPEC_INDEXING_MAP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace hlocheck::spec {

enum class AffineKind : uint8_t { kConstant, kDim, kSymbol, kAdd, kMul, kFloorDiv, kMod };

struct AffineNode;
using AffineExpr = std::shared_ptr<const AffineNode>;

struct AffineNode {
  AffineKind kind = AffineKind::kConstant;
  int64_t value = 0;  // kConstant: the constant; kDim, kSymbol: the position
  AffineExpr lhs;     // binary kinds
  AffineExpr rhs;
};

// Builders. They fold what MLIR's builders fold, so that parsing and printing
// agree with MLIR: constants combine, `x * 1`, `x + 0` and `x * 0` vanish,
// a constant operand of + and * moves to the right, (x * a) * b is x * (a*b).
// floordiv and mod need a positive constant divisor; Mul needs a constant
// factor. The callers (parser, instantiation) check before building.
AffineExpr AffineConstant(int64_t value);
AffineExpr AffineDim(int64_t position);
AffineExpr AffineSymbol(int64_t position);
AffineExpr AffineAdd(AffineExpr lhs, AffineExpr rhs);
AffineExpr AffineMul(AffineExpr lhs, AffineExpr rhs);
AffineExpr AffineFloorDiv(AffineExpr lhs, AffineExpr rhs);
AffineExpr AffineMod(AffineExpr lhs, AffineExpr rhs);

std::string PrintAffineExpr(const AffineExpr& expr);
bool IsConstant(const AffineExpr& expr, int64_t* value = nullptr);

// Inclusive bounds; empty when lower > upper.
struct Interval {
  int64_t lower = 0;
  int64_t upper = -1;
  bool empty() const { return lower > upper; }
  bool Contains(int64_t v) const { return lower <= v && v <= upper; }
  std::string ToString() const;  // "[0, 9]"
  bool operator==(const Interval&) const = default;
};

// The values an expression can take when dims and symbols range over their
// intervals (interval arithmetic: exact for sums of distinct variables).
Interval ExprRange(const AffineExpr& expr, std::span<const Interval> dims,
                   std::span<const Interval> symbols);

// Rewrites floordiv and mod using the variables' ranges, as XLA's simplifier
// does for reshape maps: terms whose coefficient the divisor divides leave
// the division, a remainder that stays below a common factor of the other
// coefficients drops out of floordiv and is split off from mod, and a
// floordiv or mod whose argument fits in one period disappears. Examples:
//   (d0 * 16 + d1 * 4 + d2) floordiv 8 -> d0 * 2 + d1 floordiv 2
//   (d1 * 4 + d2) mod 8                 -> d2 + (d1 mod 2) * 4   (d2 in [0, 3])
// The result equals the input on every point of the box.
AffineExpr SimplifyAffineExpr(const AffineExpr& expr, std::span<const Interval> dims,
                              std::span<const Interval> symbols);

struct AffineMap {
  int64_t num_dims = 0;
  int64_t num_symbols = 0;
  std::vector<AffineExpr> results;
  std::string ToString() const;  // (d0, d1)[s0] -> (d0 + s0, d1)
};

// A symbol whose value is read from an input while the op runs.
struct RuntimeVar {
  // The values the op's spec lets the variable take: what is read is
  // clamped into this interval (dynamic_slice, gather and
  // dynamic_update_slice clamp their start indices so the slice fits).
  Interval feasible;
  std::string operand;        // the op's input, e.g. start_indices
  int64_t element = -1;       // position within a variadic input; -1 for a plain one
  int64_t operand_index = 0;  // position in the case's flat operand list
  AffineMap access;           // output index -> index of the element holding the value
  // "start_indices[1]" or "start_indices".
  std::string SourceName() const;
};

struct Constraint {
  AffineExpr expr;
  Interval range;
};

// Reads the integer at `index` of the runtime variable's operand, saturated
// to int64_t (the value is then clamped into the variable's feasible range).
using RuntimeValueReader =
    std::function<absl::StatusOr<int64_t>(const RuntimeVar& var, std::span<const int64_t> index)>;

class IndexingMap {
 public:
  AffineMap map;
  std::vector<Interval> dim_vars;
  std::vector<Interval> range_vars;  // symbols s0 .. s{R-1}
  std::vector<RuntimeVar> rt_vars;   // symbols sR ..
  std::vector<Constraint> constraints;

  // All symbol intervals in symbol order: range vars, then rt vars' feasible ranges.
  std::vector<Interval> SymbolBounds() const;

  std::string DomainToString() const;  // d0 in [0, 9], s0 in [0, 1] (rt: ...), expr in [lb, ub]
  std::string ToString() const;        // MAP; domain: DOMAIN

  // Calls `visit` with the input index of every point of the domain whose
  // dims are `dims`: one per assignment of the range variables that meets
  // the constraints (runtime variables read and clamped first). Nothing
  // when `dims` is outside the dims' bounds.
  absl::Status ForEachPoint(std::span<const int64_t> dims, const RuntimeValueReader& read,
                            const std::function<void(std::span<const int64_t>)>& visit) const;

  // For a map without range variables: the input index for `dims`, or
  // nullopt when `dims` is not in the domain.
  absl::StatusOr<std::optional<std::vector<int64_t>>> Evaluate(
      std::span<const int64_t> dims, const RuntimeValueReader& read) const;
};

// The value of an expression at a point; floordiv and mod round towards
// negative infinity, as in MLIR.
int64_t EvaluateAffineExpr(const AffineExpr& expr, std::span<const int64_t> dims,
                           std::span<const int64_t> symbols);

// Parsing. Errors say where (a 0-based offset into the text, also in the
// message as "at offset N") and what was expected there.
struct AffineParseError {
  int offset = 0;
  std::string message;
};
absl::StatusOr<AffineExpr> ParseAffineExpr(std::string_view text, int64_t num_dims,
                                           int64_t num_symbols, AffineParseError* error = nullptr);
absl::StatusOr<AffineMap> ParseAffineMap(std::string_view text, AffineParseError* error = nullptr);
// "MAP; domain: ITEMS", the form ToString prints (a map without variables
// may leave the domain out). Every variable needs a bound: its first item;
// a later item on the same variable is a constraint. A symbol with an
// "(rt: ...)" source is a runtime variable, the others range variables,
// which come first.
absl::StatusOr<IndexingMap> ParseIndexingMap(std::string_view text,
                                             AffineParseError* error = nullptr);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_INDEXING_MAP_H_
