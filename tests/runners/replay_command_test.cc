// `hlocheck replay CASE.mlir`: a reproducer cut down by hand is checked on a
// backend as a replayed case is: the CPU backend agrees, a deliberately
// faulty one does not, and a file that is not a case is bad input.
#include <gtest/gtest.h>

#include <fstream>

#include "generators/case_generator.h"
#include "runners/commands.h"
#include "runners/generation.h"
#include "runners/replay_key.h"
#include "spec/registry.h"

namespace hlocheck {
namespace {

std::string WriteFile(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// f64 to f16 just above a midpoint of f16 (XLA:CPU's double rounding
// through f32, docs/findings/xla-cpu.md #47): the correctly rounded answer
// is 1.001, and a conversion that truncates misses it.
constexpr char kConvert[] = R"(func.func @main() {
  %operand = stablehlo.constant dense<[1.0004882812500002, 1.00048828125, -1.0004882812500002]> : tensor<3xf64>
  %result = "stablehlo.convert"(%operand) : (tensor<3xf64>) -> tensor<3xf16>
  check.expect_eq_const %result, dense<[1.001, 1.0, -1.001]> : tensor<3xf16>
  func.return
}
)";

TEST(ReplayCommandTest, ACaseFileIsCheckedOnTheBackend) {
  const std::string path = WriteFile("convert_f64_f16.mlir", kConvert);
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(ReplayCommand({path}), kExitOk);
  std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("the backend agrees with the oracle"), std::string::npos) << out;
  EXPECT_NE(out.find("case file " + path), std::string::npos) << out;

  ::testing::internal::CaptureStdout();
  EXPECT_EQ(ReplayCommand({"--backend", "faulty-convert-truncate", path}), kExitFailure);
  out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("MISMATCH"), std::string::npos) << out;
}

// A run's shrink path may cut an elementwise case in halves, shrinks that
// only the gate's tree has (generators/element_halving.h): `replay` follows
// such a path to the same one-element case the run reported.
TEST(ReplayCommandTest, FollowsAShrinkPathThroughAnElementwiseCasesHalves) {
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  const spec::OpSpec& tan = *(*registry)->Find("tan");
  ReplayKey key{"tan", ElementType::kF32, 0, 90, 4096, {}, {}};
  GenerationOptions generation;
  generation.primary_type = key.type;
  generation.max_elements = key.max_elements;
  // The first seed whose path of second halves down to one element is not
  // a path of the generator's own tree.
  for (uint64_t seed = 1; seed < 100 && key.shrink_path.empty(); ++seed) {
    key.seed = seed;
    int64_t n = 0;
    for (const Tensor& operand : GenerateCase(tan, generation, seed, key.size).value().operands) {
      n = operand.num_elements();
    }
    std::vector<int> halves;
    for (; n > 1; n -= n / 2) halves.push_back(1);
    key.shrink_path = halves;
    if (ReplayGenerated(**registry, key).ok()) key.shrink_path.clear();
  }
  ASSERT_FALSE(key.shrink_path.empty()) << "no seed below 100 takes a path of halves alone";
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(ReplayCommand({FormatReplay(key)}), kExitOk);
  std::string out = ::testing::internal::GetCapturedStdout();
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("tensor<1xf32>"), std::string::npos) << FormatReplay(key) << "\n"
                                                          << out << err;
  EXPECT_NE(out.find("the backend agrees with the oracle"), std::string::npos) << out << err;
}

TEST(ReplayCommandTest, AFileThatIsNotACaseIsBadInput) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(ReplayCommand({WriteFile("not_a_case.mlir", "func.func @main() {\n")}), kExitUsage);
  EXPECT_EQ(ReplayCommand({"/nonexistent/case.mlir"}), kExitUsage);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("cannot read /nonexistent/case.mlir"), std::string::npos) << err;
}

// --batch-with runs the case with the others again (on the CPU backend each
// alone, which only RunBatch sees), checks it, prints the batch as one
// module and, with --repeat, how often it came out wrong; a batch that does
// not hold the case is bad input.
TEST(ReplayCommandTest, ACaseRunsWithItsBatchAgain) {
  const std::string first =
      FormatReplay(ReplayKey{"add", ElementType::kSI32, 11, 20, 4096, {}, {}});
  const std::string second =
      FormatReplay(ReplayKey{"add", ElementType::kSI32, 12, 20, 4096, {}, {}});
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(ReplayCommand({"--batch-with", first + "," + second, "--repeat", "3", second}),
            kExitOk);
  std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("// wrong in 0 of 3 runs of the batch"), std::string::npos) << out;
  EXPECT_NE(out.find("@case_1 is the case checked below"), std::string::npos) << out;
  EXPECT_NE(out.find("func.func private @case_0"), std::string::npos) << out;
  EXPECT_NE(out.find("run with 1 other cases in one module"), std::string::npos) << out;
  EXPECT_NE(out.find("the backend agrees with the oracle"), std::string::npos) << out;

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(ReplayCommand({"--batch-with", first, second}), kExitUsage);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("the batch does not hold the case"), std::string::npos) << err;
}

// `hlocheck run --out` where no directory can be: said before any case runs,
// with exit status 2 (bad usage), not after the run.
TEST(RunCommandTest, AnOutputDirectoryThatCannotBeIsBadUsageBeforeTheRun) {
  const std::string file = WriteFile("not_a_directory", "a file");
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const int status =
      RunCommand({"--ops", "add", "--cases", "1", "--workers", "1", "--out", file + "/reports"});
  const std::string out = ::testing::internal::GetCapturedStdout();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, kExitUsage);
  EXPECT_NE(err.find("cannot create the report directory"), std::string::npos) << err;
  EXPECT_EQ(out.find("cases,"), std::string::npos) << out;
}

}  // namespace
}  // namespace hlocheck
