#ifndef HLOCHECK_SPEC_FORMULA_PARSER_H_
#define HLOCHECK_SPEC_FORMULA_PARSER_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "spec/formula/ast.h"

namespace hlocheck::spec {

struct ParseError {
  int offset = 0;  // byte offset into the formula
  std::string message;
};

// Parses one formula. On failure, `error` (when not null) receives the
// offset and what was expected there, and the status says the same.
absl::StatusOr<ExprPtr> ParseFormula(std::string_view text, ParseError* error = nullptr);

// The source text of a node.
std::string_view ExprText(std::string_view formula, const Expr& expr);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_FORMULA_PARSER_H_
