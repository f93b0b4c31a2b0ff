// The CUDA adapter's rng_bit_generator: the output's bits on the machine
// (kernels/random_kernels.h), the new state on the host, in XLA's layout of
// state and counters (the de facto convention the oracle names; the spec
// leaves the variant open). DEFAULT runs THREE_FRY. rng: a sample of its
// distribution from Philox-4x32 bits per element (the oracle tests the fit).
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/exact_value.h"
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

AdapterSupport SupportsRng(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  if (c.operands.size() != 2 || c.result_types.size() != 1) {
    return AdapterSupport::No("rng needs a, b and 1 result");
  }
  const ElementType type = c.operands[0].element_type();
  if (!IsFloat(type) && !IsInteger(type)) {
    return AdapterSupport::No(
        absl::StrCat("rng of ", std::string(Name(type)), " is not implemented on CUDA"));
  }
  return AdapterSupport::Yes();
}

// rng: a sample of the distribution (the oracle tests its fit), from a
// seed made of the case's a, b and shape, so that a case gives the same
// numbers every run.
absl::StatusOr<Results> RunRng(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  HLOCHECK_ASSIGN_OR_RETURN(const std::string distribution, EnumAttribute(c, "rng_distribution"));
  const Tensor& a = c.operands[0];
  const Tensor& b = c.operands[1];
  const TensorType& type = c.result_types[0];
  const ElementType element = type.element_type;
  if (a.type() != TensorType({}, element) || b.type() != TensorType({}, element)) {
    return absl::InvalidArgumentError("rng: a and b must be scalars of the result's type");
  }
  RngArgs args;
  args.kind = *KindOf(element);
  args.normal = distribution == "NORMAL";
  args.n = type.num_elements();
  uint64_t seed = 0x5eed;
  auto mix = [&](uint64_t v) { seed = (seed ^ v) * 0x9E3779B97F4A7C15ull + (seed >> 29); };
  for (std::byte x : a.bytes()) mix(static_cast<uint64_t>(x));
  for (std::byte x : b.bytes()) mix(static_cast<uint64_t>(x) + 0x100);
  for (int64_t d : type.shape) mix(static_cast<uint64_t>(d) + 0x10000);
  args.seed = seed;
  if (IsFloat(element)) {
    ConvertElement(element, a.bytes().data(), ElementType::kF64, &args.a);
    ConvertElement(element, b.bytes().data(), ElementType::kF64, &args.b);
    uint64_t b_bits = 0;
    std::memcpy(&b_bits, b.bytes().data(), b.bytes().size());
    const uint64_t below = NextFloatBits(Format(element), b_bits, /*down=*/true);
    std::memcpy(args.below_b, &below, b.bytes().size());
  } else {
    int64_t low = 0;
    int64_t high = 0;
    uint64_t low_u = 0;
    uint64_t high_u = 0;
    if (IsSignedInt(element)) {
      ConvertElement(element, a.bytes().data(), ElementType::kSI64, &low);
      ConvertElement(element, b.bytes().data(), ElementType::kSI64, &high);
      low_u = static_cast<uint64_t>(low);
      high_u = static_cast<uint64_t>(high);
    } else {
      ConvertElement(element, a.bytes().data(), ElementType::kUI64, &low_u);
      ConvertElement(element, b.bytes().data(), ElementType::kUI64, &high_u);
    }
    args.a_bits = low_u;
    args.span = high_u - low_u;
  }
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out, context.Allocate(static_cast<size_t>(args.n * ContainerBytes(element))));
  args.out = out.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Rng(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> RandomNumbersOps() {
  return {{"rng_bit_generator", &SupportsRngBitGenerator, &RunRngBitGenerator},
          {"rng", &SupportsRng, &RunRng}};
}

}  // namespace hlocheck::cuda
