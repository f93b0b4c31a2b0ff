// `interpret` on small programs: control flow, calls, checks, and how each
// kind of outcome is reported.
#include <gtest/gtest.h>

#include "runners/interpret.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using Kind = FunctionOutcome::Kind;

using ::hlocheck::testing::TestRegistry;

FunctionOutcome RunOne(const std::string& text, const InterpretOptions& options = {}) {
  auto outcome = InterpretText(text, "test.mlir", TestRegistry(), options);
  EXPECT_TRUE(outcome.ok()) << outcome.status();
  if (!outcome.ok() || outcome->functions.size() != 1) {
    ADD_FAILURE() << "expected one function";
    return {};
  }
  return outcome->functions[0];
}

TEST(InterpretTest, WhileIfCaseAndCallsCompute) {
  FunctionOutcome f = RunOne(R"(
func.func @twice(%x: tensor<i64>) -> tensor<i64> {
  %y = stablehlo.add %x, %x : tensor<i64>
  func.return %y : tensor<i64>
}
func.func @main() {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %i, %s = stablehlo.while(%a = %zero, %b = %zero) : tensor<i64>, tensor<i64>
  cond {
    %c = stablehlo.compare LT, %a, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %a, %one : tensor<i64>
    %t = stablehlo.add %b, %a : tensor<i64>
    stablehlo.return %n, %t : tensor<i64>, tensor<i64>
  }
  check.expect_eq_const %s, dense<45> : tensor<i64>
  %d = func.call @twice(%s) : (tensor<i64>) -> tensor<i64>
  check.expect_eq_const %d, dense<90> : tensor<i64>
  %p = stablehlo.constant dense<false> : tensor<i1>
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %one : tensor<i64>
  }, {
    stablehlo.return %ten : tensor<i64>
  }) : (tensor<i1>) -> tensor<i64>
  check.expect_eq_const %r, dense<10> : tensor<i64>
  %k = stablehlo.constant dense<7> : tensor<i32>
  %q = "stablehlo.case"(%k) ({
    stablehlo.return %one : tensor<i64>
  }, {
    stablehlo.return %zero : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  check.expect_eq_const %q, dense<0> : tensor<i64>
  func.return
}
)");
  EXPECT_EQ(f.kind, Kind::kPassed) << f.message;
  EXPECT_EQ(f.checks, 4);
}

TEST(InterpretTest, AFailingCheckNamesItsValues) {
  FunctionOutcome f = RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.add %a, %a : tensor<2xi32>
  check.expect_eq_const %b, dense<[2, 5]> : tensor<2xi32>
  func.return
}
)");
  EXPECT_EQ(f.kind, Kind::kFailed);
  EXPECT_NE(f.message.find("line 5"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("4 (oracle) vs 5 (expected)"), std::string::npos) << f.message;
}

// A shift by the bit width or more is left open by the spec, but the
// StableHLO interpreter and XLA agree on 0: a reproducer holding that value
// and one holding a backend's other answer (x86's masked shift: 1 << (33 &
// 31) = 2) are both implementation-defined, and the outcome says which.
TEST(InterpretTest, AFreeElementsConventionIsToldApartFromAnotherValue) {
  const std::string program = R"(
func.func @main() {
  %a = stablehlo.constant dense<[1, 1]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 33]> : tensor<2xi32>
  %c = stablehlo.shift_left %a, %b : tensor<2xi32>
  check.expect_eq_const %c, dense<[2, RESULT]> : tensor<2xi32>
  func.return
}
)";
  auto with = [&](const std::string& value) {
    std::string text = program;
    text.replace(text.find("RESULT"), 6, value);
    return RunOne(text);
  };
  FunctionOutcome conventional = with("0");
  EXPECT_EQ(conventional.kind, Kind::kFree) << conventional.message;
  EXPECT_NE(conventional.message.find(
                "on the 1 of them with a de facto convention the checks hold the convention's"),
            std::string::npos)
      << conventional.message;

  FunctionOutcome masked = with("2");
  EXPECT_EQ(masked.kind, Kind::kFree) << masked.message;
  EXPECT_NE(masked.message.find("1 of the 1 with a de facto convention differ from it"),
            std::string::npos)
      << masked.message;
  EXPECT_NE(masked.message.find("element 1: the check holds 2, the convention 0"),
            std::string::npos)
      << masked.message;
}

TEST(InterpretTest, TolerancesOfTheCheckDialect) {
  FunctionOutcome f = RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<5.0> : tensor<f64>
  %b = stablehlo.constant dense<5.0001> : tensor<f64>
  check.expect_almost_eq %a, %b : tensor<f64>
  check.expect_almost_eq_const %a, dense<5.1> : tensor<f64> {tolerance = 0.2 : f64}
  %h = stablehlo.constant dense<5.0> : tensor<f16>
  %g = stablehlo.constant dense<5.008> : tensor<f16>
  check.expect_close %h, %g, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
  func.return
}
)");
  EXPECT_EQ(f.kind, Kind::kPassed) << f.message;
  FunctionOutcome g = RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<5.0> : tensor<f64>
  check.expect_almost_eq_const %a, dense<5.1> : tensor<f64>
  func.return
}
)");
  EXPECT_EQ(g.kind, Kind::kFailed);
}

// The custom_call forms use the public tool's fixed values (1e-3, 0..3 ULP)
// and ignore attributes; the dialect ops keep 1e-4 and max_ulp_difference 1
// unless given. The operands are constants, so the judge has no op to rule on.
TEST(InterpretTest, CustomCallFormsUseThePublicToolsTolerances) {
  const std::string values = R"(
func.func @main() {
  %a = stablehlo.constant dense<5.0> : tensor<f64>
  %b = stablehlo.constant dense<5.0005> : tensor<f64>
)";
  FunctionOutcome custom_call = RunOne(values + R"(
  stablehlo.custom_call @check.expect_almost_eq(%a, %b) {has_side_effect = true} : (tensor<f64>, tensor<f64>) -> ()
  func.return
}
)");
  EXPECT_EQ(custom_call.kind, Kind::kPassed) << custom_call.message;
  FunctionOutcome dialect = RunOne(values + R"(
  check.expect_almost_eq %a, %b : tensor<f64>
  func.return
}
)");
  EXPECT_EQ(dialect.kind, Kind::kFailed);
  EXPECT_NE(dialect.message.find("|error| <= 0.0001"), std::string::npos) << dialect.message;
  // 5e-3 off: beyond the custom_call's 1e-3 too.
  FunctionOutcome far = RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<5.0> : tensor<f64>
  %b = stablehlo.constant dense<5.005> : tensor<f64>
  stablehlo.custom_call @check.expect_almost_eq(%a, %b) : (tensor<f64>, tensor<f64>) -> ()
  func.return
}
)");
  EXPECT_EQ(far.kind, Kind::kFailed);
  EXPECT_NE(far.message.find("custom_call @check.expect_almost_eq"), std::string::npos)
      << far.message;
  // @check.eq: floats within 1e-4, and its i1 result says so.
  FunctionOutcome eq = RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.00005, 2.0]> : tensor<2xf32>
  %r = stablehlo.custom_call @check.eq(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  check.expect_eq_const %r, dense<true> : tensor<i1>
  func.return
}
)");
  EXPECT_EQ(eq.kind, Kind::kPassed) << eq.message;
  EXPECT_EQ(eq.checks, 2);
}

// f32 1.0 is 0x3F800000; each step of the bits is one ULP.
FunctionOutcome CloseCheck(const std::string& expected_bits, const std::string& check) {
  return RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.constant dense<)" +
                expected_bits + R"(> : tensor<f32>
  )" + check + R"(
  func.return
}
)");
}

TEST(InterpretTest, ExpectCloseUlpRanges) {
  const std::string custom_call =
      "stablehlo.custom_call @check.expect_close(%a, %b) : (tensor<f32>, tensor<f32>) -> ()";
  EXPECT_EQ(CloseCheck("0x3F800000", custom_call).kind, Kind::kPassed);
  EXPECT_EQ(CloseCheck("0x3F800003", custom_call).kind, Kind::kPassed);
  FunctionOutcome four = CloseCheck("0x3F800004", custom_call);
  EXPECT_EQ(four.kind, Kind::kFailed);
  EXPECT_NE(four.message.find("0..3 ULP (was 4)"), std::string::npos) << four.message;
  // The same ULPs below 1.0 (0x3F7FFFFD is 3 below).
  EXPECT_EQ(CloseCheck("0x3F7FFFFD", custom_call).kind, Kind::kPassed);

  // The dialect op without max_ulp_difference (generic form): 1 ULP.
  const std::string generic = R"("check.expect_close"(%a, %b) : (tensor<f32>, tensor<f32>) -> ())";
  EXPECT_EQ(CloseCheck("0x3F800001", generic).kind, Kind::kPassed);
  EXPECT_EQ(CloseCheck("0x3F800002", generic).kind, Kind::kFailed);
  const std::string three =
      "check.expect_close %a, %b, max_ulp_difference = 3 : tensor<f32>, tensor<f32>";
  EXPECT_EQ(CloseCheck("0x3F800003", three).kind, Kind::kPassed);
  EXPECT_EQ(CloseCheck("0x3F800004", three).kind, Kind::kFailed);
  // min_ulp_difference asks for a difference: equal values fail it.
  const std::string at_least_one =
      "check.expect_close %a, %b, max_ulp_difference = 3, min_ulp_difference = 1 : "
      "tensor<f32>, tensor<f32>";
  EXPECT_EQ(CloseCheck("0x3F800000", at_least_one).kind, Kind::kFailed);
  EXPECT_EQ(CloseCheck("0x3F800001", at_least_one).kind, Kind::kPassed);
  // An infinity is infinitely far from the largest finite value (not 1 ULP).
  FunctionOutcome infinity = RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<0x7F7FFFFF> : tensor<f32>
  %b = stablehlo.constant dense<0x7F800000> : tensor<f32>
  stablehlo.custom_call @check.expect_close(%a, %b) : (tensor<f32>, tensor<f32>) -> ()
  func.return
}
)");
  EXPECT_EQ(infinity.kind, Kind::kFailed);
}

// dot_general of [2^24, 1, 1] and [1, 1, 1]: exactly 2^24 + 2, but summed
// in f32 from the left it is 2^24 (each + 1 rounds back to even). The
// oracle's bound is gamma_3 * (2^24 + 2) plus an ULP of the result, about 5.
std::string DotProgram(const std::string& expected) {
  return R"(
func.func @main() {
  %lhs = stablehlo.constant dense<[16777216.0, 1.0, 1.0]> : tensor<3xf32>
  %rhs = stablehlo.constant dense<[1.0, 1.0, 1.0]> : tensor<3xf32>
  %r = stablehlo.dot_general %lhs, %rhs, contracting_dims = [0] x [0] : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  check.expect_almost_eq_const %r, dense<)" +
         expected + R"(> : tensor<f32>
  func.return
}
)";
}

TEST(InterpretTest, JudgeAcceptsADotConstantWithinTheAccumulationBound) {
  FunctionOutcome exact = RunOne(DotProgram("16777218.0"));
  EXPECT_EQ(exact.kind, Kind::kPassed) << exact.message;

  FunctionOutcome summed_in_f32 = RunOne(DotProgram("16777216.0"));
  EXPECT_EQ(summed_in_f32.kind, Kind::kJudged) << summed_in_f32.message;
  EXPECT_EQ(summed_in_f32.judged, 1);
  EXPECT_NE(summed_in_f32.message.find(
                "within the accumulation bound of stablehlo.dot_general, 1 ULP from exact"),
            std::string::npos)
      << summed_in_f32.message;

  FunctionOutcome beyond = RunOne(DotProgram("16777200.0"));
  EXPECT_EQ(beyond.kind, Kind::kFailed);
  EXPECT_NE(beyond.message.find("judge: expected value beyond the accumulation bound"),
            std::string::npos)
      << beyond.message;

  InterpretOptions literal;
  literal.judge = false;
  EXPECT_EQ(RunOne(DotProgram("16777216.0"), literal).kind, Kind::kFailed);
}

// sine(1.0) in f32 is 0x3F576AA4 correctly rounded; f32 sine may be 2 ULP
// off (spec/ops/sine.yaml).
std::string SineProgram(const std::string& operand, const std::string& expected) {
  return R"(
func.func @main() {
  %x = stablehlo.constant dense<)" +
         operand + R"(> : tensor<f32>
  %s = stablehlo.sine %x : tensor<f32>
  check.expect_eq_const %s, dense<)" +
         expected + R"(> : tensor<f32>
  func.return
}
)";
}

TEST(InterpretTest, JudgeAcceptsATranscendentalWithinItsUlpBound) {
  EXPECT_EQ(RunOne(SineProgram("1.0", "0x3F576AA4")).kind, Kind::kPassed);
  FunctionOutcome one_off = RunOne(SineProgram("1.0", "0x3F576AA5"));
  EXPECT_EQ(one_off.kind, Kind::kJudged) << one_off.message;
  EXPECT_NE(one_off.message.find("1 ULP from the correctly rounded stablehlo.sine, allowed 2"),
            std::string::npos)
      << one_off.message;
  FunctionOutcome ten_off = RunOne(SineProgram("1.0", "0x3F576AAE"));
  EXPECT_EQ(ten_off.kind, Kind::kFailed);
  EXPECT_NE(ten_off.message.find("judge: expected value 10 ULP from the correctly rounded"),
            std::string::npos)
      << ten_off.message;
}

// The judge rules on one op whose inputs the spec fixes: a reshape (exact)
// in front keeps that; an exponential (2 ULP of freedom) does not, since a
// backend's sine would start from a different value.
TEST(InterpretTest, JudgeRulesOnlyWhereTheOpsInputsAreFixed) {
  FunctionOutcome through_reshape = RunOne(R"(
func.func @main() {
  %c = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %x = stablehlo.reshape %c : (tensor<1xf32>) -> tensor<f32>
  %s = stablehlo.sine %x : tensor<f32>
  check.expect_eq_const %s, dense<0x3F576AA5> : tensor<f32>
  func.return
}
)");
  EXPECT_EQ(through_reshape.kind, Kind::kJudged) << through_reshape.message;
  // exp(0.5) is 0x3FD3094C in f32, and its sine 0x3F7F3920.
  FunctionOutcome through_exponential = RunOne(R"(
func.func @main() {
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %x = stablehlo.exponential %c : tensor<f32>
  check.expect_eq_const %x, dense<0x3FD3094C> : tensor<f32>
  %s = stablehlo.sine %x : tensor<f32>
  check.expect_eq_const %s, dense<0x3F7F3921> : tensor<f32>
  func.return
}
)");
  EXPECT_EQ(through_exponential.kind, Kind::kFailed);
  EXPECT_EQ(through_exponential.message.find("judge"), std::string::npos)
      << through_exponential.message;
}

TEST(InterpretTest, UnsupportedInvalidAndSkippedAreReportedAsSuch) {
  FunctionOutcome unsupported = RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = "chlo.mulhi"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  check.expect_eq_const %b, dense<0> : tensor<2xi32>
  func.return
}
)");
  EXPECT_EQ(unsupported.kind, Kind::kUnsupported);
  EXPECT_EQ(unsupported.unsupported, std::set<std::string>{"chlo.mulhi"});

  // transpose C2: not a permutation. The oracle verifies before computing.
  FunctionOutcome invalid = RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %b = stablehlo.transpose %a, dims = [0, 0] : (tensor<1x2xi32>) -> tensor<1x1xi32>
  func.return
}
)");
  EXPECT_EQ(invalid.kind, Kind::kInvalid);
  EXPECT_NE(invalid.message.find("C2"), std::string::npos) << invalid.message;

  const std::string with_arguments = R"(
func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
  %y = stablehlo.add %x, %x : tensor<2xi32>
  func.return %y : tensor<2xi32>
}
)";
  EXPECT_EQ(RunOne(with_arguments).kind, Kind::kSkipped);
  InterpretOptions options;
  Tensor x(Shape{2}, ElementType::kSI32);
  options.main_arguments.push_back(x);
  EXPECT_EQ(RunOne(with_arguments, options).kind, Kind::kPassed);
}

TEST(InterpretTest, EndlessRecursionIsAnErrorNotACrash) {
  FunctionOutcome f = RunOne(R"(
func.func @f(%x: tensor<i64>) -> tensor<i64> {
  %y = func.call @f(%x) : (tensor<i64>) -> tensor<i64>
  func.return %y : tensor<i64>
}
func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i64>
  %b = func.call @f(%a) : (tensor<i64>) -> tensor<i64>
  func.return
}
)");
  EXPECT_EQ(f.kind, Kind::kError);
  EXPECT_NE(f.message.find("deeper than"), std::string::npos) << f.message;
}

TEST(InterpretTest, ProbesAreComparedBySerializedEq) {
  FunctionOutcome f = RunOne(R"(
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi8>
  %b = interpreter.probe %a, probe_id = "p" : tensor<2xi8>
  check.expect_serialized_eq %b, probe_id = "p" : tensor<2xi8>
  func.return
}
)");
  EXPECT_EQ(f.kind, Kind::kPassed) << f.message;
}

}  // namespace
}  // namespace hlocheck

namespace hlocheck {
namespace {

// A while loop's cond and body ops are verified at the first iteration only;
// the later iterations must still compute the same values, and an op the
// spec forbids must still be reported.
TEST(InterpretWhileTest, ManyIterationsAfterTheFirstVerificationStillCompute) {
  FunctionOutcome f = RunOne(R"(
func.func @main() {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %limit = stablehlo.constant dense<300> : tensor<i64>
  %start = stablehlo.constant dense<[0.5, 2.0]> : tensor<2xf32>
  %i, %x = stablehlo.while(%iter = %zero, %v = %start) : tensor<i64>, tensor<2xf32>
    cond {
      %lt = stablehlo.compare LT, %iter, %limit : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %next = stablehlo.add %iter, %one : tensor<i64>
      %w = stablehlo.add %v, %v : tensor<2xf32>
      stablehlo.return %next, %w : tensor<i64>, tensor<2xf32>
    }
  check.expect_eq_const %i, dense<300> : tensor<i64>
  check.expect_eq_const %x, dense<[0x7F800000, 0x7F800000]> : tensor<2xf32>
  func.return
}
)");
  EXPECT_EQ(f.kind, FunctionOutcome::Kind::kPassed) << f.message;
  FunctionOutcome invalid = RunOne(R"(
func.func @main() {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %limit = stablehlo.constant dense<3> : tensor<i64>
  %i = stablehlo.while(%iter = %zero) : tensor<i64>
    cond {
      %lt = stablehlo.compare LT, %iter, %limit : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %next = "stablehlo.add"(%iter, %one) : (tensor<i64>, tensor<i32>) -> tensor<i64>
      stablehlo.return %next : tensor<i64>
    }
  func.return
}
)");
  EXPECT_NE(invalid.kind, FunctionOutcome::Kind::kPassed) << invalid.message;
}

}  // namespace
}  // namespace hlocheck
