// The character-level layer of the MLIR text reader: a cursor over the
// source that skips blanks and `//` comments, reads MLIR's lexical items
// (bare identifiers, %values, @symbols, ^blocks, numbers, strings) and
// reports errors as file:line:column with what was expected.
#ifndef HLOCHECK_MLIR_SYNTAX_H_
#define HLOCHECK_MLIR_SYNTAX_H_

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/program.h"

namespace hlocheck::mlir {

// Thrown inside the reader, turned into an absl::Status at its entry points.
class SyntaxError : public std::runtime_error {
 public:
  SyntaxError(const std::string& file, TextLocation where, const std::string& message)
      : std::runtime_error(file + ":" + std::to_string(where.line) + ":" +
                           std::to_string(where.column) + ": " + message),
        location(where) {}
  TextLocation location;
};

class Cursor {
 public:
  // `first_line` is the line of text[0] in the file (splits start mid-file).
  Cursor(std::string_view text, std::string file, int first_line = 1)
      : text_(text), file_(std::move(file)), line_(first_line) {}

  // Skips blanks and comments; true at the end of the text.
  bool AtEnd();
  // The next character after blanks, or '\0' at the end.
  char Peek();
  // Whether the text after blanks starts with `s` (no consumption).
  bool LookingAt(std::string_view s);
  // Consumes `s` if the text after blanks starts with it.
  bool TryConsume(std::string_view s);
  // Consumes the bare identifier `word` (not a prefix of a longer one).
  bool TryKeyword(std::string_view word);
  // Consumes `s` or throws "expected <what>".
  void Expect(std::string_view s, std::string_view what = {});
  void ExpectKeyword(std::string_view word);

  // Lexical items; each returns nullopt (consuming nothing) if absent.
  std::optional<std::string> BareIdentifier();  // [A-Za-z_][A-Za-z0-9_$.-]*
  std::optional<std::string> ValueName();       // %name, without '%'
  std::optional<std::string> SymbolName();      // @name or @"name", without '@'
  std::optional<std::string> BlockName();       // ^name, without '^'
  std::optional<std::string> StringLiteral();   // "..." with escapes, unescaped
  // An integer literal (decimal or 0x hex, optional '-').
  std::optional<int64_t> Integer();
  // The text of a number (integer or float, optional sign) as written.
  std::optional<std::string> NumberText();

  // The text from the current position up to (not including) the delimiter
  // that closes a bracket already consumed (`open`..`close` nest inside;
  // strings are skipped whole). Consumes the closing delimiter.
  std::string_view BalancedUntil(char open, char close);
  // A type as written: `tensor<...>`, `!dialect.name<...>`, `tuple<...>`,
  // `i32`, `complex<f32>`, ... up to its end (balanced angle brackets).
  std::string_view TypeText();

  // Everything consumed from `start` to here, without trailing blanks.
  std::string_view TextFrom(size_t start) const;
  size_t offset() const { return pos_; }

  TextLocation location() const { return {line_, column()}; }
  [[noreturn]] void Fail(const std::string& message) const;
  [[noreturn]] void FailAt(TextLocation where, const std::string& message) const;
  // "expected X, found 'y...'".
  [[noreturn]] void Expected(std::string_view what);
  const std::string& file() const { return file_; }

 private:
  void SkipBlanks();
  void Advance(size_t n);
  int column() const { return static_cast<int>(pos_ - line_start_) + 1; }

  std::string_view text_;
  std::string file_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_;
};

bool IsIdentifierStart(char c);
bool IsIdentifierChar(char c);

}  // namespace hlocheck::mlir

#endif  // HLOCHECK_MLIR_SYNTAX_H_
