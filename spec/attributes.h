// Conversions between attribute values as the spec's YAML and formulas see
// them (Values) and as cases carry them (Attributes), checked against the
// attribute's declared type.
#ifndef HLOCHECK_SPEC_ATTRIBUTES_H_
#define HLOCHECK_SPEC_ATTRIBUTES_H_

#include <string>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "spec/formula/value.h"
#include "spec/op_spec.h"

namespace hlocheck::spec {

// A formula or YAML value as an attribute of the declared type (ints for
// si64[], enumerator names for enum[], ...).
absl::StatusOr<Attribute> AttributeFromValue(const AttributeSpec& spec, const Value& value);

// A YAML scalar or flow sequence (`[1, 0]`, `DEFAULT`, `true`) as an attribute.
absl::StatusOr<Attribute> AttributeFromYaml(const AttributeSpec& spec, const std::string& yaml);

// The attribute's type as the spec names it: "si64[]", "enum[]", ...
std::string AttributeTypeName(AttributeType type);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_ATTRIBUTES_H_
