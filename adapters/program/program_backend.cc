#include "adapters/program/program_backend.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adapters/external/external_backend.h"
#include "adapters/pjrt/pjrt_backend.h"

namespace hlocheck {
namespace {

// An external driver hosted in a worker: the worker's own case timeout
// (which kills it) comes first, so the driver's is only a backstop.
constexpr double kExternalTimeoutS = 3600;

}  // namespace

absl::StatusOr<std::unique_ptr<ProgramBackend>> CreateInProcessBackend(
    const ProgramBackendSpec& spec) {
  const std::string& name = spec.name;
  auto after = [&](std::string_view prefix) { return name.substr(prefix.size()); };
  if (absl::StartsWith(name, "pjrt:")) return pjrt::CreatePjrtBackend(after("pjrt:"), spec.options);
  if (absl::StartsWith(name, "external:")) {
    return external::CreateExternalBackend(after("external:"), spec.options, kExternalTimeoutS);
  }
  if (absl::StartsWith(name, "selftest-crash:"))
    return CreateCrashingBackend(after("selftest-crash:"));
  if (absl::StartsWith(name, "selftest-hang:"))
    return CreateHangingBackend(after("selftest-hang:"));
  return absl::NotFoundError(
      absl::StrCat("no program backend named '", name,
                   "'; known: pjrt:PLUGIN, external:CONFIG, selftest-crash:OP, "
                   "selftest-hang:OP"));
}

absl::Status WorkerCrashError(std::string message) {
  absl::Status status = absl::AbortedError(std::move(message));
  status.SetPayload(kWorkerFailureUrl, absl::Cord("crash"));
  return status;
}

absl::Status WorkerHangError(std::string message) {
  absl::Status status = absl::DeadlineExceededError(std::move(message));
  status.SetPayload(kWorkerFailureUrl, absl::Cord("hang"));
  return status;
}

bool IsWorkerCrash(const absl::Status& status) {
  auto payload = status.GetPayload(kWorkerFailureUrl);
  return payload.has_value() && *payload == "crash";
}

bool IsWorkerHang(const absl::Status& status) {
  auto payload = status.GetPayload(kWorkerFailureUrl);
  return payload.has_value() && *payload == "hang";
}

}  // namespace hlocheck
