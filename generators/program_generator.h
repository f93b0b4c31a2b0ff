// Random multi-op StableHLO programs, built from the same YAML recipes as
// single-op cases: each op of a program is a case the op's recipe draws,
// and its operands are wired to the results of earlier ops where a type
// fits (or can be made to fit with convert, real, reshape, slice and
// broadcast_in_dim), else to new arguments holding the case's own data.
// Programs are typed DAGs: values used by several ops, results that are
// also outputs, region bodies (reduce, sort, scatter, while, ...) that call
// other ops. What compilers do across ops (fusion, algebraic rewrites,
// constant folding, layout changes) is what these reach and single ops
// never do.
#ifndef HLOCHECK_GENERATORS_PROGRAM_GENERATOR_H_
#define HLOCHECK_GENERATORS_PROGRAM_GENERATOR_H_

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/program.h"
#include "core/tensor.h"
#include "spec/registry.h"

namespace hlocheck {

struct ProgramOptions {
  // How many ops the recipes draw (the adaptation ops come on top).
  int min_ops = 2;
  int max_ops = 30;
  int64_t max_elements = 256;  // per tensor
  int max_rank = 4;
  // The ops to draw from; empty: ProgramOps(registry).
  std::vector<std::string> ops;
  // Whether the backend takes `op` with this first-operand element type
  // (its profile's unsupported entries); null: every one.
  std::function<bool(const std::string& op, ElementType type)> op_allowed;
  // The element types every value of the program has (empty: any): a
  // campaign after fusion bugs leaves out the types whose single ops a
  // backend already gets wrong.
  std::set<ElementType> element_types;
  // Whether a tensor of this element type may cross @main's boundary (an
  // argument or a result); null: every type.
  std::function<bool(ElementType type)> transferable;
  // Whether values may be quantized (where the op's recipe draws them):
  // uniform_quantize makes them from float values, uniform_dequantize
  // turns them back where a reader needs plain values.
  bool quantized = true;
  // Whether the backend takes `op` on quantized tensors (its profile's
  // unsupported entries); null: every op.
  std::function<bool(const std::string& op)> quantized_allowed;
  // The chance that an operand comes from an earlier value rather than a
  // new argument, and that a value used by later ops is also an output.
  double reuse = 0.8;
  double extra_output = 0.15;
  // The chance that one op of the program moves into a function @main
  // calls (func.call).
  double call = 0.1;
};

struct GeneratedProgram {
  Module module;  // one public function, @main
  std::vector<Tensor> arguments;
  std::vector<std::string> drawn_ops;  // the ops the recipes drew, in order
  int adaptation_ops = 0;              // convert, reshape, ... added to wire them
};

// The ops a program may draw: every op of the spec that computes on
// tensors (plain or quantized) in one process. Left out, with the reason in
// the source: ops on tokens and tuples, transfers, the collectives (a
// process grid), rng (a distribution, not values), call and custom_call.
std::vector<std::string> ProgramOps(const spec::SpecRegistry& registry);

// One program, deterministically: the same seed and options give the same
// program on every machine. Errors: no op of `options.ops` could be drawn.
absl::StatusOr<GeneratedProgram> GenerateProgram(const spec::SpecRegistry& registry,
                                                 const ProgramOptions& options, uint64_t seed);

// The @main of a generated (or shrunk) program.
const Function& MainOf(const Module& module);
Function& MainOf(Module& module);

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_PROGRAM_GENERATOR_H_
