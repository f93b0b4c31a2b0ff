// The indexing maps of the op files (seed 004) as properties of generated
// cases, on the oracle and on the CPU backend:
//   (a) every output element equals, bit for bit, the input element its map
//       points to (the first value map whose domain holds its index: pad's
//       operand before padding_value, dynamic_update_slice's update before
//       its operand);
//   (b) changing an input element that no map reaches leaves every output
//       bit unchanged.
// The CPU backend runs all eleven ops: a case it turns down is a failure.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstring>

#include "core/status_macros.h"
#include "spec/indexing_map_check.h"
#include "spec/indexing_map_template.h"
#include "tests/runners/cpu_session.h"

namespace hlocheck {
namespace {

enum class Backend { kOracle, kCpu };

absl::StatusOr<std::vector<Tensor>> Outputs(Backend backend, const Case& c) {
  Session& session = CpuSession();
  if (backend == Backend::kCpu) return session.adapter->Run(c);
  auto expectations = session.oracle->Run(c);
  HLOCHECK_RETURN_IF_ERROR(expectations.status());
  std::vector<Tensor> outputs;
  for (ResultExpectation& e : *expectations) outputs.push_back(std::move(e.reference));
  return outputs;
}

struct Element {
  size_t operand;
  int64_t index;
};

void CheckMaps(const std::string& name, Backend backend) {
  Session& session = CpuSession();
  const spec::OpSpec& op = *session.registry->Find(name);
  GenerationOptions options;
  options.max_elements = 1024;
  const Case c = *CaseGenerator(op, options);
  if (backend == Backend::kCpu) {
    AdapterSupport support = session.adapter->Supports(c);
    if (!support.supported) RC_FAIL("the CPU backend turns the case down: " + support.reason);
  }
  auto maps = spec::InstantiateIndexingMaps(op, c);
  if (!maps.ok()) RC_FAIL(std::string(maps.status().message()));
  auto outputs = Outputs(backend, c);
  if (!outputs.ok()) RC_FAIL(std::string(outputs.status().message()));
  RC_ASSERT(outputs->size() == 1u);

  // (a) A quantized iota holds quantized indices, which no map says (its
  // values are the oracle's and the gate's to check).
  if ((*outputs)[0].type().quantization && maps->value_of_index) {
    RC_TAG("quantized output of an index: not a value map's");
  } else {
    auto compared = spec::CheckValueMaps(*maps, c, (*outputs)[0]);
    if (!compared.ok()) RC_FAIL(std::string(compared.status().message()));
    RC_CLASSIFY(compared->compared + compared->unspecified == 0, "empty output");
    RC_CLASSIFY(compared->unspecified > 0, "unspecified output elements");
  }

  // (b)
  if (maps->maps.empty()) {
    RC_TAG("no inputs");
    return;
  }
  auto reached = spec::ReachedElements(*maps, c);
  if (!reached.ok()) RC_FAIL(std::string(reached.status().message()));
  std::vector<Element> unreached;
  for (size_t o = 0; o < reached->inputs.size(); ++o) {
    for (size_t e = 0; e < reached->inputs[o].size(); ++e) {
      if (!reached->inputs[o][e]) unreached.push_back({o, static_cast<int64_t>(e)});
    }
  }
  RC_CLASSIFY(!unreached.empty(), "an unreached input element");
  if (unreached.empty()) return;
  const Element pick = unreached[*rc::gen::inRange<size_t>(0, unreached.size())];
  Case changed = c;
  Tensor& input = changed.operands[pick.operand];
  // The lowest bit of the element's first byte: a value bit in every
  // container (little-endian), so the changed element is valid and differs.
  input.bytes()[pick.index * ContainerBytes(input.element_type())] ^= std::byte{1};
  auto changed_outputs = Outputs(backend, changed);
  if (!changed_outputs.ok()) RC_FAIL(std::string(changed_outputs.status().message()));
  // Output elements the spec gives no value may change.
  const Tensor& before = (*outputs)[0];
  const Tensor& after = (*changed_outputs)[0];
  RC_ASSERT(after.type() == before.type());
  const size_t bytes = ContainerBytes(before.element_type());
  for (int64_t e = 0; e < before.num_elements(); ++e) {
    if (!reached->output_specified[e]) continue;
    if (std::memcmp(before.bytes().data() + e * bytes, after.bytes().data() + e * bytes, bytes)) {
      RC_FAIL("changing operand " + std::to_string(pick.operand) + " element " +
              std::to_string(pick.index) + ", which no map reaches, changed output element " +
              std::to_string(e));
    }
  }
}

#define INDEXING_MAP_PROPERTIES(Name, op)                                                     \
  RC_GTEST_PROP(IndexingMapProperty, Name##OnOracle, ()) { CheckMaps(op, Backend::kOracle); } \
  RC_GTEST_PROP(IndexingMapProperty, Name##OnCpu, ()) { CheckMaps(op, Backend::kCpu); }

INDEXING_MAP_PROPERTIES(BroadcastInDim, "broadcast_in_dim")
INDEXING_MAP_PROPERTIES(Transpose, "transpose")
INDEXING_MAP_PROPERTIES(Reverse, "reverse")
INDEXING_MAP_PROPERTIES(Slice, "slice")
INDEXING_MAP_PROPERTIES(Reshape, "reshape")
INDEXING_MAP_PROPERTIES(Concatenate, "concatenate")
INDEXING_MAP_PROPERTIES(Pad, "pad")
INDEXING_MAP_PROPERTIES(DynamicSlice, "dynamic_slice")
INDEXING_MAP_PROPERTIES(DynamicUpdateSlice, "dynamic_update_slice")
INDEXING_MAP_PROPERTIES(Gather, "gather")
INDEXING_MAP_PROPERTIES(Iota, "iota")

}  // namespace
}  // namespace hlocheck
