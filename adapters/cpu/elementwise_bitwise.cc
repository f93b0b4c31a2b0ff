// Bitwise elementwise ops: and, or, xor, not, popcnt, count_leading_zeros,
// and the three shifts. Integers are handled on their
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

AdapterSupport SupportsBoolOrInt(const Case& c) {
  return SupportsTypes(c, BoolOrInt, "boolean and integer types");
}
AdapterSupport SupportsInt(const Case& c) {
  return SupportsTypes(
      c, [](ElementType t) { return IsInteger(t); }, "integer types");
}

}  // namespace

std::vector<OpEntry> ElementwiseBitwiseOps() {
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
  };
}

}  // namespace hlocheck::cpu
