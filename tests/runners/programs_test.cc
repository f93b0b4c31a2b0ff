// Multi-op programs: the generator's programs are valid (the oracle runs
// every one, and they print and read back unchanged), the same seed gives
// the same program, the CPU adapter agrees with the oracle on them and on
// every metamorphic variant; the faulty program backends are caught and
// shrunk to a few ops; shrinking keeps the failure and cuts ops and shapes.
// (What is compared in a program: program_check_test.cc.)
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/exact_value.h"
#include "runners/deviations.h"
#include "runners/program_variants.h"
#include "tests/runners/program_test_util.h"

namespace hlocheck {
namespace {

TEST(ProgramGenerator, SameSeedSameProgram) {
  for (uint64_t seed : {1u, 2u, 77u}) {
    auto a = GenerateProgram(TestRegistry(), SmallPrograms(), seed);
    auto b = GenerateProgram(TestRegistry(), SmallPrograms(), seed);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(mlir::PrintModule(a->module, TestRegistry()),
              mlir::PrintModule(b->module, TestRegistry()));
    ASSERT_EQ(a->arguments.size(), b->arguments.size());
    for (size_t i = 0; i < a->arguments.size(); ++i) EXPECT_EQ(a->arguments[i], b->arguments[i]);
  }
}

TEST(ProgramGenerator, ProgramsLeaveOutWhatTheyCannotHold) {
  const std::vector<std::string> ops = ProgramOps(TestRegistry());
  for (const char* left_out : {"all_reduce", "infeed", "rng", "tuple", "custom_call"}) {
    EXPECT_EQ(std::count(ops.begin(), ops.end(), left_out), 0) << left_out;
  }
  for (const char* kept : {"add", "reduce", "sort", "while", "dot_general", "convert"}) {
    EXPECT_EQ(std::count(ops.begin(), ops.end(), kept), 1) << kept;
  }
}

TEST(ProgramGenerator, ElementTypesRestrictEveryValue) {
  ProgramOptions options = SmallPrograms();
  options.element_types = {ElementType::kF32, ElementType::kSI32, ElementType::kI1};
  for (uint64_t seed = 0; seed < 20; ++seed) {
    auto program = GenerateProgram(TestRegistry(), options, seed);
    ASSERT_TRUE(program.ok());
    for (const Operation& op : MainOf(program->module).body.blocks[0].operations) {
      for (const ValueType& t : op.result_types) {
        EXPECT_TRUE(options.element_types.count(t.element_type)) << op.name << " " << t.ToString();
      }
    }
  }
}

// Every generated program is valid: the oracle runs it (the spec's verifier
// checks each op), it prints the same once read back, and it wires values from op to
// op rather than giving every op arguments of its own.
RC_GTEST_PROP(ProgramGenerator, ProgramsAreValidAndConnected, ()) {
  const auto seed = *rc::gen::arbitrary<uint64_t>();
  auto program = GenerateProgram(TestRegistry(), SmallPrograms(), seed);
  RC_ASSERT(program.ok());
  const std::string text = mlir::PrintModule(program->module, TestRegistry());
  auto back = mlir::ReadModule(text, "generated.mlir", TestRegistry());
  RC_ASSERT(back.ok());
  RC_ASSERT(mlir::PrintModule(*back, TestRegistry()) == text);
  auto reference =
      ReferenceOfProgram(TheOracle(), TestRegistry(), program->module, program->arguments, nullptr);
  RC_ASSERT(reference.ok() || absl::IsUnimplemented(reference.status()));
  const Block& block = MainOf(program->module).body.blocks[0];
  std::set<ValueId> results;
  bool wired = false;
  for (const Operation& op : block.operations) {
    for (ValueId v : op.operands) wired = wired || results.count(v) > 0;
    results.insert(op.results.begin(), op.results.end());
  }
  RC_ASSERT(wired || program->drawn_ops.size() < 2);
}

TEST(ProgramGenerator, CpuAgreesWithTheOracleOnProgramsAndTheirVariants) {
  auto cpu = Backend("cpu");
  int compared = 0;
  for (uint64_t seed = 100; seed < 160; ++seed) {
    auto program = GenerateProgram(TestRegistry(), SmallPrograms(), seed);
    ASSERT_TRUE(program.ok());
    ProgramUnderTest p{program->module, program->arguments};
    ProgramTrial trial = Trial(*cpu, p);
    if (!trial.reference.ok()) continue;
    EXPECT_EQ(trial.outcome.kind, ProgramOutcome::Kind::kPass)
        << "seed " << seed << ": " << trial.outcome.message << "\n"
        << mlir::PrintModule(p.module, TestRegistry());
    compared += trial.reference->compared_elements > 0;
    for (const std::string& relation : ProgramRelations()) {
      auto variant = MakeVariant(relation, p.module, p.arguments, *trial.reference, seed);
      ASSERT_TRUE(variant.ok());
      auto ran = cpu->Run(mlir::PrintModule(variant->module, TestRegistry()), variant->arguments,
                          OutputTypes(variant->module));
      EXPECT_EQ(JudgeProgram(*trial.reference, ran, nullptr).kind, ProgramOutcome::Kind::kPass)
          << relation << " of seed " << seed << ": " << variant->description;
      // The variant computes the same function on the oracle too.
      auto again = ReferenceOfProgram(TheOracle(), TestRegistry(), variant->module,
                                      variant->arguments, nullptr);
      ASSERT_TRUE(again.ok()) << relation << ": " << again.status();
      std::vector<Tensor> oracle_outputs;
      for (const ResultExpectation& e : again->outputs) oracle_outputs.push_back(e.reference);
      EXPECT_NE(JudgeProgram(*trial.reference, oracle_outputs, nullptr).kind,
                ProgramOutcome::Kind::kMismatch)
          << relation << " of seed " << seed;
    }
  }
  EXPECT_GT(compared, 30);
}

// Quantized values reach the region ops too (reduce, sort, map, scatter,
// ...: their bodies compute on quantized scalars), and the CPU backend
// agrees with the oracle there.
TEST(ProgramGenerator, QuantizedValuesReachRegionOps) {
  auto cpu = Backend("cpu");
  int found = 0;
  for (uint64_t seed = 1; seed < 3000 && found < 6; ++seed) {
    auto program = GenerateProgram(TestRegistry(), SmallPrograms(), seed);
    ASSERT_TRUE(program.ok());
    const std::string text = mlir::PrintModule(program->module, TestRegistry());
    bool region_op = false;
    for (const char* op :
         {"\"stablehlo.reduce\"", "\"stablehlo.reduce_window\"", "\"stablehlo.sort\"",
          "\"stablehlo.map\"", "\"stablehlo.scatter\"", "\"stablehlo.select_and_scatter\""}) {
      for (size_t at = text.find(op); at != std::string::npos && !region_op;
           at = text.find(op, at + 1)) {
        // The region's block arguments follow on the next line.
        const size_t block = text.find("^bb0(", at);
        const size_t end = block == std::string::npos ? block : text.find('\n', block);
        region_op = block != std::string::npos &&
                    text.substr(block, end - block).find("!quant.uniform") != std::string::npos;
      }
    }
    if (!region_op) continue;
    ++found;
    ProgramUnderTest p{program->module, program->arguments};
    ProgramTrial trial = Trial(*cpu, p);
    ASSERT_TRUE(trial.reference.ok()) << trial.reference.status() << "\n" << text;
    EXPECT_EQ(trial.outcome.kind, ProgramOutcome::Kind::kPass)
        << "seed " << seed << ": " << trial.outcome.message << "\n"
        << text;
  }
  EXPECT_GE(found, 6);
}

// Quantized values are drawn (made by uniform_quantize where a reader
// wants them, turned back by uniform_dequantize), every such program is
// valid, and the CPU backend agrees with the oracle on them and their
// variants; --no-quantized leaves them out.
TEST(ProgramGenerator, QuantizedValuesAreDrawnAndCarried) {
  auto cpu = Backend("cpu");
  int quantized = 0;
  for (uint64_t seed = 300; seed < 420 && quantized < 12; ++seed) {
    auto program = GenerateProgram(TestRegistry(), SmallPrograms(), seed);
    ASSERT_TRUE(program.ok());
    const std::string text = mlir::PrintModule(program->module, TestRegistry());
    if (text.find("!quant.uniform") == std::string::npos) continue;
    ++quantized;
    ProgramUnderTest p{program->module, program->arguments};
    ProgramTrial trial = Trial(*cpu, p);
    ASSERT_TRUE(trial.reference.ok()) << trial.reference.status() << "\n" << text;
    EXPECT_EQ(trial.outcome.kind, ProgramOutcome::Kind::kPass)
        << "seed " << seed << ": " << trial.outcome.message << "\n"
        << text;
    for (const std::string& relation : ProgramRelations()) {
      auto variant = MakeVariant(relation, p.module, p.arguments, *trial.reference, seed);
      ASSERT_TRUE(variant.ok());
      auto ran = cpu->Run(mlir::PrintModule(variant->module, TestRegistry()), variant->arguments,
                          OutputTypes(variant->module));
      EXPECT_EQ(JudgeProgram(*trial.reference, ran, nullptr).kind, ProgramOutcome::Kind::kPass)
          << relation << " of seed " << seed;
    }
  }
  EXPECT_GE(quantized, 12);
  ProgramOptions plain = SmallPrograms();
  plain.quantized = false;
  for (uint64_t seed = 300; seed < 340; ++seed) {
    auto program = GenerateProgram(TestRegistry(), plain, seed);
    ASSERT_TRUE(program.ok());
    EXPECT_EQ(mlir::PrintModule(program->module, TestRegistry()).find("!quant.uniform"),
              std::string::npos);
  }
}

TEST(ProgramVariants, BarriersSkipPerAxisQuantizedValuesWhichTheOracleRefusesThere) {
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>) {
  %0 = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5:0, 0.25:1}>>
  %1 = "stablehlo.uniform_dequantize"(%0) : (tensor<2x!quant.uniform<i8:f32:0, {0.5:0, 0.25:1}>>) -> tensor<2xf32>
  "func.return"(%1) : (tensor<2xf32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[1.0, 2.0]> : tensor<2xf32>")});
  auto reference = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(reference.ok()) << reference.status();
  auto variant = MakeVariant("barriers", p.module, p.arguments, *reference, 1);
  ASSERT_TRUE(variant.ok());
  int barriers = 0;
  for (const Operation& op : MainOf(variant->module).body.blocks[0].operations) {
    if (op.name != "stablehlo.optimization_barrier") continue;
    ++barriers;
    EXPECT_FALSE(op.operand_types[0].is_quantized());
  }
  EXPECT_EQ(barriers, 1);  // after the dequantize alone
  EXPECT_TRUE(
      ReferenceOfProgram(TheOracle(), TestRegistry(), variant->module, variant->arguments, nullptr)
          .ok());
  // A barrier on the per-axis value is refused, as its spec says.
  constexpr char kInvalid[] = R"(
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>) {
  %0 = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5:0, 0.25:1}>>
  %1 = "stablehlo.optimization_barrier"(%0) : (tensor<2x!quant.uniform<i8:f32:0, {0.5:0, 0.25:1}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5:0, 0.25:1}>>
  %2 = "stablehlo.uniform_dequantize"(%1) : (tensor<2x!quant.uniform<i8:f32:0, {0.5:0, 0.25:1}>>) -> tensor<2xf32>
  "func.return"(%2) : (tensor<2xf32>) -> ()
}
)";
  ProgramUnderTest invalid = Read(kInvalid, {Literal("dense<[1.0, 2.0]> : tensor<2xf32>")});
  auto refused =
      ReferenceOfProgram(TheOracle(), TestRegistry(), invalid.module, invalid.arguments, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("per-tensor"), std::string::npos) << refused.status();
}

// The first program of seeds 0..seeds-1 drawn with `options` on which
// `trial` sees a mismatch, shrunk with `trial`; nullopt when none fails.
std::optional<ShrunkProgram> FirstMismatchShrunk(const ProgramOptions& options, uint64_t seeds,
                                                 const ProgramTrialFn& trial) {
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    auto program = GenerateProgram(TestRegistry(), options, seed);
    if (!program.ok()) {
      ADD_FAILURE() << program.status();
      return std::nullopt;
    }
    ProgramUnderTest p{program->module, program->arguments};
    ProgramTrial t = trial(p);
    if (!t.reference.ok() || t.outcome.kind != ProgramOutcome::Kind::kMismatch) continue;
    return ShrinkProgram(std::move(p), std::move(t), trial, 300);
  }
  return std::nullopt;
}

// The issue's bar for each program fault: caught, and shrunk to at most
// four ops (the arguments, printed as constants, not counted).
void ExpectSmall(const std::optional<ShrunkProgram>& shrunk, const std::string& what) {
  ASSERT_TRUE(shrunk.has_value()) << "no program showed " << what;
  EXPECT_EQ(shrunk->trial.outcome.kind, ProgramOutcome::Kind::kMismatch);
  EXPECT_LE(OpCount(shrunk->program.module), 4) << mlir::PrintModule(
      WithConstantArguments(shrunk->program.module, shrunk->program.arguments), TestRegistry());
}

ProgramOptions FaultPrograms(std::vector<std::string> ops, std::set<ElementType> types) {
  ProgramOptions options;
  options.max_ops = 12;
  options.max_elements = 32;
  options.ops = std::move(ops);
  options.element_types = std::move(types);
  return options;
}

TEST(ProgramFaults, ExcessPrecisionInAFusedBf16ChainIsCaught) {
  // -75 * -75 = 5625 rounds to 5632 in bf16, then to f8E5M2's 6144; kept
  // in f32, 5625 rounds to 5120.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<1xbf16>) -> (tensor<1xf8E5M2>) {
  %0 = "stablehlo.multiply"(%x, %x) : (tensor<1xbf16>, tensor<1xbf16>) -> tensor<1xbf16>
  %1 = "stablehlo.convert"(%0) : (tensor<1xbf16>) -> tensor<1xf8E5M2>
  "func.return"(%1) : (tensor<1xf8E5M2>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[-75.0]> : tensor<1xbf16>")});
  auto faulty = Backend("faulty-program-bf16-in-f32");
  auto cpu = Backend("cpu");
  EXPECT_EQ(Trial(*faulty, p).outcome.kind, ProgramOutcome::Kind::kMismatch);
  EXPECT_EQ(Trial(*cpu, p).outcome.kind, ProgramOutcome::Kind::kPass);
  // Random bf16 programs find it too.
  ExpectSmall(FirstMismatchShrunk(
                  FaultPrograms({"add", "multiply", "subtract", "divide", "convert"},
                                {ElementType::kBF16, ElementType::kF32, ElementType::kF8E5M2}),
                  300, [&](const ProgramUnderTest& c) { return Trial(*faulty, c); }),
              "excess precision");
}

TEST(ProgramFaults, FoldingSelfSubtractionIsCaughtAndShrunk) {
  auto faulty = Backend("faulty-program-fold-self-subtract");
  auto shrunk = FirstMismatchShrunk(
      FaultPrograms({"subtract", "add", "exponential", "negate", "multiply"}, {ElementType::kF32}),
      300, [&](const ProgramUnderTest& c) { return Trial(*faulty, c); });
  ExpectSmall(shrunk, "x - x folded where x is inf or NaN");
  bool subtracts = false;
  for (const Operation& op : MainOf(shrunk->program.module).body.blocks[0].operations) {
    subtracts = subtracts || op.name == "stablehlo.subtract";
  }
  EXPECT_TRUE(subtracts);
}

// A folder that narrows by truncation differs from the runtime kernel only
// where the operands are constants: programs pass, their constants variant
// fails, and the failure shrinks to an op on constants.
TEST(ProgramFaults, ConstantFoldingThatDiffersFromTheKernelIsCaughtByTheConstantsVariant) {
  auto faulty = Backend("faulty-program-fold-truncating");
  const ProgramOptions options =
      FaultPrograms({"add", "subtract", "multiply", "divide", "negate", "abs"},
                    {ElementType::kF32, ElementType::kF16, ElementType::kBF16});
  for (uint64_t seed = 0; seed < 20; ++seed) {
    auto program = GenerateProgram(TestRegistry(), options, seed);
    ASSERT_TRUE(program.ok());
    EXPECT_EQ(Trial(*faulty, {program->module, program->arguments}).outcome.kind,
              ProgramOutcome::Kind::kPass);
  }
  auto as_constants = [&](const ProgramUnderTest& c) {
    ProgramTrial t = Trial(*faulty, c);
    if (!t.reference.ok()) return t;
    auto v = MakeVariant("constants", c.module, c.arguments, *t.reference, 0);
    t.outcome = JudgeProgram(*t.reference,
                             faulty->Run(mlir::PrintModule(v->module, TestRegistry()), v->arguments,
                                         OutputTypes(v->module)),
                             nullptr);
    return t;
  };
  auto shrunk = FirstMismatchShrunk(options, 100, as_constants);
  ExpectSmall(shrunk, "a truncating constant folder");
  EXPECT_EQ(Trial(*faulty, shrunk->program).outcome.kind, ProgramOutcome::Kind::kPass);
}

// An in-place dynamic_update_slice whose operand another op still reads.
TEST(ProgramFaults, AnInPlaceUpdateOfAValueWithTwoConsumersIsCaughtAndShrunk) {
  auto faulty = Backend("faulty-program-update-in-place");
  ExpectSmall(FirstMismatchShrunk(
                  FaultPrograms({"dynamic_update_slice", "add", "negate", "reshape", "slice"},
                                {ElementType::kSI32, ElementType::kF32}),
                  200, [&](const ProgramUnderTest& c) { return Trial(*faulty, c); }),
              "a value read after its in-place update");
}

TEST(ProgramVariants, ConstantsFoldTheArgumentsIn) {
  ProgramUnderTest p = Read(kChain, {Literal("dense<[1.5, -75.0, 3.0]> : tensor<3xbf16>"),
                                     Literal("dense<[2.0, -75.0, 0.1]> : tensor<3xbf16>")});
  Module folded = WithConstantArguments(p.module, p.arguments);
  EXPECT_TRUE(MainOf(folded).type.inputs.empty());
  EXPECT_EQ(MainOf(folded).body.blocks[0].operations.front().name, "stablehlo.constant");
  auto cpu = Backend("cpu");
  EXPECT_EQ(Trial(*cpu, {folded, {}}).outcome.kind, ProgramOutcome::Kind::kPass);
}

TEST(ProgramShrink, ABackendErrorStaysTheSameError) {
  auto error = [](std::string message) {
    ProgramOutcome o;
    o.kind = ProgramOutcome::Kind::kBackendError;
    o.message = std::move(message);
    return o;
  };
  // Numbers change as a program shrinks (shapes, lines, value names) ...
  EXPECT_TRUE(SameFailure(error("compile: -:6:3: error: accumulator s64[] vs s32[] at %reduce.12"),
                          error("compile: -:2:9: error: accumulator s64[] vs s32[] at %reduce.1")));
  // ... the error itself does not.
  EXPECT_FALSE(SameFailure(error("compile: -:2:9: error: 'uniform_quantize' can't be translated"),
                           error("compile: Shape Error: Invalid element type")));
  ProgramOutcome mismatch;
  mismatch.kind = ProgramOutcome::Kind::kMismatch;
  mismatch.message = "output 0: element 3 is 1, expected 2";
  ProgramOutcome other = mismatch;
  other.message = "output 0: element 0 is 7, expected 9";
  EXPECT_TRUE(SameFailure(mismatch, other));
  EXPECT_FALSE(SameFailure(mismatch, error("x")));
}

TEST(ProgramShrink, DeadCodeAndUnusedArgumentsGo) {
  constexpr char kText[] = R"(
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>) {
  %0 = "stablehlo.multiply"(%b, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "stablehlo.negate"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%1) : (tensor<2xf32>) -> ()
}
)";
  ProgramUnderTest p = Read(kText, {Literal("dense<[1.0, 2.0]> : tensor<2xf32>"),
                                    Literal("dense<[3.0, 4.0]> : tensor<2xf32>")});
  RemoveDeadCode(p);
  EXPECT_EQ(OpCount(p.module), 1);
  ASSERT_EQ(p.arguments.size(), 1u);
  EXPECT_EQ(p.arguments[0], Literal("dense<[1.0, 2.0]> : tensor<2xf32>"));
}

TEST(ProgramShrink, ShapesAreCutToWhatTheFailingElementReads) {
  // out[j] = sum over i of (x . y)[i, j] + c[j] - 2 * x[0, 0]: element 2
  // reads all of x, column 2 of y, c[2] (an unchecked sort keeps its
  // operand whole: a slice gives its reader the part it needs).
  constexpr char kText[] = R"(
func.func @main(%x: tensor<4x3xf32>, %y: tensor<3x5xf32>, %c: tensor<5xf32>) -> (tensor<5xf32>) {
  %0 = "stablehlo.dot_general"(%x, %y) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %1 = "stablehlo.transpose"(%0) {permutation = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %2 = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %3 = "stablehlo.reduce"(%1, %2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<5x4xf32>, tensor<f32>) -> tensor<5xf32>
  %4 = "stablehlo.sort"(%c) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %l = "stablehlo.compare"(%p, %q) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%l) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64, is_stable = true} : (tensor<5xf32>) -> tensor<5xf32>
  %5 = "stablehlo.add"(%3, %4) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  "func.return"(%5) : (tensor<5xf32>) -> ()
}
)";
  ProgramUnderTest p =
      Read(kText,
           {Literal("dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 0.5, 0.25]]> "
                    ": tensor<4x3xf32>"),
            Literal("dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 0.0, 1.0, 0.0], [2.0, 2.0, "
                    "-1.0, 2.0, 2.0]]> : tensor<3x5xf32>"),
            Literal("dense<[5.0, 4.0, 3.0, 2.0, 1.0]> : tensor<5xf32>")});
  auto whole = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(whole.ok()) << whole.status();
  auto cut = ShrinkShapes(p, {int64_t{2}});
  ASSERT_TRUE(cut.has_value());
  ASSERT_EQ(cut->arguments.size(), 3u);
  EXPECT_EQ(cut->arguments[0].shape(), (Shape{4, 3}));
  EXPECT_EQ(cut->arguments[1].shape(), (Shape{3, 1}));
  EXPECT_EQ(cut->arguments[1], Literal("dense<[[3.0], [0.0], [-1.0]]> : tensor<3x1xf32>"));
  EXPECT_EQ(cut->arguments[2].shape(), (Shape{5}));  // sorted whole
  EXPECT_EQ(OutputTypes(cut->module)[0].shape, (Shape{1}));
  auto part = ReferenceOfProgram(TheOracle(), TestRegistry(), cut->module, cut->arguments, nullptr);
  ASSERT_TRUE(part.ok()) << part.status() << "\n" << mlir::PrintModule(cut->module, TestRegistry());
  EXPECT_EQ(part->outputs[0].reference.values<ElementType::kF32>()[0],
            whole->outputs[0].reference.values<ElementType::kF32>()[2]);
  // The printed program reads back the same.
  const std::string text = mlir::PrintModule(cut->module, TestRegistry());
  auto again = mlir::ReadModule(text, "cut.mlir", TestRegistry());
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << text;
  // The output already one element: nothing to cut.
  EXPECT_FALSE(ShrinkShapes(*cut, {int64_t{0}}).has_value());
}

TEST(ProgramShrink, ShapesAreCutThroughConcatenateAndPad) {
  // pad(concatenate(x, y) along 1, v): low (1, 2), high (1, -1), interior
  // (0, 1), so result [i, j] is concatenate's [i - 1, (j - 2) / 2] where
  // j - 2 is even and in range, else v.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x2xf32>, %v: tensor<f32>) -> (tensor<4x10xf32>) {
  %0 = "stablehlo.concatenate"(%x, %y) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %1 = "stablehlo.pad"(%0, %v) {edge_padding_low = array<i64: 1, 2>, edge_padding_high = array<i64: 1, -1>, interior_padding = array<i64: 0, 1>} : (tensor<2x5xf32>, tensor<f32>) -> tensor<4x10xf32>
  %2 = "stablehlo.negate"(%1) : (tensor<4x10xf32>) -> tensor<4x10xf32>
  "func.return"(%2) : (tensor<4x10xf32>) -> ()
}
)";
  ProgramUnderTest p =
      Read(kText, {Literal("dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>"),
                   Literal("dense<[[7.0, 8.0], [9.0, 10.0]]> : tensor<2x2xf32>"),
                   Literal("dense<0.5> : tensor<f32>")});
  auto whole = ReferenceOfProgram(TheOracle(), TestRegistry(), p.module, p.arguments, nullptr);
  ASSERT_TRUE(whole.ok()) << whole.status();
  // [2, 8] is concatenate's [1, 3], y's [1, 0] = 9; [1, 3] is interior
  // padding; [0, 0] edge padding.
  for (int64_t element : {int64_t{28}, int64_t{13}, int64_t{0}}) {
    auto cut = ShrinkShapes(p, {element});
    ASSERT_TRUE(cut.has_value()) << element;
    EXPECT_EQ(OutputTypes(cut->module)[0].shape, (Shape{1, 1})) << element;
    if (element == 28) {
      EXPECT_EQ(cut->arguments[0].num_elements(), 0);  // x: none of it
      EXPECT_EQ(cut->arguments[1], Literal("dense<[[9.0]]> : tensor<1x1xf32>"));
    } else {
      EXPECT_EQ(cut->arguments[0].num_elements() + cut->arguments[1].num_elements(), 0) << element;
    }
    auto part =
        ReferenceOfProgram(TheOracle(), TestRegistry(), cut->module, cut->arguments, nullptr);
    ASSERT_TRUE(part.ok()) << part.status() << "\n"
                           << mlir::PrintModule(cut->module, TestRegistry());
    EXPECT_EQ(part->outputs[0].reference.values<ElementType::kF32>()[0],
              whole->outputs[0].reference.values<ElementType::kF32>()[element])
        << element;
    const std::string text = mlir::PrintModule(cut->module, TestRegistry());
    EXPECT_TRUE(mlir::ReadModule(text, "cut.mlir", TestRegistry()).ok()) << text;
  }
}

TEST(ProgramShrink, ASortKeepsWholeRowsOnly) {
  // Rows of x sorted along dimension 1: element [2, 1] needs row 2 alone.
  constexpr char kText[] = R"(
func.func @main(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %l = "stablehlo.compare"(%p, %q) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%l) : (tensor<i1>) -> ()
  }) {dimension = -1 : i64, is_stable = true} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = "stablehlo.negate"(%0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  "func.return"(%1) : (tensor<3x4xf32>) -> ()
}
)";
  ProgramUnderTest p =
      Read(kText,
           {Literal("dense<[[4.0, 3.0, 2.0, 1.0], [0.5, 0.25, 1.5, 1.0], [9.0, 7.0, 8.0, 6.0]]> : "
                    "tensor<3x4xf32>")});
  auto cut = ShrinkShapes(p, {int64_t{9}});
  ASSERT_TRUE(cut.has_value());
  EXPECT_EQ(cut->arguments[0], Literal("dense<[[9.0, 7.0, 8.0, 6.0]]> : tensor<1x4xf32>"));
  EXPECT_EQ(OutputTypes(cut->module)[0].shape, (Shape{1, 1}));
  auto part = ReferenceOfProgram(TheOracle(), TestRegistry(), cut->module, cut->arguments, nullptr);
  ASSERT_TRUE(part.ok()) << part.status() << "\n" << mlir::PrintModule(cut->module, TestRegistry());
  EXPECT_EQ(part->outputs[0].reference.values<ElementType::kF32>()[0], -7.0f);
}

TEST(ProgramShrink, OneElementGoesThroughAReshape) {
  constexpr char kText[] = R"(
func.func @main(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>) {
  %0 = "stablehlo.reshape"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "stablehlo.negate"(%0) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  "func.return"(%1) : (tensor<3x2xf32>) -> ()
}
)";
  ProgramUnderTest p =
      Read(kText, {Literal("dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>")});
  // Output element 3 is [1, 1] of the 3x2 result: flat 3, x[1, 0] = 4.
  auto cut = ShrinkShapes(p, {int64_t{3}});
  ASSERT_TRUE(cut.has_value());
  EXPECT_EQ(cut->arguments[0], Literal("dense<[[4.0]]> : tensor<1x1xf32>"));
  auto part = ReferenceOfProgram(TheOracle(), TestRegistry(), cut->module, cut->arguments, nullptr);
  ASSERT_TRUE(part.ok()) << part.status();
  EXPECT_EQ(part->outputs[0].reference.values<ElementType::kF32>()[0], -4.0f);
}

}  // namespace
}  // namespace hlocheck
