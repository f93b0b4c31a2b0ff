// Evaluation of the formula notation. One evaluator serves the verifier
// (constraints over an op instance), the generators (recipes, with random
// choice functions added) and the coverage report.
#ifndef HLOCHECK_SPEC_FORMULA_EVALUATOR_H_
#define HLOCHECK_SPEC_FORMULA_EVALUATOR_H_

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "spec/formula/ast.h"
#include "spec/formula/value.h"

namespace hlocheck::spec {

class Evaluator;

using Function = std::function<absl::StatusOr<Value>(std::span<const Value> args)>;

// Hashes names for the evaluator's tables, looked up by string_view without
// a copy. Hashed, not ordered: the generators and the verifier look names
// up millions of times a gate run.
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
};
template <typename T>
using NameTable = std::unordered_map<std::string, T, NameHash, std::equal_to<>>;

// Named functions callable from formulas. The spec's global functions are in
// SpecFunctions(); generators extend a copy with their random choices.
class FunctionTable {
 public:
  void Register(std::string name, Function function);
  const Function* Find(std::string_view name) const;
  std::vector<std::string> Names() const;

 private:
  NameTable<Function> functions_;
};

// rank, dim, dims, shape, size, axes, type, element_type, baseline_type,
// baseline_element_type, is_unique, is_sorted, same, range, ceil, floor,
// min, max, ... (see functions.cc for the full list and their meaning).
const FunctionTable& SpecFunctions();

// The values of the sub-expressions that decided an evaluation, in source
// order: what a violation report shows ("slice_sizes = [2, 5]").
struct TraceEntry {
  std::string text;
  Value value;
};
using Trace = std::vector<TraceEntry>;

struct EvalError {
  int offset = 0;  // byte offset into the formula text
  std::string message;
};

class Evaluator {
 public:
  explicit Evaluator(const FunctionTable* functions = &SpecFunctions()) : functions_(functions) {}

  // A name of the op instance: an operand or result (a type), an attribute
  // (its value), or a variadic operand (a list of types).
  void SetMember(std::string name, Value value);
  const Value* FindMember(std::string_view name) const;

  // A named local definition from the spec (e.g. dot_general's
  // lhs_result_dimensions), evaluated on first use.
  void AddDefinition(std::string name, ExprPtr expr, std::string formula_text);

  absl::StatusOr<Value> Evaluate(const Expr& expr, std::string_view formula_text,
                                 Trace* trace = nullptr, EvalError* error = nullptr);

  // Parses and evaluates in one step (tests, the CLI).
  absl::StatusOr<Value> EvaluateText(std::string_view formula_text, Trace* trace = nullptr);

 private:
  struct Definition {
    ExprPtr expr;
    std::string text;
    std::optional<Value> value;
    bool in_progress = false;
  };
  friend class EvalRun;

  const FunctionTable* functions_;
  NameTable<Value> members_;
  NameTable<Definition> definitions_;
};

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_FORMULA_EVALUATOR_H_
