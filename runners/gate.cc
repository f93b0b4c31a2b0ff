#include "runners/gate.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <exception>
#include <optional>

#include "absl/status/status.h"
#include "core/literal.h"
#include "core/status_macros.h"
#include "mlir/writer.h"
#include "reports/time_format.h"
#include "runners/shrink.h"
#include "runners/version.h"

namespace hlocheck {
namespace {

int64_t InputElements(const Case& c) {
  int64_t n = 0;
  for (const Tensor& t : c.operands) n += t.num_elements();
  return n;
}

const char* CheckName(Check check) {
  switch (check) {
    case Check::kExact:
      return "exact";
    case Check::kUlp:
      return "ulp";
    case Check::kErrorBound:
      return "bound";
    case Check::kStorageRange:
      return "storage range";
  }
  return "?";
}

// A case that passed without a single element to compare (every result
// empty).
bool NothingCompared(const CaseOutcome& outcome) {
  if (outcome.kind != CaseOutcome::Kind::kPass) return false;
  for (const ResultComparison& comparison : outcome.comparisons) {
    if (comparison.compared + comparison.free > 0) return false;
  }
  return true;
}

// Failures only: passes and skips make no finding.
FindingKind FindingKindOf(CaseOutcome::Kind kind) {
  switch (kind) {
    case CaseOutcome::Kind::kMismatch:
      return FindingKind::kMismatch;
    case CaseOutcome::Kind::kWrongType:
      return FindingKind::kWrongResultType;
    case CaseOutcome::Kind::kBackendError:
      return FindingKind::kBackendError;
    case CaseOutcome::Kind::kBackendCrash:
      return FindingKind::kBackendCrash;
    case CaseOutcome::Kind::kBackendHang:
      return FindingKind::kBackendHang;
    case CaseOutcome::Kind::kInvalid:
    case CaseOutcome::Kind::kGeneratorError:
      return FindingKind::kGeneratorError;
    case CaseOutcome::Kind::kOracleError:
    case CaseOutcome::Kind::kPass:
    case CaseOutcome::Kind::kSkipped:
    case CaseOutcome::Kind::kDeviation:
    case CaseOutcome::Kind::kConvention:
      break;
  }
  return FindingKind::kOracleError;
}

}  // namespace

absl::StatusOr<GatePlan> Gate::Plan(const GateOptions& options) const {
  std::vector<std::string> ops = options.ops;
  if (ops.empty()) {
    // The default plan: every op the oracle implements whose YAML has a
    // generation recipe (ops without one cannot be generated yet).
    for (const std::string& name : context_.oracle->ImplementedOps()) {
      const spec::OpSpec* op = context_.registry->Find(name);
      if (op != nullptr && !op->recipe.empty()) ops.push_back(name);
    }
  }
  GatePlan plan;
  for (const std::string& name : ops) {
    const spec::OpSpec* op = context_.registry->Find(name);
    if (op == nullptr) return absl::InvalidArgumentError("unknown op '" + name + "'");
    if (!context_.oracle->Implements(name)) {
      return absl::InvalidArgumentError("the oracle does not implement '" + name + "' yet");
    }
    if (op->recipe.empty()) {
      return absl::InvalidArgumentError("'" + name +
                                        "' has no generation recipe in its YAML yet; the gate "
                                        "cannot generate its cases");
    }
    for (ElementType type : PrimaryTypes(*op)) {
      if (!options.types.empty() &&
          std::find(options.types.begin(), options.types.end(), type) == options.types.end()) {
        continue;
      }
      plan.emplace_back(op, type);
    }
  }
  if (plan.empty()) {
    return absl::InvalidArgumentError("no op accepts the requested element types");
  }
  return plan;
}

Finding Gate::Describe(const spec::OpSpec& op, ElementType type, const Case* c,
                       const CaseOutcome& outcome) const {
  Finding f;
  f.op = op.name;
  f.type = type;
  f.kind = FindingKindOf(outcome.kind);
  f.message = outcome.message;
  f.results = static_cast<int>(std::max<size_t>(1, outcome.comparisons.size()));
  if (outcome.kind == CaseOutcome::Kind::kMismatch) {
    for (size_t r = 0; r < outcome.comparisons.size(); ++r) {
      const ResultComparison& comparison = outcome.comparisons[r];
      f.mismatched_elements += comparison.mismatches;
      for (const ElementMismatch& m : comparison.first_mismatches) {
        f.mismatches.push_back(
            {static_cast<int>(r), m.multi_index, m.expected, m.actual, m.allowed, m.ulp});
      }
    }
  }
  if (c == nullptr) return f;  // the generator failed before there was a case
  std::vector<std::string> comments = {"hlocheck reproducer: " + op.name + " " +
                                       std::string(Name(type)) + ", " + KindName(f.kind)};
  if (outcome.kind == CaseOutcome::Kind::kMismatch) {
    for (const Tensor& actual : outcome.actual) {
      comments.push_back("the backend returned: " + PrintDenseAttribute(actual));
    }
  }
  f.reproducer =
      mlir::PrintCaseModule(*context_.registry, op, *c, ExpectedResults(outcome), comments);
  f.minimal_elements = InputElements(*c);
  return f;
}

GroupResult Gate::RunGroup(const spec::OpSpec& op, ElementType type, const GateOptions& options) {
  auto start = std::chrono::steady_clock::now();
  context_.max_ulp_for = options.max_ulp_for;
  GroupResult group;
  group.op = op.name;
  group.type = type;
  GenerationOptions generation;
  generation.primary_type = type;
  generation.max_elements = options.max_elements;
  rc::Gen<Case> generator = generator_ ? generator_(op, generation) : CaseGenerator(op, generation);
  const int64_t end = options.end_case < 0 ? options.cases : options.end_case;
  if (context_.profile != nullptr) {
    if (const Unsupported* u = context_.profile->FindUnsupported(op.name, type)) {
      // Declared unsupported: every case skipped with the declaration's reason.
      group.cases = group.skipped = end - options.first_case;
      group.skip_reason = "declared unsupported (" + context_.profile->file + "): " + u->reason +
                          " (" + u->link + ")";
      group.seconds = 0;
      return group;
    }
  }
  // Cases go to the backend in batches of its choosing (a compiler compiles
  // a batch as one module): generated and checked against the oracle first,
  // then run together, then counted one by one in order.
  const int64_t batch = std::max(1, context_.adapter->BatchSize());
  confirmations_left_ = kConfirmationsPerGroup;
  // Backend errors, crashes and hangs, while nothing but them and skips came.
  int64_t backend_failures = 0;
  for (int64_t first = options.first_case; first < end; first += batch) {
    if (options.stop_after_backend_failures > 0 &&
        backend_failures >= options.stop_after_backend_failures) {
      // The backend failed every case so far: the rest would each cost a
      // compile (a case alone, once its batch failed), or a timeout, to
      // say the same.
      group.not_run_after_backend_failures = end - first;
      group.cases += group.not_run_after_backend_failures;
      group.skipped += group.not_run_after_backend_failures;
      group.skip_reason = "the backend failed each of the first " +
                          std::to_string(first - options.first_case) +
                          " cases (errors, crashes or hangs; the first one shown); the other " +
                          std::to_string(group.not_run_after_backend_failures) + " were not run";
      break;
    }
    std::vector<PendingCase> chunk =
        GenerateAndPrepare(op, generator, options, type, first, std::min(first + batch, end));
    RunPrepared(chunk, group);
    for (PendingCase& pending : chunk) {
      const CaseOutcome::Kind kind = pending.outcome.kind;
      if (kind == CaseOutcome::Kind::kBackendError || kind == CaseOutcome::Kind::kBackendCrash ||
          kind == CaseOutcome::Kind::kBackendHang) {
        if (backend_failures >= 0) ++backend_failures;
      } else if (kind != CaseOutcome::Kind::kSkipped && !NothingCompared(pending.outcome)) {
        // Something ran: the group goes on to its end. A case whose tensors
        // are all empty says nothing of that (a compiler that cannot lower
        // the op for this type compiles it when there is no element).
        backend_failures = -1;
      }
      AccountCase(op, type, options, pending, group);
    }
  }
  group.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (group.failed > 0 && options.waiver_for) group.waiver = options.waiver_for(op.name, type);
  return group;
}

std::vector<Gate::PendingCase> Gate::GenerateAndPrepare(const spec::OpSpec& op,
                                                        const rc::Gen<Case>& generator,
                                                        const GateOptions& options,
                                                        ElementType type, int64_t first,
                                                        int64_t end) {
  std::vector<PendingCase> chunk;
  for (int64_t i = first; i < end; ++i) {
    PendingCase& pending = chunk.emplace_back();
    pending.index = i;
    const uint64_t case_seed = CaseSeed(options.seed, op.name, type, i);
    const int size = CaseSize(i, options.cases);
    pending.key = ReplayKey{op.name, type, case_seed, size, options.max_elements, {}, {}};
    CaseOutcome& outcome = pending.outcome;
    try {
      pending.shrinkable = generator(rc::Random(case_seed), size);
      pending.c = pending.shrinkable->value();
    } catch (const NotRunnable& e) {
      outcome.kind = CaseOutcome::Kind::kSkipped;
      outcome.message = e.what();
    } catch (const std::exception& e) {
      outcome.kind = CaseOutcome::Kind::kGeneratorError;
      outcome.message = std::string("generation failed: ") + e.what();
    } catch (...) {
      outcome.kind = CaseOutcome::Kind::kGeneratorError;
      outcome.message = "generation threw an exception that is not a std::exception";
    }
    pending.generated = outcome.kind == CaseOutcome::Kind::kPass;
    if (pending.generated) pending.to_run = PrepareCase(context_, op, pending.c, outcome);
  }
  return chunk;
}

void Gate::RunPrepared(std::vector<PendingCase>& chunk, GroupResult& group) {
  std::vector<PendingCase*> runs;
  std::vector<const Case*> cases;
  for (PendingCase& pending : chunk) {
    if (!pending.to_run) continue;
    runs.push_back(&pending);
    cases.push_back(&pending.c);
  }
  if (cases.empty()) return;
  if (cases.size() == 1) {
    RunAndFinishCase(context_, runs[0]->c, runs[0]->outcome);
    return;
  }
  std::vector<absl::StatusOr<std::vector<Tensor>>> answers;
  try {
    answers = context_.adapter->RunBatch(cases);
  } catch (...) {
    answers.clear();
  }
  if (answers.size() != cases.size()) {
    // The batch threw or lost answers: each case alone says which one.
    for (PendingCase* pending : runs) RunAndFinishCase(context_, pending->c, pending->outcome);
    return;
  }
  for (size_t k = 0; k < runs.size(); ++k) {
    PendingCase& pending = *runs[k];
    FinishCase(context_, pending.c, std::move(answers[k]), pending.outcome);
    const CaseOutcome::Kind kind = pending.outcome.kind;
    if ((kind == CaseOutcome::Kind::kMismatch || kind == CaseOutcome::Kind::kWrongType) &&
        confirmations_left_ > 0) {
      // A wrong answer is confirmed on the case alone: its reproducer is
      // its own module, and a batch-only failure (the compiler mixing up
      // independent computations) must not hide behind the case's. The
      // first few per group only: a group whose every case is wrong would
      // otherwise pay a compile per case, which batching exists to avoid;
      // the group's first failure, the one shrunk and reported, is always
      // among them.
      --confirmations_left_;
      // The case was verified and its expectations computed once
      // (PrepareCase): only the backend runs again.
      CaseOutcome alone;
      alone.expectations = pending.outcome.expectations;
      RunAndFinishCase(context_, pending.c, alone);
      if (alone.kind != CaseOutcome::Kind::kMismatch &&
          alone.kind != CaseOutcome::Kind::kWrongType) {
        ++group.batch_only_failures;
        if (group.batch_only_replay.empty()) {
          // Its company, to run it in again: wrong only beside others is a
          // compiler mixing up independent computations, and the batch is
          // the reproducer.
          group.batch_only_replay = FormatReplay(pending.key);
          for (const PendingCase* other : runs) {
            group.batch_only_batch.push_back(FormatReplay(other->key));
          }
        }
        pending.outcome.message =
            "wrong only when compiled with " + std::to_string(cases.size() - 1) +
            " other cases in one module; alone: " +
            (alone.kind == CaseOutcome::Kind::kPass        ? "it passes"
             : alone.kind == CaseOutcome::Kind::kDeviation ? "deviating as declared"
             : alone.kind == CaseOutcome::Kind::kConvention
                 ? "differs from the de facto convention only"
                 : alone.message) +
            (pending.outcome.message.empty() ? std::string()
                                             : " (" + pending.outcome.message + ")");
      } else {
        pending.outcome = std::move(alone);
      }
    }
  }
}

void Gate::AccountCase(const spec::OpSpec& op, ElementType type, const GateOptions& options,
                       PendingCase& pending, GroupResult& group) {
  ++group.cases;
  const int64_t i = pending.index;
  const ReplayKey& key = pending.key;
  const bool generated = pending.generated;
  Case& c = pending.c;
  CaseOutcome& outcome = pending.outcome;
  std::optional<rc::Shrinkable<Case>>& shrinkable = pending.shrinkable;
  const bool quantized = HasQuantizedTensor(c);
  group.quantized_cases += quantized;
  switch (outcome.kind) {
    case CaseOutcome::Kind::kPass:
      ++group.passed;
      break;
    case CaseOutcome::Kind::kDeviation:
      // Not a pass, not a failure: counted and shown apart.
      ++group.deviating;
      for (const auto& [id, elements] : outcome.excused) group.excused[id] += elements;
      if (group.deviation_replay.empty()) group.deviation_replay = FormatReplay(key);
      break;
    case CaseOutcome::Kind::kConvention:
      // Not a failure (the spec leaves these elements open), never a
      // silent pass: counted and shown with an example.
      ++group.differs_from_convention;
      if (group.convention_replay.empty()) {
        group.convention_replay = FormatReplay(key);
        for (size_t r = 0; r < outcome.comparisons.size(); ++r) {
          const ResultComparison& comparison = outcome.comparisons[r];
          if (comparison.first_convention_differences.empty()) continue;
          const ElementMismatch& m = comparison.first_convention_differences.front();
          group.convention_example = "element " + std::to_string(m.index) + ": convention " +
                                     m.expected + ", got " + m.actual + " (" +
                                     outcome.expectations[r].free_reason + ")";
          break;
        }
      }
      break;
    case CaseOutcome::Kind::kSkipped:
      ++group.skipped;
      group.quantized_skipped += quantized;
      group.skip_reason = outcome.message;
      return;
    case CaseOutcome::Kind::kInvalid:
    case CaseOutcome::Kind::kOracleError:
    case CaseOutcome::Kind::kGeneratorError: {
      // Our own bug (a generator or oracle defect), never the backend's:
      // a failure of the run, reported unshrunk (shrinking looks for the
      // backend's fault).
      ++group.failed;
      if (group.findings.empty()) {
        Finding f = Describe(op, type, generated ? &c : nullptr, outcome);
        f.case_index = static_cast<int>(i);
        f.replay = FormatReplay(key);
        group.findings.push_back(std::move(f));
      }
      return;
    }
    case CaseOutcome::Kind::kMismatch:
    case CaseOutcome::Kind::kWrongType:
    case CaseOutcome::Kind::kBackendError:
    case CaseOutcome::Kind::kBackendCrash:
    case CaseOutcome::Kind::kBackendHang:
      ++group.failed;
      if (group.findings.empty()) {
        // A hang is not shrunk: every attempt that still hangs costs a
        // whole case timeout.
        const int attempts =
            outcome.kind == CaseOutcome::Kind::kBackendHang ? 0 : options.max_shrink_attempts;
        Shrunk shrunk = Shrink([&](const Case& candidate) { return CheckCase(op, candidate); },
                               *shrinkable, outcome, attempts);
        Finding f = Describe(op, type, &shrunk.c, shrunk.outcome);
        f.case_index = static_cast<int>(i);
        f.original_elements = InputElements(c);
        f.shrink_steps = static_cast<int>(shrunk.path.size());
        ReplayKey shrunk_key = key;
        shrunk_key.shrink_path = shrunk.path;
        f.replay = FormatReplay(shrunk_key);
        char seed[24];
        std::snprintf(seed, sizeof(seed), "%" PRIu64, options.seed);
        f.command =
            "build/hlocheck run --backend " + std::string(context_.adapter->name()) + " --ops " +
            op.name + " --types " + std::string(Name(type)) + " --cases " +
            std::to_string(options.cases) + " --seed " + seed +
            (options.max_elements != GateOptions().max_elements
                 ? " --max-elements " + std::to_string(options.max_elements)
                 : "") +
            (options.tolerance_config.empty() ? "" : " --config " + options.tolerance_config);
        group.findings.push_back(std::move(f));
      }
      break;
  }
  for (size_t r = 0; r < outcome.comparisons.size(); ++r) {
    const ResultComparison& comparison = outcome.comparisons[r];
    group.elements_compared += comparison.compared;
    group.free_elements += comparison.free;
    group.convention_elements += comparison.convention_differences;
    // A deviating case's distances are those of the elements its
    // declarations excuse (a flushed subnormal is 2^23 ULP off, say): the
    // accuracy column would show the deviation, not the backend's
    // accuracy, so such cases leave it alone.
    if (outcome.kind != CaseOutcome::Kind::kDeviation) {
      const bool bounded = outcome.expectations[r].check == Check::kErrorBound;
      const bool further = comparison.worst.index >= 0 &&
                           (bounded ? comparison.worst_bound_fraction > group.worst_bound_fraction
                                    : comparison.worst_ulp > std::max<int64_t>(group.worst_ulp, 0));
      if (further) {
        const ElementMismatch& w = comparison.worst;
        group.worst_replay = FormatReplay(key);
        group.worst_example = "result[" + std::to_string(r) + "] element " +
                              std::to_string(w.index) + ": expected " + w.expected + ", got " +
                              w.actual + " (" + w.allowed + ")";
      }
      group.worst_ulp = std::max(group.worst_ulp, comparison.worst_ulp);
      group.distances.Add(comparison.distances);
      group.worst_bound_fraction =
          std::max(group.worst_bound_fraction, comparison.worst_bound_fraction);
    }
    ElementType result_type = c.result_types[r].element_type;
    bool has_ulps = IsFloat(result_type) || IsComplex(result_type);
    group.check = has_ulps ? CheckName(outcome.expectations[r].check) : "exact";
    group.allowed_ulp = outcome.expectations[r].allowed_ulp;
  }
}

GateRun Gate::Run(const GateOptions& options, const GatePlan& plan,
                  const std::function<void(const GroupResult&)>& on_group) {
  auto start = std::chrono::steady_clock::now();
  GateRun run;
  run.backend = std::string(context_.adapter->name());
  if (context_.profile != nullptr) run.profile = context_.profile->file;
  run.max_elements = options.max_elements;
  run.hlocheck_version = HlocheckVersion();
  run.spec_digest = context_.registry->digest();
  run.started_at = UtcNow();
  run.shard_index = options.shard_index;
  run.shard_total = options.shard_total;
  run.seed = options.seed;
  run.cases_per_group = options.cases;
  run.command_line = options.command_line;
  run.plan_groups = static_cast<int64_t>(plan.size());
  for (size_t position = 0; position < plan.size(); ++position) {
    if (!InShard(options, position)) continue;
    const auto& [op, type] = plan[position];
    run.groups.push_back(RunGroup(*op, type, ForOp(options, op->name)));
    if (on_group) on_group(run.groups.back());
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

absl::StatusOr<GateRun> Gate::Run(const GateOptions& options,
                                  const std::function<void(const GroupResult&)>& on_group) {
  auto plan = Plan(options);
  HLOCHECK_RETURN_IF_ERROR(plan.status());
  return Run(options, *plan, on_group);
}

absl::StatusOr<Gate::Replayed> Gate::Rebuild(const std::string& replay) {
  auto key = ParseReplay(replay);
  HLOCHECK_RETURN_IF_ERROR(key.status());
  const spec::OpSpec* op = context_.registry->Find(key->op);
  if (op == nullptr) return absl::InvalidArgumentError("unknown op '" + key->op + "'");
  GenerationOptions generation;
  generation.primary_type = key->type;
  generation.max_elements = key->max_elements;
  generation.halves_first = key->version >= 2;
  generation.version = key->version;
  try {
    auto c =
        FollowShrinkPath(GenerateCase(*op, generation, key->seed, key->size), key->shrink_path);
    HLOCHECK_RETURN_IF_ERROR(c.status());
    return Replayed{op, *std::move(c), {}};
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(std::string("cannot rebuild the case: ") + e.what());
  }
}

absl::StatusOr<Gate::Replayed> Gate::Replay(const std::string& replay) {
  auto replayed = Rebuild(replay);
  HLOCHECK_RETURN_IF_ERROR(replayed.status());
  replayed->outcome = CheckCase(*replayed->op, replayed->c);
  return replayed;
}

absl::StatusOr<Gate::ReplayedBatch> Gate::ReplayInBatch(const std::string& replay,
                                                        const std::vector<std::string>& batch) {
  ReplayedBatch replayed;
  std::optional<size_t> target;
  for (const std::string& key : batch) {
    auto c = Rebuild(key);
    HLOCHECK_RETURN_IF_ERROR(c.status());
    if (key == replay && !target) target = replayed.cases.size();
    replayed.cases.push_back(*std::move(c));
  }
  if (!target) {
    return absl::InvalidArgumentError("the batch does not hold the case " + replay);
  }
  std::vector<const Case*> cases;
  for (Replayed& c : replayed.cases) {
    // Each case as the gate had it before the backend ran: checked, its
    // expectations computed; a case the backend cannot run stays out.
    if (PrepareCase(context_, *c.op, c.c, c.outcome)) cases.push_back(&c.c);
  }
  Replayed& mine = replayed.cases[*target];
  if (std::find(cases.begin(), cases.end(), &mine.c) == cases.end()) {
    return absl::FailedPreconditionError("the case does not run on this backend: " +
                                         mine.outcome.message);
  }
  std::vector<absl::StatusOr<std::vector<Tensor>>> answers;
  try {
    answers = context_.adapter->RunBatch(cases);
  } catch (const std::exception& e) {
    return absl::InternalError(std::string("the backend threw running the batch: ") + e.what());
  }
  if (answers.size() != cases.size()) {
    return absl::InternalError("the backend lost answers of the batch");
  }
  for (size_t k = 0; k < cases.size(); ++k) {
    if (cases[k] == &mine.c) FinishCase(context_, mine.c, std::move(answers[k]), mine.outcome);
  }
  replayed.target = *target;
  return replayed;
}

}  // namespace hlocheck
