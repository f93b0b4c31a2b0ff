// `hlocheck exhaustive --op OP --type T --backend B`: every input.
#include <iostream>

#include "runners/commands.h"
#include "runners/exhaustive.h"
#include "runners/flags.h"
#include "runners/session.h"

namespace hlocheck {

int ExhaustiveCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("op", "LIST", "elementwise ops (comma-separated)");
  flags.Add("type", "LIST", "element types of at most 16 bits (8 for binary ops)");
  flags.Add("backend", "NAME", "the backend to check", "cpu");
  flags.Add("threads", "N", "backend threads (0: one per hardware thread)", "0");
  AddCompilerFlags(flags);
  flags.AddSwitch("help", "show this help");
  if (auto status = flags.Parse(args); !status.ok()) {
    std::cerr << "hlocheck exhaustive: " << status.message() << "\n";
    return kExitUsage;
  }
  if (flags.Switch("help") || !flags.IsSet("op") || !flags.IsSet("type")) {
    (flags.Switch("help") ? std::cout : std::cerr)
        << "usage: hlocheck exhaustive --op OP[,OP...] --type T[,T...] [--backend B]\n\n"
           "Checks every input of a unary elementwise op (types of up to 16 bits), or every\n"
           "input pair of a binary one (8-bit types), as one case on the oracle and the\n"
           "backend, and reports the worst ULP distance with its input next to the op's\n"
           "allowed bound.\n\nflags:\n"
        << flags.Help()
        << "\nExit status: 0 within bounds everywhere, 1 a mismatch, 2 bad usage or input.\n";
    return flags.Switch("help") ? kExitOk : kExitUsage;
  }
  auto threads = flags.GetInt("threads", 0, 1024);
  if (!threads.ok()) {
    std::cerr << "hlocheck exhaustive: " << threads.status().message() << "\n";
    return kExitUsage;
  }
  auto session = OpenSession(flags, static_cast<int>(*threads));
  if (!session.ok()) {
    std::cerr << "hlocheck exhaustive: " << session.status().message() << "\n";
    return kExitUsage;
  }
  std::vector<ElementType> types;
  for (const std::string& name : flags.GetList("type")) {
    auto type = ParseElementType(name);
    if (!type) {
      std::cerr << "hlocheck exhaustive: unknown element type '" << name << "'\n";
      return kExitUsage;
    }
    types.push_back(*type);
  }
  int exit = kExitOk;
  for (const std::string& op : flags.GetList("op")) {
    for (ElementType type : types) {
      auto result =
          RunExhaustive(*(*session)->registry, *(*session)->oracle, *(*session)->adapter, op, type);
      if (!result.ok()) {
        std::cout << op << " " << Name(type) << ": not checked: " << result.status().message()
                  << "\n";
        if (!absl::IsUnimplemented(result.status())) exit = kExitUsage;
        continue;
      }
      std::cout << (result->mismatches == 0 ? "ok   " : "FAIL ") << op << " " << Name(type) << ": "
                << result->inputs << " inputs, " << result->free << " free, " << result->mismatches
                << " beyond the bound";
      if (result->worst_ulp >= 0) {
        std::cout << "; worst " << result->worst_ulp << " ULP (allowed " << result->allowed_ulp
                  << ")";
        if (result->worst_ulp > 0) {
          std::cout << " at " << result->worst_input << ": oracle " << result->worst_expected
                    << ", backend " << result->worst_actual;
        }
      }
      if (!result->first_mismatch.empty()) std::cout << "; first: " << result->first_mismatch;
      std::cout << "\n";
      if (result->mismatches > 0 && exit == kExitOk) exit = kExitFailure;
    }
  }
  return exit;
}

}  // namespace hlocheck
