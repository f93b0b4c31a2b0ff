#include "runners/coverage.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "core/element_value.h"
#include "spec/verifier.h"

namespace hlocheck {
namespace {

constexpr int kMaxRank = 6;

bool IsBoundarySize(int64_t d) {
  std::span<const int64_t> sizes = KernelBoundarySizes();
  return std::find(sizes.begin(), sizes.end(), d) != sizes.end();
}

// NaN, infinities, -0, subnormals; integer minimum and maximum.
template <ElementType T>
bool IsSpecial(ContainerT<T> v) {
  if constexpr (IsBool(T)) {
    return false;
  } else if constexpr (IsInteger(T)) {
    return static_cast<int64_t>(v) == IntegerMin(T) ||
           static_cast<uint64_t>(v) == IntegerMaxUnsigned(T);
  } else if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    return IsSpecial<kPart>(v.real()) || IsSpecial<kPart>(v.imag());
  } else {
    double x = ToDouble<T>(v);
    const FloatFormat& f = Format(T);
    return std::isnan(x) || std::isinf(x) || (x == 0 && std::signbit(x)) ||
           (x != 0 && std::fabs(x) < std::ldexp(1.0, f.min_normal_exponent()));
  }
}

bool HasSpecialValues(const Tensor& t) {
  return DispatchElementType(t.element_type(), [&]<ElementType T>() {
    for (auto v : t.values<T>()) {
      if (IsSpecial<T>(v)) return true;
    }
    return false;
  });
}

}  // namespace

std::vector<std::string> CaseFeatures(const GeneratedCase& g) {
  std::set<std::string> features;
  auto shapes = [&](const std::vector<std::vector<ValueType>>& groups) {
    for (const auto& group : groups) {
      for (const ValueType& t : group) {
        if (!t.is_tensor()) {
          features.insert(t.kind == ValueType::Kind::kToken ? "token" : "tuple");
          continue;
        }
        if (t.quantization) {
          features.insert(t.quantization->quantization_dimension ? "per_axis_quantized"
                                                                 : "per_tensor_quantized");
        }
        if (t.shape.empty()) features.insert("rank_0");
        if (static_cast<int>(t.shape.size()) >= kMaxRank) features.insert("max_rank");
        for (int64_t d : t.shape) {
          if (d == 0) features.insert("zero_sized_dim");
          if (d == 1) features.insert("size_1_dim");
          if (IsBoundarySize(d)) features.insert("kernel_boundary_size");
        }
      }
    }
  };
  shapes(g.instance.operands);
  shapes(g.instance.results);
  for (const auto& group : g.instance.operands) {
    if (group.size() > 1) features.insert("several_variadic_values");
  }
  if (g.runnable) {
    for (const Tensor& t : g.runnable->operands) {
      if (HasSpecialValues(t)) {
        features.insert("special_values");
        break;
      }
    }
  }
  if (g.instance.num_replicas * g.instance.num_partitions > 1) features.insert("several_processes");
  return {features.begin(), features.end()};
}

absl::StatusOr<CoverageRun> MeasureCoverage(const spec::SpecRegistry& registry,
                                            const CoverageOptions& options) {
  CoverageRun run;
  run.options = options;
  std::vector<const spec::OpSpec*> ops;
  if (options.ops.empty()) {
    for (const spec::OpSpec& op : registry.ops()) ops.push_back(&op);
  } else {
    for (const std::string& name : options.ops) {
      const spec::OpSpec* op = registry.Find(name);
      if (op == nullptr) return absl::InvalidArgumentError("unknown op '" + name + "'");
      ops.push_back(op);
    }
  }
  GenerationCheckOptions check;
  check.seed = options.seed;
  check.cases = options.cases;
  check.max_elements = options.max_elements;
  for (const spec::OpSpec* op : ops) {
    OpCoverage coverage;
    coverage.op = op->name;
    coverage.has_recipe = !op->recipe.empty();
    std::map<std::string, ConstraintCoverage*> by_id;
    for (const spec::ConstraintSpec& c : op->constraints) {
      ConstraintCoverage cc;
      cc.id = c.DisplayId();
      cc.source = c.source;
      cc.seed = c.source == "seed";
      cc.conditional = c.condition.has_value();
      cc.not_violable_alone = c.not_violable_alone;
      coverage.constraints.push_back(cc);
    }
    for (ConstraintCoverage& cc : coverage.constraints) by_id[cc.id] = &cc;
    if (!coverage.has_recipe) {
      run.ops.push_back(std::move(coverage));
      continue;
    }
    for (int64_t i = 0; i < options.cases; ++i) {
      GenerationOptions generation;
      generation.primary_type = CaseType(*op, check, i);
      generation.max_elements = options.max_elements;
      uint64_t seed =
          CaseSeed(options.seed, op->name, generation.primary_type.value_or(ElementType::kI1), i);
      GeneratedCase g;
      try {
        g = GenerateInstance(*op, generation, seed, CaseSize(i, options.cases)).value();
      } catch (const std::exception& e) {
        return absl::InternalError(op->name + ": generation failed: " + e.what());
      }
      spec::VerifyResult verdict = spec::Verify(*op, g.instance, &registry);
      if (!verdict.valid()) {
        return absl::InternalError(op->name + ": a generated case is invalid (a hlocheck bug):\n" +
                                   verdict.Report());
      }
      ++coverage.valid_cases;
      coverage.element_types[generation.primary_type ? std::string(Name(*generation.primary_type))
                                                     : "none"]++;
      for (const std::string& feature : CaseFeatures(g)) coverage.features[feature]++;
      for (const spec::ConstraintResult& r : verdict.results) {
        auto it = by_id.find(r.id);
        if (it == by_id.end()) continue;  // input-table and quantized-type checks
        if (r.outcome == spec::Outcome::kHolds) ++it->second->held;
        if (r.outcome == spec::Outcome::kNotApplicable) ++it->second->not_applicable;
      }
    }
    GenerationCheckOptions negative = check;
    negative.cases = options.negative_cases;
    for (const NegativeCheck& n : CheckNegatives(registry, *op, negative)) {
      ConstraintCoverage* cc = by_id[n.id];
      cc->violated_alone = n.produced;
      cc->from_spec_instance = n.from_spec_instance;
      coverage.invalid_cases += n.produced;
    }
    run.ops.push_back(std::move(coverage));
  }
  return run;
}

nlohmann::json CoverageToJson(const CoverageRun& run) {
  nlohmann::json ops = nlohmann::json::object();
  for (const OpCoverage& op : run.ops) {
    nlohmann::json constraints = nlohmann::json::object();
    for (const ConstraintCoverage& c : op.constraints) {
      nlohmann::json entry = {
          {"source", c.source},
          {"conditional", c.conditional},
          {"valid", {{"held", c.held}}},
          {"invalid",
           {{"violated_alone", c.violated_alone}, {"from_spec_instance", c.from_spec_instance}}}};
      if (c.conditional) entry["valid"]["not_applicable"] = c.not_applicable;
      if (!c.not_violable_alone.empty()) entry["not_violable_alone"] = c.not_violable_alone;
      constraints[c.id] = std::move(entry);
    }
    ops[op.op] = {{"has_recipe", op.has_recipe},       {"valid_cases", op.valid_cases},
                  {"invalid_cases", op.invalid_cases}, {"element_types", op.element_types},
                  {"features", op.features},           {"constraints", std::move(constraints)}};
  }
  return {{"format", "hlocheck-coverage/1"},
          {"seed", run.options.seed},
          {"cases_per_op", run.options.cases},
          {"negative_cases_per_constraint", run.options.negative_cases},
          {"max_elements", run.options.max_elements},
          {"ops", std::move(ops)}};
}

std::string CoverageTable(const CoverageRun& run) {
  std::ostringstream out;
  int64_t exercised = 0, total = 0, negatives = 0, uncovered_branches = 0;
  for (const OpCoverage& op : run.ops) {
    out << op.op << ": ";
    if (!op.has_recipe) {
      out << "no recipe\n";
      continue;
    }
    out << op.valid_cases << " valid, " << op.invalid_cases << " invalid cases; features:";
    for (const auto& [feature, count] : op.features) out << " " << feature << "=" << count;
    out << "\n";
    for (const ConstraintCoverage& c : op.constraints) {
      ++total;
      exercised += c.held > 0;
      negatives += c.violated_alone > 0;
      out << "  " << c.id << ": held " << c.held;
      if (c.conditional) {
        out << ", not applicable " << c.not_applicable;
        uncovered_branches += (c.held == 0) + (c.not_applicable == 0);
      }
      if (!c.not_violable_alone.empty()) {
        out << "; not violable alone";
      } else {
        out << "; violated alone " << c.violated_alone;
        if (c.from_spec_instance > 0)
          out << " (" << c.from_spec_instance << " the spec's instance)";
      }
      out << "\n";
    }
  }
  out << "constraints exercised by valid cases: " << exercised << " of " << total
      << "; violated alone by invalid cases: " << negatives << " of " << total
      << "; conditional branches never taken: " << uncovered_branches << "\n";
  return out.str();
}

std::vector<std::string> CaseFeatures(const Case& c) {
  std::set<std::string> features;
  auto shape = [&](const Shape& dims) {
    if (dims.empty()) features.insert("rank_0");
    if (static_cast<int>(dims.size()) >= kMaxRank) features.insert("max_rank");
    for (int64_t d : dims) {
      if (d == 0) features.insert("zero_sized_dim");
      if (d == 1) features.insert("size_1_dim");
      if (IsBoundarySize(d)) features.insert("kernel_boundary_size");
    }
  };
  for (const Tensor& t : c.operands) {
    shape(t.shape());
    if (HasSpecialValues(t)) features.insert("special_values");
  }
  for (const TensorType& t : c.result_types) shape(t.shape);
  return {features.begin(), features.end()};
}

}  // namespace hlocheck
