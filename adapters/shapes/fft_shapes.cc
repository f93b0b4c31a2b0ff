#include "adapters/shapes/fft_shapes.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/case_attributes.h"
#include "core/element_type.h"
#include "core/status_macros.h"

namespace hlocheck {

absl::StatusOr<FftPlan> CheckFft(const Case& c) {
  if (c.operands.size() != 1 || c.result_types.size() != 1) {
    return absl::InvalidArgumentError("fft: takes one operand and gives one result");
  }
  const Tensor& operand = c.operands[0];
  const TensorType& result_type = c.result_types[0];
  FftPlan plan;
  HLOCHECK_ASSIGN_OR_RETURN(plan.type, EnumAttribute(c, "fft_type"));
  HLOCHECK_ASSIGN_OR_RETURN(plan.lengths, IntListAttribute(c, "fft_length"));
  const std::string& type = plan.type;
  const std::vector<int64_t>& lengths = plan.lengths;
  const size_t rank = operand.shape().size();
  if (lengths.empty() || lengths.size() > rank) {
    return absl::InvalidArgumentError(absl::StrCat("fft: fft_length names ", lengths.size(),
                                                   " dimensions of a rank ", rank, " operand"));
  }
  // The real side's shape: the operand's, or for IRFFT the result's.
  const Shape& real = type == "IRFFT" ? result_type.shape : operand.shape();
  Shape half = real;
  if (!half.empty()) half.back() = real.back() == 0 ? 0 : real.back() / 2 + 1;
  const ElementType in = operand.element_type();
  const ElementType out = result_type.element_type;
  bool fits = real.size() == rank &&
              std::equal(lengths.begin(), lengths.end(), real.end() - lengths.size());
  if (type == "FFT" || type == "IFFT") {
    fits = fits && IsComplex(in) && out == in && result_type.shape == operand.shape();
  } else if (type == "RFFT") {
    fits = fits && (in == ElementType::kF32 || in == ElementType::kF64) &&
           out == (in == ElementType::kF32 ? ElementType::kComplexF32 : ElementType::kComplexF64) &&
           result_type.shape == half;
  } else if (type == "IRFFT") {
    fits = fits && IsComplex(in) && out == ComponentType(in) && operand.shape() == half;
  } else {
    return absl::InvalidArgumentError("fft: unknown fft_type " + type);
  }
  if (!fits) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fft: ", type, " of ", operand.type().ToString(), " to ", result_type.ToString(),
        " with fft_length [", absl::StrJoin(lengths, ", "), "] does not fit together"));
  }
  return plan;
}

}  // namespace hlocheck
