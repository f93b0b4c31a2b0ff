// The CUDA adapter's map: a computation of elementwise ops (and constants)
// on rank-0 tensors is the same computation on whole tensors, so the body is
// lifted to the map's shape (every rank-0 type made the result's shape,
// every constant broadcast to it) and run through this adapter's op table
// (adapters/region/tensor_region.h), each op one kernel launch. A body with
// any other op is not implemented on CUDA yet.
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/elementwise_internal.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

bool IsElementwiseOp(std::string_view name) {
  if (!name.starts_with("stablehlo.")) return false;
  name.remove_prefix(10);
  for (std::span<const ElementwiseOp> table :
       {ArithmeticTable(), BitwiseTable(), CompareSelectTable(), ConversionTable(), RoundingTable(),
        TranscendentalTable()}) {
    for (const ElementwiseOp& op : table) {
      if (op.name == name) return true;
    }
  }
  return false;
}

// `type` of rank 0 made `shape`; anything else is not liftable.
std::optional<ValueType> Lifted(const ValueType& type, const Shape& shape) {
  if (!type.is_tensor() || !type.tensor().shape.empty() || type.quantization) return std::nullopt;
  return ValueType::Of(TensorType(shape, type.tensor().element_type));
}

// The body on whole tensors of `shape`, or why not.
absl::StatusOr<Region> LiftBody(const Region& body, const Shape& shape) {
  auto no = [](const std::string& why) { return absl::UnimplementedError("map on CUDA: " + why); };
  if (body.blocks.size() != 1) return no("a body of one block");
  Region lifted = body;
  Block& block = lifted.blocks[0];
  for (ValueType& type : block.argument_types) {
    std::optional<ValueType> whole = Lifted(type, shape);
    if (!whole.has_value()) return no("arguments of rank 0");
    type = *whole;
  }
  for (Operation& op : block.operations) {
    if (!op.regions.empty()) return no(op.name + " has regions");
    for (std::vector<ValueType>* types : {&op.result_types, &op.operand_types}) {
      for (ValueType& type : *types) {
        std::optional<ValueType> whole = Lifted(type, shape);
        if (!whole.has_value()) return no(op.name + " on a value that is not of rank 0");
        type = *whole;
      }
    }
    if (op.name == "stablehlo.return") continue;
    if (op.name == "stablehlo.constant") {
      auto value = op.attributes.find("value");
      const Tensor* scalar =
          value == op.attributes.end() ? nullptr : std::get_if<Tensor>(&value->second);
      if (scalar == nullptr || scalar->rank() != 0) return no("a constant that is not a scalar");
      Tensor broadcast(TensorType(shape, scalar->element_type()));
      const size_t bytes = scalar->bytes().size();
      for (int64_t i = 0; i < broadcast.num_elements(); ++i) {
        std::memcpy(broadcast.bytes().data() + i * bytes, scalar->bytes().data(), bytes);
      }
      value->second = std::move(broadcast);
      continue;
    }
    if (!IsElementwiseOp(op.name)) return no(op.name + " is not elementwise");
  }
  return lifted;
}

AdapterSupport SupportsMap(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  if (c.regions.size() != 1 || c.result_types.size() != 1) {
    return AdapterSupport::No("map needs a computation and 1 result");
  }
  absl::StatusOr<Region> lifted = LiftBody(c.regions[0], c.result_types[0].shape);
  if (!lifted.ok()) return AdapterSupport::No(std::string(lifted.status().message()));
  std::vector<ValueType> arguments;
  for (const Tensor& operand : c.operands) arguments.push_back(ValueType::Of(operand.type()));
  absl::StatusOr<TensorRegion> region =
      TensorRegion::Create(*lifted, arguments, "map: computation", CudaRegionOps());
  if (!region.ok()) return AdapterSupport::No(std::string(region.status().message()));
  return region->support();
}

// map: result = computation(inputs...) element by element, here as the
// lifted computation on the whole inputs.
absl::StatusOr<Results> RunMap(const Case& c, Context& context) {
  if (c.regions.size() != 1 || c.result_types.size() != 1) {
    return absl::InvalidArgumentError("map needs a computation and 1 result");
  }
  const Shape& shape = c.result_types[0].shape;
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> dimensions, IntListAttribute(c, "dimensions"));
  for (size_t d = 0; d < dimensions.size(); ++d) {
    if (dimensions[d] != static_cast<int64_t>(d) || dimensions.size() != shape.size()) {
      return absl::InvalidArgumentError("map: dimensions must be 0, 1, ..., rank - 1");
    }
  }
  std::vector<ValueType> arguments;
  std::vector<Value> values;
  for (const Tensor& operand : c.operands) {
    if (operand.shape() != shape) return absl::InvalidArgumentError("map: inputs of other shapes");
    arguments.push_back(ValueType::Of(operand.type()));
    values.push_back(Value{arguments.back(), operand, {}});
  }
  HLOCHECK_ASSIGN_OR_RETURN(Region lifted, LiftBody(c.regions[0], shape));
  HLOCHECK_ASSIGN_OR_RETURN(
      TensorRegion region,
      TensorRegion::Create(lifted, arguments, "map: computation", CudaRegionOps()));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<Value> results,
                            region.Run(std::move(values), CudaRegionOps(&context)));
  return ResultTensors(c, std::move(results));
}

}  // namespace

std::vector<OpEntry> ElementwiseMapOps() { return {{"map", &SupportsMap, &RunMap}}; }

}  // namespace hlocheck::cuda
