// custom_call with hlocheck's targets (docs/custom-call-targets.md) and
// composite, on the oracle and the CPU adapter; an unknown target is
// unsupported by name on both, never guessed; a program's composite runs
// its decomposition function.
#include <gtest/gtest.h>

#include <filesystem>

#include "adapters/adapter.h"
#include "mlir/reader.h"
#include "oracle/oracle.h"
#include "runners/interpret.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;

Case Read(const std::string& text) {
  auto c = mlir::ReadCaseModule(text, "calls_test.mlir", TestRegistry());
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : Case{};
}

Tensor F32s(std::vector<float> values) {
  Tensor t(Shape{static_cast<int64_t>(values.size())}, ElementType::kF32);
  for (size_t i = 0; i < values.size(); ++i) t.values<ElementType::kF32>()[i] = values[i];
  return t;
}

Tensor I32(int32_t value) {
  Tensor t(Shape{}, ElementType::kSI32);
  t.values<ElementType::kSI32>()[0] = value;
  return t;
}

void ExpectResults(const Case& c, const std::vector<Tensor>& expected) {
  Oracle oracle(&TestRegistry());
  auto on_oracle = oracle.Run(c);
  ASSERT_TRUE(on_oracle.ok()) << on_oracle.status();
  auto cpu = CreateAdapter("cpu", {});
  ASSERT_TRUE(cpu.ok());
  ASSERT_TRUE((*cpu)->Supports(c).supported) << (*cpu)->Supports(c).reason;
  auto on_cpu = (*cpu)->Run(c);
  ASSERT_TRUE(on_cpu.ok()) << on_cpu.status();
  ASSERT_EQ(on_oracle->size(), expected.size());
  ASSERT_EQ(on_cpu->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ((*on_oracle)[i].check, Check::kExact);
    EXPECT_TRUE((*on_oracle)[i].reference.BitwiseEquals(expected[i])) << "oracle, result " << i;
    EXPECT_TRUE((*on_cpu)[i].BitwiseEquals(expected[i])) << "cpu, result " << i;
  }
}

std::string CustomCall(const std::string& target) {
  return R"(
func.func @main() -> (tensor<i32>, !stablehlo.token, tensor<2xf32>) {
  %a = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %t = "stablehlo.after_all"() : () -> !stablehlo.token
  %b = stablehlo.constant dense<7> : tensor<i32>
  %r:3 = "stablehlo.custom_call"(%a, %t, %b) {call_target_name = ")" +
         target + R"(", has_side_effect = true}
      : (tensor<2xf32>, !stablehlo.token, tensor<i32>) -> (tensor<i32>, !stablehlo.token, tensor<2xf32>)
  func.return %r#0, %r#1, %r#2 : tensor<i32>, !stablehlo.token, tensor<2xf32>
}
)";
}

TEST(CallsTest, CustomCallReverseReturnsTheInputsBackwards) {
  ExpectResults(Read(CustomCall("hlocheck.reverse")), {I32(7), F32s({1.5f, -2.0f})});
}

TEST(CallsTest, CustomCallZerosIgnoresItsInputs) {
  ExpectResults(Read(CustomCall("hlocheck.zeros")), {I32(0), F32s({0.0f, 0.0f})});
}

TEST(CallsTest, CustomCallIdentityNeedsTheInputsTypes) {
  // The results are reversed, so identity's types do not fit: both sides
  // refuse the case rather than return something.
  const Case c = Read(CustomCall("hlocheck.identity"));
  Oracle oracle(&TestRegistry());
  auto on_oracle = oracle.Run(c);
  EXPECT_TRUE(absl::IsInvalidArgument(on_oracle.status())) << on_oracle.status();
  auto cpu = CreateAdapter("cpu", {});
  ASSERT_TRUE(cpu.ok());
  EXPECT_FALSE((*cpu)->Run(c).ok());
}

TEST(CallsTest, AnUnknownTargetIsUnsupportedByName) {
  const Case c = Read(CustomCall("foo.bar"));
  Oracle oracle(&TestRegistry());
  auto on_oracle = oracle.Run(c);
  EXPECT_TRUE(absl::IsUnimplemented(on_oracle.status())) << on_oracle.status();
  EXPECT_NE(on_oracle.status().message().find("unsupported: custom_call @foo.bar"),
            std::string::npos)
      << on_oracle.status();
  auto cpu = CreateAdapter("cpu", {});
  ASSERT_TRUE(cpu.ok());
  const AdapterSupport support = (*cpu)->Supports(c);
  EXPECT_FALSE(support.supported);
  EXPECT_EQ(support.reason, "unsupported: custom_call @foo.bar");
}

// The public spec's composite example, with a decomposition that adds: the
// composite gives what its decomposition gives.
TEST(CallsTest, CompositeRunsItsDecomposition) {
  Case c = Read(R"(
func.func @main() -> tensor<f32> {
  %a = stablehlo.constant dense<1.25> : tensor<f32>
  %b = stablehlo.constant dense<2.5> : tensor<f32>
  %r = "stablehlo.composite"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {name = "my_namespace.my_op", composite_attributes = {my_attribute = "my_value"},
      version = 1 : i32} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}
)");
  Tensor sum(Shape{}, ElementType::kF32);
  sum.values<ElementType::kF32>()[0] = 3.75f;
  ExpectResults(c, {sum});
}

// In a program the decomposition is a function named by symbol: the corpus
// file runs it through `interpret`.
TEST(CallsTest, TheCorpusCompositeAndCallPassOnTheOracle) {
  const std::filesystem::path corpus = std::filesystem::path(HLOCHECK_SOURCE_DIR).parent_path() /
                                       "shared" / "corpus" / "stablehlo-interpret";
  if (!std::filesystem::is_directory(corpus)) {
    GTEST_SKIP() << "the corpus is not at " << corpus << " (../shared absent); skipped";
  }
  for (const char* file : {"composite.mlir", "call.mlir"}) {
    auto outcome = InterpretFile((corpus / file).string(), TestRegistry());
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    ASSERT_FALSE(outcome->functions.empty());
    for (const FunctionOutcome& f : outcome->functions) {
      EXPECT_EQ(f.kind, FunctionOutcome::Kind::kPassed)
          << file << ": @" << f.function << ": " << f.message;
    }
  }
}

}  // namespace
}  // namespace hlocheck
