// uniform_quantize and uniform_dequantize on the CPU, the way integer
// inference kernels do them: the storage integers widened to int64 (so
// that storage - zero_point never overflows), the float steps in float for
// expressed types up to f32 (each rounded to the expressed type once: float
// holds their products and quotients closely enough that rounding twice is
// rounding once) and in double for f64, and quantize in seed 002's order
// (round x / scale, then add the zero point), the integer steps saturating
// where the seed's would overflow. (The public spec adds the zero point
// before rounding; the oracle accepts either reading.) Per-axis
// parameters are looked up by the element's index along the quantization
// dimension.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/cpu_internal.h"
#include "adapters/cpu/quantization_internal.h"
#include "core/element_value.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// A double rounded once to float type `e`, as a double; float's own
// conversion for f32 (the common case), core's for the others.
double ToExpressed(ElementType e, double v) {
  if (e == ElementType::kF32) return static_cast<double>(static_cast<float>(v));
  return RoundedToFloatType(e, v);
}

}  // namespace

std::vector<double> Expressed(const Tensor& t) {
  const auto n = static_cast<size_t>(t.num_elements());
  std::vector<double> values(n);
  if (const auto& q = t.type().quantization) {
    const std::vector<int64_t> storage = WidenedStorage(t);
    const AxisWalk walk(t.type());
    for (size_t i = 0; i < n; ++i) {
      const size_t k = walk.At(static_cast<int64_t>(i));
      const double difference =
          ToExpressed(q->expressed_type, static_cast<double>(storage[i] - q->zero_points[k]));
      values[i] = ToExpressed(q->expressed_type, difference * q->scales[k]);
    }
    return values;
  }
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      auto in = t.values<T>();
      for (size_t i = 0; i < n; ++i) values[i] = ToDouble<T>(in[i]);
    }
  });
  return values;
}

// round_half_even(x / scale), the quotient rounded to the expressed type,
// plus the zero point in wide integers, saturated to the storage range
// (seed 002's order of steps, with its overflows saturated).
Tensor QuantizedFromExpressed(const std::vector<double>& x, const TensorType& type) {
  const UniformQuantization& q = *type.quantization;
  const ElementType e = q.expressed_type;
  Tensor result = NewResult(type);
  const AxisWalk walk(type);
  // Far beyond any storage range, and exact in int64.
  constexpr double kWide = 4611686018427387904.0;  // 2^62
  DispatchElementType(type.element_type, [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      auto out = result.values<T>();
      for (size_t i = 0; i < x.size(); ++i) {
        const size_t k = walk.At(static_cast<int64_t>(i));
        const double rounded = std::nearbyint(ToExpressed(e, x[i] / q.scales[k]));
        // NaN has no quantized value: the storage minimum.
        const int64_t quotient = std::isnan(rounded)
                                     ? q.storage_min
                                     : static_cast<int64_t>(std::clamp(rounded, -kWide, kWide));
        out[i] = static_cast<ContainerT<T>>(
            std::clamp(quotient + q.zero_points[k], q.storage_min, q.storage_max));
      }
    }
  });
  return result;
}

Tensor FloatFromExpressed(const std::vector<double>& x, const TensorType& type) {
  Tensor result = NewResult(type);
  DispatchElementType(type.element_type, [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      auto out = result.values<T>();
      for (size_t i = 0; i < x.size(); ++i) ConvertElement(ElementType::kF64, &x[i], T, &out[i]);
    }
  });
  return result;
}

namespace {

AdapterSupport SupportsQuantization(const Case& c) {
  if (c.operands.size() != 1 || c.result_types.size() != 1) {
    return AdapterSupport::No(c.op + " takes one operand and gives one result");
  }
  const bool quantize = c.op == "uniform_quantize";
  const TensorType& result = c.result_types[0];
  if (quantize != result.quantization.has_value()) {
    return AdapterSupport::No(c.op + (quantize ? " needs a quantized result" : " gives a float"));
  }
  if (!quantize && !c.operands[0].type().quantization) {
    return AdapterSupport::No("uniform_dequantize needs a quantized operand");
  }
  return AdapterSupport::Yes();
}

// uniform_quantize: QuantizedFromExpressed; a quantized operand is
// dequantized first.
absl::StatusOr<Results> RunUniformQuantize(const Case& c, const Device&) {
  if (AdapterSupport s = SupportsQuantization(c); !s.supported) {
    return absl::InvalidArgumentError(s.reason);
  }
  return OneResult(QuantizedFromExpressed(Expressed(c.operands[0]), c.result_types[0]));
}

// uniform_dequantize: (storage - zero_point) * scale, in the expressed type.
absl::StatusOr<Results> RunUniformDequantize(const Case& c, const Device&) {
  if (AdapterSupport s = SupportsQuantization(c); !s.supported) {
    return absl::InvalidArgumentError(s.reason);
  }
  return OneResult(FloatFromExpressed(Expressed(c.operands[0]), c.result_types[0]));
}

}  // namespace

std::vector<OpEntry> QuantizationOps() {
  return {
      {"uniform_dequantize", 1, &SupportsQuantization, &RunUniformDequantize},
      {"uniform_quantize", 1, &SupportsQuantization, &RunUniformQuantize},
  };
}

}  // namespace hlocheck::cpu
