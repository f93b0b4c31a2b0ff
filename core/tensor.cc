#include "core/tensor.h"

#include <cstring>

namespace hlocheck {

int64_t NumElements(const Shape& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return count;
}

std::vector<int64_t> RowMajorStrides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * shape[d + 1];
  }
  return strides;
}

std::vector<int64_t> SubspaceOffsets(const Shape& shape, const std::vector<int64_t>& dimensions) {
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  Shape sub_shape;
  for (int64_t d : dimensions) sub_shape.push_back(shape[d]);
  std::vector<int64_t> offsets;
  offsets.reserve(NumElements(sub_shape));
  for (IndexIterator it(sub_shape); !it.done(); it.Next()) {
    int64_t offset = 0;
    for (size_t j = 0; j < dimensions.size(); ++j) offset += it.index()[j] * strides[dimensions[j]];
    offsets.push_back(offset);
  }
  return offsets;
}

std::string ShapeToString(const Shape& shape, std::string_view separator) {
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += separator;
    text += std::to_string(shape[i]);
  }
  return text;
}

std::string TensorType::ToString() const {
  std::string text = "tensor<";
  for (int64_t dim : shape) {
    text += std::to_string(dim);
    text += 'x';
  }
  text += quantization ? QuantizedTypeToString(element_type, *quantization)
                       : std::string(MlirName(element_type));
  text += '>';
  return text;
}

Tensor::Tensor(TensorType type)
    : type_(std::move(type)),
      num_elements_(type_.num_elements()),
      storage_(static_cast<size_t>(num_elements_ * ContainerBytes(type_.element_type))) {}

Tensor Tensor::Reusing(TensorType type, Tensor&& recycled) {
  const int64_t elements = type.num_elements();
  const size_t bytes = static_cast<size_t>(elements * ContainerBytes(type.element_type));
  if (recycled.storage_.size() != bytes) return Tensor(std::move(type));
  Tensor tensor;
  tensor.type_ = std::move(type);
  tensor.num_elements_ = elements;
  tensor.storage_ = std::move(recycled.storage_);
  recycled = Tensor();
  return tensor;
}

bool Tensor::BitwiseEquals(const Tensor& other) const {
  if (type_ != other.type_) return false;
  // memcmp must not see the null data() of empty storage.
  return storage_.empty() ||
         std::memcmp(storage_.data(), other.storage_.data(), storage_.size()) == 0;
}

IndexIterator::IndexIterator(const Shape& shape)
    : shape_(shape), index_(shape.size(), 0), done_(NumElements(shape) == 0) {}

void IndexIterator::Next() {
  ++linear_;
  for (int64_t d = static_cast<int64_t>(shape_.size()) - 1; d >= 0; --d) {
    if (++index_[d] < shape_[d]) return;
    index_[d] = 0;
  }
  done_ = true;
}

}  // namespace hlocheck
