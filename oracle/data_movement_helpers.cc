// What the data movement files share (data_movement_helpers.h).
#include "oracle/data_movement_helpers.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "core/element_value.h"

namespace hlocheck::oracle {

Results Exactly(Tensor result) {
  std::vector<ResultExpectation> results(1);
  results[0].reference = std::move(result);
  results[0].check = Check::kExact;
  return results;
}

TensorType ScalarTypeOf(const Tensor& from) {
  TensorType type(Shape{}, from.element_type());
  if (from.type().quantization && !from.type().quantization->quantization_dimension) {
    type.quantization = from.type().quantization;
  }
  return type;
}

Tensor ScalarAt(const Tensor& from, int64_t position) {
  Tensor scalar(ScalarTypeOf(from));
  const size_t bytes = ContainerBytes(from.element_type());
  std::memcpy(scalar.bytes().data(), from.bytes().data() + position * bytes, bytes);
  return scalar;
}

void CopyElementTo(const Tensor& from, int64_t position, Tensor& scalar) {
  const size_t bytes = ContainerBytes(from.element_type());
  if (!scalar.shape().empty() || scalar.element_type() != from.element_type() ||
      scalar.bytes().size() != bytes ||
      ((scalar.type().quantization || from.type().quantization) &&
       scalar.type().quantization != ScalarTypeOf(from).quantization)) {
    scalar = ScalarAt(from, position);
    return;
  }
  std::memcpy(scalar.bytes().data(), from.bytes().data() + position * bytes, bytes);
}

std::span<const Tensor> InputTensors(const Case& c, size_t input) {
  std::span<const Tensor> all(c.operands);
  if (c.operand_segments.empty()) return all.subspan(input, 1);
  size_t start = 0;
  for (size_t i = 0; i < input; ++i) start += static_cast<size_t>(c.operand_segments[i]);
  return all.subspan(start, static_cast<size_t>(c.operand_segments[input]));
}

std::vector<int64_t> SaturatedIndexValues(const Tensor& indices) {
  std::vector<int64_t> values(static_cast<size_t>(indices.num_elements()));
  DispatchElementType(indices.element_type(), [&]<ElementType T>() {
    if constexpr (IsSignedInt(T)) {
      auto in = indices.values<T>();
      for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(in[i]);
    } else if constexpr (IsUnsignedInt(T)) {
      auto in = indices.values<T>();
      constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
      for (size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<int64_t>(std::min<uint64_t>(in[i], kMax));
      }
    }
    // The spec allows only integer start indices; the verifier has checked.
  });
  return values;
}

}  // namespace hlocheck::oracle
