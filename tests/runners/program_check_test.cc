// What is compared in a multi-op program (runners/program_check.h):
// exactness follows elements through chains (bit for bit along exact ops,
// the last op's bound, bounds carried past freedom where ops admit them,
// element by element through data movement, tuples and calls); declared
// deviations excuse only the elements they reach.
#include <gtest/gtest.h>

#include <cmath>

#include "core/exact_value.h"
#include "runners/deviations.h"
#include "runners/program_variants.h"
#include "tests/runners/program_test_util.h"

namespace hlocheck {
namespace {

TEST(ProgramCheck, ExactChainsAreBitForBitAndFreedomIsBoundedPastTheOp) {
  ProgramUnderTest p = Read(kChain, {Literal("dense<[1.5, -75.0, 3.0]> : tensor<3xbf16>"),
                                     Literal("dense<[2.0, -75.0, 0.1]> : tensor<3xbf16>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  ASSERT_EQ(reference->outputs.size(), 3u);
  // add(multiply(a, b), a): both exact, so fixed bit for bit.
  EXPECT_EQ(reference->outputs[0].FreeCount(), 0);
  EXPECT_TRUE(reference->outputs[0].check == Check::kExact ||
              reference->outputs[0].allowed_ulp == 0);
  // sine of fixed values: compared within sine's own bound.
  EXPECT_EQ(reference->outputs[1].FreeCount(), 0);
  EXPECT_NE(reference->outputs[1].check, Check::kExact);
  // add of sine's values: the spec does not fix them, but bounds them: add
  // of the least and of the greatest sine a backend may give.
  EXPECT_EQ(reference->outputs[2].FreeCount(), 3);
  EXPECT_EQ(reference->output_elements, 9);
  EXPECT_EQ(reference->determined_elements, 3);
  EXPECT_EQ(reference->bounded_elements, 3);
  EXPECT_EQ(reference->compared_elements, 9);
  const ElementBounds& bounds = reference->output_bounds[2];
  for (int64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(bounds.bounded[static_cast<size_t>(i)]);
    EXPECT_TRUE(bounds.Holds(i, reference->outputs[2].reference));
  }
  EXPECT_FALSE(bounds.lo.BitwiseEquals(bounds.hi));
  // A backend at the bound passes; one a step beyond it fails.
  std::vector<Tensor> at_bound = {reference->outputs[0].reference, reference->outputs[1].reference,
                                  bounds.hi};
  EXPECT_EQ(JudgeProgram(*reference, at_bound, nullptr).kind, ProgramOutcome::Kind::kPass);
  Tensor beyond = bounds.hi;
  const FloatFormat& format = Format(ElementType::kBF16);
  uint16_t bits = beyond.data<uint16_t>()[0];
  beyond.data<uint16_t>()[0] = static_cast<uint16_t>(NextFloatBits(format, bits, /*down=*/false));
  std::vector<Tensor> past = {reference->outputs[0].reference, reference->outputs[1].reference,
                              beyond};
  ProgramOutcome outcome = JudgeProgram(*reference, past, nullptr);
  EXPECT_EQ(outcome.kind, ProgramOutcome::Kind::kMismatch);
  EXPECT_NE(outcome.message.find("outside the bound carried past freedom"), std::string::npos)
      << outcome.message;
}

TEST(ProgramCheck, BoundsStopAtOpsThatAdmitNone) {
  // sine of a sine: sine is not monotone, so nothing is carried past it.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>) {
  %0 = "stablehlo.sine"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "stablehlo.sine"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%1) : (tensor<2xf32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[1.0, 2.0]> : tensor<2xf32>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(reference->bounded_elements, 0);
  EXPECT_EQ(reference->compared_elements, 0);
}

TEST(ProgramCheck, ArithmeticOnAnIntervalWithAnInfiniteEndBoundsNothing) {
  // expm1(+inf) = +inf, so its bound is [largest finite, +inf]; the
  // corners of the subtraction give -inf and +inf, but inf - inf inside
  // the box is NaN.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<1xf32>) -> (tensor<1xf32>) {
  %0 = "stablehlo.exponential_minus_one"(%x) : (tensor<1xf32>) -> tensor<1xf32>
  %1 = "stablehlo.subtract"(%0, %0) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  "func.return"(%1) : (tensor<1xf32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[0x7F800000]> : tensor<1xf32>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(reference->output_bounds[0].bounded[0], 0);
}

TEST(ProgramCheck, ADivisorBoundThatHoldsZeroBoundsNothing) {
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>) {
  %0 = "stablehlo.sine"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "stablehlo.divide"(%x, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%1) : (tensor<2xf32>) -> ()
}
)";
  // sin(0) = 0 exactly, so its bound holds zero; sin(1) does not.
  ProgramUnderTest p = Read(kText, {Literal("dense<[0.0, 1.0]> : tensor<2xf32>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  ASSERT_EQ(reference->output_bounds.size(), 1u);
  EXPECT_EQ(reference->output_bounds[0].bounded[0], 0);
  EXPECT_EQ(reference->output_bounds[0].bounded[1], 1);
}

TEST(ProgramCheck, FreedomIsFollowedElementByElementThroughElementwiseOps) {
  // convert of a float out of the integer range leaves that element free
  // (with the convention); the others stay fixed through the add.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<3xf32>, %y: tensor<3xsi32>) -> (tensor<3xsi32>) {
  %0 = "stablehlo.convert"(%x) : (tensor<3xf32>) -> tensor<3xsi32>
  %1 = "stablehlo.add"(%0, %y) : (tensor<3xsi32>, tensor<3xsi32>) -> tensor<3xsi32>
  "func.return"(%1) : (tensor<3xsi32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[1.0, 1.0e30, -2.0]> : tensor<3xf32>"),
                                    Literal("dense<[1, 2, 3]> : tensor<3xi32>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(reference->determined_elements, 2);
  ASSERT_EQ(reference->outputs[0].free.size(), 3u);
  EXPECT_EQ(reference->outputs[0].free[0], 0);
  EXPECT_NE(reference->outputs[0].free[1], 0);
  EXPECT_EQ(reference->outputs[0].free[2], 0);
}

TEST(ProgramCheck, DataMovementFollowsEachElementToWhereItCameFrom) {
  // The open element of the convert moves through reshape, transpose and
  // pad; every other element stays fixed, and the unchecked one is laid
  // to the convert.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<si32>) -> (tensor<3x3xsi32>) {
  %0 = "stablehlo.convert"(%x) : (tensor<4xf32>) -> tensor<4xsi32>
  %1 = "stablehlo.reshape"(%0) : (tensor<4xsi32>) -> tensor<2x2xsi32>
  %2 = "stablehlo.transpose"(%1) {permutation = array<i64: 1, 0>} : (tensor<2x2xsi32>) -> tensor<2x2xsi32>
  %3 = "stablehlo.pad"(%2, %y) {edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 0, 1>, interior_padding = array<i64: 0, 0>} : (tensor<2x2xsi32>, tensor<si32>) -> tensor<3x3xsi32>
  "func.return"(%3) : (tensor<3x3xsi32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[1.0, 1.0e30, -2.0, 7.0]> : tensor<4xf32>"),
                                    Literal("dense<5> : tensor<i32>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  // x[1] is %1[0, 1], %2[1, 0], %3[2, 0]: row-major element 6 of the output.
  EXPECT_EQ(reference->determined_elements, 8);
  ASSERT_EQ(reference->outputs[0].free.size(), 9u);
  for (size_t i = 0; i < 9; ++i) EXPECT_EQ(reference->outputs[0].free[i] != 0, i == 6) << i;
  ASSERT_EQ(reference->unchecked_by_cause.size(), 1u);
  EXPECT_EQ(reference->unchecked_by_cause.begin()->first,
            "convert (elements left open by the spec)");
  EXPECT_EQ(reference->unchecked_by_cause.begin()->second, 1);
}

TEST(ProgramCheck, SumsAndContractionsCarryBoundsPastFreedom) {
  // sine's values are not fixed; reduce's sum and dot_general's products of
  // them are bounded, and a backend outside the bound fails.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2x2xf32>) {
  %0 = "stablehlo.sine"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "stablehlo.reduce"(%0, %1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %3 = "stablehlo.dot_general"(%0, %w) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  "func.return"(%2, %3) : (tensor<2xf32>, tensor<2x2xf32>) -> ()
}
)";
  ProgramUnderTest p =
      Read(kText, {Literal("dense<[[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]]> : tensor<2x3xf32>"),
                   Literal("dense<[[1.0, -2.0], [0.25, 3.0], [-1.5, 0.0]]> : tensor<3x2xf32>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(reference->output_elements, 6);
  EXPECT_EQ(reference->bounded_elements, 6);
  EXPECT_EQ(reference->compared_elements, 6);
  std::vector<Tensor> references = {reference->outputs[0].reference,
                                    reference->outputs[1].reference};
  EXPECT_EQ(JudgeProgram(*reference, references, nullptr).kind, ProgramOutcome::Kind::kPass);
  // A sum off by one part in a thousand is far outside.
  Tensor off = references[0];
  off.values<ElementType::kF32>()[1] *= 1.001f;
  ProgramOutcome outcome =
      JudgeProgram(*reference, std::vector<Tensor>{off, references[1]}, nullptr);
  EXPECT_EQ(outcome.kind, ProgramOutcome::Kind::kMismatch);
  EXPECT_NE(outcome.message.find("outside the bound carried past freedom"), std::string::npos)
      << outcome.message;
  off = references[1];
  off.values<ElementType::kF32>()[2] *= 1.001f;
  EXPECT_EQ(JudgeProgram(*reference, std::vector<Tensor>{references[0], off}, nullptr).kind,
            ProgramOutcome::Kind::kMismatch);
}

TEST(ProgramCheck, QuantizedValuesCarryStorageBounds) {
  // sine's values are not fixed; quantized, added and dequantized they are
  // bounded: the storage integers each corner allows, ordered as values.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>) {
  %0 = "stablehlo.sine"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = "stablehlo.uniform_quantize"(%0) : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.0625:3>>
  %2 = "stablehlo.add"(%1, %1) : (tensor<3x!quant.uniform<i8:f32, 0.0625:3>>, tensor<3x!quant.uniform<i8:f32, 0.0625:3>>) -> tensor<3x!quant.uniform<i8:f32, 0.0625:3>>
  %3 = "stablehlo.uniform_dequantize"(%2) : (tensor<3x!quant.uniform<i8:f32, 0.0625:3>>) -> tensor<3xf32>
  "func.return"(%3) : (tensor<3xf32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[0.5, 1.0, -2.0]> : tensor<3xf32>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(reference->bounded_elements, 3);
  EXPECT_EQ(reference->compared_elements, 3);
  std::vector<Tensor> outputs = {reference->outputs[0].reference};
  EXPECT_EQ(JudgeProgram(*reference, outputs, nullptr).kind, ProgramOutcome::Kind::kPass);
  outputs[0].values<ElementType::kF32>()[1] += 0.5f;  // eight steps of the scale away
  EXPECT_EQ(JudgeProgram(*reference, outputs, nullptr).kind, ProgramOutcome::Kind::kMismatch);
}

TEST(ProgramCheck, AnErrorBoundPastTheLargestFiniteValueAllowsTheOverflow) {
  // 16 * 16 = 256 in f8E4M3 (largest finite 240): the bound reaches past
  // it, so the infinity is allowed, as the comparison allows it, through
  // the convert that follows.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<1xf8E4M3>, %y: tensor<1xf8E4M3>) -> (tensor<1xf32>) {
  %0 = "stablehlo.dot_general"(%x, %y) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]>} : (tensor<1xf8E4M3>, tensor<1xf8E4M3>) -> tensor<1xf8E4M3>
  %1 = "stablehlo.convert"(%0) : (tensor<1xf8E4M3>) -> tensor<1xf32>
  "func.return"(%1) : (tensor<1xf32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[16.0]> : tensor<1xf8E4M3>"),
                                    Literal("dense<[16.0]> : tensor<1xf8E4M3>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(reference->bounded_elements, 1);
  auto judge = [&](float value) {
    return JudgeProgram(*reference, std::vector<Tensor>{F32Scalar(value)}, nullptr).kind;
  };
  EXPECT_EQ(judge(HUGE_VALF), ProgramOutcome::Kind::kPass);
  EXPECT_EQ(judge(240.0f), ProgramOutcome::Kind::kPass);
  EXPECT_EQ(judge(192.0f), ProgramOutcome::Kind::kMismatch);
  EXPECT_EQ(judge(-HUGE_VALF), ProgramOutcome::Kind::kMismatch);
}

TEST(ProgramCheck, TupleElementsKeepTheirFactsAndBackendsRunThem) {
  // A value through a tuple and back is the value: fixed stays fixed, and
  // the CPU backend and its variants agree.
  constexpr char kText[] = R"(
func.func @main(%a: tensor<2xf32>, %b: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %t = "stablehlo.tuple"(%a, %b) : (tensor<2xf32>, tensor<2xi32>) -> tuple<tensor<2xf32>, tensor<2xi32>>
  %0 = "stablehlo.get_tuple_element"(%t) {index = 0 : i32} : (tuple<tensor<2xf32>, tensor<2xi32>>) -> tensor<2xf32>
  %1 = "stablehlo.get_tuple_element"(%t) {index = 1 : i32} : (tuple<tensor<2xf32>, tensor<2xi32>>) -> tensor<2xi32>
  %2 = "stablehlo.add"(%0, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%2, %1) : (tensor<2xf32>, tensor<2xi32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[1.5, -2.0]> : tensor<2xf32>"),
                                    Literal("dense<[7, -9]> : tensor<2xi32>")});
  auto cpu = Backend("cpu");
  ProgramTrial trial = Trial(*cpu, p);
  ASSERT_TRUE(trial.reference.ok()) << trial.reference.status();
  EXPECT_EQ(trial.reference->determined_elements, 4);
  EXPECT_EQ(trial.outcome.kind, ProgramOutcome::Kind::kPass) << trial.outcome.message;
  for (const std::string& relation : ProgramRelations()) {
    auto variant = MakeVariant(relation, p.module, p.arguments, *trial.reference, 7);
    ASSERT_TRUE(variant.ok());
    auto ran = cpu->Run(mlir::PrintModule(variant->module, TestRegistry()), variant->arguments,
                        OutputTypes(variant->module));
    EXPECT_EQ(JudgeProgram(*trial.reference, ran, nullptr).kind, ProgramOutcome::Kind::kPass)
        << relation << ": " << (ran.ok() ? "" : ran.status().ToString());
  }
  // The generator draws such round trips now and then.
  int with_tuples = 0;
  for (uint64_t seed = 500; seed < 560; ++seed) {
    auto program = GenerateProgram(TestRegistry(), SmallPrograms(), seed);
    ASSERT_TRUE(program.ok());
    with_tuples += mlir::PrintModule(program->module, TestRegistry()).find("get_tuple_element") !=
                   std::string::npos;
  }
  EXPECT_GT(with_tuples, 5);
}

TEST(ProgramCheck, ACalleesFreedomIsTheCallsAndBackendsRunCalls) {
  // sine inside the callee: the call's result is not the spec's alone, so
  // neither it nor what reads it is compared bit for bit; the exact
  // multiply in another call is.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = "func.call"(%x) {callee = @wavy} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "func.call"(%x) {callee = @twice} : (tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> ()
}
func.func private @wavy(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.sine"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%0) : (tensor<2xf32>) -> ()
}
func.func private @twice(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.add"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%0) : (tensor<2xf32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[1.0, 2.0]> : tensor<2xf32>")});
  auto cpu = Backend("cpu");
  ProgramTrial trial = Trial(*cpu, p);
  ASSERT_TRUE(trial.reference.ok()) << trial.reference.status();
  EXPECT_EQ(trial.reference->determined_elements, 2);  // the add's
  EXPECT_EQ(trial.reference->compared_elements, 2);
  EXPECT_EQ(trial.outcome.kind, ProgramOutcome::Kind::kPass) << trial.outcome.message;
  // A sine one ulp off passes; a wrong add does not.
  std::vector<Tensor> outputs = {trial.reference->outputs[0].reference,
                                 trial.reference->outputs[1].reference};
  outputs[0].values<ElementType::kF32>()[0] =
      std::nextafter(outputs[0].values<ElementType::kF32>()[0], 2.0f);
  EXPECT_EQ(JudgeProgram(*trial.reference, outputs, nullptr).kind, ProgramOutcome::Kind::kPass);
  outputs[1].values<ElementType::kF32>()[1] = 4.5f;
  EXPECT_EQ(JudgeProgram(*trial.reference, outputs, nullptr).kind, ProgramOutcome::Kind::kMismatch);
  // The generator outlines an op into a callee now and then, called by
  // func.call or as a composite's decomposition; they print, read back and
  // pass on the CPU backend.
  int with_calls = 0, with_composites = 0;
  for (uint64_t seed = 600; seed < 800; ++seed) {
    auto program = GenerateProgram(TestRegistry(), SmallPrograms(), seed);
    ASSERT_TRUE(program.ok());
    if (program->module.functions.size() < 2) continue;
    const std::string text = mlir::PrintModule(program->module, TestRegistry());
    const bool composite = text.find("stablehlo.composite") != std::string::npos;
    (composite ? with_composites : with_calls) += 1;
    auto again = mlir::ReadModule(text, "program.mlir", TestRegistry());
    ASSERT_TRUE(again.ok()) << again.status() << "\n" << text;
    ProgramUnderTest outlined{program->module, program->arguments};
    ProgramTrial ran = Trial(*cpu, outlined);
    ASSERT_TRUE(ran.reference.ok()) << ran.reference.status() << "\n" << text;
    EXPECT_EQ(ran.outcome.kind, ProgramOutcome::Kind::kPass) << ran.outcome.message << "\n" << text;
  }
  EXPECT_GT(with_calls, 3);
  EXPECT_GT(with_composites, 3);
}

TEST(ProgramCheck, ACompositeIsACallOfItsDecomposition) {
  // The composite's decomposition is a function of the module: the oracle
  // and the CPU backend run it as a call (compilers inline it).
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>) {
  %0 = "stablehlo.composite"(%x, %x) {name = "hlocheck.outlined", decomposition = @twice} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%0) : (tensor<2xf32>) -> ()
}
func.func private @twice(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%0) : (tensor<2xf32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[1.0, 2.5]> : tensor<2xf32>")});
  auto cpu = Backend("cpu");
  ProgramTrial trial = Trial(*cpu, p);
  ASSERT_TRUE(trial.reference.ok()) << trial.reference.status();
  EXPECT_EQ(trial.reference->outputs[0].reference, Literal("dense<[2.0, 5.0]> : tensor<2xf32>"));
  EXPECT_EQ(trial.reference->compared_elements, 2);
  EXPECT_EQ(trial.outcome.kind, ProgramOutcome::Kind::kPass) << trial.outcome.message;
}

TEST(ProgramCheck, DeclaredFlushingExcusesOnlyElementsASubnormalReached) {
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>) {
  %0 = "stablehlo.add"(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "stablehlo.multiply"(%0, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%1) : (tensor<2xf32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[1.0e-40, 1.0]> : tensor<2xf32>"),
                                    Literal("dense<[1.0, 2.0]> : tensor<2xf32>")});
  BackendProfile profile;
  profile.deviations.push_back(
      {"flushes", Deviation::Kind::kFlushSubnormals, {}, {}, 0, "test", "https://example.org"});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, &profile);
  ASSERT_TRUE(reference.ok()) << reference.status();
  Tensor right = reference->outputs[0].reference;
  // A flushing backend: (0 + 1) * 1 = 1, not (1e-40 + 1) * 1 rounded; the
  // same here, so make element 0 differ as flushing can.
  Tensor flushed = right;
  flushed.data<float>()[0] = 0.5f;
  EXPECT_EQ(JudgeProgram(*reference, std::vector<Tensor>{flushed}, &profile).kind,
            ProgramOutcome::Kind::kDeviation);
  EXPECT_EQ(JudgeProgram(*reference, std::vector<Tensor>{flushed}, nullptr).kind,
            ProgramOutcome::Kind::kMismatch);
  // Element 1 saw no subnormal: a wrong value there is never excused.
  Tensor wrong = right;
  wrong.data<float>()[1] = 5.0f;
  EXPECT_EQ(JudgeProgram(*reference, std::vector<Tensor>{wrong}, &profile).kind,
            ProgramOutcome::Kind::kMismatch);
  EXPECT_EQ(JudgeProgram(*reference, std::vector<Tensor>{right}, &profile).kind,
            ProgramOutcome::Kind::kPass);
}

}  // namespace
}  // namespace hlocheck
