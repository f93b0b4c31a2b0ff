#include "mlir/syntax.h"

#include <cctype>

namespace hlocheck::mlir {

bool IsIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

bool IsIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}

namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Suffix characters of %values, @symbols and ^blocks.
bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}

}  // namespace

void Cursor::Advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < text_.size(); ++i) {
    if (text_[pos_] == '\n') {
      ++line_;
      line_start_ = pos_ + 1;
    }
    ++pos_;
  }
}

void Cursor::SkipBlanks() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      Advance(1);
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') Advance(1);
    } else {
      break;
    }
  }
}

bool Cursor::AtEnd() {
  SkipBlanks();
  return pos_ >= text_.size();
}

char Cursor::Peek() {
  SkipBlanks();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool Cursor::LookingAt(std::string_view s) {
  SkipBlanks();
  return text_.substr(pos_, s.size()) == s;
}

bool Cursor::TryConsume(std::string_view s) {
  if (!LookingAt(s)) return false;
  Advance(s.size());
  return true;
}

bool Cursor::TryKeyword(std::string_view word) {
  if (!LookingAt(word)) return false;
  size_t end = pos_ + word.size();
  if (end < text_.size() && IsIdentifierChar(text_[end])) return false;
  Advance(word.size());
  return true;
}

void Cursor::Expect(std::string_view s, std::string_view what) {
  if (!TryConsume(s)) Expected(what.empty() ? "'" + std::string(s) + "'" : std::string(what));
}

void Cursor::ExpectKeyword(std::string_view word) {
  if (!TryKeyword(word)) Expected("'" + std::string(word) + "'");
}

std::optional<std::string> Cursor::BareIdentifier() {
  SkipBlanks();
  if (pos_ >= text_.size() || !IsIdentifierStart(text_[pos_])) return std::nullopt;
  size_t end = pos_ + 1;
  while (end < text_.size() && IsIdentifierChar(text_[end])) ++end;
  // A trailing '-' belongs to `->`, not to the identifier.
  while (end > pos_ + 1 && text_[end - 1] == '-') --end;
  std::string word(text_.substr(pos_, end - pos_));
  Advance(end - pos_);
  return word;
}

namespace {

std::optional<std::string> PrefixedName(std::string_view text, size_t pos, char prefix,
                                        size_t* length) {
  if (pos >= text.size() || text[pos] != prefix) return std::nullopt;
  size_t end = pos + 1;
  while (end < text.size() && IsNameChar(text[end])) ++end;
  if (end == pos + 1) return std::nullopt;
  *length = end - pos;
  return std::string(text.substr(pos + 1, end - pos - 1));
}

}  // namespace

std::optional<std::string> Cursor::ValueName() {
  SkipBlanks();
  size_t length = 0;
  auto name = PrefixedName(text_, pos_, '%', &length);
  if (name) Advance(length);
  return name;
}

std::optional<std::string> Cursor::BlockName() {
  SkipBlanks();
  size_t length = 0;
  auto name = PrefixedName(text_, pos_, '^', &length);
  if (name) Advance(length);
  return name;
}

std::optional<std::string> Cursor::SymbolName() {
  SkipBlanks();
  if (pos_ + 1 < text_.size() && text_[pos_] == '@' && text_[pos_ + 1] == '"') {
    Advance(1);
    return StringLiteral();
  }
  size_t length = 0;
  auto name = PrefixedName(text_, pos_, '@', &length);
  if (name) Advance(length);
  return name;
}

std::optional<std::string> Cursor::StringLiteral() {
  SkipBlanks();
  if (pos_ >= text_.size() || text_[pos_] != '"') return std::nullopt;
  TextLocation start = location();
  std::string value;
  size_t i = pos_ + 1;
  for (;; ++i) {
    if (i >= text_.size() || text_[i] == '\n') FailAt(start, "unterminated string literal");
    char c = text_[i];
    if (c == '"') break;
    if (c != '\\') {
      value += c;
      continue;
    }
    if (++i >= text_.size()) FailAt(start, "unterminated string literal");
    char e = text_[i];
    if (e == 'n') {
      value += '\n';
    } else if (e == 't') {
      value += '\t';
    } else if (e == '"' || e == '\\') {
      value += e;
    } else if (std::isxdigit(static_cast<unsigned char>(e)) && i + 1 < text_.size() &&
               std::isxdigit(static_cast<unsigned char>(text_[i + 1]))) {
      value += static_cast<char>(std::stoi(std::string(text_.substr(i, 2)), nullptr, 16));
      ++i;
    } else {
      FailAt(start, std::string("unknown escape '\\") + e + "' in string literal");
    }
  }
  Advance(i + 1 - pos_);
  return value;
}

std::optional<std::string> Cursor::NumberText() {
  SkipBlanks();
  size_t i = pos_;
  if (i < text_.size() && (text_[i] == '-' || text_[i] == '+')) ++i;
  if (i >= text_.size() || !IsDigit(text_[i])) return std::nullopt;
  if (text_.substr(i, 2) == "0x" || text_.substr(i, 2) == "0X") {
    i += 2;
    while (i < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[i]))) ++i;
  } else {
    while (i < text_.size() && IsDigit(text_[i])) ++i;
    if (i < text_.size() && text_[i] == '.') {
      ++i;
      while (i < text_.size() && IsDigit(text_[i])) ++i;
    }
    if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {
      size_t j = i + 1;
      if (j < text_.size() && (text_[j] == '-' || text_[j] == '+')) ++j;
      if (j < text_.size() && IsDigit(text_[j])) {
        i = j;
        while (i < text_.size() && IsDigit(text_[i])) ++i;
      }
    }
  }
  std::string number(text_.substr(pos_, i - pos_));
  Advance(i - pos_);
  return number;
}

std::optional<int64_t> Cursor::Integer() {
  SkipBlanks();
  size_t start = pos_;
  TextLocation where = location();
  auto text = NumberText();
  if (!text) return std::nullopt;
  bool hex = text->find("0x") != std::string::npos || text->find("0X") != std::string::npos;
  if (!hex && text->find_first_of(".eE") != std::string::npos) {
    // Not an integer: give the text back.
    pos_ = start;
    line_ = where.line;
    line_start_ = start - (where.column - 1);
    return std::nullopt;
  }
  try {
    size_t used = 0;
    int64_t value = std::stoll(*text, &used, 0);
    if (used != text->size()) FailAt(where, "malformed integer '" + *text + "'");
    return value;
  } catch (const std::out_of_range&) {
    FailAt(where, "integer '" + *text + "' does not fit in 64 bits");
  } catch (const std::invalid_argument&) {
    FailAt(where, "malformed integer '" + *text + "'");
  }
}

std::string_view Cursor::BalancedUntil(char open, char close) {
  TextLocation start = location();
  size_t begin = pos_;
  int depth = 0;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '"') {
      // Skip a string whole: brackets inside do not count.
      Advance(1);
      while (pos_ < text_.size() && text_[pos_] != '"') Advance(text_[pos_] == '\\' ? 2 : 1);
      Advance(1);
      continue;
    }
    if (c == open) {
      ++depth;
    } else if (c == close) {
      // `->` is an arrow, not a closing angle bracket.
      if (!(close == '>' && pos_ > begin && text_[pos_ - 1] == '-')) {
        if (depth == 0) {
          std::string_view inside = text_.substr(begin, pos_ - begin);
          Advance(1);
          return inside;
        }
        --depth;
      }
    }
    Advance(1);
  }
  FailAt(start, std::string("no matching '") + close + "' before the end of the input");
}

std::string_view Cursor::TypeText() {
  SkipBlanks();
  size_t begin = pos_;
  if (pos_ < text_.size() && text_[pos_] == '!') Advance(1);
  if (pos_ >= text_.size() || !IsIdentifierStart(text_[pos_])) Expected("a type");
  while (pos_ < text_.size() && (IsIdentifierChar(text_[pos_]) && text_[pos_] != '-')) Advance(1);
  if (pos_ < text_.size() && text_[pos_] == '<') {
    Advance(1);
    BalancedUntil('<', '>');
  }
  return text_.substr(begin, pos_ - begin);
}

std::string_view Cursor::TextFrom(size_t start) const {
  std::string_view text = text_.substr(start, pos_ - start);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

void Cursor::Fail(const std::string& message) const { FailAt(location(), message); }

void Cursor::FailAt(TextLocation where, const std::string& message) const {
  throw SyntaxError(file_, where, message);
}

void Cursor::Expected(std::string_view what) {
  SkipBlanks();
  if (pos_ >= text_.size()) Fail("expected " + std::string(what) + ", found the end of the input");
  size_t end = pos_;
  while (end < text_.size() && end - pos_ < 20 && text_[end] != '\n') ++end;
  Fail("expected " + std::string(what) + ", found '" + std::string(text_.substr(pos_, end - pos_)) +
       "'");
}

}  // namespace hlocheck::mlir
