// The PJRT adapter against the real XLA CPU plugin (installed by
// scripts/install-deps), and against plugins that must be refused.
#include <gtest/gtest.h>

#include <cstring>

#include "adapters/pjrt/pjrt_backend.h"
#include "adapters/pjrt/pjrt_client.h"
#include "generators/case_generator.h"
#include "tests/compilers/compilers_test_support.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::CompilerOptions;
using ::hlocheck::testing::FindGroup;
using ::hlocheck::testing::RunGate;
using ::hlocheck::testing::XlaCpuPluginPath;

constexpr char kAddModule[] = R"(module {
  func.func public @main(%lhs: tensor<3xf32>, %rhs: tensor<3xf32>) -> (tensor<3xf32>) {
    %0 = "stablehlo.add"(%lhs, %rhs) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    func.return %0 : tensor<3xf32>
  }
})";

Tensor F32(std::vector<float> values) {
  Tensor t(TensorType({static_cast<int64_t>(values.size())}, ElementType::kF32));
  std::memcpy(t.raw(), values.data(), values.size() * sizeof(float));
  return t;
}

TEST(PjrtTest, XlaCpuLoadsAndSaysWhatItIs) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto client = pjrt::Client::Load(XlaCpuPluginPath());
  ASSERT_TRUE(client.ok()) << client.status();
  const pjrt::PluginInfo& info = (*client)->info();
  EXPECT_EQ(info.api_major, pjrt::BuiltApiVersion().first);
  EXPECT_EQ(info.platform_name, "cpu");
  EXPECT_FALSE(info.Attribute("stablehlo_current_version").empty()) << info.Describe();
}

TEST(PjrtTest, CompilesAndRunsAModuleWithArguments) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto backend = pjrt::CreatePjrtBackend("xla-cpu", {});
  ASSERT_TRUE(backend.ok()) << backend.status();
  std::vector<Tensor> inputs = {F32({1, 2.5f, -3}), F32({10, 0.25f, 3})};
  std::vector<TensorType> results = {TensorType({3}, ElementType::kF32)};
  for (int repeat = 0; repeat < 2; ++repeat) {  // the second from the executable cache
    auto out = (*backend)->Run(kAddModule, inputs, results);
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_EQ(out->size(), 1u);
    auto values = (*out)[0].data<float>();
    EXPECT_EQ(values[0], 11);
    EXPECT_EQ(values[1], 2.75f);
    EXPECT_EQ(values[2], 0);
  }
}

TEST(PjrtTest, ACompileErrorIsAnErrorStatus) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto backend = pjrt::CreatePjrtBackend("xla-cpu", {});
  ASSERT_TRUE(backend.ok()) << backend.status();
  std::string wrong = kAddModule;
  wrong.replace(wrong.find("stablehlo.add"), 13, "stablehlo.nosuchop");
  auto out = (*backend)->Run(wrong, std::vector<Tensor>{F32({1, 2, 3}), F32({1, 2, 3})},
                             std::vector<TensorType>{TensorType({3}, ElementType::kF32)});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("compile"), std::string::npos) << out.status();
}

TEST(PjrtTest, ResultsOfTheWrongTypeAreAnErrorNotGarbage) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto backend = pjrt::CreatePjrtBackend("xla-cpu", {});
  ASSERT_TRUE(backend.ok()) << backend.status();
  auto out = (*backend)->Run(kAddModule, std::vector<Tensor>{F32({1, 2, 3}), F32({1, 2, 3})},
                             std::vector<TensorType>{TensorType({3}, ElementType::kF64)});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("expected tensor<3xf64>"), std::string::npos)
      << out.status();
}

TEST(PjrtTest, PluginsThatCannotServeAreRefusedWithAReason) {
  auto missing = pjrt::Client::Load("/nonexistent/plugin.so");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot load"), std::string::npos);
  // A shared library that is not a plugin.
  auto not_plugin = pjrt::Client::Load("libm.so.6");
  ASSERT_FALSE(not_plugin.ok());
  EXPECT_NE(not_plugin.status().message().find("no GetPjrtApi"), std::string::npos)
      << not_plugin.status();
  if (!pjrt::PjrtAvailable()) GTEST_SKIP() << "built without the PJRT C API header";
  auto wrong_version = pjrt::Client::Load(HLOCHECK_WRONG_VERSION_PLUGIN);
  ASSERT_FALSE(wrong_version.ok());
  EXPECT_NE(wrong_version.status().message().find("speaks PJRT C API 99.0"), std::string::npos)
      << wrong_version.status();
  EXPECT_TRUE(pjrt::ApiVersionCompatible({0, 40}, {0, 81}));
  EXPECT_FALSE(pjrt::ApiVersionCompatible({1, 0}, {0, 81}));
}

// The gate on XLA:CPU through the worker, on ops that XLA:CPU computes as
// the spec says for these types (integers and data movement: no flushing of
// subnormals, no fast-math): every case must pass, and none may be skipped.
TEST(PjrtTest, GateOnXlaCpuPassesExactOps) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto adapter = CreateAdapter("pjrt:xla-cpu", CompilerOptions());
  ASSERT_TRUE(adapter.ok()) << adapter.status();
  GateRun run = RunGate(
      **adapter, {"add", "multiply", "slice", "transpose", "concatenate", "dot_general", "maximum"},
      {ElementType::kSI32}, 15);
  EXPECT_EQ(run.groups.size(), 7u);
  for (const GroupResult& g : run.groups) {
    EXPECT_EQ(g.passed, 15) << g.op << " " << Name(g.type)
                            << (g.findings.empty() ? "" : ": " + g.findings[0].message);
    EXPECT_EQ(g.skipped, 0) << g.op << ": " << g.skip_reason;
  }
}

// Sub-byte elements cross PJRT one per byte in the low bits; -1 as an si4
// must come back as -1, not 15.
TEST(PjrtTest, SubByteIntegersRoundTrip) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto adapter = CreateAdapter("pjrt:xla-cpu", CompilerOptions());
  ASSERT_TRUE(adapter.ok()) << adapter.status();
  GateRun run =
      RunGate(**adapter, {"broadcast_in_dim", "slice", "reshape"},
              {ElementType::kSI2, ElementType::kSI4, ElementType::kUI2, ElementType::kUI4}, 15);
  EXPECT_EQ(run.groups.size(), 12u);
  for (const GroupResult& g : run.groups) {
    EXPECT_EQ(g.passed, 15) << g.op << " " << Name(g.type)
                            << (g.findings.empty() ? "" : ": " + g.findings[0].message);
  }
}

// The same cases with the inputs folded in as constants.
TEST(PjrtTest, GateOnXlaCpuWithConstantInputs) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  AdapterOptions options = CompilerOptions();
  options.inputs_as_constants = true;
  auto adapter = CreateAdapter("pjrt:xla-cpu", options);
  ASSERT_TRUE(adapter.ok()) << adapter.status();
  GateRun run = RunGate(**adapter, {"add", "slice"}, {ElementType::kSI32}, 10);
  for (const GroupResult& g : run.groups) EXPECT_EQ(g.passed, 10) << g.op;
}

Case Generated(const char* op_name, ElementType type, uint64_t seed) {
  const spec::OpSpec* op = ::hlocheck::testing::TestRegistry().Find(op_name);
  EXPECT_NE(op, nullptr) << op_name;
  GenerationOptions options;
  options.primary_type = type;
  return CaseGenerator(*op, options)(rc::Random(seed), 20).value();
}

// Cases compiled as one module (the gate's batches) give each case what it
// gives alone; a case XLA:CPU cannot compile (cbrt on complex numbers) does not
// take the others down with it: the batch is redone case by case, and the
// error is that case's own.
TEST(PjrtTest, ABatchAnswersEachCaseAsItsModuleAlone) {
  HLOCHECK_SKIP_WITHOUT_XLA_CPU();
  auto adapter = CreateAdapter("pjrt:xla-cpu", CompilerOptions());
  ASSERT_TRUE(adapter.ok()) << adapter.status();
  EXPECT_EQ((*adapter)->BatchSize(), 32);
  for (bool with_bad_case : {false, true}) {
    // Other seeds the second time: a module the adapter met before runs
    // alone (its executable is cached), not in the batch.
    const uint64_t seed = with_bad_case ? 10 : 0;
    std::vector<Case> cases = {Generated("add", ElementType::kSI32, seed + 1),
                               Generated("transpose", ElementType::kF32, seed + 2),
                               Generated("multiply", ElementType::kSI16, seed + 3),
                               Generated("dot_general", ElementType::kF32, seed + 4)};
    if (with_bad_case) {
      cases.insert(cases.begin() + 1, Generated("cbrt", ElementType::kComplexF32, seed + 5));
    }
    std::vector<const Case*> batch;
    for (const Case& c : cases) batch.push_back(&c);
    auto answers = (*adapter)->RunBatch(batch);
    ASSERT_EQ(answers.size(), cases.size());
    for (size_t i = 0; i < cases.size(); ++i) {
      auto alone = (*adapter)->Run(cases[i]);
      ASSERT_EQ(answers[i].ok(), alone.ok()) << cases[i].op << ": " << answers[i].status();
      if (alone.ok()) {
        EXPECT_EQ(*answers[i], *alone) << cases[i].op;
      } else {
        EXPECT_EQ(answers[i].status().message(), alone.status().message());
      }
    }
    if (with_bad_case) {
      EXPECT_FALSE(answers[1].ok());
    }
  }
}

}  // namespace
}  // namespace hlocheck
