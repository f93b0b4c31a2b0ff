// Writes programs and cases as StableHLO modules in MLIR text that MLIR
// tools and `hlocheck interpret` read back. Ops are written in MLIR's
// generic form, which every StableHLO version parses the same way; values
// are numbered by their ids, so reading the text back gives the same
// program (SameModule).
#ifndef HLOCHECK_MLIR_WRITER_H_
#define HLOCHECK_MLIR_WRITER_H_

#include <span>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/program.h"
#include "spec/registry.h"

namespace hlocheck::mlir {

std::string PrintModule(const Module& module, const spec::SpecRegistry& registry);
std::string PrintOperation(const Operation& op, const spec::SpecRegistry& registry, int indent = 2);

// A case as a standalone module: its inputs as constants, the op, and a
// check per result against the expected tensor: `check.expect_eq_const`
// (bit for bit), `check.expect_close` (within max_ulp ULPs) or
// `check.expect_almost_eq_const` (within an absolute tolerance). `comments`
// go first as `//` lines.
struct CaseCheck {
  // kComment: no check op can say it (rng's distribution); `comment` is
  // written in its place.
  enum class Kind { kExact, kUlp, kTolerance, kComment };
  Tensor expected;
  Kind kind = Kind::kExact;
  int64_t max_ulp = 0;
  double tolerance = 0;
  std::string comment;
};
std::string PrintCaseModule(const spec::SpecRegistry& registry, const spec::OpSpec& op,
                            const Case& c, const std::vector<CaseCheck>& checks,
                            const std::vector<std::string>& comments = {});

// The case as a program for a compiler: a module whose public @main takes
// the case's input tensors as arguments (kArguments, in the order of
// c.operands) or builds them as constants (kConstants: compilers fold
// these, a code path of its own), applies the op and returns the tensors of
// its results in the order of c.result_types. Tuples and tokens are built
// and taken apart inside @main, and quantized tensors cross its boundary as
// their storage integers (bitcast_convert inside), so a backend sees plain
// tensors only.
enum class ProgramInputs { kArguments, kConstants };
std::string PrintCaseProgram(const spec::SpecRegistry& registry, const spec::OpSpec& op,
                             const Case& c, ProgramInputs inputs);

// Several cases as one module, so that a compiler pays its fixed cost
// once: each case is a private function @case_K as PrintCaseProgram writes
// its @main, and @main takes every case's arguments and returns every
// case's results, in case order.
struct BatchedCase {
  const spec::OpSpec* op;
  const Case* c;
};
std::string PrintBatchProgram(const spec::SpecRegistry& registry,
                              std::span<const BatchedCase> cases, ProgramInputs inputs);

}  // namespace hlocheck::mlir

#endif  // HLOCHECK_MLIR_WRITER_H_
