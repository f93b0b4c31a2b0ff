// `hlocheck replay STRING`: one case, rebuilt exactly, checked again.
#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/str_split.h"
#include "mlir/reader.h"

#include "core/literal.h"
#include "generators/program_generator.h"
#include "mlir/writer.h"
#include "runners/commands.h"
#include "runners/flags.h"
#include "runners/generation.h"
#include "runners/program_run.h"
#include "runners/session.h"
#include "spec/verifier.h"

namespace hlocheck {

namespace {

// The case of a .mlir file (a reproducer as PrintCaseModule writes it),
// checked on the gate's backend.
absl::StatusOr<Gate::Replayed> CheckCaseFile(Gate& gate, const spec::SpecRegistry& registry,
                                             const std::string& path);
// Prints the case, the backend's answer and the verdict; the exit status.
int PrintOutcome(const Session& session, const Gate::Replayed& replayed,
                 const std::string& heading);

}  // namespace

namespace {

// A module of several ops (a `hlocheck programs` finding's reproducer, or
// any program whose arguments are constants): run on the backend as a
// program and judged as `programs` judges it. Nullopt for anything else (a
// replay key, a case module of one op).
std::optional<int> ReplayProgramFile(const Flags& flags, const std::string& path) {
  if (path.size() <= 5 || path.substr(path.size() - 5) != ".mlir") return std::nullopt;
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) return std::nullopt;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  auto module = mlir::ReadModule(text.str(), path, **registry);
  if (!module.ok() || module->Find("main") == nullptr) return std::nullopt;
  const Function& main = *module->Find("main");
  // A case module (one op under test, checks of its results) is not.
  int ops = 0;
  for (const Block& block : main.body.blocks) {
    for (const Operation& op : block.operations) {
      if (op.name.starts_with("check.")) return std::nullopt;
      ops += (op.name.starts_with("stablehlo.") && op.name != "stablehlo.constant") ||
             op.name == "func.call";
    }
  }
  if (ops <= 1 || main.body.blocks.size() != 1) return std::nullopt;
  auto fail = [&](const std::string& message) {
    std::cerr << "hlocheck replay: " << path << ": " << message << "\n";
    return kExitUsage;
  };
  if (!main.type.inputs.empty()) {
    return fail("a program's arguments must be constants, as hlocheck programs writes them");
  }
  auto case_timeout = flags.GetInt("case-timeout", 1, 86400);
  if (!case_timeout.ok()) return fail(std::string(case_timeout.status().message()));
  auto opened = OpenProgramBackend(flags, **registry, static_cast<double>(*case_timeout), nullptr);
  if (!opened.ok()) return fail(std::string(opened.status().message()));
  const std::string backend = flags.Get("backend");
  // --inputs arguments (the default): @main's constants become its
  // arguments, as `hlocheck programs` ran the program before it folded
  // them into the reproducer (a compiler folds constants: a code path of
  // its own).
  ProgramUnderTest program{*module, {}};
  const bool as_arguments = flags.Get("inputs") != "constants";
  if (as_arguments) {
    Function& lifted = MainOf(program.module);
    Block& block = lifted.body.blocks[0];
    for (size_t i = 0; i + 1 < block.operations.size();) {
      Operation& op = block.operations[i];
      auto value = op.attributes.find("value");
      if (op.name != "stablehlo.constant" || value == op.attributes.end() ||
          !std::holds_alternative<Tensor>(value->second) || op.result_types[0].is_quantized()) {
        ++i;
        continue;
      }
      block.arguments.push_back(op.results[0]);
      block.argument_types.push_back(op.result_types[0]);
      program.arguments.push_back(std::get<Tensor>(value->second));
      block.operations.erase(block.operations.begin() + static_cast<std::ptrdiff_t>(i));
    }
    lifted.type.inputs = block.argument_types;
  }
  Oracle oracle(*registry);
  ProgramsRun run(**registry, oracle, *(*opened)->handle.backend, (*opened)->profile_or_null());
  ProgramTrial trial = run.Trial(program);
  std::cout << "// program file " << path << ": " << ops << " ops, on " << backend << ", "
            << (as_arguments ? "its constants as arguments (--inputs constants keeps them)"
                             : "its constants as constants")
            << "\n";
  if (!trial.reference.ok()) {
    return fail("the oracle does not run it: " + std::string(trial.reference.status().message()));
  }
  std::cout << "output elements: " << trial.reference->output_elements << ", fixed bit for bit "
            << trial.reference->determined_elements << ", compared "
            << trial.reference->compared_elements << "\n";
  const ProgramOutcome& outcome = trial.outcome;
  std::cout << ProgramOutcomeKindName(outcome.kind)
            << (outcome.message.empty() ? "" : ": " + outcome.message) << "\n";
  return Fails(outcome) ? kExitFailure : kExitOk;
}

}  // namespace

int ReplayCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("backend", "NAME", "the backend to run the case on", "cpu");
  flags.Add("threads", "N", "backend threads; 0 = one per hardware thread", "0");
  flags.Add("batch-with", "KEYS",
            "comma-separated replay strings of the cases the backend got together with this one, "
            "in order, this one among them (a report's batch_only_batch): runs them together "
            "again, checks this one, and prints the batch as one module");
  flags.Add("repeat", "N",
            "with --batch-with: run the batch N times in this process and say how often the case "
            "came out wrong (a race shows only now and then)",
            "1");
  AddCompilerFlags(flags);
  flags.AddSwitch("help", "show this help");
  if (auto status = flags.Parse(args); !status.ok()) {
    std::cerr << "hlocheck replay: " << status.message() << "\n";
    return kExitUsage;
  }
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck replay [flags] REPLAY_STRING\n"
                 "       hlocheck replay [flags] CASE.mlir | PROGRAM.mlir\n\n"
                 "Rebuilds the case a run printed (generation seed, size and shrink steps) and\n"
                 "checks it against the oracle again: prints the case as StableHLO, the oracle's\n"
                 "answer and the backend's. Cases that cannot run (negative cases from\n"
                 "`generate --negative`, tokens, quantized tensors, ops the oracle lacks) are\n"
                 "printed and verified instead. A .mlir file instead holds one case as a\n"
                 "reproducer prints it (the op in @main, its operands constants; checks and\n"
                 "comments are ignored): a reproducer cut down by hand is checked the same way.\n"
                 "A .mlir file of several ops (a `hlocheck programs` finding, its arguments\n"
                 "constants) runs as a program on the backend, judged as `programs` judges it.\n"
                 "\nflags:\n"
              << flags.Help()
              << "\nExit status: 0 the backend agrees, 1 it does not, 2 bad input.\n";
    return kExitOk;
  }
  if (flags.positional().size() != 1) {
    std::cerr << "hlocheck replay: expected one replay string (hlocheck2:...) or case file "
                 "(.mlir)\n";
    return kExitUsage;
  }
  auto threads = flags.GetInt("threads", 0, 1024);
  if (!threads.ok()) {
    std::cerr << "hlocheck replay: " << threads.status().message() << "\n";
    return kExitUsage;
  }
  if (std::optional<int> status = ReplayProgramFile(flags, flags.positional()[0])) return *status;
  auto session = OpenSession(flags, static_cast<int>(*threads));
  if (!session.ok()) {
    std::cerr << "hlocheck replay: " << session.status().message() << "\n";
    return kExitUsage;
  }
  Gate& gate = *(*session)->gate;
  const std::string& what = flags.positional()[0];
  if (what.size() > 5 && what.substr(what.size() - 5) == ".mlir") {
    auto replayed = CheckCaseFile(gate, *(*session)->registry, what);
    if (!replayed.ok()) {
      std::cerr << "hlocheck replay: " << replayed.status().message() << "\n";
      return kExitUsage;
    }
    return PrintOutcome(**session, *replayed, "case file " + what);
  }
  if (!flags.Get("batch-with").empty()) {
    std::vector<std::string> batch =
        absl::StrSplit(flags.Get("batch-with"), ',', absl::SkipEmpty());
    auto repeat = flags.GetInt("repeat", 1, 1000000);
    if (!repeat.ok()) {
      std::cerr << "hlocheck replay: " << repeat.status().message() << "\n";
      return kExitUsage;
    }
    // The last wrong run is the one shown, else the last run.
    absl::StatusOr<Gate::ReplayedBatch> replayed;
    int64_t wrong = 0;
    for (int64_t run = 0; run < *repeat; ++run) {
      auto this_run = gate.ReplayInBatch(what, batch);
      if (!this_run.ok()) {
        std::cerr << "hlocheck replay: " << this_run.status().message() << "\n";
        return kExitUsage;
      }
      const CaseOutcome::Kind kind = this_run->cases[this_run->target].outcome.kind;
      const bool is_wrong =
          kind == CaseOutcome::Kind::kMismatch || kind == CaseOutcome::Kind::kWrongType;
      wrong += is_wrong;
      if (is_wrong || wrong == 0) replayed = *std::move(this_run);
    }
    if (*repeat > 1) {
      std::cout << "// wrong in " << wrong << " of " << *repeat << " runs of the batch\n";
    }
    std::vector<mlir::BatchedCase> program;
    for (const Gate::Replayed& c : replayed->cases) program.push_back({c.op, &c.c});
    std::cout << "// the batch as one module, inputs as constants; @case_" << replayed->target
              << " is the case checked below\n"
              << mlir::PrintBatchProgram(*(*session)->registry, program,
                                         mlir::ProgramInputs::kConstants)
              << "\n";
    return PrintOutcome(**session, replayed->cases[replayed->target],
                        "replay " + what + ", run with " + std::to_string(batch.size() - 1) +
                            " other cases in one module");
  }
  // Cases no backend can run (negative cases, tokens, quantized tensors, ops
  // the oracle does not implement yet) are rebuilt, printed and verified.
  auto key = ParseReplay(flags.positional()[0]);
  if (!key.ok()) {
    std::cerr << "hlocheck replay: " << key.status().message() << "\n";
    return kExitUsage;
  }
  const spec::OpSpec* op = (*session)->registry->Find(key->op);
  if (op == nullptr) {
    std::cerr << "hlocheck replay: unknown op '" << key->op << "'\n";
    return kExitUsage;
  }
  // Whether the case can run does not change as it shrinks, and a gate's
  // shrink path may take the halves of an elementwise case, which only the
  // gate's shrink tree has: the unshrunk case decides, and the gate
  // follows the path.
  ReplayKey unshrunk = *key;
  if (key->violates.empty()) unshrunk.shrink_path.clear();
  auto generated = ReplayGenerated(*(*session)->registry, unshrunk);
  if (generated.ok() && generated->runnable && key->violates.empty() &&
      (*session)->oracle->Implements(op->name)) {
    auto replayed = gate.Replay(flags.positional()[0]);
    if (!replayed.ok()) {
      std::cerr << "hlocheck replay: " << replayed.status().message() << "\n";
      return kExitUsage;
    }
    return PrintOutcome(**session, *replayed, "replay " + flags.positional()[0]);
  }
  if (generated.ok() && unshrunk.shrink_path != key->shrink_path) {
    generated = ReplayGenerated(*(*session)->registry, *key);
  }
  if (!generated.ok()) {
    std::cerr << "hlocheck replay: " << generated.status().message() << "\n";
    return kExitUsage;
  }
  std::cout << GeneratedSnippet(*(*session)->registry, *op, *generated) << "\n";
  spec::VerifyResult verdict = spec::Verify(*op, generated->instance, (*session)->registry);
  std::cout << (verdict.valid() ? "valid\n" : verdict.Report());
  if (!key->violates.empty()) {
    bool alone = verdict.ViolatedIds() == std::vector<std::string>{key->violates};
    std::cout << (alone ? "violates " + key->violates + " alone, as generated\n"
                        : "does NOT violate " + key->violates + " alone\n");
    return alone ? kExitOk : kExitFailure;
  }
  std::cout << "not run: "
            << (generated->runnable ? "the oracle does not implement " + op->name + " yet"
                                    : generated->not_runnable)
            << "\n";
  return verdict.valid() ? kExitOk : kExitFailure;
}

namespace {

absl::StatusOr<Gate::Replayed> CheckCaseFile(Gate& gate, const spec::SpecRegistry& registry,
                                             const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  auto c = mlir::ReadCaseModule(text.str(), path, registry);
  if (!c.ok()) return c.status();
  const spec::OpSpec* op = registry.Find(c->op);
  if (op == nullptr) return absl::InvalidArgumentError(path + ": unknown op '" + c->op + "'");
  Gate::Replayed replayed{op, *std::move(c), {}};
  replayed.outcome = gate.CheckCase(*op, replayed.c);
  return replayed;
}

int PrintOutcome(const Session& session, const Gate::Replayed& replayed,
                 const std::string& heading) {
  const CaseOutcome& outcome = replayed.outcome;
  std::cout << mlir::PrintCaseModule(*session.registry, *replayed.op, replayed.c,
                                     ExpectedResults(outcome), {heading});
  for (size_t r = 0; r < outcome.actual.size(); ++r) {
    std::cout << "backend result: " << PrintDenseAttribute(outcome.actual[r]) << "\n";
  }
  for (size_t r = 0; r < outcome.comparisons.size() && r < outcome.expectations.size(); ++r) {
    if (outcome.comparisons[r].other_reading == 0) continue;
    std::cout << "result " << r << ": " << outcome.comparisons[r].other_reading
              << " element(s) hold the other reading's value ("
              << outcome.expectations[r].other_reading_reason << ")\n";
  }
  switch (outcome.kind) {
    case CaseOutcome::Kind::kPass:
      std::cout << "the backend agrees with the oracle\n";
      return kExitOk;
    case CaseOutcome::Kind::kSkipped:
      std::cout << "the backend cannot run this case: " << outcome.message << "\n";
      return kExitOk;
    case CaseOutcome::Kind::kDeviation:
      // As the gate counts it: not a pass, and not a failure of the run.
      std::cout << "deviating as the backend's profile declares (" << session.profile->file << "):";
      for (const auto& [id, elements] : outcome.excused) {
        std::cout << " " << id << " excuses " << elements << " element(s);";
      }
      std::cout << " --profile none holds the backend to the spec alone\n";
      return kExitOk;
    case CaseOutcome::Kind::kConvention:
      for (const ResultComparison& c : outcome.comparisons) {
        for (const ElementMismatch& m : c.first_convention_differences) {
          std::cout << "element " << m.index << ": de facto convention " << m.expected << ", got "
                    << m.actual << "\n";
        }
      }
      std::cout << "differs from the de facto convention where the spec leaves the value open "
                   "(not a failure)\n";
      return kExitOk;
    case CaseOutcome::Kind::kMismatch:
      for (const ResultComparison& c : outcome.comparisons) {
        for (const ElementMismatch& m : c.first_mismatches) {
          std::cout << "element " << m.index << ": expected " << m.expected << ", got " << m.actual
                    << "; allowed " << m.allowed << "\n";
        }
      }
      std::cout << "MISMATCH\n";
      return kExitFailure;
    default:
      std::cout << outcome.message << "\nFAILED\n";
      return kExitFailure;
  }
}

}  // namespace

}  // namespace hlocheck
