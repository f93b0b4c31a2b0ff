#include "runners/version.h"

#include "hlocheck_version.h"  // generated at build time (cmake/write_version.cmake)

namespace hlocheck {

std::string HlocheckVersion() { return HLOCHECK_VERSION; }

}  // namespace hlocheck
