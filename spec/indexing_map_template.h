// An op file's `indexing_maps:` section: the op's output-to-input indexing
// maps (seed 004) written once for every shape and attribute value, as
// templates in seed 004's affine notation with holes filled by the spec's
// formula notation, and their instantiation for one op instance.
// docs/spec-format.md ("Indexing maps") describes the notation.
#ifndef HLOCHECK_SPEC_INDEXING_MAP_TEMPLATE_H_
#define HLOCHECK_SPEC_INDEXING_MAP_TEMPLATE_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "spec/indexing_map.h"
#include "spec/op_spec.h"

namespace YAML {
class Node;
}

namespace hlocheck::spec {

class YamlReader;
struct OpInstance;

// Seed 004 expression text with holes: `{formula}` becomes the formula's
// integer value (`d{k}` is dimension k), and `sum(BODY for NAME in FORMULA)`
// the sum of BODY over the formula's list (0 for an empty list).
struct AffineTemplate {
  struct Piece {
    enum class Kind { kText, kHole, kSum };
    Kind kind = Kind::kText;
    std::string text;         // kText
    Formula formula;          // kHole: the value; kSum: the list
    std::string variable;     // kSum
    std::vector<Piece> body;  // kSum
    int offset = 0;           // where the piece starts in the template's text
  };
  std::string text;
  SourceLocation location;
  std::vector<Piece> pieces;
};

// One case of a per-dimension template: applies where `when` holds (always
// when absent); the first that applies is taken.
struct TemplateCase {
  std::optional<Formula> when;
  AffineTemplate expr;
};

// Bounds of the output dimension k where `when` holds: `range` is a formula
// giving [lower, upper] (inclusive).
struct BoundsCase {
  std::optional<Formula> when;
  Formula range;
};

// `count` symbols, each p of them bounded by `range` ([lower, upper]); with
// `runtime`, read from that input (element `element` of a variadic one) at
// `access`, one template per dimension k of the value read.
struct SymbolGroupTemplate {
  Formula count;
  Formula range;
  std::string runtime;
  std::optional<Formula> element;
  std::vector<TemplateCase> access;
  SourceLocation location;
};

struct ConstraintTemplate {
  std::optional<Formula> when;
  AffineTemplate expr;
  Formula range;
};

// What a map says about the output element at d:
//   kValue: it equals the input element the map points to (the first value
//           map, in the file's order, whose domain holds d);
//   kIndex: it depends on the input elements the map covers (start
//           indices), but is not one of them.
enum class MapRole { kValue, kIndex };

struct MapTemplate {
  std::string input;  // an operand name; a variadic one gives one map per element
  MapRole role = MapRole::kValue;
  std::vector<BoundsCase> dims;  // default: [0, dim(result, k) - 1]
  std::vector<SymbolGroupTemplate> symbols;
  std::vector<TemplateCase> results;            // one expression per input dimension k
  std::vector<ConstraintTemplate> constraints;  // instantiated per input dimension k
  // Adds the constraints that every result lies inside the input's shape
  // (dropped where they always hold): for a map that can point outside it.
  bool within_input = false;
  SourceLocation location;
};

struct IndexingMapsSpec {
  std::string note;
  std::vector<std::pair<std::string, Formula>> definitions;
  std::vector<MapTemplate> maps;  // value maps in priority order
  // Why some output elements may lie in no value map's domain: the spec
  // gives them no value. Empty: every output element lies in one.
  std::string uncovered;
  // For an op without inputs (iota): the value of the output element at d,
  // as one expression of d, before conversion to the element type.
  std::optional<AffineTemplate> value_of_index;
};

// Reads the section; errors name file:line:column and what was expected.
absl::StatusOr<IndexingMapsSpec> ParseIndexingMapsSpec(const YamlReader& reader,
                                                       const YAML::Node& node, const OpSpec& op);

// One concrete map: output index -> index of one input tensor.
struct InputIndexingMap {
  std::string input;
  int64_t element = -1;       // position within a variadic input; -1 for a plain one
  int64_t operand_index = 0;  // position in the case's flat operand list
  MapRole role = MapRole::kValue;
  IndexingMap map;
  std::string Name() const;  // "inputs[1]", "operand"
};

struct OpIndexingMaps {
  std::vector<InputIndexingMap> maps;  // value maps in priority order
  std::string uncovered;               // IndexingMapsSpec::uncovered
  std::optional<AffineMap> value_of_index;
};

// The op's maps for the shapes and attributes of `instance`, simplified
// with the variables' ranges; constraints that always hold are dropped.
absl::StatusOr<OpIndexingMaps> InstantiateIndexingMaps(const OpSpec& op,
                                                       const OpInstance& instance);
// The same for a case's shapes and attributes.
absl::StatusOr<OpIndexingMaps> InstantiateIndexingMaps(const OpSpec& op, const Case& c);

// Reads runtime variables from the case's operands: the integer at the
// index, saturated to int64_t (only ui64 values above 2^63 - 1 saturate;
// the feasible ranges lie inside int64_t, so clamping the saturated value
// gives what clamping the exact one gives). The reader refers to `c`, which
// must outlive it.
RuntimeValueReader CaseValueReader(const Case& c);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_INDEXING_MAP_TEMPLATE_H_
