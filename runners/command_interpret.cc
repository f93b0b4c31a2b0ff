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
  flags.AddSwitch("literal",
                  "no judge: a check whose constant fails literally fails, as in the public tool");
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
           "dialect's checks as the public `stablehlo-translate --interpret` does:\n"
           "expect_eq[_const] exactly, expect_almost_eq[_const] within an absolute tolerance\n"
           "(1e-4 unless given), expect_close within [min_ulp_difference, max_ulp_difference]\n"
           "(0 and 1 unless given), expect_serialized_eq against interpreter.probe; and the\n"
           "custom_call forms with the public tool's fixed values: @check.expect_almost_eq\n"
           "within 1e-3, @check.expect_close within 0..3 ULP, @check.expect_eq exactly,\n"
           "@check.eq (exact for integers, 1e-4 otherwise).\n\n"
           "The judge (on unless --literal): when a check fails, its expected value is a\n"
           "constant, and its checked value is the result of one op whose inputs the spec\n"
           "fixes (constants, or ops exact bit for bit), the constant is taken as a backend's\n"
           "result of that op and accepted if it lies within what the spec allows (the op's\n"
           "ULP bound or the oracle's accumulation bound). Test constants computed by some\n"
           "backend (a dot_general summed in f32) are so judged by the spec, not by that\n"
           "backend; such functions are reported as 'pass (judged)' with the distance, and\n"
           "counted apart from plain passes.\n\n"
           "Each function is reported as pass, pass (judged), FAIL (with the failing check's\n"
           "values), implementation-defined (checks held except on elements the spec leaves\n"
           "open; where such elements have a de facto convention, it says whether the checks\n"
           "hold the convention's value or another, with the first that differs),\n"
           "unsupported (an op the oracle does not run yet, named), invalid (the spec\n"
           "forbids an op; the verifier's reason), error, or skipped (takes arguments).\n\n"
           "flags:\n"
        << flags.Help()
        << "\nExit status: 0 no check failed (unsupported functions are counted, not passed),\n"
           "1 a check failed or a function was invalid or in error, 2 bad input.\n";
    return kExitOk;
  }
  InterpretOptions options;
  options.print = flags.Switch("print");
  options.judge = !flags.Switch("literal");
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
  int totals[8] = {};
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
      if (f.kind == FunctionOutcome::Kind::kPassed || f.kind == FunctionOutcome::Kind::kJudged) {
        std::cout << " (" << f.checks << " checks)";
      }
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
  std::cout << totals[0] << " passed, " << totals[7] << " passed by the judge, " << totals[1]
            << " failed, " << totals[2] << " implementation-defined, " << totals[3]
            << " unsupported, " << totals[4] << " invalid, " << totals[5] << " errors, "
            << totals[6] << " skipped";
  if (flags.Switch("time")) {
    std::cout << "; "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << " s";
  }
  std::cout << "\n";
  return exit;
}

}  // namespace hlocheck
