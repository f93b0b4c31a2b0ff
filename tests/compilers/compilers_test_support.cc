#include "tests/compilers/compilers_test_support.h"

#include <unistd.h>

#include "adapters/pjrt/pjrt_backend.h"
#include "oracle/oracle.h"

namespace hlocheck::testing {

std::string XlaCpuPluginPath() {
  if (!pjrt::PjrtAvailable()) return "";
  std::string path = pjrt::KnownPluginPath("xla-cpu");
  return path != "xla-cpu" && access(path.c_str(), R_OK) == 0 ? path : "";
}

AdapterOptions CompilerOptions(double case_timeout_s) {
  AdapterOptions options;
  options.registry = &TestRegistry();
  options.worker_executable = HLOCHECK_BINARY;
  options.case_timeout_s = case_timeout_s;
  return options;
}

GateRun RunGate(Adapter& adapter, std::vector<std::string> ops, std::vector<ElementType> types,
                int64_t cases, const BackendProfile* profile, uint64_t seed) {
  static const Oracle* oracle = new Oracle(&TestRegistry());
  Gate gate(&TestRegistry(), oracle, &adapter);
  gate.SetProfile(profile);
  GateOptions options;
  options.ops = std::move(ops);
  options.types = std::move(types);
  options.cases = cases;
  options.seed = seed;
  options.max_shrink_attempts = 200;
  auto plan = gate.Plan(options);
  EXPECT_TRUE(plan.ok()) << plan.status();
  if (!plan.ok()) return {};
  return gate.Run(options, *plan);
}

BackendProfile ShippedProfile(const std::string& name) {
  auto profile = LoadBackendProfile(
      std::string(HLOCHECK_SOURCE_DIR) + "/backends/" + name + ".yaml", TestRegistry());
  EXPECT_TRUE(profile.ok()) << profile.status();
  return profile.ok() ? *profile : BackendProfile{};
}

const GroupResult* FindGroup(const GateRun& run, const std::string& op, ElementType type) {
  for (const GroupResult& g : run.groups)
    if (g.op == op && g.type == type) return &g;
  return nullptr;
}

}  // namespace hlocheck::testing
