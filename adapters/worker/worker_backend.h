// A ProgramBackend in a child process ("hlocheck worker"), so that a
// compiler that aborts on an internal CHECK, segfaults or spins cannot take
// the gate down with it. A crash is returned as WorkerCrashError and a case
// that runs past its timeout as WorkerHangError (the worker is killed), each
// with the tail of the worker's stderr; the next case starts a new worker.
#ifndef HLOCHECK_ADAPTERS_WORKER_WORKER_BACKEND_H_
#define HLOCHECK_ADAPTERS_WORKER_WORKER_BACKEND_H_

#include <sys/types.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "adapters/program/program_backend.h"

namespace hlocheck::worker {

struct WorkerOptions {
  // The hlocheck binary that serves `hlocheck worker`; empty: this process's own.
  std::string executable;
  double case_timeout_s = 60;      // compile and run of one case
  double startup_timeout_s = 120;  // loading the backend (a plugin is ~250 MB)
};

class WorkerBackend : public ProgramBackend {
 public:
  // Starts the worker and waits for its hello: an error if the backend
  // cannot be created there (a plugin that does not load, say).
  static absl::StatusOr<std::unique_ptr<WorkerBackend>> Start(ProgramBackendSpec spec,
                                                              WorkerOptions options);
  ~WorkerBackend() override;

  std::string Describe() const override { return description_; }
  absl::StatusOr<std::vector<Tensor>> Run(std::string_view module_text,
                                          std::span<const Tensor> inputs,
                                          std::span<const TensorType> result_types) override;

  int restarts() const { return restarts_; }  // workers started after the first

 private:
  WorkerBackend(ProgramBackendSpec spec, WorkerOptions options);
  absl::Status Spawn();
  // Kills the worker (if any) and reaps it; how it ended, as text.
  std::string Stop(bool kill_first);
  std::string StderrTail() const;

  ProgramBackendSpec spec_;
  WorkerOptions options_;
  std::string description_;
  std::string stderr_path_;
  pid_t pid_ = -1;
  int request_fd_ = -1;
  int reply_fd_ = -1;
  int restarts_ = 0;
};

// The worker's side: creates the backend `spec` names in this process,
// says hello on `reply_fd`, then answers requests from `request_fd` until
// it closes. Returns the process's exit code.
int ServeWorker(const ProgramBackendSpec& spec, int request_fd, int reply_fd);

}  // namespace hlocheck::worker

#endif  // HLOCHECK_ADAPTERS_WORKER_WORKER_BACKEND_H_
