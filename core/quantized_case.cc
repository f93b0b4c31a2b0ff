#include "core/quantized_case.h"

#include <utility>
#include <variant>

namespace hlocheck {

TensorType StorageType(const TensorType& type) {
  return type.quantization ? TensorType(type.shape, type.element_type) : type;
}

Case OnStorage(const Case& c) {
  Case s = c;
  for (Tensor& t : s.operands) {
    if (t.type().quantization) t = Tensor::Reusing(StorageType(t.type()), std::move(t));
  }
  for (TensorType& t : s.result_types) t = StorageType(t);
  for (auto& [name, attribute] : s.attributes) {
    if (Tensor* t = std::get_if<Tensor>(&attribute); t != nullptr && t->type().quantization) {
      *t = Tensor::Reusing(StorageType(t->type()), std::move(*t));
    }
  }
  return s;
}

}  // namespace hlocheck
