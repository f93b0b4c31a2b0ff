// Proof that the loop can fail: each deliberately faulty backend is caught,
// shrunk to a small case, and reported with a StableHLO reproducer and the
// seed and replay string that find it again.
#include <gtest/gtest.h>

#include "adapters/faulty/faulty_adapters.h"
#include "runners/commands.h"
#include "runners/gate.h"

namespace hlocheck {
namespace {

struct FaultCase {
  std::string backend;
  std::string op;
  ElementType type;
  int64_t max_minimal_elements;  // the shrunk case must be at most this big

  friend void PrintTo(const FaultCase& fault, std::ostream* out) {
    *out << fault.backend << " on " << fault.op << " " << Name(fault.type);
  }
};

class FaultyBackendTest : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FaultyBackendTest, IsCaughtShrunkAndReported) {
  const FaultCase& fault = GetParam();
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  std::unique_ptr<Adapter> adapter = CreateFaultyAdapter(fault.backend, AdapterOptions{2});
  ASSERT_NE(adapter, nullptr);
  Oracle oracle(*registry);
  Gate gate(*registry, &oracle, adapter.get());
  GateOptions options;
  options.ops = {fault.op};
  options.types = {fault.type};
  options.cases = 300;
  options.seed = 12345;
  auto run = gate.Run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->groups.size(), 1u);
  const GroupResult& group = run->groups[0];
  EXPECT_GT(group.failed, 0) << fault.backend << " went unnoticed";
  ASSERT_EQ(group.findings.size(), 1u);
  const Finding& finding = group.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::kMismatch);
  EXPECT_GT(finding.mismatched_elements, 0);
  EXPECT_FALSE(finding.mismatches.empty());
  EXPECT_LE(finding.minimal_elements, fault.max_minimal_elements) << "not shrunk far enough:\n"
                                                                  << finding.reproducer;
  EXPECT_LE(finding.minimal_elements, finding.original_elements);
  // The op under test in its MLIR spelling (the case `call` is func.call).
  const std::string spelling =
      fault.op == "call" ? "func.call @" : "\"stablehlo." + fault.op + "\"";
  EXPECT_NE(finding.reproducer.find(spelling), std::string::npos) << finding.reproducer;
  // A check op, or for a distribution (rng) the comment that stands for it.
  EXPECT_TRUE(finding.reproducer.find("check.expect") != std::string::npos ||
              finding.reproducer.find("must be a sample") != std::string::npos)
      << finding.reproducer;
  EXPECT_NE(finding.command.find("--seed 12345"), std::string::npos) << finding.command;
  EXPECT_NE(finding.command.find("--backend " + fault.backend), std::string::npos);

  // The replay string rebuilds exactly the minimal case, which still fails.
  auto replayed = gate.Replay(finding.replay);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_TRUE(replayed->outcome.failed());
  int64_t elements = 0;
  for (const Tensor& t : replayed->c.operands) elements += t.num_elements();
  EXPECT_EQ(elements, finding.minimal_elements);

  // So does `hlocheck replay`, whatever shrinks the path took (an
  // elementwise case's halves exist only in the gate's shrink tree).
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(ReplayCommand({"--backend", fault.backend, finding.replay}), kExitFailure);
  std::string out = ::testing::internal::GetCapturedStdout();
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("MISMATCH"), std::string::npos) << finding.replay << "\n" << out << err;
}

INSTANTIATE_TEST_SUITE_P(
    AllFaults, FaultyBackendTest,
    ::testing::Values(
        // 1 ULP is beyond the 0 ULP allowed for 8-bit exponentials.
        FaultCase{"faulty-exponential-ulp", "exponential", ElementType::kF8E4M3FN, 1},
        FaultCase{"faulty-transpose-swap", "transpose", ElementType::kF32, 4},
        // A rare combination (two scalars, the left one si8's minimum):
        // one case in 300 at this seed, two elements once shrunk.
        FaultCase{"faulty-add-scalar-extreme", "add", ElementType::kSI8, 2},
        FaultCase{"faulty-slice-stride", "slice", ElementType::kSI32, 3},
        // 8, not 4: a batch dimension only shrinks together with fresh
        // data (the exec-based generator redraws values for a new shape), so
        // the shrinker may stop at batch 2 with one non-zero product left.
        FaultCase{"faulty-dot-general-drop", "dot_general", ElementType::kF32, 8},
        // The bound of a float sum catches one lost term; the case shrinks
        // to a few elements (an init value, the slice of two, more inputs).
        FaultCase{"faulty-reduce-drop", "reduce", ElementType::kF32, 8},
        // Zeros instead of -Inf (or another init value) where a window
        // covers padding: seen by maximum, minimum and multiply bodies.
        FaultCase{"faulty-reduce-window-zero-padding", "reduce_window", ElementType::kF32, 8},
        // Two inputs of one element and a comparison are enough.
        FaultCase{"faulty-map-swapped-arguments", "map", ElementType::kSI32, 2},
        // Two window elements and two kernel elements show a flipped window.
        FaultCase{"faulty-convolution-no-reversal", "convolution", ElementType::kSI32, 8},
        // Two equal elements in one window, its source value and the init
        // value; the shrinker may keep more operand elements and windows (at
        // this seed's first failure since generation 4: an operand of 5, a
        // source of 4 and the init value, all zeros but one).
        FaultCase{"faulty-select-and-scatter-last-tie", "select_and_scatter", ElementType::kSI32,
                  10},
        FaultCase{"faulty-convert-truncate", "convert", ElementType::kF32, 1},
        // Three elements: the smallest odd length where the sign shows.
        FaultCase{"faulty-fft-odd-twiddle", "fft", ElementType::kComplexF32, 3},
        // A few elements with their features' four values each (the
        // shrinker stops at two features).
        FaultCase{"faulty-batch-norm-no-epsilon", "batch_norm_inference", ElementType::kF32, 10},
        // Two elements of one feature (the mean of the first alone is
        // wrong), with the per-feature scale and offset.
        FaultCase{"faulty-batch-norm-training-drop", "batch_norm_training", ElementType::kF32, 4},
        // Two gradients whose bf16 sum loses bits, with their operands and
        // the per-feature scale, mean and variance.
        FaultCase{"faulty-batch-norm-grad-bf16-sum", "batch_norm_grad", ElementType::kF32, 7},
        // A 2 x 2 positive definite matrix whose bf16 rounding moves its
        // factor beyond the f32 bound.
        FaultCase{"faulty-cholesky-bf16", "cholesky", ElementType::kF32, 4},
        // A product of values with bits beyond the precision type's (the
        // split's second components carry them); the shrinker keeps a
        // second, zero, product beside it.
        FaultCase{"faulty-dot-algorithm-single-pass", "dot_general", ElementType::kF32, 3},
        // rng's inputs are its two scalars; the output's size comes from
        // the shape, which the shrinker keeps large enough for the fit test
        // (wide normal) or for one draw of b (closed interval).
        FaultCase{"faulty-rng-wide-normal", "rng", ElementType::kF32, 2},
        FaultCase{"faulty-rng-closed-interval", "rng", ElementType::kSI32, 2},
        // The index alone: the branches' results are constants.
        FaultCase{"faulty-case-clamped-index", "case", ElementType::kSI32, 1},
        // The loop counter, and at most a tensor doubled at each iteration.
        FaultCase{"faulty-while-less-equal", "while", ElementType::kSI32, 2},
        // Two processes of one element each, gathered in the wrong order.
        FaultCase{"faulty-all-gather-reversed", "all_gather", ElementType::kSI32, 2},
        // Two processes, each with a part of one element.
        FaultCase{"faulty-reduce-scatter-reversed", "reduce_scatter", ElementType::kSI32, 4},
        // Two processes of one element: the sum lands on the wrong one.
        FaultCase{"faulty-collective-reduce-reversed", "collective_reduce", ElementType::kSI32, 2},
        // Two elements, the second lost on the way to the host (the
        // shrinker may keep a scalar second input beside them).
        FaultCase{"faulty-outfeed-half-copied", "outfeed", ElementType::kSI32, 3},
        // Two different scalars of one type, each returned in the other's place.
        FaultCase{"faulty-call-swapped-arguments", "call", ElementType::kSI32, 2},
        // One value and a zero point other than 0.
        FaultCase{"faulty-quantize-zero-point-subtracted", "uniform_quantize", ElementType::kF32,
                  1},
        // Two quantized scalars of different scales (one case in eight of
        // add's f32 cases is quantized).
        FaultCase{"faulty-quantized-add-shared-scale", "add", ElementType::kF32, 2},
        // One value and the init value (the zero point) of a quantized
        // reduce: their storage integers summed give zero point + value.
        FaultCase{"faulty-quantized-reduce-on-storage", "reduce", ElementType::kF32, 3},
        // A 2 x 2 triangle and a right-hand side of two or four elements.
        FaultCase{"faulty-triangular-solve-no-transpose", "triangular_solve", ElementType::kF32,
                  8}),
    [](const ::testing::TestParamInfo<FaultCase>& info) {
      std::string name = info.param.backend;
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      return name;
    });

// Every fault is listed, and each name creates its backend; an unknown
// name creates none.
TEST(FaultyBackendBoundTest, AllFaultsAreListed) {
  EXPECT_EQ(Faults().size(), 31u);
  for (const FaultDescription& f : Faults()) {
    EXPECT_NE(CreateFaultyAdapter(f.name, {}), nullptr) << f.name;
  }
  EXPECT_EQ(CreateFaultyAdapter("faulty-nothing", {}), nullptr);
}

// A group names its farthest element and the case that holds it, passing or
// not, so that an accuracy finding can be looked at where it is worst (the
// first failure, which is what gets shrunk, is seldom that). Replaying the
// case finds the same distance; a group where every element is exact names
// none.
TEST(WorstElementTest, AGroupNamesItsFarthestElementAndTheCaseThatHoldsIt) {
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  Oracle oracle(*registry);
  std::unique_ptr<Adapter> faulty = CreateFaultyAdapter("faulty-exponential-ulp", {});
  ASSERT_NE(faulty, nullptr);
  Gate gate(*registry, &oracle, faulty.get());
  GateOptions options;
  options.ops = {"exponential"};
  options.types = {ElementType::kF32};
  options.cases = 100;
  options.seed = 12345;
  auto run = gate.Run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  const GroupResult& group = run->groups.at(0);
  ASSERT_GT(group.worst_ulp, 0);
  ASSERT_FALSE(group.worst_replay.empty());
  EXPECT_NE(group.worst_example.find("(" + std::to_string(group.worst_ulp) + " ULP)"),
            std::string::npos)
      << group.worst_example;
  auto replayed = gate.Replay(group.worst_replay);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  int64_t worst = -1;
  for (const ResultComparison& c : replayed->outcome.comparisons) {
    worst = std::max(worst, c.worst.ulp);
  }
  EXPECT_EQ(worst, group.worst_ulp);

  options.ops = {"add"};
  options.types = {ElementType::kSI32};
  auto exact = gate.Run(options);
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_TRUE(exact->groups.at(0).worst_replay.empty()) << exact->groups.at(0).worst_example;
}

// Where the spec leaves a value open but the interpreter and XLA agree (a
// shift by the bit width or more), a backend that masks the amount is
// reported as differing from the de facto convention: never a failure of
// the run, never a silent pass. The CPU backend follows the convention.
TEST(ConventionVerdictTest, AMaskedShiftDiffersFromTheConventionButDoesNotFail) {
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  Oracle oracle(*registry);
  GateOptions options;
  options.ops = {"shift_left"};
  options.types = {ElementType::kSI32, ElementType::kUI8};
  options.cases = 200;
  options.seed = 12345;
  for (const char* backend : {"faulty-shift-masked", "cpu"}) {
    std::unique_ptr<Adapter> adapter = std::string(backend) == "cpu"
                                           ? *CreateAdapter("cpu", AdapterOptions{2})
                                           : CreateFaultyAdapter(backend, AdapterOptions{2});
    ASSERT_NE(adapter, nullptr);
    Gate gate(*registry, &oracle, adapter.get());
    auto run = gate.Run(options);
    ASSERT_TRUE(run.ok()) << run.status();
    for (const GroupResult& g : run->groups) {
      EXPECT_EQ(g.failed, 0) << backend << " " << Name(g.type);
      EXPECT_TRUE(g.findings.empty());
      EXPECT_GT(g.free_elements, 0) << "no shift by the width or more was generated";
      if (std::string(backend) == "cpu") {
        EXPECT_EQ(g.differs_from_convention, 0) << Name(g.type);
        EXPECT_EQ(g.passed, g.cases);
        continue;
      }
      EXPECT_GT(g.differs_from_convention, 0) << Name(g.type);
      EXPECT_GT(g.convention_elements, 0);
      EXPECT_EQ(g.passed + g.differs_from_convention, g.cases);
      EXPECT_NE(g.convention_example.find("shift amounts outside"), std::string::npos)
          << g.convention_example;
      auto replayed = gate.Replay(g.convention_replay);
      ASSERT_TRUE(replayed.ok()) << replayed.status();
      EXPECT_EQ(replayed->outcome.kind, CaseOutcome::Kind::kConvention);
    }
  }
}

// The distance histogram counts every compared float element once, puts
// the faulty backend's extra ULP where the report draws it (beyond the
// bound where it fails), and stays empty for integers.
TEST(DistanceHistogramGateTest, CountsEveryComparedElementAtItsDistance) {
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  Oracle oracle(*registry);
  std::unique_ptr<Adapter> faulty = CreateFaultyAdapter("faulty-exponential-ulp", {});
  ASSERT_NE(faulty, nullptr);
  Gate gate(*registry, &oracle, faulty.get());
  GateOptions options;
  options.ops = {"exponential"};
  options.types = {ElementType::kF64, ElementType::kF32};
  options.cases = 60;
  auto run = gate.Run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  for (const GroupResult& group : run->groups) {
    SCOPED_TRACE(Name(group.type));
    ASSERT_GT(group.worst_ulp, 0);
    EXPECT_EQ(group.distances.total(), group.elements_compared);
    EXPECT_EQ(group.distances.count[DistanceHistogram::UlpBucket(group.worst_ulp)] > 0, true);
    int64_t beyond_allowed = 0;
    for (int b = DistanceHistogram::UlpBucket(group.allowed_ulp) + 1;
         b < DistanceHistogram::kBuckets; ++b) {
      beyond_allowed += group.distances.count[b];
    }
    // f64 allows 0 ULP, so its one-ULP-off elements are failures; f32
    // allows more, so they are not.
    if (group.failed > 0) {
      EXPECT_GT(beyond_allowed, 0);
    } else {
      EXPECT_EQ(beyond_allowed, 0);
    }
  }
  options.ops = {"add"};
  options.types = {ElementType::kSI32};
  auto exact = gate.Run(options);
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_EQ(exact->groups.at(0).distances.total(), 0);
}

}  // namespace
}  // namespace hlocheck
