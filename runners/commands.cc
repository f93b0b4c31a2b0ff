#include "runners/commands.h"

#include <algorithm>
#include <iostream>

namespace hlocheck {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"run", "the CI gate: check ops on a backend against the oracle", RunCommand},
      {"replay", "rebuild one case from a replay string and check it again", ReplayCommand},
      {"types", "list every element type with its exact format", TypesCommand},
      {"spec", "list the ops and constraints of the spec, or one op's", SpecCommand},
      {"verify", "check an op instance (a case file or StableHLO text) against the spec",
       VerifyCommand},
      {"interpret", "run StableHLO .mlir files on the oracle and evaluate their checks",
       InterpretCommand},
      {"exhaustive", "check every input of an elementwise op on a narrow type against a backend",
       ExhaustiveCommand},
      {"generate", "generate cases from the recipes, check their validity, print them",
       GenerateCommand},
      {"coverage", "count which spec constraints generated valid and invalid cases exercise",
       CoverageCommand},
      {"report", "render a run's report.json and a coverage.json as one HTML file", ReportCommand},
      {"merge", "join the reports of a sharded gate run into one", MergeCommand},
      {"fuzz", "a campaign: worker processes drawing cases until a budget is spent", FuzzCommand},
      {"findings", "list, show or export a campaign's findings store", FindingsCommand},
      {"programs", "random multi-op programs and their metamorphic variants on a backend",
       ProgramsCommand},
      {"worker", "host a compiler backend in its own process (the gate starts it)", WorkerCommand},
  };
  return commands;
}

namespace {

void PrintUsage(std::ostream& out) {
  out << "hlocheck: property-based conformance and differential testing for StableHLO\n\n"
         "usage: hlocheck COMMAND [flags]\n\ncommands:\n";
  size_t width = 0;
  for (const Command& c : Commands()) width = std::max(width, std::string(c.name).size());
  for (const Command& c : Commands()) {
    std::string name = c.name;
    name.resize(width + 2, ' ');
    out << "  " << name << c.summary << "\n";
  }
  out << "\n'hlocheck COMMAND --help' explains a command and its flags.\n"
         "Exit status: 0 all agree, 1 a mismatch or failure was found, 2 bad usage or input.\n";
}

}  // namespace

int Main(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    if (args.size() >= 2) {
      std::vector<std::string> rest = {"--help"};
      for (const Command& c : Commands()) {
        if (args[1] == c.name) return c.run(rest);
      }
    }
    PrintUsage(std::cout);
    return args.empty() ? kExitUsage : kExitOk;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const Command& c : Commands()) {
    if (args[0] == c.name) {
      try {
        return c.run(rest);
      } catch (const std::exception& e) {
        std::cerr << "hlocheck " << c.name << ": internal error: " << e.what() << "\n";
        return kExitUsage;
      }
    }
  }
  std::cerr << "hlocheck: unknown command '" << args[0] << "'\n\n";
  PrintUsage(std::cerr);
  return kExitUsage;
}

}  // namespace hlocheck
