#include "runners/program_run.h"

#include <set>

#include "absl/strings/str_join.h"
#include "mlir/writer.h"
#include "runners/program_variants.h"
#include "runners/session.h"

namespace hlocheck {
namespace {

// The ops of @main, by name, each once, sorted: a finding's signature.
std::string OpNames(const Module& module) {
  std::set<std::string> names;
  for (const Operation& op : MainOf(module).body.blocks[0].operations) {
    if (op.name != "func.return") names.insert(op.name.substr(op.name.find('.') + 1));
  }
  return absl::StrJoin(names, ",");
}

// The op that produced the first output with an unexpected mismatch
// ("argument" when @main returns an argument).
std::string FailingOp(const Module& module, const ProgramOutcome& outcome) {
  const Block& block = MainOf(module).body.blocks[0];
  const Operation& ret = block.operations.back();
  size_t output = 0;
  while (output < outcome.unexpected.size() && outcome.unexpected[output] == 0) ++output;
  if (output >= ret.operands.size()) return OpNames(module);
  for (const Operation& op : block.operations) {
    for (ValueId v : op.results) {
      if (v == ret.operands[output]) return op.name.substr(op.name.find('.') + 1);
    }
  }
  return "argument";
}

}  // namespace

uint64_t ProgramSeed(uint64_t seed, int64_t index) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<TensorType> ProgramOutputTypes(const Module& module) {
  std::vector<TensorType> types;
  for (const ValueType& t : MainOf(module).type.outputs) types.push_back(t.tensor());
  return types;
}

bool Fails(const ProgramOutcome& outcome) {
  return outcome.kind != ProgramOutcome::Kind::kPass &&
         outcome.kind != ProgramOutcome::Kind::kDeviation;
}

absl::StatusOr<std::unique_ptr<OpenedProgramBackend>> OpenProgramBackend(
    const Flags& flags, const spec::SpecRegistry& registry, double case_timeout,
    ProgramOptions* options) {
  AdapterOptions adapter_options(1);
  adapter_options.registry = &registry;
  adapter_options.case_timeout_s = case_timeout;
  if (auto status = ApplyBackendOptions(flags, adapter_options); !status.ok()) return status;
  const std::string backend = flags.Get("backend");
  auto opened = std::make_unique<OpenedProgramBackend>();
  const std::string profile_path = !flags.IsSet("profile")          ? DefaultProfilePath(backend)
                                   : flags.Get("profile") == "none" ? ""
                                                                    : flags.Get("profile");
  if (!profile_path.empty()) {
    auto loaded = LoadBackendProfile(profile_path, registry);
    if (!loaded.ok()) return loaded.status();
    opened->profile = *std::move(loaded);
  }
  auto handle = CreateProgramBackend(backend, adapter_options);
  if (!handle.ok()) return handle.status();
  opened->handle = *std::move(handle);
  if (options != nullptr) {
    const BackendProfile* profile = opened->profile_or_null();
    if (profile != nullptr) {
      options->op_allowed = [profile](const std::string& op, ElementType type) {
        return profile->FindUnsupported(op, type) == nullptr;
      };
      options->quantized_allowed = [profile](const std::string& op) {
        return profile->FindUnsupportedQuantized(op) == nullptr;
      };
    }
    options->transferable = opened->handle.transferable;
  }
  return opened;
}

ProgramTrial ProgramsRun::Trial(const ProgramUnderTest& program) {
  ProgramTrial trial{
      ReferenceOfProgram(oracle_, registry_, program.module, program.arguments, profile_), {}};
  if (trial.reference.ok()) trial.outcome = RunOnBackend(program, *trial.reference);
  return trial;
}

ProgramOutcome ProgramsRun::RunOnBackend(const ProgramUnderTest& program,
                                         const ProgramReference& reference) {
  const std::string text = mlir::PrintModule(program.module, registry_);
  const std::vector<TensorType> types = ProgramOutputTypes(program.module);
  ++backend_runs_;
  return JudgeProgram(reference, backend_.Run(text, program.arguments, types), profile_);
}

ProgramFinding ProgramsRun::Shrink(const ProgramRunSettings& settings,
                                   const ProgramUnderTest& program, int64_t index,
                                   const std::string& relation, const std::string& detail,
                                   const ProgramTrialFn& trial_fn, ProgramTrial failing,
                                   const std::function<bool()>& out_of_budget) {
  ProgramFinding f;
  f.relation = relation;
  f.relation_detail = detail;
  f.program_index = index;
  f.ops_before = OpCount(program.module);
  // Shrinking stops when the budget is spent too (a compiler takes seconds
  // per trial): the finding keeps what was shrunk by then.
  auto within_budget = [&](const ProgramUnderTest& p) {
    if (out_of_budget()) return ProgramTrial{absl::DeadlineExceededError("budget spent"), {}};
    return trial_fn(p);
  };
  ShrunkProgram shrunk =
      ShrinkProgram(program, std::move(failing), within_budget, settings.shrink_attempts);
  f.kind = shrunk.trial.outcome.kind;
  f.message = shrunk.trial.outcome.message;
  f.ops_after = OpCount(shrunk.program.module);
  f.shrink_attempts = shrunk.attempts;
  if (!relation.empty()) {
    ProgramTrial original = Trial(shrunk.program);
    f.original_passes = original.reference.ok() && !Fails(original.outcome);
  }
  const std::vector<TensorType> outputs = ProgramOutputTypes(shrunk.program.module);
  f.output_type = outputs.empty() ? ElementType::kF32 : outputs[0].element_type;
  // A mismatch is signed by the op that made the failing output, so that
  // one root cause reached through different chains is one finding; other
  // failures by the ops of the shrunk program (which of them the compiler
  // choked on is not known).
  f.failing_op = f.kind == ProgramOutcome::Kind::kMismatch
                     ? FailingOp(shrunk.program.module, shrunk.trial.outcome)
                     : OpNames(shrunk.program.module);
  f.signature = std::string(ProgramOutcomeKindName(f.kind)) + "|" + relation + "|" + f.failing_op +
                "|" + std::string(Name(f.output_type));
  Module reproducer = WithConstantArguments(shrunk.program.module, shrunk.program.arguments);
  RenumberValues(MainOf(reproducer));
  f.module_text = mlir::PrintModule(reproducer, registry_);
  return f;
}

ProgramUnitResult ProgramsRun::Check(const ProgramRunSettings& settings, int64_t index,
                                     const std::function<bool()>& out_of_budget) {
  ProgramUnitResult result;
  auto generated = GenerateProgram(registry_, settings.options, ProgramSeed(settings.seed, index));
  if (!generated.ok()) {
    result.generated = false;
    return result;
  }
  ProgramUnderTest program{generated->module, generated->arguments};
  ProgramTrial trial = Trial(program);
  if (!trial.reference.ok()) {
    const std::string why(trial.reference.status().message());
    (absl::IsUnimplemented(trial.reference.status()) ? result.unsupported : result.invalid) =
        why.empty() ? "?" : why;
    return result;
  }
  result.ran = true;
  result.drawn_ops = static_cast<int64_t>(generated->drawn_ops.size());
  result.adaptation_ops = generated->adaptation_ops;
  result.output_elements = trial.reference->output_elements;
  result.determined = trial.reference->determined_elements;
  result.compared = trial.reference->compared_elements;
  result.bounded = trial.reference->bounded_elements;
  result.unchecked_by_cause = trial.reference->unchecked_by_cause;
  result.deviating = trial.outcome.kind == ProgramOutcome::Kind::kDeviation;
  if (Fails(trial.outcome)) {
    result.finding = Shrink(
        settings, program, index, "", "", [&](const ProgramUnderTest& p) { return Trial(p); },
        std::move(trial), out_of_budget);
    return result;
  }
  for (const std::string& relation : settings.relations) {
    const uint64_t variant_seed = ProgramSeed(settings.seed ^ 0x76617269616e74ULL, index);
    auto variant =
        MakeVariant(relation, program.module, program.arguments, *trial.reference, variant_seed);
    if (!variant.ok() || (relation == "rewritten" && variant->description.empty())) continue;
    ++result.variants_run;
    ProgramOutcome outcome = RunOnBackend({variant->module, variant->arguments}, *trial.reference);
    if (!Fails(outcome)) continue;
    // Shrink the program, judging its variant (made the same way).
    ProgramTrialFn trial_fn = [&, relation, variant_seed](const ProgramUnderTest& p) {
      ProgramTrial t{ReferenceOfProgram(oracle_, registry_, p.module, p.arguments, profile_), {}};
      if (!t.reference.ok()) return t;
      auto v = MakeVariant(relation, p.module, p.arguments, *t.reference, variant_seed);
      if (!v.ok()) {
        t.reference = v.status();
        return t;
      }
      t.outcome = RunOnBackend({v->module, v->arguments}, *t.reference);
      return t;
    };
    result.finding = Shrink(settings, program, index, relation, variant->description, trial_fn,
                            ProgramTrial{*trial.reference, std::move(outcome)}, out_of_budget);
    break;  // one finding per program
  }
  return result;
}

}  // namespace hlocheck
