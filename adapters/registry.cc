// The table of backends the runner can name. Each entry builds its adapter;
// adding a backend is adding a line.
#include <array>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "adapters/adapter.h"
#include "adapters/cpu/cpu_adapter.h"
#include "adapters/cuda/cuda_adapter.h"
#include "adapters/external/external_backend.h"
#include "adapters/faulty/faulty_adapters.h"
#include "adapters/faulty/program_faults.h"
#include "adapters/pjrt/pjrt_backend.h"
#include "adapters/pjrt/pjrt_client.h"
#include "adapters/program/cpu_program_backend.h"
#include "adapters/program/program_adapter.h"
#include "adapters/worker/worker_backend.h"

namespace hlocheck {
namespace {

struct AdapterEntry {
  const char* name;
  const char* description;
  bool self_test;
  absl::StatusOr<std::unique_ptr<Adapter>> (*create)(const AdapterOptions&);
  std::vector<std::string> (*ops)();
};

const std::array<AdapterEntry, 3> kAdapters = {{
    {"cpu", "Eigen Tensor module on a thread pool (the way XLA:CPU runs ops)", false,
     [](const AdapterOptions& options) -> absl::StatusOr<std::unique_ptr<Adapter>> {
       return std::make_unique<CpuAdapter>(options);
     },
     &CpuAdapter::Ops},
    {"cuda", "CUDA C++ kernels and cuBLAS on the first NVIDIA GPU", false,
     [](const AdapterOptions&) -> absl::StatusOr<std::unique_ptr<Adapter>> {
       HLOCHECK_ASSIGN_OR_RETURN(std::unique_ptr<CudaAdapter> adapter,
                                 CudaAdapter::OnDevice("cuda"));
       return std::unique_ptr<Adapter>(std::move(adapter));
     },
     &CudaAdapter::Ops},
    {"cuda-host",
     "the cuda backend's kernels run on the host, in loops: checks their logic without a GPU "
     "(not a GPU check)",
     false,
     [](const AdapterOptions&) -> absl::StatusOr<std::unique_ptr<Adapter>> {
       return std::unique_ptr<Adapter>(CudaAdapter::OnHost("cuda-host"));
     },
     &CudaAdapter::Ops},
}};

// faulty-cuda-NAME (on the GPU) and faulty-cuda-host-NAME (the same kernels
// on the host) for each planted CUDA fault.
absl::StatusOr<std::unique_ptr<Adapter>> CreateCudaFaultyAdapter(std::string_view name) {
  for (const CudaFaultDescription& fault : CudaFaults()) {
    if (name == "faulty-cuda-host-" + fault.name) {
      return std::unique_ptr<Adapter>(CudaAdapter::OnHost(std::string(name), fault.faults));
    }
    if (name == "faulty-cuda-" + fault.name) {
      HLOCHECK_ASSIGN_OR_RETURN(std::unique_ptr<CudaAdapter> adapter,
                                CudaAdapter::OnDevice(std::string(name), fault.faults));
      return std::unique_ptr<Adapter>(std::move(adapter));
    }
  }
  return absl::NotFoundError("");
}

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

// A compiler's adapter: its backend (CreateProgramBackend) behind a
// ProgramAdapter that writes each case as a module.
absl::StatusOr<std::unique_ptr<Adapter>> CreateProgramAdapter(std::string_view name,
                                                              const AdapterOptions& options) {
  if (options.registry == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the backend ", std::string(name), " writes cases as modules and needs the spec"));
  }
  const int batch_size =
      options.batch_size > 0 ? options.batch_size : ProgramAdapter::kDefaultBatchSize;
  HLOCHECK_ASSIGN_OR_RETURN(ProgramBackendHandle handle, CreateProgramBackend(name, options));
  auto adapter = std::make_unique<ProgramAdapter>(
      std::string(name), *options.registry, std::move(handle.backend), options.inputs_as_constants,
      handle.transferable, batch_size);
  if (!handle.sub_byte_whole_bytes_reason.empty()) {
    adapter->RequireWholeBytesForSubByteTensors(handle.sub_byte_whole_bytes_reason);
  }
  return adapter;
}

}  // namespace

absl::StatusOr<ProgramBackendHandle> CreateProgramBackend(std::string_view name,
                                                          const AdapterOptions& options) {
  ProgramBackendHandle handle;
  handle.transferable = [](ElementType) { return true; };
  if (name == "cpu" || FindProgramFault(std::string(name)) != nullptr) {
    if (options.registry == nullptr) {
      return absl::FailedPreconditionError(
          "the CPU program backend reads modules and needs the spec");
    }
    const ProgramFault* fault = FindProgramFault(std::string(name));
    handle.backend = CreateCpuProgramBackend(*options.registry, options.threads,
                                             fault ? fault->rewrite : ProgramRewrite(),
                                             fault ? fault->description + " (self-test)" : "");
    return handle;
  }
  if (name.substr(0, 9) == "external:") {
    // The driver is a process of its own already: no worker around it.
    const std::string config_name(name.substr(9));
    auto config = external::LoadDriverConfig(external::DriverConfigPath(config_name));
    HLOCHECK_RETURN_IF_ERROR(config.status());
    auto backend = external::CreateExternalBackend(config_name, options.backend_options,
                                                   options.case_timeout_s);
    HLOCHECK_RETURN_IF_ERROR(backend.status());
    std::set<ElementType> types = config->element_types;
    handle.backend = *std::move(backend);
    handle.transferable = [types](ElementType type) {
      return types.empty() || types.count(type) > 0;
    };
    handle.sub_byte_whole_bytes_reason = config->sub_byte_whole_bytes_reason;
    return handle;
  }
  if (!IsProgramBackendName(name)) {
    return absl::NotFoundError(absl::StrCat(
        "no program backend named '", std::string(name),
        "'; known: cpu, pjrt:PLUGIN, external:CONFIG, selftest-crash:OP, selftest-hang:OP and "
        "the faulty-program-* self-tests"));
  }
  // A compiler linked in: in a worker process ("hlocheck worker"), so that
  // a crash or a hang of the compiler becomes a finding.
  ProgramBackendSpec spec{std::string(name), options.backend_options};
  worker::WorkerOptions worker;
  worker.executable = options.worker_executable;
  worker.case_timeout_s = options.case_timeout_s;
  auto backend = worker::WorkerBackend::Start(spec, worker);
  HLOCHECK_RETURN_IF_ERROR(backend.status());
  handle.backend = *std::move(backend);
  if (name.substr(0, 5) == "pjrt:") handle.transferable = pjrt::HasPjrtType;
  return handle;
}

bool RunsOnGpu(std::string_view name) {
  return name == "cuda" ||
         (name.starts_with("faulty-cuda-") && !name.starts_with("faulty-cuda-host-"));
}

std::vector<AdapterDescription> ListAdapters() {
  std::vector<AdapterDescription> list;
  for (const AdapterEntry& entry : kAdapters) {
    list.push_back({entry.name, entry.description, entry.self_test, false, entry.ops});
  }
  for (const AdapterDescription& program : ProgramBackendDescriptions()) list.push_back(program);
  // The deliberately faulty backends, for proving that the gate can fail.
  for (const FaultDescription& fault : Faults())
    list.push_back({fault.name, fault.description, true});
  for (const CudaFaultDescription& fault : CudaFaults()) {
    list.push_back({"faulty-cuda-" + fault.name, fault.description + " (on the GPU)", true});
    list.push_back({"faulty-cuda-host-" + fault.name, fault.description + " (on the host)", true});
  }
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
  if (name.starts_with("faulty-cuda-")) {
    auto cuda = CreateCudaFaultyAdapter(name);
    if (!absl::IsNotFound(cuda.status())) return cuda;
  }
  if (IsProgramBackendName(name)) return CreateProgramAdapter(name, options);
  absl::StrAppend(&known,
                  ", pjrt:PLUGIN, external:CONFIG (and the self-test backends 'hlocheck run "
                  "--list-backends' shows)");
  return absl::NotFoundError(
      absl::StrCat("no adapter named '", std::string(name), "'; known: ", known));
}

}  // namespace hlocheck
