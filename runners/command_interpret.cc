// `hlocheck interpret FILE.mlir...`: runs StableHLO files on the oracle.
#include <chrono>
#include <iostream>

#include "core/literal.h"
#include "mlir/attribute_syntax.h"
#include "runners/commands.h"
#include "runners/flags.h"
#include "runners/interpret.h"

namespace hlocheck {
namespace {

// `[dense<1> : tensor<2xi32>, dense<2> : tensor<2xi32>]`.
absl::StatusOr<std::vector<Tensor>> ParseArguments(const std::string& text) {
  std::vector<Tensor> tensors;
  try {
    mlir::Cursor cursor(text, "--args");
    mlir::AttrSyntax list = mlir::ParseAttribute(cursor);
    if (list.kind != mlir::AttrSyntax::Kind::kList || !cursor.AtEnd()) {
      return absl::InvalidArgumentError(
          "--args: expected a list of dense literals, e.g. [dense<1> : tensor<2xi32>]");
    }
    for (const mlir::AttrSyntax& item : list.items) {
      if (item.kind != mlir::AttrSyntax::Kind::kDense) {
        return absl::InvalidArgumentError("--args: '" + item.text + "' is not a dense literal");
      }
      tensors.push_back(item.dense);
    }
  } catch (const mlir::SyntaxError& e) {
    return absl::InvalidArgumentError(e.what());
  }
  return tensors;
}

}  // namespace

int InterpretCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("args", "LIST", "arguments of a main that takes some: [dense<...> : tensor<...>, ...]");
  flags.AddSwitch("print", "let interpreter.print write its values");
  flags.AddSwitch("time", "print the time taken to read and run each file and in total");
  flags.AddSwitch("quiet", "print only failures and the totals");
  flags.AddSwitch("help", "show this help");
  if (auto status = flags.Parse(args);
      !status.ok() || (flags.positional().empty() && !flags.Switch("help"))) {
    std::cerr << "hlocheck interpret: "
              << (status.ok() ? "expected one or more .mlir files (see --help)" : status.message())
              << "\n";
    return kExitUsage;
  }
  if (flags.Switch("help")) {
    std::cout
        << "usage: hlocheck interpret [flags] FILE.mlir...\n\n"
           "Runs every function of every `// -----` split on the oracle (main alone when a\n"
           "split has one; otherwise each function no other calls) and evaluates the check\n"
           "dialect's checks (expect_eq, expect_eq_const, expect_almost_eq[_const] with\n"
           "tolerance 1e-4 unless given, expect_close within 3 ULP unless given,\n"
           "expect_serialized_eq against interpreter.probe). Each function is reported as\n"
           "pass, FAIL (with the failing check's values), implementation-defined (checks\n"
           "held except on elements the spec leaves open), unsupported (an op the oracle\n"
           "does not run yet, named), invalid (the spec forbids an op; the verifier's\n"
           "reason), error, or skipped (takes arguments).\n\nflags:\n"
        << flags.Help()
        << "\nExit status: 0 no check failed (unsupported functions are counted, not passed),\n"
           "1 a check failed or a function was invalid or in error, 2 bad input.\n";
    return kExitOk;
  }
  InterpretOptions options;
  options.print = flags.Switch("print");
  if (flags.IsSet("args")) {
    auto arguments = ParseArguments(flags.Get("args"));
    if (!arguments.ok()) {
      std::cerr << "hlocheck interpret: " << arguments.status().message() << "\n";
      return kExitUsage;
    }
    options.main_arguments = *std::move(arguments);
  }
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) {
    std::cerr << "hlocheck interpret: " << registry.status().message() << "\n";
    return kExitUsage;
  }
  bool quiet = flags.Switch("quiet");
  int exit = kExitOk;
  int totals[7] = {};
  auto start = std::chrono::steady_clock::now();
  for (const std::string& path : flags.positional()) {
    auto file_start = std::chrono::steady_clock::now();
    auto outcome = InterpretFile(path, **registry, options);
    if (!outcome.ok()) {
      std::cerr << "hlocheck interpret: " << outcome.status().message() << "\n";
      exit = kExitUsage;
      continue;
    }
    for (const FunctionOutcome& f : outcome->functions) {
      ++totals[static_cast<int>(f.kind)];
      bool bad = f.kind == FunctionOutcome::Kind::kFailed ||
                 f.kind == FunctionOutcome::Kind::kInvalid ||
                 f.kind == FunctionOutcome::Kind::kError;
      if (bad && exit == kExitOk) exit = kExitFailure;
      if (quiet && !bad) continue;
      std::cout << path << ":" << f.line << ": @" << f.function << ": " << KindName(f.kind);
      if (f.kind == FunctionOutcome::Kind::kPassed) std::cout << " (" << f.checks << " checks)";
      if (f.kind == FunctionOutcome::Kind::kUnsupported) {
        std::cout << ":";
        for (const std::string& op : f.unsupported) std::cout << " " << op;
      }
      if (!f.message.empty() && f.kind != FunctionOutcome::Kind::kUnsupported) {
        std::cout << ": " << f.message;
      }
      std::cout << "\n";
    }
    if (flags.Switch("time")) {
      double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - file_start).count();
      std::cout << path << ": " << outcome->splits << " splits in " << seconds << " s\n";
    }
  }
  std::cout << totals[0] << " passed, " << totals[1] << " failed, " << totals[2]
            << " implementation-defined, " << totals[3] << " unsupported, " << totals[4]
            << " invalid, " << totals[5] << " errors, " << totals[6] << " skipped";
  if (flags.Switch("time")) {
    std::cout << "; "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << " s";
  }
  std::cout << "\n";
  return exit;
}

}  // namespace hlocheck
