// Multi-op programs on XLA:CPU through the worker: programs of integer and
// data-movement ops (which XLA:CPU computes as the spec says) pass with
// every variant, and a program reaching finding #67 of
// docs/findings/xla-cpu-programs.md (convert si32 -> bf16 rounds twice) fails.
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "adapters/program/program_backend.h"
#include "generators/program_generator.h"
#include "mlir/reader.h"
#include "mlir/writer.h"
#include "oracle/oracle.h"
#include "runners/program_check.h"
#include "runners/program_variants.h"
#include "tests/compilers/compilers_test_support.h"
#include "tests/support/case_builders.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::CompilerOptions;
using ::hlocheck::testing::Literal;
using ::hlocheck::testing::TestRegistry;

std::vector<TensorType> OutputTypes(const Module& module) {
  std::vector<TensorType> types;
  for (const ValueType& t : MainOf(module).type.outputs) types.push_back(t.tensor());
  return types;
}

TEST(ProgramsOnXlaCpu, IntegerProgramsAndTheirVariantsPass) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto handle = CreateProgramBackend("pjrt:xla-cpu", CompilerOptions());
  ASSERT_TRUE(handle.ok()) << handle.status();
  const Oracle oracle(&TestRegistry());
  ProgramOptions options;
  options.max_ops = 8;
  options.max_elements = 64;
  // Not add: XLA folds the add of constant booleans as XOR (xla-cpu.md
  // #20, a known bug this test is not about), and programs fold their
  // arguments into constants in one variant.
  options.ops = {"subtract",         "multiply",  "and",    "xor",
                 "reshape",          "transpose", "slice",  "concatenate",
                 "broadcast_in_dim", "reverse",   "select", "compare"};
  options.element_types = {ElementType::kSI32, ElementType::kI1};
  options.transferable = handle->transferable;
  int compared = 0;
  for (uint64_t seed = 0; seed < 6; ++seed) {
    auto program = GenerateProgram(TestRegistry(), options, seed);
    ASSERT_TRUE(program.ok()) << program.status();
    auto reference =
        ReferenceOfProgram(oracle, TestRegistry(), program->module, program->arguments, nullptr);
    ASSERT_TRUE(reference.ok()) << reference.status();
    compared += reference->compared_elements > 0;
    const std::string text = mlir::PrintModule(program->module, TestRegistry());
    ProgramOutcome outcome = JudgeProgram(
        *reference, handle->backend->Run(text, program->arguments, OutputTypes(program->module)),
        nullptr);
    EXPECT_EQ(outcome.kind, ProgramOutcome::Kind::kPass) << outcome.message << "\n" << text;
    for (const std::string& relation : ProgramRelations()) {
      auto variant = MakeVariant(relation, program->module, program->arguments, *reference, seed);
      ASSERT_TRUE(variant.ok());
      ProgramOutcome v =
          JudgeProgram(*reference,
                       handle->backend->Run(mlir::PrintModule(variant->module, TestRegistry()),
                                            variant->arguments, OutputTypes(variant->module)),
                       nullptr);
      EXPECT_EQ(v.kind, ProgramOutcome::Kind::kPass)
          << relation << ": " << v.message << "\n"
          << mlir::PrintModule(variant->module, TestRegistry());
    }
  }
  EXPECT_GT(compared, 3);
}

// The outcome of `text` on XLA:CPU with `arguments`, judged by the oracle.
ProgramOutcome OnXlaCpu(const std::string& text, const std::vector<Tensor>& arguments,
                        std::map<std::string, std::string> backend_options = {}) {
  AdapterOptions options = CompilerOptions();
  options.backend_options = std::move(backend_options);
  auto handle = CreateProgramBackend("pjrt:xla-cpu", options);
  EXPECT_TRUE(handle.ok()) << handle.status();
  auto module = mlir::ReadModule(text, "test.mlir", TestRegistry());
  EXPECT_TRUE(module.ok()) << module.status();
  if (!handle.ok() || !module.ok()) return {};
  const Oracle oracle(&TestRegistry());
  auto reference = ReferenceOfProgram(oracle, TestRegistry(), *module, arguments, nullptr);
  EXPECT_TRUE(reference.ok()) << reference.status();
  if (!reference.ok()) return {};
  return JudgeProgram(*reference,
                      handle->backend->Run(mlir::PrintModule(*module, TestRegistry()), arguments,
                                           OutputTypes(*module)),
                      nullptr);
}

// Finding #69: x + broadcast(0) is simplified to x, which is wrong for
// x = -0 (IEEE: -0 + +0 = +0).
TEST(ProgramsOnXlaCpu, AddingABroadcastZeroIsFoldedAwayLosingTheSignOfZero) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2xbf16>) -> (tensor<2xbf16>) {
  %0 = "stablehlo.constant"() {value = dense<0.0> : tensor<bf16>} : () -> tensor<bf16>
  %1 = "stablehlo.broadcast_in_dim"(%0) {broadcast_dimensions = array<i64>} : (tensor<bf16>) -> tensor<2xbf16>
  %2 = "stablehlo.add"(%1, %x) : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  "func.return"(%2) : (tensor<2xbf16>) -> ()
}
)";
  ProgramOutcome outcome = OnXlaCpu(kText, {Literal("dense<[-0.0, 1.0]> : tensor<2xbf16>")});
  std::cout << "#69: " << outcome.message << "\n";
  // If this starts passing, XLA fixed #69: update the findings document.
  EXPECT_EQ(outcome.kind, ProgramOutcome::Kind::kMismatch) << outcome.message;
}

// Finding #70: a bf16 sqrt converted to f32 keeps f32 precision: the
// rounding to bf16 between the two ops is elided (xla_allow_excess_precision,
// true by default).
TEST(ProgramsOnXlaCpu, ConvertAfterABf16SqrtKeepsExcessPrecision) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2xbf16>) -> (tensor<2xf32>) {
  %0 = "stablehlo.sqrt"(%x) : (tensor<2xbf16>) -> tensor<2xbf16>
  %1 = "stablehlo.convert"(%0) : (tensor<2xbf16>) -> tensor<2xf32>
  "func.return"(%1) : (tensor<2xf32>) -> ()
}
)";
  ProgramOutcome outcome = OnXlaCpu(kText, {Literal("dense<[0.00115, 2.0]> : tensor<2xbf16>")});
  std::cout << "#70: " << outcome.message << "\n";
  // If this starts passing, XLA changed #70: update the findings document.
  EXPECT_EQ(outcome.kind, ProgramOutcome::Kind::kMismatch) << outcome.message;
  // XLA's flag for it: with excess precision not allowed, the rounding stays.
  ProgramOutcome strict = OnXlaCpu(kText, {Literal("dense<[0.00115, 2.0]> : tensor<2xbf16>")},
                                   {{"xla_allow_excess_precision", "false"}});
  EXPECT_EQ(strict.kind, ProgramOutcome::Kind::kPass) << strict.message;
}

TEST(ProgramsOnXlaCpu, ConvertOfAComputedIntegerToBf16RoundsTwice) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto handle = CreateProgramBackend("pjrt:xla-cpu", CompilerOptions());
  ASSERT_TRUE(handle.ok()) << handle.status();
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2xi32>, %y: tensor<2xi32>) -> (tensor<2xbf16>) {
  %0 = "stablehlo.add"(%x, %y) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %1 = "stablehlo.convert"(%0) : (tensor<2xi32>) -> tensor<2xbf16>
  "func.return"(%1) : (tensor<2xbf16>) -> ()
}
)";
  auto module = mlir::ReadModule(kText, "test.mlir", TestRegistry());
  ASSERT_TRUE(module.ok()) << module.status();
  const std::vector<Tensor> arguments = {Literal("dense<[17760000, 1]> : tensor<2xi32>"),
                                         Literal("dense<[255, 2]> : tensor<2xi32>")};
  const Oracle oracle(&TestRegistry());
  auto reference = ReferenceOfProgram(oracle, TestRegistry(), *module, arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  ProgramOutcome outcome =
      JudgeProgram(*reference,
                   handle->backend->Run(mlir::PrintModule(*module, TestRegistry()), arguments,
                                        OutputTypes(*module)),
                   nullptr);
  // If this starts passing, XLA fixed #67: update the findings document.
  EXPECT_EQ(outcome.kind, ProgramOutcome::Kind::kMismatch) << outcome.message;
}

// Finding #71: a constant whose values are 0, 1, 2, ... with -0.0 first,
// returned as it is, comes back with +0.0; other constants keep the sign.
TEST(ProgramsOnXlaCpu, AConstantLikeAnIotaLosesTheSignOfItsLeadingZero) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto returned = [](const std::string& body) {
    const std::string type = body.substr(body.find(": ") + 2);
    return OnXlaCpu("func.func @main() -> (" + type + ") {\n  %0 = \"stablehlo.constant\"() " +
                        "{value = " + body + "} : () -> " + type + "\n  \"func.return\"(%0) : (" +
                        type + ") -> ()\n}\n",
                    {});
  };
  ProgramOutcome iota_like = returned("dense<[-0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>");
  std::cout << "#71: " << iota_like.message << "\n";
  // If this starts passing, XLA fixed #71: update the findings document.
  EXPECT_EQ(iota_like.kind, ProgramOutcome::Kind::kMismatch) << iota_like.message;
  EXPECT_EQ(returned("dense<[1.0, -0.0]> : tensor<2xf32>").kind, ProgramOutcome::Kind::kPass);
  EXPECT_EQ(returned("dense<-0.0> : tensor<2xf32>").kind, ProgramOutcome::Kind::kPass);
}

// Finding #72: x / constant is computed as x * (1 / constant): 7 / 3 gives
// 2.3333335, where IEEE division (the spec's divide) gives 2.3333333; the
// same division of two arguments is right.
TEST(ProgramsOnXlaCpu, DividingByAConstantMultipliesByItsReciprocal) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  constexpr char kByConstant[] = R"(
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>) {
  %0 = "stablehlo.constant"() {value = dense<[3.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "stablehlo.divide"(%x, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%1) : (tensor<2xf32>) -> ()
}
)";
  constexpr char kByArgument[] = R"(
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>) {
  %0 = "stablehlo.divide"(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%0) : (tensor<2xf32>) -> ()
}
)";
  const Tensor x = Literal("dense<[7.0, 7.0]> : tensor<2xf32>");
  ProgramOutcome by_constant = OnXlaCpu(kByConstant, {x});
  std::cout << "#72: " << by_constant.message << "\n";
  // If this starts passing, XLA fixed #72: update the findings document.
  EXPECT_EQ(by_constant.kind, ProgramOutcome::Kind::kMismatch) << by_constant.message;
  EXPECT_EQ(OnXlaCpu(kByArgument, {x, Literal("dense<[3.0, 1.0]> : tensor<2xf32>")}).kind,
            ProgramOutcome::Kind::kPass);
}

}  // namespace
}  // namespace hlocheck
