// The process grid on the oracle: run_parallel runs each process on a
// thread of its own, their collectives meet at one rendezvous, and a
// program whose processes never meet, or meet at different ops, is
// reported (naming the processes) rather than hanging. The corpus files of
// the data-moving collectives pass (CorpusTest runs them all; here the
// rules they leave out).
#include <gtest/gtest.h>

#include "oracle/collectives.h"
#include "runners/interpret.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;
using Kind = FunctionOutcome::Kind;

FunctionOutcome Interpret(const std::string& text) {
  auto outcome = InterpretText(text, "collectives_test.mlir", TestRegistry());
  EXPECT_TRUE(outcome.ok()) << outcome.status();
  if (!outcome.ok() || outcome->functions.empty()) return {};
  return outcome->functions.back();
}

// Process (1, 0) takes the branch without the all_gather and finishes:
// process (0, 0) would wait for ever.
TEST(CollectivesTest, AProcessThatNeverArrivesIsADeadlockNamingTheProcesses) {
  const FunctionOutcome f = Interpret(R"(
module @deadlock {
  func.func @gather(%x: tensor<2xi64>) -> tensor<2xi64> {
    %id = stablehlo.replica_id : tensor<ui32>
    %zero = stablehlo.constant dense<0> : tensor<ui32>
    %first = "stablehlo.compare"(%id, %zero) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %r = "stablehlo.if"(%first) ({
      %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
      %s = "stablehlo.slice"(%g) {start_indices = array<i64: 0>, limit_indices = array<i64: 2>, strides = array<i64: 1>} : (tensor<4xi64>) -> tensor<2xi64>
      "stablehlo.return"(%s) : (tensor<2xi64>) -> ()
    }, {
      "stablehlo.return"(%x) : (tensor<2xi64>) -> ()
    }) : (tensor<i1>) -> tensor<2xi64>
    func.return %r : tensor<2xi64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %b = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
    %results:2 = "interpreter.run_parallel"(%a, %b) {
      programs = [[@gather], [@gather]]
    } : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>)
    func.return
  }
}
)");
  EXPECT_EQ(f.kind, Kind::kError) << KindName(f.kind) << ": " << f.message;
  EXPECT_NE(f.message.find("deadlock: process (0, 0) waits at its collective 1 "
                           "(stablehlo.all_gather); process (1, 0) has finished after 0 "
                           "collective(s)"),
            std::string::npos)
      << f.message;
}

// The two processes reach different collectives at their first step.
TEST(CollectivesTest, ProcessesAtDifferentCollectivesAreAMismatch) {
  const FunctionOutcome f = Interpret(R"(
module @mismatch {
  func.func @gather(%x: tensor<2xi64>) -> tensor<4xi64> {
    %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
    func.return %g : tensor<4xi64>
  }
  func.func @permute(%x: tensor<2xi64>) -> tensor<4xi64> {
    %p = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
    %c = "stablehlo.concatenate"(%p, %p) {dimension = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
    func.return %c : tensor<4xi64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %results:2 = "interpreter.run_parallel"(%a, %a) {
      programs = [[@gather], [@permute]]
    } : (tensor<2xi64>, tensor<2xi64>) -> (tensor<4xi64>, tensor<4xi64>)
    func.return
  }
}
)");
  EXPECT_EQ(f.kind, Kind::kError) << KindName(f.kind) << ": " << f.message;
  EXPECT_NE(f.message.find("mismatched collectives"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("(0, 0) all_gather"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("(1, 0) collective_permute"), std::string::npos) << f.message;
}

// Collectives inside a loop meet step by step: the n-th of each process
// with the n-th of the others. Three rounds of a ring permute on 3
// replicas bring every value back home.
TEST(CollectivesTest, CollectivesInALoopMeetStepByStep) {
  const FunctionOutcome f = Interpret(R"(
module @ring {
  func.func @ring(%x: tensor<i64>) -> tensor<i64> {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = "stablehlo.while"(%zero, %x) ({
    ^bb0(%i: tensor<i32>, %v: tensor<i64>):
      %three = stablehlo.constant dense<3> : tensor<i32>
      %lt = "stablehlo.compare"(%i, %three) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%lt) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>, %v: tensor<i64>):
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %moved = "stablehlo.collective_permute"(%v) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>} : (tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%next, %moved) : (tensor<i32>, tensor<i64>) -> ()
    }) : (tensor<i32>, tensor<i64>) -> (tensor<i32>, tensor<i64>)
    func.return %r#1 : tensor<i64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<10> : tensor<i64>
    %b = stablehlo.constant dense<20> : tensor<i64>
    %c = stablehlo.constant dense<30> : tensor<i64>
    %results:3 = "interpreter.run_parallel"(%a, %b, %c) {
      programs = [[@ring], [@ring], [@ring]]
    } : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>, tensor<i64>)
    check.expect_eq_const %results#0, dense<10> : tensor<i64>
    check.expect_eq_const %results#1, dense<20> : tensor<i64>
    check.expect_eq_const %results#2, dense<30> : tensor<i64>
    func.return
  }
}
)");
  EXPECT_EQ(f.kind, Kind::kPassed) << KindName(f.kind) << ": " << f.message;
}

// The spec's process groups (seed 002's definitions and its examples).
TEST(CollectivesTest, ProcessGroupsFollowTheSpecsDefinitions) {
  const oracle::ProcessGrid grid{4, 2};
  auto text = [](const oracle::ProcessGroups& groups) {
    std::string s;
    for (const auto& group : groups) {
      s += "[";
      for (const oracle::ProcessId& p : group) s += p.ToString();
      s += "]";
    }
    return s;
  };
  // cross_replica([[0, 1], [2, 3]]) on 4 x 2.
  auto replica = oracle::CrossReplica({{0, 1}, {2, 3}}, grid);
  ASSERT_TRUE(replica.ok());
  EXPECT_EQ(text(*replica), "[(0, 0)(1, 0)][(2, 0)(3, 0)][(0, 1)(1, 1)][(2, 1)(3, 1)]");
  // cross_partition([[0, 1]]) on 4 x 2.
  auto partition = oracle::CrossPartition({{0, 1}}, grid);
  ASSERT_TRUE(partition.ok());
  EXPECT_EQ(text(*partition), "[(0, 0)(0, 1)][(1, 0)(1, 1)][(2, 0)(2, 1)][(3, 0)(3, 1)]");
  // cross_replica_and_partition([[0, 1], [2, 3]]) on 4 x 2.
  auto both = oracle::CrossReplicaAndPartition({{0, 1}, {2, 3}}, grid);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(text(*both), "[(0, 0)(1, 0)(0, 1)(1, 1)][(2, 0)(3, 0)(2, 1)(3, 1)]");
  // flattened_ids([[0, 1, 2, 3], [4, 5, 6, 7]]) on 4 x 2.
  auto flat = oracle::FlattenedIds({{0, 1, 2, 3}, {4, 5, 6, 7}}, grid);
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(text(*flat), "[(0, 0)(0, 1)(1, 0)(1, 1)][(2, 0)(2, 1)(3, 0)(3, 1)]");
  EXPECT_FALSE(oracle::CrossReplica({{0, 4}}, grid).ok());
}

}  // namespace
}  // namespace hlocheck
