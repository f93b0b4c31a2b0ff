// A case: one op instance with concrete inputs. It is what generators
// produce, what the oracle and every adapter run, and what reports print.
#ifndef HLOCHECK_CORE_CASE_H_
#define HLOCHECK_CORE_CASE_H_

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "core/attribute.h"
#include "core/program.h"
#include "core/tensor.h"

namespace hlocheck {

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
  // Function inputs (reduce's body, sort's comparator, case's branches), in
  // the spec's order; region_segments as for operands.
  std::vector<Region> regions;
  std::vector<int64_t> region_segments;

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
