// Reading the spec's YAML files with positions: every error names
// file:line:column and what was expected there. Shared by the op file
// loader (op_spec.cc) and the indexing-map section (indexing_map_template.cc).
#ifndef HLOCHECK_SPEC_YAML_READER_H_
#define HLOCHECK_SPEC_YAML_READER_H_

#include <initializer_list>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "spec/op_spec.h"
#include "yaml-cpp/yaml.h"

namespace hlocheck::spec {

class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  absl::Status Error(const YAML::Node& node, const std::string& message) const;
  SourceLocation Where(const YAML::Node& node) const;
  // Where a scalar's text starts (one column after the mark of a quoted one).
  SourceLocation TextStart(const YAML::Node& node) const;
  // A mapping with these keys and no others.
  absl::Status CheckKeys(const YAML::Node& map, std::string_view what,
                         std::initializer_list<std::string_view> required,
                         std::initializer_list<std::string_view> optional) const;
  absl::StatusOr<std::string> Scalar(const YAML::Node& node, std::string_view what) const;
  absl::StatusOr<bool> Bool(const YAML::Node& node, std::string_view what) const;
  absl::StatusOr<Formula> ParseFormulaNode(const YAML::Node& node, std::string_view what) const;

 protected:
  std::string file_;
};

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_YAML_READER_H_
