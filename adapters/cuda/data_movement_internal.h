// Internal to the CUDA adapter's data-movement files: every such op is one
// or a few strided copies (kernels/data_movement_kernels.h) planned from its
// attributes; only bytes move, so every element type goes through them,
// complex ones too.
#ifndef HLOCHECK_ADAPTERS_CUDA_DATA_MOVEMENT_INTERNAL_H_
#define HLOCHECK_ADAPTERS_CUDA_DATA_MOVEMENT_INTERNAL_H_

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {

inline AdapterSupport SupportsMovement(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c, /*bytes_only=*/true); !tensors.supported) {
    return tensors;
  }
  for (const Tensor& operand : c.operands) {
    if (operand.rank() > kMaxRank) return AdapterSupport::No(c.op + ": rank above 8");
  }
  for (const TensorType& result : c.result_types) {
    if (static_cast<int>(result.shape.size()) > kMaxRank) {
      return AdapterSupport::No(c.op + ": rank above 8");
    }
  }
  return AdapterSupport::Yes();
}

inline int ElementBytes(const TensorType& type) { return ContainerBytes(type.element_type); }

// Uploads operand 0, allocates the result, runs `plan`'s copies (each
// filled with the machine's in and out pointers), and downloads.
template <typename Plan>
absl::StatusOr<Results> CopyOperand(const Case& c, Context& context, Plan plan) {
  if (c.operands.empty() || c.result_types.size() != 1) {
    return absl::InvalidArgumentError(c.op + " needs an operand and 1 result");
  }
  const TensorType& type = c.result_types[0];
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(c.operands[0]));
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out, context.Allocate(static_cast<size_t>(type.num_elements() * ElementBytes(type))));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<StridedCopyArgs> copies, plan(in.data(), out.data()));
  for (const StridedCopyArgs& copy : copies) {
    HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(copy)));
  }
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

inline absl::Status CheckSameElements(const Case& c) {
  if (c.operands.empty() || c.result_types.size() != 1 ||
      c.operands[0].element_type() != c.result_types[0].element_type) {
    return absl::InvalidArgumentError(c.op + ": the result's element type is not the operand's");
  }
  return absl::OkStatus();
}

// 0, 1, ..., rank - 1: each result dimension reads the same operand one.
inline std::vector<int64_t> IdentityOrder(size_t rank) {
  std::vector<int64_t> order(rank);
  for (size_t d = 0; d < rank; ++d) order[d] = static_cast<int64_t>(d);
  return order;
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_DATA_MOVEMENT_INTERNAL_H_
