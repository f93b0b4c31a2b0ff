#include "runners/gate.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "core/literal.h"
#include "mlir/writer.h"
#include "spec/verifier.h"

namespace hlocheck {
namespace {

uint64_t Mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

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
  }
  return "?";
}

std::string IndexText(const std::vector<int64_t>& index) {
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i) text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

}  // namespace

std::vector<mlir::CaseCheck> ExpectedResults(const spec::OpSpec& op, const CaseOutcome& outcome) {
  std::vector<mlir::CaseCheck> checks;
  for (const ResultExpectation& e : outcome.expectations) {
    mlir::CaseCheck check;
    check.expected = e.reference;
    int ulp = op.numerics.AllowedUlp(e.reference.element_type());
    if (e.check == Check::kUlp && ulp > 0) {
      check.kind = mlir::CaseCheck::Kind::kUlp;
      check.max_ulp = ulp;
    } else if (e.check == Check::kErrorBound) {
      // The check dialect has one tolerance per check: the widest of the
      // oracle's per-element bounds.
      check.kind = mlir::CaseCheck::Kind::kTolerance;
      for (double b : e.bound) check.tolerance = std::max(check.tolerance, b);
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

uint64_t CaseSeed(uint64_t run_seed, std::string_view op, ElementType type, int64_t index) {
  uint64_t h = Mix(run_seed);
  for (char ch : op) h = Mix(h ^ static_cast<uint8_t>(ch));
  h = Mix(h ^ (static_cast<uint64_t>(type) + 0x100));
  return Mix(h ^ static_cast<uint64_t>(index));
}

int CaseSize(int64_t index, int64_t cases) {
  if (cases <= 1) return 50;
  return static_cast<int>((index * 100) / (cases - 1));
}

std::string FormatReplay(const ReplayKey& key) {
  char seed[17];
  std::snprintf(seed, sizeof(seed), "%016" PRIx64, key.seed);
  std::string path;
  for (size_t i = 0; i < key.shrink_path.size(); ++i) {
    path += (i ? "." : "") + std::to_string(key.shrink_path[i]);
  }
  std::string op = key.op;
  if (!key.violates.empty()) {
    std::string id = key.violates;
    // Only a trailing " (public)" is the public spec's mark (ParseReplay's inverse).
    constexpr std::string_view kPublic = " (public)";
    if (id.ends_with(kPublic)) id = id.substr(0, id.size() - kPublic.size()) + "@public";
    op += "!" + id;
  }
  return "hlocheck1:" + op + ":" + (key.type ? std::string(Name(*key.type)) : std::string("any")) + ":" + seed + ":" +
         std::to_string(key.size) + ":" + std::to_string(key.max_elements) + ":" +
         (path.empty() ? "-" : path);
}

absl::StatusOr<ReplayKey> ParseReplay(const std::string& text) {
  auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError(
        "bad replay string '" + text + "': " + why +
        "; expected hlocheck1:OP:TYPE:SEED(hex):SIZE:MAX_ELEMENTS:SHRINK_PATH as printed by a run");
  };
  // The type may contain ':'? No: type names never do, so split plainly.
  std::vector<std::string> parts = absl::StrSplit(text, ':');
  if (parts.size() != 7 || parts[0] != "hlocheck1") return bad("wrong number of fields");
  ReplayKey key;
  key.op = parts[1];
  if (size_t bang = key.op.find('!'); bang != std::string::npos) {
    key.violates = key.op.substr(bang + 1);
    key.op = key.op.substr(0, bang);
    // "@public" ends the id or is part of it; text after it is not dropped.
    constexpr std::string_view kPublic = "@public";
    if (key.violates.ends_with(kPublic)) {
      key.violates = key.violates.substr(0, key.violates.size() - kPublic.size()) + " (public)";
    }
    if (key.violates.empty()) return bad("no constraint after '!'");
  }
  if (parts[2] != "any") {
    auto type = ParseElementType(parts[2]);
    if (!type) return bad("unknown element type '" + parts[2] + "'");
    key.type = *type;
  }
  try {
    size_t used = 0;
    key.seed = std::stoull(parts[3], &used, 16);
    if (used != parts[3].size()) return bad("seed is not hexadecimal");
    key.size = std::stoi(parts[4], &used);
    if (used != parts[4].size() || key.size < 0) return bad("size is not a number");
    key.max_elements = std::stoll(parts[5], &used);
    if (used != parts[5].size() || key.max_elements < 1) return bad("bad max elements");
    if (parts[6] != "-") {
      for (const auto& step : absl::StrSplit(parts[6], '.')) {
        std::string s(step);
        int index = std::stoi(s, &used);
        if (used != s.size() || index < 0) return bad("bad shrink path");
        key.shrink_path.push_back(index);
      }
    }
  } catch (const std::exception&) {
    return bad("a field is not a number");
  }
  return key;
}

absl::StatusOr<std::vector<std::pair<const spec::OpSpec*, ElementType>>> Gate::Plan(
    const GateOptions& options) const {
  std::vector<std::string> ops = options.ops;
  if (ops.empty()) {
    // The default plan: every op the oracle implements whose YAML has a
    // generation recipe (ops without one cannot be generated yet).
    for (const std::string& name : oracle_->ImplementedOps()) {
      const spec::OpSpec* op = registry_->Find(name);
      if (op != nullptr && !op->recipe.empty()) ops.push_back(name);
    }
  }
  std::vector<std::pair<const spec::OpSpec*, ElementType>> plan;
  for (const std::string& name : ops) {
    const spec::OpSpec* op = registry_->Find(name);
    if (op == nullptr) return absl::InvalidArgumentError("unknown op '" + name + "'");
    if (!oracle_->Implements(name)) {
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

CaseOutcome Gate::CheckCase(const spec::OpSpec& op, const Case& c) {
  CaseOutcome outcome;
  spec::VerifyResult verdict = spec::Verify(op, c, registry_);
  if (!verdict.valid()) {
    outcome.kind = CaseOutcome::Kind::kInvalid;
    outcome.message = verdict.Report();
    return outcome;
  }
  AdapterSupport support = adapter_->Supports(c);
  if (!support.supported) {
    outcome.kind = CaseOutcome::Kind::kSkipped;
    outcome.message = support.reason;
    return outcome;
  }
  auto expectations = oracle_->Compute(c);
  if (!expectations.ok() && absl::IsUnimplemented(expectations.status())) {
    // A gap in the oracle (complex atan2, say): counted and reported as
    // skipped with its reason, never as a pass.
    outcome.kind = CaseOutcome::Kind::kSkipped;
    outcome.message = "oracle: " + std::string(expectations.status().message());
    return outcome;
  }
  if (!expectations.ok()) {
    outcome.kind = CaseOutcome::Kind::kOracleError;
    outcome.message = std::string(expectations.status().message());
    return outcome;
  }
  outcome.expectations = *std::move(expectations);
  auto actual = adapter_->Run(c);
  if (!actual.ok()) {
    outcome.kind = CaseOutcome::Kind::kBackendError;
    outcome.message = std::string(actual.status().message());
    return outcome;
  }
  outcome.actual = *std::move(actual);
  if (outcome.actual.size() != outcome.expectations.size()) {
    outcome.kind = CaseOutcome::Kind::kWrongType;
    outcome.message = "the backend returned " + std::to_string(outcome.actual.size()) +
                      " results, expected " + std::to_string(outcome.expectations.size());
    return outcome;
  }
  std::vector<int> allowed;
  for (size_t i = 0; i < outcome.actual.size(); ++i) {
    allowed.push_back(op.numerics.AllowedUlp(c.result_types[i].element_type));
  }
  outcome.comparisons = CompareResults(outcome.expectations, outcome.actual, allowed);
  for (const ResultComparison& comparison : outcome.comparisons) {
    if (comparison.type_mismatch) {
      outcome.kind = CaseOutcome::Kind::kWrongType;
      outcome.message = comparison.type_error;
    } else if (!comparison.ok() && outcome.kind == CaseOutcome::Kind::kPass) {
      outcome.kind = CaseOutcome::Kind::kMismatch;
    }
  }
  return outcome;
}

Finding Gate::Describe(const spec::OpSpec& op, ElementType type, const Case& c,
                       const CaseOutcome& outcome) const {
  Finding f;
  f.op = op.name;
  f.type = type;
  std::ostringstream details;
  switch (outcome.kind) {
    case CaseOutcome::Kind::kMismatch: {
      f.kind = "mismatch";
      int64_t mismatches = 0;
      for (size_t r = 0; r < outcome.comparisons.size(); ++r) {
        const ResultComparison& comparison = outcome.comparisons[r];
        mismatches += comparison.mismatches;
        for (const ElementMismatch& m : comparison.first_mismatches) {
          details << "result" << (outcome.comparisons.size() > 1 ? std::to_string(r) : "")
                  << IndexText(m.multi_index) << ": expected " << m.expected << ", got " << m.actual
                  << "; allowed " << m.allowed << "\n";
        }
      }
      f.summary = std::to_string(mismatches) + " element(s) differ from the oracle";
      break;
    }
    case CaseOutcome::Kind::kBackendError:
      f.kind = "backend error";
      f.summary = "the backend failed on a valid case";
      details << outcome.message << "\n";
      break;
    case CaseOutcome::Kind::kWrongType:
      f.kind = "wrong result type";
      f.summary = outcome.message;
      break;
    default:
      f.kind = "internal error";
      f.summary = outcome.message;
      break;
  }
  f.details = details.str();
  std::vector<mlir::CaseCheck> expected = ExpectedResults(op, outcome);
  std::vector<std::string> comments = {"hlocheck reproducer: " + op.name + " " +
                                       std::string(Name(type)) + ", " + f.kind};
  for (size_t r = 0; r < outcome.actual.size() && outcome.kind == CaseOutcome::Kind::kMismatch;
       ++r) {
    comments.push_back("the backend returned: " + PrintDenseAttribute(outcome.actual[r]));
  }
  f.reproducer = mlir::PrintCaseModule(*registry_, op, c, expected, comments);
  f.minimal_elements = InputElements(c);
  return f;
}

Finding Gate::Shrink(const spec::OpSpec& op, ElementType type, const GateOptions& options,
                     int case_index, uint64_t case_seed, int size, rc::Shrinkable<Case> failing,
                     CaseOutcome outcome) {
  ReplayKey key{op.name, type, case_seed, size, options.max_elements, {}, {}};
  int64_t original = InputElements(failing.value());
  Case current = failing.value();
  int attempts = 0;
  bool progress = true;
  while (progress && attempts < options.max_shrink_attempts) {
    progress = false;
    int index = 0;
    auto shrinks = failing.shrinks();
    while (auto candidate = shrinks.next()) {
      if (++attempts > options.max_shrink_attempts) break;
      Case c;
      try {
        c = candidate->value();
      } catch (const std::exception&) {
        ++index;
        continue;
      }
      CaseOutcome candidate_outcome = CheckCase(op, c);
      if (candidate_outcome.failed()) {
        failing = *candidate;
        current = std::move(c);
        outcome = std::move(candidate_outcome);
        key.shrink_path.push_back(index);
        progress = true;
        break;
      }
      ++index;
    }
  }
  Finding f = Describe(op, type, current, outcome);
  f.case_index = case_index;
  f.original_elements = original;
  f.shrink_steps = static_cast<int>(key.shrink_path.size());
  f.replay = FormatReplay(key);
  char seed[24];
  std::snprintf(seed, sizeof(seed), "%" PRIu64, options.seed);
  f.command = "build/hlocheck run --backend " + std::string(adapter_->name()) + " --ops " +
              op.name + " --types " + std::string(Name(type)) + " --cases " +
              std::to_string(options.cases) + " --seed " + seed +
              (options.max_elements != GateOptions().max_elements
                   ? " --max-elements " + std::to_string(options.max_elements)
                   : "");
  return f;
}

GroupResult Gate::RunGroup(const spec::OpSpec& op, ElementType type, const GateOptions& options) {
  auto start = std::chrono::steady_clock::now();
  GroupResult group;
  group.op = op.name;
  group.type = type;
  GenerationOptions generation;
  generation.primary_type = type;
  generation.max_elements = options.max_elements;
  rc::Gen<Case> generator = CaseGenerator(op, generation);
  for (int64_t i = 0; i < options.cases; ++i) {
    ++group.cases;
    uint64_t case_seed = CaseSeed(options.seed, op.name, type, i);
    int size = CaseSize(i, options.cases);
    rc::Shrinkable<Case> shrinkable = generator(rc::Random(case_seed), size);
    Case c;
    CaseOutcome outcome;
    try {
      c = shrinkable.value();
      outcome = CheckCase(op, c);
    } catch (const NotRunnable& e) {
      outcome.kind = CaseOutcome::Kind::kSkipped;
      outcome.message = e.what();
    } catch (const std::exception& e) {
      outcome.kind = CaseOutcome::Kind::kOracleError;
      outcome.message = std::string("generation failed: ") + e.what();
    }
    switch (outcome.kind) {
      case CaseOutcome::Kind::kPass:
        ++group.passed;
        break;
      case CaseOutcome::Kind::kSkipped:
        ++group.skipped;
        group.skip_reason = outcome.message;
        continue;
      case CaseOutcome::Kind::kInvalid:
      case CaseOutcome::Kind::kOracleError: {
        // Our own bug (a generator or oracle defect), never the backend's:
        // report it loudly as a failure of the run.
        ++group.failed;
        if (group.findings.empty()) {
          Finding f = Describe(op, type, c, outcome);
          f.summary = (outcome.kind == CaseOutcome::Kind::kInvalid
                           ? "hlocheck generated an invalid case (a hlocheck bug):\n"
                           : "hlocheck's oracle failed (a hlocheck bug): ") +
                      outcome.message;
          f.case_index = static_cast<int>(i);
          f.replay = FormatReplay({op.name, type, case_seed, size, options.max_elements, {}, {}});
          group.findings.push_back(std::move(f));
        }
        continue;
      }
      default:
        ++group.failed;
        if (group.findings.empty()) {
          group.findings.push_back(
              Shrink(op, type, options, static_cast<int>(i), case_seed, size, shrinkable, outcome));
        }
        break;
    }
    for (size_t r = 0; r < outcome.comparisons.size(); ++r) {
      const ResultComparison& comparison = outcome.comparisons[r];
      group.elements_compared += comparison.compared;
      group.free_elements += comparison.free;
      group.worst_ulp = std::max(group.worst_ulp, comparison.worst_ulp);
      group.worst_bound_fraction =
          std::max(group.worst_bound_fraction, comparison.worst_bound_fraction);
      ElementType result_type = c.result_types[r].element_type;
      bool has_ulps = IsFloat(result_type) || IsComplex(result_type);
      group.check = has_ulps ? CheckName(outcome.expectations[r].check) : "exact";
      group.allowed_ulp = op.numerics.AllowedUlp(c.result_types[r].element_type);
    }
  }
  group.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return group;
}

absl::StatusOr<GateRun> Gate::Run(const GateOptions& options,
                                  const std::function<void(const GroupResult&)>& progress) {
  auto plan = Plan(options);
  if (!plan.ok()) return plan.status();
  auto start = std::chrono::steady_clock::now();
  GateRun run;
  run.backend = std::string(adapter_->name());
  run.seed = options.seed;
  run.cases_per_group = options.cases;
  run.command_line = options.command_line;
  for (const auto& [op, type] : *plan) {
    run.groups.push_back(RunGroup(*op, type, options));
    if (progress) progress(run.groups.back());
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

absl::StatusOr<Gate::Replayed> Gate::Replay(const std::string& replay) {
  auto key = ParseReplay(replay);
  if (!key.ok()) return key.status();
  const spec::OpSpec* op = registry_->Find(key->op);
  if (op == nullptr) return absl::InvalidArgumentError("unknown op '" + key->op + "'");
  GenerationOptions generation;
  generation.primary_type = key->type;
  generation.max_elements = key->max_elements;
  try {
    auto c = FollowShrinkPath(GenerateCase(*op, generation, key->seed, key->size),
                              key->shrink_path);
    if (!c.ok()) return c.status();
    Replayed replayed{op, *std::move(c), {}};
    replayed.outcome = CheckCase(*op, replayed.c);
    return replayed;
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(std::string("cannot rebuild the case: ") + e.what());
  }
}

}  // namespace hlocheck
