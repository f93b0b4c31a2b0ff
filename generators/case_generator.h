// Random valid cases for any op, built by one engine from the op's YAML
// recipe: the recipe's formulas run in the spec's notation, with random
// choice functions (gen_shape, gen_int, gen_permutation, ...) that draw from
// RapidCheck, so every choice shrinks.
#ifndef HLOCHECK_GENERATORS_CASE_GENERATOR_H_
#define HLOCHECK_GENERATORS_CASE_GENERATOR_H_

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/program.h"
#include "generators/data.h"
#include "rapidcheck.h"
#include "spec/instance.h"
#include "spec/op_spec.h"

namespace hlocheck {

struct GenerationOptions {
  // The element type of the op's first operand (its first result when it has
  // no operands); any type it accepts if unset.
  std::optional<ElementType> primary_type;
  int max_rank = 6;
  int64_t max_elements = 4096;  // per tensor
  std::vector<DataPolicy> data_policies = AllDataPolicies();
  // Without data only the instance is built (types, attributes, regions):
  // all that validity and coverage need, and much faster.
  bool with_data = true;
  // How many times a recipe's `assume` steps may reject a draw before the
  // generator gives up on the case.
  int max_attempts = 100;
  // Where an elementwise case's halves go among its shrinks
  // (generators/element_halving.h): first, so that the shrinker cuts a
  // large case down before it simplifies values (replay keys of version 2),
  // or after the generator's own shrinks (version 1, whose recorded shrink
  // paths index those alone).
  bool halves_first = true;
  // The generation's version (a replay key's: hlocheckN). Recipes read it as
  // `generation`: a step that draws a new value since version N is written
  // `... if generation >= N else ...`, and the generator's own new draws
  // check it too, so that a key of an earlier version rebuilds the case it
  // named. 3 added dot_general's result types of their own and rounding-tie
  // data; 4 dot_general's algorithm attribute; 5 quantized types in the
  // element-wise ops (gen_quantized_or_plain); 6 quantized iota; 7 per-axis
  // quantized reshape; 8 quantized all_gather, all_to_all, collective_permute;
  // 9 quantized values in the region ops (reduce, reduce_window,
  // select_and_scatter, scatter, sort, map, if, case).
  int version = 9;
};

// One generated case. Every op has an instance; ops whose inputs and
// results are all plain tensors also have a runnable Case with data, and so
// do those that pass tokens, tuples and quantized tensors through untouched
// (tuple, get_tuple_element, optimization_barrier).
struct GeneratedCase {
  spec::OpInstance instance;
  std::vector<Region> regions;  // bodies, in spec order (variadic ones flattened)
  std::vector<int64_t> region_segments;
  std::vector<std::string> region_kinds;  // the body kind of each region (BuildRegionBody)
  std::optional<Case> runnable;
  bool plain_tensors = false;  // runnable given data (see above)
  std::string not_runnable;    // why `runnable` is empty
  int discards = 0;            // draws the recipe rejected before this one
};

// Dimension sizes at kernel boundaries (vector widths, unrolled tails, tile
// sizes) that gen_shape and gen_dims now and then draw.
std::span<const int64_t> KernelBoundarySizes();

// The value whose element type is the "type" of a case in reports: the
// op's first operand, or its first result when it has no operands or its
// first operand is a tuple (get_tuple_element). Null for ops whose first
// input is a token. PrimaryTypes: the element types that value accepts.
const spec::ValueSpec* PrimaryValue(const spec::OpSpec& op);
std::vector<ElementType> PrimaryTypes(const spec::OpSpec& op);

rc::Gen<GeneratedCase> GeneratedCaseGenerator(const spec::OpSpec& op,
                                              const GenerationOptions& options);
rc::Shrinkable<GeneratedCase> GenerateInstance(const spec::OpSpec& op,
                                               const GenerationOptions& options, uint64_t seed,
                                               int size);

// Thrown by CaseGenerator's cases that carry no data: quantized tensors in
// ops that compute on them, which no runner takes as a Case yet.
struct NotRunnable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runnable cases only: a case that is not runnable throws NotRunnable.
rc::Gen<Case> CaseGenerator(const spec::OpSpec& op, const GenerationOptions& options);

// The generated case as one op of a program (operands %0.., as printed in
// snippets): with its region bodies and attributes.
Operation GeneratedOperation(const spec::OpSpec& op, const GeneratedCase& generated);

// One case, deterministically: the same (seed, size) gives the same case on
// every machine.
rc::Shrinkable<Case> GenerateCase(const spec::OpSpec& op, const GenerationOptions& options,
                                  uint64_t seed, int size);

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_CASE_GENERATOR_H_
