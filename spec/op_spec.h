// One op of the spec as loaded from spec/ops/<op>.yaml: its inputs, element
// types, attributes, results, numbered constraints, generation recipe,
// example and numerics. docs/spec-format.md describes the file format.
#ifndef HLOCHECK_SPEC_OP_SPEC_H_
#define HLOCHECK_SPEC_OP_SPEC_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/element_type.h"
#include "spec/formula/ast.h"

namespace hlocheck::spec {

// Where something came from, for error messages: file:line:column.
struct SourceLocation {
  std::string file;
  int line = 0;    // 1-based
  int column = 0;  // 1-based
  std::string ToString() const;
};

// A formula as written in the YAML, parsed once at load time.
struct Formula {
  std::string text;
  ExprPtr expr;
  SourceLocation location;  // of the first character of `text`
};

enum class ValueKind { kTensor, kToken, kTuple, kAny };

struct TypeSet {
  std::vector<ElementType> element_types;  // in AllElementTypes() order, no duplicates
  bool per_tensor_quantized = false;
  bool per_axis_quantized = false;
  bool Contains(ElementType t) const;
};

struct ValueSpec {  // an operand or a result
  std::string name;
  std::string label;  // I1, I2, ... (operands only)
  ValueKind kind = ValueKind::kTensor;
  bool variadic = false;
  TypeSet types;
  std::string description;
  // What the operand's data means to the generators: "indices" for start
  // indices and scatter/gather indices, whose values are drawn inside, at and
  // beyond the bounds the spec clamps or skips at; "identity" for init
  // values, mostly the identity of the combiner the op's first region body
  // computes (a sum starts at 0, a maximum at -Inf), as real programs do;
  // "positive_definite" (cholesky's a) and "triangular" (triangular_solve's
  // a) for matrices the linear algebra ops are defined on, mostly
  // (generators/data.h, MatrixData); "loop_counter" for while's operands,
  // whose loop counter mostly starts where the cond's range makes the loop
  // run (generators/region_bodies.h, counter_in_range). Empty: ordinary data.
  std::string data;
  // The rank seed 002's Inputs or Outputs table gives the value (a
  // 0-dimensional padding_value, a 1-dimensional batch-norm scale) where no
  // numbered constraint states it. The loader turns it into a constraint of
  // source "inputs" (RankConstraintId), so that the verifier, the negative
  // generators and coverage treat it like any numbered one.
  std::optional<int64_t> rank;
};

// How reports name the rank rule of a value: "padding_value.rank".
std::string RankConstraintId(const ValueSpec& value);

enum class AttributeType {
  kBool,   // i1 constant
  kInt,    // si64 (or si32) constant
  kFloat,  // f32 constant
  kString,
  kEnum,         // one of `enum_values`
  kIntArray,     // 1-D si64 tensor constant
  kBoolArray,    // 1-D i1 tensor constant
  kEnumArray,    // variadic enum
  kIntMatrix,    // 2-D si64 tensor constant (replica_groups, padding, ...)
  kTensor,       // any tensor constant, as a dense literal (constant's value)
  kStringArray,  // symbol names (custom_call's called_computations)
};

// How an attribute is spelled in MLIR text.
struct MlirSpelling {
  std::string group;  // name of an attribute struct the value lives in, e.g. dot_dimension_numbers
  std::string enum_attr;  // e.g. "precision" for #stablehlo<precision DEFAULT>
  bool unit = false;      // a boolean spelled as a unit attribute: its name when true, else absent
  // Passed in MLIR as an operand after the spec's operands, a 1-D si64
  // tensor made by a stablehlo.constant (rng's shape).
  bool operand = false;
};

struct AttributeSpec {
  std::string name;
  std::string label;
  AttributeType type = AttributeType::kInt;
  std::vector<std::string> enum_values;
  std::optional<std::string> default_value;  // YAML text of the default, when optional
  bool optional = false;                     // may be absent; absent, it is its default or None
  // kInt: the constant's element type (si64 or si32), for MLIR spelling.
  ElementType integer_type = ElementType::kSI64;
  MlirSpelling mlir;
  std::string description;
};

struct OpInstance;
struct IndexingMapsSpec;  // spec/indexing_map_template.h

struct ConstraintSpec {
  std::string id;    // "C1"
  std::string text;  // English
  Formula formula;
  std::optional<Formula> condition;  // the constraint applies only when this holds
  // "seed" (002's numbered constraints), "public" (the newer spec), or
  // "inputs" (a rank from 002's Inputs/Outputs tables, see ValueSpec::rank).
  std::string source = "seed";
  std::string note;  // e.g. what a corrected typo was
  // An instance that violates this constraint and no other: the example,
  // mutated. Or, when that is impossible, the reason.
  std::shared_ptr<const OpInstance> violating;
  std::string not_violable_alone;

  // How reports name it: "C3", or "C18 (public)" for the newer spec's.
  std::string DisplayId() const { return source == "public" ? id + " (public)" : id; }
};

enum class NumericsClass {
  kExact,             // integers, booleans, data movement, exactly representable results
  kCorrectlyRounded,  // IEEE basic operations and conversions: 0 ULP unless stated
  kTranscendental,    // the oracle is correctly rounded; backends get a ULP bound per type
  kAccumulation,      // reductions and contractions: an error bound derived per element
  kImplementationDefined,
};

struct NumericsSpec {
  NumericsClass numerics_class = NumericsClass::kExact;
  std::map<ElementType, int> ulp;  // allowed ULP distance per element type
  int default_ulp = 0;
  std::string notes;
  int AllowedUlp(ElementType type) const;
};

struct RecipeStep {
  std::string name;  // an operand, attribute or result name, or a local name
  Formula formula;
};

// A region (a function-typed input such as reduce's body).
struct RegionSpec {
  std::string name;
  std::string label;
  bool variadic = false;  // case's branches
  std::string description;
};

struct ExampleSpec {
  // The example as an instance (types, attributes, region signatures).
  std::shared_ptr<const OpInstance> instance;
  // The values given as dense literals, by operand and result name, in spec
  // order (variadic ones several times); empty when the example has values
  // that are not tensors (tokens, tuples).
  std::vector<std::pair<std::string, std::string>> operand_literals;
  std::vector<std::pair<std::string, std::string>> result_literals;
  // Every operand and result is a tensor literal, no regions, one process.
  bool runnable = false;
  std::string mlir;  // the example op as written in the spec
};

// What an op computes on quantized tensors: the spec's "for quantized types"
// sentence of each op that accepts them (docs/spec-format.md).
enum class QuantizedSemantics {
  kNone,                      // the op takes no quantized tensor
  kDequantizeOpQuantize,      // dequantize every quantized operand, compute in
                              // the expressed type, quantize every quantized
                              // result (also batch_norm_grad/_training's variant
                              // and dot_general/convolution's hybrid form)
  kDequantizeCompare,         // compare: the dequantized operands compared as floats
  kDequantizeSelectQuantize,  // select: on_true/on_false dequantized, quantized
  kStorage,  // moves elements: their storage integers move, the result's type says what they mean
  kRegions,  // whatever its regions compute on the quantized values they get
  kOwn,      // its own semantics define it (uniform_quantize, iota, is_finite, ...)
};
std::string_view QuantizedSemanticsName(QuantizedSemantics semantics);
// Whether the op's quantized cases are computed today (the oracle's
// Compute, so also given data by the generator and run by the interpreter):
// every form, the region ops' too (their bodies compute on quantized
// scalars, op by op).
bool ComputesOnQuantized(QuantizedSemantics semantics);

struct OpSpec {
  std::string name;      // the StableHLO mnemonic, e.g. "dot_general"
  std::string category;  // elementwise, data_movement, reduction, ...
  std::string summary;
  std::string seed_heading;  // the heading in seed 002, which may be translated
  std::vector<ValueSpec> operands;
  std::vector<AttributeSpec> attributes;
  std::vector<ValueSpec> results;
  std::vector<RegionSpec> regions;
  // Attributes the newer public spec added that this file does not model
  // yet: MLIR text may carry them (the reader keeps them verbatim), and an
  // instance that has one is reported as unsupported rather than verified.
  std::vector<std::string> unmodelled_attributes;
  std::vector<std::pair<std::string, Formula>> definitions;
  std::vector<ConstraintSpec> constraints;
  NumericsSpec numerics;
  // kNone exactly when no operand or result admits a quantized type.
  QuantizedSemantics quantized_semantics = QuantizedSemantics::kNone;
  std::vector<RecipeStep> recipe;
  ExampleSpec example;
  // The output-to-input indexing maps (seed 004) as templates; null when the
  // op file has no indexing_maps section.
  std::shared_ptr<const IndexingMapsSpec> indexing_maps;
  std::string file;

  const ValueSpec* FindOperand(std::string_view name) const;
  const ValueSpec* FindResult(std::string_view name) const;
  const AttributeSpec* FindAttribute(std::string_view name) const;
  size_t seed_constraint_count() const;
};

// Constraints on a kind of type rather than an op (seed 002 "Types": the
// quantized element type C1-C12 and the quantized tensor type C12-C13).
// Their formulas see the type's parts by name: storage_type, storage_min,
// storage_max, expressed_type, quantization_dimension, scales, zero_points,
// and self (the whole tensor type).
struct TypeConstraints {
  std::string name;  // e.g. "quantized type"
  std::string summary;
  std::vector<ConstraintSpec> constraints;
  std::string file;
};

absl::StatusOr<TypeConstraints> LoadTypeConstraints(const std::string& path);

// Loads and validates one op file. Errors name file:line:column and what was expected.
absl::StatusOr<OpSpec> LoadOpSpec(const std::string& path);
// The same from YAML text (tests); `file` is used in messages.
absl::StatusOr<OpSpec> ParseOpSpec(const std::string& yaml_text, const std::string& file);

// Element type classes the YAML may name: bool, int, sint, uint, float, complex, any.
std::optional<std::vector<ElementType>> ExpandTypeClass(std::string_view name);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_OP_SPEC_H_
