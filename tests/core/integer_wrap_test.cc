// Two's complement wrap-around into every integer type: what the oracle and
// every adapter use for integer arithmetic, checked exhaustively where it can be.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/element_value.h"

namespace hlocheck {
namespace {

template <ElementType T>
void CheckWrap() {
  constexpr int kBits = BitWidth(T);
  const __int128 modulus = static_cast<__int128>(1) << kBits;
  const __int128 min = IntegerMin(T);
  const __int128 max = static_cast<__int128>(IntegerMaxUnsigned(T));
  // Every value of the type, and the same value shifted by multiples of 2^bits.
  const int64_t step = kBits <= 16 ? 1 : static_cast<int64_t>((max - min) / 65521);
  for (__int128 v = min; v <= max; v += step) {
    for (__int128 k : {-2, -1, 0, 1, 3}) {
      __int128 shifted = v + k * modulus;
      auto wrapped = WrapInteger<T>(static_cast<uint64_t>(shifted));
      ASSERT_EQ(static_cast<__int128>(wrapped), v) << Name(T) << " k=" << static_cast<int>(k);
      ASSERT_EQ(static_cast<__int128>(static_cast<int64_t>(IntegerBits<T>(wrapped))),
                IsSignedInt(T) ? v : static_cast<__int128>(static_cast<int64_t>(v)));
    }
  }
}

TEST(IntegerWrapTest, EveryIntegerType) {
  for (ElementType type : AllElementTypes()) {
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsInteger(T)) CheckWrap<T>();
    });
  }
}

}  // namespace
}  // namespace hlocheck
