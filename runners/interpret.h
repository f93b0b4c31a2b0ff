// `hlocheck interpret`: runs StableHLO files on the oracle and evaluates
// their checks (the check dialect of the public interpreter's tests).
#ifndef HLOCHECK_RUNNERS_INTERPRET_H_
#define HLOCHECK_RUNNERS_INTERPRET_H_

#include <set>
#include <string>
#include <vector>

#include "oracle/interpreter.h"

namespace hlocheck {

struct FunctionOutcome {
  enum class Kind {
    kPassed,       // ran; every check held
    kFailed,       // ran; a check failed
    kFree,         // ran; checks differ only in elements the spec leaves open
    kUnsupported,  // uses an op (or a form of one) the oracle does not run
    kInvalid,      // the spec forbids one of its ops (the verifier's reason)
    kError,        // anything else (a runtime error)
    kSkipped,      // takes arguments and nothing gave them
  };
  Kind kind = Kind::kPassed;
  std::string function;
  int line = 0;
  int checks = 0;
  std::string message;                // the failing check's values, the error, ...
  std::set<std::string> unsupported;  // op names, for kUnsupported
};

std::string KindName(FunctionOutcome::Kind kind);

struct FileOutcome {
  std::string file;
  int splits = 0;
  std::vector<FunctionOutcome> functions;
  int Count(FunctionOutcome::Kind kind) const;
};

struct InterpretOptions {
  // Arguments for a `main` that takes some, as dense literals.
  std::vector<Tensor> main_arguments;
  bool print = false;  // interpreter.print writes to stdout
};

// Reads and runs one file. A read error is returned as a status (bad input).
absl::StatusOr<FileOutcome> InterpretFile(const std::string& path,
                                          const spec::SpecRegistry& registry,
                                          const InterpretOptions& options = {});
absl::StatusOr<FileOutcome> InterpretText(const std::string& text, const std::string& file,
                                          const spec::SpecRegistry& registry,
                                          const InterpretOptions& options = {});

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_INTERPRET_H_
