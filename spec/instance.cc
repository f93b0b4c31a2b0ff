#include "spec/instance.h"

#include <set>

#include "absl/status/status.h"
#include "core/literal.h"
#include "core/status_macros.h"
#include "spec/attributes.h"
#include "yaml-cpp/yaml.h"

namespace hlocheck::spec {
namespace {

std::string Where(const std::string& file, const YAML::Node& node) {
  YAML::Mark mark = node.Mark();
  if (mark.is_null()) return file;
  return file + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

absl::Status Error(const std::string& file, const YAML::Node& node, const std::string& message) {
  return absl::InvalidArgumentError(Where(file, node) + ": " + message);
}

// A type, or a dense literal whose type is taken.
absl::StatusOr<ValueType> ValueTypeFromText(const std::string& text) {
  if (text.find("dense<") != std::string::npos) {
    auto tensor = ParseDenseAttribute(text);
    HLOCHECK_RETURN_IF_ERROR(tensor.status());
    return ValueType::Of(tensor->type());
  }
  return ParseValueType(text);
}

// The entries of a name -> value(s) mapping for the spec entries `specs`.
template <typename T, typename Spec, typename Parse>
absl::Status ReadGroup(const std::string& file, const YAML::Node& node, const char* what,
                       const std::vector<Spec>& specs, Parse parse,
                       std::vector<std::vector<T>>* out) {
  if (!node.IsMap()) return Error(file, node, std::string("expected a mapping of ") + what);
  for (const auto& entry : node) {
    std::string name = entry.first.Scalar();
    size_t index = specs.size();
    for (size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].name == name) index = i;
    }
    if (index == specs.size()) {
      std::string known;
      for (const auto& s : specs) known += (known.empty() ? "" : ", ") + s.name;
      return Error(file, entry.first,
                   std::string("no ") + what + " named '" + name + "'; expected one of: " + known);
    }
    std::vector<T> values;
    auto add = [&](const YAML::Node& item) -> absl::Status {
      if (!item.IsScalar()) return Error(file, item, "expected a type or a literal");
      auto value = parse(item.Scalar());
      if (!value.ok()) return Error(file, item, std::string(value.status().message()));
      values.push_back(*std::move(value));
      return absl::OkStatus();
    };
    if (entry.second.IsSequence()) {
      if (!specs[index].variadic) {
        return Error(file, entry.second, "'" + name + "' is not variadic: give one value");
      }
      for (const YAML::Node& item : entry.second) {
        if (auto s = add(item); !s.ok()) return s;
      }
    } else {
      if (auto s = add(entry.second); !s.ok()) return s;
    }
    (*out)[index] = std::move(values);
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

template <typename Spec>
absl::StatusOr<std::vector<int64_t>> Segments(const std::vector<Spec>& specs, size_t count,
                                              const std::string& what) {
  size_t variadic = 0;
  for (const Spec& s : specs) variadic += s.variadic ? 1 : 0;
  size_t fixed = specs.size() - variadic;
  auto mismatch = [&] {
    return absl::InvalidArgumentError(std::to_string(count) + " " + what +
                                      " do not fit the spec's " + std::to_string(specs.size()) +
                                      " " + what + " (" + std::to_string(variadic) + " variadic)");
  };
  if (count < fixed || (variadic == 0 && count != fixed)) return mismatch();
  if (variadic > 0 && (count - fixed) % variadic != 0) return mismatch();
  std::vector<int64_t> sizes;
  for (const Spec& s : specs) {
    sizes.push_back(s.variadic ? static_cast<int64_t>((count - fixed) / variadic) : 1);
  }
  return sizes;
}

template <typename T>
std::vector<std::vector<T>> Split(const std::vector<T>& flat, const std::vector<int64_t>& sizes) {
  std::vector<std::vector<T>> groups;
  size_t next = 0;
  for (int64_t size : sizes) {
    groups.emplace_back(flat.begin() + next, flat.begin() + next + size);
    next += size;
  }
  return groups;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> SegmentSizes(const std::vector<ValueSpec>& specs,
                                                  size_t count) {
  return Segments(specs, count, "values");
}

absl::StatusOr<std::vector<int64_t>> RegionSegmentSizes(const std::vector<RegionSpec>& specs,
                                                        size_t count) {
  return Segments(specs, count, "regions");
}

absl::StatusOr<OpInstance> InstanceFromOperation(const OpSpec& op, const Operation& operation) {
  OpInstance instance;
  instance.op = op.name;
  auto operands = Segments(op.operands, operation.operand_types.size(), "operands");
  HLOCHECK_RETURN_IF_ERROR(operands.status());
  auto results = Segments(op.results, operation.result_types.size(), "results");
  HLOCHECK_RETURN_IF_ERROR(results.status());
  auto regions = Segments(op.regions, operation.regions.size(), "regions");
  HLOCHECK_RETURN_IF_ERROR(regions.status());
  instance.operands = Split(operation.operand_types, *operands);
  instance.results = Split(operation.result_types, *results);
  std::vector<FunctionType> signatures;
  for (const Region& region : operation.regions) signatures.push_back(region.type());
  instance.regions = Split(signatures, *regions);
  instance.attributes = operation.attributes;
  return instance;
}

OpInstance OpInstance::FromCase(const OpSpec& op, const Case& grid_case) {
  // The types of one process: every process of a grid has the same.
  const Case c = OneProcess(grid_case, 0);
  OpInstance instance;
  instance.op = c.op;
  instance.num_replicas = c.num_replicas;
  instance.num_partitions = c.num_partitions;
  auto split = [](const std::vector<ValueType>& flat, const std::vector<int64_t>& segments,
                  size_t groups) {
    std::vector<std::vector<ValueType>> grouped(groups);
    size_t next = 0;
    for (size_t g = 0; g < groups && next <= flat.size(); ++g) {
      int64_t count = segments.empty() ? 1 : segments[g];
      for (int64_t k = 0; k < count && next < flat.size(); ++k) grouped[g].push_back(flat[next++]);
    }
    return grouped;
  };
  instance.operands = split(c.OperandValueTypes(), c.operand_segments, op.operands.size());
  instance.results = split(c.ResultValueTypes(), c.result_segments, op.results.size());
  instance.regions.resize(op.regions.size());
  std::vector<FunctionType> signatures;
  for (const Region& region : c.regions) signatures.push_back(region.type());
  if (auto sizes = RegionSegmentSizes(op.regions, signatures.size()); sizes.ok()) {
    instance.regions = Split(signatures, c.region_segments.empty() ? *sizes : c.region_segments);
  }
  instance.attributes = c.attributes;
  return instance;
}

absl::StatusOr<OpInstance> InstanceFromYaml(const OpSpec& op, const YAML::Node& node,
                                            const std::string& file, const OpInstance* base) {
  if (!node.IsMap()) return Error(file, node, "expected a mapping describing an op instance");
  OpInstance instance;
  if (base != nullptr) {
    instance = *base;
  } else {
    instance.op = op.name;
    instance.operands.resize(op.operands.size());
    instance.results.resize(op.results.size());
    instance.regions.resize(op.regions.size());
  }
  static const std::set<std::string> kKeys = {
      "op",      "operands",     "attributes",     "regions",
      "results", "num_replicas", "num_partitions", "mlir"};
  for (const auto& entry : node) {
    std::string key = entry.first.Scalar();
    if (!kKeys.count(key)) {
      return Error(file, entry.first,
                   "unknown key '" + key +
                       "'; expected op, operands, attributes, regions, results, num_replicas, "
                       "num_partitions or mlir");
    }
  }
  if (node["op"] && node["op"].Scalar() != op.name) {
    return Error(file, node["op"],
                 "the case is for op '" + node["op"].Scalar() + "', not " + op.name);
  }
  if (const YAML::Node& operands = node["operands"]) {
    if (auto s = ReadGroup<ValueType>(file, operands, "operand", op.operands, ValueTypeFromText,
                                      &instance.operands);
        !s.ok()) {
      return s;
    }
  }
  if (const YAML::Node& results = node["results"]) {
    if (auto s = ReadGroup<ValueType>(file, results, "result", op.results, ValueTypeFromText,
                                      &instance.results);
        !s.ok()) {
      return s;
    }
  }
  if (const YAML::Node& regions = node["regions"]) {
    if (auto s = ReadGroup<FunctionType>(
            file, regions, "region", op.regions,
            [](const std::string& text) { return ParseFunctionType(text); }, &instance.regions);
        !s.ok()) {
      return s;
    }
  }
  if (const YAML::Node& attributes = node["attributes"]) {
    if (!attributes.IsMap()) return Error(file, attributes, "expected a mapping of attributes");
    for (const auto& entry : attributes) {
      std::string name = entry.first.Scalar();
      const AttributeSpec* spec = op.FindAttribute(name);
      if (spec == nullptr) return Error(file, entry.first, "no attribute named '" + name + "'");
      if (entry.second.IsNull()) {  // `name: ~` removes it
        instance.attributes.erase(name);
        continue;
      }
      YAML::Emitter out;
      out << YAML::Flow << entry.second;
      auto value = AttributeFromYaml(*spec, out.c_str());
      if (!value.ok()) return Error(file, entry.second, std::string(value.status().message()));
      instance.attributes[name] = *std::move(value);
    }
  }
  for (const char* key : {"num_replicas", "num_partitions"}) {
    if (const YAML::Node& count = node[key]) {
      try {
        int64_t value = count.as<int64_t>();
        if (value < 1) return Error(file, count, std::string(key) + " must be at least 1");
        (std::string(key) == "num_replicas" ? instance.num_replicas : instance.num_partitions) =
            value;
      } catch (const YAML::Exception&) {
        return Error(file, count, std::string("expected a whole number for ") + key);
      }
    }
  }
  return instance;
}

absl::StatusOr<OpInstance> InstanceFromYamlText(const OpSpec& op, const std::string& yaml,
                                                const std::string& file, const OpInstance* base) {
  YAML::Node node;
  try {
    node = YAML::Load(yaml);
  } catch (const YAML::ParserException& e) {
    return absl::InvalidArgumentError(file + ":" + std::to_string(e.mark.line + 1) + ":" +
                                      std::to_string(e.mark.column + 1) +
                                      ": malformed YAML: " + e.msg);
  }
  return InstanceFromYaml(op, node, file, base);
}

absl::StatusOr<OpInstance> ExampleInstance(const OpSpec& op) {
  if (op.example.instance == nullptr) return absl::NotFoundError(op.name + " has no example");
  return *op.example.instance;
}

absl::StatusOr<OpInstance> ViolatingInstance(const OpSpec& op, const ConstraintSpec& constraint) {
  if (constraint.violating == nullptr) {
    return absl::NotFoundError(
        op.name + " " + constraint.id + " has no violating instance" +
        (constraint.not_violable_alone.empty() ? "" : " (" + constraint.not_violable_alone + ")"));
  }
  return *constraint.violating;
}

}  // namespace hlocheck::spec
