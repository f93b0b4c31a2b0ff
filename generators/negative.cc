#include "generators/negative.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "generators/choice.h"
#include "generators/region_bodies.h"
#include "spec/instance.h"
#include "spec/verifier.h"

namespace hlocheck {
namespace {

// Identifiers in a formula's text (names of operands, attributes, functions
// and local variables alike; the caller keeps those it knows).
std::set<std::string> Identifiers(const std::string& text) {
  std::set<std::string> names;
  for (size_t i = 0; i < text.size();) {
    if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
      size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      names.insert(text.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  return names;
}

int64_t Draw(int64_t lo, int64_t hi) { return Choose(rc::gen::inRange<int64_t>(lo, hi + 1)); }

ElementType DrawElementType(const spec::ValueSpec* spec, ElementType current) {
  // Mostly a type the input accepts (so that only the numbered constraint
  // breaks, not the Inputs table), sometimes any type.
  std::vector<ElementType> pool;
  if (spec != nullptr && Draw(0, 3) != 0) pool = spec->types.element_types;
  if (pool.empty()) pool.assign(AllElementTypes().begin(), AllElementTypes().end());
  pool.erase(std::remove(pool.begin(), pool.end(), current), pool.end());
  if (pool.empty()) return current;
  return Choose(rc::gen::elementOf(pool));
}

std::string MutateShape(Shape& shape) {
  switch (shape.empty() ? 0 : Draw(0, 4)) {
    case 0: {
      int64_t at = Draw(0, static_cast<int64_t>(shape.size()));
      int64_t dim = Draw(1, 3);
      shape.insert(shape.begin() + at, dim);
      return "inserted dimension " + std::to_string(dim) + " at " + std::to_string(at);
    }
    case 1: {
      int64_t at = Draw(0, static_cast<int64_t>(shape.size()) - 1);
      shape.erase(shape.begin() + at);
      return "removed dimension " + std::to_string(at);
    }
    case 2:
    case 3: {
      int64_t at = Draw(0, static_cast<int64_t>(shape.size()) - 1);
      int64_t old = shape[at];
      int64_t choices[] = {old + 1, old > 0 ? old - 1 : 2, old * 2 + 1, 0, 1};
      shape[at] =
          Choose(rc::gen::elementOf(std::vector<int64_t>(std::begin(choices), std::end(choices))));
      if (shape[at] == old) shape[at] = old + 1;
      return "dimension " + std::to_string(at) + " " + std::to_string(old) + " -> " +
             std::to_string(shape[at]);
    }
    default: {
      if (shape.size() < 2) return MutateShape(shape);
      int64_t a = Draw(0, static_cast<int64_t>(shape.size()) - 1);
      int64_t b = Draw(0, static_cast<int64_t>(shape.size()) - 1);
      std::swap(shape[a], shape[b]);
      return "swapped dimensions " + std::to_string(a) + " and " + std::to_string(b);
    }
  }
}

std::string MutateQuantization(ValueType& t) {
  UniformQuantization& q = *t.quantization;
  switch (Draw(0, 5)) {
    case 0:
      t.quantization.reset();
      return "dropped the quantization";
    case 1:
      if (!q.scales.empty()) q.scales[Draw(0, q.scales.size() - 1)] *= -1;
      return "negated a scale";
    case 2:
      q.expressed_type =
          Choose(rc::gen::element(ElementType::kF16, ElementType::kBF16, ElementType::kF32,
                                  ElementType::kF64, ElementType::kSI32));
      return "expressed type -> " + std::string(Name(q.expressed_type));
    case 3:
      q.storage_min = q.storage_max + Draw(-1, 1);
      return "storage range narrowed";
    case 4:
      if (q.quantization_dimension) {
        *q.quantization_dimension += Draw(0, 1) ? 1 : -1 - *q.quantization_dimension;
        return "quantization dimension -> " + std::to_string(*q.quantization_dimension);
      }
      q.zero_points.push_back(0);
      q.scales.push_back(1.0);
      return "added a scale";
    default:
      if (!q.zero_points.empty()) q.zero_points[0] = q.storage_max + 1;
      return "zero point beyond the storage range";
  }
}

std::string MutateType(ValueType& t, const spec::ValueSpec* spec) {
  if (t.kind == ValueType::Kind::kTuple) {
    if (!t.elements.empty() && Draw(0, 1)) {
      t.elements.pop_back();
      return "dropped a tuple element";
    }
    t.elements.push_back(ValueType::Of(TensorType{{}, ElementType::kF32}));
    return "added a tuple element";
  }
  if (t.kind == ValueType::Kind::kToken) {
    t = ValueType::Of(TensorType{{}, ElementType::kF32});
    return "token -> tensor<f32>";
  }
  switch (Draw(0, t.quantization ? 4 : 3)) {
    case 0:
    case 1:
      return MutateShape(t.shape);
    case 2:
    case 3: {
      ElementType old = t.element_type;
      t.element_type = DrawElementType(spec, old);
      return "element type " + std::string(Name(old)) + " -> " + std::string(Name(t.element_type));
    }
    default:
      return MutateQuantization(t);
  }
}

std::string MutateGroup(std::vector<ValueType>& group, const spec::ValueSpec* spec, bool variadic,
                        const std::string& name) {
  if (variadic && Draw(0, 3) == 0) {
    if (!group.empty() && Draw(0, 1)) {
      group.erase(group.begin() + Draw(0, static_cast<int64_t>(group.size()) - 1));
      return name + ": dropped a value";
    }
    if (!group.empty()) {
      group.push_back(group[Draw(0, static_cast<int64_t>(group.size()) - 1)]);
      return name + ": repeated a value";
    }
  }
  if (group.empty()) {
    group.push_back(ValueType::Of(TensorType{{}, ElementType::kF32}));
    return name + ": added a value";
  }
  size_t at = static_cast<size_t>(Draw(0, static_cast<int64_t>(group.size()) - 1));
  return name + (group.size() > 1 ? "[" + std::to_string(at) + "]" : "") + ": " +
         MutateType(group[at], spec);
}

std::string MutateIntList(std::vector<int64_t>& v) {
  switch (v.empty() ? 0 : Draw(0, 5)) {
    case 0:
      v.push_back(Draw(-1, 6));
      return "appended " + std::to_string(v.back());
    case 1:
      v.erase(v.begin() + Draw(0, static_cast<int64_t>(v.size()) - 1));
      return "removed an element";
    case 2: {
      size_t at = Draw(0, static_cast<int64_t>(v.size()) - 1);
      v[at] = v[Draw(0, static_cast<int64_t>(v.size()) - 1)] + Draw(-1, 1);
      return "element " + std::to_string(at) + " -> " + std::to_string(v[at]);
    }
    case 3: {
      size_t at = Draw(0, static_cast<int64_t>(v.size()) - 1);
      v[at] = Choose(rc::gen::element<int64_t>(-1, -2, 0, 7, v[at] + 1, v[at] - 1, v[at] * 2 + 8));
      return "element " + std::to_string(at) + " -> " + std::to_string(v[at]);
    }
    case 4:
      std::reverse(v.begin(), v.end());
      return "reversed";
    default: {
      size_t a = Draw(0, static_cast<int64_t>(v.size()) - 1);
      v.insert(v.begin() + a, v[a]);
      return "repeated element " + std::to_string(a);
    }
  }
}

std::string MutateAttribute(Attribute& a, const spec::AttributeSpec& spec) {
  return std::visit(
      [&](auto& value) -> std::string {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, bool>) {
          value = !value;
          return value ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          value = Choose(rc::gen::element<int64_t>(value + 1, value - 1, -1, 0, 8, -value - 2));
          return std::to_string(value);
        } else if constexpr (std::is_same_v<T, double>) {
          value = Choose(rc::gen::element(-1.0, 0.0, -value));
          return std::to_string(value);
        } else if constexpr (std::is_same_v<T, std::string>) {
          value = value.empty() ? "x" : "";
          return "\"" + value + "\"";
        } else if constexpr (std::is_same_v<T, EnumValue>) {
          std::vector<std::string> others;
          for (const std::string& e : spec.enum_values) {
            if (e != value.name) others.push_back(e);
          }
          if (others.empty()) return "unchanged";
          value.name = Choose(rc::gen::elementOf(others));
          return value.name;
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          return MutateIntList(value);
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          if (value.empty() || Draw(0, 2) == 0) {
            value.push_back(false);
            return "appended false";
          }
          if (Draw(0, 1)) {
            value.pop_back();
            return "removed an element";
          }
          size_t at = Draw(0, static_cast<int64_t>(value.size()) - 1);
          value[at] = !value[at];
          return "flipped element " + std::to_string(at);
        } else if constexpr (std::is_same_v<T, std::vector<EnumValue>>) {
          if (value.empty() || Draw(0, 2) == 0) {
            value.push_back(EnumValue{spec.enum_values.empty() ? "X" : spec.enum_values[0]});
            return "appended an element";
          }
          value.pop_back();
          return "removed an element";
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          if (!value.empty() && Draw(0, 1)) {
            value.pop_back();
            return "removed an element";
          }
          value.push_back("x");
          return "appended an element";
        } else {
          // A tensor constant (si64 matrices such as replica_groups).
          if (value.element_type() != ElementType::kSI64 || value.num_elements() == 0) {
            Shape shape = value.shape();
            std::string what = MutateShape(shape);
            value = Tensor(TensorType{shape, value.element_type()});
            return "shape: " + what + " (zeros)";
          }
          auto data = value.template values<ElementType::kSI64>();
          size_t at = Draw(0, static_cast<int64_t>(data.size()) - 1);
          if (Draw(0, 2) == 0 && value.rank() == 2 && value.shape()[0] > 1) {
            // Drop the last row.
            Shape shape = value.shape();
            shape[0] -= 1;
            Tensor smaller(TensorType{shape, ElementType::kSI64});
            auto out = smaller.template values<ElementType::kSI64>();
            std::copy(data.begin(), data.begin() + out.size(), out.begin());
            value = std::move(smaller);
            return "removed the last row";
          }
          data[at] =
              Choose(rc::gen::element<int64_t>(data[at] + 1, -1, data[(at + 1) % data.size()], 99));
          return "element " + std::to_string(at) + " -> " + std::to_string(data[at]);
        }
      },
      a);
}

std::string MutateSignature(FunctionType& f) {
  std::vector<ValueType>& side = (f.outputs.empty() || Draw(0, 1)) ? f.inputs : f.outputs;
  const char* which = &side == &f.inputs ? "inputs" : "outputs";
  switch (side.empty() ? 0 : Draw(0, 3)) {
    case 0:
      side.push_back(side.empty() ? ValueType::Of(TensorType{{}, ElementType::kF32}) : side.back());
      return std::string("added one of the ") + which;
    case 1:
      side.pop_back();
      return std::string("removed one of the ") + which;
    default: {
      size_t at = Draw(0, static_cast<int64_t>(side.size()) - 1);
      return std::string(which) + "[" + std::to_string(at) + "]: " + MutateType(side[at], nullptr);
    }
  }
}

// One mutation of the instance, on one of the targets.
std::string Mutate(const spec::OpSpec& op, spec::OpInstance& instance,
                   const std::vector<std::string>& targets, bool* regions_changed) {
  const std::string& target = Choose(rc::gen::elementOf(targets));
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (op.operands[i].name == target) {
      return MutateGroup(instance.operands[i], &op.operands[i], op.operands[i].variadic, target);
    }
  }
  for (size_t i = 0; i < op.results.size(); ++i) {
    if (op.results[i].name == target) {
      return MutateGroup(instance.results[i], &op.results[i], op.results[i].variadic, target);
    }
  }
  for (size_t i = 0; i < op.regions.size(); ++i) {
    if (op.regions[i].name == target) {
      auto& group = instance.regions[i];
      if (group.empty()) return target + ": unchanged (no region)";
      *regions_changed = true;
      if (op.regions[i].variadic && Draw(0, 3) == 0) {
        group.pop_back();
        return target + ": removed a region";
      }
      size_t at = Draw(0, static_cast<int64_t>(group.size()) - 1);
      return target + ": " + MutateSignature(group[at]);
    }
  }
  for (const spec::AttributeSpec& attribute : op.attributes) {
    if (attribute.name != target) continue;
    auto it = instance.attributes.find(target);
    if (it == instance.attributes.end()) {
      return target + ": unchanged (absent)";
    }
    if (attribute.optional && Draw(0, 7) == 0) {
      instance.attributes.erase(it);
      return target + ": removed";
    }
    return target + " -> " + MutateAttribute(it->second, attribute);
  }
  if (target == "num_replicas" || target == "num_partitions") {
    int64_t& n = target == "num_replicas" ? instance.num_replicas : instance.num_partitions;
    n = n > 1 && Draw(0, 1) ? n - 1 : n + 1;
    return target + " -> " + std::to_string(n);
  }
  return target + ": unchanged";
}

// As the spec's constraint table counts it: `id` is the only constraint
// found false. Others may be unevaluable because of it (an index list of the
// wrong length cannot be compared elementwise), not violated.
bool ViolatesExactly(const spec::VerifyResult& verdict, const std::string& id) {
  return verdict.ViolatedIds() == std::vector<std::string>{id};
}

// Region bodies for mutated signatures: the first kind that fits, else an
// empty body (the instance is invalid anyway; only its types matter).
void RebuildRegions(GeneratedCase& g) {
  g.regions.clear();
  g.region_segments.clear();
  for (const auto& group : g.instance.regions) {
    for (const FunctionType& signature : group) {
      std::vector<std::string> kinds = BodyKindsFor(signature);
      absl::StatusOr<Region> body = kinds.empty()
                                        ? absl::StatusOr<Region>(absl::UnimplementedError(""))
                                        : BuildRegionBody(kinds.front(), signature);
      if (body.ok()) {
        g.regions.push_back(*std::move(body));
      } else {
        Region region;
        region.blocks.emplace_back();
        for (const ValueType& t : signature.inputs) {
          region.blocks.back().arguments.push_back(
              static_cast<ValueId>(region.blocks.back().arguments.size()));
          region.blocks.back().argument_types.push_back(t);
        }
        Operation ret;
        ret.name = "stablehlo.return";
        region.blocks.back().operations.push_back(ret);
        g.regions.push_back(std::move(region));
      }
    }
    g.region_segments.push_back(static_cast<int64_t>(group.size()));
  }
}

}  // namespace

std::vector<std::string> ConstraintTargets(const spec::OpSpec& op,
                                           const spec::ConstraintSpec& constraint) {
  std::set<std::string> names = Identifiers(constraint.formula.text);
  if (constraint.condition) {
    for (const std::string& n : Identifiers(constraint.condition->text)) names.insert(n);
  }
  // Through definitions, transitively.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, formula] : op.definitions) {
      if (!names.count(name)) continue;
      for (const std::string& n : Identifiers(formula.text)) grew |= names.insert(n).second;
    }
  }
  std::vector<std::string> targets;
  auto consider = [&](const std::string& name) {
    if (names.count(name) && std::find(targets.begin(), targets.end(), name) == targets.end()) {
      targets.push_back(name);
    }
  };
  for (const auto& v : op.operands) consider(v.name);
  for (const auto& v : op.results) consider(v.name);
  for (const auto& a : op.attributes) consider(a.name);
  for (const auto& r : op.regions) consider(r.name);
  if (names.count("num_processes")) {
    names.insert("num_replicas");
    names.insert("num_partitions");
  }
  consider("num_replicas");
  consider("num_partitions");
  // What the spec's own violating instance changes, in case the formula
  // reaches it only through a function of the whole op.
  if (constraint.violating != nullptr && op.example.instance != nullptr) {
    const spec::OpInstance& a = *op.example.instance;
    const spec::OpInstance& b = *constraint.violating;
    auto add = [&](const std::string& name) {
      if (std::find(targets.begin(), targets.end(), name) == targets.end()) targets.push_back(name);
    };
    for (size_t i = 0; i < op.operands.size() && i < a.operands.size() && i < b.operands.size();
         ++i) {
      if (!(a.operands[i] == b.operands[i])) add(op.operands[i].name);
    }
    for (size_t i = 0; i < op.results.size() && i < a.results.size() && i < b.results.size(); ++i) {
      if (!(a.results[i] == b.results[i])) add(op.results[i].name);
    }
    for (size_t i = 0; i < op.regions.size() && i < a.regions.size() && i < b.regions.size(); ++i) {
      if (!(a.regions[i] == b.regions[i])) add(op.regions[i].name);
    }
    for (const auto& attribute : op.attributes) {
      auto x = a.attributes.find(attribute.name);
      auto y = b.attributes.find(attribute.name);
      bool same = (x == a.attributes.end()) == (y == b.attributes.end()) &&
                  (x == a.attributes.end() || x->second == y->second);
      if (!same) add(attribute.name);
    }
    if (a.num_replicas != b.num_replicas) add("num_replicas");
    if (a.num_partitions != b.num_partitions) add("num_partitions");
  }
  if (targets.empty()) {
    for (const auto& v : op.operands) targets.push_back(v.name);
    for (const auto& v : op.results) targets.push_back(v.name);
    for (const auto& a : op.attributes) targets.push_back(a.name);
  }
  return targets;
}

rc::Gen<NegativeCase> NegativeCaseGenerator(const spec::SpecRegistry& registry,
                                            const spec::OpSpec& op,
                                            const spec::ConstraintSpec& constraint,
                                            const NegativeOptions& options) {
  return rc::gen::exec([&registry, &op, &constraint, options] {
    std::vector<std::string> targets = ConstraintTargets(op, constraint);
    GenerationOptions generation = options.generation;
    generation.with_data = false;
    const std::string id = constraint.DisplayId();
    const int size = *rc::gen::withSize([](int s) { return rc::gen::just(s); });
    for (int attempt = 0; attempt < options.max_attempts; ++attempt) {
      NegativeCase negative;
      // Small cases cannot break some constraints (a rank-0 operand has no
      // dimension to mutate): the base case grows as attempts fail.
      negative.generated = *rc::gen::resize(std::min(rc::kNominalSize, size + attempt / 4),
                                            GeneratedCaseGenerator(op, generation));
      negative.attempts = attempt;
      bool regions_changed = false;
      int count = Choose(rc::gen::weightedElement<int>({{6, 1}, {3, 2}, {1, 3}}));
      for (int m = 0; m < count; ++m) {
        negative.mutations.push_back(
            Mutate(op, negative.generated.instance, targets, &regions_changed));
      }
      spec::VerifyResult verdict = spec::Verify(op, negative.generated.instance, &registry);
      if (!ViolatesExactly(verdict, id)) continue;
      if (regions_changed) RebuildRegions(negative.generated);
      negative.generated.runnable.reset();
      negative.generated.plain_tensors = false;
      negative.generated.not_runnable = "an invalid case";
      return negative;
    }
    if (constraint.violating != nullptr &&
        ViolatesExactly(spec::Verify(op, *constraint.violating, &registry), id)) {
      NegativeCase negative;
      negative.generated.instance = *constraint.violating;
      RebuildRegions(negative.generated);
      negative.generated.not_runnable = "an invalid case";
      negative.attempts = options.max_attempts;
      negative.from_spec_instance = true;
      negative.mutations.push_back("the spec's violated_by instance");
      return negative;
    }
    throw rc::GenerationFailure(op.file + ": no instance violating only " + id + " of " + op.name +
                                " in " + std::to_string(options.max_attempts) + " attempts");
  });
}

rc::Shrinkable<NegativeCase> GenerateNegative(const spec::SpecRegistry& registry,
                                              const spec::OpSpec& op,
                                              const spec::ConstraintSpec& constraint,
                                              const NegativeOptions& options, uint64_t seed,
                                              int size) {
  return NegativeCaseGenerator(registry, op, constraint, options)(rc::Random(seed), size);
}

}  // namespace hlocheck
