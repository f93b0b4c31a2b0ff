#include "runners/program_variants.h"

#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "generators/program_generator.h"

namespace hlocheck {
namespace {

Block& MainBlock(Module& module) {
  return const_cast<Function*>(module.Find("main"))->body.blocks[0];
}

Operation MakeOp(std::string name, std::vector<ValueId> operands,
                 std::vector<ValueType> operand_types, std::vector<ValueId> results,
                 std::vector<ValueType> result_types,
                 std::map<std::string, Attribute> attributes = {}) {
  Operation op;
  op.name = std::move(name);
  op.operands = std::move(operands);
  op.operand_types = std::move(operand_types);
  op.results = std::move(results);
  op.result_types = std::move(result_types);
  op.attributes = std::move(attributes);
  return op;
}

Operation Constant(ValueId result, Tensor value) {
  const ValueType type = ValueType::Of(value.type());
  return MakeOp("stablehlo.constant", {}, {}, {result}, {type}, {{"value", std::move(value)}});
}

// A tensor of `type` whose every element is `value` (exactly representable).
Tensor Filled(const TensorType& type, double value) {
  Tensor wide(type.shape, ElementType::kF64);
  for (double& x : wide.data<double>()) x = value;
  Tensor filled(type);
  ConvertElements(ElementType::kF64, wide.raw(), type.element_type, filled.raw(),
                  type.num_elements());
  return filled;
}

// Every use of `from` in the ops after position `after` (the terminator
// included) reads `to` instead.
void ReplaceUses(Block& block, size_t after, ValueId from, ValueId to) {
  for (size_t i = after + 1; i < block.operations.size(); ++i) {
    for (ValueId& v : block.operations[i].operands) {
      if (v == from) v = to;
    }
  }
}

ProgramVariant Constants(const Module& module, const std::vector<Tensor>& arguments) {
  return {"constants",
          "every argument folded in as a stablehlo.constant",
          WithConstantArguments(module, arguments),
          {}};
}

ProgramVariant Barriers(const Module& module, const std::vector<Tensor>& arguments) {
  ProgramVariant variant{"barriers", "an optimization_barrier after every op", module, arguments};
  Block& block = MainBlock(variant.module);
  ValueId next = MaxValueId(MainOf(variant.module).body) + 1;
  std::vector<Operation> ops;
  std::map<ValueId, ValueId> renamed;
  for (Operation op : block.operations) {
    for (ValueId& v : op.operands) {
      if (auto it = renamed.find(v); it != renamed.end()) v = it->second;
    }
    // Not after a tuple or a per-axis quantized value: optimization_barrier
    // takes tensors, per-tensor quantized tensors and tokens.
    bool barrier = op.name != "func.return" && !op.results.empty();
    for (const ValueType& t : op.result_types) {
      barrier = barrier && t.kind != ValueType::Kind::kTuple &&
                !(t.quantization && t.quantization->quantization_dimension);
    }
    ops.push_back(op);
    if (!barrier) continue;
    std::vector<ValueId> fresh;
    for (ValueId v : op.results) {
      fresh.push_back(next);
      renamed[v] = next++;
    }
    ops.push_back(MakeOp("stablehlo.optimization_barrier", op.results, op.result_types, fresh,
                         op.result_types));
  }
  block.operations = std::move(ops);
  return variant;
}

ProgramVariant Reordered(const Module& module, const std::vector<Tensor>& arguments,
                         uint64_t seed) {
  ProgramVariant variant{"reordered", "the ops in another topological order", module, arguments};
  Block& block = MainBlock(variant.module);
  const size_t n = block.operations.size() - 1;  // the return stays last
  std::map<ValueId, size_t> defined_by;
  for (size_t i = 0; i < n; ++i) {
    for (ValueId v : block.operations[i].results) defined_by[v] = i;
  }
  std::vector<std::set<size_t>> waits_for(n);
  for (size_t i = 0; i < n; ++i) {
    for (ValueId v : block.operations[i].operands) {
      if (auto it = defined_by.find(v); it != defined_by.end()) waits_for[i].insert(it->second);
    }
  }
  std::mt19937_64 random(seed);
  std::vector<bool> placed(n, false);
  std::vector<Operation> ops;
  for (size_t round = 0; round < n; ++round) {
    std::vector<size_t> ready;
    for (size_t i = 0; i < n; ++i) {
      if (placed[i]) continue;
      bool free = true;
      for (size_t w : waits_for[i]) free = free && placed[w];
      if (free) ready.push_back(i);
    }
    const size_t pick = ready[random() % ready.size()];
    placed[pick] = true;
    ops.push_back(block.operations[pick]);
  }
  ops.push_back(block.operations.back());
  block.operations = std::move(ops);
  return variant;
}

// Whether x -> x * 2^k -> (x * 2^k) * 2^-k gives x back bit for bit for
// every element of `facts`: each is fixed by the spec, finite, zero or
// normal, and stays finite and normal when scaled up.
bool ScalesExactly(const ValueFacts& facts, int k) {
  const ElementType type = facts.value.element_type();
  if (type != ElementType::kF16 && type != ElementType::kBF16 && type != ElementType::kF32 &&
      type != ElementType::kF64) {
    return false;
  }
  for (uint8_t d : facts.determined) {
    if (!d) return false;
  }
  const FloatFormat& format = Format(type);
  const double largest = DecodeFloat(format, format.max_finite_bits()).ToDouble();
  const double smallest_normal = std::ldexp(1.0, format.min_normal_exponent());
  const size_t bytes = static_cast<size_t>(ContainerBytes(type));
  for (int64_t i = 0; i < facts.value.num_elements(); ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, facts.value.bytes().data() + static_cast<size_t>(i) * bytes, bytes);
    const double x = std::fabs(DecodeFloat(format, bits).ToDouble());
    if (IsNaNBits(format, bits) || std::isinf(x)) return false;
    if (x == 0) continue;
    if (x < smallest_normal || std::ldexp(x, k) > largest) return false;
  }
  return true;
}

// One identity at `value` (defined by op `at`, or an argument when `at` is
// the block's size): the chain's ops are inserted after it and every later
// use reads the chain's end. Returns what it did, "" when none applies.
std::string Rewrite(Block& block, size_t at, ValueId value, const ValueType& type,
                    const ValueFacts* facts, ValueId& next, std::mt19937_64& random) {
  const TensorType t = type.tensor();
  std::vector<Operation> chain;
  std::string what;
  ValueId end = value;
  switch (random() % 4) {
    case 0: {
      if (t.rank() < 2) return "";
      std::vector<int64_t> permutation(static_cast<size_t>(t.rank()));
      std::iota(permutation.begin(), permutation.end(), 0);
      std::shuffle(permutation.begin(), permutation.end(), random);
      std::vector<int64_t> inverse(permutation.size());
      Shape permuted;
      for (size_t d = 0; d < permutation.size(); ++d) {
        inverse[static_cast<size_t>(permutation[d])] = static_cast<int64_t>(d);
        permuted.push_back(t.shape[static_cast<size_t>(permutation[d])]);
      }
      const ValueType middle = ValueType::Of(TensorType{permuted, t.element_type});
      chain.push_back(MakeOp("stablehlo.transpose", {value}, {type}, {next}, {middle},
                             {{"permutation", permutation}}));
      chain.push_back(MakeOp("stablehlo.transpose", {next}, {middle}, {next + 1}, {type},
                             {{"permutation", inverse}}));
      end = next + 1;
      next += 2;
      what = "transpose then its inverse";
      break;
    }
    case 1: {
      const Shape flat = t.rank() == 1 ? Shape{1, t.shape[0]} : Shape{t.num_elements()};
      const ValueType middle = ValueType::Of(TensorType{flat, t.element_type});
      chain.push_back(MakeOp("stablehlo.reshape", {value}, {type}, {next}, {middle}));
      chain.push_back(MakeOp("stablehlo.reshape", {next}, {middle}, {next + 1}, {type}));
      end = next + 1;
      next += 2;
      what = "reshape round trip";
      break;
    }
    case 2: {
      const bool predicate = random() % 2 == 0;
      Tensor p(Shape{}, ElementType::kI1);
      std::memset(p.raw(), predicate ? 1 : 0, 1);
      const ValueType pred_type = ValueType::Of(p.type());
      chain.push_back(Constant(next, std::move(p)));
      chain.push_back(Constant(next + 1, Tensor(t)));  // zeros: the branch not taken
      std::vector<ValueId> operands = predicate ? std::vector<ValueId>{next, value, next + 1}
                                                : std::vector<ValueId>{next, next + 1, value};
      chain.push_back(
          MakeOp("stablehlo.select", operands, {pred_type, type, type}, {next + 2}, {type}));
      end = next + 2;
      next += 3;
      what = std::string("select with a constant ") + (predicate ? "true" : "false");
      break;
    }
    default: {
      const int k = 1 + static_cast<int>(random() % 3);
      if (facts == nullptr || !ScalesExactly(*facts, k)) return "";
      chain.push_back(Constant(next, Filled(t, std::ldexp(1.0, k))));
      chain.push_back(Constant(next + 1, Filled(t, std::ldexp(1.0, -k))));
      chain.push_back(
          MakeOp("stablehlo.multiply", {value, next}, {type, type}, {next + 2}, {type}));
      chain.push_back(
          MakeOp("stablehlo.multiply", {next + 2, next + 1}, {type, type}, {next + 3}, {type}));
      end = next + 3;
      next += 4;
      what = "multiply by 2^" + std::to_string(k) + " then 2^-" + std::to_string(k);
      break;
    }
  }
  const size_t insert_at = at == block.operations.size() ? 0 : at + 1;
  block.operations.insert(block.operations.begin() + static_cast<std::ptrdiff_t>(insert_at),
                          chain.begin(), chain.end());
  ReplaceUses(block, insert_at + chain.size() - 1, value, end);
  return what;
}

ProgramVariant Rewritten(const Module& module, const std::vector<Tensor>& arguments,
                         const ProgramReference& reference, uint64_t seed) {
  ProgramVariant variant{"rewritten", "", module, arguments};
  Block& block = MainBlock(variant.module);
  ValueId next = MaxValueId(MainOf(variant.module).body) + 1;
  std::mt19937_64 random(seed);
  const int wanted = 1 + static_cast<int>(random() % 3);
  int done = 0;
  for (int attempt = 0; attempt < 20 && done < wanted; ++attempt) {
    // A value: an argument or an op's tensor result.
    std::vector<std::pair<size_t, size_t>> candidates;  // (op or block size, result)
    for (size_t a = 0; a < block.arguments.size(); ++a) {
      if (block.argument_types[a].is_tensor()) candidates.push_back({block.operations.size(), a});
    }
    for (size_t i = 0; i + 1 < block.operations.size(); ++i) {
      for (size_t r = 0; r < block.operations[i].results.size(); ++r) {
        if (block.operations[i].result_types[r].is_tensor()) candidates.push_back({i, r});
      }
    }
    if (candidates.empty()) break;
    const auto [at, index] = candidates[random() % candidates.size()];
    const bool argument = at == block.operations.size();
    const ValueId value = argument ? block.arguments[index] : block.operations[at].results[index];
    const ValueType type =
        argument ? block.argument_types[index] : block.operations[at].result_types[index];
    if (type.is_quantized()) continue;
    auto facts = reference.values.find(value);
    const std::string what =
        Rewrite(block, at, value, type, facts == reference.values.end() ? nullptr : &facts->second,
                next, random);
    if (what.empty()) continue;
    variant.description +=
        (variant.description.empty() ? "" : "; ") + what + " at %" + std::to_string(value);
    ++done;
  }
  if (done == 0) variant.description = "";
  return variant;
}

}  // namespace

const std::vector<std::string>& ProgramRelations() {
  static const auto* relations =
      new std::vector<std::string>{"constants", "barriers", "reordered", "rewritten"};
  return *relations;
}

Module WithConstantArguments(const Module& module, const std::vector<Tensor>& arguments) {
  Module folded = module;
  Function& main = const_cast<Function&>(*folded.Find("main"));
  Block& block = main.body.blocks[0];
  std::vector<Operation> constants;
  for (size_t i = 0; i < block.arguments.size() && i < arguments.size(); ++i) {
    constants.push_back(Constant(block.arguments[i], arguments[i]));
  }
  block.operations.insert(block.operations.begin(), constants.begin(), constants.end());
  block.arguments.clear();
  block.argument_types.clear();
  main.type.inputs.clear();
  return folded;
}

absl::StatusOr<ProgramVariant> MakeVariant(const std::string& relation, const Module& module,
                                           const std::vector<Tensor>& arguments,
                                           const ProgramReference& reference, uint64_t seed) {
  if (module.Find("main") == nullptr) return absl::InvalidArgumentError("no @main");
  if (relation == "constants") return Constants(module, arguments);
  if (relation == "barriers") return Barriers(module, arguments);
  if (relation == "reordered") return Reordered(module, arguments, seed);
  if (relation == "rewritten") return Rewritten(module, arguments, reference, seed);
  return absl::InvalidArgumentError("unknown relation '" + relation +
                                    "'; known: constants, barriers, reordered, rewritten");
}

}  // namespace hlocheck
