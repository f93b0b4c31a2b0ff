// map (seed 002): result[i] = computation(inputs[0][i], ..., inputs[N-1][i])
// for every index i (dimensions is every dimension, in order). The
// computation runs on the oracle as a PreparedRegion. Its result is exact
// where every op of the computation is exact or correctly rounded to 0 ULP
// for its types (by the ops' own numerics in spec/ops); an element that an
// op of the computation leaves to the implementation is free. A computation
// with an op of a looser tolerance (a transcendental function, a
// reduction) would need that op's bound carried through the region, which
// the oracle does not do: its elements are free, with the oracle's value as
// the convention, and reports say which op.
#include <cstring>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "oracle/data_movement_helpers.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

// The first op of the region whose result may differ from the oracle's by
// more than nothing, or "" when there is none.
std::string InexactOp(const Region& region) {
  absl::StatusOr<const spec::SpecRegistry*> registry = spec::DefaultRegistry();
  for (const Block& block : region.blocks) {
    for (const Operation& op : block.operations) {
      if (op.name == "stablehlo.return" || op.name == "func.return") continue;
      for (const Region& nested : op.regions) {
        if (std::string inner = InexactOp(nested); !inner.empty()) return inner;
      }
      const std::string_view name = std::string_view(op.name).substr(op.name.find('.') + 1);
      const spec::OpSpec* spec = registry.ok() ? (*registry)->Find(name) : nullptr;
      if (spec == nullptr) return op.name;
      const spec::NumericsSpec& numerics = spec->numerics;
      if (numerics.numerics_class == spec::NumericsClass::kExact) continue;
      bool exact = numerics.numerics_class == spec::NumericsClass::kCorrectlyRounded;
      // Complex products and quotients are not IEEE basic operations: the
      // oracle bounds them (multiply.yaml); sums and negations are exact
      // part by part.
      const bool part_by_part = name == "add" || name == "subtract" || name == "negate";
      for (const ValueType& t : op.result_types) {
        exact = exact && t.is_tensor() && numerics.AllowedUlp(t.element_type) == 0 &&
                (part_by_part || !IsComplex(t.element_type));
      }
      if (!exact) return op.name;
    }
  }
  return "";
}

Results Map(const Case& c) {
  std::span<const Tensor> inputs = InputTensors(c, 0);
  const Region& computation = c.regions[0];
  PreparedRegion prepared(computation);
  Tensor reference(c.result_types[0]);
  const int64_t count = reference.num_elements();
  const size_t bytes = ContainerBytes(reference.element_type());
  FreeElements free(static_cast<size_t>(count));
  const std::string inexact = InexactOp(computation);
  const std::string inexact_reason =
      "the computation holds " + inexact +
      ", whose tolerance the oracle does not carry through a region: the value is the oracle's";
  std::vector<Tensor> arguments(inputs.size());
  for (int64_t i = 0; i < count; ++i) {
    for (size_t k = 0; k < inputs.size(); ++k) CopyElementTo(inputs[k], i, arguments[k]);
    HLOCHECK_ASSIGN_OR_RETURN(std::span<const Tensor> values, prepared.Call(arguments));
    if (values.size() != 1 || values[0].element_type() != reference.element_type()) {
      return absl::InvalidArgumentError("map: the computation returned " +
                                        std::to_string(values.size()) +
                                        " values, not one of the result's element type");
    }
    std::memcpy(reference.bytes().data() + i * bytes, values[0].bytes().data(), bytes);
    if (prepared.last_call_open()) {
      free.Mark(static_cast<size_t>(i),
                "an op of the computation leaves this value to the implementation");
    } else if (!inexact.empty()) {
      free.MarkConventional(static_cast<size_t>(i), inexact_reason);
    }
  }
  return OneResult(std::move(reference), Check::kExact, std::move(free));
}

}  // namespace

std::vector<OpEntry> ElementwiseMapOps() { return {{"map", Map}}; }

}  // namespace hlocheck::oracle
