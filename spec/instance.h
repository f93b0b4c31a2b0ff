// An op instance as the verifier sees it: the types of its operands and
// results, its attribute values, the signatures of its regions and the size
// of the process grid it runs on. Data does not matter to constraints.
//
// Instances are written in YAML (the "case format", docs/spec-format.md):
//
//   op: reduce
//   operands: {inputs: [tensor<1x6xi64>], init_values: ["dense<0> : tensor<i64>"]}
//   attributes: {dimensions: [1]}
//   regions: {body: "(tensor<i64>, tensor<i64>) -> tensor<i64>"}
//   results: {results: [tensor<1xi64>]}
//
// A value is a type or a dense literal (whose type is taken); variadic
// operands, results and regions take lists.
#ifndef HLOCHECK_SPEC_INSTANCE_H_
#define HLOCHECK_SPEC_INSTANCE_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "core/types.h"
#include "spec/op_spec.h"

namespace YAML {
class Node;
}

namespace hlocheck::spec {

struct OpInstance {
  std::string op;
  // One entry per spec operand/result/region, in spec order; a variadic one
  // may hold any number of values, a plain one exactly one.
  std::vector<std::vector<ValueType>> operands;
  std::map<std::string, Attribute> attributes;
  std::vector<std::vector<FunctionType>> regions;
  std::vector<std::vector<ValueType>> results;
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;

  // The operand and result types of a runnable case.
  static OpInstance FromCase(const OpSpec& op, const Case& c);
};

// How many of `count` values each of `specs` takes: one per plain input, the
// rest to the variadic one, or shared equally when several are variadic (as
// MLIR's SameVariadicOperandSize). Errors when the count cannot fit.
absl::StatusOr<std::vector<int64_t>> SegmentSizes(const std::vector<ValueSpec>& specs,
                                                  size_t count);
absl::StatusOr<std::vector<int64_t>> RegionSegmentSizes(const std::vector<RegionSpec>& specs,
                                                        size_t count);

// An op of a program as an instance: types split by the spec's inputs,
// attributes, region signatures.
absl::StatusOr<OpInstance> InstanceFromOperation(const OpSpec& op, const Operation& operation);

// Reads an instance of `op` from YAML (operands, attributes, regions,
// results, num_replicas, num_partitions), starting from `base` when given:
// keys present replace the base's entries (how a constraint's `violated_by`
// mutates the op's example). Errors name the YAML position.
absl::StatusOr<OpInstance> InstanceFromYaml(const OpSpec& op, const YAML::Node& node,
                                            const std::string& file,
                                            const OpInstance* base = nullptr);

// The same from text: a whole case file (`op:` selects the op).
absl::StatusOr<OpInstance> InstanceFromYamlText(const OpSpec& op, const std::string& yaml,
                                                const std::string& file,
                                                const OpInstance* base = nullptr);

// The op's example as an instance, and a constraint's violating instance.
absl::StatusOr<OpInstance> ExampleInstance(const OpSpec& op);
absl::StatusOr<OpInstance> ViolatingInstance(const OpSpec& op, const ConstraintSpec& constraint);

}  // namespace hlocheck::spec

#endif  // HLOCHECK_SPEC_INSTANCE_H_
