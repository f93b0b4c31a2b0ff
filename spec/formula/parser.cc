#include "spec/formula/parser.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <utility>

#include "absl/status/status.h"

namespace hlocheck::spec {
namespace {

enum class TokenKind { kEnd, kInt, kFloat, kString, kName, kSymbol };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  int begin = 0;
  int end = 0;
};

// Symbols, longest first so that "<=" wins over "<".
constexpr std::string_view kSymbols[] = {"...", "//", "==", "!=", "<=", ">=", "(", ")",
                                         "[",   "]",  ",",  ":",  "?",  "+",  "-", "*",
                                         "/",   "%",  "=",  "<",  ">",  "!"};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  absl::Status Tokenize(std::vector<Token>* tokens, ParseError* error) {
    size_t i = 0;
    while (true) {
      while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
      Token token;
      token.begin = static_cast<int>(i);
      if (i == text_.size()) {
        token.kind = TokenKind::kEnd;
        token.end = token.begin;
        tokens->push_back(token);
        return absl::OkStatus();
      }
      char c = text_[i];
      if (std::isdigit(static_cast<unsigned char>(c)) ||
          (c == '.' && i + 1 < text_.size() &&
           std::isdigit(static_cast<unsigned char>(text_[i + 1])))) {
        size_t j = i;
        bool is_float = false;
        while (j < text_.size() && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
        if (j < text_.size() && text_[j] == '.' && text_.substr(j, 3) != "...") {
          is_float = true;
          ++j;
          while (j < text_.size() && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
        }
        if (j < text_.size() && (text_[j] == 'e' || text_[j] == 'E')) {
          size_t k = j + 1;
          if (k < text_.size() && (text_[k] == '+' || text_[k] == '-')) ++k;
          if (k < text_.size() && std::isdigit(static_cast<unsigned char>(text_[k]))) {
            is_float = true;
            j = k;
            while (j < text_.size() && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
          }
        }
        token.kind = is_float ? TokenKind::kFloat : TokenKind::kInt;
        token.text = std::string(text_.substr(i, j - i));
        i = j;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t j = i;
        while (j < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_')) {
          ++j;
        }
        token.kind = TokenKind::kName;
        token.text = std::string(text_.substr(i, j - i));
        i = j;
      } else if (c == '"' || c == '\'') {
        size_t j = i + 1;
        while (j < text_.size() && text_[j] != c) ++j;
        if (j == text_.size()) {
          return Fail(error, static_cast<int>(i), "unterminated string literal");
        }
        token.kind = TokenKind::kString;
        token.text = std::string(text_.substr(i + 1, j - i - 1));
        i = j + 1;
      } else {
        bool matched = false;
        for (std::string_view symbol : kSymbols) {
          if (text_.substr(i, symbol.size()) == symbol) {
            token.kind = TokenKind::kSymbol;
            token.text = std::string(symbol);
            i += symbol.size();
            matched = true;
            break;
          }
        }
        if (!matched) {
          return Fail(error, static_cast<int>(i), std::string("unexpected character '") + c + "'");
        }
      }
      token.end = static_cast<int>(i);
      tokens->push_back(std::move(token));
    }
  }

  static absl::Status Fail(ParseError* error, int offset, std::string message) {
    if (error != nullptr) *error = {offset, message};
    return absl::InvalidArgumentError("column " + std::to_string(offset + 1) + ": " + message);
  }

 private:
  std::string_view text_;
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, ParseError* error)
      : tokens_(std::move(tokens)), error_(error) {}

  absl::StatusOr<ExprPtr> ParseAll() {
    auto expr = ParseConditional();
    if (!expr.ok()) return expr;
    if (Peek().kind != TokenKind::kEnd) return Expected("end of formula");
    return expr;
  }

 private:
  const Token& Peek(int ahead = 0) const {
    size_t index = std::min(position_ + ahead, tokens_.size() - 1);
    return tokens_[index];
  }
  bool IsSymbol(std::string_view symbol, int ahead = 0) const {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kSymbol && token.text == symbol;
  }
  bool IsKeyword(std::string_view keyword, int ahead = 0) const {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kName && token.text == keyword;
  }
  Token Take() { return tokens_[std::min(position_++, tokens_.size() - 1)]; }

  absl::Status ExpectedStatus(std::string what) {
    const Token& token = Peek();
    std::string found = token.kind == TokenKind::kEnd ? "end of formula" : "'" + token.text + "'";
    return Lexer::Fail(error_, token.begin, "expected " + what + ", found " + found);
  }
  absl::StatusOr<ExprPtr> Expected(std::string what) { return ExpectedStatus(std::move(what)); }

  absl::Status Consume(std::string_view symbol) {
    if (!IsSymbol(symbol)) return ExpectedStatus("'" + std::string(symbol) + "'");
    Take();
    return absl::OkStatus();
  }

  static ExprPtr Make(Expr expr) { return std::make_shared<const Expr>(std::move(expr)); }

  static ExprPtr MakeBinary(ExprKind kind, std::string op, ExprPtr lhs, ExprPtr rhs) {
    Expr expr{kind};
    expr.text = std::move(op);
    expr.begin = lhs->begin;
    expr.end = rhs->end;
    expr.children = {std::move(lhs), std::move(rhs)};
    return Make(std::move(expr));
  }

  static constexpr int kMaxDepth = 256;

  // Restores the depth on leaving a parse function: its levels are its own.
  class DepthScope {
   public:
    explicit DepthScope(int& depth) : depth_(depth), saved_(depth) {}
    ~DepthScope() { depth_ = saved_; }
    DepthScope(const DepthScope&) = delete;
    DepthScope& operator=(const DepthScope&) = delete;

   private:
    int& depth_;
    int saved_;
  };

  // One more level, or an error where it would exceed kMaxDepth.
  absl::Status Deeper() {
    if (++depth_ <= kMaxDepth) return absl::OkStatus();
    return Lexer::Fail(error_, Peek().begin,
                       "formula nested more than " + std::to_string(kMaxDepth) + " levels deep");
  }

  // conditional := or [ 'if' or 'else' conditional ] | or '?' conditional ':' conditional
  absl::StatusOr<ExprPtr> ParseConditional() {
    DepthScope scope(depth_);
    if (auto status = Deeper(); !status.ok()) return status;
    auto value = ParseOr();
    if (!value.ok()) return value;
    if (IsKeyword("if") && !in_comprehension_head_) {
      Take();
      auto condition = ParseOr();
      if (!condition.ok()) return condition;
      if (!IsKeyword("else")) return Expected("'else'");
      Take();
      auto otherwise = ParseConditional();
      if (!otherwise.ok()) return otherwise;
      return MakeConditional(*condition, *value, *otherwise);
    }
    if (IsSymbol("?")) {
      Take();
      auto then_value = ParseConditional();
      if (!then_value.ok()) return then_value;
      if (auto status = Consume(":"); !status.ok()) return status;
      auto otherwise = ParseConditional();
      if (!otherwise.ok()) return otherwise;
      return MakeConditional(*value, *then_value, *otherwise);
    }
    return value;
  }

  static ExprPtr MakeConditional(ExprPtr condition, ExprPtr then_value, ExprPtr otherwise) {
    Expr expr{ExprKind::kConditional};
    expr.begin = std::min(condition->begin, then_value->begin);
    expr.end = std::max(condition->end, otherwise->end);
    expr.children = {std::move(condition), std::move(then_value), std::move(otherwise)};
    return Make(std::move(expr));
  }

  absl::StatusOr<ExprPtr> ParseOr() {
    DepthScope scope(depth_);
    auto lhs = ParseAnd();
    if (!lhs.ok()) return lhs;
    ExprPtr result = *lhs;
    while (IsKeyword("or")) {
      if (auto status = Deeper(); !status.ok()) return status;
      Take();
      auto rhs = ParseAnd();
      if (!rhs.ok()) return rhs;
      result = MakeBinary(ExprKind::kBinary, "or", result, *rhs);
    }
    return result;
  }

  absl::StatusOr<ExprPtr> ParseAnd() {
    DepthScope scope(depth_);
    auto lhs = ParseNot();
    if (!lhs.ok()) return lhs;
    ExprPtr result = *lhs;
    while (IsKeyword("and")) {
      if (auto status = Deeper(); !status.ok()) return status;
      Take();
      auto rhs = ParseNot();
      if (!rhs.ok()) return rhs;
      result = MakeBinary(ExprKind::kBinary, "and", result, *rhs);
    }
    return result;
  }

  absl::StatusOr<ExprPtr> ParseNot() {
    if (IsKeyword("not") || IsSymbol("!")) {
      DepthScope scope(depth_);
      if (auto status = Deeper(); !status.ok()) return status;
      Token op = Take();
      auto operand = ParseNot();
      if (!operand.ok()) return operand;
      Expr expr{ExprKind::kUnary};
      expr.text = "not";
      expr.begin = op.begin;
      expr.end = (*operand)->end;
      expr.children = {*operand};
      return Make(std::move(expr));
    }
    return ParseComparison();
  }

  std::string PeekCompareOp() const {
    const Token& token = Peek();
    if (token.kind == TokenKind::kSymbol &&
        (token.text == "=" || token.text == "==" || token.text == "!=" || token.text == "<" ||
         token.text == "<=" || token.text == ">" || token.text == ">=")) {
      return token.text == "==" ? "=" : token.text;
    }
    if (IsKeyword("in") && !in_comprehension_head_) return "in";
    if (IsKeyword("not") && IsKeyword("in", 1)) return "not in";
    return "";
  }

  absl::StatusOr<ExprPtr> ParseComparison() {
    auto first = ParseAdditive();
    if (!first.ok()) return first;
    std::string op = PeekCompareOp();
    if (op.empty()) return first;
    Expr expr{ExprKind::kCompare};
    expr.begin = (*first)->begin;
    expr.children.push_back(*first);
    while (!op.empty()) {
      Take();
      if (op == "not in") Take();
      auto next = ParseAdditive();
      if (!next.ok()) return next;
      expr.compare_ops.push_back(op);
      expr.children.push_back(*next);
      op = PeekCompareOp();
    }
    expr.end = expr.children.back()->end;
    return Make(std::move(expr));
  }

  absl::StatusOr<ExprPtr> ParseAdditive() {
    DepthScope scope(depth_);
    auto lhs = ParseTerm();
    if (!lhs.ok()) return lhs;
    ExprPtr result = *lhs;
    while (IsSymbol("+") || IsSymbol("-")) {
      if (auto status = Deeper(); !status.ok()) return status;
      std::string op = Take().text;
      auto rhs = ParseTerm();
      if (!rhs.ok()) return rhs;
      result = MakeBinary(ExprKind::kBinary, op, result, *rhs);
    }
    return result;
  }

  absl::StatusOr<ExprPtr> ParseTerm() {
    DepthScope scope(depth_);
    auto lhs = ParseUnary();
    if (!lhs.ok()) return lhs;
    ExprPtr result = *lhs;
    while (IsSymbol("*") || IsSymbol("/") || IsSymbol("//") || IsSymbol("%")) {
      if (auto status = Deeper(); !status.ok()) return status;
      std::string op = Take().text;
      auto rhs = ParseUnary();
      if (!rhs.ok()) return rhs;
      result = MakeBinary(ExprKind::kBinary, op, result, *rhs);
    }
    return result;
  }

  absl::StatusOr<ExprPtr> ParseUnary() {
    if (IsSymbol("-") || IsSymbol("+")) {
      DepthScope scope(depth_);
      if (auto status = Deeper(); !status.ok()) return status;
      Token op = Take();
      auto operand = ParseUnary();
      if (!operand.ok()) return operand;
      Expr expr{ExprKind::kUnary};
      expr.text = op.text;
      expr.begin = op.begin;
      expr.end = (*operand)->end;
      expr.children = {*operand};
      return Make(std::move(expr));
    }
    return ParsePostfix();
  }

  absl::StatusOr<ExprPtr> ParsePostfix() {
    // Every path back into the grammar's top passes here (brackets, calls,
    // subscripts, comprehensions), so one level per atom bounds all nesting.
    DepthScope scope(depth_);
    if (auto status = Deeper(); !status.ok()) return status;
    auto atom = ParseAtom();
    if (!atom.ok()) return atom;
    ExprPtr result = *atom;
    while (true) {
      if (IsSymbol("(") || IsSymbol("[")) {
        if (auto status = Deeper(); !status.ok()) return status;
      }
      if (IsSymbol("(")) {
        Take();
        Expr call{ExprKind::kCall};
        call.begin = result->begin;
        call.children.push_back(result);
        call.expand.push_back(false);
        bool saved = in_comprehension_head_;
        in_comprehension_head_ = false;
        if (!IsSymbol(")")) {
          while (true) {
            auto argument = ParseConditional();
            if (!argument.ok()) return argument;
            bool expand = false;
            if (IsSymbol("...")) {
              Take();
              expand = true;
            }
            call.children.push_back(*argument);
            call.expand.push_back(expand);
            if (IsSymbol(",")) {
              Take();
              continue;
            }
            break;
          }
        }
        in_comprehension_head_ = saved;
        call.end = Peek().end;
        if (auto status = Consume(")"); !status.ok()) return status;
        result = Make(std::move(call));
      } else if (IsSymbol("[")) {
        auto subscript = ParseSubscript(result);
        if (!subscript.ok()) return subscript;
        result = *subscript;
      } else {
        return result;
      }
    }
  }

  absl::StatusOr<ExprPtr> ParseSubscript(ExprPtr target) {
    Take();  // '['
    bool saved = in_comprehension_head_;
    in_comprehension_head_ = false;
    std::vector<SliceItem> items;
    bool any_range = false;
    while (true) {
      SliceItem item;
      if (!IsSymbol(":")) {
        auto index = ParseConditional();
        if (!index.ok()) return index;
        item.index = *index;
        // x[indices...] picks several items, like x[indices].
        if (IsSymbol("...")) Take();
      }
      if (IsSymbol(":")) {
        Take();
        item.is_range = true;
        item.start = item.index;
        item.index = nullptr;
        if (!IsSymbol(",") && !IsSymbol("]")) {
          auto stop = ParseConditional();
          if (!stop.ok()) return stop;
          item.stop = *stop;
        }
        any_range = true;
      }
      items.push_back(std::move(item));
      if (IsSymbol(",")) {
        Take();
        continue;
      }
      break;
    }
    in_comprehension_head_ = saved;
    int end = Peek().end;
    if (auto status = Consume("]"); !status.ok()) return status;
    if (!any_range && items.size() == 1) {
      Expr expr{ExprKind::kIndex};
      expr.begin = target->begin;
      expr.end = end;
      expr.children = {std::move(target), items[0].index};
      return Make(std::move(expr));
    }
    Expr expr{ExprKind::kSlice};
    expr.begin = target->begin;
    expr.end = end;
    expr.children = {std::move(target)};
    expr.slice_items = std::move(items);
    return Make(std::move(expr));
  }

  absl::StatusOr<ExprPtr> ParseAtom() {
    const Token& token = Peek();
    switch (token.kind) {
      case TokenKind::kInt: {
        Expr expr{ExprKind::kInt};
        expr.begin = token.begin;
        expr.end = token.end;
        auto [ptr, ec] = std::from_chars(token.text.data(), token.text.data() + token.text.size(),
                                         expr.int_value);
        if (ec != std::errc()) return Expected("an integer that fits 64 bits");
        Take();
        return Make(std::move(expr));
      }
      case TokenKind::kFloat: {
        Expr expr{ExprKind::kFloat};
        expr.begin = token.begin;
        expr.end = token.end;
        expr.float_value = std::strtod(token.text.c_str(), nullptr);
        Take();
        return Make(std::move(expr));
      }
      case TokenKind::kString: {
        Expr expr{ExprKind::kString};
        expr.begin = token.begin;
        expr.end = token.end;
        expr.text = token.text;
        Take();
        return Make(std::move(expr));
      }
      case TokenKind::kName: {
        static constexpr std::string_view kReserved[] = {"and", "or",   "not", "in",
                                                         "if",  "else", "for"};
        for (std::string_view reserved : kReserved) {
          if (token.text == reserved) return Expected("a value");
        }
        Expr expr{ExprKind::kName};
        expr.begin = token.begin;
        expr.end = token.end;
        if (token.text == "true" || token.text == "True" || token.text == "false" ||
            token.text == "False") {
          expr.kind = ExprKind::kBool;
          expr.bool_value = token.text == "true" || token.text == "True";
        } else if (token.text == "None") {
          expr.kind = ExprKind::kNone;
        } else {
          expr.text = token.text;
        }
        Take();
        return Make(std::move(expr));
      }
      case TokenKind::kSymbol:
        if (token.text == "(") {
          Take();
          bool saved = in_comprehension_head_;
          in_comprehension_head_ = false;
          auto inner = ParseConditional();
          in_comprehension_head_ = saved;
          if (!inner.ok()) return inner;
          if (auto status = Consume(")"); !status.ok()) return status;
          return inner;
        }
        if (token.text == "[") return ParseListOrComprehension();
        return Expected("a value");
      case TokenKind::kEnd:
        return Expected("a value");
    }
    return Expected("a value");
  }

  absl::StatusOr<ExprPtr> ParseListOrComprehension() {
    int begin = Take().begin;  // '['
    bool saved = in_comprehension_head_;
    in_comprehension_head_ = false;
    Expr list{ExprKind::kList};
    list.begin = begin;
    if (IsSymbol("]")) {
      list.end = Take().end;
      in_comprehension_head_ = saved;
      return Make(std::move(list));
    }
    auto first = ParseConditional();
    if (!first.ok()) return first;
    if (IsKeyword("for")) {
      Take();
      Expr comprehension{ExprKind::kComprehension};
      comprehension.begin = begin;
      while (true) {
        if (Peek().kind != TokenKind::kName) return Expected("a loop variable");
        comprehension.loop_variables.push_back(Take().text);
        if (IsSymbol(",")) {
          Take();
          continue;
        }
        break;
      }
      if (!IsKeyword("in")) return Expected("'in'");
      Take();
      in_comprehension_head_ = true;  // the iterable ends at 'if'
      auto iterable = ParseOr();
      in_comprehension_head_ = false;
      if (!iterable.ok()) return iterable;
      ExprPtr condition;
      if (IsKeyword("if")) {
        Take();
        auto parsed = ParseOr();
        if (!parsed.ok()) return parsed;
        condition = *parsed;
      }
      comprehension.children = {*first, *iterable, condition};
      comprehension.end = Peek().end;
      if (auto status = Consume("]"); !status.ok()) return status;
      in_comprehension_head_ = saved;
      return Make(std::move(comprehension));
    }
    list.children.push_back(*first);
    while (IsSymbol(",")) {
      Take();
      if (IsSymbol("]")) break;  // trailing comma
      auto item = ParseConditional();
      if (!item.ok()) return item;
      list.children.push_back(*item);
    }
    list.end = Peek().end;
    if (auto status = Consume("]"); !status.ok()) return status;
    in_comprehension_head_ = saved;
    return Make(std::move(list));
  }

  std::vector<Token> tokens_;
  size_t position_ = 0;
  ParseError* error_;
  // How deep the node being built may end up: one level per nested
  // conditional, 'not', unary sign, bracket or call, and per operator of a
  // chain (a + b + c nests to the left). Parser, evaluator and the tree's
  // destructor all recurse once per level, so it is bounded.
  int depth_ = 0;
  // Inside `for v in <iterable>`, 'in' and 'if' end the expression.
  bool in_comprehension_head_ = false;
};

}  // namespace

absl::StatusOr<ExprPtr> ParseFormula(std::string_view text, ParseError* error) {
  std::vector<Token> tokens;
  Lexer lexer(text);
  if (auto status = lexer.Tokenize(&tokens, error); !status.ok()) return status;
  Parser parser(std::move(tokens), error);
  return parser.ParseAll();
}

std::string_view ExprText(std::string_view formula, const Expr& expr) {
  if (expr.begin < 0 || expr.end > static_cast<int>(formula.size()) || expr.begin > expr.end) {
    return {};
  }
  return formula.substr(expr.begin, expr.end - expr.begin);
}

}  // namespace hlocheck::spec
