// Shared by the data movement files (data_movement_*.cc), and ScalarAt by
// every op that calls a region body: every result
// element of these ops is one input element (or a constant), named by an
// index formula of the spec. Elements are moved as raw bytes, so every
// element type -- and the storage of quantized tensors -- behaves the same,
// and no op needs to dispatch on the element type to move data.
#ifndef HLOCHECK_ORACLE_DATA_MOVEMENT_HELPERS_H_
#define HLOCHECK_ORACLE_DATA_MOVEMENT_HELPERS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"
#include "core/tensor.h"
#include "oracle/expectation.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

// One result, compared bit for bit.
Results Exactly(Tensor result);

// The elements of a tensor addressed by multi-index (row-major), as bytes.
class ElementView {
 public:
  explicit ElementView(const Tensor& tensor)
      : base_(tensor.bytes().data()),
        bytes_(ContainerBytes(tensor.element_type())),
        strides_(RowMajorStrides(tensor.shape())) {}

  const std::byte* at(std::span<const int64_t> index) const {
    int64_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d) offset += index[d] * strides_[d];
    return at_linear(offset);
  }
  // The element at position `linear` of the row-major order.
  const std::byte* at_linear(int64_t linear) const { return base_ + linear * bytes_; }

 private:
  const std::byte* base_;
  int64_t bytes_;
  std::vector<int64_t> strides_;
};

// result[result_index] = *source(result_index) for every index of the
// result, in row-major order. `source` returns the bytes of one element of
// the result's element type (an ElementView::at of an input, or a constant).
template <typename Source>
Tensor ResultFrom(const TensorType& result_type, Source&& source) {
  Tensor result(result_type);
  const size_t bytes = ContainerBytes(result_type.element_type);
  std::byte* out = result.bytes().data();
  for (IndexIterator it(result.shape()); !it.done(); it.Next()) {
    std::memcpy(out + it.linear() * bytes, source(it.index()), bytes);
  }
  return result;
}

// The type of one element of `from` as a 0-dimensional tensor: a per-tensor
// quantized element keeps its quantized type (region bodies compute on
// quantized scalars); per-axis parameters belong to a dimension a scalar
// does not have.
TensorType ScalarTypeOf(const Tensor& from);

// A 0-dimensional tensor holding element `position` (row-major) of `from`:
// one argument of a region body (a reduction's, a comparator's, a map's).
Tensor ScalarAt(const Tensor& from, int64_t position);
// The same into `scalar`, reusing its storage when it is a 0-dimensional
// tensor of from's element type (the loops that call a body element by
// element keep their argument tensors so).
void CopyElementTo(const Tensor& from, int64_t position, Tensor& scalar);

// The tensors of the op's input `input` (its position among the spec's
// operands), using c.operand_segments for variadic inputs.
std::span<const Tensor> InputTensors(const Case& c, size_t input);

// The values of an integer tensor as int64_t, saturated to int64_t's range
// (only ui64 values above 2^63 - 1 saturate). Start indices are clamped into
// [0, dim - size], which lies inside int64_t, so clamping the saturated value
// gives what clamping the exact value gives. One dispatch per tensor.
std::vector<int64_t> SaturatedIndexValues(const Tensor& indices);

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_DATA_MOVEMENT_HELPERS_H_
