// An op's attributes between MLIR spelling and the spec's typed values.
//
// The spec names attributes as seed 002 does (e.g. gather's offset_dims);
// MLIR groups some of them into structs (`dimension_numbers =
// #stablehlo.gather<offset_dims = [..], ...>`), spells enums as dialect
// attributes (`#stablehlo<comparison_direction LT>`), and uses arrays
// (`array<i64: 1, 0>`) or, in older text, dense literals for lists. Each op's
// YAML says which group an attribute lives in (`mlir: {group: ...}`); the
// dialect spelling of each group is in the table in op_attributes.cc.
#ifndef HLOCHECK_MLIR_OP_ATTRIBUTES_H_
#define HLOCHECK_MLIR_OP_ATTRIBUTES_H_

#include <map>
#include <string>

#include "core/attribute.h"
#include "mlir/attribute_syntax.h"
#include "spec/op_spec.h"

namespace hlocheck::mlir {

struct DecodedAttributes {
  std::map<std::string, Attribute> values;  // by spec name
  // Discardable attributes of other dialects (`mhlo.sharding = ...`), verbatim.
  std::map<std::string, std::string> foreign;
};

// Decodes the attributes of a stablehlo op. Throws SyntaxError (at the
// attribute's position) for an attribute the op does not have or a value of
// the wrong kind.
DecodedAttributes DecodeAttributes(const spec::OpSpec& op, const AttrDict& dict,
                                   const Cursor& cursor);

// Gives the members of a struct attribute (gather's dimension_numbers, ...)
// that its text omitted their zero or empty value, as MLIR does.
void FillGroupDefaults(const spec::OpSpec& op, std::map<std::string, Attribute>& values);

// Gives convolution, reduce_window and select_and_scatter the window
// attributes their text left out (MLIR's defaults: ones, zero padding, no
// reversal), sized by the operands' rank.
void FillWindowDefaults(const spec::OpSpec& op, const std::vector<ValueType>& operand_types,
                        std::map<std::string, Attribute>& values);

// Decodes one attribute value for `spec` (used by the custom op syntaxes).
Attribute DecodeAttribute(const spec::AttributeSpec& spec, const AttrSyntax& syntax,
                          const Cursor& cursor);

// The attribute dictionary entries of a case's attributes, in MLIR
// spelling: `name = value` strings, groups assembled.
std::vector<std::string> EncodeAttributes(const spec::OpSpec& op,
                                          const std::map<std::string, Attribute>& attributes);

// The MLIR spelling of one value outside any group (`array<i64: 1, 2>`,
// `#stablehlo<precision DEFAULT>`, `5 : i64`, ...).
std::string EncodeAttributeValue(const spec::AttributeSpec& spec, const Attribute& attribute);

}  // namespace hlocheck::mlir

#endif  // HLOCHECK_MLIR_OP_ATTRIBUTES_H_
