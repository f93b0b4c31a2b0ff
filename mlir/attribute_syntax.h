// MLIR attribute values as written, before an op's spec gives them meaning:
// `5 : i64`, `true`, `"text"`, `[...]`, `{...}`, `array<i64: 1, 2>`,
// `dense<...> : tensor<...>`, `@symbol`, types, and dialect attributes such as
// `#stablehlo<comparison_direction LT>` or `#stablehlo.gather<offset_dims = [1], ...>`.
#ifndef HLOCHECK_MLIR_ATTRIBUTE_SYNTAX_H_
#define HLOCHECK_MLIR_ATTRIBUTE_SYNTAX_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "mlir/syntax.h"

namespace hlocheck::mlir {

struct NamedAttr;

struct AttrSyntax {
  enum class Kind {
    kInteger,  // number (optional `: type`)
    kFloat,    // number with a fraction or exponent, or a float-typed number
    kBool,
    kString,
    kList,     // [a, b, ...]
    kDict,     // {name = value, ...}
    kArray,    // array<i64: 1, 2> (items are kInteger / kBool / kFloat)
    kDense,    // dense<...> : tensor<...>
    kSymbol,   // @name
    kDialect,  // #dialect<...> or #dialect.name<...>
    kType,     // a type used as a value (tf32, tensor<...>, ...)
    kUnit,     // a name without `= value` in a dictionary
    kKeyword,  // a bare word in a dialect attribute's body (GT, DEFAULT, ...)
  };
  Kind kind = Kind::kUnit;
  std::string text;  // verbatim, as written
  TextLocation location;

  int64_t integer = 0;
  double number = 0;
  bool boolean = false;
  std::string string;              // kString value, kSymbol/kKeyword/kType name
  std::string type;                // the `: type` of a number, the element type of an array
  std::vector<AttrSyntax> items;   // kList, kArray
  std::vector<NamedAttr> entries;  // kDict, kDialect members
  Tensor dense;                    // kDense

  // kDialect: `#stablehlo<precision DEFAULT>` has dialect "stablehlo",
  // mnemonic "precision", body "DEFAULT"; `#stablehlo.gather<k = v>` has
  // mnemonic "gather", entries {k: v}; other bodies are kept in `body`.
  std::string dialect;
  std::string mnemonic;
  std::string body;

  const AttrSyntax* Find(const std::string& name) const;
  std::string KindName() const;
};

// `name = value`; `first`/`second` so that it reads like a map entry.
// Parse the value into a local before building an entry: clang 14 destroys
// the members of an aggregate temporary twice when a later initializer
// throws (found by the reader's fuzz target).
struct NamedAttr {
  std::string first;
  AttrSyntax second;
};

using AttrDict = std::vector<NamedAttr>;

// `"text"` with MLIR's escapes (\" \\ and \XX for other bytes outside
// printable ASCII), so that StringLiteral reads back the same bytes.
std::string QuoteString(const std::string& text);

// `@name`, or `@"..."` when the name is not a bare identifier.
std::string SymbolText(const std::string& name);

// Parses one attribute value at the cursor. A number takes a `: i64`-like
// type suffix only when `allow_type_suffix` (in an op's custom syntax the
// ':' starts the op's types instead).
AttrSyntax ParseAttributeValue(Cursor& cursor, bool allow_type_suffix);
AttrSyntax ParseAttribute(Cursor& cursor);  // with type suffixes
// Parses `{name = value, name, ...}` (the braces included).
AttrDict ParseAttributeDict(Cursor& cursor);
// Parses `name = value` entries separated by commas until `close` (consumed).
AttrDict ParseAttributeEntries(Cursor& cursor, char close);

}  // namespace hlocheck::mlir

#endif  // HLOCHECK_MLIR_ATTRIBUTE_SYNTAX_H_
