// hlocheck's version, as reports and --version print it.
#ifndef HLOCHECK_RUNNERS_VERSION_H_
#define HLOCHECK_RUNNERS_VERSION_H_

#include <string>

namespace hlocheck {

// "0.1.0 (b8f9921c0ffe)": the release and the commit it was built from
// (git describe; "-dirty" when the checkout had changes).
std::string HlocheckVersion();

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_VERSION_H_
