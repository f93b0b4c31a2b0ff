// `interpret` on small programs: control flow, calls, checks, and how each
// kind of outcome is reported.
#include <gtest/gtest.h>

#include "runners/interpret.h"

namespace hlocheck {
namespace {

using Kind = FunctionOutcome::Kind;

const spec::SpecRegistry& Registry() { return **spec::DefaultRegistry(); }

FunctionOutcome RunOne(const std::string& text, const InterpretOptions& options = {}) {
  auto outcome = InterpretText(text, "test.mlir", Registry(), options);
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
