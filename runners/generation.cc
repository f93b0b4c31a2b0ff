#include "runners/generation.h"

#include <chrono>

#include "core/status_macros.h"
#include "mlir/writer.h"
#include "spec/verifier.h"

namespace hlocheck {

std::optional<ElementType> CaseType(const spec::OpSpec& op, const GenerationCheckOptions& options,
                                    int64_t index) {
  if (options.type) return options.type;
  std::vector<ElementType> types = PrimaryTypes(op);
  if (types.empty()) return std::nullopt;
  return types[static_cast<size_t>(index) % types.size()];
}

OpGenerationCheck CheckGeneration(const spec::SpecRegistry& registry, const spec::OpSpec& op,
                                  const GenerationCheckOptions& options) {
  OpGenerationCheck check;
  check.op = op.name;
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < options.cases; ++i) {
    GenerationOptions generation;
    generation.primary_type = CaseType(op, options, i);
    generation.max_elements = options.max_elements;
    generation.with_data = options.with_data;
    std::string type_name =
        generation.primary_type ? std::string(Name(*generation.primary_type)) : "any";
    uint64_t seed =
        CaseSeed(options.seed, op.name, generation.primary_type.value_or(ElementType::kI1), i);
    int size = CaseSize(i, options.cases);
    GeneratedCase g;
    try {
      g = GenerateInstance(op, generation, seed, size).value();
    } catch (const std::exception& e) {
      check.error = e.what();
      break;
    }
    ++check.cases;
    check.draws += 1 + g.discards;
    if (g.plain_tensors) ++check.runnable;
    spec::VerifyResult verdict = spec::Verify(op, g.instance, &registry);
    if (!verdict.valid()) {
      if (check.invalid++ == 0) {
        check.first_invalid_report = verdict.Report();
        check.first_invalid_snippet = GeneratedSnippet(registry, op, g);
        check.first_invalid_replay = FormatReplay(
            {op.name, generation.primary_type, seed, size, options.max_elements, {}, {}});
      }
    }
  }
  check.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return check;
}

std::vector<NegativeCheck> CheckNegatives(const spec::SpecRegistry& registry,
                                          const spec::OpSpec& op,
                                          const GenerationCheckOptions& options) {
  std::vector<NegativeCheck> checks;
  for (const spec::ConstraintSpec& constraint : op.constraints) {
    NegativeCheck check;
    check.op = op.name;
    check.id = constraint.DisplayId();
    check.source = constraint.source;
    check.seed = constraint.source == "seed";
    check.not_violable_alone = constraint.not_violable_alone;
    if (!constraint.not_violable_alone.empty()) {
      checks.push_back(std::move(check));
      continue;
    }
    auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < options.cases; ++i) {
      NegativeOptions negative;
      negative.generation.primary_type = CaseType(op, options, i);
      negative.generation.max_elements = options.max_elements;
      uint64_t seed = CaseSeed(options.seed, op.name + "!" + check.id,
                               negative.generation.primary_type.value_or(ElementType::kI1), i);
      int size = CaseSize(i, options.cases);
      ++check.requested;
      try {
        NegativeCase n = GenerateNegative(registry, op, constraint, negative, seed, size).value();
        ++check.produced;
        check.from_spec_instance += n.from_spec_instance;
        check.attempts += n.attempts + 1;
        // Show a mutation when there is one, the fallback only otherwise.
        if (check.produced == 1 || (check.first_from_spec_instance && !n.from_spec_instance)) {
          check.first_from_spec_instance = n.from_spec_instance;
          check.first_snippet = GeneratedSnippet(registry, op, n.generated);
          check.first_mutations = n.mutations;
          ReplayKey key{
              op.name, negative.generation.primary_type, seed, size, options.max_elements, {}, {}};
          key.violates = check.id;
          check.first_replay = FormatReplay(key);
        }
      } catch (const std::exception& e) {
        check.attempts += negative.max_attempts;
        if (check.error.empty()) check.error = e.what();
      }
    }
    check.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    checks.push_back(std::move(check));
  }
  return checks;
}

absl::StatusOr<GeneratedCase> ReplayGenerated(const spec::SpecRegistry& registry,
                                              const ReplayKey& key) {
  const spec::OpSpec* op = registry.Find(key.op);
  if (op == nullptr) return absl::InvalidArgumentError("unknown op '" + key.op + "'");
  GenerationOptions generation;
  generation.primary_type = key.type;
  generation.max_elements = key.max_elements;
  try {
    if (key.violates.empty()) {
      return FollowShrinkPath(GenerateInstance(*op, generation, key.seed, key.size),
                              key.shrink_path);
    }
    for (const spec::ConstraintSpec& constraint : op->constraints) {
      if (constraint.DisplayId() != key.violates) continue;
      NegativeOptions negative;
      negative.generation = generation;
      auto n = FollowShrinkPath(
          GenerateNegative(registry, *op, constraint, negative, key.seed, key.size),
          key.shrink_path);
      HLOCHECK_RETURN_IF_ERROR(n.status());
      return n->generated;
    }
    return absl::InvalidArgumentError(op->name + " has no constraint " + key.violates);
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(std::string("cannot rebuild the case: ") + e.what());
  }
}

std::string GeneratedSnippet(const spec::SpecRegistry& registry, const spec::OpSpec& op,
                             const GeneratedCase& generated) {
  Operation operation = GeneratedOperation(op, generated);
  std::string text = mlir::PrintOperation(operation, registry, 0);
  std::string grid;
  if (generated.instance.num_replicas != 1 || generated.instance.num_partitions != 1) {
    grid = "// num_replicas = " + std::to_string(generated.instance.num_replicas) +
           ", num_partitions = " + std::to_string(generated.instance.num_partitions) + "\n";
  }
  return grid + text;
}

}  // namespace hlocheck
