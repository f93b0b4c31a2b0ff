// `hlocheck replay CASE.mlir`: a reproducer cut down by hand is checked on a
// backend as a replayed case is: the CPU backend agrees, a deliberately
// faulty one does not, and a file that is not a case is bad input.
#include <gtest/gtest.h>

#include <fstream>

#include "runners/commands.h"

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

TEST(ReplayCommandTest, AFileThatIsNotACaseIsBadInput) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(ReplayCommand({WriteFile("not_a_case.mlir", "func.func @main() {\n")}), kExitUsage);
  EXPECT_EQ(ReplayCommand({"/nonexistent/case.mlir"}), kExitUsage);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("cannot read /nonexistent/case.mlir"), std::string::npos) << err;
}

}  // namespace
}  // namespace hlocheck
