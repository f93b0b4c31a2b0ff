// `hlocheck verify` on case files: valid, invalid, malformed.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "runners/commands.h"

namespace hlocheck {
namespace {

std::string WriteCase(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(VerifyCommandTest, ExitStatusSaysValidInvalidOrBadInput) {
  std::string valid = WriteCase("valid.yaml", R"(op: reduce
operands: {inputs: [tensor<1x6xi64>], init_values: [tensor<i64>]}
attributes: {dimensions: [1]}
regions: {body: "(tensor<i64>, tensor<i64>) -> tensor<i64>"}
results: {results: [tensor<1xi64>]}
)");
  EXPECT_EQ(VerifyCommand({valid}), kExitOk);

  std::string invalid = WriteCase("invalid.yaml", R"(op: reduce
operands: {inputs: [tensor<1x6xi64>], init_values: [tensor<i64>]}
attributes: {dimensions: [1]}
regions: {body: "(tensor<i64>, tensor<i64>) -> tensor<i32>"}
results: {results: [tensor<1xi64>]}
)");
  EXPECT_EQ(VerifyCommand({invalid}), kExitFailure);

  std::string malformed =
      WriteCase("malformed.yaml", "op: reduce\noperands: {inputs: [tensor<1x6xq64>]}\n");
  EXPECT_EQ(VerifyCommand({malformed}), kExitUsage);
  std::string unknown = WriteCase("unknown.yaml", "op: frobnicate\n");
  EXPECT_EQ(VerifyCommand({unknown}), kExitUsage);
  std::string broken = WriteCase("broken.yaml", "op: [reduce\n");
  EXPECT_EQ(VerifyCommand({broken}), kExitUsage);
  EXPECT_EQ(VerifyCommand({"/nonexistent/case.yaml"}), kExitUsage);
}

}  // namespace
}  // namespace hlocheck
