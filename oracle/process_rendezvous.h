// Where the processes of a program's grid meet: at each collective, on the
// channels of send and recv, and at the host's infeed and outfeed queues.
// The interpreter's run_parallel runs each process on a thread of its own
// with one rendezvous between them; a lone program runs on a 1 x 1 one.
//
// A process blocks only at a collective (until every process reaches it)
// and at a recv (until a message arrives on its channel). When no process
// can move on (each has finished or blocks), the program is deadlocked:
// every blocked process gets an error that names each process and where it
// waits, at once, never after a timeout.
#ifndef HLOCHECK_ORACLE_PROCESS_RENDEZVOUS_H_
#define HLOCHECK_ORACLE_PROCESS_RENDEZVOUS_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/attribute.h"
#include "core/program.h"
#include "core/tensor.h"
#include "oracle/collectives.h"

namespace hlocheck::oracle {

// The tensors one send (or outfeed, or infeed queue entry) carries.
using Message = std::vector<Tensor>;

class ProcessRendezvous {
 public:
  explicit ProcessRendezvous(ProcessGrid grid) : grid_(grid) {}

  const ProcessGrid& grid() const { return grid_; }

  // Collectives: the n-th collective a process reaches is matched with the
  // n-th of every other process. When all have arrived, the last one
  // computes every process's results (GridResults) and wakes the others.
  // Processes that reach different ops (or the same op with different
  // attributes) at the same step are a mismatch. Returns process
  // `process`'s results.
  absl::StatusOr<std::vector<Tensor>> Arrive(int64_t process, const std::string& op,
                                             const std::map<std::string, Attribute>& attributes,
                                             const std::vector<Region>& regions,
                                             const std::vector<TensorType>& result_types,
                                             std::vector<Tensor> operands);

  // send and recv: messages on a channel (by channel_id) are received in
  // the order they were sent, each by one recv; a send never blocks (the
  // channel buffers it). The spec leaves the other end implementation-
  // defined: any process may receive what any process sent on the channel,
  // the host included (is_host_transfer), which here is a process too or
  // the case's environment (Queue, Take).
  void Send(int64_t process, int64_t channel, Message message);
  absl::StatusOr<Message> Receive(int64_t process, int64_t channel);

  // The host's side. Queue puts a message on a channel as the host (or a
  // peer outside the grid) would; Take takes the oldest message no recv has
  // taken, an error if there is none. `kInfeed` and `kOutfeed` are the
  // host's infeed and outfeed queues, as channels that no channel_id
  // names: infeed takes from the first, outfeed puts on the second.
  static constexpr int64_t kInfeed = INT64_MIN;
  static constexpr int64_t kOutfeed = INT64_MIN + 1;
  void Queue(int64_t channel, Message message);
  absl::StatusOr<Message> Take(int64_t channel);

  // Process `process` has finished its program (or stopped with an error):
  // it will reach no more collectives and receive nothing more.
  void Finish(int64_t process);

 private:
  struct Arrival {
    std::string op;
    std::map<std::string, Attribute> attributes;
    const std::vector<Region>* regions = nullptr;  // the arriving op's, alive while it waits
    std::vector<TensorType> result_types;
    std::vector<Tensor> operands;
  };
  struct Step {
    std::map<int64_t, Arrival> arrivals;  // by process
    bool done = false;
    absl::Status status;
    std::vector<std::vector<Tensor>> results;  // by process
  };
  static std::string ChannelName(int64_t channel);
  // With the lock held: a deadlock when no process can move on.
  void CheckForDeadlock();

  const ProcessGrid grid_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<int64_t, Step> steps_;          // by step number
  std::map<int64_t, int64_t> next_step_;   // by process
  std::map<int64_t, int64_t> waiting_at_;  // process -> step it waits at
  std::map<int64_t, bool> finished_;
  std::map<int64_t, std::deque<Message>> channels_;  // messages no recv has taken yet
  std::map<int64_t, int64_t> receiving_;             // process -> channel it waits on
  std::map<int64_t, Message> delivered_;             // to a process that waited
  absl::Status deadlock_;
};

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_PROCESS_RENDEZVOUS_H_
