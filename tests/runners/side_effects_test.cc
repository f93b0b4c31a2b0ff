// Transfers in programs: send and recv pair up over channels between the
// processes of a grid, in the order sent; a recv that nothing will ever
// reach is a reported deadlock naming the channel, at once, not a hang;
// infeed takes run_parallel's queue, and a lone program's host side is
// interpreter.incoming and interpreter.outgoing (the form a transfer
// case's reproducer takes). The corpus's send_recv, infeed and outfeed
// files pass too (CorpusTest).
#include <gtest/gtest.h>

#include <chrono>

#include "runners/interpret.h"
#include "tests/support/last_function.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;
using Kind = FunctionOutcome::Kind;

FunctionOutcome Interpret(const std::string& text) {
  return ::hlocheck::testing::InterpretLastFunction(text, "side_effects_test.mlir");
}

// Process (0, 0) receives on channel 5, process (1, 0) sends on channel 4:
// neither can go on, and the error says where each stands.
TEST(SideEffectsTest, ARecvWithoutAMatchingSendIsADeadlockNamingTheChannel) {
  const auto start = std::chrono::steady_clock::now();
  const FunctionOutcome f = Interpret(R"(
module @deadlock {
  func.func @receiver(%t: !stablehlo.token) -> tensor<2xi64> {
    %v, %t1 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}
      : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
    func.return %v : tensor<2xi64>
  }
  func.func @sender(%t: !stablehlo.token) -> tensor<2xi64> {
    %x = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %t1 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>}
      : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
    func.return %x : tensor<2xi64>
  }
  func.func @main() {
    %t = stablehlo.after_all : !stablehlo.token
    %r:2 = "interpreter.run_parallel"(%t, %t) {programs = [[@receiver], [@sender]]}
      : (!stablehlo.token, !stablehlo.token) -> (tensor<2xi64>, tensor<2xi64>)
    func.return
  }
}
)");
  EXPECT_EQ(f.kind, Kind::kError) << KindName(f.kind) << ": " << f.message;
  EXPECT_NE(f.message.find("deadlock"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("process (0, 0) waits to receive on channel 5"), std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("process (1, 0) has finished"), std::string::npos) << f.message;
  // Reported when it happens, not after a timeout (the public interpreter
  // gives up after 3 s).
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

// A ring of three processes: each sends to the next on its own channel,
// then receives from the previous. Sends never block, so the ring
// completes whatever order the threads run in.
TEST(SideEffectsTest, SendsAndRecvsPairUpOverChannelsBetweenProcesses) {
  const FunctionOutcome f = Interpret(R"(
module @ring {
  func.func @p0(%x: tensor<i64>, %t: !stablehlo.token) -> tensor<i64> {
    %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}
      : (tensor<i64>, !stablehlo.token) -> !stablehlo.token
    %v, %t1 = "stablehlo.recv"(%s) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>}
      : (!stablehlo.token) -> (tensor<i64>, !stablehlo.token)
    func.return %v : tensor<i64>
  }
  func.func @p1(%x: tensor<i64>, %t: !stablehlo.token) -> tensor<i64> {
    %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}
      : (tensor<i64>, !stablehlo.token) -> !stablehlo.token
    %v, %t1 = "stablehlo.recv"(%s) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}
      : (!stablehlo.token) -> (tensor<i64>, !stablehlo.token)
    func.return %v : tensor<i64>
  }
  func.func @p2(%x: tensor<i64>, %t: !stablehlo.token) -> tensor<i64> {
    %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>}
      : (tensor<i64>, !stablehlo.token) -> !stablehlo.token
    %v, %t1 = "stablehlo.recv"(%s) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}
      : (!stablehlo.token) -> (tensor<i64>, !stablehlo.token)
    func.return %v : tensor<i64>
  }
  func.func @main() {
    %t = stablehlo.after_all : !stablehlo.token
    %a = stablehlo.constant dense<10> : tensor<i64>
    %b = stablehlo.constant dense<20> : tensor<i64>
    %c = stablehlo.constant dense<30> : tensor<i64>
    %r:3 = "interpreter.run_parallel"(%a, %t, %b, %t, %c, %t) {programs = [[@p0, @p1, @p2]]}
      : (tensor<i64>, !stablehlo.token, tensor<i64>, !stablehlo.token, tensor<i64>, !stablehlo.token)
      -> (tensor<i64>, tensor<i64>, tensor<i64>)
    check.expect_eq_const %r#0, dense<30> : tensor<i64>
    check.expect_eq_const %r#1, dense<10> : tensor<i64>
    check.expect_eq_const %r#2, dense<20> : tensor<i64>
    func.return
  }
}
)");
  EXPECT_EQ(f.kind, Kind::kPassed) << KindName(f.kind) << ": " << f.message;
}

// The host's side of a lone program: two messages queued for infeed come
// out in order, and what outfeed gives away is taken back.
TEST(SideEffectsTest, ALoneProgramsHostQueuesAreIncomingAndOutgoing) {
  const FunctionOutcome f = Interpret(R"(
func.func @main() {
  %t = stablehlo.after_all : !stablehlo.token
  %one = stablehlo.constant dense<[1.5, 2.5]> : tensor<2xf32>
  %two = stablehlo.constant dense<7> : tensor<ui8>
  "interpreter.incoming"(%one) : (tensor<2xf32>) -> ()
  "interpreter.incoming"(%two) : (tensor<ui8>) -> ()
  %a, %t1 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  %b, %t2 = "stablehlo.infeed"(%t1) : (!stablehlo.token) -> (tensor<ui8>, !stablehlo.token)
  %t3 = "stablehlo.outfeed"(%b, %a, %t2) : (tensor<ui8>, tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %out:2 = "interpreter.outgoing"() : () -> (tensor<ui8>, tensor<2xf32>)
  check.expect_eq_const %out#0, dense<7> : tensor<ui8>
  check.expect_eq_const %out#1, dense<[1.5, 2.5]> : tensor<2xf32>
  func.return
}
)");
  EXPECT_EQ(f.kind, Kind::kPassed) << KindName(f.kind) << ": " << f.message;
  // An infeed with nothing queued is an error that says so.
  const FunctionOutcome empty = Interpret(R"(
func.func @main() {
  %t = stablehlo.after_all : !stablehlo.token
  %a, %t1 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  func.return
}
)");
  EXPECT_EQ(empty.kind, Kind::kError) << KindName(empty.kind);
  EXPECT_NE(empty.message.find("nothing is left on the infeed queue"), std::string::npos)
      << empty.message;
}

}  // namespace
}  // namespace hlocheck
