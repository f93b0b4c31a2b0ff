// `hlocheck programs`: random multi-op programs (generators/program_generator)
// on a backend, each judged against the oracle (runners/program_check) and
// run again as its metamorphic variants (runners/program_variants); every
// failure is shrunk (runners/program_shrink) and written down under --out.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "adapters/faulty/program_faults.h"
#include "adapters/program/program_backend.h"
#include "generators/program_generator.h"
#include "mlir/writer.h"
#include "runners/backend_profile.h"
#include "runners/commands.h"
#include "runners/flags.h"
#include "runners/program_check.h"
#include "runners/program_run.h"
#include "runners/program_shrink.h"
#include "runners/program_variants.h"
#include "runners/session.h"

namespace hlocheck {
namespace {

std::string Percent(int64_t part, int64_t whole) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << (whole == 0 ? 0.0 : 100.0 * part / whole) << "%";
  return out.str();
}

void WriteFindings(const std::string& directory, const std::vector<ProgramFinding>& findings,
                   const std::string& header) {
  std::filesystem::create_directories(directory);
  std::ofstream md(directory + "/findings.md");
  md << "# Program findings\n\n" << header << "\n";
  int k = 0;
  for (const ProgramFinding& f : findings) {
    ++k;
    const std::string file = "finding-" + std::to_string(k) + ".mlir";
    std::ofstream(directory + "/" + file) << f.module_text;
    md << "\n## " << k << ". " << ProgramOutcomeKindName(f.kind)
       << (f.relation.empty() ? "" : " (variant: " + f.relation + ")") << "\n\n"
       << "- signature: `" << f.signature << "` (seen " << f.count << "x; first in program "
       << f.program_index << ")\n"
       << "- " << f.message << "\n"
       << "- shrunk from " << f.ops_before << " to " << f.ops_after << " ops in "
       << f.shrink_attempts << " trials; reproducer `" << file << "` (arguments as constants)\n";
    if (!f.relation.empty()) {
      md << "- variant: " << f.relation_detail << "; the shrunk program itself "
         << (f.original_passes ? "passes" : "fails too") << "\n";
    }
    md << "\n```mlir\n" << f.module_text << "```\n";
  }
}

}  // namespace

int ProgramsCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("backend", "NAME", "cpu, pjrt:PLUGIN, external:CONFIG, or a faulty-program-* self-test",
            "cpu");
  flags.Add("programs", "N", "how many programs to draw", "100");
  flags.Add("seed", "S", "the run's seed: program K is a function of (seed, K)", "1");
  flags.Add("first", "K",
            "the first program's index K (a finding's program again: --first K --programs 1)", "0");
  flags.Add("min-ops", "N", "ops each program draws, at least", "2");
  flags.Add("max-ops", "N", "ops each program draws, at most (adaptation ops come on top)", "30");
  flags.Add("max-elements", "N", "elements per tensor, at most", "256");
  flags.Add("ops", "LIST", "the ops to draw from (default: every op programs take)");
  flags.Add("types", "LIST",
            "the element types every value of a program has (default: every type); e.g. the "
            "types whose single ops the backend gets right");
  flags.Add("relations", "LIST",
            "metamorphic variants to run: constants,barriers,reordered,rewritten, all or none",
            "all");
  flags.Add("budget", "SECONDS",
            "stop drawing and shrinking programs after this long (0: no limit)", "0");
  flags.Add("shrink-attempts", "N", "trials each failure's shrinking may spend", "150");
  flags.Add("out", "DIR", "where findings.md and the reproducers go", "hlocheck-programs");
  flags.Add("profile", "FILE|none",
            "the backend's declared deviations (default: backends/NAME.yaml for pjrt:NAME and "
            "external:NAME)");
  flags.Add("backend-option", "KEY=VALUE", "for pjrt: and external: backends, repeatable");
  flags.Add("case-timeout", "SECONDS", "a program that takes longer is a hang finding", "60");
  flags.AddSwitch("no-quantized",
                  "no quantized values (by default the ops that take them draw them now and then, "
                  "made by uniform_quantize)");
  flags.AddSwitch("help", "show this help");
  auto usage = [](const std::string& message) {
    std::cerr << "hlocheck programs: " << message << "\n";
    return kExitUsage;
  };
  if (auto status = flags.Parse(args); !status.ok()) return usage(std::string(status.message()));
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck programs [--backend NAME] [--programs N] [--seed S] ...\n\n"
                 "Draws random multi-op programs, checks each on the backend against the\n"
                 "oracle, then runs its metamorphic variants; shrinks and writes down every\n"
                 "failure.\n\nflags:\n"
              << flags.Help()
              << "\nSelf-test backends (deliberately faulty, on the CPU adapter):\n";
    for (const ProgramFault& fault : ProgramFaults()) {
      std::cout << "  " << fault.name << "\n      " << fault.description << "\n";
    }
    std::cout << "\nExit status: 0 no failure, 1 a failure was found, 2 bad usage or input.\n";
    return kExitOk;
  }
  auto programs = flags.GetInt("programs", 1, int64_t{1} << 40);
  auto first = flags.GetInt("first", 0, int64_t{1} << 40);
  auto seed = flags.GetUint("seed");
  auto min_ops = flags.GetInt("min-ops", 1, 200);
  auto max_ops = flags.GetInt("max-ops", 1, 200);
  auto max_elements = flags.GetInt("max-elements", 1, 1 << 20);
  auto shrink_attempts = flags.GetInt("shrink-attempts", 0, 100000);
  for (const absl::Status& s :
       {programs.status(), first.status(), seed.status(), min_ops.status(), max_ops.status(),
        max_elements.status(), shrink_attempts.status()}) {
    if (!s.ok()) return usage(std::string(s.message()));
  }
  if (*min_ops > *max_ops) return usage("--min-ops is larger than --max-ops");
  double budget = 0;
  if (!absl::SimpleAtod(flags.Get("budget"), &budget) || budget < 0) {
    return usage("--budget " + flags.Get("budget") + ": expected seconds");
  }
  double timeout = 0;
  if (!absl::SimpleAtod(flags.Get("case-timeout"), &timeout) || !(timeout > 0)) {
    return usage("--case-timeout " + flags.Get("case-timeout") + ": expected seconds");
  }
  std::vector<std::string> relations = flags.GetList("relations");
  if (relations == std::vector<std::string>{"all"}) relations = ProgramRelations();
  if (relations == std::vector<std::string>{"none"}) relations.clear();
  for (const std::string& r : relations) {
    if (std::find(ProgramRelations().begin(), ProgramRelations().end(), r) ==
        ProgramRelations().end()) {
      return usage("--relations: unknown relation '" + r +
                   "'; known: constants, barriers, reordered, rewritten, all, none");
    }
  }
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) return usage(std::string(registry.status().message()));
  ProgramOptions options;
  options.min_ops = static_cast<int>(*min_ops);
  options.max_ops = static_cast<int>(*max_ops);
  options.max_elements = *max_elements;
  options.ops = flags.GetList("ops");
  for (const std::string& op : options.ops) {
    const std::vector<std::string> known = ProgramOps(**registry);
    if (std::find(known.begin(), known.end(), op) == known.end()) {
      return usage("--ops: '" + op + "' is not an op programs take (see `hlocheck spec`)");
    }
  }
  for (const std::string& name : flags.GetList("types")) {
    std::optional<ElementType> type = ParseElementType(name);
    if (!type)
      return usage("--types: '" + name + "' is not an element type (see `hlocheck types`)");
    options.element_types.insert(*type);
  }
  auto opened = OpenProgramBackend(flags, **registry, timeout, &options);
  if (!opened.ok()) return usage(std::string(opened.status().message()));
  const std::string backend_name = flags.Get("backend");
  ProgramBackend& backend = *(*opened)->handle.backend;
  options.quantized = !flags.Switch("no-quantized");
  Oracle oracle(*registry);
  ProgramsRun run(**registry, oracle, backend, (*opened)->profile_or_null());
  const std::string out = flags.Get("out");

  std::cout << "hlocheck programs on " << backend_name << " (" << backend.Describe() << "), "
            << *programs << " programs of " << *min_ops << ".." << *max_ops << " ops, seed "
            << *seed << "\n";
  const auto start = std::chrono::steady_clock::now();
  int64_t ran = 0, generator_failures = 0, unsupported = 0, invalid = 0, variants_run = 0;
  int64_t drawn = 0, adaptation = 0, deviating = 0;
  int64_t elements = 0, determined = 0, compared = 0, bounded = 0;
  std::map<std::string, int64_t> unchecked_by_cause;
  std::map<std::string, int64_t> unsupported_by_reason;
  std::vector<ProgramFinding> findings;
  std::map<std::string, size_t> by_signature;
  auto record = [&](ProgramFinding f) {
    auto it = by_signature.find(f.signature);
    if (it != by_signature.end()) {
      ++findings[it->second].count;
      return;
    }
    std::cout << "  finding " << findings.size() + 1 << ": " << ProgramOutcomeKindName(f.kind)
              << (f.relation.empty() ? "" : " (variant " + f.relation + ")") << ", " << f.ops_before
              << " -> " << f.ops_after << " ops: " << f.message << "\n";
    by_signature[f.signature] = findings.size();
    findings.push_back(std::move(f));
    // Written as they come: a run stopped early keeps what it found.
    WriteFindings(
        out, findings,
        "Backend " + backend_name + ", seed " + std::to_string(*seed) + " (run under way).\n");
  };
  auto out_of_budget = [&] {
    return budget > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > budget;
  };
  ProgramRunSettings settings;
  settings.options = options;
  settings.relations = relations;
  settings.seed = *seed;
  settings.shrink_attempts = static_cast<int>(*shrink_attempts);
  for (int64_t index = *first; index < *first + *programs; ++index) {
    if (out_of_budget()) {
      std::cout << "budget of " << budget << " s spent after " << index - *first << " programs\n";
      break;
    }
    ProgramUnitResult unit = run.Check(settings, index, out_of_budget);
    if (!unit.generated) {
      ++generator_failures;
      continue;
    }
    if (!unit.unsupported.empty()) {
      ++unsupported;
      ++unsupported_by_reason[unit.unsupported.substr(0, 120)];
      continue;
    }
    if (!unit.invalid.empty()) {
      ++invalid;
      if (invalid <= 5) {
        std::cout << "  program " << index << " is not valid (a generator bug): " << unit.invalid
                  << "\n";
      }
      continue;
    }
    ++ran;
    drawn += unit.drawn_ops;
    adaptation += unit.adaptation_ops;
    variants_run += unit.variants_run;
    elements += unit.output_elements;
    determined += unit.determined;
    compared += unit.compared;
    bounded += unit.bounded;
    for (const auto& [cause, count] : unit.unchecked_by_cause) unchecked_by_cause[cause] += count;
    if (unit.deviating) ++deviating;
    if (unit.finding) record(std::move(*unit.finding));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream summary;
  summary << ran << " programs ran (" << drawn << " ops drawn, " << adaptation
          << " adaptation ops), " << variants_run << " variants; " << unsupported
          << " the oracle cannot run, " << invalid << " invalid, " << generator_failures
          << " not generated\n"
          << "output elements: " << elements << ", fixed bit for bit " << determined << " ("
          << Percent(determined, elements) << "), compared " << compared << " ("
          << Percent(compared, elements) << "; " << bounded << " of them ("
          << Percent(bounded, elements) << ") within bounds carried past freedom)\n"
          << deviating << " programs deviating as declared; " << findings.size()
          << " distinct finding(s)\n"
          << std::fixed << std::setprecision(2) << seconds
          << " s: " << (seconds > 0 ? ran / seconds : 0) << " programs/s, "
          << (seconds > 0 ? 3600.0 * static_cast<double>(findings.size()) / seconds : 0)
          << " findings/hour, " << run.backend_runs() << " backend runs\n";
  // What keeps the rest unchecked: the ops where the most unchecked output
  // elements lost their bound.
  std::vector<std::pair<int64_t, std::string>> causes;
  for (const auto& [cause, count] : unchecked_by_cause) causes.push_back({count, cause});
  std::sort(causes.rbegin(), causes.rend());
  if (!causes.empty()) {
    summary << "unchecked output elements lost their bound at (the first "
            << std::min<size_t>(causes.size(), 8) << " of " << causes.size() << " causes):";
    for (size_t i = 0; i < causes.size() && i < 8; ++i) {
      summary << (i == 0 ? " " : "; ") << causes[i].second << " " << causes[i].first << " ("
              << Percent(causes[i].first, elements) << ")";
    }
    summary << "\n";
  }
  std::cout << summary.str();
  for (const auto& [reason, count] : unsupported_by_reason) {
    std::cout << "  not run by the oracle (" << count << "x): " << reason << "\n";
  }
  if (!findings.empty()) {
    WriteFindings(out, findings,
                  "Backend " + backend_name + ", seed " + std::to_string(*seed) + ".\n\n```\n" +
                      summary.str() + "```\n");
    std::cout << "findings written to " << out << "/findings.md\n";
  }
  return findings.empty() && invalid == 0 ? kExitOk : kExitFailure;
}

}  // namespace hlocheck
