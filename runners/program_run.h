// One program of a run of random programs, from drawing to finding: drawn
// (generators/program_generator.h), judged against the oracle
// (program_check.h), run again as its metamorphic variants
// (program_variants.h), and a failure shrunk (program_shrink.h). Shared by
// `hlocheck programs` and `hlocheck fuzz --programs`, so that program K of
// a seed is the same program, checked the same way, in both.
#ifndef HLOCHECK_RUNNERS_PROGRAM_RUN_H_
#define HLOCHECK_RUNNERS_PROGRAM_RUN_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adapters/program/program_backend.h"
#include "generators/program_generator.h"
#include "oracle/oracle.h"
#include "runners/backend_profile.h"
#include "runners/flags.h"
#include "runners/program_check.h"
#include "runners/program_shrink.h"

namespace hlocheck {

// Program K's seed in a run of seed S.
uint64_t ProgramSeed(uint64_t seed, int64_t index);

// @main's output types.
std::vector<TensorType> ProgramOutputTypes(const Module& module);

struct ProgramFinding {
  std::string signature;
  std::string relation;  // "" for the program itself
  std::string relation_detail;
  ProgramOutcome::Kind kind = ProgramOutcome::Kind::kPass;
  std::string message;
  std::string failing_op;  // the op that made the failing output (or the ops, for errors)
  ElementType output_type = ElementType::kF32;
  int64_t program_index = 0;
  int ops_before = 0;
  int ops_after = 0;
  int shrink_attempts = 0;
  bool original_passes = false;  // for relations: the shrunk program itself passes
  std::string module_text;       // shrunk, arguments as constants
  int count = 1;
};

// What a run is: the same settings give the same programs and checks.
struct ProgramRunSettings {
  ProgramOptions options;
  std::vector<std::string> relations;  // of ProgramRelations()
  uint64_t seed = 1;
  int shrink_attempts = 150;
};

// What one program added to the run.
struct ProgramUnitResult {
  bool generated = true;    // false: the generator could not draw it
  bool ran = false;         // the oracle ran it (the counts below hold)
  std::string unsupported;  // the oracle cannot run one of its ops: why
  std::string invalid;      // the oracle refused it as invalid (a generator bug): why
  int64_t drawn_ops = 0, adaptation_ops = 0, variants_run = 0;
  int64_t output_elements = 0, determined = 0, compared = 0, bounded = 0;
  std::map<std::string, int64_t> unchecked_by_cause;
  bool deviating = false;
  std::optional<ProgramFinding> finding;  // shrunk
};

class ProgramsRun {
 public:
  ProgramsRun(const spec::SpecRegistry& registry, const Oracle& oracle, ProgramBackend& backend,
              const BackendProfile* profile)
      : registry_(registry), oracle_(oracle), backend_(backend), profile_(profile) {}

  // The oracle's reference and the backend's outcome for a program.
  ProgramTrial Trial(const ProgramUnderTest& program);
  ProgramOutcome RunOnBackend(const ProgramUnderTest& program, const ProgramReference& reference);

  // Program `index` of the run: drawn, checked, its variants run where it
  // passes, and its first failure shrunk (at most until `out_of_budget`).
  ProgramUnitResult Check(const ProgramRunSettings& settings, int64_t index,
                          const std::function<bool()>& out_of_budget);

  int64_t backend_runs() const { return backend_runs_; }
  const spec::SpecRegistry& registry() const { return registry_; }

 private:
  ProgramFinding Shrink(const ProgramRunSettings& settings, const ProgramUnderTest& program,
                        int64_t index, const std::string& relation, const std::string& detail,
                        const ProgramTrialFn& trial_fn, ProgramTrial failing,
                        const std::function<bool()>& out_of_budget);

  const spec::SpecRegistry& registry_;
  const Oracle& oracle_;
  ProgramBackend& backend_;
  const BackendProfile* profile_;
  int64_t backend_runs_ = 0;
};

// A failure, not a pass or a deviation as declared.
bool Fails(const ProgramOutcome& outcome);

// A program backend as the commands open it (programs, fuzz --programs,
// replay of a program file): its --backend-option flags applied, its
// profile (--profile FILE|none, else backends/NAME.yaml for pjrt:NAME and
// external:NAME), and `options` told what it takes (the profile's
// unsupported ops and quantized entries, the types its boundary holds).
// `options` must not outlive the result.
struct OpenedProgramBackend {
  ProgramBackendHandle handle;
  std::optional<BackendProfile> profile;
  const BackendProfile* profile_or_null() const { return profile ? &*profile : nullptr; }
};
absl::StatusOr<std::unique_ptr<OpenedProgramBackend>> OpenProgramBackend(
    const Flags& flags, const spec::SpecRegistry& registry, double case_timeout,
    ProgramOptions* options);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_PROGRAM_RUN_H_
