#include "runners/program_shrink.h"

#include <algorithm>
#include <set>

#include "generators/program_generator.h"

namespace hlocheck {
namespace {

Block& MainBlock(Module& module) { return MainOf(module).body.blocks[0]; }

void UsedIn(const Region& region, std::set<ValueId>& used) {
  for (const Block& block : region.blocks) {
    for (const Operation& op : block.operations) {
      used.insert(op.operands.begin(), op.operands.end());
      for (const Region& inner : op.regions) UsedIn(inner, used);
    }
  }
}

// Keeps only output `keep` of @main.
ProgramUnderTest KeepOutput(const ProgramUnderTest& program, size_t keep) {
  ProgramUnderTest kept = program;
  Function& main = MainOf(kept.module);
  Operation& ret = MainBlock(kept.module).operations.back();
  ret.operands = {ret.operands[keep]};
  ret.operand_types = {ret.operand_types[keep]};
  main.type.outputs = ret.operand_types;
  RemoveDeadCode(kept);
  return kept;
}

// Op `index` of @main replaced by new arguments holding the oracle's values
// of its results; nullopt when the oracle has no value for one of them.
std::optional<ProgramUnderTest> Freeze(const ProgramUnderTest& program, size_t index,
                                       const ProgramReference& reference) {
  ProgramUnderTest frozen = program;
  Function& main = MainOf(frozen.module);
  Block& block = MainBlock(frozen.module);
  const Operation op = block.operations[index];
  for (size_t r = 0; r < op.results.size(); ++r) {
    auto facts = reference.values.find(op.results[r]);
    if (facts == reference.values.end() || !op.result_types[r].is_tensor()) return std::nullopt;
    block.arguments.push_back(op.results[r]);
    block.argument_types.push_back(op.result_types[r]);
    frozen.arguments.push_back(facts->second.value);
  }
  block.operations.erase(block.operations.begin() + static_cast<std::ptrdiff_t>(index));
  main.type.inputs = block.argument_types;
  RemoveDeadCode(frozen);
  return frozen;
}

// Op `index` of @main taken out, its result read from its operand
// `operand` instead: where the types agree, or where only @main's return
// reads the result (@main's result type then becomes the operand's).
std::optional<ProgramUnderTest> Bypass(const ProgramUnderTest& program, size_t index,
                                       size_t operand) {
  ProgramUnderTest bypassed = program;
  Function& main = MainOf(bypassed.module);
  Block& block = MainBlock(bypassed.module);
  const Operation op = block.operations[index];
  if (op.results.size() != 1 || operand >= op.operands.size() ||
      !op.operand_types[operand].is_tensor()) {
    return std::nullopt;
  }
  const ValueId result = op.results[0];
  const bool same_type = op.operand_types[operand] == op.result_types[0];
  for (size_t i = index + 1; i < block.operations.size(); ++i) {
    Operation& user = block.operations[i];
    const bool is_return = i + 1 == block.operations.size();
    for (size_t k = 0; k < user.operands.size(); ++k) {
      if (user.operands[k] != result) continue;
      if (!same_type && !is_return) return std::nullopt;
      user.operands[k] = op.operands[operand];
      user.operand_types[k] = op.operand_types[operand];
    }
    std::set<ValueId> nested;
    for (const Region& region : user.regions) UsedIn(region, nested);
    if (nested.count(result)) return std::nullopt;
  }
  block.operations.erase(block.operations.begin() + static_cast<std::ptrdiff_t>(index));
  main.type.outputs = block.operations.back().operand_types;
  RemoveDeadCode(bypassed);
  return bypassed;
}

// Argument `a` with the bytes of elements [begin, end) zeroed (0, +0.0,
// false: the simplest value of nearly every type); nullopt when they are
// zero already.
std::optional<ProgramUnderTest> Zeroed(const ProgramUnderTest& program, size_t a, int64_t begin,
                                       int64_t end) {
  const Tensor& tensor = program.arguments[a];
  const size_t bytes = static_cast<size_t>(ContainerBytes(tensor.element_type()));
  std::span<const std::byte> data = tensor.bytes();
  bool all_zero = true;
  for (size_t i = static_cast<size_t>(begin) * bytes; i < static_cast<size_t>(end) * bytes; ++i) {
    all_zero = all_zero && data[i] == std::byte{0};
  }
  if (all_zero) return std::nullopt;
  ProgramUnderTest zeroed = program;
  std::span<std::byte> target = zeroed.arguments[a].bytes();
  std::fill(target.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(begin) * bytes),
            target.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(end) * bytes),
            std::byte{0});
  return zeroed;
}

// Every value of the output's shape made a scalar, each argument holding
// its element `index`: for programs of elementwise ops, the one element
// that fails. Nullopt where an argument has another shape (the oracle
// rejects a candidate whose ops need the shape).
std::optional<ProgramUnderTest> OneElement(const ProgramUnderTest& program, int64_t index) {
  Function& main_in = const_cast<Function&>(MainOf(program.module));
  if (main_in.type.outputs.empty() || !main_in.type.outputs[0].is_tensor()) return std::nullopt;
  const Shape shape = main_in.type.outputs[0].shape;
  if (shape.empty()) return std::nullopt;
  ProgramUnderTest scalar = program;
  for (Tensor& argument : scalar.arguments) {
    if (argument.shape() != shape) return std::nullopt;
    TensorType type = argument.type();  // quantized or not
    type.shape = Shape{};
    Tensor element(type);
    const size_t bytes = static_cast<size_t>(ContainerBytes(argument.element_type()));
    std::copy_n(argument.bytes().begin() + static_cast<std::ptrdiff_t>(index * bytes), bytes,
                element.bytes().begin());
    argument = std::move(element);
  }
  auto scalarize = [&](ValueType& type) {
    if (type.is_tensor() && type.shape == shape) type.shape.clear();
  };
  Function& main = MainOf(scalar.module);
  for (ValueType& t : main.type.inputs) scalarize(t);
  for (ValueType& t : main.type.outputs) scalarize(t);
  Block& block = MainBlock(scalar.module);
  for (ValueType& t : block.argument_types) scalarize(t);
  for (Operation& op : block.operations) {
    if (!op.regions.empty()) return std::nullopt;
    for (ValueType& t : op.operand_types) scalarize(t);
    for (ValueType& t : op.result_types) scalarize(t);
  }
  return scalar;
}

bool MovesDataOnly(const Operation& op) {
  return op.name == "stablehlo.reshape" || op.name == "stablehlo.broadcast_in_dim" ||
         op.name == "stablehlo.slice" || op.name == "stablehlo.transpose" ||
         op.name == "stablehlo.reverse";
}

// Data movement D (reshape, broadcast_in_dim, slice, transpose, reverse)
// whose only reader is an op U that reads nothing else and keeps its
// operand's shape (convert(r), negate(r), subtract(r, r), ...): U applied
// first, then D. Repeated, data movement
// sinks towards the outputs, where a bypass takes it out.
std::optional<ProgramUnderTest> SinkDataMovement(const ProgramUnderTest& program, size_t index) {
  ProgramUnderTest sunk = program;
  Block& block = MainBlock(sunk.module);
  const Operation d = block.operations[index];
  if (!MovesDataOnly(d) || d.results.size() != 1 || !d.operand_types[0].is_tensor()) {
    return std::nullopt;
  }
  // Every read of D's result is an operand of one op U, all of whose
  // operands it is (negate(r), subtract(r, r), ...).
  size_t reader = 0;
  std::set<size_t> readers;
  for (size_t i = 0; i < block.operations.size(); ++i) {
    for (ValueId v : block.operations[i].operands) {
      if (v == d.results[0]) {
        readers.insert(i);
        reader = i;
      }
    }
  }
  if (readers.size() != 1 || reader + 1 == block.operations.size()) return std::nullopt;
  const Operation u = block.operations[reader];
  bool only_r = !u.operands.empty();
  for (ValueId v : u.operands) only_r = only_r && v == d.results[0];
  if (!only_r || u.results.size() != 1 || !u.regions.empty() || !u.result_types[0].is_tensor() ||
      u.result_types[0].shape != u.operand_types[0].shape) {
    return std::nullopt;
  }
  const ValueId fresh = MaxValueId(MainOf(sunk.module).body) + 1;
  Operation first = u;  // U on D's operand
  for (ValueId& v : first.operands) v = d.operands[0];
  for (ValueType& t : first.operand_types) t = d.operand_types[0];
  first.results = {fresh};
  first.result_types = {u.result_types[0]};
  first.result_types[0].shape = d.operand_types[0].shape;
  Operation then = d;  // D on U's result, giving U's value
  then.operands = {fresh};
  then.operand_types = {first.result_types[0]};
  then.results = u.results;
  then.result_types = u.result_types;
  block.operations[reader] = then;
  block.operations.insert(block.operations.begin() + static_cast<std::ptrdiff_t>(reader), first);
  block.operations.erase(block.operations.begin() + static_cast<std::ptrdiff_t>(index));
  return sunk;
}

}  // namespace

int OpCount(const Module& module) {
  return static_cast<int>(MainOf(module).body.blocks[0].operations.size()) - 1;
}

void RemoveDeadCode(ProgramUnderTest& program) {
  Function& main = MainOf(program.module);
  Block& block = MainBlock(program.module);
  for (bool changed = true; changed;) {
    changed = false;
    std::set<ValueId> used;
    UsedIn(main.body, used);
    for (size_t i = block.operations.size() - 1; i-- > 0;) {
      const Operation& op = block.operations[i];
      bool live = false;
      for (ValueId v : op.results) live = live || used.count(v) > 0;
      if (!live) {
        block.operations.erase(block.operations.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
      }
    }
  }
  std::set<ValueId> used;
  UsedIn(main.body, used);
  for (size_t a = block.arguments.size(); a-- > 0;) {
    if (used.count(block.arguments[a])) continue;
    block.arguments.erase(block.arguments.begin() + static_cast<std::ptrdiff_t>(a));
    block.argument_types.erase(block.argument_types.begin() + static_cast<std::ptrdiff_t>(a));
    program.arguments.erase(program.arguments.begin() + static_cast<std::ptrdiff_t>(a));
  }
  main.type.inputs = block.argument_types;
}

ShrunkProgram ShrinkProgram(ProgramUnderTest failing, ProgramTrial trial, const ProgramTrialFn& run,
                            int max_attempts) {
  ShrunkProgram shrunk{std::move(failing), std::move(trial), 0, 0};
  // A candidate keeps the program's boundary plain, as the generator
  // draws it: a frozen quantized value made an argument, or a bypass that
  // returns one, would fail on a compiler that takes none there (XLA) for
  // a reason of its own.
  auto plain_boundary = [](const ProgramUnderTest& candidate) {
    const FunctionType& type = MainOf(candidate.module).type;
    for (const auto* types : {&type.inputs, &type.outputs}) {
      for (const ValueType& t : *types) {
        if (t.is_quantized() || !t.is_tensor()) return false;
      }
    }
    return true;
  };
  auto still_fails = [&](const ProgramUnderTest& candidate) {
    if (shrunk.attempts >= max_attempts || !plain_boundary(candidate)) return false;
    ++shrunk.attempts;
    ProgramTrial t = run(candidate);
    if (!t.reference.ok() || !SameFailure(t.outcome, shrunk.trial.outcome)) return false;
    shrunk.program = candidate;
    shrunk.trial = std::move(t);
    ++shrunk.steps;
    return true;
  };
  // One output: the first that shows the failure alone.
  const size_t outputs = MainBlock(shrunk.program.module).operations.back().operands.size();
  if (outputs > 1) {
    for (size_t keep = 0; keep < outputs; ++keep) {
      const auto& unexpected = shrunk.trial.outcome.unexpected;
      if (!unexpected.empty() && (keep >= unexpected.size() || unexpected[keep] == 0)) continue;
      if (still_fails(KeepOutput(shrunk.program, keep))) break;
    }
  }
  // Outputs dropped one at a time, where the failure needs more than one
  // (an op that changes a value another output reads).
  for (size_t drop = 0; MainBlock(shrunk.program.module).operations.back().operands.size() > 1 &&
                        drop < MainBlock(shrunk.program.module).operations.back().operands.size() &&
                        shrunk.attempts < max_attempts;) {
    ProgramUnderTest fewer = shrunk.program;
    Operation& ret = MainBlock(fewer.module).operations.back();
    ret.operands.erase(ret.operands.begin() + static_cast<std::ptrdiff_t>(drop));
    ret.operand_types.erase(ret.operand_types.begin() + static_cast<std::ptrdiff_t>(drop));
    MainOf(fewer.module).type.outputs = ret.operand_types;
    RemoveDeadCode(fewer);
    if (!still_fails(fewer)) ++drop;
  }
  // Freeze ops, earliest first, until no freeze keeps the failure.
  for (bool progress = true; progress && shrunk.attempts < max_attempts;) {
    progress = false;
    for (size_t i = 0; i + 1 < MainBlock(shrunk.program.module).operations.size(); ++i) {
      if (!shrunk.trial.reference.ok()) break;
      auto frozen = Freeze(shrunk.program, i, *shrunk.trial.reference);
      if (frozen && still_fails(*frozen)) {
        progress = true;
        --i;  // the op now at i is another one (wraps to the start at 0)
      }
      if (shrunk.attempts >= max_attempts) break;
    }
    // Data movement sunk past the one-operand op that reads it.
    for (size_t i = 0; i + 1 < MainBlock(shrunk.program.module).operations.size() &&
                       shrunk.attempts < max_attempts;
         ++i) {
      auto sunk = SinkDataMovement(shrunk.program, i);
      if (sunk && still_fails(*sunk)) progress = true;
    }
    // Ops taken out, their results read from an operand (a broadcast, a
    // convert or an add that only carries the failure along).
    for (size_t i = 0; i + 1 < MainBlock(shrunk.program.module).operations.size(); ++i) {
      const size_t operands = MainBlock(shrunk.program.module).operations[i].operands.size();
      for (size_t k = 0; k < operands && shrunk.attempts < max_attempts; ++k) {
        auto bypassed = Bypass(shrunk.program, i, k);
        if (bypassed && still_fails(*bypassed)) {
          progress = true;
          break;
        }
      }
    }
  }
  // One element, where the program computes element by element.
  const std::vector<ResultComparison> comparisons = shrunk.trial.outcome.comparisons;
  size_t output = 0;  // the first that shows a mismatch
  while (output < comparisons.size() && comparisons[output].first_mismatches.empty()) ++output;
  if (output < comparisons.size() && shrunk.attempts < max_attempts) {
    const int64_t element = comparisons[output].first_mismatches[0].index;
    auto scalar = output == 0 ? OneElement(shrunk.program, element) : std::nullopt;
    if (!(scalar && still_fails(*scalar))) {
      // Else every value cut down to what the failing element reads, and
      // the slices that leaves taken out where the failure allows.
      // Every output to one element (its first mismatch, else its first),
      // else the failing one alone.
      std::vector<std::optional<int64_t>> each(comparisons.size(), int64_t{0});
      std::vector<std::optional<int64_t>> one(comparisons.size(), std::nullopt);
      for (size_t k = 0; k < comparisons.size(); ++k) {
        if (!comparisons[k].first_mismatches.empty())
          each[k] = comparisons[k].first_mismatches[0].index;
      }
      one[output] = element;
      auto cut = ShrinkShapes(shrunk.program, each);
      bool kept = cut && still_fails(*cut);
      if (!kept && comparisons.size() > 1 && (cut = ShrinkShapes(shrunk.program, one))) {
        kept = still_fails(*cut);
      }
      if (kept) {
        for (size_t i = 0; i + 1 < MainBlock(shrunk.program.module).operations.size() &&
                           shrunk.attempts < max_attempts;
             ++i) {
          if (MainBlock(shrunk.program.module).operations[i].name != "stablehlo.slice") continue;
          auto bypassed = Bypass(shrunk.program, i, 0);
          if (bypassed && still_fails(*bypassed)) --i;
        }
      }
    }
  }
  // Simpler data: each argument zeroed as a whole, else in halves, down to
  // chunks of 1/16 of it (or single elements), while the failure stays.
  for (size_t a = 0; a < shrunk.program.arguments.size(); ++a) {
    const int64_t n = shrunk.program.arguments[a].num_elements();
    const int64_t smallest = std::max<int64_t>(1, n / 16);
    std::vector<std::pair<int64_t, int64_t>> ranges = {{0, n}};
    while (!ranges.empty() && shrunk.attempts < max_attempts) {
      const auto [begin, end] = ranges.back();
      ranges.pop_back();
      if (begin >= end) continue;
      auto zeroed = Zeroed(shrunk.program, a, begin, end);
      if (!zeroed || still_fails(*zeroed)) continue;
      if (end - begin <= smallest) continue;
      const int64_t middle = begin + (end - begin) / 2;
      ranges.push_back({middle, end});
      ranges.push_back({begin, middle});
    }
  }
  return shrunk;
}

}  // namespace hlocheck
