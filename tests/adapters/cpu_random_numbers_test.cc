// The CPU adapter's rng_bit_generator: its own Threefry-2x32 and
// Philox-4x32 give the spec's example, Random123's known answers and the
// outputs recorded from XLA:CPU (the de facto convention), and advance the
// state as XLA does.
#include <gtest/gtest.h>

#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {
namespace {

std::vector<Tensor> Rng(const std::string& algorithm, std::vector<uint64_t> state,
                        TensorType output) {
  Case c;
  c.op = "rng_bit_generator";
  Tensor initial = Make<ET::kUI64>({static_cast<int64_t>(state.size())}, state);
  c.result_types.push_back(initial.type());
  c.operands.push_back(std::move(initial));
  c.result_types.push_back(std::move(output));
  c.attributes["rng_algorithm"] = EnumValue{algorithm};
  absl::StatusOr<std::vector<Tensor>> r = SharedAdapter().Run(c);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : std::vector<Tensor>{};
}

TEST(CpuRngBitGeneratorTest, SpecExampleKnownAnswersAndXlaLayouts) {
  auto example = Rng("THREE_FRY", {1, 2}, {{2, 2}, ET::kUI64});
  ASSERT_EQ(example.size(), 2u);
  EXPECT_EQ(Values<ET::kUI64>(example[0]), (std::vector<uint64_t>{1, 6}));
  EXPECT_EQ(Values<ET::kUI64>(example[1]),
            (std::vector<uint64_t>{9236835810183407956u, 16087790271692313299u,
                                   18212823393184779219u, 2658481902456610144u}));
  EXPECT_EQ(Values<ET::kUI64>(Rng("THREE_FRY", {0, 0}, {{}, ET::kUI64})[1]),
            (std::vector<uint64_t>{0x99ba4efe6b200159u}));
  EXPECT_EQ(Values<ET::kUI32>(Rng("PHILOX",
                                  {0x299f31d0a4093822u, 0x85a308d3243f6a88u, 0x0370734413198a2eu},
                                  {{4}, ET::kUI32})[1]),
            (std::vector<uint32_t>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
  auto threefry32 = Rng("THREE_FRY", {7, 9}, {{3, 2}, ET::kUI32});
  EXPECT_EQ(Values<ET::kUI64>(threefry32[0]), (std::vector<uint64_t>{7, 12}));
  EXPECT_EQ(Values<ET::kUI32>(threefry32[1]),
            (std::vector<uint32_t>{2148922066u, 1218255668u, 17873132u, 884161837u, 2218545827u,
                                   757886286u}));
  auto philox = Rng("PHILOX", {7, 9}, {{3}, ET::kUI64});
  EXPECT_EQ(Values<ET::kUI64>(philox[0]), (std::vector<uint64_t>{7, 11}));
  EXPECT_EQ(
      Values<ET::kUI64>(philox[1]),
      (std::vector<uint64_t>{16603597155184054554u, 16134980256878943355u, 18422141051084485941u}));
}

}  // namespace
}  // namespace hlocheck::cpu_test
