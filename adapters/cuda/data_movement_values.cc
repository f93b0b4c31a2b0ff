// The CUDA adapter's ops that make values: iota (one kernel), constant and
// get_dimension_size (their values known on the host, passed through the
// device like any result), and bitcast_convert between types that fill
// their containers (the bytes as they are).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "adapters/cuda/data_movement_internal.h"
#include "core/case_attributes.h"

namespace hlocheck::cuda {
namespace {

// ---------------------------------------------------------------- iota

AdapterSupport SupportsIota(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c); !tensors.supported) return tensors;
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunIota(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 0));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t dimension, IntAttribute(c, "iota_dimension"));
  const TensorType& type = c.result_types[0];
  if (dimension < 0 || dimension >= static_cast<int64_t>(type.shape.size())) {
    return absl::InvalidArgumentError("iota: iota_dimension out of range");
  }
  std::optional<ElementKind> kind = KindOf(type.element_type);
  if (!kind.has_value()) return absl::UnimplementedError("iota: complex types on CUDA");
  IotaArgs args;
  args.kind = *kind;
  args.n = type.num_elements();
  args.extent = type.shape[dimension];
  for (size_t d = dimension + 1; d < type.shape.size(); ++d) args.inner *= type.shape[d];
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer out,
      context.Allocate(static_cast<size_t>(args.n * ContainerBytes(type.element_type))));
  args.out = out.data();
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Iota(args)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

// ------------------------------------- constant, get_dimension_size

// A value known on the host, made a result the way every result is made:
// uploaded to the machine and downloaded (so that the transfers a result
// takes are the same for these ops).
absl::StatusOr<Results> HostValue(Context& context, const Tensor& value) {
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, ThroughMachine(context, value));
  Results results;
  results.push_back(std::move(result));
  return results;
}

AdapterSupport SupportsConstant(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c, /*bytes_only=*/true); !tensors.supported) {
    return tensors;
  }
  const Attribute* value = c.FindAttribute("value");
  const Tensor* tensor = value == nullptr ? nullptr : std::get_if<Tensor>(value);
  if (tensor != nullptr && tensor->type().quantization.has_value()) {
    return AdapterSupport::No("constant: quantized tensors are not implemented on CUDA");
  }
  return AdapterSupport::Yes();
}

// result = the value attribute, of the result type.
absl::StatusOr<Results> RunConstant(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 0));
  HLOCHECK_ASSIGN_OR_RETURN(const Tensor* value, TensorAttribute(c, "value"));
  if (value->type() != c.result_types[0]) {
    return absl::InvalidArgumentError(absl::StrCat("constant: the value is ",
                                                   value->type().ToString(), ", the result ",
                                                   c.result_types[0].ToString()));
  }
  return HostValue(context, *value);
}

// result = dim(operand, dimension) as an si32 scalar (a size beyond si32
// wraps; the spec gives it no value).
absl::StatusOr<Results> RunGetDimensionSize(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t dimension, IntAttribute(c, "dimension"));
  const Tensor& operand = c.operands[0];
  if (dimension < 0 || dimension >= operand.rank() ||
      c.result_types[0] != TensorType({}, ElementType::kSI32)) {
    return absl::InvalidArgumentError("get_dimension_size: the dimension or result does not fit");
  }
  Tensor size(c.result_types[0]);
  size.values<ElementType::kSI32>()[0] = static_cast<int32_t>(operand.shape()[dimension]);
  return HostValue(context, size);
}

// ------------------------------------------------------ bitcast_convert

// Between types whose values fill their containers (no sub-byte or i1
// types, whose bits the spec packs), the bytes stay as they are: the same
// storage, read as another type and shape.
AdapterSupport SupportsBitcast(const Case& c) {
  if (AdapterSupport movement = SupportsMovement(c); !movement.supported) return movement;
  for (ElementType type :
       {c.operands.empty() ? ElementType::kI1 : c.operands[0].element_type(),
        c.result_types.empty() ? ElementType::kI1 : c.result_types[0].element_type}) {
    if (BitWidth(type) != 8 * ContainerBytes(type)) {
      return AdapterSupport::No(absl::StrCat("bitcast_convert of ", std::string(Name(type)),
                                             " (packed sub-byte bits) is not implemented on CUDA"));
    }
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunBitcast(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  const TensorType& type = c.result_types[0];
  const int64_t bytes = type.num_elements() * ContainerBytes(type.element_type);
  if (bytes != static_cast<int64_t>(c.operands[0].bytes().size())) {
    return absl::InvalidArgumentError("bitcast_convert: sizes differ");
  }
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(c.operands[0]));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Allocate(static_cast<size_t>(bytes)));
  const Shape flat = {bytes};
  const int64_t source[] = {0};
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(PermutingCopy(
                                                flat, flat, source, 1, in.data(), out.data()))));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> DataMovementValuesOps() {
  return {
      {"iota", &SupportsIota, &RunIota},
      {"constant", &SupportsConstant, &RunConstant},
      {"get_dimension_size", &SupportsConstant, &RunGetDimensionSize},
      {"bitcast_convert", &SupportsBitcast, &RunBitcast},
  };
}

}  // namespace hlocheck::cuda
