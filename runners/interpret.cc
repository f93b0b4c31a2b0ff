#include "runners/interpret.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "core/element_value.h"
#include "core/literal.h"
#include "mlir/attribute_syntax.h"
#include "mlir/reader.h"
#include "oracle/compare.h"

namespace hlocheck {
namespace {

using Kind = FunctionOutcome::Kind;

// The default tolerance of check.expect_almost_eq(_const) and ULP bound of
// check.expect_close, as in the public interpreter's check dialect.
constexpr double kDefaultTolerance = 1e-4;
constexpr int64_t kDefaultMaxUlp = 3;

double NumberAttribute(const Operation& op, const std::string& name, double fallback) {
  auto it = op.attributes.find(name);
  if (it == op.attributes.end()) return fallback;
  if (const auto* d = std::get_if<double>(&it->second)) return *d;
  if (const auto* i = std::get_if<int64_t>(&it->second)) return static_cast<double>(*i);
  return fallback;
}

// The elements of a real or complex float tensor as doubles (two per
// complex element), for error bounds.
std::vector<double> AsDoubles(const Tensor& t) {
  std::vector<double> out;
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      for (const auto& v : t.values<T>()) {
        out.push_back(ToDouble<kPart>(v.real()));
        out.push_back(ToDouble<kPart>(v.imag()));
      }
    } else if constexpr (IsFloat(T)) {
      for (const auto& v : t.values<T>()) out.push_back(ToDouble<T>(v));
    }
  });
  return out;
}

struct CheckState {
  int checks = 0;
  int failed = 0;
  int free_only = 0;
  std::string first_failure;
  std::map<std::string, std::vector<Tensor>> probes;
};

// One check: `actual` against `expected` by `how` (exact, ULPs, tolerance).
void Check(CheckState& state, const Operation& op, const RuntimeValue& actual,
           const Tensor& expected) {
  ++state.checks;
  ResultExpectation expectation;
  expectation.reference = expected;
  expectation.free = actual.free;
  expectation.permutable = actual.permutable;
  bool floats = IsFloat(expected.element_type()) || IsComplex(expected.element_type());
  if (op.name == "check.expect_close" && floats) {
    expectation.check = Check::kUlp;
    expectation.allowed_ulp =
        static_cast<int>(NumberAttribute(op, "max_ulp_difference", kDefaultMaxUlp));
  } else if (op.name.find("almost_eq") != std::string::npos && floats) {
    expectation.check = Check::kErrorBound;
    expectation.center_hi = AsDoubles(expected);
    expectation.center_lo.assign(expectation.center_hi.size(), 0.0);
    expectation.bound.assign(expectation.center_hi.size(),
                             NumberAttribute(op, "tolerance", kDefaultTolerance));
  }
  // A quantized value is checked on its storage integers (the writer's
  // checks give those: a dense literal has no quantized form).
  const bool storage_check = actual.tensor.type().quantization && !expected.type().quantization;
  ResultComparison comparison = CompareResult(
      expectation,
      storage_check
          ? Tensor::Reusing(TensorType(actual.tensor.shape(), actual.tensor.element_type()),
                            Tensor(actual.tensor))
          : actual.tensor);
  if (comparison.free > 0) ++state.free_only;
  if (comparison.ok()) return;
  // Differences only where the spec leaves the value open are not failures.
  if (comparison.type_mismatch || comparison.mismatches > 0) {
    std::ostringstream message;
    message << op.name << " at line " << op.location.line << ": ";
    if (comparison.type_mismatch) {
      message << comparison.type_error;
    } else {
      message << comparison.mismatches << " element(s) differ";
      for (const ElementMismatch& m : comparison.first_mismatches) {
        message << "; at " << m.index << ": " << m.actual << " (oracle) vs " << m.expected
                << " (expected), allowed " << m.allowed;
      }
    }
    ++state.failed;
    if (state.first_failure.empty()) state.first_failure = message.str();
  }
}

class Runner {
 public:
  Runner(const spec::SpecRegistry& registry, const Module& module, const InterpretOptions& options)
      : oracle_(&registry),
        interpreter_(&oracle_, &registry, &module),
        module_(module),
        options_(options) {
    interpreter_.set_hook(
        [this](const Operation& op, const std::vector<RuntimeValue>& operands,
               std::vector<RuntimeValue>* results) { return Hook(op, operands, results); });
  }

  FunctionOutcome Run(const Function& f, std::vector<RuntimeValue> arguments) {
    FunctionOutcome outcome;
    outcome.function = f.name;
    outcome.line = f.location.line;
    state_ = CheckState{};
    auto results = interpreter_.Call(f.name, std::move(arguments));
    outcome.checks = state_.checks;
    if (!results.ok()) {
      const absl::Status& status = results.status();
      outcome.message = std::string(status.message());
      if (absl::IsUnimplemented(status)) {
        outcome.kind = Kind::kUnsupported;
        outcome.unsupported = interpreter_.unsupported_ops();
      } else if (absl::IsInvalidArgument(status) &&
                 outcome.message.find("violates the spec") != std::string::npos) {
        outcome.kind = Kind::kInvalid;
      } else {
        outcome.kind = Kind::kError;
      }
      return outcome;
    }
    if (state_.failed > 0) {
      outcome.kind = Kind::kFailed;
      outcome.message = state_.first_failure;
    } else if (state_.free_only > 0) {
      // The checks held where they apply, but some of their elements are
      // left open by the spec and were not compared.
      outcome.kind = Kind::kFree;
      outcome.message = std::to_string(state_.free_only) +
                        " check(s) include elements the spec leaves to the implementation";
    }
    return outcome;
  }

 private:
  absl::StatusOr<bool> Hook(const Operation& op, const std::vector<RuntimeValue>& operands,
                            std::vector<RuntimeValue>* results) {
    std::string name = op.name;
    if (name == "stablehlo.custom_call") {
      // `stablehlo.custom_call @check.expect_eq(%a, %b)`.
      auto target = op.attributes.find("call_target_name");
      if (target == op.attributes.end()) return false;
      name = std::get<std::string>(target->second);
    }
    if (name.rfind("check.expect_", 0) == 0) {
      Operation check = op;
      check.name = name;
      if (operands.empty() || !operands[0].type.is_tensor()) {
        return absl::InvalidArgumentError(name + " needs a tensor operand");
      }
      if (name == "check.expect_serialized_eq") {
        auto id = op.attributes.find("probe_id");
        if (id == op.attributes.end()) return absl::InvalidArgumentError(name + " needs probe_id");
        const auto& recorded = state_.probes[std::get<std::string>(id->second)];
        int64_t iteration = static_cast<int64_t>(NumberAttribute(op, "iter", 0));
        if (iteration < 0 || iteration >= static_cast<int64_t>(recorded.size())) {
          return absl::InvalidArgumentError(name + ": no probe '" +
                                            std::get<std::string>(id->second) + "' iteration " +
                                            std::to_string(iteration));
        }
        Check(state_, check, operands[0], recorded[iteration]);
        return true;
      }
      if (name.size() > 6 && name.substr(name.size() - 6) == "_const") {
        auto value = op.attributes.find("value");
        if (value == op.attributes.end() || !std::holds_alternative<Tensor>(value->second)) {
          return absl::InvalidArgumentError(name + " needs a dense value");
        }
        Check(state_, check, operands[0], std::get<Tensor>(value->second));
        return true;
      }
      if (operands.size() != 2 || !operands[1].type.is_tensor()) {
        return absl::InvalidArgumentError(name + " needs two tensors");
      }
      Check(state_, check, operands[0], operands[1].tensor);
      return true;
    }
    if (name == "interpreter.probe") {
      auto id = op.attributes.find("probe_id");
      if (id == op.attributes.end() || operands.size() != 1) {
        return absl::InvalidArgumentError("interpreter.probe needs one value and a probe_id");
      }
      state_.probes[std::get<std::string>(id->second)].push_back(operands[0].tensor);
      *results = operands;
      return true;
    }
    if (name == "interpreter.print") {
      if (options_.print) {
        for (const RuntimeValue& v : operands) {
          if (v.type.is_tensor()) std::cout << PrintDenseAttribute(v.tensor) << "\n";
        }
      }
      return true;
    }
    if (name == "interpreter.run_parallel") return RunParallel(op, operands, results);
    return false;
  }

  // programs[i][j] runs on process (i, j) with its share of the inputs, in
  // order; their results are concatenated. Programs run one after another:
  // ops that talk between processes (collectives, send/recv) are not in the
  // oracle yet and stop the run as unsupported.
  absl::StatusOr<bool> RunParallel(const Operation& op, const std::vector<RuntimeValue>& operands,
                                   std::vector<RuntimeValue>* results) {
    auto programs = op.raw_attributes.find("programs");
    if (programs == op.raw_attributes.end()) {
      return absl::InvalidArgumentError("interpreter.run_parallel needs programs");
    }
    std::vector<std::string> names;
    try {
      mlir::Cursor cursor(programs->second, "programs");
      mlir::AttrSyntax grid = mlir::ParseAttribute(cursor);
      for (const mlir::AttrSyntax& row : grid.items) {
        for (const mlir::AttrSyntax& program : row.items) names.push_back(program.string);
      }
    } catch (const mlir::SyntaxError& e) {
      return absl::InvalidArgumentError(std::string("run_parallel programs: ") + e.what());
    }
    size_t next = 0;
    for (const std::string& name : names) {
      const Function* f = module_.Find(name);
      if (f == nullptr) return absl::InvalidArgumentError("run_parallel: no function @" + name);
      size_t count = f->type.inputs.size();
      if (next + count > operands.size()) {
        return absl::InvalidArgumentError("run_parallel: too few inputs for @" + name);
      }
      std::vector<RuntimeValue> arguments(operands.begin() + next, operands.begin() + next + count);
      next += count;
      auto outputs = interpreter_.Call(name, std::move(arguments));
      if (!outputs.ok()) return outputs.status();
      results->insert(results->end(), outputs->begin(), outputs->end());
    }
    return true;
  }

  Oracle oracle_;
  Interpreter interpreter_;
  const Module& module_;
  const InterpretOptions& options_;
  CheckState state_;
};

// The functions a split runs: `main` when there is one, else every function
// no other function calls.
std::vector<const Function*> EntryFunctions(const Module& module) {
  if (const Function* main = module.Find("main")) return {main};
  std::set<std::string> called;
  std::function<void(const Region&)> scan = [&](const Region& region) {
    for (const Block& block : region.blocks) {
      for (const Operation& op : block.operations) {
        auto callee = op.attributes.find("callee");
        if (callee != op.attributes.end() && std::holds_alternative<std::string>(callee->second)) {
          called.insert(std::get<std::string>(callee->second));
        }
        for (const Region& inner : op.regions) scan(inner);
      }
    }
  };
  for (const Function& f : module.functions) scan(f.body);
  std::vector<const Function*> entries;
  for (const Function& f : module.functions) {
    if (!called.count(f.name) && !f.body.blocks.empty()) entries.push_back(&f);
  }
  return entries;
}

}  // namespace

std::string KindName(FunctionOutcome::Kind kind) {
  switch (kind) {
    case Kind::kPassed:
      return "pass";
    case Kind::kFailed:
      return "FAIL";
    case Kind::kFree:
      return "implementation-defined";
    case Kind::kUnsupported:
      return "unsupported";
    case Kind::kInvalid:
      return "invalid";
    case Kind::kError:
      return "error";
    case Kind::kSkipped:
      return "skipped";
  }
  return "?";
}

int FileOutcome::Count(FunctionOutcome::Kind kind) const {
  int n = 0;
  for (const FunctionOutcome& f : functions) n += f.kind == kind ? 1 : 0;
  return n;
}

absl::StatusOr<FileOutcome> InterpretText(const std::string& text, const std::string& file,
                                          const spec::SpecRegistry& registry,
                                          const InterpretOptions& options) {
  auto splits = mlir::ReadSplits(text, file, registry);
  if (!splits.ok()) return splits.status();
  FileOutcome outcome;
  outcome.file = file;
  outcome.splits = static_cast<int>(splits->size());
  for (const mlir::Split& split : *splits) {
    Runner runner(registry, split.module, options);
    for (const Function* f : EntryFunctions(split.module)) {
      std::vector<RuntimeValue> arguments;
      if (!f->type.inputs.empty()) {
        if (f->name != "main" || options.main_arguments.size() != f->type.inputs.size()) {
          FunctionOutcome skipped;
          skipped.kind = Kind::kSkipped;
          skipped.function = f->name;
          skipped.line = f->location.line;
          skipped.message = "takes " + std::to_string(f->type.inputs.size()) +
                            " arguments (give them with --args)";
          outcome.functions.push_back(skipped);
          continue;
        }
        for (const Tensor& t : options.main_arguments) arguments.push_back(RuntimeValue::Of(t));
      }
      outcome.functions.push_back(runner.Run(*f, std::move(arguments)));
    }
  }
  return outcome;
}

absl::StatusOr<FileOutcome> InterpretFile(const std::string& path,
                                          const spec::SpecRegistry& registry,
                                          const InterpretOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(path + ": cannot open");
  std::stringstream text;
  text << in.rdbuf();
  return InterpretText(text.str(), path, registry, options);
}

}  // namespace hlocheck
