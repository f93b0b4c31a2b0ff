// A PJRT plugin as a ProgramBackend: compiles each distinct module once
// (an executable cache keyed by module text: cases of one op, type, shape
// and attributes share a module when their inputs are arguments) and runs it.
#ifndef HLOCHECK_ADAPTERS_PJRT_PJRT_BACKEND_H_
#define HLOCHECK_ADAPTERS_PJRT_PJRT_BACKEND_H_

#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "adapters/program/program_backend.h"

namespace hlocheck::pjrt {

// `plugin`: a path to a plugin .so, or a name KnownPluginPath knows.
// `options`: --backend-option KEY=VALUE pairs. KEY `client.NAME` is a
// client-creation option (PJRT_Client_Create); `cache_size` bounds the
// executable cache (default 512); every other KEY is an XLA debug option
// passed through CompileOptionsProto.env_option_overrides (e.g.
// xla_cpu_enable_fast_min_max=false). hlocheck sets no XLA option of its
// own: a gate sees XLA as the C API's callers get it, with XLA's defaults.
absl::StatusOr<std::unique_ptr<ProgramBackend>> CreatePjrtBackend(
    const std::string& plugin, const std::map<std::string, std::string>& options);

// The plugin path for a name the install step knows ("xla-cpu"), or the
// argument itself when it is not such a name. $HLOCHECK_PJRT_XLA_CPU
// overrides the path configured at build time.
std::string KnownPluginPath(const std::string& name);

// Whether this build has the PJRT C API (its header was found at configure time).
bool PjrtAvailable();

}  // namespace hlocheck::pjrt

#endif  // HLOCHECK_ADAPTERS_PJRT_PJRT_BACKEND_H_
