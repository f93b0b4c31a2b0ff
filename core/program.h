// StableHLO programs as data: modules of functions whose bodies are blocks
// of operations on SSA values. The MLIR reader builds them, the writer
// prints them, and both the oracle and each adapter execute them with their
// own op implementations (a region body such as a sort comparator or a
// reduce body is a Region). Like Case, this is data, not op code.
#ifndef HLOCHECK_CORE_PROGRAM_H_
#define HLOCHECK_CORE_PROGRAM_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/attribute.h"
#include "core/types.h"

namespace hlocheck {

// Where something is in a source file (1-based; 0 when not from a file).
struct TextLocation {
  int line = 0;
  int column = 0;
};

using ValueId = int64_t;  // unique within a function

struct Region;

struct Operation {
  // The full name: "stablehlo.add", "func.return", "func.call",
  // "check.expect_eq_const", "interpreter.run_parallel", ...
  std::string name;
  std::vector<ValueId> operands;
  std::vector<ValueId> results;
  std::vector<ValueType> result_types;
  std::vector<ValueType> operand_types;
  // Attributes decoded by the op's spec (names as the spec has them, groups
  // such as #stablehlo.dot<...> taken apart). Attributes the spec does not
  // know are kept verbatim, as MLIR text, so that printing loses nothing.
  std::map<std::string, Attribute> attributes;
  std::map<std::string, std::string> raw_attributes;
  std::vector<Region> regions;
  TextLocation location;
};

struct Block {
  std::vector<ValueId> arguments;
  std::vector<ValueType> argument_types;
  std::vector<Operation> operations;  // the last one is the terminator
};

// StableHLO regions have a single block.
struct Region {
  std::vector<Block> blocks;

  // The region's signature: block arguments -> the terminator's operands.
  FunctionType type() const;
};

struct Function {
  std::string name;  // without '@'
  bool is_public = true;
  FunctionType type;
  Region body;
  // Argument and result attributes, and the function's own, kept verbatim.
  std::vector<std::string> argument_attributes;
  std::vector<std::string> result_attributes;
  std::string attributes;
  TextLocation location;
};

struct Module {
  std::string name;        // empty for an unnamed module or a bare function list
  std::string attributes;  // verbatim
  std::vector<Function> functions;
  TextLocation location;

  const Function* Find(const std::string& function) const;
};

// The function `op` calls by symbol, or null: func.call's callee, or a
// stablehlo.composite's decomposition given as a symbol (as programs write
// it; a case gives the decomposition as a region instead).
const std::string* CalledFunction(const Operation& op);

// Whether two programs are the same up to source locations (what printing
// then reading a program must preserve). On a difference, `difference` (if
// not null) says where.
bool SameModule(const Module& a, const Module& b, std::string* difference = nullptr);
bool SameRegion(const Region& a, const Region& b, std::string* difference = nullptr);

// Adds `offset` to every value id a region defines or uses (its blocks'
// arguments, and its ops' operands and results, nested regions included):
// a region moved into a function must not reuse its names, as MLIR wants
// every name in a function unique.
void ShiftValueIds(Region& region, ValueId offset);
// The largest value id a region defines or uses; -1 when it has none.
ValueId MaxValueId(const Region& region);
// Renumbers a function's values 0, 1, 2, ... in the order the MLIR reader
// numbers them (arguments, then for each op its regions' values before its
// results, which the reader meets after the regions): a program printed,
// read back and printed again reads the same.
void RenumberValues(Function& function);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_PROGRAM_H_
