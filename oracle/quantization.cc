// The quantization ops: uniform_quantize and uniform_dequantize, the spec's
// quantize and dequantize element by element, per tensor or per axis.
//
// Seed 002, the scope of record, and the public spec define quantize
// differently:
//   seed:   clamp(convert(round_nearest_even(x / scale), storage) + zero_point)
//   public: convert(round_nearest_even(clamp(x / scale + zero_point)))
// with the public spec's addition and clamp in the expressed type. They
// differ on ties when the zero point is odd (0.5 + 1: 0 + 1 = 1 against
// round(1.5) = 2) and where x / scale + zero_point rounds in a narrow
// expressed type. The reference is the seed's; an element where the public
// spec gives another value passes with either (ResultExpectation::
// other_reading). Where the seed's steps overflow (a rounded quotient
// beyond the storage type, convert's out-of-range case; a sum beyond it,
// integer overflow: implementation-defined, spec "Errors", #1157) the
// public spec saturates, so the reference saturates the seed's steps
// (clamps the wide sum) and the public spec's value is the other reading:
// a kernel that wraps fails there. dequantize's storage -
// zero_point is computed in the storage type, where it can overflow too:
// free, the reference the exact difference (what an integer kernel that
// widens to i32 computes).
#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"
#include "core/element_value.h"
#include "oracle/data_movement_helpers.h"
#include "oracle/oracle.h"
#include "oracle/quantization.h"

namespace hlocheck::oracle {
namespace {
double RoundHalfToEven(double v) { return v - std::remainder(v, 1.0); }

bool InStorageType(ElementType storage, double v) {
  return v >= static_cast<double>(IntegerMin(storage)) &&
         v <= static_cast<double>(IntegerMaxUnsigned(storage));
}
}  // namespace

QuantizationParameters ParametersAt(const TensorType& type, int64_t flat) {
  const UniformQuantization& q = *type.quantization;
  if (!q.quantization_dimension) return {q.scales.at(0), q.zero_points.at(0)};
  const auto axis = static_cast<size_t>(*q.quantization_dimension);
  int64_t stride = 1;
  for (size_t d = axis + 1; d < type.shape.size(); ++d) stride *= type.shape[d];
  const size_t i = static_cast<size_t>((flat / stride) % type.shape[axis]);
  return {q.scales.at(i), q.zero_points.at(i)};
}

// An element's storage integer, read from a quantized tensor.
int64_t StorageAt(const Tensor& t, int64_t flat) {
  int64_t value = 0;
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) value = static_cast<int64_t>(t.values<T>()[flat]);
  });
  return value;
}

void SetStorage(Tensor& t, int64_t flat, int64_t value) {
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) t.values<T>()[flat] = static_cast<ContainerT<T>>(value);
  });
}

// dequantize(x) for one element: convert(storage - zero_point, E) * scale,
// the conversion and the product each rounded once to E. `overflow`: the
// difference does not fit the storage type.
Dequantized Dequantize(int64_t storage, QuantizationParameters p, ElementType storage_type,
                       ElementType expressed) {
  const int64_t difference = storage - p.zero_point;
  const double converted = RoundedToFloatType(expressed, static_cast<double>(difference));
  // A double product of two values of E rounded to E: E's precision is at
  // most half a double's, so rounding twice gives the once-rounded product
  // (and for f64 it is the IEEE product).
  return {RoundedToFloatType(expressed, converted * p.scale),
          !InStorageType(storage_type, static_cast<double>(difference))};
}

// quantize(x) for one element of E, by the seed (its integer steps
// saturated where they would overflow) and by the public spec; nullopt
// where a reading gives no value (NaN, a bound the expressed type cannot
// hold).
Quantized Quantize(double x, QuantizationParameters p, const TensorType& result) {
  const UniformQuantization& q = *result.quantization;
  const ElementType e = q.expressed_type;
  const ElementType storage = result.element_type;
  const double scaled = RoundedToFloatType(e, x / p.scale);  // one IEEE division in E
  Quantized out;
  // Seed 002: round, convert, add the zero point, clamp (in wide integers:
  // a quotient beyond every storage range is clamped to 2^62 first).
  const double rounded = RoundHalfToEven(scaled);
  if (!std::isnan(rounded)) {
    constexpr double kWide = 4611686018427387904.0;  // 2^62
    const int64_t sum = static_cast<int64_t>(std::clamp(rounded, -kWide, kWide)) + p.zero_point;
    out.seed = std::clamp(sum, q.storage_min, q.storage_max);
  }
  // The public spec: add the zero point and clamp in E, round, convert.
  const double shifted =
      RoundedToFloatType(e, scaled + RoundedToFloatType(e, static_cast<double>(p.zero_point)));
  if (!std::isnan(shifted)) {
    const double clamped =
        std::clamp(shifted, RoundedToFloatType(e, static_cast<double>(q.storage_min)),
                   RoundedToFloatType(e, static_cast<double>(q.storage_max)));
    const double value = RoundHalfToEven(clamped);
    if (InStorageType(storage, value)) out.public_spec = static_cast<int64_t>(value);
  }
  return out;
}

// The expressed-type values of `operand`'s elements: a float tensor's
// values, or a quantized tensor dequantized (with where that overflowed).
std::vector<Dequantized> ExpressedValues(const Tensor& operand) {
  const int64_t n = operand.num_elements();
  std::vector<Dequantized> values(static_cast<size_t>(n));
  if (operand.type().quantization) {
    const TensorType type = operand.type();
    for (int64_t i = 0; i < n; ++i) {
      values[i] = Dequantize(StorageAt(operand, i), ParametersAt(type, i), type.element_type,
                             type.quantization->expressed_type);
    }
    return values;
  }
  DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      auto in = operand.values<T>();
      for (int64_t i = 0; i < n; ++i) values[i].value = ToDouble<T>(in[i]);
    }
  });
  return values;
}

void MarkFree(ResultExpectation& e, int64_t i, uint8_t kind, const std::string& why) {
  if (e.free.empty()) e.free.assign(static_cast<size_t>(e.reference.num_elements()), 0);
  if (e.free[i] == kFreeAnyValue) return;
  e.free[i] = kind;
  if (e.free_reason.find(why) == std::string::npos) {
    e.free_reason += (e.free_reason.empty() ? "" : "; ") + why;
  }
}

// quantize(x, type) element by element, as an expectation: the seed's
// value, the public spec's as the other reading where they differ, free
// where the seed gives none (a NaN) or dequantize overflowed before.
ResultExpectation QuantizedExpectation(const std::vector<Dequantized>& x, const TensorType& type) {
  ResultExpectation e;
  e.reference = Tensor(type);
  e.check = Check::kExact;
  ResultExpectation other;
  other.reference = Tensor(type);
  other.check = Check::kExact;
  std::vector<uint8_t> differs(x.size(), 0);
  bool readings_differ = false;
  for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
    const Quantized q = Quantize(x[i].value, ParametersAt(type, i), type);
    const int64_t reference = q.seed.value_or(q.public_spec.value_or(0));
    SetStorage(e.reference, i, reference);
    SetStorage(other.reference, i, q.public_spec.value_or(reference));
    if (!q.seed) {
      MarkFree(e, i, kFreeAnyValue, kNaNReason);
    } else if (q.public_spec && *q.public_spec != *q.seed) {
      differs[i] = 1;
      readings_differ = true;
    }
    if (x[i].overflow) MarkFree(e, i, kFreeWithConvention, kDequantizeOverflowReason);
  }
  if (readings_differ) {
    e.reading_differs = std::move(differs);
    e.other_reading_reason = kPublicReadingReason;
    e.other_reading = std::make_shared<const ResultExpectation>(std::move(other));
  }
  return e;
}

namespace {

// uniform_quantize: result = quantize(operand, type(result)) for a float
// operand, quantize(dequantize(operand), type(result)) for a quantized one.
Results UniformQuantize(const Case& c) {
  const Tensor& operand = c.operands.at(0);
  const TensorType& type = c.result_types.at(0);
  if (!type.quantization) {
    return absl::InvalidArgumentError("uniform_quantize: the result is not quantized");
  }
  if (operand.shape() != type.shape) {
    return absl::InvalidArgumentError("uniform_quantize: operand and result differ in shape");
  }
  std::vector<ResultExpectation> results;
  results.push_back(QuantizedExpectation(ExpressedValues(operand), type));
  return results;
}

// uniform_dequantize: result = dequantize(operand).
Results UniformDequantize(const Case& c) {
  const Tensor& operand = c.operands.at(0);
  const TensorType& type = c.result_types.at(0);
  if (!operand.type().quantization || type.quantization ||
      type.element_type != operand.type().quantization->expressed_type) {
    return absl::InvalidArgumentError(
        "uniform_dequantize: a quantized operand and a result of its expressed type");
  }
  const std::vector<Dequantized> x = ExpressedValues(operand);
  ResultExpectation e;
  e.reference = Tensor(type);
  e.check = Check::kExact;
  DispatchElementType(type.element_type, [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      auto out = e.reference.values<T>();
      for (size_t i = 0; i < x.size(); ++i) {
        const double v = x[i].value;
        ConvertElement(ElementType::kF64, &v, T, &out[i]);  // exact: v is a value of T
      }
    }
  });
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].overflow) {
      MarkFree(e, static_cast<int64_t>(i), kFreeWithConvention, kDequantizeOverflowReason);
    }
  }
  std::vector<ResultExpectation> results;
  results.push_back(std::move(e));
  return results;
}

}  // namespace

std::vector<OpEntry> QuantizationOps() {
  return {{"uniform_dequantize", UniformDequantize}, {"uniform_quantize", UniformQuantize}};
}

}  // namespace hlocheck::oracle
