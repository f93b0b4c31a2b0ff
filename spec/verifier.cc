#include "spec/verifier.h"

#include <variant>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "spec/attributes.h"
#include "spec/registry.h"

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
  if (set.per_axis_quantized) {
    text += (text.empty() ? "" : ", ") + std::string("quantized");
  } else if (set.per_tensor_quantized) {
    text += (text.empty() ? "" : ", ") + std::string("per-tensor quantized");
  }
  return text;
}

// Whether an attribute value has the type the spec declares.
bool HasAttributeType(const AttributeSpec& spec, const Attribute& value) {
  auto enum_ok = [&](const EnumValue& e) {
    return std::find(spec.enum_values.begin(), spec.enum_values.end(), e.name) !=
           spec.enum_values.end();
  };
  switch (spec.type) {
    case AttributeType::kBool:
      return std::holds_alternative<bool>(value);
    case AttributeType::kInt:
      return std::holds_alternative<int64_t>(value);
    case AttributeType::kFloat:
      return std::holds_alternative<double>(value);
    case AttributeType::kString:
      return std::holds_alternative<std::string>(value);
    case AttributeType::kEnum:
      return std::holds_alternative<EnumValue>(value) && enum_ok(std::get<EnumValue>(value));
    case AttributeType::kIntArray:
      return std::holds_alternative<std::vector<int64_t>>(value);
    case AttributeType::kBoolArray:
      return std::holds_alternative<std::vector<bool>>(value);
    case AttributeType::kEnumArray: {
      const auto* enums = std::get_if<std::vector<EnumValue>>(&value);
      return enums != nullptr && std::all_of(enums->begin(), enums->end(), enum_ok);
    }
    case AttributeType::kIntMatrix: {
      const auto* tensor = std::get_if<Tensor>(&value);
      return tensor != nullptr && tensor->rank() == 2 &&
             tensor->element_type() == ElementType::kSI64;
    }
    case AttributeType::kTensor:
      return std::holds_alternative<Tensor>(value);
    case AttributeType::kStringArray:
      return std::holds_alternative<std::vector<std::string>>(value);
  }
  return false;
}

bool KindAllowed(ValueKind kind, const ValueType& type) {
  switch (kind) {
    case ValueKind::kTensor:
      return type.kind == ValueType::Kind::kTensor;
    case ValueKind::kToken:
      return type.kind == ValueType::Kind::kToken;
    case ValueKind::kTuple:
      return type.kind == ValueType::Kind::kTuple;
    case ValueKind::kAny:
      return true;
  }
  return false;
}

std::string KindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kTensor:
      return "a tensor";
    case ValueKind::kToken:
      return "a token";
    case ValueKind::kTuple:
      return "a tuple";
    case ValueKind::kAny:
      return "any value";
  }
  return "?";
}

// Evaluates one constraint; `id` is how it is reported.
ConstraintResult Check(Evaluator& evaluator, const ConstraintSpec& constraint, std::string id) {
  ConstraintResult result{
      std::move(id), constraint.text, constraint.formula.text, Outcome::kHolds, {}, ""};
  if (constraint.condition) {
    auto applies = evaluator.Evaluate(*constraint.condition->expr, constraint.condition->text);
    if (!applies.ok()) {
      result.outcome = Outcome::kNotEvaluable;
      result.error = "condition '" + constraint.condition->text +
                     "': " + std::string(applies.status().message());
      return result;
    }
    if (!applies->Holds()) {
      result.outcome = Outcome::kNotApplicable;
      return result;
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
  return result;
}

// The type-level constraints of a quantized type (seed 002, "Types").
void CheckQuantizedType(const TypeConstraints& spec, const ValueType& type,
                        const std::string& where, VerifyResult& verdict) {
  const UniformQuantization& q = *type.quantization;
  Evaluator evaluator;
  evaluator.SetMember("self", Value(type));
  evaluator.SetMember("storage_type", Value(type.element_type));
  evaluator.SetMember("expressed_type", Value(q.expressed_type));
  evaluator.SetMember("storage_min", Value(q.storage_min));
  evaluator.SetMember("storage_max", Value(q.storage_max));
  evaluator.SetMember("quantization_dimension", q.quantization_dimension
                                                    ? Value(*q.quantization_dimension)
                                                    : Value(NoneValue{}));
  std::vector<Value> scales;
  for (double s : q.scales) scales.emplace_back(s);
  evaluator.SetMember("scales", Value(std::move(scales)));
  evaluator.SetMember("zero_points", Value::IntList(q.zero_points));
  for (const ConstraintSpec& c : spec.constraints) {
    verdict.results.push_back(Check(evaluator, c, spec.name + " " + c.id + " (" + where + ")"));
  }
}

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

absl::Status BindInstance(const OpSpec& op, const OpInstance& instance, Evaluator* evaluator) {
  auto bind_values = [&](const std::vector<ValueSpec>& specs,
                         const std::vector<std::vector<ValueType>>& values) -> absl::Status {
    if (values.size() != specs.size()) {
      return absl::InvalidArgumentError("the instance has " + std::to_string(values.size()) +
                                        " value groups where the spec has " +
                                        std::to_string(specs.size()));
    }
    for (size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].variadic) {
        std::vector<Value> items;
        for (const ValueType& type : values[i]) items.emplace_back(type);
        evaluator->SetMember(specs[i].name, Value(std::move(items)));
      } else if (values[i].size() == 1) {
        evaluator->SetMember(specs[i].name, Value(values[i][0]));
      } else {
        evaluator->SetMember(specs[i].name, Value(NoneValue{}));
      }
    }
    return absl::OkStatus();
  };
  if (auto s = bind_values(op.operands, instance.operands); !s.ok()) return s;
  if (auto s = bind_values(op.results, instance.results); !s.ok()) return s;
  for (size_t i = 0; i < op.regions.size(); ++i) {
    const std::vector<FunctionType>& regions =
        i < instance.regions.size() ? instance.regions[i] : std::vector<FunctionType>{};
    if (op.regions[i].variadic) {
      std::vector<Value> items;
      for (const FunctionType& f : regions) items.emplace_back(f);
      evaluator->SetMember(op.regions[i].name, Value(std::move(items)));
    } else {
      evaluator->SetMember(op.regions[i].name,
                           regions.size() == 1 ? Value(regions[0]) : Value(NoneValue{}));
    }
  }
  for (const AttributeSpec& attribute : op.attributes) {
    auto it = instance.attributes.find(attribute.name);
    if (it != instance.attributes.end()) {
      evaluator->SetMember(attribute.name, Value::FromAttribute(it->second));
    } else if (attribute.default_value) {
      auto value = AttributeFromYaml(attribute, *attribute.default_value);
      HLOCHECK_RETURN_IF_ERROR(value.status());
      evaluator->SetMember(attribute.name, Value::FromAttribute(*value));
    } else {
      evaluator->SetMember(attribute.name, Value(NoneValue{}));
    }
  }
  evaluator->SetMember("num_replicas", Value(instance.num_replicas));
  evaluator->SetMember("num_partitions", Value(instance.num_partitions));
  evaluator->SetMember("num_processes", Value(instance.num_replicas * instance.num_partitions));
  for (const auto& [name, formula] : op.definitions) {
    evaluator->AddDefinition(name, formula.expr, formula.text);
  }
  return absl::OkStatus();
}

VerifyResult Verify(const OpSpec& op, const OpInstance& instance, const SpecRegistry* registry) {
  VerifyResult verdict;
  auto input_check = [&](const std::string& id, const std::string& text, bool holds,
                         Trace values = {}) {
    verdict.results.push_back(
        {id, text, "", holds ? Outcome::kHolds : Outcome::kViolated, std::move(values), ""});
  };

  // The Inputs and Outputs tables: arity, kinds and element types of values.
  auto check_values = [&](const std::vector<ValueSpec>& specs,
                          const std::vector<std::vector<ValueType>>& groups) {
    for (size_t i = 0; i < specs.size() && i < groups.size(); ++i) {
      const ValueSpec& spec = specs[i];
      std::string id = spec.label.empty() ? spec.name : spec.label;
      if (!spec.variadic && groups[i].size() != 1) {
        input_check(id, spec.name + " is one value", false);
        continue;
      }
      for (const ValueType& type : groups[i]) {
        if (!KindAllowed(spec.kind, type)) {
          input_check(id, spec.name + " is " + KindName(spec.kind), false,
                      {{"type(" + spec.name + ")", Value(type)}});
          continue;
        }
        if (!type.is_tensor() || spec.kind == ValueKind::kAny) continue;
        bool allowed = type.quantization ? (type.quantization->quantization_dimension
                                                ? spec.types.per_axis_quantized
                                                : spec.types.per_tensor_quantized)
                                         : spec.types.Contains(type.element_type);
        input_check(id, spec.name + " is a tensor of " + TypeSetText(spec.types), allowed,
                    {{"element_type(" + spec.name + ")",
                      Value(ElementTypeValue{type.element_type, type.quantization})}});
        if (type.quantization && registry != nullptr && registry->quantized_type() != nullptr) {
          CheckQuantizedType(*registry->quantized_type(), type, spec.name, verdict);
        }
      }
    }
  };
  check_values(op.operands, instance.operands);
  check_values(op.results, instance.results);
  for (size_t i = 0; i < op.regions.size(); ++i) {
    size_t count = i < instance.regions.size() ? instance.regions[i].size() : 0;
    if (!op.regions[i].variadic && count != 1) {
      std::string id = op.regions[i].label.empty() ? op.regions[i].name : op.regions[i].label;
      input_check(id, op.regions[i].name + " is one region", false);
    }
  }
  for (const AttributeSpec& attribute : op.attributes) {
    std::string id = attribute.label.empty() ? attribute.name : attribute.label;
    auto it = instance.attributes.find(attribute.name);
    if (it == instance.attributes.end()) {
      input_check(id, attribute.name + " is present", attribute.optional);
      continue;
    }
    input_check(id, attribute.name + " is " + AttributeTypeName(attribute.type),
                HasAttributeType(attribute, it->second),
                {{attribute.name, Value::FromAttribute(it->second)}});
  }

  Evaluator evaluator;
  if (absl::Status bound = BindInstance(op, instance, &evaluator); !bound.ok()) {
    input_check("inputs", std::string(bound.message()), false);
    return verdict;
  }
  for (const ConstraintSpec& constraint : op.constraints) {
    verdict.results.push_back(Check(evaluator, constraint, constraint.DisplayId()));
  }
  return verdict;
}

VerifyResult Verify(const OpSpec& op, const Case& c, const SpecRegistry* registry) {
  return Verify(op, OpInstance::FromCase(op, c), registry);
}

}  // namespace hlocheck::spec
