// Loading an op file's `indexing_maps:` section (templates and their YAML).
#include "spec/indexing_map_template.h"

#include <cctype>
#include <limits>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "spec/formula/parser.h"
#include "spec/yaml_reader.h"

namespace hlocheck::spec {

namespace {

using Piece = AffineTemplate::Piece;

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class TemplateReader {
 public:
  TemplateReader(std::string_view text, SourceLocation location)
      : text_(text), location_(std::move(location)) {}

  absl::StatusOr<std::vector<Piece>> Pieces(size_t begin, size_t end) {
    std::vector<Piece> pieces;
    Piece literal;
    literal.offset = static_cast<int>(begin);
    auto flush = [&](size_t next) {
      if (!literal.text.empty()) pieces.push_back(literal);
      literal = Piece();
      literal.offset = static_cast<int>(next);
    };
    size_t i = begin;
    while (i < end) {
      char c = text_[i];
      if (c == '{') {
        size_t close = text_.find_first_of("{}", i + 1);
        if (close == std::string_view::npos || close >= end || text_[close] != '}') {
          return Error(i, "expected '}' to close this '{' (holes do not nest)");
        }
        flush(i);
        Piece hole;
        hole.kind = Piece::Kind::kHole;
        hole.offset = static_cast<int>(i);
        auto formula = ParseHole(i + 1, close);
        HLOCHECK_RETURN_IF_ERROR(formula.status());
        hole.formula = *std::move(formula);
        pieces.push_back(std::move(hole));
        i = close + 1;
        flush(i);
      } else if (c == '}') {
        return Error(i, "'}' without a '{' before it");
      } else if (text_.substr(i, 4) == "sum(" && (i == 0 || !IsWordChar(text_[i - 1]))) {
        flush(i);
        auto sum = Sum(i, end);
        HLOCHECK_RETURN_IF_ERROR(sum.status());
        i = sum->second;
        pieces.push_back(std::move(sum->first));
        flush(i);
      } else {
        literal.text += c;
        ++i;
      }
    }
    flush(end);
    return pieces;
  }

  absl::Status Error(size_t offset, const std::string& message) const {
    SourceLocation at = location_;
    at.column += static_cast<int>(offset);
    return absl::InvalidArgumentError(at.ToString() + ": in template '" + std::string(text_) +
                                      "': " + message);
  }

 private:
  absl::StatusOr<Formula> ParseHole(size_t begin, size_t end) const {
    Formula formula;
    formula.text = std::string(text_.substr(begin, end - begin));
    formula.location = location_;
    formula.location.column += static_cast<int>(begin);
    ParseError error;
    auto expr = ParseFormula(formula.text, &error);
    if (!expr.ok())
      return Error(begin + error.offset, "in {" + formula.text + "}: " + error.message);
    formula.expr = *expr;
    return formula;
  }

  // `sum(BODY for NAME in FORMULA)` starting at `at`: the piece and where it ends.
  absl::StatusOr<std::pair<Piece, size_t>> Sum(size_t at, size_t end) {
    size_t open = at + 4;
    int depth = 1;
    size_t i = open;
    size_t for_at = std::string_view::npos;
    for (; i < end && depth > 0; ++i) {
      char c = text_[i];
      if (c == '{') {
        size_t close = text_.find('}', i);
        if (close == std::string_view::npos || close >= end) break;
        i = close;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')') {
        --depth;
      } else if (depth == 1 && for_at == std::string_view::npos && text_.substr(i, 5) == " for ") {
        for_at = i;
      }
    }
    if (depth > 0) return Error(at, "expected ')' to close this sum(");
    size_t close = i - 1;
    if (for_at == std::string_view::npos) {
      return Error(at, "expected sum(BODY for NAME in FORMULA)");
    }
    size_t name_at = for_at + 5;
    while (name_at < close && text_[name_at] == ' ') ++name_at;
    size_t name_end = name_at;
    while (name_end < close && IsWordChar(text_[name_end])) ++name_end;
    if (name_end == name_at) return Error(name_at, "expected a variable name after 'for'");
    if (text_.substr(name_end, 4) != " in ")
      return Error(name_end, "expected ' in ' after the name");
    Piece sum;
    sum.kind = Piece::Kind::kSum;
    sum.offset = static_cast<int>(at);
    sum.variable = std::string(text_.substr(name_at, name_end - name_at));
    auto list = ParseHole(name_end + 4, close);
    HLOCHECK_RETURN_IF_ERROR(list.status());
    sum.formula = *std::move(list);
    auto body = Pieces(open, for_at);
    HLOCHECK_RETURN_IF_ERROR(body.status());
    sum.body = *std::move(body);
    return std::make_pair(std::move(sum), close + 1);
  }

  std::string_view text_;
  SourceLocation location_;
};

// The template with every hole a 1 and every sum its body in parentheses:
// what must parse as an affine expression whatever the holes hold. `origin`
// maps each character back to the template.
void Skeleton(const std::vector<Piece>& pieces, std::string& out, std::vector<int>& origin) {
  for (const Piece& piece : pieces) {
    switch (piece.kind) {
      case Piece::Kind::kText:
        for (size_t i = 0; i < piece.text.size(); ++i) origin.push_back(piece.offset + i);
        out += piece.text;
        break;
      case Piece::Kind::kHole:
        origin.push_back(piece.offset);
        out += "1";
        break;
      case Piece::Kind::kSum:
        origin.push_back(piece.offset);
        out += "(";
        Skeleton(piece.body, out, origin);
        origin.push_back(piece.offset);
        out += ")";
        break;
    }
  }
}

class SectionReader {
 public:
  SectionReader(const YamlReader& reader, const OpSpec& op) : reader_(reader), op_(op) {}

  absl::StatusOr<IndexingMapsSpec> Section(const YAML::Node& node) {
    if (auto s = reader_.CheckKeys(node, "indexing_maps", {"maps"},
                                   {"note", "definitions", "value_of_index", "uncovered"});
        !s.ok()) {
      return s;
    }
    IndexingMapsSpec spec;
    if (node["note"]) spec.note = node["note"].Scalar();
    if (node["uncovered"]) spec.uncovered = node["uncovered"].Scalar();
    if (const YAML::Node& definitions = node["definitions"]) {
      if (!definitions.IsSequence()) {
        return reader_.Error(definitions, "expected a list of definitions");
      }
      for (const YAML::Node& entry : definitions) {
        if (auto s = reader_.CheckKeys(entry, "definition", {"name", "formula"}, {}); !s.ok()) {
          return s;
        }
        auto formula = reader_.ParseFormulaNode(entry["formula"], "definition");
        HLOCHECK_RETURN_IF_ERROR(formula.status());
        spec.definitions.emplace_back(entry["name"].Scalar(), *std::move(formula));
      }
    }
    const YAML::Node& maps = node["maps"];
    if (!maps.IsSequence()) return reader_.Error(maps, "expected a list of maps (may be [])");
    for (const YAML::Node& entry : maps) {
      auto map = Map(entry);
      HLOCHECK_RETURN_IF_ERROR(map.status());
      spec.maps.push_back(*std::move(map));
    }
    if (const YAML::Node& value = node["value_of_index"]) {
      auto expr = Template(value, "value_of_index");
      HLOCHECK_RETURN_IF_ERROR(expr.status());
      spec.value_of_index = *std::move(expr);
    }
    return spec;
  }

 private:
  absl::StatusOr<AffineTemplate> Template(const YAML::Node& node, std::string_view what) const {
    auto text = reader_.Scalar(node, what);
    HLOCHECK_RETURN_IF_ERROR(text.status());
    AffineTemplate result;
    result.text = *text;
    result.location = reader_.TextStart(node);
    TemplateReader pieces_reader(result.text, result.location);
    auto pieces = pieces_reader.Pieces(0, result.text.size());
    HLOCHECK_RETURN_IF_ERROR(pieces.status());
    result.pieces = *std::move(pieces);
    std::string skeleton;
    std::vector<int> origin;
    Skeleton(result.pieces, skeleton, origin);
    constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
    AffineParseError error;
    if (!ParseAffineExpr(skeleton, kAny, kAny, &error).ok()) {
      size_t at = error.offset < static_cast<int>(origin.size()) ? origin[error.offset]
                                                                 : result.text.size();
      return pieces_reader.Error(at, error.message);
    }
    return result;
  }

  absl::StatusOr<std::optional<Formula>> When(const YAML::Node& entry) const {
    if (!entry["when"]) return std::optional<Formula>();
    auto formula = reader_.ParseFormulaNode(entry["when"], "when");
    HLOCHECK_RETURN_IF_ERROR(formula.status());
    return std::optional<Formula>(*std::move(formula));
  }

  // A template, or a list of {when, expr} cases of which the last (the
  // default) has no `when`.
  absl::StatusOr<std::vector<TemplateCase>> PerDimension(const YAML::Node& node,
                                                         std::string_view what) const {
    std::vector<TemplateCase> cases;
    if (node.IsScalar()) {
      auto expr = Template(node, what);
      HLOCHECK_RETURN_IF_ERROR(expr.status());
      cases.push_back({std::nullopt, *std::move(expr)});
      return cases;
    }
    if (!node.IsSequence() || node.size() == 0) {
      return reader_.Error(
          node, "expected a template or a list of {when, expr} cases for " + std::string(what));
    }
    for (const YAML::Node& entry : node) {
      if (auto s = reader_.CheckKeys(entry, std::string(what) + " case", {"expr"}, {"when"});
          !s.ok()) {
        return s;
      }
      auto when = When(entry);
      HLOCHECK_RETURN_IF_ERROR(when.status());
      auto expr = Template(entry["expr"], what);
      HLOCHECK_RETURN_IF_ERROR(expr.status());
      cases.push_back({*std::move(when), *std::move(expr)});
    }
    if (cases.back().when) {
      return reader_.Error(node[node.size() - 1], "the last case of " + std::string(what) +
                                                      " is the default and takes no 'when'");
    }
    return cases;
  }

  absl::StatusOr<Formula> RangeFormula(const YAML::Node& entry) const {
    return reader_.ParseFormulaNode(entry["range"], "range (a formula giving [lower, upper])");
  }

  absl::StatusOr<std::vector<BoundsCase>> Dims(const YAML::Node& node) const {
    std::vector<BoundsCase> cases;
    if (!node.IsSequence()) return reader_.Error(node, "expected a list of {when, range} cases");
    for (const YAML::Node& entry : node) {
      if (auto s = reader_.CheckKeys(entry, "dims case", {"range"}, {"when"}); !s.ok()) return s;
      auto when = When(entry);
      HLOCHECK_RETURN_IF_ERROR(when.status());
      auto range = RangeFormula(entry);
      HLOCHECK_RETURN_IF_ERROR(range.status());
      cases.push_back({*std::move(when), *std::move(range)});
    }
    return cases;
  }

  absl::StatusOr<std::vector<SymbolGroupTemplate>> Symbols(const YAML::Node& node) const {
    std::vector<SymbolGroupTemplate> groups;
    if (!node.IsSequence()) return reader_.Error(node, "expected a list of symbol groups");
    for (const YAML::Node& entry : node) {
      if (auto s = reader_.CheckKeys(entry, "symbol group", {"count", "range"},
                                     {"runtime", "element", "access"});
          !s.ok()) {
        return s;
      }
      SymbolGroupTemplate group;
      group.location = reader_.Where(entry);
      auto count = reader_.ParseFormulaNode(entry["count"], "count");
      HLOCHECK_RETURN_IF_ERROR(count.status());
      group.count = *std::move(count);
      auto range = RangeFormula(entry);
      HLOCHECK_RETURN_IF_ERROR(range.status());
      group.range = *std::move(range);
      if (entry["runtime"]) {
        group.runtime = entry["runtime"].Scalar();
        const ValueSpec* source = op_.FindOperand(group.runtime);
        if (source == nullptr) {
          return reader_.Error(entry["runtime"], "runtime names no operand of " + op_.name);
        }
        if (source->variadic != static_cast<bool>(entry["element"])) {
          return reader_.Error(entry, source->variadic
                                          ? "a variadic runtime operand needs 'element'"
                                          : "'element' is only for a variadic runtime operand");
        }
        if (entry["element"]) {
          auto element = reader_.ParseFormulaNode(entry["element"], "element");
          HLOCHECK_RETURN_IF_ERROR(element.status());
          group.element = *std::move(element);
        }
        if (entry["access"]) {
          auto access = PerDimension(entry["access"], "access");
          HLOCHECK_RETURN_IF_ERROR(access.status());
          group.access = *std::move(access);
        }
      } else if (entry["element"] || entry["access"]) {
        return reader_.Error(entry, "'element' and 'access' belong to a runtime group");
      } else if (!groups.empty() && !groups.back().runtime.empty()) {
        return reader_.Error(entry, "range variables come before runtime variables");
      }
      groups.push_back(std::move(group));
    }
    return groups;
  }

  absl::StatusOr<std::vector<ConstraintTemplate>> Constraints(const YAML::Node& node) const {
    std::vector<ConstraintTemplate> constraints;
    if (!node.IsSequence()) return reader_.Error(node, "expected a list of constraints");
    for (const YAML::Node& entry : node) {
      if (auto s = reader_.CheckKeys(entry, "constraint", {"expr", "range"}, {"when"}); !s.ok()) {
        return s;
      }
      ConstraintTemplate c;
      auto when = When(entry);
      HLOCHECK_RETURN_IF_ERROR(when.status());
      c.when = *std::move(when);
      auto expr = Template(entry["expr"], "constraint");
      HLOCHECK_RETURN_IF_ERROR(expr.status());
      c.expr = *std::move(expr);
      auto range = RangeFormula(entry);
      HLOCHECK_RETURN_IF_ERROR(range.status());
      c.range = *std::move(range);
      constraints.push_back(std::move(c));
    }
    return constraints;
  }

  absl::StatusOr<MapTemplate> Map(const YAML::Node& entry) const {
    if (auto s = reader_.CheckKeys(
            entry, "map", {"input"},
            {"kind", "dims", "symbols", "results", "constraints", "within_input"});
        !s.ok()) {
      return s;
    }
    MapTemplate map;
    map.location = reader_.Where(entry);
    map.input = entry["input"].Scalar();
    if (op_.FindOperand(map.input) == nullptr) {
      return reader_.Error(entry["input"], "expected an operand of " + op_.name);
    }
    if (const YAML::Node& kind = entry["kind"]) {
      if (kind.Scalar() == "index") {
        map.role = MapRole::kIndex;
      } else if (kind.Scalar() != "value") {
        return reader_.Error(kind, "expected value or index");
      }
    }
    if (entry["within_input"]) {
      auto within = reader_.Bool(entry["within_input"], "within_input");
      HLOCHECK_RETURN_IF_ERROR(within.status());
      map.within_input = *within;
    }
    if (entry["dims"]) {
      auto dims = Dims(entry["dims"]);
      HLOCHECK_RETURN_IF_ERROR(dims.status());
      map.dims = *std::move(dims);
    }
    if (entry["symbols"]) {
      auto symbols = Symbols(entry["symbols"]);
      HLOCHECK_RETURN_IF_ERROR(symbols.status());
      map.symbols = *std::move(symbols);
    }
    if (entry["results"]) {
      auto results = PerDimension(entry["results"], "results");
      HLOCHECK_RETURN_IF_ERROR(results.status());
      map.results = *std::move(results);
    }
    if (entry["constraints"]) {
      auto constraints = Constraints(entry["constraints"]);
      HLOCHECK_RETURN_IF_ERROR(constraints.status());
      map.constraints = *std::move(constraints);
    }
    return map;
  }

  const YamlReader& reader_;
  const OpSpec& op_;
};

}  // namespace

absl::StatusOr<IndexingMapsSpec> ParseIndexingMapsSpec(const YamlReader& reader,
                                                       const YAML::Node& node, const OpSpec& op) {
  return SectionReader(reader, op).Section(node);
}

}  // namespace hlocheck::spec
