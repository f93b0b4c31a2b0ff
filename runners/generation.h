// Checks of the generators themselves: every generated case of an op is
// valid (the verifier finds no violated constraint), how many draws the
// recipe rejected, and how fast cases come. `hlocheck generate` and the
// validity-at-scale test run these.
#ifndef HLOCHECK_RUNNERS_GENERATION_H_
#define HLOCHECK_RUNNERS_GENERATION_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "generators/case_generator.h"
#include "generators/negative.h"
#include "runners/gate.h"
#include "spec/registry.h"

namespace hlocheck {

struct GenerationCheckOptions {
  int64_t cases = 1000;
  uint64_t seed = kDefaultSeed;
  std::optional<ElementType> type;  // unset: the cases cycle through the op's primary types
  int64_t max_elements = 4096;
  bool with_data = false;
};

struct OpGenerationCheck {
  std::string op;
  int64_t cases = 0;     // generated
  int64_t draws = 0;     // cases plus rejected draws
  int64_t invalid = 0;   // cases the verifier rejects
  int64_t runnable = 0;  // cases with data (plain tensors in and out)
  double seconds = 0;
  std::string error;  // the recipe failed (a generation error), empty otherwise
  // The first invalid case: its verifier report, snippet and replay string.
  std::string first_invalid_report;
  std::string first_invalid_snippet;
  std::string first_invalid_replay;

  double discard_rate() const { return draws == 0 ? 0.0 : double(draws - cases) / draws; }
  bool ok() const { return error.empty() && invalid == 0; }
};

// Negative cases for one constraint: how many of the requested cases were
// produced (each violating that constraint alone), and at what cost.
struct NegativeCheck {
  std::string op;
  std::string id;                  // display id
  std::string source = "seed";     // the constraint's: seed, public or inputs (a rank rule)
  bool seed = true;                // a numbered constraint of seed 002
  std::string not_violable_alone;  // the YAML's reason, when marked
  int64_t requested = 0;
  int64_t produced = 0;
  int64_t from_spec_instance = 0;  // of `produced`: the spec's violated_by instance, not a mutation
  int64_t attempts = 0;            // draws tried, successful ones included
  double seconds = 0;
  std::string error;  // why the generator failed, if it did
  std::string first_snippet;
  std::string first_replay;
  std::vector<std::string> first_mutations;
  bool first_from_spec_instance = false;  // the example shown is the fallback

  bool working() const { return produced == requested && requested > 0; }
  // Every case a mutation of a generated case.
  bool random() const { return working() && from_spec_instance == 0; }
};

std::vector<NegativeCheck> CheckNegatives(const spec::SpecRegistry& registry,
                                          const spec::OpSpec& op,
                                          const GenerationCheckOptions& options);

// The primary type of case `index` when the options leave it open.
std::optional<ElementType> CaseType(const spec::OpSpec& op, const GenerationCheckOptions& options,
                                    int64_t index);

OpGenerationCheck CheckGeneration(const spec::SpecRegistry& registry, const spec::OpSpec& op,
                                  const GenerationCheckOptions& options);

// Rebuilds the generated case a replay string names, following its shrink
// path down the generator's own shrink tree: the tree of negative cases and
// of cases no backend runs. A gate's path, which may take an elementwise
// case's halves, is followed by Gate::Replay.
absl::StatusOr<GeneratedCase> ReplayGenerated(const spec::SpecRegistry& registry,
                                              const ReplayKey& key);

// The case as a StableHLO snippet: one op, operands %0.. (as the spec's examples).
std::string GeneratedSnippet(const spec::SpecRegistry& registry, const spec::OpSpec& op,
                             const GeneratedCase& generated);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_GENERATION_H_
