// The CPU adapter's map: the spec's example, the whole-tensor path of a
// one-op computation against the element-by-element evaluator (the same op
// behind select(true, r, r)), a comparison of two inputs in their order, and
// malformed cases.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "tests/adapters/cpu_region_test_util.h"

namespace hlocheck::cpu_test {
namespace {

using ::hlocheck::testing::MapCase;

// computation(a0, a1) = kind(a0, a1), optionally behind select(true, r, r).
Region Binary(const std::string& kind, ElementType type, ElementType result, bool hidden,
              std::map<std::string, Attribute> attributes = {}) {
  BodyBuilder b({type, type});
  ValueId r = b.Op(kind, {0, 1}, result, std::move(attributes));
  if (hidden) r = b.Op("select", {b.True(), r, r}, result);
  return b.Return({r});
}

TEST(CpuMapTest, SpecExample) {
  std::vector<Tensor> results =
      RunAll(MapCase({Make<ET::kSI64>({2, 2}, {0, 1, 2, 3}), Make<ET::kSI64>({2, 2}, {4, 5, 6, 7})},
                     Binary("multiply", ET::kSI64, ET::kSI64, false), ET::kSI64));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<ET::kSI64>(results[0]), (std::vector<int64_t>{0, 5, 12, 21}));
}

template <ElementType T>
void CheckWholeTensorPathMatchesTheEvaluator(std::mt19937_64& rng) {
  const Tensor x = RandomElements<T>({3, 50}, rng);
  const Tensor y = RandomElements<T>({3, 50}, rng);
  for (const char* kind : {"add", "multiply", "maximum", "minimum"}) {
    const std::string what = std::string(Name(T)) + " " + kind;
    std::vector<Tensor> whole = RunAll(MapCase({x, y}, Binary(kind, T, T, false), T));
    std::vector<Tensor> general = RunAll(MapCase({x, y}, Binary(kind, T, T, true), T));
    ASSERT_EQ(whole.size(), 1u) << what;
    ASSERT_EQ(general.size(), 1u) << what;
    ExpectSameTensors(whole[0], general[0], what);
  }
}

TEST(CpuMapTest, WholeTensorPathMatchesTheEvaluator) {
  std::mt19937_64 rng(31);
  CheckWholeTensorPathMatchesTheEvaluator<ET::kSI8>(rng);
  CheckWholeTensorPathMatchesTheEvaluator<ET::kUI32>(rng);
  CheckWholeTensorPathMatchesTheEvaluator<ET::kBF16>(rng);
  CheckWholeTensorPathMatchesTheEvaluator<ET::kF32>(rng);
  CheckWholeTensorPathMatchesTheEvaluator<ET::kF64>(rng);
}

// The computation sees the inputs in their order: a0 < a1.
TEST(CpuMapTest, ArgumentsKeepTheirOrder) {
  std::vector<Tensor> results = RunAll(MapCase(
      {Make<ET::kSI32>({3}, {1, 5, 3}), Make<ET::kSI32>({3}, {2, 4, 3})},
      Binary("compare", ET::kSI32, ET::kI1, false,
             {{"comparison_direction", EnumValue{"LT"}}, {"compare_type", EnumValue{"SIGNED"}}}),
      ET::kI1));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<ET::kI1>(results[0]), (std::vector<uint8_t>{1, 0, 0}));
}

TEST(CpuMapTest, MalformedCasesAreInvalid) {
  Case wrong_dimensions = MapCase({Make<ET::kSI32>({2}, {1, 2}), Make<ET::kSI32>({2}, {3, 4})},
                                  Binary("add", ET::kSI32, ET::kSI32, false), ET::kSI32);
  wrong_dimensions.attributes["dimensions"] = std::vector<int64_t>{};
  Case wrong_shape = MapCase({Make<ET::kSI32>({2}, {1, 2}), Make<ET::kSI32>({2}, {3, 4})},
                             Binary("add", ET::kSI32, ET::kSI32, false), ET::kSI32);
  wrong_shape.result_types[0].shape = {3};
  for (const Case& c : {wrong_dimensions, wrong_shape}) {
    absl::StatusOr<std::vector<Tensor>> results = SharedAdapter().Run(c);
    ASSERT_FALSE(results.ok());
    EXPECT_EQ(results.status().code(), absl::StatusCode::kInvalidArgument) << results.status();
  }
}

}  // namespace
}  // namespace hlocheck::cpu_test
