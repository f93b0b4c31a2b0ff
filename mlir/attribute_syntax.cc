#include "mlir/attribute_syntax.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <regex>

#include "core/literal.h"
#include "core/types.h"

namespace hlocheck::mlir {
namespace {

// `i64`, `si32`, `ui8`, `f32`, `bf16`, `f8E4M3FN`, `index`: the types a
// number attribute may carry after ':'.
bool IsScalarTypeName(std::string_view name) {
  static const std::regex kScalar("(s|u)?i[0-9]+|f[0-9]+.*|bf16|tf32|index");
  return std::regex_match(name.begin(), name.end(), kScalar);
}

bool LooksLikeScalarType(Cursor& cursor) {
  // Peek at the identifier after ':' without consuming anything.
  Cursor probe = cursor;
  if (!probe.TryConsume(":")) return false;
  auto name = probe.BareIdentifier();
  return name && IsScalarTypeName(*name);
}

double NumberFromText(Cursor& cursor, TextLocation where, const std::string& text,
                      const std::string& type) {
  bool hex = text.find("0x") != std::string::npos || text.find("0X") != std::string::npos;
  if (hex) {
    // A float attribute written as its bit pattern.
    uint64_t bits = 0;
    try {
      size_t used = 0;
      bits = std::stoull(text, &used, 16);
      if (used != text.size()) cursor.FailAt(where, "malformed number '" + text + "'");
    } catch (const std::logic_error&) {  // invalid_argument, out_of_range
      cursor.FailAt(where, "malformed or too long hexadecimal number '" + text + "'");
    }
    if (type == "f32") {
      uint32_t b32 = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b32, sizeof f);
      return f;
    }
    if (type == "f64") {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return d;
    }
    cursor.FailAt(where, "hexadecimal float attributes are supported for f32 and f64 only");
  }
  // strtod, not stod: stod throws on subnormal results such as 1e-323.
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) cursor.FailAt(where, "malformed number '" + text + "'");
  return value;
}

AttrSyntax ParseNumber(Cursor& cursor, bool allow_type_suffix) {
  AttrSyntax attr;
  attr.location = cursor.location();
  size_t start = cursor.offset();
  std::optional<std::string> number = cursor.NumberText();
  if (!number) cursor.Expected("a number");
  std::string text = *number;
  if (allow_type_suffix && LooksLikeScalarType(cursor)) {
    cursor.Expect(":");
    attr.type = *cursor.BareIdentifier();
  }
  bool float_type =
      !attr.type.empty() && (attr.type[0] == 'f' || attr.type[0] == 'b' || attr.type[0] == 't');
  bool float_text =
      text.find_first_of(".eE") != std::string::npos && text.find("0x") == std::string::npos;
  if (float_type || float_text) {
    attr.kind = AttrSyntax::Kind::kFloat;
    attr.number = NumberFromText(cursor, attr.location, text, attr.type);
  } else {
    attr.kind = AttrSyntax::Kind::kInteger;
    try {
      size_t used = 0;
      attr.integer = std::stoll(text, &used, 0);
    } catch (const std::exception&) {
      cursor.FailAt(attr.location, "integer '" + text + "' does not fit in 64 bits");
    }
    attr.number = static_cast<double>(attr.integer);
  }
  attr.text = std::string(cursor.TextFrom(start));
  return attr;
}

AttrSyntax ParseDense(Cursor& cursor, size_t start, TextLocation where) {
  AttrSyntax attr;
  attr.kind = AttrSyntax::Kind::kDense;
  attr.location = where;
  std::string body(cursor.BalancedUntil('<', '>'));
  cursor.Expect(":", "':' and the type of the dense literal");
  TextLocation type_location = cursor.location();
  std::string type_text(cursor.TypeText());
  auto type = ParseValueType(type_text);
  if (!type.ok() || !type->is_tensor()) {
    cursor.FailAt(type_location,
                  "expected a tensor type for the dense literal, found '" + type_text + "'" +
                      (type.ok() ? "" : ": " + std::string(type.status().message())));
  }
  auto tensor = ParseDenseBody(body, type->tensor());
  if (!tensor.ok()) {
    cursor.FailAt(where, "bad dense literal: " + std::string(tensor.status().message()));
  }
  attr.dense = *std::move(tensor);
  attr.type = type_text;
  attr.text = std::string(cursor.TextFrom(start));
  return attr;
}

AttrSyntax ParseArray(Cursor& cursor, size_t start, TextLocation where) {
  AttrSyntax attr;
  attr.kind = AttrSyntax::Kind::kArray;
  attr.location = where;
  auto type = cursor.BareIdentifier();
  if (!type) cursor.Expected("the element type of the array (i64, i1, ...)");
  attr.type = *type;
  if (cursor.TryConsume(":")) {
    do {
      attr.items.push_back(ParseAttribute(cursor));
    } while (cursor.TryConsume(","));
  }
  cursor.Expect(">", "',' or '>' closing the array");
  attr.text = std::string(cursor.TextFrom(start));
  return attr;
}

// `#dialect<mnemonic body>` or `#dialect.mnemonic<body>`.
AttrSyntax ParseDialect(Cursor& cursor, size_t start, TextLocation where) {
  AttrSyntax attr;
  attr.kind = AttrSyntax::Kind::kDialect;
  attr.location = where;
  auto name = cursor.BareIdentifier();
  if (!name) cursor.Expected("a dialect attribute name after '#'");
  size_t dot = name->find('.');
  if (dot == std::string::npos) {
    attr.dialect = *name;
    if (!cursor.TryConsume("<")) {
      cursor.FailAt(where, "attribute aliases ('#" + *name + "') are not supported");
    }
    auto mnemonic = cursor.BareIdentifier();
    if (!mnemonic) cursor.Expected("the attribute's kind after '#" + *name + "<'");
    attr.mnemonic = *mnemonic;
    attr.body = std::string(cursor.BalancedUntil('<', '>'));
    while (!attr.body.empty() && attr.body.front() == ' ') attr.body.erase(0, 1);
    while (!attr.body.empty() && attr.body.back() == ' ') attr.body.pop_back();
  } else {
    attr.dialect = name->substr(0, dot);
    attr.mnemonic = name->substr(dot + 1);
    if (cursor.TryConsume("<")) {
      // Members `name = value, ...`, or a body with a syntax of its own.
      Cursor probe = cursor;
      bool members = probe.BareIdentifier().has_value() && probe.TryConsume("=");
      if (members) {
        attr.entries = ParseAttributeEntries(cursor, '>');
      } else {
        attr.body = std::string(cursor.BalancedUntil('<', '>'));
      }
    }
  }
  attr.text = std::string(cursor.TextFrom(start));
  return attr;
}

}  // namespace

std::string QuoteString(const std::string& text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string quoted = "\"";
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (byte < 0x20 || byte >= 0x7F) {
      quoted += '\\';
      quoted += kHex[byte >> 4];
      quoted += kHex[byte & 15];
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

std::string SymbolText(const std::string& name) {
  bool bare = !name.empty() && IsIdentifierStart(name[0]);
  for (char c : name) bare = bare && IsIdentifierChar(c) && c != '-';
  return "@" + (bare ? name : QuoteString(name));
}

const AttrSyntax* AttrSyntax::Find(const std::string& name) const {
  for (const auto& [key, value] : entries) {
    if (key == name) return &value;
  }
  return nullptr;
}

std::string AttrSyntax::KindName() const {
  switch (kind) {
    case Kind::kInteger:
      return "an integer";
    case Kind::kFloat:
      return "a float";
    case Kind::kBool:
      return "a boolean";
    case Kind::kString:
      return "a string";
    case Kind::kList:
      return "a list";
    case Kind::kDict:
      return "a dictionary";
    case Kind::kArray:
      return "an array<...>";
    case Kind::kDense:
      return "a dense literal";
    case Kind::kSymbol:
      return "a symbol";
    case Kind::kDialect:
      return "a dialect attribute";
    case Kind::kType:
      return "a type";
    case Kind::kUnit:
      return "a unit attribute";
    case Kind::kKeyword:
      return "a keyword";
  }
  return "an attribute";
}

AttrSyntax ParseAttributeValue(Cursor& cursor, bool allow_type_suffix) {
  char c = cursor.Peek();
  size_t start = cursor.offset();
  TextLocation where = cursor.location();
  AttrSyntax attr;
  attr.location = where;
  if (c == '[') {
    cursor.Expect("[");
    attr.kind = AttrSyntax::Kind::kList;
    if (!cursor.TryConsume("]")) {
      do {
        attr.items.push_back(ParseAttributeValue(cursor, true));
      } while (cursor.TryConsume(","));
      cursor.Expect("]", "',' or ']' closing the list");
    }
  } else if (c == '{') {
    attr.kind = AttrSyntax::Kind::kDict;
    attr.entries = ParseAttributeDict(cursor);
  } else if (c == '"') {
    attr.kind = AttrSyntax::Kind::kString;
    attr.string = *cursor.StringLiteral();
  } else if (c == '@') {
    attr.kind = AttrSyntax::Kind::kSymbol;
    auto symbol = cursor.SymbolName();
    if (!symbol) cursor.Expected("a symbol name after '@'");
    attr.string = *symbol;
  } else if (c == '#') {
    cursor.Expect("#");
    return ParseDialect(cursor, start, where);
  } else if (c == '!') {
    attr.kind = AttrSyntax::Kind::kType;
    attr.string = std::string(cursor.TypeText());
  } else if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
    return ParseNumber(cursor, allow_type_suffix);
  } else if (cursor.TryKeyword("dense")) {
    cursor.Expect("<", "'<' after 'dense'");
    return ParseDense(cursor, start, where);
  } else if (cursor.TryKeyword("array")) {
    cursor.Expect("<", "'<' after 'array'");
    return ParseArray(cursor, start, where);
  } else if (cursor.TryKeyword("true") || cursor.TryKeyword("false")) {
    attr.kind = AttrSyntax::Kind::kBool;
    attr.boolean = cursor.TextFrom(start) == "true";
  } else if (cursor.TryKeyword("unit")) {
    attr.kind = AttrSyntax::Kind::kUnit;
  } else if (cursor.LookingAt("dense_resource")) {
    cursor.Fail("dense_resource attributes are not supported (the data is outside the file)");
  } else if (IsIdentifierStart(c)) {
    // A type (`tf32`, `tensor<...>`) or a keyword of a dialect attribute.
    std::string text(cursor.TypeText());
    attr.kind = text.find('<') == std::string::npos && !IsScalarTypeName(text)
                    ? AttrSyntax::Kind::kKeyword
                    : AttrSyntax::Kind::kType;
    attr.string = text;
  } else {
    cursor.Expected("an attribute value");
  }
  attr.text = std::string(cursor.TextFrom(start));
  return attr;
}

AttrSyntax ParseAttribute(Cursor& cursor) { return ParseAttributeValue(cursor, true); }

AttrDict ParseAttributeEntries(Cursor& cursor, char close) {
  AttrDict entries;
  std::string closing(1, close);
  if (cursor.TryConsume(closing)) return entries;
  do {
    TextLocation where = cursor.location();
    std::optional<std::string> name = cursor.BareIdentifier();
    if (!name) name = cursor.StringLiteral();
    if (!name) cursor.Expected("an attribute name");
    if (cursor.TryConsume("=")) {
      AttrSyntax value = ParseAttribute(cursor);
      entries.push_back({*name, std::move(value)});
    } else {
      AttrSyntax unit;
      unit.kind = AttrSyntax::Kind::kUnit;
      unit.location = where;
      unit.text = "unit";  // `name = unit` is the same attribute, and prints back
      entries.push_back({*name, unit});
    }
  } while (cursor.TryConsume(","));
  cursor.Expect(closing, "',' or '" + closing + "' after the attribute");
  return entries;
}

AttrDict ParseAttributeDict(Cursor& cursor) {
  cursor.Expect("{", "'{' opening an attribute dictionary");
  return ParseAttributeEntries(cursor, '}');
}

}  // namespace hlocheck::mlir
