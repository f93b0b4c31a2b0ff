// Ops that produce values rather than move them (constant, iota,
// get_dimension_size): grouped with data movement because their results are
// exact.
#include <cstring>
#include <limits>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/element_value.h"
#include "core/status_macros.h"
#include "oracle/data_movement_helpers.h"
#include "oracle/quantization.h"

namespace hlocheck::oracle {
namespace {

// constant: output = value, bit for bit.
Results Constant(const Case& c) {
  HLOCHECK_ASSIGN_OR_RETURN(const Tensor* value, TensorAttribute(c, "value"));
  Tensor output(c.result_types[0]);
  if (!value->bytes().empty()) {
    std::memcpy(output.bytes().data(), value->bytes().data(), value->bytes().size());
  }
  return Exactly(std::move(output));
}

// iota: output[output_index] = constant(output_index[iota_dimension],
// element_type(output)). The constant is the index converted as `convert`
// converts an si64 value: exact where the type holds it, otherwise rounded
// to nearest even once with the type's overflow rule. Values the type cannot
// hold at all (integers out of range, 0 in f8E8M0FNU) the spec leaves open:
// those elements are free.
// A quantized output holds quantize(index, element_type(output)).
Results Iota(const Case& c) {
  const TensorType& output_type = c.result_types[0];
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t iota_dimension_attribute,
                            IntAttribute(c, "iota_dimension"));
  const auto iota_dimension = static_cast<size_t>(iota_dimension_attribute);
  if (output_type.quantization) {
    std::vector<Dequantized> indices(static_cast<size_t>(output_type.num_elements()));
    const int64_t stride = RowMajorStrides(output_type.shape)[iota_dimension];
    for (size_t flat = 0; flat < indices.size(); ++flat) {
      const int64_t index =
          (static_cast<int64_t>(flat) / stride) % output_type.shape[iota_dimension];
      // The index as a value of the expressed type, as quantize takes it.
      indices[flat].value =
          RoundedToFloatType(output_type.quantization->expressed_type, static_cast<double>(index));
    }
    std::vector<ResultExpectation> results;
    results.push_back(QuantizedExpectation(indices, output_type));
    return results;
  }
  // constants[i] = constant(i, element_type(output)) for every index i
  // along iota_dimension, converted in one call (one dispatch).
  const int64_t size = output_type.shape[iota_dimension];
  Tensor indices(Shape{size}, ElementType::kSI64);
  for (int64_t i = 0; i < size; ++i) indices.values<ElementType::kSI64>()[i] = i;
  Tensor constants(Shape{size}, output_type.element_type);
  std::vector<uint8_t> flags(static_cast<size_t>(size));
  ConvertElements(ElementType::kSI64, indices.raw(), output_type.element_type, constants.raw(),
                  size, flags.data());
  ElementView constant(constants);

  std::vector<ResultExpectation> results(1);
  ResultExpectation& expectation = results[0];
  bool any_free = false;
  for (uint8_t flag : flags) any_free = any_free || (flag & kConversionUnrepresentable) != 0;
  if (any_free) {
    expectation.free.assign(NumElements(output_type.shape), 0);
    expectation.free_reason =
        "the index is not representable in the output type; the spec leaves the value open "
        "(convert, #180)";
  }
  int64_t linear = 0;
  expectation.reference = ResultFrom(output_type, [&](const std::vector<int64_t>& output_index) {
    const int64_t i = output_index[iota_dimension];
    if (any_free) expectation.free[linear] = (flags[i] & kConversionUnrepresentable) ? 1 : 0;
    ++linear;
    return constant.at_linear(i);
  });
  expectation.check = Check::kExact;
  return results;
}

// get_dimension_size: result = dim(operand, dimension), an si32 scalar. A
// size beyond si32's range (possible only with another dimension of size 0)
// is not representable: the spec does not say what the result is then.
Results GetDimensionSize(const Case& c) {
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t dimension, IntAttribute(c, "dimension"));
  const int64_t size = c.operands[0].shape()[dimension];
  Tensor result(c.result_types[0]);
  std::vector<ResultExpectation> results(1);
  if (size > std::numeric_limits<int32_t>::max()) {
    results[0].free.assign(1, 1);
    results[0].free_reason = "the dimension size does not fit in si32";
  }
  result.values<ElementType::kSI32>()[0] = static_cast<int32_t>(size);
  results[0].reference = std::move(result);
  results[0].check = Check::kExact;
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementValuesOps() {
  return {{"constant", Constant}, {"get_dimension_size", GetDimensionSize}, {"iota", Iota}};
}

}  // namespace hlocheck::oracle
