// Ops that produce values rather than move operands: constant, iota and
// get_dimension_size. Their results are exact, and constant and iota are
// filled by the same parallel copies as data movement.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/data_movement_internal.h"
#include "core/element_value.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// ------------------------------------------------------------ constant

const Tensor* ValueAttribute(const Case& c) {
  const Attribute* attribute = c.FindAttribute("value");
  return attribute == nullptr ? nullptr : std::get_if<Tensor>(attribute);
}

AdapterSupport SupportsConstant(const Case& c) {
  const Tensor* value = ValueAttribute(c);
  if (value != nullptr && value->type().quantization.has_value()) {
    return AdapterSupport::No("constant: quantized tensors are not supported");
  }
  return SupportsUnquantized(c);
}

// output = value, bit for bit.
absl::StatusOr<Results> RunConstant(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 0));
  const Tensor* value = ValueAttribute(c);
  if (value == nullptr || value->type() != c.result_types[0]) {
    return absl::InvalidArgumentError(
        absl::StrCat("constant: the value attribute must be a tensor of the output type ",
                     c.result_types[0].ToString()));
  }
  Tensor output(c.result_types[0]);
  ParallelCopy(value->raw(), output.raw(), static_cast<int64_t>(value->bytes().size()), device);
  return OneResult(std::move(output));
}

// ------------------------------------------------------------ iota

AdapterSupport SupportsIota(const Case& c) {
  if (AdapterSupport movement = SupportsMovement(c); !movement.supported) return movement;
  if (IsBool(c.result_types[0].element_type)) {
    return AdapterSupport::No("iota's output is an integer, float or complex tensor, not i1");
  }
  return AdapterSupport::Yes();
}

// output[output_index] = constant(output_index[iota_dimension],
// element_type(output)): the indices 0 .. dim - 1 are converted once, as
// `convert` converts si64 (core's conversion, rounding to nearest even once
// with the type's overflow rule), then repeated over the other dimensions
// by a box copy whose source stride is 0 there.
absl::StatusOr<Results> RunIota(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 0));
  const TensorType& output_type = c.result_types[0];
  absl::StatusOr<int64_t> iota_dimension = IntAttribute(c, "iota_dimension");
  HLOCHECK_RETURN_IF_ERROR(iota_dimension.status());
  if (*iota_dimension < 0 || *iota_dimension >= output_type.rank() ||
      output_type.rank() > kMaxRank || IsBool(output_type.element_type)) {
    return absl::InvalidArgumentError(
        absl::StrCat("iota: iota_dimension ", *iota_dimension, " of ", output_type.ToString()));
  }
  Tensor output(output_type);
  if (output.num_elements() == 0) return OneResult(std::move(output));
  const int64_t size = output_type.shape[*iota_dimension];
  Tensor indices(Shape{size}, ElementType::kSI64);
  for (int64_t i = 0; i < size; ++i) indices.values<ElementType::kSI64>()[i] = i;
  Tensor constants(Shape{size}, output_type.element_type);
  ConvertElements(ElementType::kSI64, indices.raw(), output_type.element_type, constants.raw(),
                  size);
  StridedBox box{output_type.shape, std::vector<int64_t>(output_type.rank(), 0),
                 RowMajorStrides(output_type.shape)};
  box.source_strides[*iota_dimension] = 1;
  CopyBox(constants.raw(), output.raw(), box, ContainerBytes(output_type.element_type), device);
  return OneResult(std::move(output));
}

// ------------------------------------------------------------ get_dimension_size

// result = dim(operand, dimension) as an si32 scalar. A size beyond si32
// (possible only beside a dimension of size 0) wraps; the spec gives it no
// value.
absl::StatusOr<Results> RunGetDimensionSize(const Case& c, const Device&) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  absl::StatusOr<int64_t> dimension = IntAttribute(c, "dimension");
  HLOCHECK_RETURN_IF_ERROR(dimension.status());
  const Tensor& operand = c.operands[0];
  if (*dimension < 0 || *dimension >= operand.rank() ||
      c.result_types[0] != TensorType({}, ElementType::kSI32)) {
    return absl::InvalidArgumentError(absl::StrCat("get_dimension_size: dimension ", *dimension,
                                                   " of ", operand.type().ToString(), " as ",
                                                   c.result_types[0].ToString()));
  }
  Tensor result(c.result_types[0]);
  result.values<ElementType::kSI32>()[0] = static_cast<int32_t>(operand.shape()[*dimension]);
  return OneResult(std::move(result));
}

}  // namespace

std::vector<OpEntry> DataMovementValuesOps() {
  return {
      {"constant", 0, &SupportsConstant, &RunConstant},
      {"iota", 0, &SupportsIota, &RunIota},
      {"get_dimension_size", 1, &SupportsUnquantized, &RunGetDimensionSize},
  };
}

}  // namespace hlocheck::cpu
