// Built instead of pjrt_client.cc and pjrt_backend.cc when configure found
// no pjrt_c_api.h (the plugin wheel that carries it is installed by
// scripts/install-deps): every pjrt: backend is then a clear error.
#include "absl/strings/str_cat.h"
#include "adapters/pjrt/pjrt_backend.h"
#include "adapters/pjrt/pjrt_client.h"

namespace hlocheck::pjrt {

bool PjrtAvailable() { return false; }
bool HasPjrtType(ElementType) { return false; }
std::string KnownPluginPath(const std::string& name) { return name; }

absl::StatusOr<std::unique_ptr<ProgramBackend>> CreatePjrtBackend(
    const std::string& plugin, const std::map<std::string, std::string>&) {
  return absl::UnimplementedError(absl::StrCat(
      "pjrt:", plugin,
      ": this hlocheck was built without the PJRT C API header; run "
      "scripts/install-deps (it installs the plugin wheel that carries pjrt_c_api.h) and "
      "configure again"));
}

}  // namespace hlocheck::pjrt
