// A case: one op instance with concrete inputs. It is what generators
// produce, what the oracle and every adapter run, and what reports print.
#ifndef HLOCHECK_CORE_CASE_H_
#define HLOCHECK_CORE_CASE_H_

#include <cstdint>
#include <map>
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
using Attribute = std::variant<bool, int64_t, double, std::string, EnumValue, std::vector<int64_t>,
                               std::vector<bool>, std::vector<EnumValue>, std::vector<std::string>,
                               Tensor>;

std::string AttributeToString(const Attribute& attribute);

struct Case {
  std::string op;
  // Non-constant inputs in the spec's order. A variadic input contributes
  // several tensors; operand_segments then says how many each spec input
  // has (MLIR's operandSegmentSizes). Empty means one tensor per input.
  std::vector<Tensor> operands;
  std::vector<int64_t> operand_segments;
  std::map<std::string, Attribute> attributes;
  std::vector<TensorType> result_types;
  std::vector<int64_t> result_segments;

  const Attribute* FindAttribute(const std::string& name) const {
    auto it = attributes.find(name);
    return it == attributes.end() ? nullptr : &it->second;
  }
  // The attribute as T; throws std::bad_variant_access or std::out_of_range.
  template <typename T>
  const T& attribute(const std::string& name) const {
    return std::get<T>(attributes.at(name));
  }
};

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_CASE_H_
