// A case: one op instance with concrete inputs. It is what generators
// produce, what the oracle and every adapter run, and what reports print.
#ifndef HLOCHECK_CORE_CASE_H_
#define HLOCHECK_CORE_CASE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/attribute.h"
#include "core/program.h"
#include "core/tensor.h"
#include "core/types.h"

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
  // Set when an operand (result) is a token or a tuple: the type of every
  // operand (result) value, in the spec's order; segments then count these
  // values. `operands` (`result_types`) hold the tensors inside them,
  // depth-first, a token holding none, so that every backend sees the same
  // flat list of tensors. Empty when every operand (result) is a tensor.
  std::vector<ValueType> operand_structure;
  std::vector<ValueType> result_structure;
  // The process grid (the spec's num_replicas x num_partitions) of an op
  // that runs on every process of one (the collectives, replica_id,
  // partition_id). With more than one process, `operands` holds every
  // process's operands, one process after another in process order
  // (replica_id * num_partitions + partition_id), and `result_types` every
  // process's result types the same way; segments and structure describe
  // one process's (OneProcess). 1 x 1 for every other op.
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  int64_t ProcessCount() const { return num_replicas * num_partitions; }
  // Data crossing the op's boundary (TransferOf): infeed's from the host,
  // recv's from its channel's sender (the host, or the peer process the
  // case stands in for) arrive as `incoming`, one message: the tensors the
  // op's results hold, in order. What outfeed and send give away is
  // observed like results: the last `outgoing` tensors of `result_types`
  // are the message the host (or the peer) receives, after the op's own
  // results' tensors (none: a token).
  std::vector<Tensor> incoming;
  int64_t outgoing = 0;

  // The type of each operand (result) value: the structure when there is
  // one, else one tensor type per operand (result).
  std::vector<ValueType> OperandValueTypes() const;
  std::vector<ValueType> ResultValueTypes() const;

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

// Which way an op moves data across its boundary: infeed and recv take a
// message in (Case::incoming), outfeed and send give one out
// (Case::outgoing); every other op neither.
enum class Transfer { kNone, kIncoming, kOutgoing };
Transfer TransferOf(std::string_view op);

// Process `process`'s part of a case on a grid: its operands and result
// types, on the same grid (the case itself on a 1 x 1 grid).
Case OneProcess(const Case& c, int64_t process);

// The number of tensors a value of `type` holds (a tensor 1, a token 0, a
// tuple the sum over its elements), and their types, depth-first.
int64_t LeafCount(const ValueType& type);
void AppendLeafTypes(const ValueType& type, std::vector<TensorType>* leaves);
// Where the tensors of value `index` of `values` begin among all of theirs.
int64_t LeafOffset(const std::vector<ValueType>& values, size_t index);
// Whether the case's tensors are those its structure says, in type and
// number; on a mismatch, `why` (if not null) says where.
bool LeavesMatchStructure(const Case& c, std::string* why = nullptr);

// Whether an operand or result tensor of the case is quantized.
bool HasQuantizedTensor(const Case& c);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_CASE_H_
