#include "adapters/external/external_backend.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "adapters/external/npy.h"
#include "adapters/worker/worker_protocol.h"
#include "core/status_macros.h"
#include "nlohmann/json.hpp"
#include "yaml-cpp/yaml.h"

extern char** environ;

namespace hlocheck::external {
namespace {

namespace fs = std::filesystem;

std::string SourceRoot() {
#ifdef HLOCHECK_SOURCE_ROOT
  return HLOCHECK_SOURCE_ROOT;
#else
  return ".";
#endif
}

using worker::NowMs;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

absl::Status WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream file(path, std::ios::binary);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) return absl::InternalError("cannot write " + path);
  return absl::OkStatus();
}

// The last few KB of a driver's stderr: its error message, or the end of
// its traceback.
std::string Tail(const std::string& path) {
  std::string all = ReadFile(path);
  constexpr size_t kTail = 4000;
  if (all.size() > kTail) all = "..." + all.substr(all.size() - kTail);
  while (!all.empty() && (all.back() == '\n' || all.back() == ' ')) all.pop_back();
  return all;
}

std::string DescribeExit(int status) {
  if (WIFSIGNALED(status)) {
    return absl::StrCat("killed by signal ", WTERMSIG(status), " (", strsignal(WTERMSIG(status)),
                        ")");
  }
  return absl::StrCat("exited with status ", WEXITSTATUS(status));
}

absl::Status ConfigError(const std::string& file, const YAML::Node& node, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat(file, ":", node.Mark().line + 1, ":", node.Mark().column + 1, ": ", what));
}

// A child process in its own process group (so that a hang kills the
// driver's own children too), with the given fds as its 0, 1 and 2.
absl::StatusOr<pid_t> Spawn(const std::vector<std::string>& argv, int stdin_fd, int stdout_fd,
                            const std::string& stderr_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdin_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  if (stdout_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  }
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<std::string> args = argv;
  std::vector<char*> pointers;
  for (std::string& arg : args) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  pid_t pid = -1;
  // posix_spawnp: argv[0] may be a name on $PATH; never through a shell.
  int spawned = posix_spawnp(&pid, pointers[0], &actions, &attributes, pointers.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot start the driver ", argv[0], ": ", std::strerror(spawned)));
  }
  return pid;
}

// Waits for `pid` until `deadline_ms`; its wait status, or nullopt at the deadline.
std::optional<int> WaitUntil(pid_t pid, int64_t deadline_ms) {
  for (int sleep_us = 200;; sleep_us = std::min(sleep_us * 2, 10000)) {
    int status = 0;
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return 0;
    if (NowMs() >= deadline_ms) return std::nullopt;
    usleep(sleep_us);
  }
}

// Kills the process group and reaps its leader.
void KillGroup(pid_t pid) {
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

class ExternalBackend : public ProgramBackend {
 public:
  ExternalBackend(DriverConfig config, double case_timeout_s, std::string directory)
      : config_(std::move(config)),
        case_timeout_s_(case_timeout_s),
        directory_(std::move(directory)) {}

  ~ExternalBackend() override {
    StopWorker();
    std::error_code ignored;
    fs::remove_all(directory_, ignored);
  }

  std::string Describe() const override {
    return absl::StrCat(config_.description, " (", config_.file, ", ",
                        config_.mode == DriverConfig::Mode::kWorker ? "worker" : "one-shot",
                        " mode)");
  }

  absl::StatusOr<std::vector<Tensor>> Run(std::string_view module_text,
                                          std::span<const Tensor> inputs,
                                          std::span<const TensorType> result_types) override {
    for (const Tensor& input : inputs) HLOCHECK_RETURN_IF_ERROR(CheckType(input.element_type()));
    for (const TensorType& type : result_types)
      HLOCHECK_RETURN_IF_ERROR(CheckType(type.element_type));
    // Each case in a fresh directory, removed once its results are read.
    const std::string dir = absl::StrCat(directory_, "/case-", next_case_++);
    fs::create_directory(dir);
    struct Cleanup {
      std::string dir;
      ~Cleanup() {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
      }
    } cleanup{dir};

    nlohmann::json request;
    request["protocol"] = kProtocolVersion;
    request["module"] = dir + "/module.mlir";
    HLOCHECK_RETURN_IF_ERROR(WriteFile(dir + "/module.mlir", module_text));
    request["inputs"] = nlohmann::json::array();
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string file = absl::StrCat(dir, "/input_", i, ".npy");
      HLOCHECK_RETURN_IF_ERROR(WriteFile(file, EncodeNpy(inputs[i])));
      request["inputs"].push_back(
          {{"file", file},
           {"type", TensorType(inputs[i].shape(), inputs[i].element_type()).ToString()},
           {"element_type", std::string(Name(inputs[i].element_type()))},
           {"npy_dtype", NpyDescr(inputs[i].element_type())}});
    }
    request["results"] = nlohmann::json::array();
    for (size_t i = 0; i < result_types.size(); ++i) {
      request["results"].push_back(
          {{"file", absl::StrCat(dir, "/result_", i, ".npy")},
           {"type", result_types[i].ToString()},
           {"element_type", std::string(Name(result_types[i].element_type))},
           {"npy_dtype", NpyDescr(result_types[i].element_type)}});
    }
    request["options"] = config_.options;
    const std::string request_path = dir + "/request.json";
    HLOCHECK_RETURN_IF_ERROR(WriteFile(request_path, request.dump(2)));

    const int64_t deadline = NowMs() + static_cast<int64_t>(case_timeout_s_ * 1e3);
    absl::Status ran = config_.mode == DriverConfig::Mode::kWorker
                           ? RunInWorker(request_path, deadline)
                           : RunOnce(request_path, dir, deadline);
    HLOCHECK_RETURN_IF_ERROR(ran);

    std::vector<Tensor> results;
    for (size_t i = 0; i < result_types.size(); ++i) {
      std::string file = request["results"][i]["file"];
      if (!fs::exists(file)) {
        return absl::InternalError(absl::StrCat("the driver reported success but wrote no ", file));
      }
      auto tensor = DecodeNpy(ReadFile(file), result_types[i], file);
      HLOCHECK_RETURN_IF_ERROR(tensor.status());
      results.push_back(*std::move(tensor));
    }
    return results;
  }

 private:
  absl::Status CheckType(ElementType type) const {
    if (config_.element_types.empty() || config_.element_types.count(type)) return absl::OkStatus();
    return absl::UnimplementedError(absl::StrCat(
        config_.file, " does not list ", std::string(Name(type)), " among its element_types"));
  }

  // One-shot: argv + request.json, exit status 0 for success.
  absl::Status RunOnce(const std::string& request_path, const std::string& dir, int64_t deadline) {
    std::vector<std::string> argv = config_.argv;
    argv.push_back(request_path);
    const std::string stderr_path = dir + "/stderr.txt";
    auto pid = Spawn(argv, -1, -1, stderr_path);
    HLOCHECK_RETURN_IF_ERROR(pid.status());
    std::optional<int> status = WaitUntil(*pid, deadline);
    if (!status) {
      KillGroup(*pid);
      return WorkerHangError(absl::StrCat("the driver gave no answer within ", case_timeout_s_,
                                          " s and was killed; its stderr ends:\n",
                                          Tail(stderr_path)));
    }
    if (WIFSIGNALED(*status)) {
      return WorkerCrashError(absl::StrCat("the driver was ", DescribeExit(*status),
                                           "; its stderr ends:\n", Tail(stderr_path)));
    }
    if (WEXITSTATUS(*status) != 0) {
      return absl::UnknownError(
          absl::StrCat("the driver ", DescribeExit(*status), ": ", Tail(stderr_path)));
    }
    return absl::OkStatus();
  }

  absl::Status StartWorker() {
    int to_driver[2], from_driver[2];
    if (pipe2(to_driver, O_CLOEXEC) != 0 || pipe2(from_driver, O_CLOEXEC) != 0) {
      return absl::InternalError("pipe2 failed");
    }
    std::vector<std::string> argv = config_.argv;
    argv.push_back("--worker");
    worker_stderr_ = directory_ + "/worker-stderr.txt";
    auto pid = Spawn(argv, to_driver[0], from_driver[1], worker_stderr_);
    close(to_driver[0]);
    close(from_driver[1]);
    if (!pid.ok()) {
      close(to_driver[1]);
      close(from_driver[0]);
      return pid.status();
    }
    worker_pid_ = *pid;
    worker_in_ = to_driver[1];
    worker_out_ = from_driver[0];
    pending_.clear();
    ++workers_started_;
    return absl::OkStatus();
  }

  void StopWorker() {
    if (worker_pid_ < 0) return;
    close(worker_in_);
    // A driver at rest exits at the end of its input; one that does not
    // within a second is killed.
    if (!WaitUntil(worker_pid_, NowMs() + 1000)) KillGroup(worker_pid_);
    close(worker_out_);
    worker_pid_ = -1;
  }

  // The next line the driver writes, or an error: DeadlineExceeded at the
  // deadline, NotFound at end of file.
  absl::StatusOr<std::string> ReadLine(int64_t deadline) {
    for (;;) {
      if (size_t newline = pending_.find('\n'); newline != std::string::npos) {
        std::string line = pending_.substr(0, newline);
        pending_.erase(0, newline + 1);
        return line;
      }
      int64_t left = deadline - NowMs();
      if (left <= 0) return absl::DeadlineExceededError("no reply");
      pollfd waiting{worker_out_, POLLIN, 0};
      int ready = poll(&waiting, 1, static_cast<int>(std::min<int64_t>(left, 1 << 30)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) return absl::DeadlineExceededError("no reply");
      char buffer[4096];
      ssize_t got = read(worker_out_, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return absl::NotFoundError("end of file");
      pending_.append(buffer, static_cast<size_t>(got));
    }
  }

  // Worker: a line {"request": PATH} in, a line {"ok": true} or {"ok":
  // false, "error": TEXT} out.
  absl::Status RunInWorker(const std::string& request_path, int64_t deadline) {
    if (worker_pid_ < 0) HLOCHECK_RETURN_IF_ERROR(StartWorker());
    std::string line = nlohmann::json{{"request", request_path}}.dump() + "\n";
    bool sent = true;
    for (std::string_view rest = line; !rest.empty();) {
      ssize_t written = write(worker_in_, rest.data(), rest.size());
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        sent = false;
        break;
      }
      rest.remove_prefix(static_cast<size_t>(written));
    }
    absl::StatusOr<std::string> reply = sent ? ReadLine(deadline) : absl::NotFoundError("closed");
    if (absl::IsDeadlineExceeded(reply.status())) {
      KillGroup(worker_pid_);
      close(worker_in_);
      close(worker_out_);
      worker_pid_ = -1;
      return WorkerHangError(absl::StrCat("the driver gave no answer within ", case_timeout_s_,
                                          " s and was killed; its stderr ends:\n",
                                          Tail(worker_stderr_)));
    }
    if (!reply.ok()) {
      std::optional<int> status = WaitUntil(worker_pid_, NowMs() + 2000);
      if (!status) KillGroup(worker_pid_);
      close(worker_in_);
      close(worker_out_);
      worker_pid_ = -1;
      return WorkerCrashError(
          absl::StrCat("the driver ", status ? DescribeExit(*status) : "closed its output",
                       " while running the case; its stderr ends:\n", Tail(worker_stderr_)));
    }
    nlohmann::json answer = nlohmann::json::parse(*reply, nullptr, /*allow_exceptions=*/false);
    if (answer.is_discarded() || !answer.is_object() || !answer.contains("ok") ||
        !answer["ok"].is_boolean()) {
      StopWorker();
      return absl::InternalError("the driver's reply is not {\"ok\": ...}: " +
                                 reply->substr(0, 500));
    }
    if (!answer["ok"].get<bool>()) {
      std::string error = answer.contains("error") && answer["error"].is_string()
                              ? answer["error"].get<std::string>()
                              : "(no error text)";
      // A compiler or runtime process of the driver's own that died (the
      // driver survived it): a crash finding, as if the driver had died.
      if (answer.contains("crash") && answer["crash"].is_string()) {
        return WorkerCrashError(
            "the driver reports a crash: " + answer["crash"].get<std::string>() + "\n" + error);
      }
      return absl::UnknownError("the driver: " + error);
    }
    return absl::OkStatus();
  }

  DriverConfig config_;
  double case_timeout_s_;
  std::string directory_;
  int64_t next_case_ = 0;
  pid_t worker_pid_ = -1;
  int worker_in_ = -1;
  int worker_out_ = -1;
  std::string worker_stderr_;
  std::string pending_;
  int workers_started_ = 0;
};

}  // namespace

std::string BackendsDirectory() { return SourceRoot() + "/backends"; }

std::string DriverConfigPath(const std::string& name) {
  if (name.find('/') != std::string::npos || fs::exists(name)) return name;
  return BackendsDirectory() + "/" + name + ".yaml";
}

absl::StatusOr<DriverConfig> LoadDriverConfig(const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::BadFile&) {
    return absl::NotFoundError("cannot read the backend file " + file);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ":", e.mark.line + 1, ":", e.mark.column + 1, ": ", e.msg));
  }
  DriverConfig config;
  config.file = file;
  const YAML::Node external = root["external"];
  if (!external || !external.IsMap()) {
    return ConfigError(file, root,
                       "expected an `external:` map (the driver: protocol, mode, argv)");
  }
  try {
    if (!external["protocol"] || external["protocol"].as<int>() != kProtocolVersion) {
      return ConfigError(
          file, external["protocol"] ? external["protocol"] : external,
          absl::StrCat("expected protocol: ", kProtocolVersion, " (docs/external-protocol.md)"));
    }
    config.description = root["description"] ? root["description"].as<std::string>() : file;
    std::string mode = external["mode"] ? external["mode"].as<std::string>() : "worker";
    if (mode == "worker") {
      config.mode = DriverConfig::Mode::kWorker;
    } else if (mode == "oneshot") {
      config.mode = DriverConfig::Mode::kOneShot;
    } else {
      return ConfigError(file, external["mode"], "expected mode: worker or oneshot");
    }
    const YAML::Node argv = external["argv"];
    if (!argv || !argv.IsSequence() || argv.size() == 0) {
      return ConfigError(file, argv ? argv : external, "expected argv: a non-empty list");
    }
    const std::string config_dir = fs::absolute(fs::path(file)).parent_path().string();
    for (const YAML::Node& arg : argv) {
      config.argv.push_back(absl::StrReplaceAll(
          arg.as<std::string>(), {{"{source}", SourceRoot()}, {"{config_dir}", config_dir}}));
    }
    if (const YAML::Node types = external["element_types"]) {
      if (!types.IsSequence()) return ConfigError(file, types, "expected a list of element types");
      for (const YAML::Node& type : types) {
        std::optional<ElementType> element = ParseElementType(type.as<std::string>());
        if (!element)
          return ConfigError(file, type, "unknown element type " + type.as<std::string>());
        config.element_types.insert(*element);
      }
    }
    if (const YAML::Node sub_byte = external["sub_byte_tensors"]) {
      if (!sub_byte.IsMap() || !sub_byte["whole_bytes"] || !sub_byte["reason"] ||
          !sub_byte["whole_bytes"].as<bool>() || sub_byte["reason"].as<std::string>().empty()) {
        return ConfigError(file, sub_byte,
                           "expected sub_byte_tensors: {whole_bytes: true, reason: ...}");
      }
      config.sub_byte_whole_bytes_reason = sub_byte["reason"].as<std::string>();
    }
    if (const YAML::Node options = external["options"]) {
      if (!options.IsMap()) return ConfigError(file, options, "expected a map of options");
      for (const auto& entry : options) {
        config.options[entry.first.as<std::string>()] = entry.second.as<std::string>();
      }
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ":", e.mark.line + 1, ":", e.mark.column + 1, ": ", e.msg));
  }
  return config;
}

absl::StatusOr<std::unique_ptr<ProgramBackend>> CreateExternalBackend(
    const std::string& name, const std::map<std::string, std::string>& options,
    double case_timeout_s) {
  auto config = LoadDriverConfig(DriverConfigPath(name));
  HLOCHECK_RETURN_IF_ERROR(config.status());
  for (const auto& [key, value] : options) config->options[key] = value;
  signal(SIGPIPE, SIG_IGN);
  // A private directory (mode 0700) for the cases' files.
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp ? tmp : "/tmp") + "/hlocheck-external-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp ", pattern, ": ", std::strerror(errno)));
  }
  return std::make_unique<ExternalBackend>(*std::move(config), case_timeout_s, pattern);
}

}  // namespace hlocheck::external
