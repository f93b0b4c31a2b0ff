#include "spec/formula/evaluator.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "spec/formula/operators.h"
#include "spec/formula/parser.h"

namespace hlocheck::spec {

void FunctionTable::Register(std::string name, Function function) {
  functions_[std::move(name)] = std::move(function);
}

const Function* FunctionTable::Find(std::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : &it->second;
}

std::vector<std::string> FunctionTable::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, function] : functions_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

void Evaluator::SetMember(std::string name, Value value) {
  members_[std::move(name)] = std::move(value);
}

const Value* Evaluator::FindMember(std::string_view name) const {
  auto it = members_.find(name);
  return it == members_.end() ? nullptr : &it->second;
}

void Evaluator::AddDefinition(std::string name, ExprPtr expr, std::string formula_text) {
  definitions_[std::move(name)] = Definition{std::move(expr), std::move(formula_text), {}, false};
}

namespace {

// EQ, FLOAT, THREE_FRY: two or more capitals (single capitals such as N
// are the spec's local names, which must be defined).
bool IsEnumeratorName(std::string_view name) {
  if (name.size() < 2) return false;
  for (char c : name) {
    if (!std::isupper(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

}  // namespace

// One evaluation of one formula: carries the source text (for messages and
// traces) and the comprehension variables in scope.
class EvalRun {
 public:
  EvalRun(Evaluator& evaluator, std::string_view text, Trace* trace)
      : evaluator_(evaluator), text_(text), trace_(trace) {}

  absl::StatusOr<Value> Eval(const Expr& expr) {
    absl::StatusOr<Value> result = EvalUntraced(expr);
    if (result.ok() && trace_ != nullptr &&
        (expr.kind == ExprKind::kName || expr.kind == ExprKind::kCall ||
         expr.kind == ExprKind::kIndex || expr.kind == ExprKind::kSlice)) {
      Record(expr, *result);
    }
    return result;
  }

  const EvalError& error() const { return error_; }

 private:
  absl::Status Fail(const Expr& expr, std::string message) {
    error_ = {expr.begin, message};
    return absl::InvalidArgumentError("column " + std::to_string(expr.begin + 1) + ": " + message +
                                      " (in '" + std::string(ExprText(text_, expr)) + "')");
  }

  absl::Status Wrap(const Expr& expr, const absl::Status& status) {
    if (status.ok() || !error_.message.empty()) return status;
    return Fail(expr, std::string(status.message()));
  }

  void Record(const Expr& expr, const Value& value) {
    std::string text(ExprText(text_, expr));
    for (const TraceEntry& entry : *trace_) {
      if (entry.text == text) return;
    }
    trace_->push_back({std::move(text), value});
  }

  const Value* FindLocal(std::string_view name) const {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
      if (it->first == name) return &it->second;
    }
    return nullptr;
  }

  absl::StatusOr<Value> LookupName(const Expr& expr) {
    if (const Value* local = FindLocal(expr.text)) return *local;
    if (const Value* member = evaluator_.FindMember(expr.text)) return *member;
    auto definition = evaluator_.definitions_.find(expr.text);
    if (definition != evaluator_.definitions_.end()) {
      Evaluator::Definition& d = definition->second;
      if (d.value.has_value()) return *d.value;
      if (d.in_progress) return Fail(expr, "definition of '" + expr.text + "' refers to itself");
      d.in_progress = true;
      EvalRun inner(evaluator_, d.text, nullptr);
      absl::StatusOr<Value> value = inner.Eval(*d.expr);
      d.in_progress = false;
      if (!value.ok()) {
        return Fail(expr, "in definition '" + expr.text + " = " + d.text +
                              "': " + std::string(value.status().message()));
      }
      d.value = *value;
      return *value;
    }
    if (evaluator_.functions_->Find(expr.text) != nullptr) {
      return Fail(expr, "'" + expr.text + "' is a function; call it with arguments");
    }
    // The spec writes enumerators bare: compare_type = FLOAT.
    if (IsEnumeratorName(expr.text)) return Value(EnumValue{expr.text});
    return Fail(expr, "unknown name '" + expr.text + "'");
  }

  absl::StatusOr<Value> EvalUntraced(const Expr& expr) {
    switch (expr.kind) {
      case ExprKind::kInt:
        return Value(expr.int_value);
      case ExprKind::kFloat:
        return Value(expr.float_value);
      case ExprKind::kBool:
        return Value(expr.bool_value);
      case ExprKind::kString:
        return Value(expr.text);
      case ExprKind::kNone:
        return Value(NoneValue{});
      case ExprKind::kName:
        return LookupName(expr);
      case ExprKind::kList: {
        std::vector<Value> items;
        for (const ExprPtr& child : expr.children) {
          auto item = Eval(*child);
          if (!item.ok()) return item;
          items.push_back(*std::move(item));
        }
        return Value(std::move(items));
      }
      case ExprKind::kComprehension:
        return EvalComprehension(expr);
      case ExprKind::kCall:
        return EvalCall(expr);
      case ExprKind::kIndex:
        return EvalIndex(expr);
      case ExprKind::kSlice: {
        auto target = Eval(*expr.children[0]);
        if (!target.ok()) return target;
        return EvalSlice(expr, *target, 0);
      }
      case ExprKind::kUnary: {
        auto operand = Eval(*expr.children[0]);
        if (!operand.ok()) return operand;
        if (expr.text == "not") return Value(!operand->Holds());
        auto result = ApplyUnary(expr.text, *operand);
        if (!result.ok()) return Wrap(expr, result.status());
        return result;
      }
      case ExprKind::kBinary:
        return EvalBinary(expr);
      case ExprKind::kCompare:
        return EvalCompare(expr);
      case ExprKind::kConditional: {
        auto condition = Eval(*expr.children[0]);
        if (!condition.ok()) return condition;
        return Eval(condition->Holds() ? *expr.children[1] : *expr.children[2]);
      }
    }
    return Fail(expr, "unknown expression");
  }

  absl::StatusOr<Value> EvalBinary(const Expr& expr) {
    auto lhs = Eval(*expr.children[0]);
    if (!lhs.ok()) return lhs;
    if (expr.text == "and") {
      if (!lhs->Holds()) return Value(false);
      auto rhs = Eval(*expr.children[1]);
      if (!rhs.ok()) return rhs;
      return Value(rhs->Holds());
    }
    if (expr.text == "or") {
      if (lhs->Holds()) return Value(true);
      auto rhs = Eval(*expr.children[1]);
      if (!rhs.ok()) return rhs;
      return Value(rhs->Holds());
    }
    auto rhs = Eval(*expr.children[1]);
    if (!rhs.ok()) return rhs;
    auto result = ApplyBinary(expr.text, *lhs, *rhs);
    if (!result.ok()) return Wrap(expr, result.status());
    return result;
  }

  absl::StatusOr<Value> EvalCompare(const Expr& expr) {
    std::vector<Value> operands;
    for (const ExprPtr& child : expr.children) {
      auto value = Eval(*child);
      if (!value.ok()) return value;
      operands.push_back(*std::move(value));
    }
    bool holds = true;
    for (size_t i = 0; i < expr.compare_ops.size(); ++i) {
      auto result = ApplyCompare(expr.compare_ops[i], operands[i], operands[i + 1]);
      if (!result.ok()) return Wrap(expr, result.status());
      holds = holds && result->Holds();
    }
    return Value(holds);
  }

  absl::StatusOr<Value> EvalIndex(const Expr& expr) {
    auto target = Eval(*expr.children[0]);
    if (!target.ok()) return target;
    auto index = Eval(*expr.children[1]);
    if (!index.ok()) return index;
    if (!target->is_list()) return Fail(expr, "cannot index " + target->ToString());
    if (index->is_list()) {
      // x[indices] picks several elements (the spec's slice_sizes[collapsed_slice_dims...]).
      std::vector<Value> picked;
      for (const Value& i : index->items()) {
        auto item = Pick(expr, *target, i);
        if (!item.ok()) return item;
        picked.push_back(*std::move(item));
      }
      return Value(std::move(picked));
    }
    return Pick(expr, *target, *index);
  }

  absl::StatusOr<Value> Pick(const Expr& expr, const Value& list, const Value& index) {
    if (!index.is_int()) return Fail(expr, "index must be an integer, got " + index.ToString());
    int64_t size = static_cast<int64_t>(list.items().size());
    int64_t i = index.as_int();
    if (i < 0) i += size;
    if (i < 0 || i >= size) {
      return Fail(expr, "index " + index.ToString() + " out of range for " + list.ToString());
    }
    return list.items()[i];
  }

  absl::StatusOr<Value> EvalSlice(const Expr& expr, const Value& target, size_t axis) {
    if (axis == expr.slice_items.size()) return target;
    if (!target.is_list()) return Fail(expr, "cannot slice " + target.ToString());
    const SliceItem& item = expr.slice_items[axis];
    if (!item.is_range) {
      auto index = Eval(*item.index);
      if (!index.ok()) return index;
      auto picked = Pick(expr, target, *index);
      if (!picked.ok()) return picked;
      return EvalSlice(expr, *picked, axis + 1);
    }
    int64_t size = static_cast<int64_t>(target.items().size());
    auto bound = [&](const ExprPtr& e, int64_t fallback) -> absl::StatusOr<int64_t> {
      if (e == nullptr) return fallback;
      auto value = Eval(*e);
      HLOCHECK_RETURN_IF_ERROR(value.status());
      if (!value->is_int()) return Fail(*e, "slice bound must be an integer");
      int64_t v = value->as_int();
      if (v < 0) v += size;
      return std::clamp<int64_t>(v, 0, size);
    };
    auto start = bound(item.start, 0);
    HLOCHECK_RETURN_IF_ERROR(start.status());
    auto stop = bound(item.stop, size);
    HLOCHECK_RETURN_IF_ERROR(stop.status());
    std::vector<Value> items;
    for (int64_t i = *start; i < *stop; ++i) {
      auto inner = EvalSlice(expr, target.items()[i], axis + 1);
      if (!inner.ok()) return inner;
      items.push_back(*std::move(inner));
    }
    return Value(std::move(items));
  }

  absl::StatusOr<Value> EvalComprehension(const Expr& expr) {
    auto iterable = Eval(*expr.children[1]);
    if (!iterable.ok()) return iterable;
    if (!iterable->is_list()) {
      return Fail(*expr.children[1], "cannot iterate over " + iterable->ToString());
    }
    std::vector<Value> results;
    for (const Value& item : iterable->items()) {
      size_t scope = locals_.size();
      if (expr.loop_variables.size() == 1) {
        locals_.emplace_back(expr.loop_variables[0], item);
      } else {
        if (!item.is_list() || item.items().size() != expr.loop_variables.size()) {
          return Fail(expr, "cannot unpack " + item.ToString() + " into " +
                                std::to_string(expr.loop_variables.size()) + " variables");
        }
        for (size_t v = 0; v < expr.loop_variables.size(); ++v) {
          locals_.emplace_back(expr.loop_variables[v], item.items()[v]);
        }
      }
      bool keep = true;
      if (expr.children[2] != nullptr) {
        auto condition = Eval(*expr.children[2]);
        if (!condition.ok()) return condition;
        keep = condition->Holds();
      }
      if (keep) {
        auto body = Eval(*expr.children[0]);
        if (!body.ok()) return body;
        results.push_back(*std::move(body));
      }
      locals_.resize(scope);
    }
    return Value(std::move(results));
  }

  absl::StatusOr<Value> EvalCall(const Expr& expr) {
    const Expr& callee = *expr.children[0];
    if (callee.kind != ExprKind::kName) return Fail(callee, "only named functions can be called");
    const Function* function = evaluator_.functions_->Find(callee.text);
    if (function == nullptr) return Fail(callee, "unknown function '" + callee.text + "'");

    std::vector<Value> arguments;
    std::vector<bool> expand;
    bool any_expansion = false;
    for (size_t i = 1; i < expr.children.size(); ++i) {
      auto argument = Eval(*expr.children[i]);
      if (!argument.ok()) return argument;
      arguments.push_back(*std::move(argument));
      expand.push_back(expr.expand[i]);
      any_expansion = any_expansion || expr.expand[i];
    }
    if (!any_expansion) {
      auto result = (*function)(arguments);
      if (!result.ok()) return Fail(expr, std::string(result.status().message()));
      return result;
    }
    // f(a, xs...) is [f(a, x) for x in xs]; several expanded arguments go in step.
    size_t count = 0;
    bool first = true;
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (!expand[i]) continue;
      if (!arguments[i].is_list()) {
        return Fail(*expr.children[i + 1], "'...' needs a list, got " + arguments[i].ToString());
      }
      size_t size = arguments[i].items().size();
      if (!first && size != count) {
        return Fail(expr, "arguments expanded with '...' have different lengths");
      }
      count = size;
      first = false;
    }
    std::vector<Value> results;
    std::vector<Value> call_arguments(arguments.size());
    for (size_t k = 0; k < count; ++k) {
      for (size_t i = 0; i < arguments.size(); ++i) {
        call_arguments[i] = expand[i] ? arguments[i].items()[k] : arguments[i];
      }
      auto result = (*function)(call_arguments);
      if (!result.ok()) return Fail(expr, std::string(result.status().message()));
      results.push_back(*std::move(result));
    }
    return Value(std::move(results));
  }

  Evaluator& evaluator_;
  std::string_view text_;
  Trace* trace_;
  std::vector<std::pair<std::string, Value>> locals_;
  EvalError error_;
};

absl::StatusOr<Value> Evaluator::Evaluate(const Expr& expr, std::string_view formula_text,
                                          Trace* trace, EvalError* error) {
  EvalRun run(*this, formula_text, trace);
  absl::StatusOr<Value> result = run.Eval(expr);
  if (!result.ok() && error != nullptr) *error = run.error();
  return result;
}

absl::StatusOr<Value> Evaluator::EvaluateText(std::string_view formula_text, Trace* trace) {
  auto expr = ParseFormula(formula_text);
  HLOCHECK_RETURN_IF_ERROR(expr.status());
  return Evaluate(**expr, formula_text, trace);
}

}  // namespace hlocheck::spec
