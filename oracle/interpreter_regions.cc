// The oracle's functions that run a region (oracle.h: CallRegion,
// PreparedRegion: reduce's body, sort's comparator, ...) through the
// interpreter, which evaluates the region's ops one by one.
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "oracle/interpreter.h"
#include "oracle/interpreter_internal.h"
#include "oracle/oracle.h"

namespace hlocheck {
namespace oracle {
namespace {

struct DefaultOracle {
  const spec::SpecRegistry* registry = nullptr;
  const Oracle* oracle = nullptr;
};

const DefaultOracle& TheOracle() {
  static const DefaultOracle* instance = [] {
    auto* d = new DefaultOracle;
    auto r = spec::DefaultRegistry();
    if (r.ok() && *r != nullptr) {
      d->registry = *r;
      d->oracle = new Oracle(d->registry);
    }
    return d;
  }();
  return *instance;
}

// The interpreter's own ops: the fast path leaves bodies that use them to it.
bool InterpreterOp(const std::string& name) {
  static const std::set<std::string>* names =
      new std::set<std::string>{"stablehlo.tuple",
                                "stablehlo.get_tuple_element",
                                "stablehlo.optimization_barrier",
                                "stablehlo.after_all",
                                "stablehlo.create_token",
                                "stablehlo.while",
                                "stablehlo.if",
                                "stablehlo.case",
                                "stablehlo.custom_call"};
  return names->count(name) > 0;
}

// Runs `region` through an interpreter of its own; `interpreter` is left for
// the caller to prepare the fast path with.
absl::Status RunInterpreted(Interpreter& interpreter, const Region& region,
                            std::span<const Tensor> arguments, std::vector<Tensor>& tensors) {
  std::vector<RuntimeValue> values;
  for (const Tensor& t : arguments) values.push_back(RuntimeValue::Of(t));
  auto results = interpreter.RunRegion(region, std::move(values));
  HLOCHECK_RETURN_IF_ERROR(results.status());
  tensors.clear();
  for (RuntimeValue& v : *results) {
    if (!v.type.is_tensor()) return absl::UnimplementedError("a region returned a non-tensor");
    tensors.push_back(std::move(v.tensor));
  }
  return absl::OkStatus();
}

// Whether an op's expectation allows more than its reference somewhere: a
// free element, a quantized element whose storage range holds more than one
// integer, or another reading that differs (a compare of quantized values,
// exact against rounded to the expressed type). A body carries only the
// reference from op to op.
bool LeavesOpen(const ResultExpectation& e) {
  if (e.FreeCount() > 0) return true;
  if (e.check == Check::kStorageRange) {
    for (size_t i = 0; i < e.storage_low.size(); ++i) {
      if (e.storage_low[i] != e.storage_high[i]) return true;
    }
  }
  return std::any_of(e.reading_differs.begin(), e.reading_differs.end(),
                     [](uint8_t differs) { return differs != 0; });
}

}  // namespace

std::unique_ptr<Interpreter> NewDefaultInterpreter() {
  const DefaultOracle& d = TheOracle();
  if (d.oracle == nullptr) return nullptr;
  return std::make_unique<Interpreter>(d.oracle, d.registry, nullptr);
}

absl::StatusOr<std::vector<Tensor>> CallRegion(const Region& region,
                                               const std::vector<Tensor>& arguments) {
  const DefaultOracle& d = TheOracle();
  if (d.oracle == nullptr) return absl::FailedPreconditionError("the spec could not be loaded");
  Interpreter interpreter(d.oracle, d.registry, nullptr);
  std::vector<Tensor> tensors;
  if (absl::Status s = RunInterpreted(interpreter, region, arguments, tensors); !s.ok()) return s;
  return tensors;
}

// One block of oracle ops on tensors: every value in a slot, each op a case
// whose operands are refreshed from the slots before its function runs.
struct PreparedRegion::Body {
  struct Step {
    const Operation* op = nullptr;
    OpFunction function = nullptr;
    // Set for an op on quantized tensors: its spec's quantized semantics
    // (ComputeQuantized) wrap the function, as Oracle::Compute does.
    const spec::OpSpec* quantized_spec = nullptr;
    Case c;
    std::vector<size_t> operand_slots;
    std::vector<size_t> result_slots;
  };

  // Null when the body uses something the fast path leaves to the
  // interpreter. `interpreter` has just run the body on `arguments`.
  static std::unique_ptr<Body> Prepare(Interpreter& interpreter, const Region& region,
                                       std::span<const Tensor> arguments);

  bool Accepts(std::span<const Tensor> arguments) const {
    if (arguments.size() != argument_count) return false;
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (arguments[i].type() != slots[i].type()) return false;
    }
    return true;
  }

  // Runs the body; `open` tells whether some op in it gave an element the
  // spec leaves to the implementation (then the results may depend on it).
  absl::Status Run(std::span<const Tensor> arguments, std::vector<Tensor>& results, bool& open);

  size_t argument_count = 0;
  std::vector<Tensor> slots;  // the arguments, then every value the body defines
  std::vector<Step> steps;
  std::vector<size_t> return_slots;
};

std::unique_ptr<PreparedRegion::Body> PreparedRegion::Body::Prepare(
    Interpreter& interpreter, const Region& region, std::span<const Tensor> arguments) {
  if (region.blocks.size() != 1) return nullptr;
  const Block& block = region.blocks[0];
  if (block.arguments.size() != arguments.size()) return nullptr;
  auto body = std::make_unique<Body>();
  std::map<ValueId, size_t> slot_of;
  // A later definition of the same value shadows the earlier one, as in
  // the interpreter's environment.
  auto define = [&](ValueId id, Tensor value) {
    slot_of[id] = body->slots.size();
    body->slots.push_back(std::move(value));
    return body->slots.size() - 1;
  };
  body->argument_count = arguments.size();
  for (size_t i = 0; i < arguments.size(); ++i) define(block.arguments[i], arguments[i]);
  const Interpreter::Environment nothing_captured;
  for (const Operation& op : block.operations) {
    std::vector<size_t> operand_slots;
    for (ValueId id : op.operands) {
      auto slot = slot_of.find(id);
      if (slot == slot_of.end()) return nullptr;
      operand_slots.push_back(slot->second);
    }
    if (IsReturn(op)) {
      body->return_slots = std::move(operand_slots);
      return body;
    }
    if (op.name == "stablehlo.constant") {
      auto value = op.attributes.find("value");
      if (value == op.attributes.end() || !std::holds_alternative<Tensor>(value->second) ||
          op.results.size() != 1 || op.result_types.size() != 1 ||
          !op.result_types[0].is_tensor()) {
        return nullptr;
      }
      // A quantized constant's value holds its storage integers.
      const Tensor& literal = std::get<Tensor>(value->second);
      const TensorType type = op.result_types[0].tensor();
      if (literal.element_type() != type.element_type || literal.shape() != type.shape) {
        return nullptr;
      }
      define(op.results[0], Tensor::Reusing(type, Tensor(literal)));
      continue;
    }
    if (!op.name.starts_with("stablehlo.") || InterpreterOp(op.name) || !op.regions.empty() ||
        op.results.size() != op.result_types.size()) {
      return nullptr;
    }
    const bool quantized =
        std::any_of(op.result_types.begin(), op.result_types.end(),
                    [](const ValueType& t) { return t.is_quantized(); }) ||
        std::any_of(operand_slots.begin(), operand_slots.end(),
                    [&](size_t slot) { return body->slots[slot].type().quantization.has_value(); });
    std::vector<RuntimeValue> operands;
    for (size_t slot : operand_slots) operands.push_back(RuntimeValue::Of(body->slots[slot]));
    auto c = interpreter.OracleCase(op, operands, nothing_captured);
    if (!c.ok()) return nullptr;
    Step step;
    step.op = &op;
    step.function = FindOpFunction(c->op);
    if (step.function == nullptr || c->result_types.size() != op.results.size()) return nullptr;
    if (quantized) {
      step.quantized_spec = interpreter.registry()->Find(c->op);
      if (step.quantized_spec == nullptr) return nullptr;
    }
    step.c = *std::move(c);
    step.operand_slots = std::move(operand_slots);
    for (size_t j = 0; j < op.results.size(); ++j) {
      step.result_slots.push_back(define(op.results[j], Tensor(step.c.result_types[j])));
    }
    body->steps.push_back(std::move(step));
  }
  return nullptr;  // no return: the interpreter reports it
}

absl::Status PreparedRegion::Body::Run(std::span<const Tensor> arguments,
                                       std::vector<Tensor>& results, bool& open) {
  open = false;
  // Once per call rather than per op as Oracle::Compute does: nothing in
  // between changes the environment.
  if (absl::Status environment = CheckFloatingPointEnvironment(); !environment.ok()) {
    return environment;
  }
  // Copy-assigning tensors of the same size reuses their storage.
  for (size_t i = 0; i < arguments.size(); ++i) slots[i] = arguments[i];
  for (Step& step : steps) {
    for (size_t k = 0; k < step.operand_slots.size(); ++k) {
      step.c.operands[k] = slots[step.operand_slots[k]];
    }
    auto values = step.quantized_spec != nullptr
                      ? ComputeQuantized(step.c, *step.quantized_spec, step.function)
                      : step.function(step.c);
    if (!values.ok()) {
      // The messages the interpreter gives (RunOracleOp, then RunRegion).
      absl::Status status = values.status();
      if (absl::IsUnimplemented(status)) {
        status = UnsupportedError(step.op->name, std::string(status.message()));
      }
      return AtOperation(*step.op, status);
    }
    if (values->size() != step.result_slots.size()) {
      return absl::InternalError(step.op->name + " gave " + std::to_string(values->size()) +
                                 " results for " + std::to_string(step.result_slots.size()));
    }
    for (size_t j = 0; j < values->size(); ++j) {
      if (LeavesOpen((*values)[j])) open = true;
      slots[step.result_slots[j]] = std::move((*values)[j].reference);
    }
  }
  results.resize(return_slots.size());
  for (size_t j = 0; j < return_slots.size(); ++j) results[j] = slots[return_slots[j]];
  return absl::OkStatus();
}

PreparedRegion::PreparedRegion(const Region& region) : region_(region) {}
PreparedRegion::~PreparedRegion() = default;

absl::StatusOr<std::span<const Tensor>> PreparedRegion::Call(std::span<const Tensor> arguments) {
  if (body_ != nullptr && body_->Accepts(arguments)) {
    if (absl::Status s = body_->Run(arguments, results_, open_); !s.ok()) return s;
    return std::span<const Tensor>(results_);
  }
  const DefaultOracle& d = TheOracle();
  if (d.oracle == nullptr) return absl::FailedPreconditionError("the spec could not be loaded");
  Interpreter interpreter(d.oracle, d.registry, nullptr);
  body_ = nullptr;
  if (absl::Status s = RunInterpreted(interpreter, region_, arguments, results_); !s.ok()) {
    return s;
  }
  open_ = false;
  body_ = Body::Prepare(interpreter, region_, arguments);
  // The interpreter keeps no record of free elements: the prepared body
  // runs the first call again to say whether its results are open.
  if (body_ != nullptr) {
    if (absl::Status s = body_->Run(arguments, results_, open_); !s.ok()) return s;
  }
  return std::span<const Tensor>(results_);
}

}  // namespace oracle
}  // namespace hlocheck
