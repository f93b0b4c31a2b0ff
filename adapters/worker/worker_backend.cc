#include "adapters/worker/worker_backend.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "adapters/worker/worker_protocol.h"
#include "core/status_macros.h"

extern char** environ;

namespace hlocheck::worker {
namespace {

// This process's own binary, by the kernel's link rather than by name: the
// link still leads to it when the file has been rebuilt (replaced) since
// the run began, and the spawned child resolves it before it execs.
std::string SelfExecutable() { return "/proc/self/exe"; }

std::string DescribeExit(int status) {
  if (WIFSIGNALED(status)) {
    int signal_number = WTERMSIG(status);
    return absl::StrCat("killed by signal ", signal_number, " (", strsignal(signal_number), ")");
  }
  if (WIFEXITED(status)) return absl::StrCat("exited with status ", WEXITSTATUS(status));
  return "ended";
}

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

WorkerBackend::WorkerBackend(ProgramBackendSpec spec, WorkerOptions options)
    : spec_(std::move(spec)), options_(std::move(options)) {
  if (options_.executable.empty()) options_.executable = SelfExecutable();
  // A write to a worker that has died must be an error, not hlocheck's death.
  signal(SIGPIPE, SIG_IGN);
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp ? tmp : "/tmp") + "/hlocheck-worker-stderr-XXXXXX";
  int fd = mkstemp(pattern.data());
  if (fd >= 0) {
    close(fd);
    stderr_path_ = pattern;
  }
}

WorkerBackend::~WorkerBackend() {
  Stop(false);
  if (!stderr_path_.empty()) unlink(stderr_path_.c_str());
}

absl::StatusOr<std::unique_ptr<WorkerBackend>> WorkerBackend::Start(ProgramBackendSpec spec,
                                                                    WorkerOptions options) {
  std::unique_ptr<WorkerBackend> backend(new WorkerBackend(std::move(spec), std::move(options)));
  HLOCHECK_RETURN_IF_ERROR(backend->Spawn());
  return backend;
}

absl::Status WorkerBackend::Spawn() {
  int request[2], reply[2];
  if (pipe2(request, O_CLOEXEC) != 0) return absl::InternalError("pipe2 failed");
  if (pipe2(reply, O_CLOEXEC) != 0) {
    close(request[0]);
    close(request[1]);
    return absl::InternalError("pipe2 failed");
  }
  std::vector<std::string> args = {options_.executable, "worker", "--backend",  spec_.name,
                                   "--request-fd",      "3",      "--reply-fd", "4"};
  for (const auto& [key, value] : spec_.options) {
    args.push_back("--backend-option");
    args.push_back(key + "=" + value);
  }
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  // The child gets the pipes as fds 3 and 4 (dup2 clears O_CLOEXEC on the
  // copies), its stderr in a file whose tail explains a crash, and nothing
  // on stdin or stdout, which its libraries may print to.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, request[0], 3);
  posix_spawn_file_actions_adddup2(&actions, reply[1], 4);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  if (!stderr_path_.empty()) {
    posix_spawn_file_actions_addopen(&actions, 2, stderr_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
  }
  pid_t pid = -1;
  int spawned =
      posix_spawn(&pid, options_.executable.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(request[0]);
  close(reply[1]);
  if (spawned != 0) {
    close(request[1]);
    close(reply[0]);
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot start the worker ", options_.executable, ": ", std::strerror(spawned)));
  }
  pid_ = pid;
  request_fd_ = request[1];
  reply_fd_ = reply[0];

  auto hello =
      ReadFrame(reply_fd_, NowMs() + static_cast<int64_t>(options_.startup_timeout_s * 1e3));
  absl::StatusOr<Reply> decoded =
      hello.ok() ? DecodeReply(*hello) : absl::StatusOr<Reply>(hello.status());
  if (!decoded.ok()) {
    const bool slow = absl::IsDeadlineExceeded(decoded.status());
    std::string ended = Stop(slow);
    return absl::UnavailableError(absl::StrCat("the worker for ", spec_.name,
                                               slow ? " did not start in time" : " failed to start",
                                               " (", ended, ")", StderrTail()));
  }
  if (!decoded->status.ok()) {
    Stop(false);
    return decoded->status;  // the backend's own error: a plugin that does not load, say
  }
  description_ = decoded->message;
  return absl::OkStatus();
}

std::string WorkerBackend::Stop(bool kill_first) {
  if (pid_ < 0) return "not running";
  CloseFd(request_fd_);  // a worker at rest exits on end of file
  if (kill_first) kill(pid_, SIGKILL);
  int status = 0;
  std::string ended = "still running";
  // A worker that does not exit within a second of its pipe closing is killed.
  for (int waited_ms = 0;; waited_ms += 10) {
    pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      ended = DescribeExit(status);
      break;
    }
    if (done < 0) break;
    if (waited_ms == 1000) kill(pid_, SIGKILL);
    usleep(10000);
  }
  CloseFd(reply_fd_);
  pid_ = -1;
  return ended;
}

std::string WorkerBackend::StderrTail() const {
  std::ifstream file(stderr_path_, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  std::string all = text.str();
  // The last lines say why: a CHECK failure's message comes before its
  // stack trace, so keep enough for both.
  constexpr size_t kTail = 4000;
  if (all.size() > kTail) all = "..." + all.substr(all.size() - kTail);
  while (!all.empty() && all.back() == '\n') all.pop_back();
  return all.empty() ? "" : "; its stderr ends:\n" + all;
}

absl::StatusOr<std::vector<Tensor>> WorkerBackend::Run(std::string_view module_text,
                                                       std::span<const Tensor> inputs,
                                                       std::span<const TensorType> result_types) {
  if (pid_ < 0) {
    ++restarts_;
    HLOCHECK_RETURN_IF_ERROR(Spawn());
  }
  const int64_t deadline = NowMs() + static_cast<int64_t>(options_.case_timeout_s * 1e3);
  absl::Status sent = WriteFrame(request_fd_, EncodeRequest(module_text, inputs, result_types));
  absl::StatusOr<std::string> answer =
      sent.ok() ? ReadFrame(reply_fd_, deadline) : absl::StatusOr<std::string>(sent);
  if (absl::IsDeadlineExceeded(answer.status())) {
    std::string ended = Stop(true);
    return WorkerHangError(absl::StrCat("the backend gave no answer within ",
                                        options_.case_timeout_s, " s; the worker was killed (",
                                        ended, ")", StderrTail()));
  }
  if (!answer.ok()) {
    std::string ended = Stop(false);
    return WorkerCrashError(
        absl::StrCat("the worker died while running the case (", ended, ")", StderrTail()));
  }
  auto reply = DecodeReply(*answer);
  if (!reply.ok()) {
    std::string ended = Stop(true);
    return WorkerCrashError(absl::StrCat("the worker's reply was malformed (",
                                         reply.status().message(), "); it was stopped (", ended,
                                         ")", StderrTail()));
  }
  HLOCHECK_RETURN_IF_ERROR(reply->status);
  return std::move(reply->results);
}

int ServeWorker(const ProgramBackendSpec& spec, int request_fd, int reply_fd) {
  signal(SIGPIPE, SIG_IGN);
  auto backend = CreateInProcessBackend(spec);
  if (!backend.ok()) {
    (void)WriteFrame(reply_fd, EncodeHello(backend.status(), ""));
    return 1;
  }
  if (!WriteFrame(reply_fd, EncodeHello(absl::OkStatus(), (*backend)->Describe())).ok()) return 1;
  for (;;) {
    auto frame = ReadFrame(request_fd);
    if (absl::IsNotFound(frame.status())) return 0;  // hlocheck closed the pipe
    if (!frame.ok()) return 1;
    auto request = DecodeRequest(*frame);
    std::string reply;
    if (!request.ok()) {
      reply = EncodeReply(request.status(), {});
    } else {
      auto results = (*backend)->Run(request->module, request->inputs, request->result_types);
      reply = results.ok() ? EncodeReply(absl::OkStatus(), *results)
                           : EncodeReply(results.status(), {});
    }
    if (!WriteFrame(reply_fd, reply).ok()) return 1;
  }
}

}  // namespace hlocheck::worker
