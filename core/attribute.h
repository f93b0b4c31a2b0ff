// Attributes: the constant inputs of an op (dimension lists, enumerators,
// tensor constants, ...) as cases and programs carry them.
#ifndef HLOCHECK_CORE_ATTRIBUTE_H_
#define HLOCHECK_CORE_ATTRIBUTE_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/tensor.h"

namespace hlocheck {

// An enumerator of a spec enum, e.g. precision DEFAULT or comparison LT.
struct EnumValue {
  std::string name;
  bool operator==(const EnumValue&) const = default;
};

// A constant (attribute) input of an op.
using Attribute =
    std::variant<bool, int64_t, double, std::string, EnumValue, std::vector<int64_t>,
                 std::vector<bool>, std::vector<EnumValue>, std::vector<std::string>, Tensor>;

std::string AttributeToString(const Attribute& attribute);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_ATTRIBUTE_H_
