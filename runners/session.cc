#include "runners/session.h"

#include "absl/strings/numbers.h"
#include "adapters/program/program_adapter.h"
#include "core/status_macros.h"

namespace hlocheck {

absl::StatusOr<std::unique_ptr<Session>> OpenSession(const std::string& backend,
                                                     AdapterOptions options) {
  auto registry = spec::DefaultRegistry();
  HLOCHECK_RETURN_IF_ERROR(registry.status());
  options.registry = *registry;
  auto adapter = CreateAdapter(backend, options);
  HLOCHECK_RETURN_IF_ERROR(adapter.status());
  auto session = std::make_unique<Session>();
  session->registry = *registry;
  session->oracle = std::make_unique<Oracle>(*registry);
  session->adapter = *std::move(adapter);
  session->gate = std::make_unique<Gate>(*registry, session->oracle.get(), session->adapter.get());
  std::string profile = options.profile_path.empty()     ? DefaultProfilePath(backend)
                        : options.profile_path == "none" ? ""
                                                         : options.profile_path;
  if (!profile.empty()) {
    auto loaded = LoadBackendProfile(profile, **registry);
    HLOCHECK_RETURN_IF_ERROR(loaded.status());
    session->profile = *std::move(loaded);
    session->gate->SetProfile(&*session->profile);
  }
  return session;
}

absl::StatusOr<std::unique_ptr<Session>> OpenSession(const std::string& backend, int threads) {
  AdapterOptions options;
  options.threads = threads;
  return OpenSession(backend, std::move(options));
}

absl::StatusOr<std::unique_ptr<Session>> OpenSession(const Flags& flags, int threads) {
  AdapterOptions options(threads);
  HLOCHECK_RETURN_IF_ERROR(ApplyCompilerFlags(flags, options));
  return OpenSession(flags.Get("backend"), std::move(options));
}

void AddCompilerFlags(Flags& flags) {
  flags.Add("backend-option", "KEY=VALUE",
            "for pjrt: and external: backends, repeatable: an XLA debug option (e.g. "
            "xla_cpu_enable_fast_min_max=false), client.NAME=VALUE for the PJRT client, or a "
            "driver's option");
  flags.Add("inputs", "arguments|constants",
            "for pjrt: and external: backends: inputs as @main's arguments, or as constants "
            "(which compilers fold: a code path of its own)",
            "arguments");
  flags.Add("profile", "FILE|none",
            "the backend's declared deviations (default: backends/NAME.yaml for pjrt:NAME and "
            "external:NAME); none: hold the backend to the spec alone");
  flags.Add("case-timeout", "SECONDS",
            "for pjrt: and external: backends: a module (one case, or a batch) that takes longer "
            "is a hang finding (a batch is first redone case by case)",
            "60");
  flags.Add("batch", "N",
            "for pjrt: and external: backends: cases compiled together as one module (the "
            "compiler's fixed cost paid once per N cases; 1: one module per case)",
            std::to_string(ProgramAdapter::kDefaultBatchSize));
}

absl::Status ApplyBackendOptions(const Flags& flags, AdapterOptions& options) {
  for (const std::string& option : flags.GetAll("backend-option")) {
    size_t eq = option.find('=');
    if (eq == std::string::npos || eq == 0) {
      return absl::InvalidArgumentError("--backend-option " + option + ": expected KEY=VALUE");
    }
    options.backend_options[option.substr(0, eq)] = option.substr(eq + 1);
  }
  return absl::OkStatus();
}

absl::Status ApplyCompilerFlags(const Flags& flags, AdapterOptions& options) {
  HLOCHECK_RETURN_IF_ERROR(ApplyBackendOptions(flags, options));
  const std::string inputs = flags.Get("inputs");
  if (inputs != "arguments" && inputs != "constants") {
    return absl::InvalidArgumentError("--inputs " + inputs + ": expected arguments or constants");
  }
  options.inputs_as_constants = inputs == "constants";
  double timeout = 0;
  if (!absl::SimpleAtod(flags.Get("case-timeout"), &timeout) || !(timeout > 0)) {
    return absl::InvalidArgumentError("--case-timeout " + flags.Get("case-timeout") +
                                      ": expected a positive number of seconds");
  }
  options.case_timeout_s = timeout;
  int batch = 0;
  if (!absl::SimpleAtoi(flags.Get("batch"), &batch) || batch < 1) {
    return absl::InvalidArgumentError("--batch " + flags.Get("batch") +
                                      ": expected a positive number of cases");
  }
  options.batch_size = batch;
  options.profile_path = flags.Get("profile");
  return absl::OkStatus();
}

}  // namespace hlocheck
