#include "runners/generation.h"

#include <chrono>

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
    std::string type_name = generation.primary_type ? std::string(Name(*generation.primary_type)) : "any";
    uint64_t seed = CaseSeed(options.seed, op.name, generation.primary_type.value_or(ElementType::kI1), i);
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
        check.first_invalid_replay =
            FormatReplay({op.name, generation.primary_type, seed, size, options.max_elements, {}});
      }
    }
  }
  check.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return check;
}

absl::StatusOr<GeneratedCase> ReplayGenerated(const spec::SpecRegistry& registry,
                                              const ReplayKey& key) {
  const spec::OpSpec* op = registry.Find(key.op);
  if (op == nullptr) return absl::InvalidArgumentError("unknown op '" + key.op + "'");
  GenerationOptions generation;
  generation.primary_type = key.type;
  generation.max_elements = key.max_elements;
  try {
    rc::Shrinkable<GeneratedCase> shrinkable = GenerateInstance(*op, generation, key.seed, key.size);
    for (int step : key.shrink_path) {
      auto shrinks = shrinkable.shrinks();
      std::optional<rc::Shrinkable<GeneratedCase>> chosen;
      for (int i = 0; i <= step; ++i) {
        auto next = shrinks.next();
        if (!next) {
          return absl::InvalidArgumentError(
              "the shrink path does not fit this case (was it made by another hlocheck version?)");
        }
        if (i == step) chosen = *next;
      }
      shrinkable = *chosen;
    }
    return shrinkable.value();
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
