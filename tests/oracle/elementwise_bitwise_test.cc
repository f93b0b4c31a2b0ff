// Bitwise ops and shifts against brute force over every integer type.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <random>

#include "core/element_value.h"
#include "tests/oracle/elementwise_test_util.h"

namespace hlocheck::testing {
namespace {

std::vector<ElementType> IntegerTypes() {
  std::vector<ElementType> types;
  for (ElementType t : AllElementTypes()) {
    if (IsInteger(t)) types.push_back(t);
  }
  return types;
}

// Random integers of `type` (every value of the narrow types, plus edges).
Tensor Integers(ElementType type, std::mt19937_64& random, int n) {
  Tensor t(Shape{n}, type);
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      auto v = t.values<T>();
      for (int i = 0; i < n; ++i) v[i] = WrapInteger<T>(i < 256 ? i : random());
      if (n > 300) {
        v[256] = WrapInteger<T>(static_cast<uint64_t>(IntegerMin(type)));
        v[257] = WrapInteger<T>(IntegerMaxUnsigned(type));
      }
    }
  });
  return t;
}

uint64_t BitsOf(const Tensor& t, int i) {
  return DispatchElementType(t.element_type(), [&]<ElementType T>() -> uint64_t {
    if constexpr (IsInteger(T)) {
      uint64_t bits = IntegerBits<T>(t.values<T>()[i]);
      return BitWidth(T) < 64 ? bits & ((uint64_t{1} << BitWidth(T)) - 1) : bits;
    }
    return 0;
  });
}

TEST(ElementwiseBitwiseTest, PopcntAndCountLeadingZerosBitByBit) {
  std::mt19937_64 random(1);
  for (ElementType type : IntegerTypes()) {
    const int width = BitWidth(type);
    Tensor x = Integers(type, random, 1000);
    ResultExpectation pop = RunSame("popcnt", {x});
    ResultExpectation clz = RunSame("count_leading_zeros", {x});
    for (int i = 0; i < 1000; ++i) {
      uint64_t bits = BitsOf(x, i);
      int ones = 0;
      int leading = 0;
      bool seen_one = false;
      for (int b = width - 1; b >= 0; --b) {
        bool one = (bits >> b) & 1;
        ones += one;
        seen_one = seen_one || one;
        if (!seen_one) ++leading;
      }
      ASSERT_EQ(BitsOf(pop.reference, i), static_cast<uint64_t>(ones)) << Name(type) << " " << bits;
      ASSERT_EQ(BitsOf(clz.reference, i), static_cast<uint64_t>(leading))
          << Name(type) << " " << bits;
    }
  }
}

TEST(ElementwiseBitwiseTest, ShiftsBitByBitAndOutOfRangeAmountsFree) {
  std::mt19937_64 random(2);
  for (ElementType type : IntegerTypes()) {
    const int width = BitWidth(type);
    const int n = 2000;
    Tensor x = Integers(type, random, n);
    Tensor amount(Shape{n}, type);
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsInteger(T)) {
        // Amounts 0 .. width + 2, and some negative ones for signed types.
        for (int i = 0; i < n; ++i) {
          int64_t a = i % 7 == 6 && IsSignedInt(T) ? -1 - i % 3 : i % (width + 3);
          amount.values<T>()[i] = WrapInteger<T>(static_cast<uint64_t>(a));
        }
      }
    });
    ResultExpectation left = RunSame("shift_left", {x, amount});
    ResultExpectation logical = RunSame("shift_right_logical", {x, amount});
    ResultExpectation arithmetic = RunSame("shift_right_arithmetic", {x, amount});
    for (int i = 0; i < n; ++i) {
      uint64_t bits = BitsOf(x, i);
      uint64_t k = BitsOf(amount, i);
      if (k >= static_cast<uint64_t>(width)) {
        ASSERT_TRUE(IsFree(left, i) && IsFree(logical, i) && IsFree(arithmetic, i));
        continue;
      }
      ASSERT_FALSE(IsFree(left, i) || IsFree(logical, i) || IsFree(arithmetic, i));
      uint64_t l = 0, rl = 0, ra = 0;
      bool sign = (bits >> (width - 1)) & 1;
      for (int b = 0; b < width; ++b) {
        if (b >= static_cast<int>(k)) l |= ((bits >> (b - k)) & 1) << b;
        bool from = b + k < static_cast<uint64_t>(width) ? (bits >> (b + k)) & 1 : false;
        rl |= uint64_t{from} << b;
        bool from_arithmetic = b + k < static_cast<uint64_t>(width) ? from : sign;
        ra |= uint64_t{from_arithmetic} << b;
      }
      ASSERT_EQ(BitsOf(left.reference, i), l) << Name(type) << " " << bits << " << " << k;
      ASSERT_EQ(BitsOf(logical.reference, i), rl) << Name(type) << " " << bits << " >> " << k;
      ASSERT_EQ(BitsOf(arithmetic.reference, i), ra) << Name(type) << " " << bits << " >>a " << k;
    }
  }
}

TEST(ElementwiseBitwiseTest, LogicalOpsOnBooleansAndBitwiseOnIntegers) {
  Tensor a = Literal("dense<[true, true, false, false]> : tensor<4xi1>");
  Tensor b = Literal("dense<[true, false, true, false]> : tensor<4xi1>");
  auto bits = [](const ResultExpectation& e) {
    auto v = e.reference.values<ElementType::kI1>();
    return std::vector<int>(v.begin(), v.end());
  };
  EXPECT_EQ(bits(RunSame("and", {a, b})), (std::vector<int>{1, 0, 0, 0}));
  EXPECT_EQ(bits(RunSame("or", {a, b})), (std::vector<int>{1, 1, 1, 0}));
  EXPECT_EQ(bits(RunSame("xor", {a, b})), (std::vector<int>{0, 1, 1, 0}));
  EXPECT_EQ(bits(RunSame("not", {a})), (std::vector<int>{0, 0, 1, 1}));
  ResultExpectation n = RunSame("not", {Literal("dense<[0, 5, -8]> : tensor<3xi4>")});
  EXPECT_EQ(n.reference.values<ElementType::kSI4>()[0], -1);
  EXPECT_EQ(n.reference.values<ElementType::kSI4>()[1], -6);
  EXPECT_EQ(n.reference.values<ElementType::kSI4>()[2], 7);
  ResultExpectation u = RunSame("not", {Literal("dense<[0, 1]> : tensor<2xui2>")});
  EXPECT_EQ(u.reference.values<ElementType::kUI2>()[0], 3);
  EXPECT_EQ(u.reference.values<ElementType::kUI2>()[1], 2);
}

// x << k is x * 2^k modulo 2^width, for amounts within the width.
RC_GTEST_PROP(ElementwiseBitwiseProperty, ShiftLeftIsMultiplicationByAPowerOfTwo, ()) {
  const ElementType type = *rc::gen::elementOf(IntegerTypes());
  const int width = BitWidth(type);
  const auto raw = *rc::gen::container<std::vector<uint64_t>>(rc::gen::arbitrary<uint64_t>());
  const auto shifts = *rc::gen::container<std::vector<int>>(raw.size(), rc::gen::inRange(0, width));
  Tensor x(Shape{static_cast<int64_t>(raw.size())}, type);
  Tensor k(x.type());
  Tensor power(x.type());
  DispatchElementType(type, [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      for (size_t i = 0; i < raw.size(); ++i) {
        x.values<T>()[i] = WrapInteger<T>(raw[i]);
        k.values<T>()[i] = WrapInteger<T>(shifts[i]);
        power.values<T>()[i] = WrapInteger<T>(uint64_t{1} << shifts[i]);
      }
    }
  });
  ResultExpectation shifted = RunSame("shift_left", {x, k});
  ResultExpectation product = RunSame("multiply", {x, power});
  RC_ASSERT(shifted.free.empty());
  RC_ASSERT(shifted.reference.BitwiseEquals(product.reference));
}

}  // namespace
}  // namespace hlocheck::testing
