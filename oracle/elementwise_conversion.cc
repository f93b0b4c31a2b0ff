// Conversions (seed 002): convert, element by element through the shared
// conversion layer, and bitcast_convert. For bitcast_convert the spec reinterprets the bits of the
// whole operand as the result type: a wider operand element becomes the last dimension of narrower
// result elements, and the reverse. bits() is the in-memory representation, which the spec leaves
// to the implementation; the oracle uses the one every known backend has (and the spec's example
// shows): IEEE-754 encodings, two's complement, complex as (real, imag), and
// little-endian order, so the first element of a group holds the lowest bits.
#include <algorithm>
#include <bit>
#include <vector>

#include "absl/status/status.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

// A little-endian stream of bits: element k of width w occupies bits
// [k * w, (k + 1) * w).
class BitStream {
 public:
  explicit BitStream(int64_t bits) : words_((bits + 63) / 64 + 1, 0) {}

  void Write(int64_t position, uint64_t value, int width) {
    if (width < 64) value &= (uint64_t{1} << width) - 1;
    int64_t word = position / 64;
    int offset = static_cast<int>(position % 64);
    words_[word] |= value << offset;
    if (offset + width > 64) words_[word + 1] |= value >> (64 - offset);
  }

  uint64_t Read(int64_t position, int width) const {
    int64_t word = position / 64;
    int offset = static_cast<int>(position % 64);
    uint64_t value = words_[word] >> offset;
    if (offset + width > 64) value |= words_[word + 1] << (64 - offset);
    if (width < 64) value &= (uint64_t{1} << width) - 1;
    return value;
  }

 private:
  std::vector<uint64_t> words_;
};

// The bits of one element as at most two 64-bit words (complex<f64> needs both).
template <ElementType T>
void ElementBits(ContainerT<T> value, uint64_t words[2]) {
  words[1] = 0;
  if constexpr (IsBool(T)) {
    words[0] = value & 1;
  } else if constexpr (IsInteger(T)) {
    words[0] = UnsignedBits<T>(value);
  } else if constexpr (IsFloat(T)) {
    words[0] = FloatBits<T>(value);
  } else if constexpr (T == ElementType::kComplexF32) {
    words[0] = FloatBits<ElementType::kF32>(value.real()) |
               (FloatBits<ElementType::kF32>(value.imag()) << 32);
  } else {
    words[0] = FloatBits<ElementType::kF64>(value.real());
    words[1] = FloatBits<ElementType::kF64>(value.imag());
  }
}

template <ElementType T>
ContainerT<T> ElementFromBits(const uint64_t words[2]) {
  if constexpr (IsBool(T)) {
    return static_cast<ContainerT<T>>(words[0] & 1);
  } else if constexpr (IsInteger(T)) {
    return WrapInteger<T>(words[0]);
  } else if constexpr (IsFloat(T)) {
    return FloatFromBits<T>(words[0]);
  } else if constexpr (T == ElementType::kComplexF32) {
    return {FloatFromBits<ElementType::kF32>(words[0] & 0xFFFFFFFF),
            FloatFromBits<ElementType::kF32>(words[0] >> 32)};
  } else {
    return {FloatFromBits<ElementType::kF64>(words[0]), FloatFromBits<ElementType::kF64>(words[1])};
  }
}

Results BitcastConvert(const Case& c) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  const int from_bits = BitWidth(operand.element_type());
  const int to_bits = BitWidth(result.element_type());
  BitStream stream(operand.num_elements() * from_bits);
  DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    auto in = operand.values<T>();
    for (size_t i = 0; i < in.size(); ++i) {
      uint64_t words[2];
      ElementBits<T>(in[i], words);
      int64_t position = static_cast<int64_t>(i) * from_bits;
      stream.Write(position, words[0], std::min(from_bits, 64));
      if (from_bits > 64) stream.Write(position + 64, words[1], from_bits - 64);
    }
  });
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    auto out = result.values<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      int64_t position = static_cast<int64_t>(i) * to_bits;
      uint64_t words[2] = {stream.Read(position, std::min(to_bits, 64)), 0};
      if (to_bits > 64) words[1] = stream.Read(position + 64, to_bits - 64);
      out[i] = ElementFromBits<T>(words);
    }
  });
  return OneResult(std::move(result), Check::kExact, FreeElements(0));
}

ResultExpectation WithinUlps(Tensor reference) {
  ResultExpectation expectation;
  expectation.reference = std::move(reference);
  expectation.check = Check::kUlp;
  return expectation;
}

// convert: element by element through the shared, exhaustively verified
// conversion layer; values the spec leaves open (#180) are marked free. To
// an integer type they carry a de facto convention: the StableHLO
// interpreter (APFloat::convertToInteger, APInt truncation) and XLA
// (elemental_ir_emitter's clamped FPToSI/FPToUI, integer truncation) agree
// that NaN gives 0, a float beyond the range saturates, an integer wraps.
Results Convert(const Case& c) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  std::vector<uint8_t> flags(operand.num_elements());
  ConvertElements(operand.element_type(), operand.raw(), result.element_type(), result.raw(),
                  operand.num_elements(), flags.data());
  ResultExpectation expectation = WithinUlps(std::move(result));
  expectation.free.resize(flags.size());
  const bool conventional = IsInteger(result.element_type()) && !IsComplex(operand.element_type());
  for (size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] & kConversionUnrepresentable) {
      expectation.free[i] = conventional ? kFreeWithConvention : kFreeAnyValue;
    }
  }
  if (expectation.FreeCount() == 0) {
    expectation.free.clear();
  } else {
    expectation.free_reason =
        std::string(
            "the value is not representable in the result type; the spec leaves it open "
            "(#180)") +
        (conventional ? "; de facto (interpreter and XLA): NaN is 0, beyond the range saturates, "
                        "an integer wraps around"
                      : "");
  }
  std::vector<ResultExpectation> results;
  results.push_back(std::move(expectation));
  return results;
}

}  // namespace

std::vector<OpEntry> ElementwiseConversionOps() {
  return {{"bitcast_convert", BitcastConvert}, {"convert", Convert}};
}

}  // namespace hlocheck::oracle
