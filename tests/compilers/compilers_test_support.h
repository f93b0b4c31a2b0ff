// What the compiler-backend tests share: the worker binary, the installed
// XLA CPU plugin (or a skip that says how to install it), a gate run.
#ifndef HLOCHECK_TESTS_COMPILERS_COMPILERS_TEST_SUPPORT_H_
#define HLOCHECK_TESTS_COMPILERS_COMPILERS_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "runners/backend_profile.h"
#include "runners/gate.h"
#include "tests/support/spec_registry.h"

namespace hlocheck::testing {

// The plugin scripts/install-deps installs, or "" when it is not there.
std::string XlaCpuPluginPath();

#define HLOCHECK_SKIP_WITHOUT_XLA_CPU()                                                  \
  if (::hlocheck::testing::XlaCpuPluginPath().empty())                                   \
  GTEST_SKIP() << "the XLA CPU PJRT plugin is not installed here; scripts/install-deps " \
                  "installs it (.venv), then configure again"

AdapterOptions CompilerOptions(double case_timeout_s = 60);

// The gate over `ops` x `types`, `cases` each, on `adapter`.
GateRun RunGate(Adapter& adapter, std::vector<std::string> ops, std::vector<ElementType> types,
                int64_t cases, const BackendProfile* profile = nullptr, uint64_t seed = 20261126);

// backends/NAME.yaml, loaded (the test fails if it does not load).
BackendProfile ShippedProfile(const std::string& name);

const GroupResult* FindGroup(const GateRun& run, const std::string& op, ElementType type);

}  // namespace hlocheck::testing

#endif  // HLOCHECK_TESTS_COMPILERS_COMPILERS_TEST_SUPPORT_H_
