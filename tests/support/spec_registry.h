// The spec registry the tests read (spec/ops, loaded once by
// spec::DefaultRegistry); a test that calls it fails where it does not load.
#ifndef HLOCHECK_TESTS_SUPPORT_SPEC_REGISTRY_H_
#define HLOCHECK_TESTS_SUPPORT_SPEC_REGISTRY_H_

#include "spec/registry.h"

namespace hlocheck::testing {

const spec::SpecRegistry& TestRegistry();

}  // namespace hlocheck::testing

#endif  // HLOCHECK_TESTS_SUPPORT_SPEC_REGISTRY_H_
