#include "tests/support/spec_registry.h"

#include <gtest/gtest.h>

namespace hlocheck::testing {

const spec::SpecRegistry& TestRegistry() {
  auto registry = spec::DefaultRegistry();
  EXPECT_TRUE(registry.ok()) << registry.status();
  return **registry;
}

}  // namespace hlocheck::testing
