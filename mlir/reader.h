// Reads StableHLO programs in MLIR text into core/program.h modules:
// `module` (named or not, with attributes) or bare functions, `func.func`
// with argument/result attributes, every stablehlo op in its generic form
// `"stablehlo.op"(...) <{...}> ({...}) {...} : (...) -> ...` and in its
// custom (pretty) syntax, regions with block arguments, dense constants,
// the `#stablehlo.*` attributes, quantized types, tuples and tokens,
// `// -----` split files, and the `check.*` and `interpreter.*` test ops of
// the StableHLO interpreter's tests.
//
// Attributes of stablehlo ops are decoded by the op's spec (spec/ops/*.yaml);
// ops outside the spec (chlo.*, dynamic ops) are read generically and kept,
// so that a file parses even when the oracle cannot run all of it.
//
// Errors are `file:line:column: what was expected` statuses; the reader
// never aborts on bad input.
#ifndef HLOCHECK_MLIR_READER_H_
#define HLOCHECK_MLIR_READER_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "core/program.h"
#include "spec/registry.h"

namespace hlocheck::mlir {

// One `// -----` split of a file.
struct Split {
  Module module;
  int first_line = 1;
};

// Reads a whole file's text, split at `// -----` lines.
absl::StatusOr<std::vector<Split>> ReadSplits(std::string_view text, const std::string& file,
                                              const spec::SpecRegistry& registry);
absl::StatusOr<std::vector<Split>> ReadFile(const std::string& path,
                                            const spec::SpecRegistry& registry);

// Reads one module (no splitting).
absl::StatusOr<Module> ReadModule(std::string_view text, const std::string& file,
                                  const spec::SpecRegistry& registry, int first_line = 1);

// Reads a snippet: a sequence of ops outside any function, as the spec's
// examples are written. Operands not defined in the snippet are its inputs
// (their types come from each op's type signature); they become the block
// arguments of the returned region, in order of first use.
absl::StatusOr<Region> ReadSnippet(std::string_view text, const std::string& file,
                                   const spec::SpecRegistry& registry);

// Reads back a case written by PrintCaseModule (mlir/writer.h): the op
// under test in @main, its operands the constants they are defined by.
absl::StatusOr<Case> ReadCaseModule(std::string_view text, const std::string& file,
                                    const spec::SpecRegistry& registry);

}  // namespace hlocheck::mlir

#endif  // HLOCHECK_MLIR_READER_H_
