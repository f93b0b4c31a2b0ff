// Bitwise elementwise ops: and, or, xor, not, popcnt, count_leading_zeros,
// the three shifts, and bitcast_convert. Integers are handled on their
// 64-bit two's complement pattern and wrapped back to their width; shift
// amounts outside [0, width) give XLA's results (0, or the sign everywhere
// for an arithmetic shift), without undefined behaviour.
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"

namespace hlocheck::cpu {
namespace {

template <ElementType T>
constexpr uint64_t kMask = BitWidth(T) == 64 ? ~uint64_t{0} : (uint64_t{1} << BitWidth(T)) - 1;

enum class Logic { kAnd, kOr, kXor };

template <Logic kOp>
absl::StatusOr<Results> RunLogic(const Case& c, const Device& device) {
  return RunSameType(c, 2, BoolOrInt, [&]<ElementType T>(Tensor& result) {
    using C = ContainerT<T>;
    const C* x = c.operands[0].values<T>().data();
    const C* y = c.operands[1].values<T>().data();
    C* z = result.values<T>().data();
    const int64_t n = result.num_elements();
    auto op = [](uint64_t a, uint64_t b) {
      if constexpr (kOp == Logic::kAnd) return a & b;
      if constexpr (kOp == Logic::kOr) return a | b;
      return a ^ b;
    };
    if constexpr (IsBool(T)) {
      MapBinary(x, y, z, n, device,
                [op](C a, C b) -> C { return static_cast<C>(op(a != 0 ? 1 : 0, b != 0 ? 1 : 0)); });
    } else if constexpr (IsInteger(T)) {
      MapBinary(x, y, z, n, device, LiftInt2<T>(op));
    }
  });
}

absl::StatusOr<Results> RunNot(const Case& c, const Device& device) {
  return RunSameType(c, 1, BoolOrInt, [&]<ElementType T>(Tensor& result) {
    using C = ContainerT<T>;
    const C* x = c.operands[0].values<T>().data();
    C* z = result.values<T>().data();
    const int64_t n = result.num_elements();
    if constexpr (IsBool(T)) {
      MapUnary(x, z, n, device, [](C a) -> C { return a != 0 ? 0 : 1; });
    } else if constexpr (IsInteger(T)) {
      MapUnary(x, z, n, device, LiftInt<T>([](uint64_t a) { return ~a; }));
    }
  });
}

template <bool kLeadingZeros>
absl::StatusOr<Results> RunCount(const Case& c, const Device& device) {
  return RunSameType(
      c, 1, [](ElementType t) { return IsInteger(t); },
      [&]<ElementType T>(Tensor& result) {
        using C = ContainerT<T>;
        const C* x = c.operands[0].values<T>().data();
        C* z = result.values<T>().data();
        const int64_t n = result.num_elements();
        if constexpr (IsInteger(T)) {
          MapUnary(x, z, n, device, LiftInt<T>([](uint64_t a) -> uint64_t {
                     const uint64_t bits = a & kMask<T>;
                     if constexpr (kLeadingZeros) {
                       return std::countl_zero(bits) - (64 - BitWidth(T));
                     } else {
                       return std::popcount(bits);
                     }
                   }));
        }
      });
}

enum class Shift { kLeft, kRightArithmetic, kRightLogical };

template <Shift kOp>
absl::StatusOr<Results> RunShift(const Case& c, const Device& device) {
  return RunSameType(
      c, 2, [](ElementType t) { return IsInteger(t); },
      [&]<ElementType T>(Tensor& result) {
        using C = ContainerT<T>;
        const C* x = c.operands[0].values<T>().data();
        const C* y = c.operands[1].values<T>().data();
        C* z = result.values<T>().data();
        const int64_t n = result.num_elements();
        if constexpr (IsInteger(T)) {
          MapBinary(x, y, z, n, device, LiftInt2<T>([](uint64_t a, uint64_t b) -> uint64_t {
                      // The amount read as unsigned in the type's width.
                      const uint64_t amount = b & kMask<T>;
                      const bool in_range = amount < uint64_t{BitWidth(T)};
                      if constexpr (kOp == Shift::kLeft) {
                        return in_range ? a << amount : 0;
                      } else if constexpr (kOp == Shift::kRightLogical) {
                        return in_range ? (a & kMask<T>) >> amount : 0;
                      } else {
                        // `a` is sign-extended for signed types: shift the
                        // value as signed (unsigned types are never negative).
                        const int64_t s = IsSignedInt(T) ? static_cast<int64_t>(a)
                                                         : static_cast<int64_t>(a & kMask<T>);
                        const int64_t sign_bit = static_cast<int64_t>((a >> (BitWidth(T) - 1)) & 1);
                        if (!in_range) return sign_bit != 0 ? ~uint64_t{0} : 0;
                        if constexpr (IsSignedInt(T)) {
                          return static_cast<uint64_t>(s >> amount);
                        } else {
                          // An unsigned pattern with its top bit set shifts
                          // that bit in, as on the same bits as signed.
                          const uint64_t fill = sign_bit != 0 ? ~(kMask<T> >> amount) : 0;
                          return ((a & kMask<T>) >> amount) | fill;
                        }
                      }
                    }));
        }
      });
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
  if (absl::Status status = CheckCounts(c, 1); !status.ok()) return status;
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

AdapterSupport SupportsBoolOrInt(const Case& c) {
  return SupportsTypes(c, BoolOrInt, "boolean and integer types");
}
AdapterSupport SupportsInt(const Case& c) {
  return SupportsTypes(
      c, [](ElementType t) { return IsInteger(t); }, "integer types");
}
AdapterSupport SupportsAny(const Case& c) { return SupportsTypes(c, AnyType, "every type"); }

}  // namespace

std::vector<OpEntry> BitwiseOps() {
  return {
      {"and", 2, &SupportsBoolOrInt, &RunLogic<Logic::kAnd>},
      {"or", 2, &SupportsBoolOrInt, &RunLogic<Logic::kOr>},
      {"xor", 2, &SupportsBoolOrInt, &RunLogic<Logic::kXor>},
      {"not", 1, &SupportsBoolOrInt, &RunNot},
      {"popcnt", 1, &SupportsInt, &RunCount<false>},
      {"count_leading_zeros", 1, &SupportsInt, &RunCount<true>},
      {"shift_left", 2, &SupportsInt, &RunShift<Shift::kLeft>},
      {"shift_right_arithmetic", 2, &SupportsInt, &RunShift<Shift::kRightArithmetic>},
      {"shift_right_logical", 2, &SupportsInt, &RunShift<Shift::kRightLogical>},
      {"bitcast_convert", 1, &SupportsAny, &RunBitcastConvert},
  };
}

}  // namespace hlocheck::cpu
