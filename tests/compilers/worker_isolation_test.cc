// A backend that aborts or never answers does not stop the gate: its cases
// become crash and hang findings, the worker is started again, and the
// other ops' cases still run (on the self-test backends, which return zeros
// for every op but the one they misbehave on).
#include <gtest/gtest.h>

#include "adapters/program/program_adapter.h"
#include "adapters/worker/worker_backend.h"
#include "tests/compilers/compilers_test_support.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::CompilerOptions;
using ::hlocheck::testing::FindGroup;
using ::hlocheck::testing::RunGate;

TEST(WorkerIsolationTest, ACrashIsAFindingAndTheRunGoesOn) {
  auto adapter = CreateAdapter("selftest-crash:abs", CompilerOptions());
  ASSERT_TRUE(adapter.ok()) << adapter.status();
  GateRun run = RunGate(**adapter, {"abs", "negate"}, {ElementType::kSI32}, 10);
  const GroupResult* abs = FindGroup(run, "abs", ElementType::kSI32);
  const GroupResult* negate = FindGroup(run, "negate", ElementType::kSI32);
  ASSERT_NE(abs, nullptr);
  ASSERT_NE(negate, nullptr);
  EXPECT_EQ(abs->failed, 10);
  ASSERT_EQ(abs->findings.size(), 1u);
  EXPECT_EQ(abs->findings[0].kind, FindingKind::kBackendCrash);
  EXPECT_NE(abs->findings[0].message.find("signal 6"), std::string::npos)
      << abs->findings[0].message;
  // negate ran after ten crashes: zeros pass where the input is 0 and
  // mismatch elsewhere, but none is a crash.
  EXPECT_EQ(negate->passed + negate->failed, 10);
  for (const Finding& f : negate->findings) EXPECT_EQ(f.kind, FindingKind::kMismatch);
  auto* program = dynamic_cast<ProgramAdapter*>(adapter->get());
  ASSERT_NE(program, nullptr);
  auto* worker = dynamic_cast<worker::WorkerBackend*>(&program->backend());
  ASSERT_NE(worker, nullptr);
  EXPECT_GE(worker->restarts(), 10);
}

TEST(WorkerIsolationTest, AHangIsAFindingAfterTheCaseTimeout) {
  auto adapter = CreateAdapter("selftest-hang:abs", CompilerOptions(/*case_timeout_s=*/0.5));
  ASSERT_TRUE(adapter.ok()) << adapter.status();
  GateRun run = RunGate(**adapter, {"abs", "negate"}, {ElementType::kSI32}, 2);
  const GroupResult* abs = FindGroup(run, "abs", ElementType::kSI32);
  const GroupResult* negate = FindGroup(run, "negate", ElementType::kSI32);
  ASSERT_NE(abs, nullptr);
  ASSERT_NE(negate, nullptr);
  EXPECT_EQ(abs->failed, 2);
  ASSERT_EQ(abs->findings.size(), 1u);
  EXPECT_EQ(abs->findings[0].kind, FindingKind::kBackendHang);
  EXPECT_NE(abs->findings[0].message.find("no answer within 0.5 s"), std::string::npos)
      << abs->findings[0].message;
  EXPECT_EQ(negate->passed + negate->failed, 2);
}

TEST(WorkerIsolationTest, ABackendThatCannotStartIsAnErrorNotAFinding) {
  auto adapter = CreateAdapter("pjrt:/nonexistent/plugin.so", CompilerOptions());
  ASSERT_FALSE(adapter.ok());
  EXPECT_NE(adapter.status().message().find("cannot load the PJRT plugin /nonexistent/plugin.so"),
            std::string::npos)
      << adapter.status();
  auto unknown = CreateAdapter("selftest-nothing:abs", CompilerOptions());
  EXPECT_FALSE(unknown.ok());
}

TEST(WorkerIsolationTest, AMissingWorkerBinaryIsAnError) {
  AdapterOptions options = CompilerOptions();
  options.worker_executable = "/nonexistent/hlocheck";
  auto adapter = CreateAdapter("selftest-crash:abs", options);
  ASSERT_FALSE(adapter.ok());
  EXPECT_NE(adapter.status().message().find("/nonexistent/hlocheck"), std::string::npos)
      << adapter.status();
}

}  // namespace
}  // namespace hlocheck
