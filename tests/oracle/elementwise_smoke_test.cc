// Every element-wise op of issue 7 runs on every element type its spec
// accepts (random bit patterns, rank 0, empty and 2-D shapes) without an
// error: the oracle must compute every valid case.
#include <gtest/gtest.h>

#include <random>

#include "core/element_value.h"
#include "tests/oracle/elementwise_test_util.h"

namespace hlocheck::testing {
namespace {

Tensor RandomBits(const Shape& shape, ElementType type, std::mt19937_64& random) {
  Tensor t(shape, type);
  for (std::byte& b : t.bytes()) b = static_cast<std::byte>(random());
  // Keep containers canonical: sub-byte integers and narrow floats use
  // only their low bits (sign-extended for signed integers).
  DispatchElementType(type, [&]<ElementType T>() {
    for (auto& v : t.values<T>()) {
      if constexpr (IsBool(T)) {
        v &= 1;
      } else if constexpr (IsInteger(T)) {
        v = WrapInteger<T>(IntegerBits<T>(v));
      } else if constexpr (kIsBitPatternFloat<T>) {
        v &= (uint64_t{1} << BitWidth(T)) - 1;
      }
    }
  });
  return t;
}

TEST(ElementwiseSmokeTest, EveryAcceptedTypeComputes) {
  const std::vector<std::string> unary = {"abs",
                                          "ceil",
                                          "count_leading_zeros",
                                          "floor",
                                          "is_finite",
                                          "negate",
                                          "not",
                                          "popcnt",
                                          "round_nearest_afz",
                                          "round_nearest_even",
                                          "sign",
                                          "sqrt",
                                          "real",
                                          "imag"};
  const std::vector<std::string> binary = {"and",
                                           "or",
                                           "xor",
                                           "subtract",
                                           "multiply",
                                           "divide",
                                           "remainder",
                                           "maximum",
                                           "minimum",
                                           "shift_left",
                                           "shift_right_arithmetic",
                                           "shift_right_logical",
                                           "complex"};
  std::mt19937_64 random(13);
  int computed = 0;
  for (const Shape& shape : {Shape{}, Shape{0, 3}, Shape{4, 5}}) {
    for (ElementType type : AllElementTypes()) {
      auto result_types = [&](const std::string& op) {
        std::vector<ElementType> types = {type, ElementType::kI1, ComponentType(type)};
        if (op == "complex")
          types = {type == ElementType::kF32 ? ElementType::kComplexF32 : ElementType::kComplexF64};
        return types;
      };
      auto run = [&](const std::string& op, std::vector<Tensor> operands,
                     std::map<std::string, Attribute> attributes = {}) {
        for (ElementType to : result_types(op)) {
          Case c;
          c.op = op;
          c.operands = operands;
          c.attributes = attributes;
          c.result_types.push_back(TensorType(shape, to));
          auto results = TheOracle().Run(c);
          if (!results.ok() && results.status().code() == absl::StatusCode::kInvalidArgument &&
              results.status().message().find("violates") != std::string::npos) {
            continue;  // not a valid case
          }
          ASSERT_TRUE(results.ok()) << op << " " << Name(type) << ": " << results.status();
          ASSERT_EQ((*results)[0].reference.type(), c.result_types[0]);
          ++computed;
        }
      };
      for (const std::string& op : unary) run(op, {RandomBits(shape, type, random)});
      for (const std::string& op : binary) {
        run(op, {RandomBits(shape, type, random), RandomBits(shape, type, random)});
      }
      for (const char* direction : {"EQ", "LT"}) {
        for (const char* compare_type : {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}) {
          run("compare", {RandomBits(shape, type, random), RandomBits(shape, type, random)},
              {{"comparison_direction", EnumValue{direction}},
               {"compare_type", EnumValue{compare_type}}});
        }
      }
      run("reduce_precision", {RandomBits(shape, type, random)},
          {{"exponent_bits", int64_t{3}}, {"mantissa_bits", int64_t{1}}});
      run("clamp", {RandomBits({}, type, random), RandomBits(shape, type, random),
                    RandomBits(shape, type, random)});
      run("select", {RandomBits(shape, ElementType::kI1, random), RandomBits(shape, type, random),
                     RandomBits(shape, type, random)});
      run("bitcast_convert", {RandomBits(shape, type, random)});
    }
  }
  EXPECT_GT(computed, 1500);
}

}  // namespace
}  // namespace hlocheck::testing
