// The table of backends the runner can name. Each entry builds its adapter;
// adding a backend is adding a line.
#include <array>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "adapters/adapter.h"
#include "adapters/cpu/cpu_adapter.h"
#include "adapters/external/external_backend.h"
#include "adapters/faulty/faulty_adapters.h"
#include "adapters/pjrt/pjrt_backend.h"
#include "adapters/pjrt/pjrt_client.h"
#include "adapters/program/program_adapter.h"
#include "adapters/worker/worker_backend.h"

namespace hlocheck {
namespace {

struct AdapterEntry {
  const char* name;
  const char* description;
  bool self_test;
  std::unique_ptr<Adapter> (*create)(const AdapterOptions&);
};

const std::array<AdapterEntry, 1> kAdapters = {{
    {"cpu", "Eigen Tensor module on a thread pool (the way XLA:CPU runs ops)", false,
     [](const AdapterOptions& options) -> std::unique_ptr<Adapter> {
       return std::make_unique<CpuAdapter>(options);
     }},
}};

bool IsProgramBackendName(std::string_view name) {
  for (std::string_view prefix : {"pjrt:", "external:", "selftest-crash:", "selftest-hang:"}) {
    if (name.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

std::vector<AdapterDescription> ProgramBackendDescriptions() {
  return {
      {"pjrt:PLUGIN", "a PJRT plugin (a .so path, or xla-cpu), in a worker process", false, true},
      {"external:CONFIG",
       "a compiler driven as a process (docs/external-protocol.md): backends/CONFIG.yaml or a "
       "file, e.g. external:iree-llvm-cpu",
       false, true},
      {"selftest-crash:OP", "aborts on every OP case, in a worker process", true, true},
      {"selftest-hang:OP", "never answers an OP case, in a worker process", true, true},
  };
}

// A compiler's adapter: its backend in a worker process ("hlocheck worker"),
// so that a crash or a hang of the compiler becomes a finding.
absl::StatusOr<std::unique_ptr<Adapter>> CreateProgramAdapter(std::string_view name,
                                                              const AdapterOptions& options) {
  if (options.registry == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the backend ", std::string(name), " writes cases as modules and needs the spec"));
  }
  const int batch_size =
      options.batch_size > 0 ? options.batch_size : ProgramAdapter::kDefaultBatchSize;
  if (name.substr(0, 9) == "external:") {
    // The driver is a process of its own already: no worker around it.
    const std::string config_name(name.substr(9));
    auto config = external::LoadDriverConfig(external::DriverConfigPath(config_name));
    HLOCHECK_RETURN_IF_ERROR(config.status());
    auto backend = external::CreateExternalBackend(config_name, options.backend_options,
                                                   options.case_timeout_s);
    HLOCHECK_RETURN_IF_ERROR(backend.status());
    std::set<ElementType> types = config->element_types;
    auto adapter = std::make_unique<ProgramAdapter>(
        std::string(name), *options.registry, *std::move(backend), options.inputs_as_constants,
        [types](ElementType type) { return types.empty() || types.count(type) > 0; }, batch_size);
    if (!config->sub_byte_whole_bytes_reason.empty()) {
      adapter->RequireWholeBytesForSubByteTensors(config->sub_byte_whole_bytes_reason);
    }
    return adapter;
  }
  ProgramBackendSpec spec{std::string(name), options.backend_options};
  worker::WorkerOptions worker;
  worker.executable = options.worker_executable;
  worker.case_timeout_s = options.case_timeout_s;
  auto backend = worker::WorkerBackend::Start(spec, worker);
  HLOCHECK_RETURN_IF_ERROR(backend.status());
  std::function<bool(ElementType)> transferable = [](ElementType) { return true; };
  if (name.substr(0, 5) == "pjrt:") transferable = pjrt::HasPjrtType;
  return std::make_unique<ProgramAdapter>(std::string(name), *options.registry, *std::move(backend),
                                          options.inputs_as_constants, transferable, batch_size);
}

}  // namespace

std::vector<AdapterDescription> ListAdapters() {
  std::vector<AdapterDescription> list;
  for (const AdapterEntry& entry : kAdapters) {
    list.push_back({entry.name, entry.description, entry.self_test});
  }
  for (const AdapterDescription& program : ProgramBackendDescriptions()) list.push_back(program);
  // The deliberately faulty backends, for proving that the gate can fail.
  for (const FaultDescription& fault : Faults())
    list.push_back({fault.name, fault.description, true});
  return list;
}

absl::StatusOr<std::unique_ptr<Adapter>> CreateAdapter(std::string_view name,
                                                       const AdapterOptions& options) {
  std::string known;
  for (const AdapterEntry& entry : kAdapters) {
    if (entry.name == name) return entry.create(options);
    absl::StrAppend(&known, known.empty() ? "" : ", ", entry.name);
  }
  if (std::unique_ptr<Adapter> faulty = CreateFaultyAdapter(std::string(name), options)) {
    return faulty;
  }
  if (IsProgramBackendName(name)) return CreateProgramAdapter(name, options);
  absl::StrAppend(&known,
                  ", pjrt:PLUGIN, external:CONFIG (and the self-test backends 'hlocheck run "
                  "--list-backends' shows)");
  return absl::NotFoundError(
      absl::StrCat("no adapter named '", std::string(name), "'; known: ", known));
}

}  // namespace hlocheck
