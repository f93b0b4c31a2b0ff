#include "adapters/program/program_adapter.h"

#include <charconv>
#include <map>
#include <optional>
#include <regex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/quantized_case.h"
#include "core/status_macros.h"
#include "mlir/writer.h"

namespace hlocheck {

ProgramAdapter::ProgramAdapter(std::string name, const spec::SpecRegistry& registry,
                               std::unique_ptr<ProgramBackend> backend, bool inputs_as_constants,
                               std::function<bool(ElementType)> transferable, int batch_size)
    : name_(std::move(name)),
      registry_(registry),
      backend_(std::move(backend)),
      inputs_as_constants_(inputs_as_constants),
      transferable_(std::move(transferable)),
      batch_size_(batch_size) {}

std::vector<std::string> ProgramAdapter::ImplementedOps() const {
  // A compiler is asked about every op of the spec: what it cannot compile
  // it says so, and the gate reports that as its error, not as a skip.
  std::vector<std::string> ops;
  for (const spec::OpSpec& op : registry_.ops()) ops.push_back(op.name);
  return ops;
}

AdapterSupport ProgramAdapter::Supports(const Case& c) const {
  if (registry_.Find(c.op) == nullptr) return AdapterSupport::No("no spec for " + c.op);
  if (c.op == "custom_call") {
    // hlocheck's targets are its own (docs/custom-call-targets.md): a
    // compiler has no implementation to link them to.
    const hlocheck::Attribute* target = c.FindAttribute("call_target_name");
    return AdapterSupport::No(
        absl::StrCat("custom_call @",
                     target != nullptr && std::holds_alternative<std::string>(*target)
                         ? std::get<std::string>(*target)
                         : std::string("?"),
                     ": hlocheck's custom_call targets have no implementation in a compiler"));
  }
  if (TransferOf(c.op) != Transfer::kNone) {
    return AdapterSupport::No(absl::StrCat(
        c.op,
        ": feeding the host's side of a transfer (infeed and outfeed queues, host channels) "
        "through a compiler's runtime is not written yet"));
  }
  if (c.ProcessCount() > 1) {
    return AdapterSupport::No(absl::StrCat(
        "a grid of ", c.num_replicas, " x ", c.num_partitions,
        " processes: running one program per device through a compiler is not written yet"));
  }
  if (c.op == "composite" && c.regions.size() > 1) {
    return AdapterSupport::No(
        "composite with regions besides its decomposition: StableHLO's composite (v1.13) takes "
        "no regions, so a program cannot give the spec's `regions` (I6)");
  }
  // `at_boundary`: the tensor is an argument or a result of @main (inputs
  // folded in as constants are not).
  auto check = [&](const TensorType& type, bool at_boundary) -> std::string {
    if (!transferable_(type.element_type)) {
      return absl::StrCat("the backend cannot take or return ",
                          std::string(Name(type.element_type)), " tensors");
    }
    const int64_t bits = NumElements(type.shape) * BitWidth(type.element_type);
    if (at_boundary && !sub_byte_whole_bytes_reason_.empty() && IsInteger(type.element_type) &&
        BitWidth(type.element_type) < 8 && bits % 8 != 0) {
      return absl::StrCat(NumElements(type.shape), " ", std::string(Name(type.element_type)),
                          " elements are ", bits,
                          " bits, not whole bytes: ", sub_byte_whole_bytes_reason_);
    }
    return "";
  };
  for (const Tensor& operand : c.operands) {
    if (std::string why = check(operand.type(), !inputs_as_constants_); !why.empty()) {
      return AdapterSupport::No(why);
    }
  }
  for (const TensorType& result : c.result_types) {
    if (std::string why = check(result, true); !why.empty()) return AdapterSupport::No(why);
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<std::string> ProgramAdapter::ModuleText(const Case& c) const {
  const spec::OpSpec* op = registry_.Find(c.op);
  if (op == nullptr) return absl::NotFoundError("no spec for " + c.op);
  return mlir::PrintCaseProgram(
      registry_, *op, c,
      inputs_as_constants_ ? mlir::ProgramInputs::kConstants : mlir::ProgramInputs::kArguments);
}

absl::StatusOr<std::vector<Tensor>> ProgramAdapter::Run(const Case& c) {
  auto module = ModuleText(c);
  HLOCHECK_RETURN_IF_ERROR(module.status());
  return RunModule(c, *module);
}

namespace {

// The case's inputs as they cross @main's boundary (mlir/writer.h): a
// quantized tensor as its storage integers (`inputs` itself when none is
// quantized, else copies in `storage`).
std::span<const Tensor> InputsStorageType(std::span<const Tensor> inputs,
                                          std::vector<Tensor>& storage) {
  bool quantized = false;
  for (const Tensor& t : inputs) quantized |= t.type().quantization.has_value();
  if (!quantized) return inputs;
  for (const Tensor& t : inputs)
    storage.push_back(Tensor::Reusing(StorageType(t.type()), Tensor(t)));
  return storage;
}

// The backend's results given the types the case asks for.
absl::StatusOr<std::vector<Tensor>> ResultsOfTypes(absl::StatusOr<std::vector<Tensor>> results,
                                                   std::span<const TensorType> types) {
  if (!results.ok() || results->size() != types.size()) return results;
  for (size_t r = 0; r < types.size(); ++r) {
    if (types[r].quantization && (*results)[r].type() == StorageType(types[r])) {
      (*results)[r] = Tensor::Reusing(types[r], std::move((*results)[r]));
    }
  }
  return results;
}

}  // namespace

absl::StatusOr<std::vector<Tensor>> ProgramAdapter::RunModule(const Case& c,
                                                              const std::string& module) {
  std::vector<Tensor> storage;
  std::span<const Tensor> inputs;
  if (!inputs_as_constants_) inputs = InputsStorageType(c.operands, storage);
  std::vector<TensorType> result_types;
  for (const TensorType& t : c.result_types) result_types.push_back(StorageType(t));
  return ResultsOfTypes(backend_->Run(module, inputs, result_types), c.result_types);
}

bool ProgramAdapter::SeenBefore(const std::string& module) {
  if (auto it = seen_.find(module); it != seen_.end()) {
    seen_order_.splice(seen_order_.begin(), seen_order_, it->second);
    return true;
  }
  seen_order_.push_front(module);
  seen_[module] = seen_order_.begin();
  if (seen_.size() > kSeenModules) {
    seen_.erase(seen_order_.back());
    seen_order_.pop_back();
  }
  return false;
}

std::vector<absl::StatusOr<std::vector<Tensor>>> ProgramAdapter::RunBatch(
    std::span<const Case* const> cases) {
  std::vector<absl::StatusOr<std::vector<Tensor>>> answers(cases.size(),
                                                           absl::UnknownError("not run"));
  // A case whose own module came before runs alone: its executable is
  // likely in the backend's cache (the module holds shapes and attributes,
  // not values, when inputs are arguments), and a cached run beats any
  // compile. The others are compiled together; the next time one of their
  // modules comes, it runs alone and is cached.
  std::vector<size_t> batched;
  std::vector<std::string> modules(cases.size());
  for (size_t k = 0; k < cases.size(); ++k) {
    auto module = ModuleText(*cases[k]);
    if (!module.ok()) {
      answers[k] = module.status();
      continue;
    }
    modules[k] = *std::move(module);
    if (inputs_as_constants_ || !SeenBefore(modules[k])) {
      batched.push_back(k);
    } else {
      answers[k] = RunModule(*cases[k], modules[k]);
    }
  }
  RunTogether(cases, modules, batched, answers);
  return answers;
}

absl::Status ProgramAdapter::TryTogether(std::span<const Case* const> cases,
                                         std::span<const size_t> which,
                                         std::vector<absl::StatusOr<std::vector<Tensor>>>& answers,
                                         std::string& module) {
  std::vector<mlir::BatchedCase> program;
  std::vector<Tensor> inputs;
  std::vector<TensorType> result_types;
  for (size_t k : which) {
    const Case* c = cases[k];
    program.push_back({registry_.Find(c->op), c});
    if (!inputs_as_constants_) {
      for (const Tensor& t : c->operands) {
        inputs.push_back(Tensor::Reusing(StorageType(t.type()), Tensor(t)));
      }
    }
    result_types.insert(result_types.end(), c->result_types.begin(), c->result_types.end());
  }
  module = mlir::PrintBatchProgram(
      registry_, program,
      inputs_as_constants_ ? mlir::ProgramInputs::kConstants : mlir::ProgramInputs::kArguments);
  std::vector<TensorType> boundary_types;
  for (const TensorType& t : result_types) boundary_types.push_back(StorageType(t));
  absl::StatusOr<std::vector<Tensor>> all =
      ResultsOfTypes(backend_->Run(module, inputs, boundary_types), result_types);
  if (!all.ok()) return all.status();
  if (all->size() != result_types.size()) {
    return absl::InternalError(
        absl::StrCat("the batch returned ", all->size(), " results for ", result_types.size()));
  }
  size_t next = 0;
  for (size_t k : which) {
    std::vector<Tensor> results;
    for (size_t r = 0; r < cases[k]->result_types.size(); ++r) {
      results.push_back(std::move((*all)[next++]));
    }
    answers[k] = std::move(results);
  }
  return absl::OkStatus();
}

void ProgramAdapter::RunTogether(std::span<const Case* const> cases,
                                 std::span<const std::string> modules,
                                 std::span<const size_t> which,
                                 std::vector<absl::StatusOr<std::vector<Tensor>>>& answers) {
  if (which.size() < 2) {
    for (size_t k : which) answers[k] = RunModule(*cases[k], modules[k]);
    return;
  }
  std::string module;
  absl::Status status = TryTogether(cases, which, answers, module);
  if (!status.ok()) Narrow(cases, modules, which, status, module, answers);
}

void ProgramAdapter::Narrow(std::span<const Case* const> cases,
                            std::span<const std::string> modules, std::span<const size_t> which,
                            const absl::Status& failure, const std::string& batch_module,
                            std::vector<absl::StatusOr<std::vector<Tensor>>>& answers) {
  // A batch that fails as a whole is narrowed down until each compile
  // error, crash or hang belongs to the case that causes it, and its
  // reproducer is that case's own module. One failing case in N costs
  // about 2 log2(N) batch compiles this way, against N case by case.
  // Where both halves fail too, failures are dense (an op or type the
  // backend rejects) and the cases run alone: halving further would cost
  // more than it saves. A hang runs its cases alone at once: every half
  // that holds the hanging case would wait out the timeout again.
  ++batches_narrowed_;
  auto one_by_one = [&](std::span<const size_t> part) {
    for (size_t k : part) answers[k] = RunModule(*cases[k], modules[k]);
  };
  if (IsWorkerHang(failure) || absl::IsDeadlineExceeded(failure)) return one_by_one(which);
  if (attribute_errors_ && !IsWorkerCrash(failure) &&
      Attribute(cases, modules, which, failure, batch_module, answers)) {
    return;
  }
  if (which.size() <= kSmallestSplitBatch) return one_by_one(which);
  const std::span<const size_t> halves[2] = {which.first(which.size() / 2),
                                             which.subspan(which.size() / 2)};
  std::string half_modules[2];
  const absl::Status first = TryTogether(cases, halves[0], answers, half_modules[0]);
  const absl::Status second = TryTogether(cases, halves[1], answers, half_modules[1]);
  if (!first.ok() && !second.ok()) {
    one_by_one(halves[0]);
    one_by_one(halves[1]);
    return;
  }
  if (!first.ok()) Narrow(cases, modules, halves[0], first, half_modules[0], answers);
  if (!second.ok()) Narrow(cases, modules, halves[1], second, half_modules[1], answers);
}

namespace {

// The lines of `text`, without their '\n'.
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// The number `digits` starts with, if it starts with one.
std::optional<int64_t> LeadingNumber(std::string_view digits) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end == digits.data()) return std::nullopt;
  return value;
}

}  // namespace

std::map<size_t, std::vector<std::string>> BatchErrorsByCase(std::string_view batch_module,
                                                             std::string_view message) {
  // Whose function each line of the module is in: @case_K's lines are case
  // K's; the module's own lines and @main's are nobody's.
  std::vector<int64_t> owner = {-1};  // 1-based lines: owner[0] is unused
  int64_t current = -1;
  for (std::string_view line : Lines(batch_module)) {
    const size_t function = line.find("func.func ");
    if (function != std::string_view::npos) {
      const size_t name = line.find("@case_", function);
      current =
          name == std::string_view::npos ? -1 : LeadingNumber(line.substr(name + 6)).value_or(-1);
    }
    owner.push_back(current);
  }
  // MLIR's diagnostics: "FILE:LINE:COL: error: ...", one a line.
  static const std::regex kError(R"(:(\d+):\d+: error: )");
  std::map<size_t, std::vector<std::string>> errors;
  for (std::string_view line : Lines(message)) {
    std::match_results<std::string_view::const_iterator> match;
    if (!std::regex_search(line.begin(), line.end(), match, kError)) continue;
    const int64_t number =
        LeadingNumber(line.substr(match.position(1), match.length(1))).value_or(0);
    if (number < 1 || number >= static_cast<int64_t>(owner.size()) || owner[number] < 0) {
      return {};  // an error outside every case's function: nobody's alone
    }
    errors[static_cast<size_t>(owner[number])].emplace_back(line);
  }
  return errors;
}

bool ProgramAdapter::Attribute(std::span<const Case* const> cases,
                               std::span<const std::string> modules, std::span<const size_t> which,
                               const absl::Status& failure, const std::string& batch_module,
                               std::vector<absl::StatusOr<std::vector<Tensor>>>& answers) {
  // A compiler that reports each error where it arises (MLIR's "FILE:LINE:
  // COL: error:") says which cases failed: one compile of the batch names
  // them all, where halving would pay about two compiles per failing case,
  // and case by case one per case. The first case named runs alone to
  // confirm that the errors are its own; the others take the batch's
  // errors in their functions, and the rest are compiled together again.
  const std::map<size_t, std::vector<std::string>> errors =
      BatchErrorsByCase(batch_module, std::string(failure.message()));
  if (errors.empty() || errors.rbegin()->first >= which.size()) return false;
  const size_t confirmed = which[errors.begin()->first];
  answers[confirmed] = RunModule(*cases[confirmed], modules[confirmed]);
  if (answers[confirmed].ok()) return false;  // alone it compiles: the lines did not tell
  ++batches_attributed_;
  std::vector<size_t> rest;
  for (size_t position = 0; position < which.size(); ++position) {
    auto named = errors.find(position);
    if (named == errors.end()) {
      rest.push_back(which[position]);
    } else if (which[position] != confirmed) {
      answers[which[position]] = absl::Status(
          failure.code(),
          absl::StrCat("compiled in one module with ", which.size() - 1,
                       " other cases, the compiler's errors in this case's function (lines of "
                       "that module):\n",
                       absl::StrJoin(named->second, "\n")));
    }
  }
  RunTogether(cases, modules, rest, answers);
  return true;
}

}  // namespace hlocheck
