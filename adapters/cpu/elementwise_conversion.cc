// Elementwise conversions: convert, through the shared conversion layer
// (ConvertBuffer), and bitcast_convert, which reinterprets the bits of whole
// elements (little-endian, as every known backend).
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

// -------------------------------------------------------------- convert

absl::StatusOr<Results> RunConvert(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckElementwise(c, 1, false));
  const Tensor& operand = c.operands[0];
  Tensor result = NewResult(c.result_types[0]);
  ConvertBuffer(operand.element_type(), operand.raw(), result.element_type(), result.raw(),
                result.num_elements(), device);
  Results results;
  results.push_back(std::move(result));
  return results;
}

// -------------------------------------------------------- bitcast_convert

// The bits of element i of a tensor of type T, as at most 128 bits.
template <ElementType T>
void LoadBits(const ContainerT<T>* values, int64_t i, uint64_t words[2]) {
  words[0] = 0;
  words[1] = 0;
  if constexpr (IsBool(T)) {
    words[0] = values[i] != 0 ? 1 : 0;
  } else if constexpr (IsInteger(T)) {
    words[0] = IntegerBits<T>(values[i]) & kMask<T>;
  } else {
    std::memcpy(words, &values[i], sizeof(ContainerT<T>));
    if constexpr (kIsBitPatternFloat<T>) words[0] &= kMask<T>;
  }
}

template <ElementType T>
void StoreBits(const uint64_t words[2], ContainerT<T>* values, int64_t i) {
  if constexpr (IsBool(T)) {
    values[i] = static_cast<ContainerT<T>>(words[0] & 1);
  } else if constexpr (IsInteger(T)) {
    values[i] = WrapInteger<T>(words[0]);
  } else {
    std::memcpy(static_cast<void*>(&values[i]), words, sizeof(ContainerT<T>));
  }
}

// Bits [position, position + width) of a little-endian packed stream, for
// width <= 64.
uint64_t ReadField(const std::vector<uint64_t>& stream, int64_t position, int width) {
  const int64_t word = position / 64;
  const int offset = static_cast<int>(position % 64);
  uint64_t value = stream[word] >> offset;
  if (offset + width > 64) value |= stream[word + 1] << (64 - offset);
  return width == 64 ? value : value & ((uint64_t{1} << width) - 1);
}

void WriteField(std::vector<uint64_t>& stream, int64_t position, int width, uint64_t value) {
  const int64_t word = position / 64;
  const int offset = static_cast<int>(position % 64);
  stream[word] |= value << offset;
  if (offset + width > 64) stream[word + 1] |= value >> (64 - offset);
}

// Types whose in-memory container holds exactly their bits.
bool DenseContainer(ElementType t) { return !IsBool(t) && BitWidth(t) == 8 * ContainerBytes(t); }

// bitcast_convert: the operand's bits, little-endian, read as the result
// type. Between byte-dense types that is a copy of the bytes; the sub-byte
// types (i1, si2, si4, ui2, ui4, f4, f6) are packed into a bit stream first,
// element k of width w holding bits [k w, (k + 1) w).
absl::StatusOr<Results> RunBitcastConvert(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
  const Tensor& operand = c.operands[0];
  Tensor result = NewResult(c.result_types[0]);
  const ElementType from = operand.element_type();
  const ElementType to = result.element_type();
  const int64_t bits = operand.num_elements() * BitWidth(from);
  if (bits != result.num_elements() * BitWidth(to)) {
    return absl::InvalidArgumentError(absl::StrCat("bitcast_convert: ", operand.type().ToString(),
                                                   " and ", result.type().ToString(),
                                                   " have different sizes"));
  }
  if (DenseContainer(from) && DenseContainer(to)) {
    const auto* source = static_cast<const char*>(operand.raw());
    auto* destination = static_cast<char*>(result.raw());
    ParallelFor(device, bits / 8, 2, 0.5, [&](int64_t first, int64_t last) {
      std::memcpy(destination + first, source + first, last - first);
    });
    return OneResult(std::move(result));
  }
  std::vector<uint64_t> stream(bits / 64 + 2, 0);
  const int from_bits = BitWidth(from);
  const int to_bits = BitWidth(to);
  DispatchElementType(from, [&]<ElementType T>() {
    const ContainerT<T>* values = operand.values<T>().data();
    for (int64_t i = 0; i < operand.num_elements(); ++i) {
      uint64_t words[2];
      LoadBits<T>(values, i, words);
      WriteField(stream, i * from_bits, std::min(from_bits, 64), words[0]);
      if (from_bits > 64) WriteField(stream, i * from_bits + 64, from_bits - 64, words[1]);
    }
  });
  DispatchElementType(to, [&]<ElementType T>() {
    ContainerT<T>* values = result.values<T>().data();
    for (int64_t i = 0; i < result.num_elements(); ++i) {
      uint64_t words[2] = {ReadField(stream, i * to_bits, std::min(to_bits, 64)), 0};
      if (to_bits > 64) words[1] = ReadField(stream, i * to_bits + 64, to_bits - 64);
      StoreBits<T>(words, values, i);
    }
  });
  return OneResult(std::move(result));
}

}  // namespace

std::vector<OpEntry> ElementwiseConversionOps() {
  return {
      {"convert", 1, &SupportsAny, &RunConvert},
      {"bitcast_convert", 1, &SupportsAny, &RunBitcastConvert},
  };
}

}  // namespace hlocheck::cpu
