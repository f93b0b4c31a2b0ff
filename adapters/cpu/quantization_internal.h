// Internal to the CPU adapter's quantization files (quantization.cc for
// uniform_quantize/dequantize, quantized_ops.cc for the ops on quantized
// tensors): per-axis parameter lookup and storage integers, widened.
#ifndef HLOCHECK_ADAPTERS_CPU_QUANTIZATION_INTERNAL_H_
#define HLOCHECK_ADAPTERS_CPU_QUANTIZATION_INTERNAL_H_

#include <cstdint>
#include <vector>

#include "core/element_value.h"
#include "core/tensor.h"

namespace hlocheck::cpu {

// The per-element parameter index of a tensor of `type`: 0 per tensor, the
// index along the quantization dimension per axis.
struct AxisWalk {
  int64_t stride = 1;
  int64_t size = 1;
  bool per_axis = false;
  explicit AxisWalk(const TensorType& type) {
    const UniformQuantization& q = *type.quantization;
    if (!q.quantization_dimension) return;
    per_axis = true;
    const auto axis = static_cast<size_t>(*q.quantization_dimension);
    for (size_t d = axis + 1; d < type.shape.size(); ++d) stride *= type.shape[d];
    size = type.shape[axis];
  }
  size_t At(int64_t flat) const {
    return per_axis ? static_cast<size_t>((flat / stride) % size) : 0;
  }
};

// The storage integers of a quantized tensor, widened.
inline std::vector<int64_t> WidenedStorage(const Tensor& t) {
  std::vector<int64_t> values(static_cast<size_t>(t.num_elements()));
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      auto in = t.values<T>();
      for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(in[i]);
    }
  });
  return values;
}

// The values of a float tensor, or of a quantized tensor dequantized, in
// its expressed type (as doubles). (quantization.cc)
std::vector<double> Expressed(const Tensor& t);

// quantize: `x` (values of the expressed type) as a tensor of quantized
// `type`; and `x` as a tensor of float `type`. (quantization.cc)
Tensor QuantizedFromExpressed(const std::vector<double>& x, const TensorType& type);
Tensor FloatFromExpressed(const std::vector<double>& x, const TensorType& type);

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_QUANTIZATION_INTERNAL_H_
