// The CUDA adapter's fft: FFT, IFFT, RFFT and IRFFT over the last L
// dimensions, one dimension at a time (kernels/fft_kernels.h) on
// complex<double> values: the operand converted in, RFFT's real values as
// complex ones, IRFFT's half spectrum completed (X[N - k] = conj(X[k]))
// before its last inverse; the result keeps RFFT's first N/2 + 1 and
// IRFFT's real parts, rounded once to the result type.
#include <algorithm>
#include <string>
#include <vector>

#include "adapters/cuda/cuda_internal.h"
#include "adapters/shapes/fft_shapes.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsFft(const Case& c) {
  if (AdapterSupport tensors = SupportsTensors(c, /*bytes_only=*/true); !tensors.supported) {
    return tensors;
  }
  if (c.operands.size() != 1 || c.result_types.size() != 1 || c.operands[0].rank() > kMaxRank) {
    return AdapterSupport::No("fft needs 1 operand of rank at most 8 and 1 result");
  }
  return AdapterSupport::Yes();
}

ElementKind PartKind(ElementType type) { return *KindOf(ComponentType(type)); }

absl::StatusOr<Results> RunFft(const Case& c, Context& context) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  const Tensor& operand = c.operands[0];
  const TensorType& result_type = c.result_types[0];
  HLOCHECK_ASSIGN_OR_RETURN(const FftPlan plan, CheckFft(c));
  const std::string& type = plan.type;
  const std::vector<int64_t>& lengths = plan.lengths;
  const size_t rank = operand.shape().size();
  const ElementType in = operand.element_type();
  const ElementType out = result_type.element_type;

  // The operand as complex<double>, interleaved: its parts converted (a real
  // operand's imaginary parts stay zero, the buffer's padding).
  const int64_t count = operand.num_elements();
  HLOCHECK_ASSIGN_OR_RETURN(Buffer in_buffer, context.Upload(operand));
  HLOCHECK_ASSIGN_OR_RETURN(Buffer values,
                            context.Allocate(static_cast<size_t>(2 * count) * sizeof(double)));
  ElementKind f64 = *KindOf(ElementType::kF64);
  {
    StridedCopyArgs zero;  // every part +0 first
    zero.rank = 1;
    zero.element_bytes = 8;
    zero.dims[0] = 2 * count;
    zero.out_strides[0] = 1;
    zero.mul[0] = 1;
    zero.div[0] = 1;
    zero.out = values.data();
    HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(zero)));
    const int64_t parts = IsComplex(in) ? 2 * count : count;
    ElementwiseArgs convert;
    convert.op = ElementOp::kConvert;
    convert.in = PartKind(in);
    convert.out = f64;
    convert.a = in_buffer.data();
    convert.n = parts;
    if (IsComplex(in)) {
      convert.z = values.data();
      HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Elementwise(convert)));
    } else {
      // Real values into the even doubles: converted, then spread.
      HLOCHECK_ASSIGN_OR_RETURN(Buffer reals,
                                context.Allocate(static_cast<size_t>(count) * sizeof(double)));
      convert.z = reals.data();
      HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Elementwise(convert)));
      StridedCopyArgs spread;
      spread.rank = 1;
      spread.element_bytes = 8;
      spread.dims[0] = count;
      spread.out_strides[0] = 2;
      spread.mul[0] = 1;
      spread.div[0] = 1;
      spread.in_dims[0] = count;
      spread.in_strides[0] = 1;
      spread.in = reals.data();
      spread.out = values.data();
      HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(spread)));
    }
  }
  Shape shape = operand.shape();
  const size_t first = rank - lengths.size();
  HLOCHECK_ASSIGN_OR_RETURN(Buffer other,
                            context.Allocate(static_cast<size_t>(2 * count) * sizeof(double)));
  auto pass = [&](size_t d, bool inverse) -> absl::Status {
    if (shape[d] <= 1) return absl::OkStatus();
    DftArgs dft;
    dft.rank = static_cast<int>(shape.size());
    for (size_t k = 0; k < shape.size(); ++k) dft.dims[k] = shape[k];
    dft.dimension = static_cast<int>(d);
    dft.inverse = inverse;
    dft.in = static_cast<const double*>(values.data());
    dft.out = static_cast<double*>(other.data());
    HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Dft(dft)));
    std::swap(values, other);
    return absl::OkStatus();
  };
  if (type == "FFT" || type == "RFFT") {
    for (size_t d = rank; d-- > first;) HLOCHECK_RETURN_IF_ERROR(pass(d, false));
  } else {
    for (size_t d = first; d + 1 < rank; ++d) HLOCHECK_RETURN_IF_ERROR(pass(d, true));
    if (type == "IRFFT") {
      // The half spectrum completed: X[N - k] = conj(X[k]), as two copies
      // (the kept half, then the mirrored rest with its imaginary parts
      // negated by an elementwise negate of the odd doubles).
      const int64_t n = lengths.back();
      const int64_t kept = shape.back();
      const int64_t rows = kept == 0 ? 0 : count / kept;
      HLOCHECK_ASSIGN_OR_RETURN(
          Buffer full, context.Allocate(static_cast<size_t>(2 * rows * n) * sizeof(double)));
      if (rows * n > 0) {
        StridedCopyArgs mirror;  // complex elements as 16 bytes
        mirror.rank = 2;
        mirror.element_bytes = 16;
        mirror.dims[0] = rows;
        mirror.dims[1] = n;
        mirror.out_strides[0] = n;
        mirror.out_strides[1] = 1;
        mirror.in_dims[0] = rows;
        mirror.in_strides[0] = kept;
        mirror.mul[0] = 1;
        mirror.div[0] = 1;
        mirror.in_dims[1] = kept;
        mirror.in_strides[1] = 1;
        // k < kept reads k; k >= kept reads n - k (its conjugate, below).
        mirror.mul[1] = 1;
        mirror.div[1] = 1;
        mirror.in = values.data();
        mirror.out = full.data();
        HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(mirror)));
        if (n > kept) {
          StridedCopyArgs rest = mirror;
          rest.dims[1] = n - kept;
          rest.out_strides[0] = n;
          rest.out_base = kept;
          rest.mul[1] = -1;
          rest.add[1] = n - kept;  // element kept + m reads n - kept - m
          HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(rest)));
          // Their imaginary parts negated: gathered (rows x (n - kept)
          // doubles), negated, put back.
          const int64_t mirrored = rows * (n - kept);
          HLOCHECK_ASSIGN_OR_RETURN(
              Buffer imag, context.Allocate(static_cast<size_t>(mirrored) * sizeof(double)));
          HLOCHECK_ASSIGN_OR_RETURN(
              Buffer negated, context.Allocate(static_cast<size_t>(mirrored) * sizeof(double)));
          StridedCopyArgs take;
          take.rank = 2;
          take.element_bytes = 8;
          take.dims[0] = rows;
          take.dims[1] = n - kept;
          take.out_strides[0] = n - kept;
          take.out_strides[1] = 1;
          take.mul[0] = take.mul[1] = 1;
          take.div[0] = take.div[1] = 1;
          take.in_dims[0] = rows;
          take.in_dims[1] = n - kept;
          take.in_strides[0] = 2 * n;
          take.in_strides[1] = 2;
          take.in_base = 2 * kept + 1;
          take.in = full.data();
          take.out = imag.data();
          HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(take)));
          ElementwiseArgs negate;
          negate.op = ElementOp::kNegate;
          negate.in = f64;
          negate.out = f64;
          negate.a = imag.data();
          negate.z = negated.data();
          negate.n = mirrored;
          HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Elementwise(negate)));
          StridedCopyArgs put = take;
          put.out_strides[0] = 2 * n;
          put.out_strides[1] = 2;
          put.out_base = 2 * kept + 1;
          put.in_strides[0] = n - kept;
          put.in_strides[1] = 1;
          put.in_base = 0;
          put.in = negated.data();
          put.out = full.data();
          HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(put)));
        }
      }
      values = std::move(full);
      HLOCHECK_ASSIGN_OR_RETURN(
          other, context.Allocate(static_cast<size_t>(2 * rows * n) * sizeof(double)));
      shape.back() = n;
    }
    HLOCHECK_RETURN_IF_ERROR(pass(rank - 1, true));
  }
  // Into the result: the first `kept` of the last dimension; complex parts
  // or, for IRFFT, the real parts; converted to the result's part type.
  const int64_t width = shape.empty() ? 1 : shape.back();
  const int64_t kept = result_type.shape.empty() ? 1 : result_type.shape.back();
  const int64_t rows = kept == 0 ? 0 : result_type.num_elements() / kept;
  const bool complex_out = IsComplex(out);
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer picked,
      context.Allocate(static_cast<size_t>(rows * kept * (complex_out ? 2 : 1)) * sizeof(double)));
  if (rows * kept > 0) {
    StridedCopyArgs pick;
    pick.rank = 2;
    pick.element_bytes = complex_out ? 16 : 8;
    pick.dims[0] = rows;
    pick.dims[1] = kept;
    pick.out_strides[0] = kept;
    pick.out_strides[1] = 1;
    pick.mul[0] = pick.mul[1] = 1;
    pick.div[0] = pick.div[1] = 1;
    pick.in_dims[0] = rows;
    pick.in_dims[1] = kept;
    // In units of the element moved: a complex double is 16 bytes; a real
    // part is every other double.
    pick.in_strides[0] = complex_out ? width : 2 * width;
    pick.in_strides[1] = complex_out ? 1 : 2;
    pick.in = values.data();
    pick.out = picked.data();
    HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().StridedCopy(pick)));
  }
  HLOCHECK_ASSIGN_OR_RETURN(
      Buffer result,
      context.Allocate(static_cast<size_t>(result_type.num_elements() * ContainerBytes(out))));
  ElementwiseArgs narrow;
  narrow.op = ElementOp::kConvert;
  narrow.in = f64;
  narrow.out = PartKind(out);
  narrow.a = picked.data();
  narrow.z = result.data();
  narrow.n = rows * kept * (complex_out ? 2 : 1);
  HLOCHECK_RETURN_IF_ERROR(context.Check(c, context.machine().Elementwise(narrow)));
  HLOCHECK_ASSIGN_OR_RETURN(Tensor tensor, context.Download(result, result_type));
  Results results;
  results.push_back(std::move(tensor));
  return results;
}

}  // namespace

std::vector<OpEntry> FftOps() { return {{"fft", &SupportsFft, &RunFft}}; }

}  // namespace hlocheck::cuda
