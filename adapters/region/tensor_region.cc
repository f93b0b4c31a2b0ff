#include "adapters/region/tensor_region.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace {

// Values a region uses but does not define: those of the scope around it.
void CapturedValues(const Region& region, std::set<ValueId>& defined, std::set<ValueId>& used) {
  for (const Block& block : region.blocks) {
    defined.insert(block.arguments.begin(), block.arguments.end());
    for (const Operation& op : block.operations) {
      for (ValueId id : op.operands) {
        if (!defined.count(id)) used.insert(id);
      }
      for (const Region& inner : op.regions) CapturedValues(inner, defined, used);
      defined.insert(op.results.begin(), op.results.end());
    }
  }
}

std::vector<ValueType> TypesOf(const std::vector<Value>& values) {
  std::vector<ValueType> types;
  for (const Value& v : values) types.push_back(v.type);
  return types;
}

}  // namespace

absl::StatusOr<TensorRegion> TensorRegion::Create(const Region& region,
                                                  const std::vector<ValueType>& arguments,
                                                  std::string what, const RegionOps& ops) {
  TensorRegion r;
  r.what_ = std::move(what);
  auto invalid = [&](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat(r.what_, ": ", parts...));
  };
  auto unsupported = [&](auto&&... parts) {
    r.support_ = AdapterSupport::No(absl::StrCat(r.what_, ": ", parts...));
    return r;
  };
  if (region.blocks.size() != 1) return invalid("a region needs exactly one block");
  const Block& block = region.blocks[0];
  if (block.arguments.size() != arguments.size()) {
    return invalid("takes ", block.arguments.size(), " arguments, not ", arguments.size());
  }
  r.arguments_ = arguments.size();
  std::map<ValueId, size_t> slot_of;
  auto define = [&](ValueId id, Value value) {
    if (!slot_of.emplace(id, r.slots_.size()).second) return false;
    r.slots_.push_back(std::move(value));
    return true;
  };
  auto placeholder = [](const ValueType& type) {
    return Value{type, type.is_tensor() ? Tensor(type.tensor()) : Tensor(), {}};
  };
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (!block.argument_types.empty() && block.argument_types[i] != arguments[i]) {
      return invalid("argument ", i, " is ", block.argument_types[i].ToString(), ", not ",
                     arguments[i].ToString());
    }
    if (arguments[i].kind == ValueType::Kind::kTuple) {
      return unsupported("a ", arguments[i].ToString(), " argument (tensors and tokens only)");
    }
    if (!define(block.arguments[i], placeholder(arguments[i]))) {
      return invalid("argument ", i, " is defined twice");
    }
  }
  if (block.operations.empty() || block.operations.back().name != "stablehlo.return") {
    return invalid("the region does not end in stablehlo.return");
  }
  for (size_t k = 0; k + 1 < block.operations.size(); ++k) {
    const Operation& op = block.operations[k];
    if (op.results.size() != op.result_types.size()) {
      return invalid(op.name, " has ", op.results.size(), " results but ", op.result_types.size(),
                     " result types");
    }
    for (const ValueType& type : op.result_types) {
      if (type.kind == ValueType::Kind::kTuple && op.name != "stablehlo.tuple" &&
          op.name != "stablehlo.get_tuple_element") {
        return unsupported(op.name, " with a ", type.ToString(), " result");
      }
    }
    if (op.name == "stablehlo.constant") {
      auto value = op.attributes.find("value");
      if (value == op.attributes.end() || !std::holds_alternative<Tensor>(value->second) ||
          op.results.size() != 1 || !op.result_types[0].is_tensor()) {
        return invalid("a stablehlo.constant without a dense value of its result type");
      }
      // A quantized constant's value holds its storage integers.
      const TensorType result = op.result_types[0].tensor();
      Tensor constant = std::get<Tensor>(value->second);
      if (result.quantization && constant.type() == TensorType(result.shape, result.element_type)) {
        constant = Tensor::Reusing(result, std::move(constant));
      }
      if (constant.type() != result) {
        return invalid("a stablehlo.constant without a dense value of its result type");
      }
      if (!define(op.results[0], Value{op.result_types[0], std::move(constant), {}})) {
        return invalid("%", op.results[0], " is defined twice");
      }
      continue;
    }
    Step step;
    for (ValueId operand : op.operands) {
      auto slot = slot_of.find(operand);
      if (slot == slot_of.end()) return invalid(op.name, " uses %", operand, ", not defined");
      step.operand_slots.push_back(slot->second);
    }
    if (op.name == "stablehlo.after_all" || op.name == "stablehlo.create_token") {
      if (op.result_types.size() != 1 || op.result_types[0].kind != ValueType::Kind::kToken) {
        return invalid(op.name, " must give one token");
      }
      step.token_only = true;
    } else if (op.name == "stablehlo.tuple") {
      // Values are moved, not computed: the tuple holds its operands.
      if (op.result_types.size() != 1 || op.result_types[0].kind != ValueType::Kind::kTuple ||
          op.result_types[0].elements.size() != step.operand_slots.size()) {
        return invalid(op.name, " must give one tuple of its operands");
      }
      step.make_tuple = true;
    } else if (op.name == "stablehlo.get_tuple_element") {
      auto index = op.attributes.find("index");
      const int64_t* i =
          index == op.attributes.end() ? nullptr : std::get_if<int64_t>(&index->second);
      if (i == nullptr || step.operand_slots.size() != 1 || op.result_types.size() != 1 ||
          r.slots_[step.operand_slots[0]].type.kind != ValueType::Kind::kTuple || *i < 0 ||
          static_cast<size_t>(*i) >= r.slots_[step.operand_slots[0]].type.elements.size()) {
        return invalid(op.name, " needs a tuple and an index within it");
      }
      step.tuple_index = *i;
    } else {
      if (!op.name.starts_with("stablehlo.") || !ops.Has(op.name)) {
        return unsupported("uses ", op.name, ", which this backend does not implement");
      }
      step.c.op = op.name.substr(10);
      bool structured = false;
      for (size_t slot : step.operand_slots) {
        const Value& value = r.slots_[slot];
        structured = structured || !value.type.is_tensor();
        step.c.operand_structure.push_back(value.type);
        if (value.type.is_tensor()) step.c.operands.emplace_back(value.tensor.type());
      }
      if (!structured) step.c.operand_structure.clear();
      bool structured_results = false;
      for (const ValueType& type : op.result_types) {
        structured_results = structured_results || !type.is_tensor();
        step.c.result_structure.push_back(type);
        if (type.is_tensor()) step.c.result_types.push_back(type.tensor());
      }
      if (!structured_results) step.c.result_structure.clear();
      step.c.attributes = op.attributes;
      // The values of this region the op's regions capture.
      std::set<ValueId> defined;
      std::set<ValueId> used;
      for (const Region& inner : op.regions) CapturedValues(inner, defined, used);
      for (ValueId id : used) {
        auto slot = slot_of.find(id);
        if (slot == slot_of.end()) return invalid(op.name, "'s region uses %", id, ", not defined");
        if (!r.slots_[slot->second].type.is_tensor()) {
          return unsupported(op.name, "'s region captures a token");
        }
        step.captures.emplace_back(id, slot->second);
      }
      step.regions = op.regions;
      r.Detach(step);
      if (AdapterSupport support = ops.Supports(step.c); !support.supported) {
        return unsupported(support.reason);
      }
    }
    for (size_t j = 0; j < op.results.size(); ++j) {
      step.result_slots.push_back(r.slots_.size());
      if (!define(op.results[j], placeholder(op.result_types[j]))) {
        return invalid("%", op.results[j], " is defined twice");
      }
    }
    r.steps_.push_back(std::move(step));
  }
  for (ValueId id : block.operations.back().operands) {
    auto slot = slot_of.find(id);
    if (slot == slot_of.end()) return invalid("returns %", id, ", which is not defined");
    r.return_slots_.push_back(slot->second);
  }
  return r;
}

void TensorRegion::Detach(Step& step) const {
  if (step.captures.empty()) {
    step.c.regions = step.regions;
    return;
  }
  step.c.regions.clear();
  for (const Region& region : step.regions) {
    Region copy = region;
    std::vector<Operation> constants;
    for (const auto& [id, slot] : step.captures) {
      Operation constant;
      constant.name = "stablehlo.constant";
      constant.results = {id};
      constant.result_types = {slots_[slot].type};
      constant.attributes["value"] = slots_[slot].tensor;
      constants.push_back(std::move(constant));
    }
    if (!copy.blocks.empty()) {
      auto& operations = copy.blocks[0].operations;
      operations.insert(operations.begin(), constants.begin(), constants.end());
    }
    step.c.regions.push_back(std::move(copy));
  }
}

absl::StatusOr<std::vector<Value>> TensorRegion::Run(std::vector<Value> arguments,
                                                     const RegionOps& ops) {
  if (!support_.supported) return absl::UnimplementedError(support_.reason);
  if (arguments.size() != arguments_) {
    return absl::InternalError(absl::StrCat(what_, ": run with ", arguments.size(), " arguments"));
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].type != slots_[i].type) {
      return absl::InvalidArgumentError(absl::StrCat(what_, ": argument ", i, " is ",
                                                     arguments[i].type.ToString(), ", not ",
                                                     slots_[i].type.ToString()));
    }
    slots_[i] = std::move(arguments[i]);
  }
  for (Step& step : steps_) {
    if (step.token_only) {
      slots_[step.result_slots[0]] = Value{ValueType::Token(), Tensor(), {}};
      continue;
    }
    if (step.make_tuple) {
      Value& tuple = slots_[step.result_slots[0]];
      tuple.elements.clear();
      for (size_t slot : step.operand_slots) tuple.elements.push_back(slots_[slot]);
      continue;
    }
    if (step.tuple_index >= 0) {
      slots_[step.result_slots[0]] =
          slots_[step.operand_slots[0]].elements[static_cast<size_t>(step.tuple_index)];
      continue;
    }
    size_t tensor = 0;
    for (size_t slot : step.operand_slots) {
      if (slots_[slot].type.is_tensor()) step.c.operands[tensor++] = slots_[slot].tensor;
    }
    if (!step.captures.empty()) Detach(step);
    absl::StatusOr<std::vector<Tensor>> values = ops.Run(step.c);
    HLOCHECK_RETURN_IF_ERROR(values.status());
    size_t next = 0;
    for (size_t slot : step.result_slots) {
      Value& value = slots_[slot];
      if (!value.type.is_tensor()) continue;
      if (next >= values->size() || (*values)[next].type() != value.type.tensor()) {
        return absl::InternalError(
            absl::StrCat(what_, ": ", step.c.op, " did not return its result types"));
      }
      value.tensor = std::move((*values)[next++]);
    }
  }
  std::vector<Value> results;
  for (size_t slot : return_slots_) results.push_back(slots_[slot]);
  return results;
}

std::string EnumName(const Operation& op, const std::string& name) {
  auto it = op.attributes.find(name);
  if (it == op.attributes.end()) return "";
  if (const auto* value = std::get_if<EnumValue>(&it->second)) return value->name;
  if (const auto* value = std::get_if<std::string>(&it->second)) return *value;
  return "";
}

absl::StatusOr<std::vector<Value>> OperandValues(const Case& c) {
  if (std::string why; !LeavesMatchStructure(c, &why)) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": ", why));
  }
  std::vector<Value> values;
  size_t leaf = 0;
  for (const ValueType& type : c.OperandValueTypes()) {
    values.push_back(Value{type, type.is_tensor() ? c.operands[leaf++] : Tensor(), {}});
  }
  return values;
}

absl::StatusOr<std::vector<Tensor>> ResultTensors(const Case& c, std::vector<Value> values) {
  if (TypesOf(values) != c.ResultValueTypes()) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, ": the region's results do not have ", "the op's result types"));
  }
  std::vector<Tensor> tensors;
  for (Value& v : values) {
    if (v.type.is_tensor()) tensors.push_back(std::move(v.tensor));
  }
  return tensors;
}

}  // namespace hlocheck
