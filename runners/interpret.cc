#include "runners/interpret.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/literal.h"
#include "core/status_macros.h"
#include "mlir/attribute_syntax.h"
#include "mlir/reader.h"
#include "oracle/compare.h"
#include "runners/check_rules.h"

namespace hlocheck {
namespace {

using Kind = FunctionOutcome::Kind;
using check_rules::CheckRule;
using check_rules::CompareLiterally;
using check_rules::DescribeFailure;
using check_rules::Judge;
using check_rules::Judgement;
using check_rules::NumberAttribute;
using check_rules::RuleOf;

struct CheckState {
  int checks = 0;
  int failed = 0;
  int judged = 0;
  int free_only = 0;
  // Of the free elements, those that carry a de facto convention
  // (kFreeWithConvention), and how many of them a check holds otherwise.
  int64_t convention_elements = 0;
  int64_t convention_differences = 0;
  std::string first_convention_difference;
  std::string first_failure;
  std::string first_judged;
  std::map<std::string, std::vector<Tensor>> probes;
};

// The check's name: its own, or a custom_call's target.
std::string CheckName(const Operation& op) {
  if (op.name != "stablehlo.custom_call") return op.name;
  auto target = op.attributes.find("call_target_name");
  if (target == op.attributes.end() || !std::holds_alternative<std::string>(target->second)) {
    return op.name;
  }
  return std::get<std::string>(target->second);
}

class Runner {
 public:
  Runner(const spec::SpecRegistry& registry, const Module& module, const InterpretOptions& options)
      : registry_(registry),
        oracle_(&registry),
        interpreter_(&oracle_, &registry, &module),
        module_(module),
        options_(options) {
    interpreter_.set_hook(
        [this](const Operation& op, const std::vector<RuntimeValue>& operands,
               std::vector<RuntimeValue>* results) { return Hook(op, operands, results); });
    if (options_.judge) {
      for (const Function& f : module.functions) FindJudgeSites(f.body);
      interpreter_.set_observer(
          [this](const Operation& op, const std::vector<ResultExpectation>& expectations) {
            Observe(op, expectations);
          });
    }
  }

  FunctionOutcome Run(const Function& f, std::vector<RuntimeValue> arguments) {
    FunctionOutcome outcome;
    outcome.function = f.name;
    outcome.line = f.location.line;
    state_ = CheckState{};
    process_unsupported_.clear();
    auto results = interpreter_.Call(f.name, std::move(arguments));
    outcome.checks = state_.checks;
    outcome.judged = state_.judged;
    if (!results.ok()) {
      const absl::Status& status = results.status();
      outcome.message = std::string(status.message());
      if (absl::IsUnimplemented(status)) {
        outcome.kind = Kind::kUnsupported;
        outcome.unsupported = interpreter_.unsupported_ops();
        // And those that stopped a run_parallel process.
        outcome.unsupported.insert(process_unsupported_.begin(), process_unsupported_.end());
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
    } else if (state_.judged > 0) {
      outcome.kind = Kind::kJudged;
      outcome.message = std::to_string(state_.judged) + " of " + std::to_string(state_.checks) +
                        " check(s) judged; first: " + state_.first_judged;
    } else if (state_.free_only > 0) {
      // The checks held where they apply, but some of their elements are
      // left open by the spec and were not compared.
      outcome.kind = Kind::kFree;
      outcome.message = std::to_string(state_.free_only) +
                        " check(s) include elements the spec leaves to the implementation" +
                        ConventionNote();
    }
    return outcome;
  }

 private:
  // A check the judge may rule on: its expected value is a constant and its
  // checked value is result `result` of `producer`, an op of the same block.
  struct JudgeSite {
    const Operation* producer = nullptr;
    size_t result = 0;
  };
  // The last run of a judge site's producer.
  struct Produced {
    std::vector<ResultExpectation> expectations;
    bool fixed_inputs = false;  // its operands were fixed by the spec
  };

  // Records, for every op of `region` (nested regions included), the ops of
  // its block that define its operands, and the checks the judge may rule on.
  void FindJudgeSites(const Region& region) {
    for (const Block& block : region.blocks) {
      std::map<ValueId, std::pair<const Operation*, size_t>> defined;
      for (const Operation& op : block.operations) {
        std::vector<const Operation*>& definers = definers_[&op];
        for (ValueId id : op.operands) {
          auto it = defined.find(id);
          definers.push_back(it == defined.end() ? nullptr : it->second.first);
        }
        for (size_t i = 0; i < op.results.size(); ++i) defined[op.results[i]] = {&op, i};
        for (const Region& inner : op.regions) FindJudgeSites(inner);

        const std::string name = CheckName(op);
        if (name.rfind("check.", 0) != 0 || op.operands.empty()) continue;
        const bool constant_attribute = name.size() > 6 && name.substr(name.size() - 6) == "_const";
        const bool constant_operand = op.operands.size() == 2 && definers[1] != nullptr &&
                                      definers[1]->name == "stablehlo.constant";
        if (!constant_attribute && !constant_operand) continue;
        auto actual = defined.find(op.operands[0]);
        if (actual == defined.end()) continue;
        const Operation* producer = actual->second.first;
        if (producer->name.rfind("stablehlo.", 0) != 0 || producer->name == "stablehlo.constant") {
          continue;
        }
        judge_sites_[&op] = {producer, actual->second.second};
        produced_[producer];
      }
    }
  }

  // After each op the oracle ran: whether its results are fixed by the spec
  // (exact or correctly rounded, bit for bit, from fixed inputs: a chain of
  // such ops gives every conforming backend the same values), and, for the
  // producers of judge sites, the oracle's expectations.
  void Observe(const Operation& op, const std::vector<ResultExpectation>& expectations) {
    auto definers = definers_.find(&op);
    if (definers == definers_.end()) return;  // a region body run by an op
    bool fixed_inputs = true;
    for (const Operation* d : definers->second) {
      fixed_inputs =
          fixed_inputs && d != nullptr && (d->name == "stablehlo.constant" || fixed_.count(d) > 0);
    }
    bool fixed_results = fixed_inputs;
    const spec::OpSpec* spec = registry_.Find(op.name.substr(op.name.find('.') + 1));
    for (const ResultExpectation& e : expectations) {
      const bool bit_exact =
          e.check == Check::kExact || (e.check == Check::kUlp && spec != nullptr &&
                                       spec->numerics.AllowedUlp(e.reference.element_type()) == 0);
      fixed_results = fixed_results && bit_exact && e.FreeCount() == 0 && e.permutable == nullptr;
    }
    if (fixed_results) {
      fixed_.insert(&op);
    } else {
      fixed_.erase(&op);
    }
    auto produced = produced_.find(&op);
    if (produced != produced_.end()) produced->second = {expectations, fixed_inputs};
  }

  // Free elements with a de facto convention: the oracle's value there is
  // the convention's, so a check that holds another value (a backend's
  // answer written into a reproducer) is told apart from one that holds the
  // convention's: both are implementation-defined by the spec.
  void CountConvention(const Operation& op, const CheckRule& rule, const RuntimeValue& actual,
                       const ResultComparison& comparison) {
    // A ULP-range check compares its own way, without the convention.
    if (rule.how == CheckRule::How::kUlpRange) return;
    for (uint8_t marker : actual.free) {
      if (marker == kFreeWithConvention) ++state_.convention_elements;
    }
    state_.convention_differences += comparison.convention_differences;
    if (state_.first_convention_difference.empty() &&
        !comparison.first_convention_differences.empty()) {
      const ElementMismatch& m = comparison.first_convention_differences.front();
      state_.first_convention_difference = rule.name + " at line " +
                                           std::to_string(op.location.line) + ", element " +
                                           std::to_string(m.index) + ": the check holds " +
                                           m.expected + ", the convention " + m.actual;
    }
  }

  std::string ConventionNote() const {
    if (state_.convention_elements == 0) return "";
    if (state_.convention_differences == 0) {
      return "; on the " + std::to_string(state_.convention_elements) +
             " of them with a de facto convention the checks hold the convention's value";
    }
    return "; " + std::to_string(state_.convention_differences) + " of the " +
           std::to_string(state_.convention_elements) +
           " with a de facto convention differ from it (first: " +
           state_.first_convention_difference + ")";
  }

  // One check: the literal verdict, and when that fails, the judge's.
  void RunCheck(const Operation& op, const std::string& name, const RuntimeValue& actual,
                const Tensor& expected) {
    ++state_.checks;
    const bool floats = IsFloat(expected.element_type()) || IsComplex(expected.element_type());
    const CheckRule rule = RuleOf(op, name, floats);
    ResultComparison comparison = CompareLiterally(rule, actual, expected);
    if (comparison.free > 0) ++state_.free_only;
    CountConvention(op, rule, actual, comparison);
    // Differences only where the spec leaves the value open are not failures.
    if (comparison.ok()) return;
    std::string failure = DescribeFailure(rule, op, comparison);
    // A check that asks for a difference (min_ulp_difference > 0) is not
    // one a constant within the spec's bound can satisfy.
    auto site = judge_sites_.find(&op);
    if (site != judge_sites_.end() && rule.min_ulp == 0 && !comparison.type_mismatch) {
      const Produced& produced = produced_[site->second.producer];
      if (produced.fixed_inputs && site->second.result < produced.expectations.size()) {
        const ResultExpectation& e = produced.expectations[site->second.result];
        const spec::OpSpec* spec =
            registry_.Find(site->second.producer->name.substr(std::string("stablehlo.").size()));
        const int allowed_ulp =
            spec == nullptr ? 0 : spec->numerics.AllowedUlp(e.reference.element_type());
        Judgement judgement = Judge(*site->second.producer, e, expected, allowed_ulp);
        if (judgement.accepted) {
          ++state_.judged;
          if (state_.first_judged.empty()) {
            state_.first_judged = rule.name + " at line " + std::to_string(op.location.line) +
                                  ": expected value " + judgement.what;
          }
          return;
        }
        failure += " (judge: expected value " + judgement.what + ")";
      }
    }
    ++state_.failed;
    if (state_.first_failure.empty()) state_.first_failure = failure;
  }

  absl::StatusOr<bool> Hook(const Operation& op, const std::vector<RuntimeValue>& operands,
                            std::vector<RuntimeValue>* results) {
    const std::string name = CheckName(op);
    const bool custom_call = op.name == "stablehlo.custom_call";
    if (custom_call) {
      // The public tool knows these targets only, with two operands.
      static const std::set<std::string> kTargets = {"check.expect_eq", "check.expect_almost_eq",
                                                     "check.expect_close", "check.eq"};
      if (!kTargets.count(name)) return false;
      if (operands.size() != 2 || !operands[0].type.is_tensor() || !operands[1].type.is_tensor()) {
        return absl::InvalidArgumentError("custom_call @" + name + " needs two tensors");
      }
      const int failed = state_.failed;
      RunCheck(op, name, operands[0], operands[1].tensor);
      if (name == "check.eq" && op.results.size() == 1) {
        // check.eq also returns whether the check held.
        Tensor held(Shape{}, ElementType::kI1);
        held.values<ElementType::kI1>()[0] = state_.failed == failed ? 1 : 0;
        results->push_back(RuntimeValue::Of(held));
      }
      return true;
    }
    if (name.rfind("check.expect_", 0) == 0) {
      if (operands.empty() || !operands[0].type.is_tensor()) {
        return absl::InvalidArgumentError(name + " needs a tensor operand");
      }
      if (name == "check.expect_serialized_eq") {
        auto id = op.attributes.find("probe_id");
        if (id == op.attributes.end()) return absl::InvalidArgumentError(name + " needs probe_id");
        const auto& recorded = state_.probes[std::get<std::string>(id->second)];
        // `iter` in the pretty form, `iteration` in the generic one.
        int64_t iteration =
            static_cast<int64_t>(NumberAttribute(op, "iteration", NumberAttribute(op, "iter", 0)));
        if (iteration < 0 || iteration >= static_cast<int64_t>(recorded.size())) {
          return absl::InvalidArgumentError(name + ": no probe '" +
                                            std::get<std::string>(id->second) + "' iteration " +
                                            std::to_string(iteration));
        }
        RunCheck(op, name, operands[0], recorded[iteration]);
        return true;
      }
      if (name.size() > 6 && name.substr(name.size() - 6) == "_const") {
        auto value = op.attributes.find("value");
        if (value == op.attributes.end() || !std::holds_alternative<Tensor>(value->second)) {
          return absl::InvalidArgumentError(name + " needs a dense value");
        }
        RunCheck(op, name, operands[0], std::get<Tensor>(value->second));
        return true;
      }
      if (operands.size() != 2 || !operands[1].type.is_tensor()) {
        return absl::InvalidArgumentError(name + " needs two tensors");
      }
      RunCheck(op, name, operands[0], operands[1].tensor);
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
    if (name == "interpreter.incoming" || name == "interpreter.outgoing") {
      return HostTransfer(op, operands, results);
    }
    return false;
  }

  // The case's environment at the other end of a transfer (hlocheck's
  // own ops; docs/case-format.md): interpreter.incoming queues its
  // operands as one message for the program's next infeed (or, with a
  // channel_id, its next recv on that channel); interpreter.outgoing takes
  // the oldest message the program's outfeeds (or sends on channel_id)
  // gave away, as its results.
  absl::StatusOr<bool> HostTransfer(const Operation& op, const std::vector<RuntimeValue>& operands,
                                    std::vector<RuntimeValue>* results) {
    const bool incoming = op.name == "interpreter.incoming";
    int64_t channel =
        incoming ? oracle::ProcessRendezvous::kInfeed : oracle::ProcessRendezvous::kOutfeed;
    auto id = op.attributes.find("channel_id");
    if (id != op.attributes.end()) {
      if (!std::holds_alternative<int64_t>(id->second)) {
        return absl::InvalidArgumentError(op.name + ": channel_id must be an integer");
      }
      channel = std::get<int64_t>(id->second);
    }
    oracle::ProcessRendezvous& grid = interpreter_.rendezvous();
    if (incoming) {
      oracle::Message message;
      for (const RuntimeValue& v : operands) {
        if (!v.type.is_tensor()) return absl::InvalidArgumentError(op.name + " takes tensors");
        message.push_back(v.tensor);
      }
      grid.Queue(channel, std::move(message));
      return true;
    }
    HLOCHECK_ASSIGN_OR_RETURN(oracle::Message message, grid.Take(channel));
    if (message.size() != op.result_types.size()) {
      return absl::InvalidArgumentError(absl::StrCat(op.name, ": the message holds ",
                                                     message.size(), " tensors, not ",
                                                     op.result_types.size()));
    }
    for (size_t i = 0; i < message.size(); ++i) {
      if (!op.result_types[i].is_tensor() || message[i].type() != op.result_types[i].tensor()) {
        return absl::InvalidArgumentError(
            absl::StrCat(op.name, ": tensor ", i, " of the message is ",
                         message[i].type().ToString(), ", not ", op.result_types[i].ToString()));
      }
      RuntimeValue value = RuntimeValue::Of(std::move(message[i]));
      value.type = op.result_types[i];
      results->push_back(std::move(value));
    }
    return true;
  }

  // programs[i][j] runs on process (replica i, partition j) with its share
  // of the inputs, in order; their results are concatenated. Each process
  // runs on a thread of its own with an interpreter of its own, and their
  // collectives meet at one rendezvous (oracle/process_rendezvous.h): processes
  // that never meet are a reported deadlock.
  absl::StatusOr<bool> RunParallel(const Operation& op, const std::vector<RuntimeValue>& operands,
                                   std::vector<RuntimeValue>* results) {
    auto programs = op.raw_attributes.find("programs");
    if (programs == op.raw_attributes.end()) {
      return absl::InvalidArgumentError("interpreter.run_parallel needs programs");
    }
    std::vector<std::string> names;
    int64_t replicas = 0;
    int64_t partitions = -1;
    try {
      mlir::Cursor cursor(programs->second, "programs");
      mlir::AttrSyntax grid = mlir::ParseAttribute(cursor);
      for (const mlir::AttrSyntax& row : grid.items) {
        ++replicas;
        if (partitions >= 0 && partitions != static_cast<int64_t>(row.items.size())) {
          return absl::InvalidArgumentError("run_parallel: programs rows of different lengths");
        }
        partitions = static_cast<int64_t>(row.items.size());
        for (const mlir::AttrSyntax& program : row.items) names.push_back(program.string);
      }
    } catch (const mlir::SyntaxError& e) {
      return absl::InvalidArgumentError(std::string("run_parallel programs: ") + e.what());
    }
    std::vector<std::vector<RuntimeValue>> arguments;
    size_t next = 0;
    for (const std::string& name : names) {
      const Function* f = module_.Find(name);
      if (f == nullptr) return absl::InvalidArgumentError("run_parallel: no function @" + name);
      size_t count = f->type.inputs.size();
      if (next + count > operands.size()) {
        return absl::InvalidArgumentError("run_parallel: too few inputs for @" + name);
      }
      arguments.emplace_back(operands.begin() + next, operands.begin() + next + count);
      next += count;
    }
    oracle::ProcessRendezvous rendezvous(
        oracle::ProcessGrid{replicas, std::max<int64_t>(partitions, 0)});
    // The host's infeed queue: each function's results are one message.
    if (auto infeed = op.raw_attributes.find("infeed"); infeed != op.raw_attributes.end()) {
      std::vector<std::string> queue;
      try {
        mlir::Cursor cursor(infeed->second, "infeed");
        for (const mlir::AttrSyntax& item : mlir::ParseAttribute(cursor).items) {
          queue.push_back(item.string);
        }
      } catch (const mlir::SyntaxError& e) {
        return absl::InvalidArgumentError(std::string("run_parallel infeed: ") + e.what());
      }
      for (const std::string& name : queue) {
        HLOCHECK_ASSIGN_OR_RETURN(std::vector<RuntimeValue> values, interpreter_.Call(name, {}));
        oracle::Message message;
        for (RuntimeValue& v : values) {
          if (!v.type.is_tensor()) {
            return absl::InvalidArgumentError("run_parallel infeed: @" + name +
                                              " returns other than tensors");
          }
          message.push_back(std::move(v.tensor));
        }
        rendezvous.Queue(oracle::ProcessRendezvous::kInfeed, std::move(message));
      }
    }
    std::vector<absl::StatusOr<std::vector<RuntimeValue>>> outputs(names.size(),
                                                                   absl::UnknownError("not run"));
    std::vector<std::thread> threads;
    // A process's own ops of the interpreter dialect: interpreter.print,
    // one process's lines at a time. The checks run in @main, after.
    std::mutex print_mutex;
    std::vector<std::set<std::string>> unsupported(names.size());
    for (size_t p = 0; p < names.size(); ++p) {
      threads.emplace_back([&, p] {
        Interpreter process(&oracle_, &registry_, &module_);
        process.set_process(&rendezvous, static_cast<int64_t>(p));
        process.set_hook([&](const Operation& inner, const std::vector<RuntimeValue>& values,
                             std::vector<RuntimeValue>*) -> absl::StatusOr<bool> {
          if (inner.name != "interpreter.print") return false;
          std::lock_guard lock(print_mutex);
          if (options_.print) {
            for (const RuntimeValue& v : values) {
              if (v.type.is_tensor()) std::cout << PrintDenseAttribute(v.tensor) << "\n";
            }
          }
          return true;
        });
        outputs[p] = process.Call(names[p], std::move(arguments[p]));
        unsupported[p] = process.unsupported_ops();
        rendezvous.Finish(static_cast<int64_t>(p));
      });
    }
    for (std::thread& t : threads) t.join();
    for (const std::set<std::string>& ops : unsupported) {
      process_unsupported_.insert(ops.begin(), ops.end());
    }
    // A process's own error before the deadlock it left the others in.
    for (bool deadlocks : {false, true}) {
      for (const auto& output : outputs) {
        if (!output.ok() &&
            (deadlocks || output.status().message().find("deadlock:") == std::string::npos)) {
          return output.status();
        }
      }
    }
    for (auto& output : outputs) results->insert(results->end(), output->begin(), output->end());
    return true;
  }

  const spec::SpecRegistry& registry_;
  Oracle oracle_;
  Interpreter interpreter_;
  const Module& module_;
  const InterpretOptions& options_;
  CheckState state_;
  std::set<std::string> process_unsupported_;  // ops that stopped run_parallel processes
  // Judge mode: the ops of the block that define each op's operands (null
  // for a value from elsewhere), the checks it may rule on, the last run of
  // their producers, and the ops whose last results the spec fixed.
  std::map<const Operation*, std::vector<const Operation*>> definers_;
  std::map<const Operation*, JudgeSite> judge_sites_;
  std::map<const Operation*, Produced> produced_;
  std::set<const Operation*> fixed_;
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
    case Kind::kJudged:
      return "pass (judged)";
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
  HLOCHECK_RETURN_IF_ERROR(splits.status());
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
