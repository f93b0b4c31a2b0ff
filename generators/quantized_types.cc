#include "generators/quantized_types.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "generators/choice.h"

namespace hlocheck {
namespace {

using spec::Value;
using Args = std::span<const Value>;

// The storage types the spec allows, narrowest last: a type's storage must
// have fewer bits than its expressed type (quantized type C1).
constexpr ElementType kStorageTypes[] = {ElementType::kSI8, ElementType::kUI8,  ElementType::kSI4,
                                         ElementType::kUI4, ElementType::kSI16, ElementType::kUI16,
                                         ElementType::kSI2, ElementType::kUI2,  ElementType::kSI32,
                                         ElementType::kUI32};

// Scales from tiny to large: powers of two (a rescale by a power of two is
// exact) and others (where an integer kernel's fixed-point multiplier
// rounds), each rounded to the expressed type and kept where that is a
// positive finite value of it (C5-C7).
constexpr double kScaleChoices[] = {1.0,    0.5,    2.0,  0.25,  1.5,     3.0,     0.0078125,
                                    0.1,    0.3,    1.7,  12.5,  0x1p-10, 0x1p-14, 0x1p-24,
                                    0x1p10, 0x1p20, 0.07, 1e-30, 1e30};

int64_t StorageMin(ElementType storage) {
  return IsSignedInt(storage) ? -(int64_t{1} << (BitWidth(storage) - 1)) : 0;
}
int64_t StorageMax(ElementType storage) {
  return IsSignedInt(storage) ? (int64_t{1} << (BitWidth(storage) - 1)) - 1
                              : static_cast<int64_t>((uint64_t{1} << BitWidth(storage)) - 1);
}

double DrawScale(ElementType expressed) {
  std::vector<double> scales;
  for (double s : kScaleChoices) {
    const double rounded = RoundedToFloatType(expressed, s);
    if (std::isfinite(rounded) && rounded > 0 &&
        std::find(scales.begin(), scales.end(), rounded) == scales.end()) {
      scales.push_back(rounded);
    }
  }
  return Choose(rc::gen::elementOf(scales));
}

// Zero points at 0, near it and at the storage extremes (where
// storage - zero_point overflows the storage type, and results saturate).
int64_t DrawZeroPoint(ElementType storage) {
  const int64_t lo = StorageMin(storage);
  const int64_t hi = StorageMax(storage);
  const int64_t choice = Choose(rc::gen::elementOf(std::vector<int64_t>{0, -1, 1, 5, lo, hi}));
  return std::clamp(choice, lo, hi);
}

// Fresh scales and zero points for q's storage and expressed types, as
// many as it has.
void DrawParameters(ElementType storage, UniformQuantization& q, size_t count) {
  q.scales.clear();
  q.zero_points.clear();
  for (size_t i = 0; i < count; ++i) {
    q.scales.push_back(DrawScale(q.expressed_type));
    q.zero_points.push_back(DrawZeroPoint(storage));
  }
}

absl::StatusOr<std::vector<int64_t>> ShapeOf(const Value& v, const char* function) {
  if (!v.is_list()) {
    return absl::InvalidArgumentError(std::string(function) + "(): expected a shape");
  }
  std::vector<int64_t> shape;
  for (const Value& d : v.items()) {
    if (!d.is_int()) {
      return absl::InvalidArgumentError(std::string(function) + "(): shape must be integers");
    }
    shape.push_back(d.as_int());
  }
  return shape;
}

}  // namespace

void RegisterQuantizedTypeFunctions(spec::FunctionTable& table) {
  // gen_quantized_or_plain(shape, element, mode): a tensor type of `shape`;
  // one case in eight where `element` is a float type with a storage type
  // narrower than it, uniformly quantized over it (mode 'per_tensor', or
  // 'per_axis': then per axis half the time, along a dimension that is not
  // 0-sized) with drawn scales and zero points (gen_rescaled's).
  table.Register("gen_quantized_or_plain", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() != 3 || !args[1].is_element_type() || !args[2].is_string() ||
        (args[2].as_string() != "per_tensor" && args[2].as_string() != "per_axis")) {
      return absl::InvalidArgumentError(
          "gen_quantized_or_plain(shape, element, 'per_tensor' | 'per_axis')");
    }
    auto shape = ShapeOf(args[0], "gen_quantized_or_plain");
    if (!shape.ok()) return shape.status();
    const ElementType element = args[1].as_element_type();
    ValueType t;
    t.shape = *shape;
    t.element_type = element;
    std::vector<ElementType> storages;
    if (IsFloat(element)) {
      for (ElementType s : kStorageTypes) {
        if (BitWidth(s) < BitWidth(element)) storages.push_back(s);
      }
    }
    // Plain first: shrinking goes towards the plain type.
    if (storages.empty() || Choose(rc::gen::inRange(0, 8)) != 7) return Value(std::move(t));
    const ElementType storage = Choose(rc::gen::elementOf(storages));
    UniformQuantization q;
    q.expressed_type = element;
    q.storage_min = StorageMin(storage);
    q.storage_max = StorageMax(storage);
    std::vector<int64_t> axes;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      if (t.shape[d] > 0) axes.push_back(static_cast<int64_t>(d));
    }
    size_t count = 1;
    if (args[2].as_string() == "per_axis" && !axes.empty() && Choose(rc::gen::arbitrary<bool>())) {
      q.quantization_dimension = Choose(rc::gen::elementOf(axes));
      count = static_cast<size_t>(t.shape[*q.quantization_dimension]);
    }
    DrawParameters(storage, q, count);
    t.element_type = storage;
    t.quantization = std::move(q);
    return Value(std::move(t));
  });
  // with_shape(type, shape[, axis]): the tensor type with another shape and
  // the same element type (its quantization kept as it is; a per-axis one
  // along `axis` of the new shape, which must be given, its one scale
  // repeated where a dimension of size 1 became larger): the result of an
  // op that moves elements. Draws nothing.
  table.Register("with_shape", [](Args args) -> absl::StatusOr<Value> {
    if (args.size() < 2 || args.size() > 3 || !args[0].is_type() ||
        !args[0].as_type().is_tensor()) {
      return absl::InvalidArgumentError("with_shape(tensor type, shape[, axis])");
    }
    auto shape = ShapeOf(args[1], "with_shape");
    if (!shape.ok()) return shape.status();
    ValueType t = args[0].as_type();
    t.shape = *shape;
    if (t.quantization && t.quantization->quantization_dimension) {
      if (args.size() != 3 || !args[2].is_int() || args[2].as_int() < 0 ||
          args[2].as_int() >= static_cast<int64_t>(t.shape.size())) {
        return absl::InvalidArgumentError(
            "with_shape(): a per-axis quantized type needs the new shape's axis");
      }
      t.quantization->quantization_dimension = args[2].as_int();
      // One scale for a dimension of size 1 stands for every slice it is
      // broadcast to (broadcast_in_dim's C6).
      UniformQuantization& q = *t.quantization;
      const auto size = static_cast<size_t>(t.shape[static_cast<size_t>(args[2].as_int())]);
      if (q.scales.size() == 1 && size != 1) {
        q.scales.assign(size, q.scales[0]);
        q.zero_points.assign(size, q.zero_points[0]);
      }
    }
    return Value(std::move(t));
  });
  // gen_rescaled(type[, shape]): a quantized type with the same baseline
  // (storage, expressed type, range, quantization dimension) and freshly
  // drawn scales and zero points, of `shape` if given (per-tensor types
  // only); any other type as it is (of `shape` if given).
  table.Register("gen_rescaled", [](Args args) -> absl::StatusOr<Value> {
    if (args.empty() || args.size() > 2 || !args[0].is_type() || !args[0].as_type().is_tensor()) {
      return absl::InvalidArgumentError("gen_rescaled(tensor type[, shape])");
    }
    ValueType t = args[0].as_type();
    if (args.size() == 2) {
      auto shape = ShapeOf(args[1], "gen_rescaled");
      if (!shape.ok()) return shape.status();
      if (t.quantization && t.quantization->quantization_dimension) {
        return absl::InvalidArgumentError("gen_rescaled(): a new shape for a per-axis type");
      }
      t.shape = *shape;
    }
    if (t.quantization) {
      DrawParameters(t.element_type, *t.quantization, t.quantization->scales.size());
    }
    return Value(std::move(t));
  });
}

}  // namespace hlocheck
