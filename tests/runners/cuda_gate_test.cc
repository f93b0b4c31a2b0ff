// The CUDA adapter through the gate. Everywhere: its kernels on the host
// (cuda-host) pass every op and type they implement, and each planted CUDA
// fault (faulty-cuda-host-*) is caught and shrunk. Where a GPU is present:
// the same on the device (scripts/gpu-check runs these); where none is,
// `--backend cuda` is a usage error that says "no CUDA device".
#include <gtest/gtest.h>

#include <algorithm>

#include <yaml-cpp/yaml.h>

#include "adapters/cuda/cuda_adapter.h"
#include "runners/backend_profile.h"
#include "runners/commands.h"
#include "runners/gate.h"

namespace hlocheck {
namespace {

bool HaveCudaDevice() { return CudaAdapter::OnDevice("cuda").ok(); }

absl::StatusOr<GateRun> RunGate(Adapter& adapter, std::vector<std::string> ops, int64_t cases,
                                std::vector<ElementType> types = {}) {
  auto registry = spec::DefaultRegistry();
  HLOCHECK_RETURN_IF_ERROR(registry.status());
  Oracle oracle(*registry);
  Gate gate(*registry, &oracle, &adapter);
  GateOptions options;
  options.ops = std::move(ops);
  options.types = std::move(types);
  options.cases = cases;
  options.seed = 20261128;
  return gate.Run(options);
}

void ExpectEveryOpPasses(Adapter& adapter, int64_t cases) {
  auto run = RunGate(adapter, CudaAdapter::Ops(), cases);
  ASSERT_TRUE(run.ok()) << run.status();
  int64_t passed = 0;
  std::set<std::string> ops_drawn;
  std::set<std::string> ops_run;
  for (const GroupResult& group : run->groups) {
    EXPECT_EQ(group.failed, 0) << group.op << " " << Name(group.type) << ": "
                               << (group.findings.empty() ? "" : group.findings[0].reproducer);
    passed += group.passed;
    ops_drawn.insert(group.op);
    if (group.passed > 0) ops_run.insert(group.op);
  }
  // Every op the adapter lists that the gate draws runs for some type: none
  // is listed but always declined. (The gate draws no cases of after_all
  // and the receiving transfers; programs run them.)
  for (const std::string& op : CudaAdapter::Ops()) {
    if (ops_drawn.count(op) == 0) continue;
    EXPECT_TRUE(ops_run.count(op) > 0) << op << " never ran on " << adapter.name();
  }
  EXPECT_GE(ops_run.size(), CudaAdapter::Ops().size() - 3);
  EXPECT_GT(passed, 0);
}

TEST(CudaHostGate, EveryImplementedOpAndTypePasses) {
  std::unique_ptr<CudaAdapter> adapter = CudaAdapter::OnHost("cuda-host");
  ExpectEveryOpPasses(*adapter, 60);
}

// Quantized cases on the CUDA kernels (on the host): data movement on the
// storage integers, the other ops through the expressed type; every case
// passes and nearly all run (a case is declined for a type CUDA lacks).
TEST(CudaHostGate, QuantizedCasesRunAndPass) {
  std::unique_ptr<CudaAdapter> adapter = CudaAdapter::OnHost("cuda-host");
  auto run = RunGate(*adapter,
                     {"add", "multiply", "tanh", "compare", "dot_general", "transpose", "reshape",
                      "uniform_quantize", "uniform_dequantize"},
                     200, {ElementType::kF32, ElementType::kBF16});
  ASSERT_TRUE(run.ok()) << run.status();
  int64_t quantized = 0;
  int64_t declined = 0;
  for (const GroupResult& group : run->groups) {
    EXPECT_EQ(group.failed, 0) << group.op << " " << Name(group.type) << ": "
                               << (group.findings.empty() ? "" : group.findings[0].reproducer);
    quantized += group.quantized_cases;
    declined += group.quantized_skipped;
  }
  EXPECT_GT(quantized, 300);
  EXPECT_LT(declined * 10, quantized) << declined << " of " << quantized << " declined";
}

TEST(CudaDeviceGate, EveryImplementedOpAndTypePasses) {
  absl::StatusOr<std::unique_ptr<CudaAdapter>> adapter = CudaAdapter::OnDevice("cuda");
  if (!adapter.ok()) GTEST_SKIP() << adapter.status().message();
  ExpectEveryOpPasses(**adapter, 200);
}

TEST(CudaDevice, WithoutOneTheBackendIsAUsageError) {
  if (HaveCudaDevice()) GTEST_SKIP() << "a CUDA device is present";
  absl::StatusOr<std::unique_ptr<Adapter>> adapter = CreateAdapter("cuda", AdapterOptions{});
  ASSERT_FALSE(adapter.ok());
  EXPECT_EQ(adapter.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(adapter.status().message().find("no CUDA device"), std::string_view::npos)
      << adapter.status();
  // In one process, and in workers: there a child looks for the device
  // before they fork, and the absence is said once.
  for (const char* workers : {"1", "3"}) {
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(RunCommand({"--backend", "cuda", "--ops", "add,subtract", "--cases", "5", "--quiet",
                          "--workers", workers}),
              kExitUsage);
    const std::string err = ::testing::internal::GetCapturedStderr();
    const size_t first = err.find("no CUDA device");
    EXPECT_NE(first, std::string::npos) << err;
    EXPECT_EQ(err.find("no CUDA device", first + 1), std::string::npos) << err;
  }
}

// `hlocheck spec` lists the cuda column without a GPU: its ops are known
// without creating it.
TEST(CudaDevice, ItsOpsAreListedWithoutOne) {
  std::vector<AdapterDescription> list = ListAdapters();
  auto cuda = std::find_if(list.begin(), list.end(),
                           [](const AdapterDescription& d) { return d.name == "cuda"; });
  ASSERT_NE(cuda, list.end());
  ASSERT_NE(cuda->implemented_ops, nullptr);
  EXPECT_EQ(cuda->implemented_ops(), CudaAdapter::Ops());
  EXPECT_TRUE(RunsOnGpu("cuda"));
  EXPECT_TRUE(RunsOnGpu("faulty-cuda-tf32"));
  EXPECT_FALSE(RunsOnGpu("faulty-cuda-host-tf32"));
  EXPECT_FALSE(RunsOnGpu("cuda-host"));
}

// backends/cuda.yaml loads, is the default profile of `cuda`, and every
// ULP bound it lists from CUDA's documentation is within the spec's bound
// for the op and type (else it would have to declare a deviation).
TEST(CudaProfile, DocumentedMathBoundsAreWithinTheSpecs) {
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  const std::string path = std::string(HLOCHECK_SOURCE_DIR) + "/backends/cuda.yaml";
  EXPECT_EQ(DefaultProfilePath("cuda"), path);
  EXPECT_EQ(DefaultProfilePath("cuda-host"), "");
  auto profile = LoadBackendProfile(path, **registry);
  ASSERT_TRUE(profile.ok()) << profile.status();
  EXPECT_TRUE(profile->deviations.empty());
  const YAML::Node bounds = YAML::LoadFile(path)["math_library_ulp"];
  ASSERT_TRUE(bounds.IsMap());
  const std::vector<std::string> ops = CudaAdapter::Ops();
  int checked = 0;
  for (const auto& entry : bounds) {
    const std::string op = entry.first.as<std::string>();
    const spec::OpSpec* spec = (*registry)->Find(op);
    ASSERT_NE(spec, nullptr) << op;
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op << " is not a CUDA op";
    for (const auto& type_bound : entry.second) {
      const std::optional<ElementType> type = ParseElementType(type_bound.first.as<std::string>());
      ASSERT_TRUE(type.has_value());
      EXPECT_LE(type_bound.second.as<int>(), spec->numerics.AllowedUlp(*type))
          << op << " " << Name(*type) << ": CUDA documents more than the spec allows";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 28);
}

struct CudaFaultCase {
  std::string fault;
  std::string op;
  ElementType type;
  int64_t max_minimal_elements;

  friend void PrintTo(const CudaFaultCase& c, std::ostream* out) {
    *out << c.fault << " on " << c.op << " " << Name(c.type);
  }
};

class CudaFaultTest : public ::testing::TestWithParam<CudaFaultCase> {};

void ExpectCaught(Adapter& adapter, const CudaFaultCase& fault) {
  auto run = RunGate(adapter, {fault.op}, 300, {fault.type});
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->groups.size(), 1u);
  const GroupResult& group = run->groups[0];
  EXPECT_GT(group.failed, 0) << adapter.name() << " went unnoticed";
  ASSERT_FALSE(group.findings.empty());
  const Finding& finding = group.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::kMismatch);
  EXPECT_LE(finding.minimal_elements, fault.max_minimal_elements) << finding.reproducer;
  EXPECT_LE(finding.minimal_elements, finding.original_elements);
  EXPECT_NE(finding.reproducer.find("\"stablehlo." + fault.op + "\""), std::string::npos)
      << finding.reproducer;
}

TEST_P(CudaFaultTest, IsCaughtAndShrunkOnTheHost) {
  const CudaFaultCase& fault = GetParam();
  auto adapter = CreateAdapter("faulty-cuda-host-" + fault.fault, AdapterOptions{});
  ASSERT_TRUE(adapter.ok()) << adapter.status();
  ExpectCaught(**adapter, fault);
}

TEST_P(CudaFaultTest, IsCaughtAndShrunkOnTheDevice) {
  const CudaFaultCase& fault = GetParam();
  auto adapter = CreateAdapter("faulty-cuda-" + fault.fault, AdapterOptions{});
  if (!adapter.ok()) GTEST_SKIP() << adapter.status().message();
  ExpectCaught(**adapter, fault);
}

INSTANTIATE_TEST_SUITE_P(Faults, CudaFaultTest,
                         ::testing::Values(
                             // One subnormal operand is enough.
                             CudaFaultCase{"ftz", "add", ElementType::kF32, 2},
                             CudaFaultCase{"tf32", "dot_general", ElementType::kF32, 16},
                             // A row longer than the tree's 32 lanes and not a multiple of them.
                             CudaFaultCase{"reduce-drops-block", "reduce", ElementType::kSI32, 600},
                             // A last dimension that reaches a tile's edge.
                             CudaFaultCase{"transpose-tile-edge", "transpose", ElementType::kSI8,
                                           64}),
                         [](const ::testing::TestParamInfo<CudaFaultCase>& info) {
                           std::string name = info.param.fault;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace hlocheck
