// Tensors: a static shape, an element type and dense row-major storage, one
// container value per element (see Container<T> in element_type.h).
#ifndef HLOCHECK_CORE_TENSOR_H_
#define HLOCHECK_CORE_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/element_type.h"
#include "core/types.h"

namespace hlocheck {

using Shape = std::vector<int64_t>;

int64_t NumElements(const Shape& shape);
// Element strides of a row-major layout.
std::vector<int64_t> RowMajorStrides(const Shape& shape);
// The row-major element offsets of every index of the sub-space of `shape`
// spanned by `dimensions` (the other coordinates 0), in row-major order of
// those dimensions as listed: where the terms of a contraction or the slice
// of a reduction lie, relative to one base element.
std::vector<int64_t> SubspaceOffsets(const Shape& shape, const std::vector<int64_t>& dimensions);
std::string ShapeToString(const Shape& shape, std::string_view separator = "x");

struct TensorType {
  TensorType() = default;
  TensorType(Shape shape, ElementType element_type,
             std::optional<UniformQuantization> quantization = std::nullopt)
      : shape(std::move(shape)),
        element_type(element_type),
        quantization(std::move(quantization)) {}

  Shape shape;
  // For a quantized tensor: its storage type; `quantization` says how the
  // stored integers map to values of the expressed type.
  ElementType element_type = ElementType::kF32;
  std::optional<UniformQuantization> quantization;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t num_elements() const { return NumElements(shape); }
  // MLIR spelling, as StableHLO programs write it: tensor<2x3xf32>,
  // tensor<i32> for si32, tensor<f32> for rank 0, tensor<2x!quant.uniform<...>>.
  std::string ToString() const;
  bool operator==(const TensorType&) const = default;
};

class Tensor {
 public:
  Tensor() = default;
  // Zero-filled (every type's zero is the all-zero bit pattern, except
  // f8E8M0FNU, whose all-zero pattern is 2^-127).
  explicit Tensor(TensorType type);
  Tensor(Shape shape, ElementType element_type)
      : Tensor(TensorType{std::move(shape), element_type}) {}
  // A tensor of `type` on `recycled`'s storage when that holds exactly as
  // many bytes, left as it is: for a result its maker overwrites element by
  // element, where a fresh large tensor would cost more in page faults and
  // zeroing than the op itself. Otherwise a new zero-filled tensor.
  static Tensor Reusing(TensorType type, Tensor&& recycled);

  const TensorType& type() const { return type_; }
  const Shape& shape() const { return type_.shape; }
  ElementType element_type() const { return type_.element_type; }
  int64_t rank() const { return type_.rank(); }
  int64_t num_elements() const { return num_elements_; }

  template <typename C>
  std::span<C> data() {
    return {reinterpret_cast<C*>(storage_.data()), static_cast<size_t>(num_elements_)};
  }
  template <typename C>
  std::span<const C> data() const {
    return {reinterpret_cast<const C*>(storage_.data()), static_cast<size_t>(num_elements_)};
  }
  // Typed access by element type: tensor.values<ElementType::kF32>().
  template <ElementType T>
  std::span<ContainerT<T>> values() {
    return data<ContainerT<T>>();
  }
  template <ElementType T>
  std::span<const ContainerT<T>> values() const {
    return data<ContainerT<T>>();
  }
  std::span<std::byte> bytes() { return storage_; }
  std::span<const std::byte> bytes() const { return storage_; }
  void* raw() { return storage_.data(); }
  const void* raw() const { return storage_.data(); }

  // Same type and the same bytes.
  bool BitwiseEquals(const Tensor& other) const;
  bool operator==(const Tensor& other) const { return BitwiseEquals(other); }

 private:
  TensorType type_;
  int64_t num_elements_ = 1;
  std::vector<std::byte> storage_;
};

// Walks a shape's index space in row-major (lexicographic) order without
// allocating per element:
//   for (IndexIterator it(shape); !it.done(); it.Next()) use(it.index());
class IndexIterator {
 public:
  explicit IndexIterator(const Shape& shape);
  bool done() const { return done_; }
  const std::vector<int64_t>& index() const { return index_; }
  // Position of index() in row-major order.
  int64_t linear() const { return linear_; }
  void Next();

 private:
  const Shape& shape_;
  std::vector<int64_t> index_;
  int64_t linear_ = 0;
  bool done_;
};

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_TENSOR_H_
