// map (seed 002): the computation applied element by element. A computation
// that is one op of the arguments in order (map with an add body, say) runs
// that op's own kernel on the whole tensors; any other computation is
// evaluated element by element (region.h), in parallel blocks.
#include <cstring>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/region.h"

namespace hlocheck::cpu {
namespace {

template <typename... Parts>
absl::Status Invalid(const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat("map: ", parts...));
}

// The op, when the computation is `return op(arguments in order)` and the
// adapter runs that op on whole tensors; null otherwise.
const OpEntry* WholeTensorOp(const Region& region) {
  if (region.blocks.size() != 1) return nullptr;
  const Block& block = region.blocks[0];
  if (block.operations.size() != 2) return nullptr;
  const Operation& op = block.operations[0];
  const Operation& ret = block.operations[1];
  if (!op.regions.empty() || !op.attributes.empty() || op.results.size() != 1 ||
      op.operands != block.arguments || ret.operands.size() != 1 ||
      ret.operands[0] != op.results[0]) {
    return nullptr;
  }
  return FindOp(op.name);
}

// Quantized scalars where the inputs are quantized (per tensor).
std::vector<TensorType> ArgumentTypes(const Case& c) {
  std::vector<TensorType> types;
  for (const Tensor& t : c.operands) types.push_back(ScalarOf(t.type()));
  return types;
}

AdapterSupport SupportsMap(const Case& c) {
  if (c.regions.size() != 1) return AdapterSupport::Yes();  // Run's to report
  const TensorType result = ScalarOf(c.result_types.at(0));
  absl::StatusOr<RegionEvaluator> evaluator =
      RegionEvaluator::Create(c.regions[0], ArgumentTypes(c), {&result, 1}, "map: computation");
  return evaluator.ok() ? evaluator->support() : AdapterSupport::Yes();
}

absl::StatusOr<Results> RunMap(const Case& c, const Device& device) {
  if (c.operands.empty() || c.result_types.size() != 1 || c.regions.size() != 1) {
    return Invalid("needs inputs, one result and one computation, not ", c.operands.size(), ", ",
                   c.result_types.size(), " and ", c.regions.size());
  }
  const TensorType& result_type = c.result_types[0];
  for (const Tensor& input : c.operands) {
    if (input.shape() != result_type.shape) {
      return Invalid("input ", input.type().ToString(), " and result ", result_type.ToString(),
                     " differ in shape");
    }
  }
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> dimensions, IntListAttribute(c, "dimensions"));
  bool every_dimension = dimensions.size() == result_type.shape.size();
  for (size_t d = 0; d < dimensions.size(); ++d) {
    every_dimension = every_dimension && dimensions[d] == static_cast<int64_t>(d);
  }
  if (!every_dimension) return Invalid("dimensions must be every dimension in order");
  const TensorType result_scalar = ScalarOf(result_type);
  HLOCHECK_ASSIGN_OR_RETURN(RegionEvaluator evaluator,
                            RegionEvaluator::Create(c.regions[0], ArgumentTypes(c),
                                                    {&result_scalar, 1}, "map: computation"));
  if (!evaluator.support().supported) return absl::UnimplementedError(evaluator.support().reason);

  if (const OpEntry* op = WholeTensorOp(c.regions[0]); op != nullptr) {
    Case whole;
    whole.op = std::string(op->name);
    whole.operands = c.operands;
    whole.result_types = c.result_types;
    // Quantized tensors take the backend's quantized form of the op.
    if (HasQuantizedTensor(whole)) {
      if (const OpEntry* quantized = FindQuantizedOp(whole.op)) op = quantized;
    }
    if (op->supports(whole).supported) return op->run(whole, device);
  }

  const size_t n = c.operands.size();
  std::vector<int64_t> bytes;
  for (const Tensor& input : c.operands) bytes.push_back(ContainerBytes(input.element_type()));
  const int64_t result_bytes = ContainerBytes(result_type.element_type);
  Tensor result = NewResult(result_type);
  const int64_t count = result.num_elements();
  std::vector<absl::Status> statuses(static_cast<size_t>(std::max<int64_t>(count, 1)));
  ParallelFor(device, count, 64.0, 256.0, [&](int64_t first, int64_t last) {
    RegionEvaluator local = evaluator;
    const Eigen::ThreadPoolDevice inline_device = InlineDevice(device);
    std::vector<const void*> arguments(n);
    for (int64_t i = first; i < last; ++i) {
      for (size_t k = 0; k < n; ++k) arguments[k] = c.operands[k].bytes().data() + i * bytes[k];
      void* out = result.bytes().data() + i * result_bytes;
      if (absl::Status status = local.Evaluate(arguments, {&out, 1}, inline_device); !status.ok()) {
        statuses[i] = status;
        return;
      }
    }
  });
  for (absl::Status& status : statuses) HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result));
}

}  // namespace

std::vector<OpEntry> ElementwiseMapOps() {
  return {
      {"map", kVariadic, &SupportsMap, &RunMap},
  };
}

}  // namespace hlocheck::cpu
