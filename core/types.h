// StableHLO value types beyond plain tensors: quantized element types,
// tokens, tuples and function types (the signatures of regions), with their
// MLIR spelling in both directions.
#ifndef HLOCHECK_CORE_TYPES_H_
#define HLOCHECK_CORE_TYPES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/element_type.h"

namespace hlocheck {

// `!quant.uniform<storage<min:max>:expressed:dimension, {scale:zero_point, ...}>`.
// The storage type is the tensor's element type; a value i stands for
// (i - zero_point) * scale.
struct UniformQuantization {
  ElementType expressed_type = ElementType::kF32;
  int64_t storage_min = 0;
  int64_t storage_max = 0;
  std::optional<int64_t> quantization_dimension;  // set for per-axis quantization
  std::vector<double> scales;                     // values of the expressed type
  std::vector<int64_t> zero_points;

  bool operator==(const UniformQuantization&) const = default;
};

// The MLIR spelling of a quantized element type with storage type `storage`.
std::string QuantizedTypeToString(ElementType storage, const UniformQuantization& q);

struct TensorType;

// A value's type: a tensor (possibly quantized), a token, or a tuple.
struct ValueType {
  enum class Kind : uint8_t { kTensor, kToken, kTuple };
  Kind kind = Kind::kTensor;
  std::vector<int64_t> shape;  // kTensor
  ElementType element_type = ElementType::kF32;
  std::optional<UniformQuantization> quantization;
  std::vector<ValueType> elements;  // kTuple

  static ValueType Token() { return {Kind::kToken, {}, ElementType::kF32, std::nullopt, {}}; }
  static ValueType Tuple(std::vector<ValueType> elements) {
    return {Kind::kTuple, {}, ElementType::kF32, std::nullopt, std::move(elements)};
  }
  static ValueType Of(const TensorType& tensor);
  bool is_tensor() const { return kind == Kind::kTensor; }
  bool is_quantized() const { return kind == Kind::kTensor && quantization.has_value(); }
  // kTensor only.
  TensorType tensor() const;

  bool operator==(const ValueType&) const = default;
  std::string ToString() const;
};

// `(inputs) -> outputs`: the signature of a region or function.
struct FunctionType {
  std::vector<ValueType> inputs;
  std::vector<ValueType> outputs;

  bool operator==(const FunctionType&) const = default;
  std::string ToString() const;
};

// Parsers for the MLIR spellings. Errors say what was expected and where
// (a column within `text`).
absl::StatusOr<ValueType> ParseValueType(std::string_view text);
absl::StatusOr<FunctionType> ParseFunctionType(std::string_view text);
// The element type part alone: `f32`, `i8`, `!quant.uniform<...>`.
absl::StatusOr<ValueType> ParseElementTypeText(std::string_view text);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_TYPES_H_
