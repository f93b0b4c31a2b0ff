// Reading back a case module written by PrintCaseModule: the constants of
// @main (and the tokens and tuples built of them) are the operands of its
// one op under test.
#include <algorithm>
#include <map>

#include "core/status_macros.h"
#include "mlir/attribute_syntax.h"
#include "mlir/reader.h"
#include "spec/instance.h"

namespace hlocheck::mlir {
namespace {

// A case on a process grid (PrintCaseModule's grid form): @main runs one
// function on every process with interpreter.run_parallel, its inputs the
// constants of @main, process by process; the function's one stablehlo op
// is the op under test.
absl::StatusOr<Case> ReadGridCase(const Module& module, const Operation& run_parallel,
                                  const std::vector<Operation>& main_operations,
                                  const std::string& file, const spec::SpecRegistry& registry) {
  auto programs = run_parallel.raw_attributes.find("programs");
  if (programs == run_parallel.raw_attributes.end()) {
    return absl::InvalidArgumentError(file + ": interpreter.run_parallel without programs");
  }
  std::vector<std::string> names;
  int64_t rows = 0;
  int64_t columns = 0;
  try {
    Cursor cursor(programs->second, "programs");
    AttrSyntax grid = ParseAttribute(cursor);
    for (const AttrSyntax& row : grid.items) {
      ++rows;
      columns = static_cast<int64_t>(row.items.size());
      for (const AttrSyntax& program : row.items) names.push_back(program.string);
    }
  } catch (const SyntaxError& e) {
    return absl::InvalidArgumentError(file + ": run_parallel programs: " + e.what());
  }
  if (names.empty() || std::any_of(names.begin(), names.end(),
                                   [&](const std::string& n) { return n != names[0]; })) {
    return absl::InvalidArgumentError(file + ": a grid case runs one function on every process");
  }
  const Function* f = module.Find(names[0]);
  if (f == nullptr || f->body.blocks.empty() || f->body.blocks[0].operations.empty()) {
    return absl::InvalidArgumentError(file + ": no function @" + names[0]);
  }
  const Operation& tested = f->body.blocks[0].operations[0];
  const spec::OpSpec* spec =
      tested.name.rfind("stablehlo.", 0) == 0 ? registry.Find(tested.name.substr(10)) : nullptr;
  if (spec == nullptr)
    return absl::InvalidArgumentError(file + ": @" + names[0] + " runs no spec op");
  if (tested.operands != f->body.blocks[0].arguments) {
    return absl::InvalidArgumentError(file + ": the op under test takes @" + names[0] +
                                      "'s arguments in order");
  }
  std::map<ValueId, Tensor> constants;
  for (const Operation& op : main_operations) {
    auto value = op.attributes.find("value");
    if (op.name == "stablehlo.constant" && op.results.size() == 1 && value != op.attributes.end() &&
        std::holds_alternative<Tensor>(value->second)) {
      const Tensor& literal = std::get<Tensor>(value->second);
      // A quantized constant's value is its storage integers.
      const bool quantized = op.result_types.size() == 1 && op.result_types[0].is_tensor() &&
                             op.result_types[0].quantization.has_value() &&
                             op.result_types[0].shape == literal.shape() &&
                             op.result_types[0].element_type == literal.element_type();
      constants[op.results[0]] =
          quantized ? Tensor::Reusing(op.result_types[0].tensor(), Tensor(literal)) : literal;
    }
  }
  Case c;
  c.op = spec->name;
  c.num_replicas = rows;
  c.num_partitions = columns;
  for (ValueId id : run_parallel.operands) {
    auto it = constants.find(id);
    if (it == constants.end()) {
      return absl::InvalidArgumentError(file + ": a run_parallel input is not a constant");
    }
    c.operands.push_back(it->second);
  }
  for (const ValueType& type : run_parallel.result_types) {
    if (!type.is_tensor())
      return absl::InvalidArgumentError(file + ": a grid case's results are tensors");
    c.result_types.push_back(type.tensor());
  }
  if (static_cast<int64_t>(c.operands.size()) !=
          c.ProcessCount() * static_cast<int64_t>(tested.operands.size()) ||
      static_cast<int64_t>(c.result_types.size()) !=
          c.ProcessCount() * static_cast<int64_t>(tested.results.size())) {
    return absl::InvalidArgumentError(file +
                                      ": run_parallel's inputs and results are not the grid's");
  }
  c.attributes = tested.attributes;
  c.regions = tested.regions;
  return c;
}

}  // namespace

absl::StatusOr<Case> ReadCaseModule(std::string_view text, const std::string& file,
                                    const spec::SpecRegistry& registry) {
  auto module = ReadModule(text, file, registry);
  HLOCHECK_RETURN_IF_ERROR(module.status());
  const Function* main = module->Find("main");
  if (main == nullptr || main->body.blocks.empty()) {
    return absl::InvalidArgumentError(file + ": a case module needs a func.func @main");
  }
  for (const Operation& op : main->body.blocks[0].operations) {
    if (op.name == "interpreter.run_parallel") {
      return ReadGridCase(*module, op, main->body.blocks[0].operations, file, registry);
    }
  }
  // The op under test is the one whose results @main returns, when it
  // returns any (cases with tokens or tuples: tuple ops build the inputs and
  // take the results apart), else the one whose result the first check reads
  // (the writer puts the inputs first, then the op, then the checks with
  // their expected values). The ops before it build its inputs.
  const auto& operations = main->body.blocks[0].operations;
  const Operation* tested = nullptr;
  ValueId checked = -1;
  if (!operations.empty() && operations.back().name == "func.return" &&
      !operations.back().operands.empty()) {
    checked = operations.back().operands[0];
  } else {
    for (const Operation& op : operations) {
      if (op.name.rfind("check.", 0) == 0 && !op.operands.empty()) {
        checked = op.operands[0];
        break;
      }
    }
  }
  for (const Operation& op : operations) {
    bool defines = std::find(op.results.begin(), op.results.end(), checked) != op.results.end();
    if (defines || (checked < 0 && op.name.rfind("stablehlo.", 0) == 0)) tested = &op;
    if (defines) break;
  }
  if (tested == nullptr) return absl::InvalidArgumentError(file + ": no op under test");
  // An input: its type and the tensors inside it, depth-first.
  struct Input {
    ValueType type;
    std::vector<Tensor> tensors;
  };
  std::map<ValueId, Input> inputs;
  std::vector<Tensor> incoming;  // what interpreter.incoming queues for the op
  for (const Operation& op : operations) {
    if (&op == tested) break;
    if (op.name == "interpreter.incoming") {
      for (ValueId id : op.operands) {
        auto it = inputs.find(id);
        if (it == inputs.end() || !it->second.type.is_tensor()) {
          return absl::InvalidArgumentError(file +
                                            ": interpreter.incoming queues a value that is "
                                            "not a constant tensor");
        }
        incoming.insert(incoming.end(), it->second.tensors.begin(), it->second.tensors.end());
      }
      continue;
    }
    auto value = op.attributes.find("value");
    if (op.name == "stablehlo.constant" && op.results.size() == 1 && value != op.attributes.end() &&
        std::holds_alternative<Tensor>(value->second)) {
      const Tensor& literal = std::get<Tensor>(value->second);
      ValueType type = op.result_types.empty() ? ValueType::Of(literal.type()) : op.result_types[0];
      if (!type.is_tensor() || type.shape != literal.shape() ||
          type.element_type != literal.element_type()) {
        return absl::InvalidArgumentError(file + ": a constant of type " + type.ToString() +
                                          " holds " + literal.type().ToString());
      }
      // A quantized constant's value is its storage integers.
      inputs[op.results[0]] = {type, {Tensor::Reusing(type.tensor(), Tensor(literal))}};
    } else if (op.name == "stablehlo.after_all" && op.operands.empty() && op.results.size() == 1) {
      inputs[op.results[0]] = {ValueType::Token(), {}};
    } else if (op.name == "stablehlo.tuple" && op.results.size() == 1) {
      Input tuple{ValueType::Tuple({}), {}};
      for (ValueId id : op.operands) {
        auto it = inputs.find(id);
        if (it == inputs.end()) {
          return absl::InvalidArgumentError(file +
                                            ": a tuple input is built of a value that is "
                                            "not an input");
        }
        tuple.type.elements.push_back(it->second.type);
        tuple.tensors.insert(tuple.tensors.end(), it->second.tensors.begin(),
                             it->second.tensors.end());
      }
      inputs[op.results[0]] = std::move(tuple);
    } else if (op.name.rfind("stablehlo.", 0) == 0) {
      return absl::InvalidArgumentError(file + ": a case module has one op under test; " + op.name +
                                        " comes before " + tested->name);
    }
  }
  // func.call is the case `call`, its callee a function of the module.
  const bool call = tested->name == "func.call";
  const spec::OpSpec* spec =
      call ? registry.Find("call")
           : (tested->name.rfind("stablehlo.", 0) == 0 ? registry.Find(tested->name.substr(10))
                                                       : nullptr);
  if (spec == nullptr) return absl::InvalidArgumentError(tested->name + " is not in the spec");
  std::vector<Region> regions = tested->regions;
  if (call) {
    auto callee = tested->attributes.find("callee");
    const Function* f =
        callee != tested->attributes.end() && std::holds_alternative<std::string>(callee->second)
            ? module->Find(std::get<std::string>(callee->second))
            : nullptr;
    if (f == nullptr || f->body.blocks.empty() || f->body.blocks[0].operations.empty()) {
      return absl::InvalidArgumentError(file + ": func.call names no function of the module");
    }
    // The callee's body as the case's region: its func.return a
    // stablehlo.return, as regions end.
    Region body = f->body;
    body.blocks[0].operations.back().name = "stablehlo.return";
    regions = {std::move(body)};
  }
  Case c;
  c.op = spec->name;
  std::vector<ValueType> operand_types;
  for (ValueId id : tested->operands) {
    auto it = inputs.find(id);
    if (it == inputs.end()) {
      return absl::InvalidArgumentError(file + ": an operand of " + tested->name +
                                        " is not a constant");
    }
    operand_types.push_back(it->second.type);
    c.operands.insert(c.operands.end(), it->second.tensors.begin(), it->second.tensors.end());
  }
  bool structured_operands = false;
  for (const ValueType& type : operand_types) structured_operands |= !type.is_tensor();
  if (structured_operands) c.operand_structure = operand_types;
  bool structured_results = false;
  for (const ValueType& type : tested->result_types) {
    structured_results |= !type.is_tensor();
    AppendLeafTypes(type, &c.result_types);
  }
  if (structured_results) c.result_structure = tested->result_types;
  // A transfer's message: queued before the op, or taken after it.
  c.incoming = std::move(incoming);
  bool after_tested = false;
  for (const Operation& op : operations) {
    if (after_tested && op.name == "interpreter.outgoing") {
      for (const ValueType& type : op.result_types) {
        if (!type.is_tensor()) {
          return absl::InvalidArgumentError(file + ": interpreter.outgoing takes tensors");
        }
        c.result_types.push_back(type.tensor());
        ++c.outgoing;
      }
    }
    after_tested = after_tested || &op == tested;
  }
  if (!c.incoming.empty() && TransferOf(c.op) != Transfer::kIncoming) {
    return absl::InvalidArgumentError(file + ": interpreter.incoming before " + tested->name +
                                      ", which receives nothing");
  }
  const size_t operand_values = operand_types.size();
  const size_t result_values = tested->result_types.size();
  auto has_variadic = [](const auto& specs) {
    for (const auto& s : specs) {
      if (s.variadic) return true;
    }
    return false;
  };
  if (has_variadic(spec->operands)) {
    auto sizes = spec::SegmentSizes(spec->operands, operand_values);
    HLOCHECK_RETURN_IF_ERROR(sizes.status());
    c.operand_segments = *sizes;
  }
  if (has_variadic(spec->results)) {
    auto sizes = spec::SegmentSizes(spec->results, result_values);
    HLOCHECK_RETURN_IF_ERROR(sizes.status());
    c.result_segments = *sizes;
  }
  if (has_variadic(spec->regions)) {
    auto sizes = spec::RegionSegmentSizes(spec->regions, tested->regions.size());
    HLOCHECK_RETURN_IF_ERROR(sizes.status());
    c.region_segments = *sizes;
  }
  c.attributes = tested->attributes;
  if (call) c.attributes.clear();  // the callee's name is the module's, not the case's
  c.regions = std::move(regions);
  return c;
}

}  // namespace hlocheck::mlir
