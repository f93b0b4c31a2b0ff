#include "spec/indexing_map_check.h"

#include <cstring>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "core/status_macros.h"

namespace hlocheck::spec {

namespace {

// Row-major position of `index` in `shape`, or nullopt when it is outside.
std::optional<int64_t> Linear(const Shape& shape, std::span<const int64_t> index) {
  if (index.size() != shape.size()) return std::nullopt;
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (index[d] < 0 || index[d] >= shape[d]) return std::nullopt;
    linear = linear * shape[d] + index[d];
  }
  return linear;
}

std::string Hex(const std::byte* bytes, size_t count) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (size_t i = count; i-- > 0;) {  // little-endian storage, most significant first
    auto b = static_cast<unsigned>(bytes[i]);
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

absl::StatusOr<const Tensor*> Operand(const Case& c, int64_t index, const std::string& name) {
  if (index < 0 || index >= static_cast<int64_t>(c.operands.size())) {
    return absl::InvalidArgumentError("the case has no operand " + name);
  }
  return &c.operands[index];
}

// output[d] = convert(value) for an op without inputs (iota); false when
// the value is unspecified.
absl::StatusOr<bool> CheckValueOfIndex(const AffineMap& value_map, const Tensor& output,
                                       std::span<const int64_t> d, const std::byte* actual) {
  const ElementType type = output.element_type();
  const size_t bytes = ContainerBytes(type);
  int64_t value = EvaluateAffineExpr(value_map.results[0], d, {});
  std::vector<std::byte> expected(bytes);
  ConvertElement(ElementType::kSI64, &value, type, expected.data());
  if (IsInteger(type)) {
    int64_t back = 0;
    ConvertElement(type, expected.data(), ElementType::kSI64, &back);
    if (back != value) return false;  // out of the type's range: unspecified
  }
  if (std::memcmp(expected.data(), actual, bytes) != 0) {
    return absl::FailedPreconditionError("output" + IndexToString(d) + " = " + Hex(actual, bytes) +
                                         ", but its value map " + value_map.ToString() + " gives " +
                                         std::to_string(value) + ", which converts to " +
                                         Hex(expected.data(), bytes));
  }
  return true;
}

}  // namespace

std::string IndexToString(std::span<const int64_t> index) {
  std::string out = "[";
  for (size_t i = 0; i < index.size(); ++i) {
    out += (i > 0 ? ", " : "") + std::to_string(index[i]);
  }
  return out + "]";
}

absl::StatusOr<std::optional<ValueSource>> FindValueSource(const OpIndexingMaps& maps,
                                                           const RuntimeValueReader& read,
                                                           std::span<const int64_t> d) {
  for (const InputIndexingMap& input : maps.maps) {
    if (input.role != MapRole::kValue) continue;
    auto index = input.map.Evaluate(d, read);
    HLOCHECK_RETURN_IF_ERROR(index.status());
    if (*index) return std::optional<ValueSource>(ValueSource{&input, **index});
  }
  return std::optional<ValueSource>();
}

namespace {

// Whether storage integers mean the same under both: the same parameters,
// a per-axis quantization along any dimension (an op that moves elements
// moves the axis with them: transpose's C4).
bool SameQuantizedValues(std::optional<UniformQuantization> a,
                         std::optional<UniformQuantization> b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->quantization_dimension.has_value() != b->quantization_dimension.has_value()) return false;
  a->quantization_dimension.reset();
  b->quantization_dimension.reset();
  // One scale broadcast along a larger dimension (broadcast_in_dim's C6).
  if (a->scales.size() == 1 && b->scales.size() > 1) {
    a->scales.assign(b->scales.size(), a->scales[0]);
    a->zero_points.assign(b->zero_points.size(), a->zero_points[0]);
  }
  return *a == *b;
}

}  // namespace

absl::StatusOr<ValueMapCheck> CheckValueMaps(const OpIndexingMaps& maps, const Case& c,
                                             const Tensor& output) {
  // A quantized output of an op that moves elements holds its input's
  // storage integers (checked below, with the input's quantization); iota's
  // quantized values are quantized indices, which no map says.
  if (output.type().quantization && maps.value_of_index) {
    return absl::UnimplementedError("quantized values of an index are not checked");
  }
  const RuntimeValueReader read = CaseValueReader(c);
  const size_t bytes = ContainerBytes(output.element_type());
  ValueMapCheck check;
  for (IndexIterator it(output.shape()); !it.done(); it.Next()) {
    const std::byte* actual = output.bytes().data() + it.linear() * bytes;
    if (maps.value_of_index) {
      auto specified = CheckValueOfIndex(*maps.value_of_index, output, it.index(), actual);
      HLOCHECK_RETURN_IF_ERROR(specified.status());
      ++(*specified ? check.compared : check.unspecified);
      continue;
    }
    auto source = FindValueSource(maps, read, it.index());
    HLOCHECK_RETURN_IF_ERROR(source.status());
    if (!*source) {
      if (maps.uncovered.empty()) {
        return absl::FailedPreconditionError("no value map covers output" +
                                             IndexToString(it.index()));
      }
      ++check.unspecified;
      continue;
    }
    const InputIndexingMap& map = *(*source)->map;
    auto input = Operand(c, map.operand_index, map.Name());
    HLOCHECK_RETURN_IF_ERROR(input.status());
    std::optional<int64_t> at = Linear((*input)->shape(), (*source)->index);
    if (!at) {
      return absl::FailedPreconditionError(
          "the map of " + map.Name() + " sends output" + IndexToString(it.index()) + " to " +
          IndexToString((*source)->index) + ", outside its shape " +
          ShapeToString((*input)->shape()));
    }
    if ((*input)->element_type() != output.element_type() ||
        !SameQuantizedValues((*input)->type().quantization, output.type().quantization)) {
      return absl::FailedPreconditionError(map.Name() + " and the output differ in element type");
    }
    const std::byte* expected = (*input)->bytes().data() + *at * bytes;
    if (std::memcmp(expected, actual, bytes) != 0) {
      return absl::FailedPreconditionError(
          "output" + IndexToString(it.index()) + " = " + Hex(actual, bytes) + ", but the map of " +
          map.Name() + " (" + map.map.ToString() + ") points to " + map.Name() +
          IndexToString((*source)->index) + " = " + Hex(expected, bytes));
    }
    ++check.compared;
  }
  return check;
}

absl::StatusOr<Reach> ReachedElements(const OpIndexingMaps& maps, const Case& c) {
  Reach reach;
  std::vector<std::vector<bool>>& reached = reach.inputs;
  for (const Tensor& t : c.operands) reached.emplace_back(t.num_elements(), false);
  if (c.result_types.empty()) return absl::InvalidArgumentError("the case has no result");
  const RuntimeValueReader read = CaseValueReader(c);
  absl::Status status;
  auto mark = [&](const InputIndexingMap& map, std::span<const int64_t> index) {
    std::optional<int64_t> at = Linear(c.operands[map.operand_index].shape(), index);
    if (at) {
      reached[map.operand_index][*at] = true;
    } else if (status.ok()) {
      status = absl::FailedPreconditionError("the map of " + map.Name() + " reaches " +
                                             IndexToString(index) + ", outside the operand");
    }
  };
  for (const InputIndexingMap& map : maps.maps) {
    if (map.operand_index < 0 || map.operand_index >= static_cast<int64_t>(c.operands.size())) {
      return absl::InvalidArgumentError("the case has no operand " + map.Name());
    }
  }
  for (IndexIterator it(c.result_types[0].shape); !it.done(); it.Next()) {
    auto source = FindValueSource(maps, read, it.index());
    HLOCHECK_RETURN_IF_ERROR(source.status());
    if (*source) mark(*(*source)->map, (*source)->index);
    reach.output_specified.push_back(source->has_value() || maps.maps.empty());
    for (const InputIndexingMap& map : maps.maps) {
      if (map.role != MapRole::kIndex) continue;
      if (auto s = map.map.ForEachPoint(it.index(), read,
                                        [&](std::span<const int64_t> index) { mark(map, index); });
          !s.ok()) {
        return s;
      }
    }
    HLOCHECK_RETURN_IF_ERROR(status);
  }
  return reach;
}

}  // namespace hlocheck::spec
