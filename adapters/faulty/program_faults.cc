#include "adapters/faulty/program_faults.h"

#include "core/element_value.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace {

ValueType Widened(ValueType type) {
  if (type.is_tensor() && !type.is_quantized() && type.element_type == ElementType::kBF16) {
    type.element_type = ElementType::kF32;
  }
  for (ValueType& element : type.elements) element = Widened(element);
  return type;
}

Tensor Widened(const Tensor& tensor) {
  if (tensor.element_type() != ElementType::kBF16) return tensor;
  Tensor wide(tensor.shape(), ElementType::kF32);
  ConvertElements(ElementType::kBF16, tensor.raw(), ElementType::kF32, wide.raw(),
                  tensor.num_elements());
  return wide;
}

Operation Convert(ValueId from, const ValueType& from_type, ValueId to, const ValueType& to_type);

// Widens every bf16 value of `region` to f32. A bitcast_convert keeps its
// bf16 types (its bits are the point) between converts.
absl::Status Widen(Region& region, ValueId& next) {
  for (Block& block : region.blocks) {
    for (ValueType& type : block.argument_types) type = Widened(type);
    for (size_t i = 0; i < block.operations.size(); ++i) {
      Operation& op = block.operations[i];
      if (op.name == "stablehlo.bitcast_convert") {
        const ValueType in = op.operand_types[0], out = op.result_types[0];
        std::vector<Operation> before, after;
        if (Widened(in) != in) {
          before.push_back(Convert(op.operands[0], Widened(in), next, in));
          op.operands[0] = next++;
        }
        if (Widened(out) != out) {
          after.push_back(Convert(next, out, op.results[0], Widened(out)));
          op.results[0] = next++;
        }
        block.operations.insert(block.operations.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                after.begin(), after.end());
        block.operations.insert(block.operations.begin() + static_cast<std::ptrdiff_t>(i),
                                before.begin(), before.end());
        i += before.size() + after.size();
        continue;
      }
      for (ValueType& type : op.operand_types) type = Widened(type);
      for (ValueType& type : op.result_types) type = Widened(type);
      for (auto& [name, attribute] : op.attributes) {
        if (const Tensor* t = std::get_if<Tensor>(&attribute)) attribute = Widened(*t);
      }
      for (Region& inner : op.regions) HLOCHECK_RETURN_IF_ERROR(Widen(inner, next));
    }
  }
  return absl::OkStatus();
}

Operation Convert(ValueId from, const ValueType& from_type, ValueId to, const ValueType& to_type) {
  Operation op;
  op.name = "stablehlo.convert";
  op.operands = {from};
  op.operand_types = {from_type};
  op.results = {to};
  op.result_types = {to_type};
  return op;
}

// A fusing compiler that keeps bf16 values in f32 registers from one op to
// the next and rounds to bf16 only at the program's boundary: every single
// op is still correctly rounded (f32 holds more than twice bf16's
// precision), but a chain is computed in f32.
absl::Status KeepBf16InF32(Module& module) {
  Function* main = const_cast<Function*>(module.Find("main"));
  if (main == nullptr || main->body.blocks.size() != 1) return absl::OkStatus();
  ValueId next = MaxValueId(main->body) + 1;
  HLOCHECK_RETURN_IF_ERROR(Widen(main->body, next));
  Block& block = main->body.blocks[0];
  std::vector<Operation> entry;
  for (size_t i = 0; i < block.arguments.size(); ++i) {
    const ValueType& declared = main->type.inputs[i];
    if (declared == block.argument_types[i]) continue;
    entry.push_back(Convert(next, declared, block.arguments[i], block.argument_types[i]));
    block.arguments[i] = next++;
    block.argument_types[i] = declared;
  }
  block.operations.insert(block.operations.begin(), entry.begin(), entry.end());
  Operation& ret = block.operations.back();
  std::vector<Operation> exit;
  for (size_t i = 0; i < ret.operands.size(); ++i) {
    const ValueType& declared = main->type.outputs[i];
    if (declared == ret.operand_types[i]) continue;
    exit.push_back(Convert(ret.operands[i], ret.operand_types[i], next, declared));
    ret.operands[i] = next++;
    ret.operand_types[i] = declared;
  }
  block.operations.insert(block.operations.end() - 1, exit.begin(), exit.end());
  return absl::OkStatus();
}

// An algebraic simplifier that folds x - x to 0, forgetting that
// inf - inf and NaN - NaN are NaN.
absl::Status FoldSelfSubtraction(Region& region) {
  for (Block& block : region.blocks) {
    for (Operation& op : block.operations) {
      for (Region& inner : op.regions) HLOCHECK_RETURN_IF_ERROR(FoldSelfSubtraction(inner));
      if (op.name != "stablehlo.subtract" || op.operands.size() != 2 ||
          op.operands[0] != op.operands[1] || !op.result_types[0].is_tensor()) {
        continue;
      }
      op.name = "stablehlo.constant";
      op.operands.clear();
      op.operand_types.clear();
      op.attributes = {{"value", Tensor(op.result_types[0].tensor())}};
    }
  }
  return absl::OkStatus();
}

}  // namespace

const std::vector<ProgramFault>& ProgramFaults() {
  static const auto* faults = new std::vector<ProgramFault>{
      {"faulty-program-bf16-in-f32",
       "keeps bf16 values in f32 between ops, rounding only at @main's boundary (excess precision "
       "in a fused chain)",
       KeepBf16InF32},
      {"faulty-program-fold-self-subtract",
       "folds subtract(x, x) to zeros (wrong for inf and NaN: an algebraic simplifier's bug)",
       [](Module& module) -> absl::Status {
         for (Function& f : module.functions) HLOCHECK_RETURN_IF_ERROR(FoldSelfSubtraction(f.body));
         return absl::OkStatus();
       }},
  };
  return *faults;
}

const ProgramFault* FindProgramFault(const std::string& name) {
  for (const ProgramFault& fault : ProgramFaults()) {
    if (fault.name == name) return &fault;
  }
  return nullptr;
}

}  // namespace hlocheck
