// Reading seed 004's notation: affine expressions as MLIR writes them, maps
// `(d0, d1)[s0] -> (...)`, and the domain list IndexingMap::ToString prints.
#include <cctype>
#include <charconv>
#include <map>

#include "absl/status/status.h"
#include "spec/indexing_map.h"

namespace hlocheck::spec {

namespace {

class AffineParser {
 public:
  explicit AffineParser(std::string_view text) : text_(text) {}

  absl::StatusOr<AffineExpr> WholeExpr(int64_t num_dims, int64_t num_symbols) {
    num_dims_ = num_dims;
    num_symbols_ = num_symbols;
    AffineExpr e = Expr();
    if (failed()) return Failure();
    if (!AtEnd()) Fail("expected +, -, *, floordiv, mod or the end of the expression");
    if (failed()) return Failure();
    return e;
  }

  absl::StatusOr<AffineMap> WholeMap() {
    AffineMap map = Map();
    if (failed()) return Failure();
    if (!AtEnd()) Fail("expected the end of the map");
    if (failed()) return Failure();
    return map;
  }

  absl::StatusOr<IndexingMap> WholeIndexingMap() {
    IndexingMap result;
    result.map = Map();
    if (Accept(";")) {
      Domain(result);
    } else if (!AtEnd()) {
      Fail("expected '; domain:' or the end of the indexing map");
    } else if (result.map.num_dims + result.map.num_symbols > 0) {
      Fail("expected '; domain:' with the bounds of every variable");
    }
    if (!failed() && !AtEnd()) Fail("expected ',' or the end of the domain");
    if (failed()) return Failure();
    return result;
  }

  const AffineParseError& error() const { return error_; }

 private:
  bool failed() const { return !error_.message.empty(); }

  absl::Status Failure() const {
    return absl::InvalidArgumentError("at offset " + std::to_string(error_.offset) + ": " +
                                      error_.message);
  }

  // Records the first error only; parsing then unwinds with null results.
  void Fail(std::string message) {
    if (!failed()) {
      error_.offset = static_cast<int>(pos_);
      error_.message = std::move(message);
      if (AtEnd()) {
        error_.message += " (found the end of the text)";
      } else {
        error_.message += " (found '" + std::string(Peek()) + "')";
      }
    }
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }

  // The next token's text: a word, a number, "->" or one character.
  std::string_view Peek() {
    SkipSpace();
    if (pos_ >= text_.size()) return {};
    size_t end = pos_;
    auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if (is_word(text_[pos_])) {
      while (end < text_.size() && is_word(text_[end])) ++end;
    } else if (text_.substr(pos_, 2) == "->") {
      end += 2;
    } else {
      ++end;
    }
    return text_.substr(pos_, end - pos_);
  }

  bool Accept(std::string_view token) {
    if (failed() || Peek() != token) return false;
    pos_ += token.size();
    return true;
  }

  void Expect(std::string_view token, std::string_view what) {
    if (!Accept(token)) Fail("expected '" + std::string(token) + "' " + std::string(what));
  }

  std::optional<int64_t> Integer() {
    std::string_view token = Peek();
    if (token.empty() || !std::isdigit(static_cast<unsigned char>(token[0]))) return std::nullopt;
    int64_t value = 0;
    auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || end != token.data() + token.size()) {
      Fail("expected an integer that fits in 64 bits");
      return std::nullopt;
    }
    pos_ += token.size();
    return value;
  }

  std::optional<int64_t> SignedInteger(std::string_view what) {
    bool negative = Accept("-");
    std::optional<int64_t> value = Integer();
    if (!value) {
      Fail("expected an integer " + std::string(what));
      return std::nullopt;
    }
    return negative ? -*value : *value;
  }

  // A variable name `d3` or `s0`: its letter and position, or nothing.
  std::optional<std::pair<char, int64_t>> Variable() {
    std::string_view token = Peek();
    if (token.size() < 2 || (token[0] != 'd' && token[0] != 's')) return std::nullopt;
    int64_t position = 0;
    auto [end, ec] = std::from_chars(token.data() + 1, token.data() + token.size(), position);
    if (ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
    pos_ += token.size();
    return std::make_pair(token[0], position);
  }

  AffineExpr Primary() {
    if (failed()) return nullptr;
    size_t start = pos_;
    if (Accept("(")) {
      AffineExpr inner = Expr();
      Expect(")", "to close the parenthesis");
      return failed() ? nullptr : inner;
    }
    if (std::optional<int64_t> value = Integer()) return AffineConstant(*value);
    if (failed()) return nullptr;
    if (auto variable = Variable()) {
      auto [letter, position] = *variable;
      int64_t count = letter == 'd' ? num_dims_ : num_symbols_;
      if (position >= count) {
        pos_ = start;
        Fail(std::string(1, letter) + std::to_string(position) + " is not a " +
             (letter == 'd' ? "dimension" : "symbol") + " of this map (it has " +
             std::to_string(count) + ")");
        return nullptr;
      }
      return letter == 'd' ? AffineDim(position) : AffineSymbol(position);
    }
    Fail("expected an integer, a dimension d<N>, a symbol s<N>, '-' or '('");
    return nullptr;
  }

  AffineExpr Unary() {
    if (Accept("-")) {
      AffineExpr operand = Unary();
      return operand ? AffineMul(operand, AffineConstant(-1)) : nullptr;
    }
    return Primary();
  }

  AffineExpr Term() {
    AffineExpr lhs = Unary();
    while (lhs) {
      std::string_view op = Peek();
      size_t op_at = pos_;
      if (op != "*" && op != "floordiv" && op != "mod") return lhs;
      pos_ += op.size();
      AffineExpr rhs = Unary();
      if (!rhs) return nullptr;
      int64_t c = 0;
      if (op == "*") {
        if (!IsConstant(lhs) && !IsConstant(rhs)) {
          pos_ = op_at;
          Fail("a product needs a constant factor to be affine");
          return nullptr;
        }
        lhs = AffineMul(lhs, rhs);
        continue;
      }
      if (!IsConstant(rhs, &c) || c <= 0) {
        pos_ = op_at;
        Fail("expected a positive constant divisor after " + std::string(op));
        return nullptr;
      }
      lhs = op == "floordiv" ? AffineFloorDiv(lhs, rhs) : AffineMod(lhs, rhs);
    }
    return lhs;
  }

  AffineExpr Expr() {
    AffineExpr lhs = Term();
    while (lhs) {
      if (Accept("+")) {
        AffineExpr rhs = Term();
        lhs = rhs ? AffineAdd(lhs, rhs) : nullptr;
      } else if (Accept("-")) {
        AffineExpr rhs = Term();
        lhs = rhs ? AffineAdd(lhs, AffineMul(rhs, AffineConstant(-1))) : nullptr;
      } else {
        return lhs;
      }
    }
    return nullptr;
  }

  // `d0, d1, d2` (or s...) up to `close`, numbered from 0 in order.
  int64_t VariableDeclarations(char letter, std::string_view close) {
    int64_t count = 0;
    if (Accept(close)) return 0;
    do {
      std::string expected = std::string(1, letter) + std::to_string(count);
      if (!Accept(expected)) {
        Fail("expected " + expected + " (variables are numbered from 0 in order)");
        return 0;
      }
      ++count;
    } while (Accept(","));
    Expect(close, "after the variables");
    return count;
  }

  AffineMap Map() {
    AffineMap map;
    Expect("(", "to open the dimension list");
    if (failed()) return map;
    map.num_dims = VariableDeclarations('d', ")");
    if (Accept("[")) map.num_symbols = VariableDeclarations('s', "]");
    Expect("->", "between the variables and the results");
    Expect("(", "to open the results");
    num_dims_ = map.num_dims;
    num_symbols_ = map.num_symbols;
    if (!failed() && !Accept(")")) {
      do {
        if (AffineExpr e = Expr()) map.results.push_back(e);
      } while (!failed() && Accept(","));
      Expect(")", "to close the results");
    }
    return map;
  }

  std::optional<Interval> ParseInterval() {
    Expect("in", "before the interval");
    Expect("[", "to open the interval");
    std::optional<int64_t> lower = SignedInteger("for the lower bound");
    Expect(",", "between the bounds");
    std::optional<int64_t> upper = SignedInteger("for the upper bound");
    Expect("]", "to close the interval");
    if (failed() || !lower || !upper) return std::nullopt;
    return Interval{*lower, *upper};
  }

  // `(rt: start_indices[1] at (d0, d1) -> ())` after a symbol's interval.
  std::optional<RuntimeVar> RuntimeSource() {
    RuntimeVar rt;
    Expect("rt", "after '(' (a runtime variable's source)");
    Expect(":", "after rt");
    std::string_view name = Peek();
    if (failed() || name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) {
      Fail("expected the name of the operand the runtime variable reads");
      return std::nullopt;
    }
    pos_ += name.size();
    rt.operand = std::string(name);
    if (Accept("[")) {
      if (std::optional<int64_t> element = Integer()) rt.element = *element;
      if (!failed() && rt.element < 0) Fail("expected the element's position");
      Expect("]", "after the element's position");
    }
    Expect("at", "before the access map");
    int64_t dims = num_dims_, symbols = num_symbols_;
    SkipSpace();
    size_t access_at = pos_;
    rt.access = Map();
    num_dims_ = dims;
    num_symbols_ = symbols;
    if (!failed() && (rt.access.num_dims != dims || rt.access.num_symbols != 0)) {
      pos_ = access_at;
      Fail("expected an access map of the map's " + std::to_string(dims) + " dims and no symbols");
    }
    Expect(")", "to close the runtime source");
    if (failed()) return std::nullopt;
    return rt;
  }

  void Domain(IndexingMap& result) {
    Expect("domain", "after ';'");
    Expect(":", "after domain");
    const AffineMap& map = result.map;
    std::vector<std::optional<Interval>> dims(map.num_dims);
    std::vector<std::optional<Interval>> symbols(map.num_symbols);
    std::map<int64_t, RuntimeVar> runtime;
    num_dims_ = map.num_dims;
    num_symbols_ = map.num_symbols;
    while (!failed()) {
      SkipSpace();
      size_t item_at = pos_;
      AffineExpr e = Expr();
      if (!e) return;
      std::optional<Interval> interval = ParseInterval();
      if (!interval) return;
      bool is_variable = e->kind == AffineKind::kDim || e->kind == AffineKind::kSymbol;
      auto* slot = !is_variable                  ? nullptr
                   : e->kind == AffineKind::kDim ? &dims[e->value]
                                                 : &symbols[e->value];
      // A variable's first item is its bound; a later one is a constraint
      // (on a runtime variable: on the value after clamping).
      if (slot == nullptr || slot->has_value()) {
        result.constraints.push_back({e, *interval});
        if (Peek() == "(") {
          pos_ = item_at;
          Fail("a runtime source belongs to the first bound of " + PrintAffineExpr(e));
          return;
        }
      } else {
        *slot = interval;
        if (e->kind == AffineKind::kSymbol && Accept("(")) {
          std::optional<RuntimeVar> rt = RuntimeSource();
          if (!rt) return;
          rt->feasible = *interval;
          runtime[e->value] = *std::move(rt);
        }
      }
      if (!Accept(",")) break;
    }
    if (failed()) return;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (!dims[i]) Fail("the domain has no bounds for d" + std::to_string(i));
      if (!failed()) result.dim_vars.push_back(*dims[i]);
    }
    for (size_t i = 0; i < symbols.size(); ++i) {
      auto rt = runtime.find(static_cast<int64_t>(i));
      if (!symbols[i]) {
        Fail("the domain has no bounds for s" + std::to_string(i));
      } else if (rt != runtime.end()) {
        result.rt_vars.push_back(rt->second);
      } else if (!result.rt_vars.empty()) {
        Fail("s" + std::to_string(i) +
             " is a range variable after a runtime variable; range variables come first");
      } else {
        result.range_vars.push_back(*symbols[i]);
      }
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  int64_t num_dims_ = 0;
  int64_t num_symbols_ = 0;
  AffineParseError error_;
};

template <typename T>
absl::StatusOr<T> Report(absl::StatusOr<T> result, const AffineParser& parser,
                         AffineParseError* error) {
  if (!result.ok() && error != nullptr) *error = parser.error();
  return result;
}

}  // namespace

absl::StatusOr<AffineExpr> ParseAffineExpr(std::string_view text, int64_t num_dims,
                                           int64_t num_symbols, AffineParseError* error) {
  AffineParser parser(text);
  return Report(parser.WholeExpr(num_dims, num_symbols), parser, error);
}

absl::StatusOr<AffineMap> ParseAffineMap(std::string_view text, AffineParseError* error) {
  AffineParser parser(text);
  return Report(parser.WholeMap(), parser, error);
}

absl::StatusOr<IndexingMap> ParseIndexingMap(std::string_view text, AffineParseError* error) {
  AffineParser parser(text);
  return Report(parser.WholeIndexingMap(), parser, error);
}

}  // namespace hlocheck::spec
