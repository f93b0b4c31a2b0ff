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
    // Ran; every check held, but some only because the judge accepted their
    // constant: the literal check rejects it, yet it lies within what the
    // spec allows for the op that computed the checked value (its ULP bound
    // or error bound; InterpretOptions::judge). Counted apart from kPassed.
    kJudged,
  };
  Kind kind = Kind::kPassed;
  std::string function;
  int line = 0;
  int checks = 0;
  int judged = 0;                     // checks that held only by the judge
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
  // Judge mode. A check whose checked value is the result of one op, whose
  // inputs are fixed by the spec (constants, or values of ops whose results
  // the spec fixes bit for bit), and whose expected value is a constant,
  // may fail literally only because the constant came from some backend's
  // rounding (a dot_general summed in f32, a sine 1 ULP off). The judge
  // then treats the constant as that backend's result and accepts it if it
  // lies within the oracle's expectation for the op; such functions are
  // kJudged, never kPassed. Off: the checks' own verdicts only, as the
  // public interpreter gives them.
  bool judge = true;
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
