// The messages between hlocheck and a worker process (worker_backend.h,
// worker_server.h), over two pipes. Each message is a frame: a little-endian
// u64 byte count, then the body. Bodies:
//   hello (worker -> hlocheck, once, after the backend is created):
//     a reply with no tensors; its message describes the backend, or says
//     why it could not be created (status not OK).
//   request: u32 magic 'HLQ1', str module, u32 n, n tensors (inputs),
//     u32 m, m tensor types (the results wanted)
//   reply: u32 magic 'HLQ1', u32 status code (absl's), str message, u32 n, n tensors
//   str: u64 length, bytes; tensor type: str element type name (core/'s
//   spelling), u32 rank, rank x i64 dims; tensor: its type, u64 byte count,
//   the bytes (core/'s one-container-per-element layout).
// Both ends are this build of hlocheck, so the format has no version of its
// own; a malformed frame is an error, never a crash.
#ifndef HLOCHECK_ADAPTERS_WORKER_WORKER_PROTOCOL_H_
#define HLOCHECK_ADAPTERS_WORKER_WORKER_PROTOCOL_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor.h"

namespace hlocheck::worker {

struct Request {
  std::string module;
  std::vector<Tensor> inputs;
  std::vector<TensorType> result_types;
};

struct Reply {
  absl::Status status;
  std::string message;  // as sent: the hello's description travels with an OK status
  std::vector<Tensor> results;
};

std::string EncodeRequest(std::string_view module, std::span<const Tensor> inputs,
                          std::span<const TensorType> result_types);
absl::StatusOr<Request> DecodeRequest(std::string_view body);
std::string EncodeReply(const absl::Status& status, std::span<const Tensor> results);
// The hello: OK with the backend's description, or why it failed.
std::string EncodeHello(const absl::Status& status, std::string_view description);
absl::StatusOr<Reply> DecodeReply(std::string_view body);

// Writes one frame (the byte count, then `body`) to `fd`, all of it.
absl::Status WriteFrame(int fd, std::string_view body);
// Reads one frame from `fd`. NotFound at a clean end of file before a frame
// begins; DataLoss when the stream ends inside one. `deadline_ms` >= 0 bounds
// the wait (DeadlineExceeded when it passes); -1 waits for ever.
absl::StatusOr<std::string> ReadFrame(int fd, int64_t deadline_ms = -1);

// Milliseconds on a monotonic clock, for deadlines.
int64_t NowMs();

}  // namespace hlocheck::worker

#endif  // HLOCHECK_ADAPTERS_WORKER_WORKER_PROTOCOL_H_
