#include "adapters/faulty/program_faults.h"

#include <map>
#include <set>

#include "adapters/cpu/cpu_adapter.h"
#include "core/element_value.h"
#include "core/exact_value.h"
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
  // The functions @main calls hold f32 too, their signatures with them.
  for (Function& function : module.functions) {
    if (&function == main) continue;
    ValueId next = MaxValueId(function.body) + 1;
    HLOCHECK_RETURN_IF_ERROR(Widen(function.body, next));
    for (ValueType& type : function.type.inputs) type = Widened(type);
    for (ValueType& type : function.type.outputs) type = Widened(type);
  }
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

// A constant folder that evaluates float add, subtract, multiply and
// divide of constants in f64 and narrows the result by truncation (round
// toward zero) where the runtime kernel rounds to nearest: the folded and
// the compiled result of the same op differ.
absl::Status FoldConstantsTruncating(Module& module) {
  Function* main = const_cast<Function*>(module.Find("main"));
  if (main == nullptr || main->body.blocks.size() != 1) return absl::OkStatus();
  static const std::set<std::string> kFolded = {"stablehlo.add", "stablehlo.subtract",
                                                "stablehlo.multiply", "stablehlo.divide"};
  static CpuAdapter* const folder = new CpuAdapter(AdapterOptions(1));  // one pool, kept
  std::map<ValueId, Tensor> constants;
  for (Operation& op : main->body.blocks[0].operations) {
    if (op.name == "stablehlo.constant") {
      if (const Tensor* value = std::get_if<Tensor>(&op.attributes["value"])) {
        constants[op.results[0]] = *value;
      }
      continue;
    }
    if (!kFolded.count(op.name) || op.results.size() != 1 || !op.result_types[0].is_tensor()) {
      continue;
    }
    const ElementType type = op.result_types[0].element_type;
    if (type != ElementType::kF16 && type != ElementType::kBF16 && type != ElementType::kF32) {
      continue;
    }
    Case wide;
    wide.op = op.name.substr(10);
    bool all_constant = true;
    for (ValueId v : op.operands) {
      auto it = constants.find(v);
      if (it == constants.end()) {
        all_constant = false;
        break;
      }
      Tensor operand(it->second.shape(), ElementType::kF64);
      ConvertElements(type, it->second.raw(), ElementType::kF64, operand.raw(),
                      it->second.num_elements());
      wide.operands.push_back(std::move(operand));
    }
    if (!all_constant) continue;
    wide.result_types = {TensorType{op.result_types[0].shape, ElementType::kF64}};
    HLOCHECK_ASSIGN_OR_RETURN(std::vector<Tensor> folded, folder->Run(wide));
    Tensor narrow(op.result_types[0].tensor());
    ConvertElements(ElementType::kF64, folded[0].raw(), type, narrow.raw(), narrow.num_elements(),
                    nullptr, RoundingMode::kTowardZero);
    op.name = "stablehlo.constant";
    op.operands.clear();
    op.operand_types.clear();
    op.attributes = {{"value", narrow}};
    constants[op.results[0]] = std::move(narrow);
  }
  return absl::OkStatus();
}

// A backend that updates dynamic_update_slice's and scatter's operand in
// place although a later op still reads it: that op sees the updated value.
absl::Status UpdateInPlace(Module& module) {
  Function* main = const_cast<Function*>(module.Find("main"));
  if (main == nullptr || main->body.blocks.size() != 1) return absl::OkStatus();
  std::vector<Operation>& ops = main->body.blocks[0].operations;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].name != "stablehlo.dynamic_update_slice" || ops[i].results.size() != 1) continue;
    const ValueId operand = ops[i].operands[0];
    const ValueId updated = ops[i].results[0];
    for (size_t later = i + 1; later < ops.size(); ++later) {
      for (ValueId& v : ops[later].operands) {
        if (v == operand) v = updated;
      }
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
      {"faulty-program-fold-truncating",
       "folds float add, subtract, multiply and divide of constants in f64, narrowing by "
       "truncation (the folded result differs from the runtime kernel's)",
       FoldConstantsTruncating},
      {"faulty-program-update-in-place",
       "updates dynamic_update_slice's operand in place although later ops still read it",
       UpdateInPlace},
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
