#include "spec/op_spec.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "spec/formula/parser.h"
#include "spec/indexing_map_template.h"
#include "spec/instance.h"
#include "spec/yaml_reader.h"

namespace hlocheck::spec {

std::string SourceLocation::ToString() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

bool TypeSet::Contains(ElementType t) const {
  return std::find(element_types.begin(), element_types.end(), t) != element_types.end();
}

std::string_view QuantizedSemanticsName(QuantizedSemantics semantics) {
  switch (semantics) {
    case QuantizedSemantics::kNone:
      return "none";
    case QuantizedSemantics::kDequantizeOpQuantize:
      return "dequantize_op_quantize";
    case QuantizedSemantics::kDequantizeCompare:
      return "dequantize_compare";
    case QuantizedSemantics::kDequantizeSelectQuantize:
      return "dequantize_select_quantize";
    case QuantizedSemantics::kStorage:
      return "storage";
    case QuantizedSemantics::kRegions:
      return "regions";
    case QuantizedSemantics::kOwn:
      return "own";
  }
  return "none";
}

bool ComputesOnQuantized(QuantizedSemantics semantics) {
  return semantics != QuantizedSemantics::kNone;
}

int NumericsSpec::AllowedUlp(ElementType type) const {
  auto it = ulp.find(type);
  return it == ulp.end() ? default_ulp : it->second;
}

const ValueSpec* OpSpec::FindOperand(std::string_view name) const {
  for (const ValueSpec& v : operands) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

const ValueSpec* OpSpec::FindResult(std::string_view name) const {
  for (const ValueSpec& v : results) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

std::string RankConstraintId(const ValueSpec& value) { return value.name + ".rank"; }

size_t OpSpec::seed_constraint_count() const {
  size_t count = 0;
  for (const ConstraintSpec& c : constraints) count += c.source == "seed";
  return count;
}

const AttributeSpec* OpSpec::FindAttribute(std::string_view name) const {
  for (const AttributeSpec& a : attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::optional<std::vector<ElementType>> ExpandTypeClass(std::string_view name) {
  std::vector<ElementType> types;
  auto add_if = [&](bool (*predicate)(ElementType)) {
    for (ElementType t : AllElementTypes()) {
      if (predicate(t)) types.push_back(t);
    }
  };
  if (name == "any") {
    add_if([](ElementType) { return true; });
  } else if (name == "bool") {
    add_if(IsBool);
  } else if (name == "int") {
    add_if(IsInteger);
  } else if (name == "sint") {
    add_if(IsSignedInt);
  } else if (name == "uint") {
    add_if(IsUnsignedInt);
  } else if (name == "float") {
    add_if(IsFloat);
  } else if (name == "complex") {
    add_if(IsComplex);
  } else if (auto single = ParseElementType(name)) {
    types.push_back(*single);
  } else {
    return std::nullopt;
  }
  return types;
}

namespace {

// Reads one op file, keeping the file name for every message.
class Loader : public YamlReader {
 public:
  explicit Loader(std::string file) : YamlReader(std::move(file)) {}

  absl::StatusOr<TypeConstraints> LoadTypes(const std::string& text) {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      return absl::InvalidArgumentError(file_ + ":" + std::to_string(e.mark.line + 1) + ":" +
                                        std::to_string(e.mark.column + 1) +
                                        ": malformed YAML: " + e.msg);
    }
    if (auto s = CheckKeys(root, "type constraints file", {"name", "summary", "constraints"}, {});
        !s.ok()) {
      return s;
    }
    TypeConstraints types;
    types.file = file_;
    types.name = root["name"].Scalar();
    types.summary = root["summary"].Scalar();
    const YAML::Node& constraints = root["constraints"];
    if (!constraints.IsSequence()) return Error(constraints, "expected a list of constraints");
    std::set<std::string> ids;
    for (const YAML::Node& entry : constraints) {
      if (auto s = CheckKeys(entry, "constraint", {"id", "text", "formula"}, {"when", "note"});
          !s.ok()) {
        return s;
      }
      ConstraintSpec c;
      c.id = entry["id"].Scalar();
      if (!ids.insert(c.id).second) return Error(entry["id"], c.id + " appears twice");
      if (auto status = ParseConstraintBody(entry, c); !status.ok()) return status;
      types.constraints.push_back(std::move(c));
    }
    return types;
  }

  absl::StatusOr<OpSpec> Load(const std::string& text) {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      return absl::InvalidArgumentError(file_ + ":" + std::to_string(e.mark.line + 1) + ":" +
                                        std::to_string(e.mark.column + 1) +
                                        ": malformed YAML: " + e.msg);
    }
    try {
      return LoadOp(root);
    } catch (const YAML::Exception& e) {
      return absl::InvalidArgumentError(file_ + ":" + std::to_string(e.mark.line + 1) + ":" +
                                        std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
  }

 private:
  // The parts every constraint has: text, formula, optional `when` and note.
  absl::Status ParseConstraintBody(const YAML::Node& entry, ConstraintSpec& c) const {
    c.text = entry["text"].Scalar();
    auto formula = ParseFormulaNode(entry["formula"], "constraint " + c.id);
    HLOCHECK_RETURN_IF_ERROR(formula.status());
    c.formula = *std::move(formula);
    if (entry["when"]) {
      auto condition = ParseFormulaNode(entry["when"], "condition of " + c.id);
      HLOCHECK_RETURN_IF_ERROR(condition.status());
      c.condition = *std::move(condition);
    }
    if (entry["note"]) c.note = entry["note"].Scalar();
    return absl::OkStatus();
  }

  absl::StatusOr<TypeSet> ParseTypes(const YAML::Node& entry) const {
    TypeSet set;
    const YAML::Node& types = entry["types"];
    if (!types.IsSequence()) return Error(types, "expected a list of element types or classes");
    std::set<ElementType> seen;
    for (const YAML::Node& item : types) {
      auto name = Scalar(item, "an element type");
      HLOCHECK_RETURN_IF_ERROR(name.status());
      auto expanded = ExpandTypeClass(*name);
      if (!expanded) {
        return Error(item, "unknown element type or class '" + *name +
                               "'; expected any, bool, int, sint, uint, float, complex or a "
                               "type name such as f32");
      }
      seen.insert(expanded->begin(), expanded->end());
    }
    for (ElementType t : AllElementTypes()) {
      if (seen.count(t)) set.element_types.push_back(t);
    }
    if (const YAML::Node& q = entry["quantized"]) {
      auto mode = Scalar(q, "quantized");
      HLOCHECK_RETURN_IF_ERROR(mode.status());
      if (*mode == "per_tensor") {
        set.per_tensor_quantized = true;
      } else if (*mode == "per_axis") {
        set.per_tensor_quantized = true;
        set.per_axis_quantized = true;
      } else if (*mode != "none") {
        return Error(q, "expected none, per_tensor or per_axis");
      }
    }
    return set;
  }

  absl::StatusOr<std::vector<ValueSpec>> ParseValues(const YAML::Node& list,
                                                     std::string_view what) const {
    std::vector<ValueSpec> values;
    if (!list.IsSequence()) return Error(list, "expected a list of " + std::string(what));
    for (const YAML::Node& entry : list) {
      if (auto s = CheckKeys(entry, what, {"name"},
                             {"label", "kind", "variadic", "types", "quantized", "description",
                              "data", "rank", "rank_violated_by"});
          !s.ok()) {
        return s;
      }
      ValueSpec value;
      auto name = Scalar(entry["name"], "name");
      HLOCHECK_RETURN_IF_ERROR(name.status());
      value.name = *name;
      if (entry["label"]) value.label = entry["label"].Scalar();
      if (entry["description"]) value.description = entry["description"].Scalar();
      if (entry["variadic"]) {
        auto variadic = Bool(entry["variadic"], "variadic");
        HLOCHECK_RETURN_IF_ERROR(variadic.status());
        value.variadic = *variadic;
      }
      if (entry["kind"]) {
        std::string kind = entry["kind"].Scalar();
        if (kind == "tensor") {
          value.kind = ValueKind::kTensor;
        } else if (kind == "token") {
          value.kind = ValueKind::kToken;
        } else if (kind == "tuple") {
          value.kind = ValueKind::kTuple;
        } else if (kind == "any") {
          value.kind = ValueKind::kAny;
        } else {
          return Error(entry["kind"], "expected tensor, token, tuple or any");
        }
      }
      if (entry["data"]) {
        auto data = Scalar(entry["data"], "data");
        HLOCHECK_RETURN_IF_ERROR(data.status());
        if (*data != "indices" && *data != "identity" && *data != "positive_definite" &&
            *data != "triangular" && *data != "loop_counter") {
          return Error(entry["data"],
                       "expected data: indices, identity, positive_definite, triangular or "
                       "loop_counter");
        }
        value.data = *data;
      }
      if (value.kind == ValueKind::kTensor || value.kind == ValueKind::kAny) {
        if (!entry["types"]) return Error(entry, "missing key 'types' for a tensor " + *name);
        auto types = ParseTypes(entry);
        HLOCHECK_RETURN_IF_ERROR(types.status());
        value.types = *std::move(types);
      }
      if (const YAML::Node& rank = entry["rank"]) {
        if (value.kind != ValueKind::kTensor) return Error(rank, "only a tensor has a rank");
        auto text = Scalar(rank, "rank");
        HLOCHECK_RETURN_IF_ERROR(text.status());
        char* end = nullptr;
        long parsed = std::strtol(text->c_str(), &end, 10);
        if (text->empty() || *end != '\0' || parsed < 0 || parsed > 6) {
          return Error(rank, "expected a rank from 0 to 6");
        }
        value.rank = parsed;
      } else if (entry["rank_violated_by"]) {
        return Error(entry["rank_violated_by"], "rank_violated_by without a rank");
      }
      values.push_back(std::move(value));
    }
    return values;
  }

  absl::StatusOr<std::vector<AttributeSpec>> ParseAttributes(const YAML::Node& list) const {
    std::vector<AttributeSpec> attributes;
    if (!list.IsSequence()) return Error(list, "expected a list of attributes");
    for (const YAML::Node& entry : list) {
      if (auto s = CheckKeys(entry, "attribute", {"name", "type"},
                             {"label", "values", "default", "optional", "mlir", "description"});
          !s.ok()) {
        return s;
      }
      AttributeSpec attribute;
      attribute.name = entry["name"].Scalar();
      if (entry["label"]) attribute.label = entry["label"].Scalar();
      if (entry["description"]) attribute.description = entry["description"].Scalar();
      static const std::map<std::string, AttributeType> kTypes = {
          {"i1", AttributeType::kBool},          {"si64", AttributeType::kInt},
          {"si32", AttributeType::kInt},         {"f32", AttributeType::kFloat},
          {"string", AttributeType::kString},    {"enum", AttributeType::kEnum},
          {"si64[]", AttributeType::kIntArray},  {"i1[]", AttributeType::kBoolArray},
          {"enum[]", AttributeType::kEnumArray}, {"si64[][]", AttributeType::kIntMatrix},
          {"tensor", AttributeType::kTensor},    {"string[]", AttributeType::kStringArray}};
      auto type = kTypes.find(entry["type"].Scalar());
      if (type == kTypes.end()) {
        return Error(entry["type"],
                     "unknown attribute type; expected i1, si64, si32, f32, string, enum, si64[], "
                     "i1[], enum[], si64[][], tensor or string[]");
      }
      attribute.type = type->second;
      if (entry["type"].Scalar() == "si32") attribute.integer_type = ElementType::kSI32;
      if (attribute.type == AttributeType::kEnum || attribute.type == AttributeType::kEnumArray) {
        if (!entry["values"] || !entry["values"].IsSequence()) {
          return Error(entry, "an enum attribute needs 'values', a list of its enumerators");
        }
        for (const YAML::Node& v : entry["values"]) attribute.enum_values.push_back(v.Scalar());
      }
      if (entry["default"]) {
        YAML::Emitter out;
        out << YAML::Flow << entry["default"];
        attribute.default_value = out.c_str();
        attribute.optional = true;
      }
      if (entry["optional"]) {
        auto optional = Bool(entry["optional"], "optional");
        HLOCHECK_RETURN_IF_ERROR(optional.status());
        attribute.optional = attribute.optional || *optional;
      }
      if (const YAML::Node& mlir = entry["mlir"]) {
        if (auto s = CheckKeys(mlir, "mlir spelling", {}, {"group", "enum", "unit", "operand"});
            !s.ok()) {
          return s;
        }
        if (mlir["group"]) attribute.mlir.group = mlir["group"].Scalar();
        if (mlir["enum"]) attribute.mlir.enum_attr = mlir["enum"].Scalar();
        if (mlir["unit"]) attribute.mlir.unit = mlir["unit"].as<bool>();
        if (mlir["operand"]) attribute.mlir.operand = mlir["operand"].as<bool>();
      }
      attributes.push_back(std::move(attribute));
    }
    return attributes;
  }

  absl::StatusOr<NumericsSpec> ParseNumerics(const YAML::Node& node) const {
    if (auto s = CheckKeys(node, "numerics", {"class"}, {"ulp", "notes"}); !s.ok()) return s;
    NumericsSpec numerics;
    static const std::map<std::string, NumericsClass> kClasses = {
        {"exact", NumericsClass::kExact},
        {"correctly_rounded", NumericsClass::kCorrectlyRounded},
        {"transcendental", NumericsClass::kTranscendental},
        {"accumulation", NumericsClass::kAccumulation},
        {"implementation_defined", NumericsClass::kImplementationDefined}};
    auto cls = kClasses.find(node["class"].Scalar());
    if (cls == kClasses.end()) {
      return Error(node["class"],
                   "expected exact, correctly_rounded, transcendental, accumulation or "
                   "implementation_defined");
    }
    numerics.numerics_class = cls->second;
    if (node["notes"]) numerics.notes = node["notes"].Scalar();
    if (const YAML::Node& ulp = node["ulp"]) {
      if (!ulp.IsMap()) return Error(ulp, "expected a mapping from element type to ULPs");
      for (const auto& entry : ulp) {
        std::string key = entry.first.Scalar();
        int bound;
        try {
          bound = entry.second.as<int>();
        } catch (const YAML::Exception&) {
          return Error(entry.second, "expected a whole number of ULPs");
        }
        if (bound < 0) return Error(entry.second, "a ULP bound cannot be negative");
        if (key == "default") {
          numerics.default_ulp = bound;
          continue;
        }
        auto types = ExpandTypeClass(key);
        if (!types) return Error(entry.first, "unknown element type or class '" + key + "'");
        for (ElementType t : *types) numerics.ulp[t] = bound;
      }
    }
    return numerics;
  }

  absl::StatusOr<OpSpec> LoadOp(const YAML::Node& root) {
    if (auto s = CheckKeys(
            root, "op file",
            {"op", "category", "summary", "operands", "results", "constraints", "numerics"},
            {"seed_heading", "attributes", "regions", "definitions", "example", "recipe",
             "unmodelled_attributes", "indexing_maps", "quantized_semantics"});
        !s.ok()) {
      return s;
    }
    OpSpec op;
    op.file = file_;
    op.name = root["op"].Scalar();
    op.category = root["category"].Scalar();
    static const std::set<std::string> kCategories = {
        "elementwise", "data_movement", "reduction", "control_flow",
        "collective",  "quantization",  "misc"};
    if (!kCategories.count(op.category)) {
      return Error(root["category"],
                   "unknown category; expected elementwise, data_movement, reduction, "
                   "control_flow, collective, quantization or misc");
    }
    op.summary = root["summary"].Scalar();
    if (root["seed_heading"]) op.seed_heading = root["seed_heading"].Scalar();
    if (const YAML::Node& unmodelled = root["unmodelled_attributes"]) {
      if (!unmodelled.IsSequence()) {
        return Error(unmodelled, "expected a list of attribute names");
      }
      for (const YAML::Node& name : unmodelled) op.unmodelled_attributes.push_back(name.Scalar());
    }

    auto operands = ParseValues(root["operands"], "operand");
    HLOCHECK_RETURN_IF_ERROR(operands.status());
    op.operands = *std::move(operands);
    auto results = ParseValues(root["results"], "result");
    HLOCHECK_RETURN_IF_ERROR(results.status());
    op.results = *std::move(results);
    if (root["attributes"]) {
      auto attributes = ParseAttributes(root["attributes"]);
      HLOCHECK_RETURN_IF_ERROR(attributes.status());
      op.attributes = *std::move(attributes);
    }
    if (const YAML::Node& regions = root["regions"]) {
      if (!regions.IsSequence()) return Error(regions, "expected a list of regions");
      for (const YAML::Node& entry : regions) {
        if (auto s = CheckKeys(entry, "region", {"name"}, {"label", "variadic", "description"});
            !s.ok()) {
          return s;
        }
        RegionSpec region;
        region.name = entry["name"].Scalar();
        if (entry["label"]) region.label = entry["label"].Scalar();
        if (entry["description"]) region.description = entry["description"].Scalar();
        if (entry["variadic"]) {
          auto variadic = Bool(entry["variadic"], "variadic");
          HLOCHECK_RETURN_IF_ERROR(variadic.status());
          region.variadic = *variadic;
        }
        op.regions.push_back(std::move(region));
      }
    }
    std::set<std::string> names;
    for (const auto& r : op.regions) names.insert(r.name);
    for (const auto& v : op.operands) names.insert(v.name);
    for (const auto& v : op.results) names.insert(v.name);
    for (const auto& a : op.attributes) {
      if (!names.insert(a.name).second) {
        return Error(root["attributes"], "name '" + a.name + "' is used twice");
      }
    }

    if (const YAML::Node& definitions = root["definitions"]) {
      if (!definitions.IsSequence()) return Error(definitions, "expected a list of definitions");
      for (const YAML::Node& entry : definitions) {
        if (auto s = CheckKeys(entry, "definition", {"name", "formula"}, {}); !s.ok()) return s;
        auto formula = ParseFormulaNode(entry["formula"], "definition");
        HLOCHECK_RETURN_IF_ERROR(formula.status());
        op.definitions.emplace_back(entry["name"].Scalar(), *std::move(formula));
      }
    }

    const YAML::Node& constraints = root["constraints"];
    if (!constraints.IsSequence()) return Error(constraints, "expected a list of constraints");
    int expected_number = 1;
    std::set<std::string> public_ids;
    std::vector<std::pair<size_t, YAML::Node>> violations;
    for (const YAML::Node& entry : constraints) {
      if (auto s = CheckKeys(entry, "constraint", {"id", "text", "formula"},
                             {"when", "source", "note", "violated_by", "not_violable_alone"});
          !s.ok()) {
        return s;
      }
      ConstraintSpec c;
      c.id = entry["id"].Scalar();
      if (entry["source"]) {
        c.source = entry["source"].Scalar();
        if (c.source != "seed" && c.source != "public") {
          return Error(entry["source"], "expected seed or public");
        }
      }
      if (c.source == "seed") {
        // Seed constraints are numbered C1..Cn without gaps; keeping that
        // invariant catches a constraint lost while editing.
        if (c.id != "C" + std::to_string(expected_number)) {
          return Error(entry["id"], "expected constraint id C" + std::to_string(expected_number) +
                                        ", found " + c.id);
        }
        ++expected_number;
      } else if (!public_ids.insert(c.id).second) {
        return Error(entry["id"], "public constraint " + c.id + " appears twice");
      }
      if (auto status = ParseConstraintBody(entry, c); !status.ok()) return status;
      if (entry["not_violable_alone"]) c.not_violable_alone = entry["not_violable_alone"].Scalar();
      if (entry["violated_by"]) {
        if (entry["not_violable_alone"]) {
          return Error(entry["violated_by"],
                       "a constraint has violated_by or not_violable_alone, not both");
        }
        violations.emplace_back(op.constraints.size(), entry["violated_by"]);
      }
      op.constraints.push_back(std::move(c));
    }
    // The ranks of the Inputs/Outputs tables, after the numbered constraints.
    struct DerivedViolation {
      size_t constraint;
      bool operand;  // else a result
      size_t group;
    };
    std::vector<DerivedViolation> derived_violations;
    auto add_ranks = [&](const std::vector<ValueSpec>& values, const YAML::Node& list,
                         bool operands) {
      for (size_t i = 0; i < values.size(); ++i) {
        const ValueSpec& v = values[i];
        if (!v.rank) continue;
        std::string n = std::to_string(*v.rank);
        ConstraintSpec c;
        c.id = RankConstraintId(v);
        c.source = "inputs";
        std::string where = operands ? "Inputs table, " + v.label : "Outputs table";
        c.text = (v.variadic ? "Each of " + v.name + " is" : v.name + " is") + " a " + n +
                 "-dimensional tensor (seed 002's " + where + ").";
        c.formula.text = "rank(" + v.name + (v.variadic ? "...) = " : ") = ") + n;
        c.formula.location = Where(list[i]["rank"]);
        auto expr = ParseFormula(c.formula.text);
        if (!expr.ok()) {
          // The name came from the file: a name no formula can mention is the file's error.
          return Error(list[i]["name"] ? list[i]["name"] : list[i],
                       "'" + v.name + "' is not a name a formula can use (rank constraint '" +
                           c.formula.text + "': " + std::string(expr.status().message()) + ")");
        }
        c.formula.expr = *expr;
        if (const YAML::Node& node = list[i]["rank_violated_by"]) {
          violations.emplace_back(op.constraints.size(), node);
        } else {
          derived_violations.push_back({op.constraints.size(), operands, i});
        }
        op.constraints.push_back(std::move(c));
      }
      return absl::OkStatus();
    };
    if (auto s = add_ranks(op.operands, root["operands"], true); !s.ok()) return s;
    if (auto s = add_ranks(op.results, root["results"], false); !s.ok()) return s;

    auto numerics = ParseNumerics(root["numerics"]);
    HLOCHECK_RETURN_IF_ERROR(numerics.status());
    op.numerics = *std::move(numerics);

    auto admits_quantized = [](const std::vector<ValueSpec>& values) {
      return std::any_of(values.begin(), values.end(), [](const ValueSpec& v) {
        return v.types.per_tensor_quantized || v.types.per_axis_quantized;
      });
    };
    const bool quantized = admits_quantized(op.operands) || admits_quantized(op.results);
    if (const YAML::Node& semantics = root["quantized_semantics"]) {
      auto name = Scalar(semantics, "quantized_semantics");
      HLOCHECK_RETURN_IF_ERROR(name.status());
      static constexpr QuantizedSemantics kAll[] = {QuantizedSemantics::kDequantizeOpQuantize,
                                                    QuantizedSemantics::kDequantizeCompare,
                                                    QuantizedSemantics::kDequantizeSelectQuantize,
                                                    QuantizedSemantics::kStorage,
                                                    QuantizedSemantics::kRegions,
                                                    QuantizedSemantics::kOwn};
      const auto* found = std::find_if(std::begin(kAll), std::end(kAll),
                                       [&](auto s) { return QuantizedSemanticsName(s) == *name; });
      if (found == std::end(kAll)) {
        return Error(semantics,
                     "expected dequantize_op_quantize, dequantize_compare, "
                     "dequantize_select_quantize, storage, regions or own");
      }
      if (!quantized) {
        return Error(semantics,
                     "quantized_semantics on an op none of whose operands or results "
                     "admits a quantized type");
      }
      op.quantized_semantics = *found;
    } else if (quantized) {
      return Error(root,
                   "an operand or result admits quantized types: expected "
                   "quantized_semantics (what the op computes on them)");
    }

    const YAML::Node& recipe = root["recipe"];
    if (recipe && !recipe.IsSequence()) {
      return Error(recipe, "expected a list of 'name: formula' steps");
    }
    for (const YAML::Node& step : recipe) {
      if (!step.IsMap() || step.size() != 1) {
        return Error(step, "expected one 'name: formula' pair per recipe step");
      }
      auto entry = *step.begin();
      auto formula = ParseFormulaNode(entry.second, "recipe step " + entry.first.Scalar());
      HLOCHECK_RETURN_IF_ERROR(formula.status());
      op.recipe.push_back({entry.first.Scalar(), *std::move(formula)});
    }

    if (const YAML::Node& example = root["example"]) {
      if (auto s = CheckKeys(example, "example", {},
                             {"operands", "attributes", "regions", "results", "num_replicas",
                              "num_partitions", "mlir"});
          !s.ok()) {
        return s;
      }
      auto instance = InstanceFromYaml(op, example, file_);
      HLOCHECK_RETURN_IF_ERROR(instance.status());
      op.example.instance = std::make_shared<const OpInstance>(*std::move(instance));
      if (example["mlir"]) op.example.mlir = example["mlir"].Scalar();
      // An example on a grid gives process (0, 0)'s values only (the seed's
      // mlir block has every process's): not a whole case. The corpus's
      // run_parallel files hold those ops' examples with every process.
      op.example.runnable =
          op.regions.empty() &&
          op.example.instance->num_replicas * op.example.instance->num_partitions == 1;
      auto literals = [&](const YAML::Node& group, const std::vector<ValueSpec>& specs,
                          std::vector<std::pair<std::string, std::string>>* out) {
        for (const ValueSpec& spec : specs) {
          const YAML::Node& value = group ? group[spec.name] : YAML::Node();
          std::vector<std::string> texts;
          if (value && value.IsSequence()) {
            for (const YAML::Node& item : value) texts.push_back(item.Scalar());
          } else if (value) {
            texts.push_back(value.Scalar());
          } else {
            op.example.runnable = false;
          }
          for (const std::string& text : texts) {
            if (text.find("dense<") == std::string::npos) op.example.runnable = false;
            out->emplace_back(spec.name, text);
          }
        }
      };
      literals(example["operands"], op.operands, &op.example.operand_literals);
      literals(example["results"], op.results, &op.example.result_literals);
    }
    if (const YAML::Node& maps = root["indexing_maps"]) {
      auto section = ParseIndexingMapsSpec(*this, maps, op);
      HLOCHECK_RETURN_IF_ERROR(section.status());
      op.indexing_maps = std::make_shared<const IndexingMapsSpec>(*std::move(section));
    }
    for (auto& [index, node] : violations) {
      if (op.example.instance == nullptr) {
        return Error(node, "violated_by mutates the op's example, and there is none");
      }
      auto instance = InstanceFromYaml(op, node, file_, op.example.instance.get());
      HLOCHECK_RETURN_IF_ERROR(instance.status());
      op.constraints[index].violating = std::make_shared<const OpInstance>(*std::move(instance));
    }
    // A rank rule without rank_violated_by: the example with a trailing
    // dimension of size 1 on every value of the group, which keeps sizes and
    // leading dimensions (what the numbered constraints compare) and keeps
    // a variadic group's values alike.
    for (const DerivedViolation& d : derived_violations) {
      if (op.example.instance == nullptr) {
        return Error(root, op.constraints[d.constraint].id + " needs the op's example");
      }
      OpInstance instance = *op.example.instance;
      auto& values = d.operand ? instance.operands[d.group] : instance.results[d.group];
      for (ValueType& type : values) {
        if (type.kind == ValueType::Kind::kTensor) type.shape.push_back(1);
      }
      op.constraints[d.constraint].violating =
          std::make_shared<const OpInstance>(std::move(instance));
    }
    return op;
  }
};

}  // namespace

absl::StatusOr<OpSpec> ParseOpSpec(const std::string& yaml_text, const std::string& file) {
  return Loader(file).Load(yaml_text);
}

absl::StatusOr<TypeConstraints> LoadTypeConstraints(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(path + ": cannot open the type constraints file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return Loader(path).LoadTypes(buffer.str());
}

absl::StatusOr<OpSpec> LoadOpSpec(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(path + ": cannot open the op file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseOpSpec(buffer.str(), path);
}

}  // namespace hlocheck::spec
