// What the commands that check cases need: the spec, the oracle and a
// backend, wired into a Gate.
#ifndef HLOCHECK_RUNNERS_SESSION_H_
#define HLOCHECK_RUNNERS_SESSION_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runners/flags.h"
#include "runners/gate.h"

namespace hlocheck {

struct Session {
  const spec::SpecRegistry* registry = nullptr;
  std::unique_ptr<Oracle> oracle;
  std::unique_ptr<Adapter> adapter;
  std::unique_ptr<Gate> gate;
};

// Loads the default spec directory and creates the named backend.
absl::StatusOr<std::unique_ptr<Session>> OpenSession(const std::string& backend,
                                                     AdapterOptions options);
absl::StatusOr<std::unique_ptr<Session>> OpenSession(const std::string& backend, int threads);

// The flags of the backends that compile programs (pjrt:, external:):
// --backend-option KEY=VALUE (repeatable), --inputs arguments|constants,
// --case-timeout SECONDS; and their values into `options`.
void AddCompilerFlags(Flags& flags);
absl::Status ApplyCompilerFlags(const Flags& flags, AdapterOptions& options);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_SESSION_H_
