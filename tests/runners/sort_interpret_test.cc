// sort and scatter through `interpret`: the public interpreter's sort.mlir
// and scatter.mlir, and the check dialect's acceptance of another order of an
// unstable sort's ties. (The oracle's own sort and scatter tests are in
// tests/oracle/sort_test.cc and scatter_test.cc, which link no runner.)
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "runners/interpret.h"
#include "spec/registry.h"

namespace hlocheck {
namespace {

// ---------------------------------------------------------------- interpret

// The interpreter's checks accept another order of an unstable sort's ties.
TEST(SortInterpretTest, ChecksAcceptReorderedTiesOfAnUnstableSort) {
  auto run = [](bool stable) {
    std::string text = R"(
func.func @main() {
  %keys = stablehlo.constant dense<[2, 1, 1]> : tensor<3xi32>
  %values = stablehlo.constant dense<[10, 11, 12]> : tensor<3xi32>
  %k, %v = "stablehlo.sort"(%keys, %values) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
      %p = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = STABLE} : (tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %k, dense<[1, 1, 2]> : tensor<3xi32>
  check.expect_eq_const %v, dense<[12, 11, 10]> : tensor<3xi32>
  func.return
}
)";
    text.replace(text.find("STABLE"), 6, stable ? "true" : "false");
    auto outcome = InterpretText(text, "test.mlir", **spec::DefaultRegistry());
    EXPECT_TRUE(outcome.ok()) << outcome.status();
    return outcome.ok() && outcome->functions.size() == 1 ? outcome->functions[0].kind
                                                          : FunctionOutcome::Kind::kError;
  };
  EXPECT_EQ(run(false), FunctionOutcome::Kind::kPassed);
  EXPECT_EQ(run(true), FunctionOutcome::Kind::kFailed);
}

// ---------------------------------------------------------------- corpus

TEST(SortScatterCorpusTest, PublicInterpreterTestsPass) {
  namespace fs = std::filesystem;
  fs::path directory =
      fs::path(HLOCHECK_SOURCE_DIR).parent_path() / "shared" / "corpus" / "stablehlo-interpret";
  if (!fs::is_directory(directory)) GTEST_SKIP() << "no corpus at " << directory;
  for (const char* file : {"sort.mlir", "scatter.mlir"}) {
    auto outcome = InterpretFile((directory / file).string(), **spec::DefaultRegistry());
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    EXPECT_GT(outcome->functions.size(), 0u);
    for (const FunctionOutcome& f : outcome->functions) {
      EXPECT_EQ(f.kind, FunctionOutcome::Kind::kPassed)
          << file << ": @" << f.function << ": " << KindName(f.kind) << ": " << f.message;
    }
  }
}

}  // namespace
}  // namespace hlocheck
