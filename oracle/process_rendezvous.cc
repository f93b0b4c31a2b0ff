#include "oracle/process_rendezvous.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"

namespace hlocheck::oracle {

absl::StatusOr<std::vector<Tensor>> ProcessRendezvous::Arrive(
    int64_t process, const std::string& op, const std::map<std::string, Attribute>& attributes,
    const std::vector<Region>& regions, const std::vector<TensorType>& result_types,
    std::vector<Tensor> operands) {
  std::unique_lock lock(mutex_);
  if (!deadlock_.ok()) return deadlock_;
  const int64_t number = next_step_[process]++;
  Step& step = steps_[number];
  step.arrivals[process] = Arrival{op, attributes, &regions, result_types, std::move(operands)};
  if (static_cast<int64_t>(step.arrivals.size()) == grid_.size()) {
    const Arrival& first = step.arrivals.begin()->second;
    std::vector<std::string> ops;
    for (const auto& [p, arrival] : step.arrivals) {
      ops.push_back(absl::StrCat(grid_.At(p).ToString(), " ", arrival.op));
      if (arrival.op != first.op || arrival.attributes != first.attributes ||
          arrival.result_types != first.result_types) {
        step.status = absl::FailedPreconditionError(
            absl::StrCat("mismatched collectives: at their collective ", number + 1,
                         " the processes reach ", absl::StrJoin(ops, ", "), ", ...: every ",
                         "process of the grid must reach the same op with the same attributes"));
      }
    }
    if (step.status.ok()) {
      std::vector<std::vector<Tensor>> all;
      for (auto& [p, arrival] : step.arrivals) all.push_back(std::move(arrival.operands));
      auto results =
          GridResults(first.op, first.attributes, *first.regions, first.result_types, grid_, all);
      if (results.ok()) {
        step.results = *std::move(results);
      } else {
        step.status = results.status();
      }
    }
    step.done = true;
    // The others no longer wait, though they run again only once they have
    // the lock: a deadlock check before then must not count them.
    for (const auto& [p, arrival] : step.arrivals) waiting_at_.erase(p);
    changed_.notify_all();
  } else {
    waiting_at_[process] = number;
    CheckForDeadlock();
    changed_.wait(lock, [&] { return step.done || !deadlock_.ok(); });
    waiting_at_.erase(process);
  }
  if (!step.done) return deadlock_;
  HLOCHECK_RETURN_IF_ERROR(step.status);
  return std::move(step.results[process]);
}

void ProcessRendezvous::Send(int64_t /*process*/, int64_t channel, Message message) {
  std::lock_guard lock(mutex_);
  // A process waiting on the channel takes it at once (the lowest first, so
  // that who receives does not depend on the threads' timing); it no
  // longer blocks, though it runs again only once it has the lock.
  for (auto it = receiving_.begin(); it != receiving_.end(); ++it) {
    if (it->second == channel) {
      delivered_[it->first] = std::move(message);
      receiving_.erase(it);
      changed_.notify_all();
      return;
    }
  }
  channels_[channel].push_back(std::move(message));
}

absl::StatusOr<Message> ProcessRendezvous::Receive(int64_t process, int64_t channel) {
  std::unique_lock lock(mutex_);
  if (!deadlock_.ok()) return deadlock_;
  std::deque<Message>& queue = channels_[channel];
  if (!queue.empty()) {
    Message message = std::move(queue.front());
    queue.pop_front();
    return message;
  }
  receiving_[process] = channel;
  CheckForDeadlock();
  changed_.wait(lock, [&] { return delivered_.count(process) > 0 || !deadlock_.ok(); });
  auto delivered = delivered_.find(process);
  if (delivered == delivered_.end()) {
    receiving_.erase(process);
    return deadlock_;
  }
  Message message = std::move(delivered->second);
  delivered_.erase(delivered);
  return message;
}

void ProcessRendezvous::Queue(int64_t channel, Message message) {
  Send(-1, channel, std::move(message));
}

absl::StatusOr<Message> ProcessRendezvous::Take(int64_t channel) {
  std::lock_guard lock(mutex_);
  std::deque<Message>& queue = channels_[channel];
  if (queue.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("nothing is left on ", ChannelName(channel), " to take"));
  }
  Message message = std::move(queue.front());
  queue.pop_front();
  return message;
}

void ProcessRendezvous::Finish(int64_t process) {
  std::lock_guard lock(mutex_);
  finished_[process] = true;
  if (!waiting_at_.empty() || !receiving_.empty()) CheckForDeadlock();
}

std::string ProcessRendezvous::ChannelName(int64_t channel) {
  if (channel == kInfeed) return "the infeed queue";
  if (channel == kOutfeed) return "the outfeed queue";
  return absl::StrCat("channel ", channel);
}

void ProcessRendezvous::CheckForDeadlock() {
  for (int64_t p = 0; p < grid_.size(); ++p) {
    if (!finished_.count(p) && !waiting_at_.count(p) && !receiving_.count(p)) {
      return;  // p may still arrive or send
    }
  }
  std::vector<std::string> states;
  for (int64_t p = 0; p < grid_.size(); ++p) {
    auto waiting = waiting_at_.find(p);
    auto receiving = receiving_.find(p);
    if (waiting != waiting_at_.end()) {
      const Step& step = steps_[waiting->second];
      states.push_back(absl::StrCat("process ", grid_.At(p).ToString(), " waits at its collective ",
                                    waiting->second + 1, " (stablehlo.", step.arrivals.at(p).op,
                                    ")"));
    } else if (receiving != receiving_.end()) {
      states.push_back(absl::StrCat("process ", grid_.At(p).ToString(), " waits to receive on ",
                                    ChannelName(receiving->second), ", where nothing was sent"));
    } else {
      states.push_back(absl::StrCat("process ", grid_.At(p).ToString(), " has finished after ",
                                    next_step_[p], " collective(s)"));
    }
  }
  deadlock_ = absl::FailedPreconditionError("deadlock: " + absl::StrJoin(states, "; "));
  changed_.notify_all();
}

}  // namespace hlocheck::oracle
