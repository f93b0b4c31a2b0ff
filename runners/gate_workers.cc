#include "runners/gate_workers.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <new>

#include "reports/gate_report_reader.h"
#include "reports/gate_reports.h"
#include "runners/session.h"

namespace hlocheck {
namespace {

// A worker: claims the plan's groups one at a time from the counter the
// workers share (the next position, in the options' shard), so that a
// heavy group does not leave the others idle; writes its groups with their
// plan positions to `file`. Exit 0 on a written report, 2 when the backend
// does not open or the report cannot be written.
[[noreturn]] void WorkerMain(const Flags& flags, int threads, const GateOptions& options,
                             const GatePlan& plan, std::atomic<int64_t>* next,
                             const std::string& file,
                             const std::function<void(const GroupResult&)>& on_group) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  auto session = OpenSession(flags, threads);
  if (!session.ok()) {
    std::cerr << "hlocheck run: worker: " << session.status().message() << "\n";
    _exit(2);
  }
  Gate& gate = *(*session)->gate;
  GateRun run = gate.Run(options, GatePlan{});  // the run's settings, no group yet
  nlohmann::json positions = nlohmann::json::array();
  for (int64_t p = next->fetch_add(1); p < static_cast<int64_t>(plan.size());
       p = next->fetch_add(1)) {
    if (!InShard(options, static_cast<size_t>(p))) continue;
    run.groups.push_back(
        gate.RunGroup(*plan[p].first, plan[p].second, ForOp(options, plan[p].first->name)));
    positions.push_back(p);
    if (on_group) on_group(run.groups.back());
  }
  std::ofstream out(file);
  out << nlohmann::json{{"positions", positions}, {"report", GateRunToJson(run)}}.dump();
  out.close();
  std::cout.flush();
  _exit(out ? 0 : 2);
}

}  // namespace

WorkersRun RunGateInWorkers(const Flags& flags, int threads, const GateOptions& options,
                            const GatePlan& plan, int workers, const std::string& scratch,
                            const std::function<void(const GroupResult&)>& on_group) {
  WorkersRun result;
  const auto start = std::chrono::steady_clock::now();
  std::error_code ignored;
  std::filesystem::create_directories(scratch, ignored);
  // The next plan position to claim, shared by the forked workers.
  void* shared = mmap(nullptr, sizeof(std::atomic<int64_t>), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    result.errors.push_back(std::string("cannot share a counter: ") + std::strerror(errno));
    return result;
  }
  auto* next = new (shared) std::atomic<int64_t>(0);
  std::map<pid_t, int> worker_of;
  for (int w = 0; w < workers; ++w) {
    const std::string file = scratch + "/worker-" + std::to_string(w) + ".json";
    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = fork();
    if (pid == 0) WorkerMain(flags, threads, options, plan, next, file, on_group);
    if (pid < 0) {
      result.errors.push_back("cannot fork worker " + std::to_string(w) + ": " +
                              std::strerror(errno));
      continue;
    }
    worker_of[pid] = w;
  }
  std::map<int64_t, GroupResult> by_position;
  while (!worker_of.empty()) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) break;
    auto it = worker_of.find(pid);
    if (it == worker_of.end()) continue;
    const int w = it->second;
    worker_of.erase(it);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      // Its groups are lost: those it claimed and had not written.
      result.errors.push_back("worker " + std::to_string(w) + " " +
                              (WIFSIGNALED(status)
                                   ? std::string("died of signal ") + strsignal(WTERMSIG(status))
                                   : "failed (exit " + std::to_string(WEXITSTATUS(status)) + ")") +
                              ": the groups it ran are not in the report");
      continue;
    }
    const std::string file = scratch + "/worker-" + std::to_string(w) + ".json";
    auto json = ReadJsonFile(file);
    if (!json.ok() || !json->contains("positions") || !json->contains("report")) {
      result.errors.push_back("worker " + std::to_string(w) + ": no report in " + file);
      continue;
    }
    auto run = GateRunFromJson((*json)["report"], file);
    if (!run.ok() || (*json)["positions"].size() != run->groups.size()) {
      result.errors.push_back("worker " + std::to_string(w) + ": " +
                              (run.ok() ? std::string("positions and groups differ")
                                        : std::string(run.status().message())));
      continue;
    }
    if (result.run.backend.empty()) result.run = *run;  // the run's settings
    for (size_t k = 0; k < run->groups.size(); ++k) {
      by_position[(*json)["positions"][k].get<int64_t>()] = std::move(run->groups[k]);
    }
  }
  munmap(shared, sizeof(std::atomic<int64_t>));
  std::filesystem::remove_all(scratch, ignored);
  result.run.groups.clear();
  for (auto& [position, group] : by_position) result.run.groups.push_back(std::move(group));
  result.run.shard_index = options.shard_index;
  result.run.shard_total = options.shard_total;
  result.run.plan_groups = static_cast<int64_t>(plan.size());
  result.run.seed = options.seed;
  result.run.cases_per_group = options.cases;
  result.run.command_line = options.command_line;
  result.run.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

absl::Status OpenSessionInChild(const Flags& flags) {
  int channel[2];
  if (pipe(channel) != 0) {
    return absl::InternalError(std::string("cannot open a pipe: ") + std::strerror(errno));
  }
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    close(channel[0]);
    close(channel[1]);
    return absl::InternalError(std::string("cannot fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(channel[0]);
    auto session = OpenSession(flags, 1);
    if (!session.ok()) {
      const std::string message(session.status().message());
      [[maybe_unused]] ssize_t written = write(channel[1], message.data(), message.size());
      _exit(2);
    }
    _exit(0);
  }
  close(channel[1]);
  std::string message;
  char buffer[512];
  for (ssize_t n; (n = read(channel[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    message.append(buffer, static_cast<size_t>(n));
  }
  close(channel[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return absl::OkStatus();
  if (message.empty()) {
    message = WIFSIGNALED(status)
                  ? std::string("the backend's probe died of signal ") + strsignal(WTERMSIG(status))
                  : "the backend's probe failed";
  }
  return absl::FailedPreconditionError(message);
}

}  // namespace hlocheck
