// A compiler seen from hlocheck: it takes a StableHLO module and tensors for
// its @main's arguments, and returns the tensors @main returns. PJRT
// plugins (adapters/pjrt), external compiler drivers (adapters/external),
// a worker process hosting either (adapters/worker) and the self-test
// backends below all sit behind it; ProgramAdapter (program_adapter.h)
// turns cases into modules for them.
#ifndef HLOCHECK_ADAPTERS_PROGRAM_PROGRAM_BACKEND_H_
#define HLOCHECK_ADAPTERS_PROGRAM_PROGRAM_BACKEND_H_

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "core/tensor.h"

namespace hlocheck {

class ProgramBackend {
 public:
  virtual ~ProgramBackend() = default;

  // One line: what runs the programs (plugin path and versions, argv, ...).
  virtual std::string Describe() const = 0;

  // Compiles `module_text` (or finds it compiled: backends cache their
  // executables by module text) and runs its @main on `inputs`. Returns one
  // tensor per entry of `result_types`, of exactly that type; a compile or
  // run error is an error status, with the compiler's message.
  virtual absl::StatusOr<std::vector<Tensor>> Run(std::string_view module_text,
                                                  std::span<const Tensor> inputs,
                                                  std::span<const TensorType> result_types) = 0;
};

// A backend's name and its KEY=VALUE options (--backend-option), as the
// command line and the worker process's arguments carry them.
struct ProgramBackendSpec {
  std::string name;  // "pjrt:PATH", "external:CONFIG", "selftest-crash:OP", ...
  std::map<std::string, std::string> options;
};

// The backend `spec` names, run in this process. Errors: an unknown name, a
// plugin that does not load, a configuration that does not parse.
absl::StatusOr<std::unique_ptr<ProgramBackend>> CreateInProcessBackend(
    const ProgramBackendSpec& spec);

// A program backend by name, for `hlocheck programs` and the compilers'
// ProgramAdapter: "cpu" (the CPU adapter, op by op), the faulty-program-*
// self-tests, external:CONFIG (a process of its own), and pjrt:PLUGIN and
// the selftest-* backends in a worker process. `transferable` says which
// element types may cross @main's boundary.
struct ProgramBackendHandle {
  std::unique_ptr<ProgramBackend> backend;
  std::function<bool(ElementType)> transferable;
  std::string sub_byte_whole_bytes_reason;  // external drivers: ProgramAdapter's rule
};
absl::StatusOr<ProgramBackendHandle> CreateProgramBackend(std::string_view name,
                                                          const AdapterOptions& options);

// Self-test backends, for proving that the gate survives a backend that
// crashes or hangs: each returns zeros of the result types, except on a
// module that applies `op`, where it aborts the process (crash) or never
// returns (hang). Run them in a worker process.
std::unique_ptr<ProgramBackend> CreateCrashingBackend(std::string op);
std::unique_ptr<ProgramBackend> CreateHangingBackend(std::string op);

// How a worker-process backend marks a status that reports a crash or a
// hang of the process rather than an error the backend returned: the
// payload under kWorkerFailureUrl is "crash" or "hang".
inline constexpr char kWorkerFailureUrl[] = "hlocheck/worker-failure";
absl::Status WorkerCrashError(std::string message);
absl::Status WorkerHangError(std::string message);
bool IsWorkerCrash(const absl::Status& status);
bool IsWorkerHang(const absl::Status& status);

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_PROGRAM_PROGRAM_BACKEND_H_
