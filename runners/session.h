// What the commands that check cases need: the spec, the oracle and a
// backend, wired into a Gate.
#ifndef HLOCHECK_RUNNERS_SESSION_H_
#define HLOCHECK_RUNNERS_SESSION_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "runners/backend_profile.h"
#include "runners/flags.h"
#include "runners/gate.h"

namespace hlocheck {

struct Session {
  const spec::SpecRegistry* registry = nullptr;
  std::unique_ptr<Oracle> oracle;
  std::unique_ptr<Adapter> adapter;
  std::unique_ptr<Gate> gate;
  std::optional<BackendProfile> profile;  // the backend's declared deviations, if it has a profile
};

// Loads the default spec directory, creates the named backend and loads its
// profile: options.profile_path, or backends/NAME.yaml for pjrt:NAME and
// external:NAME; "none" for no profile (every deviation then fails the run).
absl::StatusOr<std::unique_ptr<Session>> OpenSession(const std::string& backend,
                                                     AdapterOptions options);
absl::StatusOr<std::unique_ptr<Session>> OpenSession(const std::string& backend, int threads);

// The flags of the backends that compile programs (pjrt:, external:):
// --backend-option KEY=VALUE (repeatable), --inputs arguments|constants,
// --case-timeout SECONDS; and their values into `options`.
void AddCompilerFlags(Flags& flags);
absl::Status ApplyCompilerFlags(const Flags& flags, AdapterOptions& options);
// Only --backend-option KEY=VALUE (repeatable) into options.backend_options,
// for a command that declares that flag alone (programs).
absl::Status ApplyBackendOptions(const Flags& flags, AdapterOptions& options);

// The session a command's flags ask for: --backend, with `threads` and the
// compiler flags (a bad value of one of those is the error).
absl::StatusOr<std::unique_ptr<Session>> OpenSession(const Flags& flags, int threads);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_SESSION_H_
