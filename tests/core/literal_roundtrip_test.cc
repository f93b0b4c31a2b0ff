// Printing then parsing gives back the same bits: exhaustively for every
// type of up to 16 bits, and by property for the wider ones and for random
// tensors in every form. Also checks the decimal rounding paths against
// MPFR, and the speed of large literals.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "core/literal.h"
#include "core/literal_internal.h"
#include "tests/core/literal_test_util.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::ElementFromBits;
using ::hlocheck::testing::ParseOrFail;
using literal_internal::RealElementBits;
using literal_internal::RoundDecimalToFloatBits;
using literal_internal::RoundDecimalToFloatBitsViaMpfr;
using ET = ElementType;

constexpr LiteralForm kAllForms[] = {LiteralForm::kAuto, LiteralForm::kList, LiteralForm::kHex};

// --- Exhaustive: every bit pattern of every type of up to 16 bits -----------

template <ElementType T>
void CheckEveryBitPattern() {
  const int64_t count = int64_t{1} << BitWidth(T);
  // Three dimensions where possible, so that nesting is exercised too.
  const Shape shape = count >= 16 ? Shape{count / 16, 4, 4} : Shape{count};
  Tensor all(shape, T);
  std::span<ContainerT<T>> values = all.values<T>();
  for (int64_t bits = 0; bits < count; ++bits) {
    values[bits] = ElementFromBits<T>(static_cast<uint64_t>(bits));
    const std::string text = PrintElementLiteral(T, &values[bits]);
    ContainerT<T> back;
    const absl::Status status = ParseElementLiteral(text, T, &back);
    ASSERT_TRUE(status.ok()) << Name(T) << " " << text << "\n" << status;
    ASSERT_EQ(RealElementBits<T>(back), static_cast<uint64_t>(bits)) << Name(T) << " " << text;
  }
  for (LiteralForm form : kAllForms) {
    const std::string printed = PrintDenseAttribute(all, form);
    const Tensor back = ParseOrFail(printed);
    EXPECT_TRUE(back.BitwiseEquals(all)) << Name(T) << " form " << static_cast<int>(form);
  }
}

TEST(LiteralRoundTripTest, EveryBitPatternOfEveryTypeUpTo16Bits) {
  int types_checked = 0;
  for (ElementType type : AllElementTypes()) {
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (BitWidth(T) <= 16) {
        CheckEveryBitPattern<T>();
        ++types_checked;
      }
    });
  }
  EXPECT_EQ(types_checked, 22);  // i1, 10 integers, 11 floats
}

// --- Exact decimal rounding around every tie of the narrow formats ----------

// The exact decimal expansion of a double, in scientific notation.
std::string ExactDecimal(double value) {
  char buffer[1200];
  const std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific, 1100);
  std::string text(buffer, result.ptr);
  const size_t e = text.find('e');
  std::string mantissa = text.substr(0, e);
  while (mantissa.back() == '0') mantissa.pop_back();
  return mantissa + text.substr(e);
}

// A decimal a hair above `exact` (whose mantissa has a '.').
std::string NudgeUp(const std::string& exact) {
  const size_t e = exact.find('e');
  return exact.substr(0, e) + "00000000000000000001" + exact.substr(e);
}

// A decimal a hair below `exact`: the last digit decremented, then nines.
std::string NudgeDown(const std::string& exact) {
  const size_t e = exact.find('e');
  std::string mantissa = exact.substr(0, e);
  for (size_t i = mantissa.size(); i-- > 0;) {
    if (mantissa[i] == '.') continue;
    if (mantissa[i] != '0') {
      --mantissa[i];
      break;
    }
    mantissa[i] = '9';
  }
  return mantissa + "99999999999999999999" + exact.substr(e);
}

// For each pair of neighbouring positive finite values low < high of the
// format: their midpoint rounds to the even one, and decimals a hair away
// from it round to the nearer one, through both the fast path and MPFR alone.
void CheckTiesOfFormat(ElementType type) {
  const FloatFormat& format = Format(type);
  const uint64_t positive_count =
      format.has_sign ? format.sign_mask() : uint64_t{1} << format.total_bits();
  for (uint64_t low = 0; low + 1 < positive_count; ++low) {
    const uint64_t high = low + 1;
    if (IsNaNBits(format, high) || IsInfinityBits(format, high)) continue;
    const double midpoint =
        (DecodeFloat(format, low).ToDouble() + DecodeFloat(format, high).ToDouble()) / 2;
    const uint64_t even = EncodeFloat(format, ExactValue::FromDouble(midpoint));
    ASSERT_TRUE(even == low || even == high);
    const std::string exact = ExactDecimal(midpoint);
    const struct {
      std::string text;
      uint64_t expected;
    } kCases[] = {{exact, even}, {NudgeUp(exact), high}, {NudgeDown(exact), low}};
    for (const auto& c : kCases) {
      ASSERT_EQ(RoundDecimalToFloatBits(type, c.text, false), c.expected) << Name(type) << c.text;
      ASSERT_EQ(RoundDecimalToFloatBitsViaMpfr(type, c.text, false), c.expected)
          << Name(type) << c.text;
      if (format.has_sign) {
        const uint64_t negated = c.expected | format.sign_mask();
        // FNUZ formats have no -0: a negative decimal that rounds to zero is +0.
        const uint64_t expected_negative = IsNaNBits(format, negated) ? c.expected : negated;
        ASSERT_EQ(RoundDecimalToFloatBits(type, c.text, true), expected_negative)
            << Name(type) << " -" << c.text;
      }
    }
  }
}

TEST(DecimalRoundingTest, EveryTieOfEveryNarrowFormat) {
  for (ElementType type : AllElementTypes()) {
    if (IsFloat(type) && BitWidth(type) <= 16) CheckTiesOfFormat(type);
  }
}

// --- Properties ---------------------------------------------------------------

// RapidCheck scales its generators with the test size, so that early cases
// are small; bit patterns and shapes should cover their range from the start.
template <typename T>
rc::Gen<T> FullRange(rc::Gen<T> generator) {
  return rc::gen::resize(rc::kNominalSize, std::move(generator));
}

template <typename T>
T UniformIn(T min, T max_exclusive) {
  return *FullRange(rc::gen::inRange<T>(min, max_exclusive));
}

// Bit patterns spread over every exponent, so that zeros, subnormals, NaNs
// and infinities all come up, with the extreme significands often.
rc::Gen<uint64_t> FloatBitsOf(const FloatFormat& format) {
  return FullRange(rc::gen::apply(
      [format](bool negative, uint64_t exponent, int significand_kind, uint64_t random) {
        const uint64_t mask = format.mantissa_mask();
        const uint64_t significand_choices[] = {0, 1, mask, mask - (mask > 0 ? 1 : 0),
                                                random & mask};
        return (negative ? format.sign_mask() : 0) | (exponent << format.mantissa_bits) |
               significand_choices[significand_kind];
      },
      rc::gen::arbitrary<bool>(), rc::gen::inRange<uint64_t>(0, format.exponent_field_max() + 1),
      rc::gen::inRange(0, 5), rc::gen::arbitrary<uint64_t>()));
}

rc::Gen<uint64_t> IntegerBits() {
  return FullRange(rc::gen::oneOf(
      rc::gen::arbitrary<uint64_t>(),
      rc::gen::element<uint64_t>(0, 1, ~uint64_t{0}, uint64_t{1} << 63, (uint64_t{1} << 63) - 1),
      rc::gen::map(rc::gen::inRange(0, 64), [](int shift) {
        return uint64_t{1} << shift;  // every sign bit
      })));
}

template <ElementType T>
ContainerT<T> RandomElement() {
  if constexpr (IsComplex(T)) {
    const FloatFormat& format = Format(T);
    return ElementFromBits<T>(*FloatBitsOf(format), *FloatBitsOf(format));
  } else if constexpr (IsFloat(T)) {
    return ElementFromBits<T>(*FloatBitsOf(Format(T)));
  } else {
    return ElementFromBits<T>(*IntegerBits());
  }
}

// MLIR's float literal (the point is required before an exponent: XLA's
// parser rejects "1e-45"), or a hex bit pattern.
bool IsMlirFloatLiteral(const std::string& text) {
  static const std::regex kFloat("[-+]?[0-9]+[.][0-9]*([eE][-+]?[0-9]+)?|0x[0-9A-F]+");
  return std::regex_match(text, kFloat);
}

template <ElementType T>
void CheckElementRoundTrip(const ContainerT<T>& value) {
  const std::string text = PrintElementLiteral(T, &value);
  if constexpr (IsFloat(T)) RC_ASSERT(IsMlirFloatLiteral(text));
  ContainerT<T> back;
  const absl::Status status = ParseElementLiteral(text, T, &back);
  RC_ASSERT(status.ok());
  RC_ASSERT(std::memcmp(&back, &value, sizeof(value)) == 0);
}

// Each case checks a batch, since one element is too cheap to be worth a case.
constexpr int kElementsPerCase = 64;

TEST(LiteralPropertyTest, FloatsWithoutAPointGetOneBeforeTheExponent) {
  const float tiny = 1e-45f;
  EXPECT_EQ(PrintElementLiteral(ET::kF32, &tiny), "1.0e-45");
  const double big = 1e300;
  EXPECT_EQ(PrintElementLiteral(ET::kF64, &big), "1.0e+300");
  const float one = 1.0f;
  EXPECT_EQ(PrintElementLiteral(ET::kF32, &one), "1.0");
}

RC_GTEST_PROP(LiteralPropertyTest, F32ElementsRoundTrip, ()) {
  for (int i = 0; i < kElementsPerCase; ++i) {
    CheckElementRoundTrip<ET::kF32>(RandomElement<ET::kF32>());
  }
}

RC_GTEST_PROP(LiteralPropertyTest, F64ElementsRoundTrip, ()) {
  for (int i = 0; i < kElementsPerCase; ++i) {
    CheckElementRoundTrip<ET::kF64>(RandomElement<ET::kF64>());
  }
}

RC_GTEST_PROP(LiteralPropertyTest, ComplexElementsRoundTrip, ()) {
  for (int i = 0; i < kElementsPerCase; ++i) {
    CheckElementRoundTrip<ET::kComplexF32>(RandomElement<ET::kComplexF32>());
    CheckElementRoundTrip<ET::kComplexF64>(RandomElement<ET::kComplexF64>());
  }
}

RC_GTEST_PROP(LiteralPropertyTest, IntegersOfEveryWidthRoundTrip, ()) {
  for (ElementType type : AllElementTypes()) {
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsInteger(T)) {
        for (int i = 0; i < kElementsPerCase; ++i) CheckElementRoundTrip<T>(RandomElement<T>());
      }
    });
  }
}

RC_GTEST_PROP(LiteralPropertyTest, RandomTensorsRoundTripInEveryForm, ()) {
  const std::span<const ElementType> types = AllElementTypes();
  const ElementType type =
      *rc::gen::elementOf(std::vector<ElementType>(types.begin(), types.end()));
  const int rank = UniformIn(0, 5);
  Shape shape;
  // Zero-sized dimensions come up, but most tensors hold elements.
  for (int i = 0; i < rank; ++i) shape.push_back(UniformIn<int64_t>(0, 7));
  const bool splat = *rc::gen::arbitrary<bool>();
  Tensor tensor(shape, type);
  DispatchElementType(type, [&]<ElementType T>() {
    std::span<ContainerT<T>> values = tensor.values<T>();
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] = splat && i > 0 ? values[0] : RandomElement<T>();
    }
  });
  for (LiteralForm form : kAllForms) {
    const std::string text = PrintDenseAttribute(tensor, form);
    RC_LOG() << text << "\n";
    const absl::StatusOr<Tensor> parsed = ParseDenseAttribute(text);
    RC_ASSERT(parsed.ok());
    RC_ASSERT(parsed->BitwiseEquals(tensor));

    const std::string body = PrintDenseBody(tensor, form);
    const absl::StatusOr<Tensor> from_body =
        ParseDenseBody(std::string_view(body).substr(6, body.size() - 7), tensor.type());
    RC_ASSERT(from_body.ok());
    RC_ASSERT(from_body->BitwiseEquals(tensor));
  }
}

// Random decimals of up to 30 digits and any exponent: the fast paths
// (from_chars, and doubles away from ties) agree with MPFR alone.
RC_GTEST_PROP(DecimalRoundingProperty, FastPathsAgreeWithMpfr, ()) {
  const int digit_count = UniformIn(1, 31);
  std::string digits;
  for (int i = 0; i < digit_count; ++i) digits += static_cast<char>('0' + UniformIn(0, 10));
  const int point = UniformIn(0, digit_count + 1);
  std::string text = digits.substr(0, point) + "." + digits.substr(point);
  text += "e" + std::to_string(UniformIn(-360, 360));
  RC_ASSERT(literal_internal::IsUnsignedDecimalSyntax(text));
  const bool negative = *rc::gen::arbitrary<bool>();
  RC_LOG() << (negative ? "-" : "") << text << "\n";
  for (ElementType type : AllElementTypes()) {
    if (!IsFloat(type)) continue;
    RC_ASSERT(RoundDecimalToFloatBits(type, text, negative) ==
              RoundDecimalToFloatBitsViaMpfr(type, text, negative));
  }
}

// f32 ties, where from_chars must round to even and a hair off must not.
RC_GTEST_PROP(DecimalRoundingProperty, F32TiesAgreeWithMpfr, ()) {
  const FloatFormat& format = Format(ET::kF32);
  const uint64_t low = UniformIn<uint64_t>(0, format.infinity_bits() - 1);
  const double midpoint =
      (DecodeFloat(format, low).ToDouble() + DecodeFloat(format, low + 1).ToDouble()) / 2;
  const std::string exact = ExactDecimal(midpoint);
  for (const std::string& text : {exact, NudgeUp(exact), NudgeDown(exact)}) {
    const uint64_t bits = RoundDecimalToFloatBits(ET::kF32, text, false);
    RC_ASSERT(bits == RoundDecimalToFloatBitsViaMpfr(ET::kF32, text, false));
    RC_ASSERT(bits == low || bits == low + 1);
  }
  RC_ASSERT(RoundDecimalToFloatBits(ET::kF32, NudgeUp(exact), false) == low + 1);
  RC_ASSERT(RoundDecimalToFloatBits(ET::kF32, NudgeDown(exact), false) == low);
}

}  // namespace
}  // namespace hlocheck
