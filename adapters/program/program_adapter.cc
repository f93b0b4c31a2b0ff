#include "adapters/program/program_adapter.h"

#include "absl/strings/str_cat.h"
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
  // `at_boundary`: the tensor is an argument or a result of @main (inputs
  // folded in as constants are not).
  auto check = [&](const TensorType& type, bool at_boundary) -> std::string {
    if (type.quantization) {
      return "quantized tensors are not passed to compilers yet (the quantization issue)";
    }
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

absl::StatusOr<std::vector<Tensor>> ProgramAdapter::RunModule(const Case& c,
                                                              const std::string& module) {
  std::span<const Tensor> inputs;
  if (!inputs_as_constants_) inputs = c.operands;
  return backend_->Run(module, inputs, c.result_types);
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

absl::Status ProgramAdapter::TryTogether(
    std::span<const Case* const> cases, std::span<const size_t> which,
    std::vector<absl::StatusOr<std::vector<Tensor>>>& answers) {
  std::vector<mlir::BatchedCase> program;
  std::vector<Tensor> inputs;
  std::vector<TensorType> result_types;
  for (size_t k : which) {
    const Case* c = cases[k];
    program.push_back({registry_.Find(c->op), c});
    if (!inputs_as_constants_) inputs.insert(inputs.end(), c->operands.begin(), c->operands.end());
    result_types.insert(result_types.end(), c->result_types.begin(), c->result_types.end());
  }
  const std::string module = mlir::PrintBatchProgram(
      registry_, program,
      inputs_as_constants_ ? mlir::ProgramInputs::kConstants : mlir::ProgramInputs::kArguments);
  absl::StatusOr<std::vector<Tensor>> all = backend_->Run(module, inputs, result_types);
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
  absl::Status status = TryTogether(cases, which, answers);
  if (!status.ok()) Narrow(cases, modules, which, status, answers);
}

void ProgramAdapter::Narrow(std::span<const Case* const> cases,
                            std::span<const std::string> modules, std::span<const size_t> which,
                            const absl::Status& failure,
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
  if (which.size() <= kSmallestSplitBatch || IsWorkerHang(failure) ||
      absl::IsDeadlineExceeded(failure)) {
    return one_by_one(which);
  }
  const std::span<const size_t> halves[2] = {which.first(which.size() / 2),
                                             which.subspan(which.size() / 2)};
  const absl::Status first = TryTogether(cases, halves[0], answers);
  const absl::Status second = TryTogether(cases, halves[1], answers);
  if (!first.ok() && !second.ok()) {
    one_by_one(halves[0]);
    one_by_one(halves[1]);
    return;
  }
  if (!first.ok()) Narrow(cases, modules, halves[0], first, answers);
  if (!second.ok()) Narrow(cases, modules, halves[1], second, answers);
}

}  // namespace hlocheck
