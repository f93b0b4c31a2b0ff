// rng_bit_generator in the oracle: every element free (the spec leaves the
// variants open), with XLA's variant as the convention for THREE_FRY and
// PHILOX: the spec's own example, and outputs recorded from XLA:CPU's PJRT
// plugin (xla-cpu-pjrt 0.0.1) for the 32-bit Threefry layout and Philox with
// a state of 2. The Random123 known-answer vectors of the two algorithms are
// checked through one-element outputs whose counters and keys are those
// vectors' (a 64-bit Threefry output is the two words joined low first).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
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

namespace hlocheck {
namespace {

using ::hlocheck::testing::Passes;

Case RngCase(const std::string& distribution, double a, double b, int64_t n) {
  Case c;
  c.op = "rng";
  Tensor ta(Shape{}, ElementType::kF32), tb(Shape{}, ElementType::kF32);
  ta.values<ElementType::kF32>()[0] = static_cast<float>(a);
  tb.values<ElementType::kF32>()[0] = static_cast<float>(b);
  c.operands = {ta, tb};
  c.attributes["shape"] = std::vector<int64_t>{n};
  c.attributes["rng_distribution"] = EnumValue{distribution};
  c.result_types.push_back({{n}, ElementType::kF32});
  return c;
}

template <typename Draw>
Tensor Sample(int64_t n, Draw draw) {
  Tensor t(Shape{n}, ElementType::kF32);
  for (float& v : t.values<ElementType::kF32>()) v = static_cast<float>(draw());
  return t;
}

// Samples drawn as the spec says pass (over many seeds: the false-alarm
// rate is 1e-6 per result); a wider normal, a shifted uniform and a value
// outside [a, b) fail.
TEST(RngOracleTest, TheFitTestAcceptsTheDistributionAndRejectsOthers) {
  const auto uniform = RunOk(RngCase("UNIFORM", -2, 3, 2000));
  const auto normal = RunOk(RngCase("NORMAL", 1, 2, 2000));
  ASSERT_NE(uniform[0].distribution, nullptr);
  for (uint64_t seed = 0; seed < 50; ++seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-2, 3);
    std::normal_distribution<double> z(1, 2);
    EXPECT_TRUE(Passes(uniform, Sample(2000,
                                       [&] {
                                         float v = static_cast<float>(u(rng));
                                         return v < 3.0f ? v : std::nextafter(3.0f, 0.0f);
                                       })))
        << seed;
    EXPECT_TRUE(Passes(normal, Sample(2000, [&] { return z(rng); }))) << seed;
  }
  std::mt19937_64 rng(7);
  std::normal_distribution<double> wide(1, 3);
  EXPECT_FALSE(Passes(normal, Sample(2000, [&] { return wide(rng); })));
  std::uniform_real_distribution<double> shifted(-1.5, 3);
  EXPECT_FALSE(Passes(uniform, Sample(2000, [&] { return shifted(rng); })));
  Tensor with_b = Sample(2000, [&] { return 0.5; });
  with_b.values<ElementType::kF32>()[0] = 3.0f;  // b is outside [a, b)
  EXPECT_FALSE(Passes(uniform, with_b));
}

// a >= b (UNIFORM) and b < 0 (NORMAL) leave the behaviour undefined.
TEST(RngOracleTest, UndefinedParametersCheckNothing) {
  const auto e = RunOk(RngCase("UNIFORM", 3, 3, 10));
  EXPECT_EQ(e[0].distribution, nullptr);
  EXPECT_TRUE(Passes(e, Sample(10, [] { return 1e30; })));
  EXPECT_EQ(RunOk(RngCase("NORMAL", 0, -1, 10))[0].distribution, nullptr);
}

}  // namespace
}  // namespace hlocheck

namespace hlocheck {
namespace {

// 64-bit integer bounds no double holds: [2^62, 2^62 + 3) is compared
// exactly, its three values accepted and 2^62 + 3 refused.
TEST(RngOracleTest, SixtyFourBitIntegerBoundsAreExact) {
  const int64_t a = int64_t{1} << 62;
  Case c;
  c.op = "rng";
  Tensor ta(Shape{}, ElementType::kSI64), tb(Shape{}, ElementType::kSI64);
  ta.values<ElementType::kSI64>()[0] = a;
  tb.values<ElementType::kSI64>()[0] = a + 3;
  c.operands = {ta, tb};
  c.attributes["shape"] = std::vector<int64_t>{300};
  c.attributes["rng_distribution"] = EnumValue{"UNIFORM"};
  c.result_types.push_back({{300}, ElementType::kSI64});
  const auto e = ::hlocheck::testing::RunOk(c);
  ASSERT_NE(e[0].distribution, nullptr);
  Tensor sample(Shape{300}, ElementType::kSI64);
  auto values = sample.values<ElementType::kSI64>();
  for (size_t i = 0; i < values.size(); ++i) values[i] = a + static_cast<int64_t>(i % 3);
  EXPECT_TRUE(::hlocheck::testing::Passes(e, sample));
  values[5] = a + 3;
  EXPECT_FALSE(::hlocheck::testing::Passes(e, sample));
}

}  // namespace
}  // namespace hlocheck
