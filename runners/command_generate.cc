// `hlocheck generate`: runs the generators without any backend. Checks that
// every case is valid, measures discard rates and speed, and prints cases as
// StableHLO snippets with their replay strings.
#include <cstdio>
#include <iomanip>
#include <iostream>

#include "absl/strings/str_split.h"
#include "runners/commands.h"
#include "runners/flags.h"
#include "runners/generation.h"
#include "spec/verifier.h"

namespace hlocheck {

namespace {

int NegativeReport(const spec::SpecRegistry& registry, const std::vector<const spec::OpSpec*>& ops,
                   const GenerationCheckOptions& options, bool verbose) {
  int seed_working = 0, seed_random = 0, seed_marked = 0, seed_failing = 0, public_working = 0,
      public_total = 0, rank_working = 0, rank_total = 0;
  for (const spec::OpSpec* op : ops) {
    for (const NegativeCheck& check : CheckNegatives(registry, *op, options)) {
      bool marked = !check.not_violable_alone.empty();
      if (check.seed) {
        seed_working += check.working();
        seed_random += check.random();
        seed_marked += marked;
        seed_failing += !marked && !check.working();
      } else if (check.source == "inputs") {
        ++rank_total;
        rank_working += check.working();
      } else {
        ++public_total;
        public_working += check.working();
      }
      if (!verbose && (marked || check.random())) continue;
      std::cout << op->name << " " << check.id << ": ";
      if (marked) {
        std::cout << "not violable alone: " << check.not_violable_alone << "\n";
        continue;
      }
      std::cout << check.produced << "/" << check.requested << " produced, " << check.attempts
                << " draws";
      if (check.from_spec_instance > 0) {
        std::cout << "; " << check.from_spec_instance << " of them the spec's violated_by instance";
      }
      if (check.produced > 0) {
        std::cout << " (" << static_cast<int64_t>(check.produced / std::max(check.seconds, 1e-9))
                  << "/s)\n  e.g. replay " << check.first_replay << "\n  mutations:";
        for (const std::string& m : check.first_mutations) std::cout << " [" << m << "]";
        std::cout << "\n" << check.first_snippet << "\n";
      } else {
        std::cout << "\n  " << check.error << "\n";
      }
    }
  }
  std::cout << "seed constraints with a working negative generator: " << seed_working << " ("
            << seed_random << " by mutating generated cases alone, " << seed_working - seed_random
            << " falling back to the spec's violated_by instance)"
            << "; marked not violable alone: " << seed_marked << "; without: " << seed_failing
            << "\npublic-spec constraints with a working negative generator: " << public_working
            << " of " << public_total
            << "\nranks of the Inputs/Outputs tables with a working negative generator: "
            << rank_working << " of " << rank_total << "\n";
  return seed_failing == 0 && public_working == public_total && rank_working == rank_total
             ? kExitOk
             : kExitFailure;
}

}  // namespace

int GenerateCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("ops", "OP,OP", "ops to generate; 'all' for every op with a recipe", "all");
  flags.Add("type", "TYPE", "the element type of the first operand (default: cycle through all)",
            "");
  flags.Add("cases", "N", "cases per op", "1000");
  flags.Add("seed", "S", "run seed", std::to_string(kDefaultSeed));
  flags.Add("max-elements", "N", "largest tensor generated", "4096");
  flags.Add("print", "N", "print the first N cases of each op as snippets with replay strings",
            "0");
  flags.Add("max-discard", "R", "largest discard rate (0..1) counted as passing", "0.1");
  flags.AddSwitch(
      "negative",
      "generate invalid cases instead: --cases per constraint, each violating it alone");
  flags.AddSwitch("verbose", "with --negative: a line per constraint, not only the failing ones");
  flags.AddSwitch("data", "also generate input data (slower; the validity check needs none)");
  flags.AddSwitch("help", "show this help");
  auto usage = [](const std::string& message) {
    std::cerr << "hlocheck generate: " << message << "\n";
    return kExitUsage;
  };
  if (auto status = flags.Parse(args); !status.ok()) return usage(std::string(status.message()));
  if (flags.Switch("help")) {
    std::cout
        << "usage: hlocheck generate [flags]\n\n"
           "Generates cases from the recipes in spec/ops and checks each against the\n"
           "verifier. Prints per op: cases, invalid cases, discard rate (draws the recipe\n"
           "rejected), runnable cases (plain tensors in and out) and cases per second. The\n"
           "first invalid case of an op is printed with the verifier's report, as a\n"
           "snippet and as a replay string (`hlocheck replay STRING` rebuilds it).\n\nflags:\n"
        << flags.Help()
        << "\nExit status: 0 every case valid and every discard rate within the limit,\n"
           "1 otherwise, 2 bad input.\n";
    return kExitOk;
  }
  if (!flags.positional().empty()) return usage("takes no positional arguments");
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) return usage(std::string(registry.status().message()));
  GenerationCheckOptions options;
  auto cases = flags.GetInt("cases", 1, 100000000);
  auto seed = flags.GetUint("seed");
  auto max_elements = flags.GetInt("max-elements", 1, int64_t{1} << 32);
  auto print = flags.GetInt("print", 0, 1000000);
  if (!cases.ok()) return usage(std::string(cases.status().message()));
  if (!seed.ok()) return usage(std::string(seed.status().message()));
  if (!max_elements.ok()) return usage(std::string(max_elements.status().message()));
  if (!print.ok()) return usage(std::string(print.status().message()));
  double max_discard = 0;
  try {
    max_discard = std::stod(flags.Get("max-discard"));
  } catch (const std::exception&) {
    return usage("--max-discard expects a number between 0 and 1");
  }
  options.cases = *cases;
  options.seed = *seed;
  options.max_elements = *max_elements;
  options.with_data = flags.Switch("data");
  if (!flags.Get("type").empty()) {
    auto type = ParseElementType(flags.Get("type"));
    if (!type) return usage("unknown element type '" + flags.Get("type") + "'");
    options.type = *type;
  }
  std::vector<const spec::OpSpec*> ops;
  if (flags.Get("ops") == "all") {
    for (const spec::OpSpec& op : (*registry)->ops()) {
      if (!op.recipe.empty()) ops.push_back(&op);
    }
  } else {
    for (const auto& name : absl::StrSplit(flags.Get("ops"), ',')) {
      const spec::OpSpec* op = (*registry)->Find(std::string(name));
      if (op == nullptr) return usage("unknown op '" + std::string(name) + "'");
      if (op->recipe.empty()) return usage(op->name + " has no recipe in " + op->file);
      if (options.type && !PrimaryTypes(*op).empty()) {
        auto types = PrimaryTypes(*op);
        if (std::find(types.begin(), types.end(), *options.type) == types.end()) {
          return usage(std::string(Name(*options.type)) + " is not an element type of " + op->name +
                       "'s first input");
        }
      }
      ops.push_back(op);
    }
  }
  if (flags.Switch("negative"))
    return NegativeReport(**registry, ops, options, flags.Switch("verbose"));
  bool all_ok = true;
  std::cout << std::left << std::setw(28) << "op" << std::right << std::setw(8) << "cases"
            << std::setw(9) << "invalid" << std::setw(10) << "discard" << std::setw(10)
            << "runnable" << std::setw(12) << "cases/s"
            << "\n";
  for (const spec::OpSpec* op : ops) {
    for (int64_t i = 0; i < *print; ++i) {
      GenerationOptions generation;
      generation.primary_type = CaseType(*op, options, i);
      generation.max_elements = options.max_elements;
      uint64_t case_seed =
          CaseSeed(options.seed, op->name, generation.primary_type.value_or(ElementType::kI1), i);
      int size = CaseSize(i, options.cases);
      ReplayKey key{op->name, generation.primary_type, case_seed, size, options.max_elements, {},
                    {}};
      auto g = ReplayGenerated(**registry, key);
      if (!g.ok()) {
        std::cout << "// " << g.status().message() << "\n";
        break;
      }
      std::cout << "// replay " << FormatReplay(key) << "\n"
                << GeneratedSnippet(**registry, *op, *g) << "\n";
    }
    OpGenerationCheck check = CheckGeneration(**registry, *op, options);
    bool ok = check.ok() && check.discard_rate() <= max_discard;
    all_ok = all_ok && ok;
    char discard[16];
    std::snprintf(discard, sizeof(discard), "%.1f%%", 100 * check.discard_rate());
    std::cout << std::left << std::setw(28) << op->name << std::right << std::setw(8) << check.cases
              << std::setw(9) << check.invalid << std::setw(10) << discard << std::setw(10)
              << check.runnable << std::setw(12)
              << static_cast<int64_t>(check.seconds > 0 ? check.cases / check.seconds : 0)
              << (ok ? "" : "  FAIL") << "\n";
    if (!check.error.empty()) std::cout << "  generation error: " << check.error << "\n";
    if (check.invalid > 0) {
      std::cout << "  first invalid case (replay " << check.first_invalid_replay << "):\n"
                << check.first_invalid_snippet << "\n"
                << check.first_invalid_report << "\n";
    }
  }
  return all_ok ? kExitOk : kExitFailure;
}

}  // namespace hlocheck
