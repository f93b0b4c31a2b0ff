// The CUDA adapter's complex, real and imag: only parts move, so each is
// one or two strided copies over the parts (a complex<f32> tensor of n
// elements is 2n f32 parts, real part first). imag of a real float is +0 in
// its type, written as the padding of a copy that reads nothing. Complex
// arithmetic is not implemented on CUDA yet.
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/element_value.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

// A rank-1 copy of n elements of `bytes` each: out[i * out_stride +
// out_base] = in[i * in_stride + in_base].
StridedCopyArgs PartCopy(int64_t n, int bytes, const void* in, int64_t in_stride, int64_t in_base,
                         void* out, int64_t out_stride, int64_t out_base) {
  StridedCopyArgs copy;
  copy.rank = 1;
  copy.element_bytes = bytes;
  copy.dims[0] = n;
  copy.out_strides[0] = out_stride;
  copy.out_base = out_base;
  copy.mul[0] = 1;
  copy.div[0] = 1;
  copy.in_dims[0] = n;
  copy.in_strides[0] = in_stride;
  copy.in_base = in_base;
  copy.in = in;
  copy.out = out;
  return copy;
}

AdapterSupport SupportsComplexOp(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c, /*bytes_only=*/true); !tensors.supported) {
    return tensors;
  }
  if (c.operands.size() != 2 || c.result_types.size() != 1) {
    return AdapterSupport::No("complex needs 2 operands");
  }
  const ElementType part = c.operands[0].element_type();
  if (part != ElementType::kF32 && part != ElementType::kF64) {
    return AdapterSupport::No("complex is implemented for f32 and f64 parts");
  }
  return AdapterSupport::Yes();
}

// complex: result = (lhs, rhs), element by element.
absl::StatusOr<Results> RunComplex(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 2));
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  const TensorType& type = c.result_types[0];
  if (!IsComplex(type.element_type) || ComponentType(type.element_type) != lhs.element_type() ||
      rhs.type() != lhs.type() || lhs.shape() != type.shape) {
    return absl::InvalidArgumentError("complex: operand and result types do not fit");
  }
  const int64_t n = type.num_elements();
  const int part = ContainerBytes(lhs.element_type());
  HLOCHECK_ASSIGN_OR_RETURN(Buffer re, context.Upload(lhs));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer im, context.Upload(rhs));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Allocate(static_cast<size_t>(2 * n * part)));
  if (n > 0) {
    HLOCHECK_RETURN_IF_ERROR(context.Check(
        c, context.machine().StridedCopy(PartCopy(n, part, re.data(), 1, 0, out.data(), 2, 0))));
    HLOCHECK_RETURN_IF_ERROR(context.Check(
        c, context.machine().StridedCopy(PartCopy(n, part, im.data(), 1, 0, out.data(), 2, 1))));
  }
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

AdapterSupport SupportsPart(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c, /*bytes_only=*/true); !tensors.supported) {
    return tensors;
  }
  if (c.operands.size() != 1 || c.result_types.size() != 1) {
    return AdapterSupport::No(c.op + " needs 1 operand");
  }
  const ElementType type = c.operands[0].element_type();
  if (!IsFloat(type) && !IsComplex(type)) {
    return AdapterSupport::No(c.op + " is implemented for floats and complex numbers");
  }
  return AdapterSupport::Yes();
}

// real and imag: the part of each element (of a real float: itself, and +0).
absl::StatusOr<Results> RunPart(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  const Tensor& operand = c.operands[0];
  const TensorType& type = c.result_types[0];
  const ElementType element = operand.element_type();
  if (ComponentType(element) != type.element_type || operand.shape() != type.shape ||
      (!IsFloat(element) && !IsComplex(element))) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, ": ", operand.type().ToString(), " -> ", type.ToString()));
  }
  const bool imag = c.op == "imag" || c.op == "stablehlo.imag";
  const int64_t n = type.num_elements();
  const int part = ContainerBytes(type.element_type);
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in, context.Upload(operand));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer out, context.Allocate(static_cast<size_t>(n * part)));
  if (n > 0) {
    StridedCopyArgs copy;
    if (IsComplex(element)) {
      copy = PartCopy(n, part, in.data(), 2, imag ? 1 : 0, out.data(), 1, 0);
    } else {
      copy = PartCopy(n, part, in.data(), 1, 0, out.data(), 1, 0);
      if (imag) {
        // Nothing read: every element is the padding, +0 in the type.
        copy.in_dims[0] = 0;
        const double zero = 0.0;
        ConvertElement(ElementType::kF64, &zero, type.element_type, copy.padding);
      }
    }
    HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(copy)));
  }
  HLOCHECK_ASSIGN_OR_RETURN(Tensor result, context.Download(out, type));
  Results results;
  results.push_back(std::move(result));
  return results;
}

}  // namespace

std::vector<OpEntry> ElementwiseComplexOps() {
  return {
      {"complex", &SupportsComplexOp, &RunComplex},
      {"real", &SupportsPart, &RunPart},
      {"imag", &SupportsPart, &RunPart},
  };
}

}  // namespace hlocheck::cuda
