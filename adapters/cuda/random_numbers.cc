// The CUDA adapter's rng_bit_generator: the output's bits on the machine
// (kernels/random_kernels.h), the new state on the host, in XLA's layout of
// state and counters (the de facto convention the oracle names; the spec
// leaves the variant open). DEFAULT runs THREE_FRY. rng (the distributions)
// is not implemented on CUDA yet.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsRngBitGenerator(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c, /*bytes_only=*/true); !tensors.supported) {
    return tensors;
  }
  if (c.operands.size() != 1 || c.result_types.size() != 2) {
    return AdapterSupport::No("rng_bit_generator needs 1 operand and 2 results");
  }
  const ElementType type = c.result_types[1].element_type;
  if (!IsInteger(type) && !IsFloat(type) && !IsBool(type)) {
    return AdapterSupport::No(absl::StrCat("rng_bit_generator into ", std::string(Name(type)),
                                           " is not implemented on CUDA"));
  }
  if (c.result_types[1].shape.size() > static_cast<size_t>(kMaxRank)) {
    return AdapterSupport::No("rng_bit_generator: rank above 8");
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunRngBitGenerator(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1, 2));
  HLOCHECK_ASSIGN_OR_RETURN(const std::string algorithm, EnumAttribute(c, "rng_algorithm"));
  if (c.operands[0].element_type() != ElementType::kUI64 || c.operands[0].rank() != 1 ||
      c.result_types[0] != c.operands[0].type()) {
    return absl::InvalidArgumentError("rng_bit_generator: the state must be a tensor<Nxui64>");
  }
  Tensor state = c.operands[0];
  auto words = state.values<ElementType::kUI64>();
  const bool philox = algorithm == "PHILOX";
  // DEFAULT runs THREE_FRY on the state's first two words.
  if (words.size() < 2 || (algorithm == "THREE_FRY" && words.size() != 2) ||
      (philox && words.size() > 3)) {
    return absl::InvalidArgumentError(
        absl::StrCat("rng_bit_generator: a state of ", words.size(), " for ", algorithm));
  }
  const TensorType& type = c.result_types[1];
  RngBitsArgs args;
  args.philox = philox;
  args.n = type.num_elements();
  args.bytes = ContainerBytes(type.element_type);
  args.wide = args.bytes == 8;
  args.boolean = IsBool(type.element_type);
  args.key = words[0];
  args.counter = words[1];
  args.rank = static_cast<int>(type.shape.size());
  for (int d = 0; d < args.rank; ++d) args.dims[d] = type.shape[d];
  // The new state: the counter advanced by the blocks used.
  if (philox) {
    args.high = words.size() == 3 ? words[2] : words[0];
    const int64_t per_block = args.wide ? 2 : 4;
    const uint64_t next = words[1] + static_cast<uint64_t>((args.n + per_block - 1) / per_block);
    if (words.size() == 3 && next < words[1]) ++words[2];
    words[1] = next;
  } else if (args.wide) {
    words[1] += static_cast<uint64_t>(args.n);
  } else {
    // The first dimension of even size, else the largest, is halved.
    int axis = -1;
    for (int d = 0; d < args.rank; ++d) {
      if (axis < 0 && type.shape[d] % 2 == 0) axis = d;
    }
    if (axis < 0) {
      axis = 0;
      for (int d = 1; d < args.rank; ++d) axis = type.shape[d] > type.shape[axis] ? d : axis;
    }
    args.axis = axis;
    int64_t half_count = 1;
    for (int d = 0; d < args.rank; ++d) {
      half_count *= d == axis ? (type.shape[d] + 1) / 2 : type.shape[d];
    }
    words[1] += static_cast<uint64_t>(type.shape.empty() ? 1 : half_count);
  }
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Allocate(static_cast<size_t>(args.n * args.bytes)));
  args.out = out.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().RngBits(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor output, context.Download(out, type));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor new_state, ThroughMachine(context, state));
  Results results;
  results.push_back(std::move(new_state));
  results.push_back(std::move(output));
  return results;
}

}  // namespace

std::vector<OpEntry> RandomNumbersOps() {
  return {{"rng_bit_generator", &SupportsRngBitGenerator, &RunRngBitGenerator}};
}

}  // namespace hlocheck::cuda
