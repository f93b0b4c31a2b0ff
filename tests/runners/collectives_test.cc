// The process grid on the oracle: run_parallel runs each process on a
// thread of its own, their collectives meet at one rendezvous, and a
// program whose processes never meet, or meet at different ops, is
// reported (naming the processes) rather than hanging. The corpus files of
// the data-moving collectives pass (CorpusTest runs them all; here the
// rules they leave out).
#include <gtest/gtest.h>

#include "adapters/adapter.h"
#include "mlir/reader.h"
#include "oracle/collectives.h"
#include "runners/interpret.h"
#include "tests/support/last_function.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;
using Kind = FunctionOutcome::Kind;

FunctionOutcome Interpret(const std::string& text) {
  return ::hlocheck::testing::InterpretLastFunction(text, "collectives_test.mlir");
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

// reduce_scatter on a 2 x 2 grid with flattened ids: the groups are
// processes {0, 3} and {1, 2} (flat ids), each member gets its part of the
// group's sum; an f32 sum is bounded, not exact, and both parts check.
TEST(CollectivesTest, ReduceScatterGivesEachMemberItsPartOfTheGroupsReduction) {
  const FunctionOutcome f = Interpret(R"(
module @reduce_scatter {
  func.func @rs(%x: tensor<4xf32>) -> tensor<2xf32> {
    %r = "stablehlo.reduce_scatter"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 3], [2, 1]]> : tensor<2x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids}
      : (tensor<4xf32>) -> tensor<2xf32>
    func.return %r : tensor<2xf32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %b = stablehlo.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
    %c = stablehlo.constant dense<[100.0, 200.0, 300.0, 400.0]> : tensor<4xf32>
    %d = stablehlo.constant dense<[1000.0, 2000.0, 3000.0, 4000.0]> : tensor<4xf32>
    %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@rs, @rs], [@rs, @rs]]}
      : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
    check.expect_eq_const %r#0, dense<[1001.0, 2002.0]> : tensor<2xf32>
    check.expect_eq_const %r#3, dense<[3003.0, 4004.0]> : tensor<2xf32>
    check.expect_eq_const %r#2, dense<[110.0, 220.0]> : tensor<2xf32>
    check.expect_eq_const %r#1, dense<[330.0, 440.0]> : tensor<2xf32>
    func.return
  }
}
)");
  EXPECT_EQ(f.kind, Kind::kPassed) << KindName(f.kind) << ": " << f.message;
}

// collective_reduce with has_dynamic_root: the root array names the source
// within its group. The spec does not say whose array counts, so processes
// of one group that name different roots stop the program with an error.
TEST(CollectivesTest, CollectiveReduceKeepsTheResultOnTheRootItsGroupAgreesOn) {
  auto program = [](const std::string& second_root) {
    return R"(
module @dynamic_root {
  func.func @cr(%x: tensor<2xi32>, %root: tensor<1xi32>) -> tensor<2xi32> {
    %r = "stablehlo.collective_reduce"(%x, %root) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = stablehlo.add %a, %b : tensor<i32>
        stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root = true}
      : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
    func.return %r : tensor<2xi32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %b = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
    %one = stablehlo.constant dense<[1]> : tensor<1xi32>
    %other = stablehlo.constant dense<[)" +
           second_root + R"(]> : tensor<1xi32>
    %r:2 = "interpreter.run_parallel"(%a, %one, %b, %other) {programs = [[@cr], [@cr]]}
      : (tensor<2xi32>, tensor<1xi32>, tensor<2xi32>, tensor<1xi32>) -> (tensor<2xi32>, tensor<2xi32>)
    check.expect_eq_const %r#0, dense<[0, 0]> : tensor<2xi32>
    check.expect_eq_const %r#1, dense<[4, 6]> : tensor<2xi32>
    func.return
  }
}
)";
  };
  const FunctionOutcome agreed = Interpret(program("1"));
  EXPECT_EQ(agreed.kind, Kind::kPassed) << KindName(agreed.kind) << ": " << agreed.message;
  const FunctionOutcome disagreed = Interpret(program("0"));
  EXPECT_EQ(disagreed.kind, Kind::kError) << KindName(disagreed.kind) << ": " << disagreed.message;
  EXPECT_NE(disagreed.message.find("name different roots"), std::string::npos) << disagreed.message;
}

// The CPU adapter reads has_dynamic_root's root array itself (the gate never
// draws the flag: it is the public spec's, and random roots would name
// processes outside the groups): on three processes with root 2, it agrees
// with the oracle for collective_broadcast and collective_reduce.
TEST(CollectivesTest, TheCpuAdapterFollowsADynamicRootAsTheOracleDoes) {
  for (const std::string op : {"collective_broadcast", "collective_reduce"}) {
    const std::string region = op == "collective_reduce" ? R"(({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = stablehlo.add %a, %b : tensor<i32>
        stablehlo.return %s : tensor<i32>
    }) )"
                                                         : " ";
    const std::string text =
        R"(
module @hlocheck_case {
  func.func @process(%x: tensor<2xi32>, %root: tensor<1xi32>) -> (tensor<2xi32>) {
    %result = "stablehlo.)" +
        op + R"("(%x, %root))" + region +
        R"({replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>, has_dynamic_root = true}
      : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
    func.return %result : tensor<2xi32>
  }
  func.func @main() {
    %x_0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %root_0 = stablehlo.constant dense<[2]> : tensor<1xi32>
    %x_1 = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
    %root_1 = stablehlo.constant dense<[2]> : tensor<1xi32>
    %x_2 = stablehlo.constant dense<[5, 6]> : tensor<2xi32>
    %root_2 = stablehlo.constant dense<[2]> : tensor<1xi32>
    %results:3 = "interpreter.run_parallel"(%x_0, %root_0, %x_1, %root_1, %x_2, %root_2) {programs = [[@process], [@process], [@process]]} : (tensor<2xi32>, tensor<1xi32>, tensor<2xi32>, tensor<1xi32>, tensor<2xi32>, tensor<1xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
    func.return
  }
}
)";
    auto c = mlir::ReadCaseModule(text, "dynamic_root.mlir", TestRegistry());
    ASSERT_TRUE(c.ok()) << c.status();
    auto cpu = CreateAdapter("cpu", {});
    ASSERT_TRUE(cpu.ok()) << cpu.status();
    auto got = (*cpu)->Run(*c);
    ASSERT_TRUE(got.ok()) << op << ": " << got.status();
    std::vector<std::vector<Tensor>> operands;
    for (int64_t p = 0; p < 3; ++p) operands.push_back(OneProcess(*c, p).operands);
    auto expected = oracle::GridResults(op, c->attributes, c->regions, {c->result_types[0]},
                                        oracle::ProcessGrid{3, 1}, operands);
    ASSERT_TRUE(expected.ok()) << expected.status();
    ASSERT_EQ(got->size(), 3u);
    for (size_t p = 0; p < 3; ++p) {
      EXPECT_TRUE((*got)[p] == expected->at(p).at(0)) << op << " process " << p;
    }
    // The root's value, or the sum on the root and zeros elsewhere.
    const std::vector<int32_t> root_value =
        op == "collective_reduce" ? std::vector<int32_t>{9, 12} : std::vector<int32_t>{5, 6};
    auto values = (*got)[2].values<ElementType::kSI32>();
    EXPECT_EQ(std::vector<int32_t>(values.begin(), values.end()), root_value) << op;
  }
}

// collective_permute of a quantized tensor moves its storage integers, and
// a process no pair targets holds quantize(0): the zero point (3 here), not
// storage 0. The oracle and the CPU adapter agree on it.
TEST(CollectivesTest, QuantizedCollectivePermuteLeavesTheZeroPointWhereNothingArrives) {
  const std::string q = "tensor<2x!quant.uniform<i8:f32, 5.000000e-01:3>>";
  const std::string text = R"(
module @hlocheck_case {
  func.func @process(%x: )" +
                           q + R"() -> ()" + q + R"() {
    %result = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : ()" +
                           q + ") -> " + q + R"(
    func.return %result : )" +
                           q + R"(
  }
  func.func @main() {
    %x_0 = "stablehlo.constant"() {value = dense<[1, 2]> : tensor<2xi8>} : () -> )" +
                           q + R"(
    %x_1 = "stablehlo.constant"() {value = dense<[5, 6]> : tensor<2xi8>} : () -> )" +
                           q + R"(
    %x_2 = "stablehlo.constant"() {value = dense<[7, 8]> : tensor<2xi8>} : () -> )" +
                           q + R"(
    %results:3 = "interpreter.run_parallel"(%x_0, %x_1, %x_2) {programs = [[@process], [@process], [@process]]} : ()" +
                           q + ", " + q + ", " + q + ") -> (" + q + ", " + q + ", " + q + R"()
    func.return
  }
}
)";
  auto c = mlir::ReadCaseModule(text, "quantized_permute.mlir", TestRegistry());
  ASSERT_TRUE(c.ok()) << c.status();
  auto cpu = CreateAdapter("cpu", {});
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  ASSERT_TRUE((*cpu)->Supports(*c).supported) << (*cpu)->Supports(*c).reason;
  auto got = (*cpu)->Run(*c);
  ASSERT_TRUE(got.ok()) << got.status();
  std::vector<std::vector<Tensor>> operands;
  for (int64_t p = 0; p < 3; ++p) operands.push_back(OneProcess(*c, p).operands);
  auto expected = oracle::GridResults("collective_permute", c->attributes, c->regions,
                                      {c->result_types[0]}, oracle::ProcessGrid{3, 1}, operands);
  ASSERT_TRUE(expected.ok()) << expected.status();
  ASSERT_EQ(got->size(), 3u);
  const std::vector<std::vector<int8_t>> storage = {{3, 3}, {1, 2}, {3, 3}};
  for (size_t p = 0; p < 3; ++p) {
    EXPECT_TRUE((*got)[p] == expected->at(p).at(0)) << "process " << p;
    auto values = expected->at(p).at(0).values<ElementType::kSI8>();
    EXPECT_EQ(std::vector<int8_t>(values.begin(), values.end()), storage[p]) << "process " << p;
  }
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
