// What the CPU adapter's elementwise files (elementwise_*.cc) share beyond
// elementwise_internal.h's templates: the conversion of whole buffers on the
// pool, which data movement and contraction use too, and the checks of an
// elementwise case.
#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {

void ConvertBuffer(ElementType from, const void* source, ElementType to, void* destination,
                   int64_t count, const Device& device) {
  const int from_bytes = ContainerBytes(from);
  const int to_bytes = ContainerBytes(to);
  const auto* in = static_cast<const std::byte*>(source);
  auto* out = static_cast<std::byte*>(destination);
  // The shared conversion layer dispatches once per call, so each block pays
  // for one dispatch only.
  ParallelFor(device, count, from_bytes + to_bytes, 50, [&](int64_t first, int64_t last) {
    ConvertElements(from, in + first * from_bytes, to, out + first * to_bytes, last - first);
  });
}

absl::Status CheckElementwise(const Case& c, size_t operands, bool same_type) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, operands));
  const TensorType& result = c.result_types[0];
  for (const Tensor& operand : c.operands) {
    if (operand.shape() != result.shape) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": operand shape ",
                                                     operand.type().ToString(),
                                                     " differs from result ", result.ToString()));
    }
    if (same_type && operand.element_type() != result.element_type) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": operand type ",
                                                     operand.type().ToString(),
                                                     " differs from result ", result.ToString()));
    }
  }
  return absl::OkStatus();
}

}  // namespace hlocheck::cpu
