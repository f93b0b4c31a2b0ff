// `hlocheck verify` on case files and StableHLO text: valid, invalid, malformed.
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

// Seed 002's Inputs table gives pad's padding_value rank 0 (spec/ops/pad.yaml
// `rank: 0`): a 1-D padding value is rejected, naming that rule alone.
TEST(VerifyCommandTest, PadWithA1DPaddingValueViolatesItsRank) {
  const std::string pad = R"(op: pad
operands: {operand: tensor<2x3xi32>, padding_value: PADDING}
attributes: {edge_padding_low: [0, 1], edge_padding_high: [2, 1], interior_padding: [1, 2]}
results: {result: tensor<5x9xi32>}
)";
  std::string scalar = pad;
  scalar.replace(scalar.find("PADDING"), 7, "tensor<i32>");
  EXPECT_EQ(VerifyCommand({WriteCase("pad_scalar.yaml", scalar)}), kExitOk);
  std::string vector = pad;
  vector.replace(vector.find("PADDING"), 7, "tensor<1xi32>");
  ::testing::internal::CaptureStdout();
  int rc = VerifyCommand({WriteCase("pad_vector.yaml", vector)});
  std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(rc, kExitFailure) << out;
  EXPECT_NE(out.find("padding_value.rank violated: padding_value is a 0-dimensional tensor "
                     "(seed 002's Inputs table, I2)."),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("rank(padding_value) = 0"), std::string::npos) << out;
  EXPECT_EQ(out.find("C1 violated"), std::string::npos) << out;
}

// The reduce of the YAML test above, as a StableHLO snippet and a module.
TEST(VerifyCommandTest, StablehloSnippetsAndModulesAreVerifiedOpByOp) {
  const std::string reduce = R"(%result = "stablehlo.reduce"(%input, %init_value) ({
  ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
    %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
    stablehlo.return %0 : tensor<i64>
}) {dimensions = array<i64: 1>} : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>
)";
  EXPECT_EQ(VerifyCommand({WriteCase("valid.mlir", reduce)}), kExitOk);
  std::string wrong_body = reduce;
  wrong_body.replace(wrong_body.find("-> tensor<1xi64>"), 16, "-> tensor<1xi32>");
  EXPECT_EQ(VerifyCommand({WriteCase("invalid.mlir", wrong_body)}), kExitFailure);

  std::string module = "func.func @main(%input: tensor<1x6xi64>, %init_value: tensor<i64>) {\n" +
                       reduce + "  func.return\n}\n";
  EXPECT_EQ(VerifyCommand({WriteCase("module.mlir", module)}), kExitOk);

  // A slice whose limits pass the operand's dimensions: seed C3.
  testing::internal::CaptureStdout();
  int status = VerifyCommand(
      {WriteCase("slice.mlir",
                 "%r = stablehlo.slice %x [1:3, 2:5] : (tensor<3x4xf32>) -> tensor<2x3xf32>\n")});
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(status, kExitFailure);
  EXPECT_NE(out.find("C3 violated"), std::string::npos) << out;
  EXPECT_NE(out.find("slice.mlir:1:1: slice: 1 violation(s)"), std::string::npos) << out;

  EXPECT_EQ(
      VerifyCommand({WriteCase("broken.mlir", "%r = stablehlo.slice %x [1:3 : tensor<f32>\n")}),
      kExitUsage);
}

// Every command name stands apart from its summary in the usage text, however
// long the name.
TEST(UsageTest, EveryCommandIsListedWithItsSummary) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(Main({"--help"}), kExitOk);
  std::string out = testing::internal::GetCapturedStdout();
  for (const Command& c : Commands()) {
    EXPECT_NE(out.find("  " + std::string(c.name) + "  "), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace hlocheck
