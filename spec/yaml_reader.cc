#include "spec/yaml_reader.h"

#include <algorithm>
#include <set>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "spec/formula/parser.h"

namespace hlocheck::spec {

absl::Status YamlReader::Error(const YAML::Node& node, const std::string& message) const {
  return absl::InvalidArgumentError(Where(node).ToString() + ": " + message);
}

SourceLocation YamlReader::Where(const YAML::Node& node) const {
  YAML::Mark mark = node.Mark();
  if (mark.is_null()) return {file_, 1, 1};
  return {file_, mark.line + 1, mark.column + 1};
}

SourceLocation YamlReader::TextStart(const YAML::Node& node) const {
  SourceLocation at = Where(node);
  if (node.Tag() == "!") at.column += 1;
  return at;
}

absl::Status YamlReader::CheckKeys(const YAML::Node& map, std::string_view what,
                                   std::initializer_list<std::string_view> required,
                                   std::initializer_list<std::string_view> optional) const {
  if (!map.IsMap()) return Error(map, "expected a mapping for " + std::string(what));
  std::set<std::string> seen;
  for (const auto& entry : map) {
    std::string key = entry.first.Scalar();
    // yaml-cpp keeps the first of two equal keys; the second is a mistake.
    if (!seen.insert(key).second) {
      return Error(entry.first, "duplicate key '" + key + "' in " + std::string(what));
    }
    bool known = std::find(required.begin(), required.end(), key) != required.end() ||
                 std::find(optional.begin(), optional.end(), key) != optional.end();
    if (!known) {
      std::string expected;
      for (auto k : required) expected += (expected.empty() ? "" : ", ") + std::string(k);
      for (auto k : optional) expected += (expected.empty() ? "" : ", ") + std::string(k);
      return Error(entry.first, "unknown key '" + key + "' in " + std::string(what) +
                                    "; expected one of: " + expected);
    }
  }
  for (auto k : required) {
    if (!map[std::string(k)]) {
      return Error(map, "missing key '" + std::string(k) + "' in " + std::string(what));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> YamlReader::Scalar(const YAML::Node& node,
                                               std::string_view what) const {
  if (!node.IsScalar()) return Error(node, "expected a text value for " + std::string(what));
  return node.Scalar();
}

absl::StatusOr<bool> YamlReader::Bool(const YAML::Node& node, std::string_view what) const {
  auto text = Scalar(node, what);
  HLOCHECK_RETURN_IF_ERROR(text.status());
  if (*text == "true") return true;
  if (*text == "false") return false;
  return Error(node, "expected true or false for " + std::string(what));
}

absl::StatusOr<Formula> YamlReader::ParseFormulaNode(const YAML::Node& node,
                                                     std::string_view what) const {
  auto text = Scalar(node, what);
  HLOCHECK_RETURN_IF_ERROR(text.status());
  Formula formula;
  formula.text = *text;
  formula.location = TextStart(node);
  ParseError error;
  auto expr = ParseFormula(formula.text, &error);
  if (!expr.ok()) {
    SourceLocation at = formula.location;
    at.column += error.offset;
    return absl::InvalidArgumentError(at.ToString() + ": in " + std::string(what) + " '" +
                                      formula.text + "': " + error.message);
  }
  formula.expr = *expr;
  return formula;
}

}  // namespace hlocheck::spec
