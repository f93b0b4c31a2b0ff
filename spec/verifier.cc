#include "spec/verifier.h"

#include "absl/status/status.h"
#include "spec/attributes.h"

namespace hlocheck::spec {
namespace {

std::string TypeSetText(const TypeSet& set) {
  // Name whole classes where the set covers them, for readable messages.
  struct Class {
    const char* name;
    bool (*member)(ElementType);
  };
  static constexpr Class kClasses[] = {
      {"bool", IsBool}, {"int", IsInteger}, {"float", IsFloat}, {"complex", IsComplex}};
  std::string text;
  for (const Class& cls : kClasses) {
    bool all = true;
    bool any = false;
    for (ElementType t : AllElementTypes()) {
      if (!cls.member(t)) continue;
      bool in = set.Contains(t);
      all = all && in;
      any = any || in;
    }
    if (all) {
      text += (text.empty() ? "" : ", ") + std::string(cls.name);
    } else if (any) {
      for (ElementType t : set.element_types) {
        if (cls.member(t)) text += (text.empty() ? "" : ", ") + std::string(Name(t));
      }
    }
  }
  return text;
}

// Splits the case's flat value list into one group per spec entry.
absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> Segments(
    const std::vector<ValueSpec>& specs, const std::vector<int64_t>& segments, size_t count,
    std::string_view what) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  if (segments.empty()) {
    if (count != specs.size()) {
      return absl::InvalidArgumentError("expected " + std::to_string(specs.size()) + " " +
                                        std::string(what) + "s, got " + std::to_string(count));
    }
    for (size_t i = 0; i < specs.size(); ++i) ranges.emplace_back(i, 1);
    return ranges;
  }
  if (segments.size() != specs.size()) {
    return absl::InvalidArgumentError(std::string(what) + " segment sizes do not match the spec");
  }
  int64_t start = 0;
  for (size_t i = 0; i < specs.size(); ++i) {
    if (segments[i] < 0 || (!specs[i].variadic && segments[i] != 1)) {
      return absl::InvalidArgumentError(std::string(what) + " '" + specs[i].name +
                                        "' takes exactly one value");
    }
    ranges.emplace_back(start, segments[i]);
    start += segments[i];
  }
  if (static_cast<size_t>(start) != count) {
    return absl::InvalidArgumentError(std::string(what) + " segment sizes do not add up");
  }
  return ranges;
}

Value TypeOf(const TensorType& type) { return Value::TensorTypeValue(type); }

}  // namespace

std::string ConstraintResult::ToString() const {
  std::string line = id;
  switch (outcome) {
    case Outcome::kHolds:
      return line + " holds";
    case Outcome::kNotApplicable:
      return line + " does not apply";
    case Outcome::kViolated:
      line += " violated: " + text;
      if (!formula.empty()) line += "\n    " + formula;
      if (!values.empty()) {
        line += "\n    where ";
        for (size_t i = 0; i < values.size(); ++i) {
          if (i > 0) line += ", ";
          line += values[i].text + " = " + values[i].value.ToString();
        }
      }
      return line;
    case Outcome::kNotEvaluable:
      return line + " could not be evaluated: " + formula + "\n    " + error;
  }
  return line;
}

bool VerifyResult::valid() const { return Violations().empty(); }

std::vector<const ConstraintResult*> VerifyResult::Violations() const {
  std::vector<const ConstraintResult*> violations;
  for (const ConstraintResult& r : results) {
    if (r.outcome == Outcome::kViolated || r.outcome == Outcome::kNotEvaluable) {
      violations.push_back(&r);
    }
  }
  return violations;
}

std::vector<std::string> VerifyResult::ViolatedIds() const {
  std::vector<std::string> ids;
  for (const ConstraintResult& r : results) {
    if (r.outcome == Outcome::kViolated) ids.push_back(r.id);
  }
  return ids;
}

std::string VerifyResult::Report() const {
  std::string report;
  for (const ConstraintResult* r : Violations()) report += r->ToString() + "\n";
  return report;
}

absl::Status BindInstance(const OpSpec& op, const Case& c, Evaluator* evaluator) {
  auto operand_ranges = Segments(op.operands, c.operand_segments, c.operands.size(), "operand");
  if (!operand_ranges.ok()) return operand_ranges.status();
  for (size_t i = 0; i < op.operands.size(); ++i) {
    auto [start, count] = (*operand_ranges)[i];
    if (op.operands[i].variadic) {
      std::vector<Value> types;
      for (int64_t k = 0; k < count; ++k) types.push_back(TypeOf(c.operands[start + k].type()));
      evaluator->SetMember(op.operands[i].name, Value(std::move(types)));
    } else {
      evaluator->SetMember(op.operands[i].name, TypeOf(c.operands[start].type()));
    }
  }
  auto result_ranges = Segments(op.results, c.result_segments, c.result_types.size(), "result");
  if (!result_ranges.ok()) return result_ranges.status();
  for (size_t i = 0; i < op.results.size(); ++i) {
    auto [start, count] = (*result_ranges)[i];
    if (op.results[i].variadic) {
      std::vector<Value> types;
      for (int64_t k = 0; k < count; ++k) types.push_back(TypeOf(c.result_types[start + k]));
      evaluator->SetMember(op.results[i].name, Value(std::move(types)));
    } else {
      evaluator->SetMember(op.results[i].name, TypeOf(c.result_types[start]));
    }
  }
  for (const AttributeSpec& attribute : op.attributes) {
    if (const Attribute* value = c.FindAttribute(attribute.name)) {
      evaluator->SetMember(attribute.name, Value::FromAttribute(*value));
    } else if (attribute.default_value) {
      auto value = AttributeFromYaml(attribute, *attribute.default_value);
      if (!value.ok()) return value.status();
      evaluator->SetMember(attribute.name, Value::FromAttribute(*value));
    } else {
      evaluator->SetMember(attribute.name, Value(NoneValue{}));
    }
  }
  for (const auto& [name, formula] : op.definitions) {
    evaluator->AddDefinition(name, formula.expr, formula.text);
  }
  return absl::OkStatus();
}

VerifyResult Verify(const OpSpec& op, const Case& c) {
  VerifyResult verdict;

  // The Inputs and Outputs tables: arity, element types, attribute types.
  auto input_check = [&](const std::string& id, const std::string& text, bool holds,
                         Trace values = {}) {
    verdict.results.push_back(
        {id, text, "", holds ? Outcome::kHolds : Outcome::kViolated, std::move(values), ""});
  };
  Evaluator evaluator;
  if (absl::Status bound = BindInstance(op, c, &evaluator); !bound.ok()) {
    input_check("inputs", std::string(bound.message()), false);
    return verdict;
  }
  auto check_values = [&](const std::vector<ValueSpec>& specs,
                          const std::vector<const TensorType*>& types,
                          const std::vector<int64_t>& segments) {
    size_t next = 0;
    for (size_t i = 0; i < specs.size(); ++i) {
      int64_t count = segments.empty() ? 1 : segments[i];
      const ValueSpec& spec = specs[i];
      for (int64_t k = 0; k < count; ++k, ++next) {
        if (spec.kind != ValueKind::kTensor && spec.kind != ValueKind::kAny) continue;
        ElementType t = types[next]->element_type;
        std::string id = spec.label.empty() ? spec.name : spec.label;
        input_check(id, spec.name + " is a tensor of " + TypeSetText(spec.types),
                    spec.types.Contains(t), {{"element_type(" + spec.name + ")", Value(t)}});
      }
    }
  };
  std::vector<const TensorType*> operand_types;
  for (const Tensor& operand : c.operands) operand_types.push_back(&operand.type());
  check_values(op.operands, operand_types, c.operand_segments);
  std::vector<const TensorType*> result_types;
  for (const TensorType& type : c.result_types) result_types.push_back(&type);
  check_values(op.results, result_types, c.result_segments);
  for (const AttributeSpec& attribute : op.attributes) {
    std::string id = attribute.label.empty() ? attribute.name : attribute.label;
    const Attribute* value = c.FindAttribute(attribute.name);
    if (value == nullptr) {
      input_check(id, attribute.name + " is present", attribute.default_value.has_value());
      continue;
    }
    auto converted = AttributeFromValue(attribute, Value::FromAttribute(*value));
    input_check(id,
                attribute.name + " is " + AttributeTypeName(attribute.type) +
                    (converted.ok() ? "" : ": " + std::string(converted.status().message())),
                converted.ok(), {{attribute.name, Value::FromAttribute(*value)}});
  }

  for (const ConstraintSpec& constraint : op.constraints) {
    ConstraintResult result{
        constraint.id, constraint.text, constraint.formula.text, Outcome::kHolds, {}, ""};
    if (constraint.condition) {
      auto applies = evaluator.Evaluate(*constraint.condition->expr, constraint.condition->text);
      if (!applies.ok()) {
        result.outcome = Outcome::kNotEvaluable;
        result.error = "condition '" + constraint.condition->text +
                       "': " + std::string(applies.status().message());
        verdict.results.push_back(std::move(result));
        continue;
      }
      if (!applies->Holds()) {
        result.outcome = Outcome::kNotApplicable;
        verdict.results.push_back(std::move(result));
        continue;
      }
    }
    auto value = evaluator.Evaluate(*constraint.formula.expr, constraint.formula.text);
    if (!value.ok()) {
      result.outcome = Outcome::kNotEvaluable;
      result.error = std::string(value.status().message());
    } else if (!value->Holds()) {
      result.outcome = Outcome::kViolated;
      // Evaluate again, recording what decided it.
      (void)evaluator.Evaluate(*constraint.formula.expr, constraint.formula.text, &result.values);
    }
    verdict.results.push_back(std::move(result));
  }
  return verdict;
}

}  // namespace hlocheck::spec
