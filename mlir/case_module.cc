// Reading back a case module written by PrintCaseModule: the constants of
// @main (and the tokens and tuples built of them) are the operands of its
// one op under test.
#include <algorithm>
#include <map>

#include "core/status_macros.h"
#include "mlir/reader.h"
#include "spec/instance.h"

namespace hlocheck::mlir {

absl::StatusOr<Case> ReadCaseModule(std::string_view text, const std::string& file,
                                    const spec::SpecRegistry& registry) {
  auto module = ReadModule(text, file, registry);
  HLOCHECK_RETURN_IF_ERROR(module.status());
  const Function* main = module->Find("main");
  if (main == nullptr || main->body.blocks.empty()) {
    return absl::InvalidArgumentError(file + ": a case module needs a func.func @main");
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
  for (const Operation& op : operations) {
    if (&op == tested) break;
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
  const spec::OpSpec* spec = registry.Find(tested->name.substr(10));
  if (spec == nullptr) return absl::InvalidArgumentError(tested->name + " is not in the spec");
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
  c.regions = tested->regions;
  return c;
}

}  // namespace hlocheck::mlir
