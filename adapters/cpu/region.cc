#include "adapters/cpu/region.h"

#include <cstring>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adapters/region/tensor_region.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

constexpr char kReturn[] = "stablehlo.return";

// The op of `block` that defines `value`, or null (an argument, or undefined).
const Operation* DefiningOp(const Block& block, ValueId value) {
  for (const Operation& op : block.operations) {
    for (ValueId result : op.results) {
      if (result == value) return &op;
    }
  }
  return nullptr;
}

Combiner CombinerOf(const std::string& name) {
  if (name == "stablehlo.add") return Combiner::kAdd;
  if (name == "stablehlo.multiply") return Combiner::kMultiply;
  if (name == "stablehlo.maximum") return Combiner::kMaximum;
  if (name == "stablehlo.minimum") return Combiner::kMinimum;
  if (name == "stablehlo.and") return Combiner::kAnd;
  if (name == "stablehlo.or") return Combiner::kOr;
  if (name == "stablehlo.xor") return Combiner::kXor;
  return Combiner::kGeneral;
}

// Whether compare_type is the one compare uses for keys of `type`
// (TOTALORDER only for floats); complex keys are never fast.
bool CompareTypeFits(const std::string& compare_type, ElementType type, bool& total_order) {
  total_order = compare_type == "TOTALORDER";
  if (compare_type.empty()) return !IsComplex(type);
  if (IsFloat(type)) return compare_type == "FLOAT" || total_order;
  if (IsSignedInt(type)) return compare_type == "SIGNED";
  return (IsUnsignedInt(type) || IsBool(type)) && compare_type == "UNSIGNED";
}

bool IsScalarOf(const ValueType& type, const TensorType& scalar) {
  return type.is_tensor() && type.shape.empty() && type.element_type == scalar.element_type &&
         type.quantization == scalar.quantization;
}

std::string ScalarName(const TensorType& scalar) { return ValueType::Of(scalar).ToString(); }

std::vector<TensorType> Scalars(std::span<const ElementType> types) {
  std::vector<TensorType> scalars;
  for (ElementType type : types) scalars.emplace_back(Shape{}, type);
  return scalars;
}

}  // namespace

TensorType ScalarOf(const TensorType& type) {
  TensorType scalar(Shape{}, type.element_type);
  if (type.quantization && !type.quantization->quantization_dimension) {
    scalar.quantization = type.quantization;
  }
  return scalar;
}

std::vector<Combiner> ClassifyCombiners(const Region& region, size_t n) {
  std::vector<Combiner> kinds(n, Combiner::kGeneral);
  if (region.blocks.size() != 1) return kinds;
  const Block& block = region.blocks[0];
  if (block.arguments.size() != 2 * n || block.operations.empty()) return kinds;
  const Operation& terminator = block.operations.back();
  if (terminator.name != kReturn || terminator.operands.size() != n) return kinds;
  for (size_t i = 0; i < n; ++i) {
    const ValueId current = block.arguments[i];
    const ValueId update = block.arguments[n + i];
    const ValueId returned = terminator.operands[i];
    if (returned == current) {
      kinds[i] = Combiner::kKeep;
    } else if (returned == update) {
      kinds[i] = Combiner::kReplace;
    } else if (const Operation* op = DefiningOp(block, returned);
               op != nullptr && op->results.size() == 1 && op->operands.size() == 2 &&
               op->regions.empty()) {
      // All of them are commutative, so the operands may come in either order.
      const bool of_pair = (op->operands[0] == current && op->operands[1] == update) ||
                           (op->operands[0] == update && op->operands[1] == current);
      if (of_pair) kinds[i] = CombinerOf(op->name);
    }
  }
  return kinds;
}

KeyComparator ClassifyComparator(const Region& region, ElementType key_type) {
  const KeyComparator general;
  if (region.blocks.size() != 1) return general;
  const Block& block = region.blocks[0];
  if (block.arguments.size() < 2 || block.operations.size() != 2) return general;
  const Operation& compare = block.operations[0];
  const Operation& terminator = block.operations[1];
  if (compare.name != "stablehlo.compare" || compare.operands.size() != 2 ||
      compare.results.size() != 1 || terminator.name != kReturn ||
      terminator.operands.size() != 1 || terminator.operands[0] != compare.results[0]) {
    return general;
  }
  const ValueId lhs = block.arguments[0];
  const ValueId rhs = block.arguments[1];
  const bool forward = compare.operands[0] == lhs && compare.operands[1] == rhs;
  const bool backward = compare.operands[0] == rhs && compare.operands[1] == lhs;
  const std::string direction = EnumName(compare, "comparison_direction");
  KeyComparator key;
  if ((!forward && !backward) || (direction != "LT" && direction != "GT") ||
      !CompareTypeFits(EnumName(compare, "compare_type"), key_type, key.total_order)) {
    return general;
  }
  // compare(lhs, rhs) LT and compare(rhs, lhs) GT both say lhs < rhs.
  key.order = (direction == "LT") == forward ? KeyComparator::Order::kAscending
                                             : KeyComparator::Order::kDescending;
  return key;
}

absl::StatusOr<RegionEvaluator> RegionEvaluator::Create(const Region& region,
                                                        std::span<const ElementType> arguments,
                                                        std::span<const ElementType> results,
                                                        std::string what) {
  return Create(region, Scalars(arguments), Scalars(results), std::move(what));
}

absl::StatusOr<RegionEvaluator> RegionEvaluator::Create(const Region& region,
                                                        std::span<const TensorType> arguments,
                                                        std::span<const TensorType> results,
                                                        std::string what) {
  RegionEvaluator e;
  e.what_ = std::move(what);
  e.arguments_ = arguments.size();
  auto invalid = [&e](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat(e.what_, ": ", parts...));
  };
  if (region.blocks.size() != 1) return invalid("a region of ", region.blocks.size(), " blocks");
  const Block& block = region.blocks[0];
  if (block.arguments.size() != arguments.size() ||
      (!block.argument_types.empty() && block.argument_types.size() != arguments.size())) {
    return invalid("takes ", block.arguments.size(), " arguments, not ", arguments.size());
  }
  std::map<ValueId, size_t> slot_of;
  auto define = [&](ValueId id, Tensor value) {
    if (!slot_of.emplace(id, e.slots_.size()).second) return false;
    e.slots_.push_back(std::move(value));
    return true;
  };
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (!block.argument_types.empty() && !IsScalarOf(block.argument_types[i], arguments[i])) {
      return invalid("argument ", i, " is ", block.argument_types[i].ToString(), ", not ",
                     ScalarName(arguments[i]));
    }
    if (!define(block.arguments[i], Tensor(arguments[i]))) {
      return invalid("argument ", i, " is defined twice");
    }
  }
  if (block.operations.empty() || block.operations.back().name != kReturn) {
    return invalid("the body does not end in ", kReturn);
  }
  for (size_t k = 0; k + 1 < block.operations.size(); ++k) {
    const Operation& op = block.operations[k];
    if (op.name == kReturn) return invalid(kReturn, " before the end of the body");
    if (op.results.size() != op.result_types.size()) {
      return invalid(op.name, " has ", op.results.size(), " results but ", op.result_types.size(),
                     " result types");
    }
    Step step;
    for (ValueId operand : op.operands) {
      auto slot = slot_of.find(operand);
      if (slot == slot_of.end())
        return invalid(op.name, " uses %", operand, " before it is defined");
      step.operand_slots.push_back(slot->second);
    }
    for (const ValueType& type : op.result_types) {
      if (!type.is_tensor()) {
        e.support_ =
            AdapterSupport::No(absl::StrCat(e.what_, ": ", op.name, " with a ", type.ToString(),
                                            " result (only tensors are implemented)"));
        return e;
      }
    }
    if (op.name == "stablehlo.constant") {
      auto value = op.attributes.find("value");
      // A quantized constant's value holds its storage integers.
      if (value == op.attributes.end() || !std::holds_alternative<Tensor>(value->second) ||
          op.results.size() != 1 || op.result_types.size() != 1 ||
          std::get<Tensor>(value->second).shape() != op.result_types[0].shape ||
          std::get<Tensor>(value->second).element_type() != op.result_types[0].element_type) {
        return invalid("a stablehlo.constant without a dense value of its result type");
      }
      Tensor constant =
          Tensor::Reusing(op.result_types[0].tensor(), Tensor(std::get<Tensor>(value->second)));
      if (!define(op.results[0], std::move(constant))) {
        return invalid("%", op.results[0], " is defined twice");
      }
      continue;
    }
    step.entry = op.name.starts_with("stablehlo.") ? FindOp(op.name) : nullptr;
    if (step.entry == nullptr) {
      e.support_ = AdapterSupport::No(
          absl::StrCat(e.what_, " uses ", op.name, ", which this backend does not implement"));
      return e;
    }
    step.c.op = std::string(step.entry->name);
    for (size_t slot : step.operand_slots) step.c.operands.emplace_back(e.slots_[slot].type());
    for (const ValueType& type : op.result_types) step.c.result_types.push_back(type.tensor());
    step.c.attributes = op.attributes;
    step.c.regions = op.regions;
    // Quantized scalars take this backend's quantized ops (as the adapter
    // routes a quantized case).
    if (HasQuantizedTensor(step.c)) {
      if (const OpEntry* quantized = FindQuantizedOp(op.name.substr(10))) step.entry = quantized;
    }
    if (AdapterSupport support = SupportsCase(step.c); !support.supported) {
      e.support_ = AdapterSupport::No(absl::StrCat(e.what_, ": ", support.reason));
      return e;
    }
    for (size_t j = 0; j < op.results.size(); ++j) {
      step.result_slots.push_back(e.slots_.size());
      if (!define(op.results[j], Tensor(step.c.result_types[j]))) {
        return invalid("%", op.results[j], " is defined twice");
      }
    }
    e.steps_.push_back(std::move(step));
  }
  const Operation& terminator = block.operations.back();
  if (terminator.operands.size() != results.size()) {
    return invalid("returns ", terminator.operands.size(), " values, not ", results.size());
  }
  for (size_t j = 0; j < results.size(); ++j) {
    auto slot = slot_of.find(terminator.operands[j]);
    if (slot == slot_of.end()) {
      return invalid("returns %", terminator.operands[j], ", which is not defined");
    }
    const TensorType& type = e.slots_[slot->second].type();
    if (!IsScalarOf(ValueType::Of(type), results[j])) {
      return invalid("result ", j, " is ", ValueType::Of(type).ToString(), ", not ",
                     ScalarName(results[j]));
    }
    e.return_slots_.push_back(slot->second);
  }
  return e;
}

absl::Status RegionEvaluator::Evaluate(std::span<const void* const> arguments,
                                       std::span<void* const> results, const Device& device) {
  if (!support_.supported) return absl::UnimplementedError(support_.reason);
  if (arguments.size() != arguments_ || results.size() != return_slots_.size()) {
    return absl::InternalError(absl::StrCat(what_, ": evaluated with ", arguments.size(),
                                            " arguments and ", results.size(), " results"));
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    std::memcpy(slots_[i].raw(), arguments[i], slots_[i].bytes().size());
  }
  for (Step& step : steps_) {
    // The case's operands have the slots' types (Create made them so): only
    // the bytes change.
    for (size_t k = 0; k < step.operand_slots.size(); ++k) {
      const Tensor& value = slots_[step.operand_slots[k]];
      std::memcpy(step.c.operands[k].raw(), value.raw(), value.bytes().size());
    }
    absl::StatusOr<Results> values = step.entry->run(step.c, device);
    HLOCHECK_RETURN_IF_ERROR(values.status());
    if (values->size() != step.result_slots.size()) {
      return absl::InternalError(absl::StrCat(what_, ": ", step.c.op, " returned ", values->size(),
                                              " results, not ", step.result_slots.size()));
    }
    for (size_t j = 0; j < values->size(); ++j) {
      Tensor& slot = slots_[step.result_slots[j]];
      if ((*values)[j].type() != slot.type()) {
        return absl::InternalError(absl::StrCat(what_, ": ", step.c.op, " returned ",
                                                (*values)[j].type().ToString(), ", not ",
                                                slot.type().ToString()));
      }
      slot = std::move((*values)[j]);
    }
  }
  for (size_t j = 0; j < results.size(); ++j) {
    const Tensor& value = slots_[return_slots_[j]];
    std::memcpy(results[j], value.raw(), value.bytes().size());
  }
  return absl::OkStatus();
}

}  // namespace hlocheck::cpu
