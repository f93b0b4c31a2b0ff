// Syntax tree of the spec's formula notation (seed 002, "Notation"): Python
// expressions with `=` for equality, `f(xs...)` for mapping f over xs,
// implicit broadcasting of scalars, and a C-style `c ? a : b`.
#ifndef HLOCHECK_SPEC_FORMULA_AST_H_
#define HLOCHECK_SPEC_FORMULA_AST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hlocheck::spec {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

enum class ExprKind : uint8_t {
  kInt,            // 42
  kFloat,          // 1.5
  kBool,           // true / True
  kString,         // "text"
  kNone,           // None
  kName,           // lhs, rank
  kList,           // [a, b]
  kComprehension,  // [body for v in iterable if condition]
  kCall,           // f(a, xs...)
  kIndex,          // x[i]
  kSlice,          // x[a:b], x[:, 0] (one axis per slice item)
  kUnary,          // -x, not x
  kBinary,         // a + b, a and b
  kCompare,        // a = b < c (a chain)
  kConditional,    // a if c else b, c ? a : b
};

struct SliceItem {
  bool is_range = false;  // a:b rather than a single index
  ExprPtr index;          // when !is_range
  ExprPtr start;          // may be null
  ExprPtr stop;           // may be null
};

struct Expr {
  explicit Expr(ExprKind k) : kind(k) {}

  ExprKind kind;
  int begin = 0;  // byte offsets into the formula text, for messages
  int end = 0;

  int64_t int_value = 0;
  double float_value = 0;
  bool bool_value = false;
  std::string text;  // names, string literals, operators ("+", "and", "not", "<=", ...)

  std::vector<ExprPtr> children;         // list items, call arguments, operands, compare chain
  std::vector<bool> expand;              // per call argument: written `x...`
  std::vector<std::string> compare_ops;  // kCompare: ops between consecutive children

  // kComprehension: children[0] is the body, children[1] the iterable,
  // children[2] the optional condition; loop_variables are the names bound.
  std::vector<std::string> loop_variables;
  // kSlice: children[0] is the sliced value.
  std::vector<SliceItem> slice_items;
};

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_FORMULA_AST_H_
