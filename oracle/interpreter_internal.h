// What interpreter.cc and interpreter_regions.cc share: how the interpreter
// words its errors and recognises a region's end.
#ifndef HLOCHECK_ORACLE_INTERPRETER_INTERNAL_H_
#define HLOCHECK_ORACLE_INTERPRETER_INTERNAL_H_

#include <string>

#include "absl/status/status.h"
#include "core/program.h"

namespace hlocheck {

inline absl::Status UnsupportedError(const std::string& op, const std::string& why) {
  return absl::UnimplementedError("unsupported: " + op + (why.empty() ? "" : " (" + why + ")"));
}

// An op's error as a region reports it: with the op's line, unless it says
// the op is unsupported (that message names the op already).
inline absl::Status AtOperation(const Operation& op, const absl::Status& status) {
  if (op.location.line <= 0 || absl::IsUnimplemented(status)) return status;
  return absl::Status(status.code(), "line " + std::to_string(op.location.line) + ": " + op.name +
                                         ": " + std::string(status.message()));
}

inline bool IsReturn(const Operation& op) {
  return op.name == "func.return" || op.name == "stablehlo.return";
}

}  // namespace hlocheck

#endif  // HLOCHECK_ORACLE_INTERPRETER_INTERNAL_H_
