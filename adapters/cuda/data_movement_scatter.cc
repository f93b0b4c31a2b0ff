// The CUDA adapter's scatter: one input, its body one commutative op of its
// arguments (as reduce's) or `return update`; every update element finds
// its result element and combines with it atomically (kernels/
// scatter_kernels.h). Several inputs, other bodies and complex types are not
// implemented on CUDA yet.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "adapters/cuda/data_movement_internal.h"
#include "core/case_attributes.h"

namespace hlocheck::cuda {
namespace {

// How an update meets its result element: a combiner, or replacing it.
struct ScatterCombine {
  bool replace = false;
  Combiner combiner = Combiner::kAdd;
};

std::optional<ScatterCombine> ClassifyBody(const Region& region, ElementType type) {
  if (std::optional<Combiner> combiner = CombinerOf(region, type)) {
    return ScatterCombine{false, *combiner};
  }
  // `^bb(current, update): return update`, of rank-0 tensors of `type`.
  if (region.blocks.size() == 1 && region.blocks[0].arguments.size() == 2 &&
      region.blocks[0].operations.size() == 1 &&
      std::all_of(region.blocks[0].argument_types.begin(), region.blocks[0].argument_types.end(),
                  [type](const ValueType& t) {
                    return t.is_tensor() && t.tensor().shape.empty() &&
                           t.tensor().element_type == type;
                  })) {
    const Operation& terminator = region.blocks[0].operations[0];
    if (terminator.name == "stablehlo.return" && terminator.operands.size() == 1 &&
        terminator.operands[0] == region.blocks[0].arguments[1]) {
      return ScatterCombine{true, Combiner::kAdd};
    }
  }
  return std::nullopt;
}

AdapterSupport SupportsScatter(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  if (c.operands.size() != 3 || c.result_types.size() != 1 || c.regions.size() != 1) {
    return AdapterSupport::No("scatter of several inputs is not implemented on CUDA yet");
  }
  for (const Tensor& operand : c.operands) {
    if (operand.rank() > kMaxRank) return AdapterSupport::No("scatter: rank above 8");
  }
  // The body's type: the result's, which the public spec lets be wider
  // than the input's (the input and updates are then converted to it).
  if (!ClassifyBody(c.regions[0], c.result_types[0].element_type).has_value()) {
    return AdapterSupport::No(
        "scatter: only a body of one add, multiply, maximum, minimum, and, or, xor, or one that "
        "returns the update, is implemented on CUDA");
  }
  return AdapterSupport::Yes();
}

bool Contains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

absl::StatusOr<ScatterArgs> PlanScatter(const Case& c) {
  const Tensor& input = c.operands[0];
  const Tensor& indices = c.operands[1];
  const Tensor& updates = c.operands[2];
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> window_dims,
                            IntListAttribute(c, "update_window_dims"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> inserted,
                            IntListAttribute(c, "inserted_window_dims"));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> input_batching,
                            IntListAttribute(c, "input_batching_dims", {}));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> indices_batching,
                            IntListAttribute(c, "scatter_indices_batching_dims", {}));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<int64_t> to_operand,
                            IntListAttribute(c, "scatter_dims_to_operand_dims"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t ivd, IntAttribute(c, "index_vector_dim"));
  auto invalid = [](const std::string& what) {
    return absl::InvalidArgumentError("scatter: " + what);
  };
  const int64_t input_rank = input.rank();
  const int64_t indices_rank = indices.rank();
  const int64_t update_rank = updates.rank();
  if (!IsInteger(indices.element_type())) return invalid("scatter_indices are not integers");
  if (updates.element_type() != input.element_type() || c.result_types[0].shape != input.shape()) {
    return invalid("types do not fit");
  }
  if (ivd < 0 || ivd > indices_rank) return invalid("index_vector_dim out of range");
  const int64_t vector_size = ivd < indices_rank ? indices.shape()[ivd] : 1;
  if (static_cast<int64_t>(to_operand.size()) != vector_size) {
    return invalid("one scatter_dims_to_operand_dims entry per index vector element");
  }
  for (int64_t d : to_operand) {
    if (d < 0 || d >= input_rank) return invalid("scatter_dims_to_operand_dims out of range");
  }
  if (input_batching.size() != indices_batching.size()) return invalid("batching dimensions");
  // The input dimensions a window covers, in order.
  std::vector<int64_t> window_input_dims;
  for (int64_t d = 0; d < input_rank; ++d) {
    if (!Contains(inserted, d) && !Contains(input_batching, d)) window_input_dims.push_back(d);
  }
  if (window_input_dims.size() != window_dims.size() ||
      !std::is_sorted(window_dims.begin(), window_dims.end())) {
    return invalid("update_window_dims do not fit the input");
  }
  for (int64_t d : window_dims) {
    if (d < 0 || d >= update_rank) return invalid("update_window_dims out of range");
  }
  ScatterArgs args;
  args.input_rank = static_cast<int>(input_rank);
  const std::vector<int64_t> input_strides = RowMajorStrides(input.shape());
  for (int64_t d = 0; d < input_rank; ++d) {
    args.input_dims[d] = input.shape()[d];
    args.input_strides[d] = input_strides[d];
  }
  args.update_rank = static_cast<int>(update_rank);
  const std::vector<int64_t> index_strides = RowMajorStrides(indices.shape());
  size_t next_window = 0;
  int64_t next_scatter = 0;  // scatter_indices dimension of the next update scatter dimension
  for (int64_t d = 0; d < update_rank; ++d) {
    args.update_dims[d] = updates.shape()[d];
    args.window_dim_of[d] = -1;
    args.batching_dim_of[d] = -1;
    if (next_window < window_dims.size() && window_dims[next_window] == d) {
      const int64_t input_dim = window_input_dims[next_window++];
      args.window_dim_of[d] = static_cast<int>(input_dim);
      if (updates.shape()[d] > input.shape()[input_dim]) return invalid("a window too large");
      continue;
    }
    if (next_scatter == ivd) ++next_scatter;
    if (next_scatter >= indices_rank || updates.shape()[d] != indices.shape()[next_scatter]) {
      return invalid("updates' scatter dimensions do not fit scatter_indices");
    }
    args.index_strides[d] = index_strides[next_scatter];
    for (size_t j = 0; j < indices_batching.size(); ++j) {
      if (indices_batching[j] == next_scatter) {
        if (input_batching[j] < 0 || input_batching[j] >= input_rank) {
          return invalid("input_batching_dims out of range");
        }
        args.batching_dim_of[d] = static_cast<int>(input_batching[j]);
      }
    }
    ++next_scatter;
  }
  args.starts = static_cast<int>(to_operand.size());
  for (size_t k = 0; k < to_operand.size(); ++k)
    args.start_dims[k] = static_cast<int>(to_operand[k]);
  args.index_vector_step = ivd < indices_rank ? index_strides[ivd] : 0;
  args.index_kind = *KindOf(indices.element_type());
  args.kind = *KindOf(c.result_types[0].element_type);
  return args;
}

absl::StatusOr<Results> RunScatter(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 3));
  if (c.regions.size() != 1) return absl::InvalidArgumentError("scatter needs a body");
  const ElementType type = c.result_types[0].element_type;
  std::optional<ScatterCombine> combine = ClassifyBody(c.regions[0], type);
  if (!combine.has_value()) {
    return absl::UnimplementedError("scatter: this body is not implemented on CUDA");
  }
  HLOCHECK_ASSIGN_OR_RETURN(ScatterArgs args, PlanScatter(c));
  args.replace = combine->replace;
  args.combiner = combine->combiner;
  HLOCHECK_ASSIGN_OR_RETURN(Buffer result, UploadAs(c, context, c.operands[0], type));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer indices, context.Upload(c.operands[1]));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer updates, UploadAs(c, context, c.operands[2], type));
  args.result = result.data();
  args.indices = indices.data();
  args.updates = updates.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Scatter(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor tensor, context.Download(result, c.result_types[0]));
  Results results;
  results.push_back(std::move(tensor));
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementScatterOps() {
  return {{"scatter", &SupportsScatter, &RunScatter}};
}

}  // namespace hlocheck::cuda
