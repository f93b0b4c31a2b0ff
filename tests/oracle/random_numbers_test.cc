// rng_bit_generator in the oracle: every element free (the spec leaves the
// variants open), with XLA's variant as the convention for THREE_FRY and
// PHILOX: the spec's own example, and outputs recorded from XLA:CPU's PJRT
// plugin (xla-cpu-pjrt 0.0.1) for the 32-bit Threefry layout and Philox with
// a state of 2. The Random123 known-answer vectors of the two algorithms are
// checked through one-element outputs whose counters and keys are those
// vectors' (a 64-bit Threefry output is the two words joined low first).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "oracle/oracle.h"
#include "tests/oracle/oracle_test_util.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::RunOk;

Case Rng(const std::string& algorithm, std::vector<uint64_t> state, TensorType output) {
  Case c;
  c.op = "rng_bit_generator";
  Tensor initial(Shape{static_cast<int64_t>(state.size())}, ElementType::kUI64);
  std::copy(state.begin(), state.end(), initial.values<ElementType::kUI64>().begin());
  c.result_types.push_back(initial.type());
  c.operands.push_back(std::move(initial));
  c.result_types.push_back(std::move(output));
  c.attributes["rng_algorithm"] = EnumValue{algorithm};
  return c;
}

template <ElementType T>
std::vector<ContainerT<T>> ValuesOf(const Tensor& t) {
  auto v = t.values<T>();
  return {v.begin(), v.end()};
}

TEST(RngBitGeneratorOracleTest, TheSpecExampleIsTheConvention) {
  auto e = RunOk(Rng("THREE_FRY", {1, 2}, {{2, 2}, ElementType::kUI64}));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(ValuesOf<ElementType::kUI64>(e[0].reference), (std::vector<uint64_t>{1, 6}));
  EXPECT_EQ(ValuesOf<ElementType::kUI64>(e[1].reference),
            (std::vector<uint64_t>{9236835810183407956u, 16087790271692313299u,
                                   18212823393184779219u, 2658481902456610144u}));
  for (const ResultExpectation& r : e) {
    ASSERT_EQ(r.free.size(), static_cast<size_t>(r.reference.num_elements()));
    for (uint8_t f : r.free) EXPECT_EQ(f, kFreeWithConvention);
  }
}

// Random123's kat_vectors: threefry2x32_20 and philox4x32_10 at zero, at
// all ones, and at the digits of pi.
TEST(RngBitGeneratorOracleTest, Random123KnownAnswers) {
  auto threefry = [](uint64_t counter, uint64_t key) {
    return ValuesOf<ElementType::kUI64>(
        RunOk(Rng("THREE_FRY", {key, counter}, {{}, ElementType::kUI64}))[1].reference)[0];
  };
  EXPECT_EQ(threefry(0, 0), 0x99ba4efe6b200159u);
  EXPECT_EQ(threefry(~uint64_t{0}, ~uint64_t{0}), 0xbb002be71cb996fcu);
  EXPECT_EQ(threefry(0x85a308d3243f6a88u, 0x0370734413198a2eu), 0x483df7a0c4923a9cu);
  // Philox with a state of 3: key, counter low, counter high; four 32-bit
  // outputs are one block.
  auto philox = [](uint64_t low, uint64_t high, uint64_t key) {
    return ValuesOf<ElementType::kUI32>(
        RunOk(Rng("PHILOX", {key, low, high}, {{4}, ElementType::kUI32}))[1].reference);
  };
  EXPECT_EQ(philox(0, 0, 0),
            (std::vector<uint32_t>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox(~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}),
            (std::vector<uint32_t>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox(0x85a308d3243f6a88u, 0x0370734413198a2eu, 0x299f31d0a4093822u),
            (std::vector<uint32_t>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

// Recorded from XLA:CPU: the 32-bit Threefry layout (the shape halved along
// its first even dimension) and Philox with a state of 2 (the counter's high
// word is the key).
TEST(RngBitGeneratorOracleTest, XlaLayoutsFor32BitThreefryAndATwoWordPhiloxState) {
  auto threefry = RunOk(Rng("THREE_FRY", {7, 9}, {{3, 2}, ElementType::kUI32}));
  EXPECT_EQ(ValuesOf<ElementType::kUI64>(threefry[0].reference), (std::vector<uint64_t>{7, 12}));
  EXPECT_EQ(ValuesOf<ElementType::kUI32>(threefry[1].reference),
            (std::vector<uint32_t>{2148922066u, 1218255668u, 17873132u, 884161837u, 2218545827u,
                                   757886286u}));
  auto philox = RunOk(Rng("PHILOX", {7, 9}, {{3}, ElementType::kUI64}));
  EXPECT_EQ(ValuesOf<ElementType::kUI64>(philox[0].reference), (std::vector<uint64_t>{7, 11}));
  EXPECT_EQ(
      ValuesOf<ElementType::kUI64>(philox[1].reference),
      (std::vector<uint64_t>{16603597155184054554u, 16134980256878943355u, 18422141051084485941u}));
}

// DEFAULT, and output types XLA's variant does not make: any value.
TEST(RngBitGeneratorOracleTest, DefaultAndNarrowOutputsAreFreeWithoutAConvention) {
  for (const Case& c : {Rng("DEFAULT", {1, 2}, {{4}, ElementType::kUI32}),
                        Rng("THREE_FRY", {1, 2}, {{4}, ElementType::kSI8}),
                        Rng("PHILOX", {1, 2, 3}, {{4}, ElementType::kF16})}) {
    auto e = RunOk(c);
    ASSERT_EQ(e.size(), 2u);
    for (uint8_t f : e[1].free) EXPECT_EQ(f, kFreeAnyValue);
    EXPECT_FALSE(e[1].free_reason.empty());
  }
}

}  // namespace
}  // namespace hlocheck
