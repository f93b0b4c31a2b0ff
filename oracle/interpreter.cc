#include "oracle/interpreter.h"

#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "oracle/control_flow.h"
#include "oracle/interpreter_internal.h"
#include "spec/instance.h"

namespace hlocheck {

RuntimeValue RuntimeValue::Of(Tensor tensor) {
  RuntimeValue value;
  value.type = ValueType::Of(tensor.type());
  value.tensor = std::move(tensor);
  return value;
}

RuntimeValue RuntimeValue::Token() {
  RuntimeValue value;
  value.type = ValueType::Token();
  return value;
}

namespace {

constexpr int kMaxCallDepth = 256;

// Values a region uses but does not define (implicit captures).
void FreeValues(const Region& region, std::set<ValueId>& defined, std::vector<ValueId>& free) {
  for (const Block& block : region.blocks) {
    defined.insert(block.arguments.begin(), block.arguments.end());
    for (const Operation& op : block.operations) {
      for (ValueId id : op.operands) {
        if (!defined.count(id) && std::find(free.begin(), free.end(), id) == free.end()) {
          free.push_back(id);
        }
      }
      for (const Region& inner : op.regions) FreeValues(inner, defined, free);
      defined.insert(op.results.begin(), op.results.end());
    }
  }
}

// The region with its captured values turned into constants at its start,
// so that it stands alone (in a Case, in a reproducer).
absl::StatusOr<Region> Detached(const Region& region, const Interpreter::Environment& environment) {
  std::set<ValueId> defined;
  std::vector<ValueId> free;
  FreeValues(region, defined, free);
  Region copy = region;
  if (free.empty() || copy.blocks.empty()) return copy;
  std::vector<Operation> constants;
  for (ValueId id : free) {
    const RuntimeValue* value = environment.Find(id);
    if (value == nullptr) {
      return absl::InvalidArgumentError("a region uses a value that is not defined");
    }
    if (!value->type.is_tensor()) {
      return absl::UnimplementedError("unsupported: a region captures a token or tuple");
    }
    Operation constant;
    constant.name = "stablehlo.constant";
    constant.results = {id};
    constant.result_types = {value->type};
    constant.attributes["value"] = value->tensor;
    constants.push_back(std::move(constant));
  }
  auto& operations = copy.blocks[0].operations;
  operations.insert(operations.begin(), constants.begin(), constants.end());
  return copy;
}

// Ops whose oracle function takes any value (tokens, tuples, quantized
// tensors as their storage): custom_call's targets and the transfers only
// move values or write zeros (oracle/calls.cc, oracle/side_effects.cc),
// the quantization ops compute on quantized tensors (oracle/
// quantization.cc), and bitcast_convert moves a quantized tensor's storage
// bits. Every other op the interpreter hands the oracle takes plain tensors.
bool TakesAnyValue(std::string_view op) {
  return op == "custom_call" || TransferOf(op) != Transfer::kNone || op == "uniform_quantize" ||
         op == "uniform_dequantize" || op == "bitcast_convert";
}

void AppendLeaves(const RuntimeValue& value, std::vector<Tensor>* leaves) {
  if (value.type.is_tensor()) leaves->push_back(value.tensor);
  for (const RuntimeValue& element : value.elements) AppendLeaves(element, leaves);
}

// The value of `type` made of the next tensors of `leaves`.
RuntimeValue ValueFromLeaves(const ValueType& type, std::vector<RuntimeValue>& leaves,
                             size_t* next) {
  if (type.is_tensor()) {
    RuntimeValue value = std::move(leaves.at((*next)++));
    value.type = type;
    return value;
  }
  if (type.kind == ValueType::Kind::kToken) return RuntimeValue::Token();
  RuntimeValue tuple;
  tuple.type = type;
  for (const ValueType& element : type.elements) {
    tuple.elements.push_back(ValueFromLeaves(element, leaves, next));
  }
  return tuple;
}

}  // namespace

absl::Status Interpreter::Unsupported(const std::string& op, const std::string& why) {
  unsupported_.insert(op);
  return UnsupportedError(op, why);
}

absl::StatusOr<std::vector<RuntimeValue>> Interpreter::Call(const std::string& name,
                                                            std::vector<RuntimeValue> arguments) {
  const Function* function = module_ == nullptr ? nullptr : module_->Find(name);
  if (function == nullptr) return absl::NotFoundError("no function @" + name);
  if (function->body.blocks.empty()) {
    return absl::InvalidArgumentError("@" + name + " is a declaration without a body");
  }
  if (arguments.size() != function->type.inputs.size()) {
    return absl::InvalidArgumentError("@" + name + " takes " +
                                      std::to_string(function->type.inputs.size()) +
                                      " arguments, got " + std::to_string(arguments.size()));
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (!(arguments[i].type == function->type.inputs[i])) {
      return absl::InvalidArgumentError("@" + name + ": argument " + std::to_string(i) +
                                        " has type " + arguments[i].type.ToString() +
                                        ", expected " + function->type.inputs[i].ToString());
    }
  }
  // A lone program's host queues and channels live for one top-level call.
  if (depth_ == 0 && rendezvous_ == nullptr) lone_.reset();
  if (++depth_ > kMaxCallDepth) {
    --depth_;
    return absl::ResourceExhaustedError("calls nested deeper than " +
                                        std::to_string(kMaxCallDepth));
  }
  auto results = RunRegion(function->body, std::move(arguments));
  --depth_;
  return results;
}

absl::StatusOr<std::vector<RuntimeValue>> Interpreter::RunRegion(
    const Region& region, std::vector<RuntimeValue> arguments, const Environment* outer) {
  if (region.blocks.size() != 1) return absl::InvalidArgumentError("a region needs one block");
  const Block& block = region.blocks[0];
  if (arguments.size() != block.arguments.size()) {
    return absl::InvalidArgumentError("a region takes " + std::to_string(block.arguments.size()) +
                                      " arguments, got " + std::to_string(arguments.size()));
  }
  Environment environment;
  environment.outer = outer;
  for (size_t i = 0; i < arguments.size(); ++i) {
    environment.values[block.arguments[i]] = std::move(arguments[i]);
  }
  for (const Operation& op : block.operations) {
    std::vector<RuntimeValue> operands;
    for (ValueId id : op.operands) {
      const RuntimeValue* value = environment.Find(id);
      if (value == nullptr) {
        return absl::InvalidArgumentError(op.name + " at line " + std::to_string(op.location.line) +
                                          " uses an undefined value");
      }
      operands.push_back(*value);
    }
    if (IsReturn(op)) return operands;
    auto results = RunOperation(op, operands, environment);
    if (!results.ok()) return AtOperation(op, results.status());
    if (results->size() != op.results.size()) {
      return absl::InternalError(op.name + " gave " + std::to_string(results->size()) +
                                 " results for " + std::to_string(op.results.size()));
    }
    if (value_observer_) value_observer_(op, operands, *results);
    for (size_t i = 0; i < op.results.size(); ++i) {
      environment.values[op.results[i]] = std::move((*results)[i]);
    }
  }
  return absl::InvalidArgumentError("a region ends without a return");
}

absl::StatusOr<std::vector<RuntimeValue>> Interpreter::RunOperation(
    const Operation& op, const std::vector<RuntimeValue>& operands,
    const Environment& environment) {
  // The op's regions see the values around it.
  auto in_scope = [&](const Region& region, std::vector<RuntimeValue> arguments) {
    return RunRegion(region, std::move(arguments), &environment);
  };
  if (op.name == "func.call") {
    auto callee = op.attributes.find("callee");
    if (callee == op.attributes.end() || !std::holds_alternative<std::string>(callee->second)) {
      return absl::InvalidArgumentError("func.call without a callee");
    }
    return Call(std::get<std::string>(callee->second), operands);
  }
  if (op.name == "stablehlo.replica_id" || op.name == "stablehlo.partition_id") {
    const oracle::ProcessId id =
        rendezvous_ != nullptr ? rendezvous_->grid().At(process_) : oracle::ProcessId{};
    Tensor result(Shape{}, ElementType::kUI32);
    result.values<ElementType::kUI32>()[0] =
        static_cast<uint32_t>(op.name == "stablehlo.replica_id" ? id.replica : id.partition);
    return std::vector<RuntimeValue>{RuntimeValue::Of(std::move(result))};
  }
  if (op.name.starts_with("stablehlo.") && oracle::IsGridCollective(op.name.substr(10))) {
    // Every process's operands meet at the rendezvous (a lone program is
    // the only process of a 1 x 1 grid). The spec's constraints are not
    // verified here: programs use the public spec's forms of these ops
    // (variadic operands, ragged groups padded with -1, the corpus's
    // all_gather, all_reduce, all_to_all, collective_broadcast), which the
    // seed's constraints reject; GridResults checks what it computes with.
    // A gate case on a grid is verified (Oracle::Run).
    if (const spec::OpSpec* spec = registry_->Find(op.name.substr(10))) {
      for (const std::string& name : spec->unmodelled_attributes) {
        if (op.raw_attributes.count(name)) {
          return Unsupported(op.name, "its attribute " + name + " is not modelled");
        }
      }
    }
    // Quantized tensors move (their storage integers), or the reducing
    // collectives' computations run on their quantized scalars.
    std::vector<Tensor> tensors;
    for (const RuntimeValue& operand : operands) {
      if (!operand.type.is_tensor()) {
        return Unsupported(op.name, "with token or tuple operands");
      }
      tensors.push_back(operand.tensor);
    }
    std::vector<TensorType> types;
    for (const ValueType& type : op.result_types) {
      if (!type.is_tensor()) return Unsupported(op.name, "with token or tuple results");
      types.push_back(type.tensor());
    }
    const std::string mnemonic = op.name.substr(10);
    absl::StatusOr<std::vector<Tensor>> results;
    if (rendezvous_ != nullptr) {
      results = rendezvous_->Arrive(process_, mnemonic, op.attributes, op.regions, types,
                                    std::move(tensors));
    } else {
      auto all = oracle::GridResults(mnemonic, op.attributes, op.regions, types,
                                     oracle::ProcessGrid{}, {std::move(tensors)});
      if (all.ok())
        results = std::move(all->at(0));
      else
        results = all.status();
    }
    if (absl::IsUnimplemented(results.status())) {
      return Unsupported(op.name, std::string(results.status().message()));
    }
    HLOCHECK_RETURN_IF_ERROR(results.status());
    std::vector<RuntimeValue> values;
    for (Tensor& t : *results) values.push_back(RuntimeValue::Of(std::move(t)));
    return values;
  }
  if (op.name.starts_with("stablehlo.") && TransferOf(op.name.substr(10)) != Transfer::kNone) {
    return RunTransfer(op, operands, environment);
  }
  if (op.name == "stablehlo.composite") {
    // In a program the decomposition is a function of the module, named by
    // symbol: the composite is a call of it (its other regions are ignored,
    // as when the decomposition is inlined). A case gives it as a region
    // instead, which the oracle's composite runs.
    auto decomposition = op.attributes.find("decomposition");
    if (decomposition != op.attributes.end() &&
        std::holds_alternative<std::string>(decomposition->second)) {
      return Call(std::get<std::string>(decomposition->second), operands);
    }
  }
  if (op.name == "stablehlo.constant") {
    auto value = op.attributes.find("value");
    if (value == op.attributes.end() || !std::holds_alternative<Tensor>(value->second)) {
      return absl::InvalidArgumentError("stablehlo.constant without a dense value");
    }
    const Tensor& literal = std::get<Tensor>(value->second);
    if (!op.result_types.empty() && op.result_types[0].is_quantized()) {
      // The value is the storage integers; the ops that compute on quantized
      // tensors say they are unsupported when such a value reaches them.
      const TensorType type = op.result_types[0].tensor();
      if (type.shape != literal.shape() || type.element_type != literal.element_type()) {
        return absl::InvalidArgumentError("a constant of type " + type.ToString() + " holds " +
                                          literal.type().ToString());
      }
      RuntimeValue quantized = RuntimeValue::Of(Tensor::Reusing(type, Tensor(literal)));
      quantized.type = op.result_types[0];
      return std::vector<RuntimeValue>{std::move(quantized)};
    }
    return std::vector<RuntimeValue>{RuntimeValue::Of(literal)};
  }
  if (op.name == "stablehlo.tuple") {
    RuntimeValue tuple;
    tuple.type = op.result_types.at(0);
    tuple.elements = operands;
    return std::vector<RuntimeValue>{tuple};
  }
  if (op.name == "stablehlo.get_tuple_element") {
    auto index = op.attributes.find("index");
    if (index == op.attributes.end() || operands.size() != 1) {
      return absl::InvalidArgumentError("get_tuple_element needs a tuple and an index");
    }
    int64_t i = std::get<int64_t>(index->second);
    if (i < 0 || i >= static_cast<int64_t>(operands[0].elements.size())) {
      return absl::InvalidArgumentError("get_tuple_element: index " + std::to_string(i) +
                                        " out of range (spec C1)");
    }
    return std::vector<RuntimeValue>{operands[0].elements[i]};
  }
  if (op.name == "stablehlo.optimization_barrier") {
    // Evaluated here, not by an oracle function: its constraints too (its
    // spec: tensors, per-tensor quantized tensors or tokens, results of the
    // operands' types).
    if (op.result_types.size() != operands.size()) {
      return absl::InvalidArgumentError("optimization_barrier: as many results as operands (C1)");
    }
    for (size_t k = 0; k < operands.size(); ++k) {
      const ValueType& type = operands[k].type;
      if (type.kind == ValueType::Kind::kTuple ||
          (type.quantization && type.quantization->quantization_dimension)) {
        return absl::InvalidArgumentError(
            "optimization_barrier takes tensors, per-tensor quantized tensors or tokens, not " +
            type.ToString());
      }
      if (op.result_types[k] != type) {
        return absl::InvalidArgumentError("optimization_barrier: result " + std::to_string(k) +
                                          " is not of its operand's type (C1)");
      }
    }
    return operands;
  }
  if (op.name == "stablehlo.after_all" || op.name == "stablehlo.create_token") {
    return std::vector<RuntimeValue>{RuntimeValue::Token()};
  }
  if (op.name == "stablehlo.while") {
    if (op.regions.size() != 2) return absl::InvalidArgumentError("while needs cond and body");
    // Ops of cond and body are verified at their first iteration only
    // (RunOracleOp); the cache lives until the outermost loop ends.
    LoopScope scope(this);
    return oracle::WhileLoop(op.regions[0], op.regions[1], operands, in_scope);
  }
  if (op.name == "stablehlo.if" || op.name == "stablehlo.case") {
    if (operands.size() != 1 || !operands[0].type.is_tensor()) {
      return absl::InvalidArgumentError(op.name + " needs one 0-d operand");
    }
    absl::StatusOr<size_t> branch;
    if (op.name == "stablehlo.if") {
      if (op.regions.size() != 2) return absl::InvalidArgumentError("if needs two branches");
      branch = oracle::IfBranch(operands[0].tensor);
    } else {
      branch = oracle::CaseBranch(operands[0].tensor, op.regions.size());
    }
    HLOCHECK_RETURN_IF_ERROR(branch.status());
    return in_scope(op.regions[*branch], {});
  }
  bool check_call = false;
  if (op.name == "stablehlo.custom_call") {
    auto target = op.attributes.find("call_target_name");
    check_call = target != op.attributes.end() &&
                 std::holds_alternative<std::string>(target->second) &&
                 std::get<std::string>(target->second).rfind("check.", 0) == 0;
  }
  if (op.name.rfind("stablehlo.", 0) == 0 && !check_call) {
    return RunOracleOp(op, operands, environment);
  }
  if (hook_) {
    std::vector<RuntimeValue> results;
    auto handled = hook_(op, operands, &results);
    HLOCHECK_RETURN_IF_ERROR(handled.status());
    if (*handled) return results;
  }
  return Unsupported(op.name, "");
}

oracle::ProcessRendezvous& Interpreter::rendezvous() {
  if (rendezvous_ != nullptr) return *rendezvous_;
  if (lone_ == nullptr) lone_ = std::make_unique<oracle::ProcessRendezvous>(oracle::ProcessGrid{});
  return *lone_;
}

absl::StatusOr<std::vector<RuntimeValue>> Interpreter::RunTransfer(
    const Operation& op, const std::vector<RuntimeValue>& operands,
    const Environment& environment) {
  HLOCHECK_ASSIGN_OR_RETURN(Case c, OracleCase(op, operands, environment));
  oracle::ProcessRendezvous& grid = rendezvous();
  // send and recv go through their channel; infeed and outfeed through the
  // host's queues.
  int64_t channel =
      c.op == "infeed" ? oracle::ProcessRendezvous::kInfeed : oracle::ProcessRendezvous::kOutfeed;
  if (c.op == "send" || c.op == "recv") {
    const Attribute* id = c.FindAttribute("channel_id");
    if (id == nullptr || !std::holds_alternative<int64_t>(*id)) {
      return absl::InvalidArgumentError(op.name + " needs a channel_handle");
    }
    channel = std::get<int64_t>(*id);
  }
  const bool incoming = TransferOf(c.op) == Transfer::kIncoming;
  if (incoming) {
    absl::StatusOr<oracle::Message> message =
        c.op == "infeed" ? grid.Take(channel) : grid.Receive(process_, channel);
    HLOCHECK_RETURN_IF_ERROR(message.status());
    c.incoming = *std::move(message);
  } else {
    for (const Tensor& t : c.operands) c.result_types.push_back(t.type());
    c.outgoing = static_cast<int64_t>(c.operands.size());
  }
  auto expectations = oracle_->Run(c);
  if (absl::IsUnimplemented(expectations.status())) {
    return Unsupported(op.name, std::string(expectations.status().message()));
  }
  HLOCHECK_RETURN_IF_ERROR(expectations.status());
  const size_t own = expectations->size() - static_cast<size_t>(c.outgoing);
  if (!incoming) {
    oracle::Message message;
    for (size_t i = own; i < expectations->size(); ++i) {
      message.push_back(std::move((*expectations)[i].reference));
    }
    grid.Send(process_, channel, std::move(message));
  }
  std::vector<RuntimeValue> leaves;
  for (size_t i = 0; i < own; ++i) {
    leaves.push_back(RuntimeValue::Of(std::move((*expectations)[i].reference)));
  }
  std::vector<RuntimeValue> values;
  size_t next = 0;
  for (const ValueType& type : op.result_types)
    values.push_back(ValueFromLeaves(type, leaves, &next));
  return values;
}

absl::StatusOr<Case> Interpreter::OracleCase(const Operation& op,
                                             const std::vector<RuntimeValue>& operands,
                                             const Environment& environment) {
  std::string mnemonic = op.name.substr(10);
  const spec::OpSpec* spec = registry_->Find(mnemonic);
  if (spec == nullptr) return Unsupported(op.name, "not an op of the spec");
  for (const std::string& name : spec->unmodelled_attributes) {
    if (op.raw_attributes.count(name)) {
      return Unsupported(op.name, "its attribute " + name + " is not modelled");
    }
  }
  if (!oracle_->Implements(mnemonic)) return Unsupported(op.name, "");
  Case c;
  c.op = mnemonic;
  if (TakesAnyValue(mnemonic)) {
    // Tokens and tuples as Case's structure, quantized tensors as their
    // storage under their quantized type.
    for (const RuntimeValue& operand : operands) {
      c.operand_structure.push_back(operand.type);
      AppendLeaves(operand, &c.operands);
    }
    c.result_structure = op.result_types;
    for (const ValueType& type : op.result_types) AppendLeafTypes(type, &c.result_types);
  }
  for (const RuntimeValue& operand : operands) {
    if (TakesAnyValue(mnemonic)) break;
    if (!operand.type.is_tensor()) return Unsupported(op.name, "with token or tuple operands");
    if (operand.type.is_quantized() && !spec::ComputesOnQuantized(spec->quantized_semantics)) {
      return Unsupported(op.name, "with quantized operands");
    }
    c.operands.push_back(operand.tensor);
  }
  for (const ValueType& type : op.result_types) {
    if (TakesAnyValue(mnemonic)) break;
    if (!type.is_tensor()) return Unsupported(op.name, "with token or tuple results");
    if (type.is_quantized() && !spec::ComputesOnQuantized(spec->quantized_semantics)) {
      return Unsupported(op.name, "with quantized results");
    }
    c.result_types.push_back(type.tensor());
  }
  auto operand_segments = spec::SegmentSizes(spec->operands, operands.size());
  auto result_segments = spec::SegmentSizes(spec->results, op.result_types.size());
  auto region_segments = spec::RegionSegmentSizes(spec->regions, op.regions.size());
  HLOCHECK_RETURN_IF_ERROR(operand_segments.status());
  HLOCHECK_RETURN_IF_ERROR(result_segments.status());
  HLOCHECK_RETURN_IF_ERROR(region_segments.status());
  auto any_variadic = [](const auto& specs) {
    for (const auto& s : specs) {
      if (s.variadic) return true;
    }
    return false;
  };
  if (any_variadic(spec->operands)) c.operand_segments = *operand_segments;
  if (any_variadic(spec->results)) c.result_segments = *result_segments;
  if (any_variadic(spec->regions)) c.region_segments = *region_segments;
  c.attributes = op.attributes;
  for (const Region& region : op.regions) {
    auto detached = Detached(region, environment);
    HLOCHECK_RETURN_IF_ERROR(detached.status());
    c.regions.push_back(*std::move(detached));
  }
  return c;
}

absl::StatusOr<std::vector<RuntimeValue>> Interpreter::RunOracleOp(
    const Operation& op, const std::vector<RuntimeValue>& operands,
    const Environment& environment) {
  auto c = OracleCase(op, operands, environment);
  HLOCHECK_RETURN_IF_ERROR(c.status());
  // In a loop, an op verified at an earlier iteration with the same types is
  // not verified again (a tuple or token case always is).
  std::vector<TensorType> signature;
  const bool cacheable =
      loop_depth_ > 0 && c->operand_structure.empty() && c->result_structure.empty();
  if (cacheable) {
    for (const Tensor& operand : c->operands) signature.push_back(operand.type());
    for (const TensorType& result : c->result_types) signature.push_back(result);
  }
  auto verified = cacheable ? verified_in_loop_.find(&op) : verified_in_loop_.end();
  const bool skip_verification =
      verified != verified_in_loop_.end() && verified->second == signature;
  auto expectations = skip_verification ? oracle_->Compute(*c) : oracle_->Run(*c);
  if (cacheable && !skip_verification && expectations.ok()) verified_in_loop_[&op] = signature;
  if (absl::IsUnimplemented(expectations.status())) {
    return Unsupported(op.name, std::string(expectations.status().message()));
  }
  HLOCHECK_RETURN_IF_ERROR(expectations.status());
  if (observer_) observer_(op, *expectations);
  std::vector<RuntimeValue> results;
  for (ResultExpectation& expectation : *expectations) {
    RuntimeValue value = RuntimeValue::Of(std::move(expectation.reference));
    value.free = std::move(expectation.free);
    value.permutable = std::move(expectation.permutable);
    results.push_back(std::move(value));
  }
  if (c->result_structure.empty()) return results;
  if (results.size() != c->result_types.size()) {
    return absl::InternalError(op.name + ": the oracle gave " + std::to_string(results.size()) +
                               " tensors for " + std::to_string(c->result_types.size()));
  }
  std::vector<RuntimeValue> values;
  size_t next = 0;
  for (const ValueType& type : c->result_structure) {
    values.push_back(ValueFromLeaves(type, results, &next));
  }
  return values;
}

std::set<std::string> Interpreter::OpsUsedBy(const std::string& name) const {
  std::set<std::string> ops;
  std::set<std::string> visited;
  std::function<void(const Region&)> scan = [&](const Region& region) {
    for (const Block& block : region.blocks) {
      for (const Operation& op : block.operations) {
        ops.insert(op.name);
        for (const Region& inner : op.regions) scan(inner);
        if (const std::string* called = CalledFunction(op)) {
          const std::string& target = *called;
          const Function* f = module_->Find(target);
          if (f != nullptr && visited.insert(target).second) scan(f->body);
        }
      }
    }
  };
  const Function* f = module_ == nullptr ? nullptr : module_->Find(name);
  if (f != nullptr) {
    visited.insert(name);
    scan(f->body);
  }
  return ops;
}

}  // namespace hlocheck
