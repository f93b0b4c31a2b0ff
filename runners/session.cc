#include "runners/session.h"
#include "core/status_macros.h"

namespace hlocheck {

absl::StatusOr<std::unique_ptr<Session>> OpenSession(const std::string& backend, int threads) {
  auto registry = spec::DefaultRegistry();
  HLOCHECK_RETURN_IF_ERROR(registry.status());
  AdapterOptions options;
  options.threads = threads;
  auto adapter = CreateAdapter(backend, options);
  HLOCHECK_RETURN_IF_ERROR(adapter.status());
  auto session = std::make_unique<Session>();
  session->registry = *registry;
  session->oracle = std::make_unique<Oracle>(*registry);
  session->adapter = *std::move(adapter);
  session->gate = std::make_unique<Gate>(*registry, session->oracle.get(), session->adapter.get());
  return session;
}

}  // namespace hlocheck
