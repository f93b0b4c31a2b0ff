#include "adapters/worker/worker_protocol.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"

namespace hlocheck::worker {
namespace {

constexpr uint32_t kMagic = 0x31514c48;  // "HLQ1"
// Larger than any case hlocheck makes; a corrupt count fails here, not in new[].
constexpr uint64_t kMaxFrame = uint64_t{1} << 32;

template <typename T>
void Put(T value, std::string* out) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out->append(bytes, sizeof(T));
}

void PutString(std::string_view text, std::string* out) {
  Put<uint64_t>(text.size(), out);
  out->append(text);
}

void PutType(const TensorType& type, std::string* out) {
  PutString(Name(type.element_type), out);
  Put<uint32_t>(static_cast<uint32_t>(type.shape.size()), out);
  for (int64_t dimension : type.shape) Put<int64_t>(dimension, out);
}

void PutTensor(const Tensor& tensor, std::string* out) {
  PutType(TensorType(tensor.shape(), tensor.element_type()), out);
  std::span<const std::byte> bytes = tensor.bytes();
  PutString(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), out);
}

class Reader {
 public:
  explicit Reader(std::string_view body) : rest_(body) {}

  template <typename T>
  absl::StatusOr<T> Get() {
    if (rest_.size() < sizeof(T)) return Truncated();
    T value;
    std::memcpy(&value, rest_.data(), sizeof(T));
    rest_.remove_prefix(sizeof(T));
    return value;
  }

  absl::StatusOr<std::string_view> GetString() {
    auto size = Get<uint64_t>();
    HLOCHECK_RETURN_IF_ERROR(size.status());
    if (rest_.size() < *size) return Truncated();
    std::string_view text = rest_.substr(0, *size);
    rest_.remove_prefix(*size);
    return text;
  }

  absl::StatusOr<TensorType> GetType() {
    auto name = GetString();
    HLOCHECK_RETURN_IF_ERROR(name.status());
    std::optional<ElementType> element = ParseElementType(*name);
    if (!element) {
      return absl::DataLossError(
          absl::StrCat("worker message: unknown element type '", std::string(*name), "'"));
    }
    auto rank = Get<uint32_t>();
    HLOCHECK_RETURN_IF_ERROR(rank.status());
    if (*rank > 64) return absl::DataLossError("worker message: a rank above 64");
    Shape shape;
    for (uint32_t i = 0; i < *rank; ++i) {
      auto dimension = Get<int64_t>();
      HLOCHECK_RETURN_IF_ERROR(dimension.status());
      if (*dimension < 0) return absl::DataLossError("worker message: a negative dimension");
      shape.push_back(*dimension);
    }
    return TensorType(std::move(shape), *element);
  }

  absl::StatusOr<Tensor> GetTensor() {
    auto type = GetType();
    HLOCHECK_RETURN_IF_ERROR(type.status());
    auto bytes = GetString();
    HLOCHECK_RETURN_IF_ERROR(bytes.status());
    // Checked before the tensor is made: a corrupt shape must not allocate.
    const uint64_t expected =
        static_cast<uint64_t>(NumElements(type->shape)) * ContainerBytes(type->element_type);
    if (bytes->size() != expected) {
      return absl::DataLossError(
          absl::StrCat("worker message: ", bytes->size(), " bytes for a ", type->ToString()));
    }
    Tensor tensor(*std::move(type));
    if (!bytes->empty()) std::memcpy(tensor.raw(), bytes->data(), bytes->size());
    return tensor;
  }

  absl::Status Magic() {
    auto magic = Get<uint32_t>();
    HLOCHECK_RETURN_IF_ERROR(magic.status());
    if (*magic != kMagic) return absl::DataLossError("worker message: bad magic number");
    return absl::OkStatus();
  }

  absl::Status End() const {
    return rest_.empty() ? absl::OkStatus() : absl::DataLossError("worker message: trailing bytes");
  }

 private:
  static absl::Status Truncated() { return absl::DataLossError("worker message: truncated"); }
  std::string_view rest_;
};

}  // namespace

std::string EncodeRequest(std::string_view module, std::span<const Tensor> inputs,
                          std::span<const TensorType> result_types) {
  std::string out;
  Put<uint32_t>(kMagic, &out);
  PutString(module, &out);
  Put<uint32_t>(static_cast<uint32_t>(inputs.size()), &out);
  for (const Tensor& input : inputs) PutTensor(input, &out);
  Put<uint32_t>(static_cast<uint32_t>(result_types.size()), &out);
  for (const TensorType& type : result_types) PutType(type, &out);
  return out;
}

absl::StatusOr<Request> DecodeRequest(std::string_view body) {
  Reader reader(body);
  HLOCHECK_RETURN_IF_ERROR(reader.Magic());
  Request request;
  auto module = reader.GetString();
  HLOCHECK_RETURN_IF_ERROR(module.status());
  request.module = std::string(*module);
  auto inputs = reader.Get<uint32_t>();
  HLOCHECK_RETURN_IF_ERROR(inputs.status());
  for (uint32_t i = 0; i < *inputs; ++i) {
    auto tensor = reader.GetTensor();
    HLOCHECK_RETURN_IF_ERROR(tensor.status());
    request.inputs.push_back(*std::move(tensor));
  }
  auto results = reader.Get<uint32_t>();
  HLOCHECK_RETURN_IF_ERROR(results.status());
  for (uint32_t i = 0; i < *results; ++i) {
    auto type = reader.GetType();
    HLOCHECK_RETURN_IF_ERROR(type.status());
    request.result_types.push_back(*std::move(type));
  }
  HLOCHECK_RETURN_IF_ERROR(reader.End());
  return request;
}

namespace {

std::string EncodeReplyWithMessage(absl::StatusCode code, std::string_view message,
                                   std::span<const Tensor> results) {
  std::string out;
  Put<uint32_t>(kMagic, &out);
  Put<uint32_t>(static_cast<uint32_t>(code), &out);
  PutString(message, &out);
  Put<uint32_t>(static_cast<uint32_t>(results.size()), &out);
  for (const Tensor& result : results) PutTensor(result, &out);
  return out;
}

}  // namespace

std::string EncodeReply(const absl::Status& status, std::span<const Tensor> results) {
  return EncodeReplyWithMessage(status.code(), std::string(status.message()), results);
}

std::string EncodeHello(const absl::Status& status, std::string_view description) {
  return EncodeReplyWithMessage(
      status.code(), status.ok() ? std::string(description) : std::string(status.message()), {});
}

absl::StatusOr<Reply> DecodeReply(std::string_view body) {
  Reader reader(body);
  HLOCHECK_RETURN_IF_ERROR(reader.Magic());
  auto code = reader.Get<uint32_t>();
  HLOCHECK_RETURN_IF_ERROR(code.status());
  auto message = reader.GetString();
  HLOCHECK_RETURN_IF_ERROR(message.status());
  if (*code > static_cast<uint32_t>(absl::StatusCode::kUnauthenticated)) {
    return absl::DataLossError("worker message: unknown status code");
  }
  Reply reply;
  reply.status = absl::Status(static_cast<absl::StatusCode>(*code), std::string(*message));
  reply.message = std::string(*message);
  auto results = reader.Get<uint32_t>();
  HLOCHECK_RETURN_IF_ERROR(results.status());
  for (uint32_t i = 0; i < *results; ++i) {
    auto tensor = reader.GetTensor();
    HLOCHECK_RETURN_IF_ERROR(tensor.status());
    reply.results.push_back(*std::move(tensor));
  }
  HLOCHECK_RETURN_IF_ERROR(reader.End());
  return reply;
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

absl::Status WriteFrame(int fd, std::string_view body) {
  std::string header;
  Put<uint64_t>(body.size(), &header);
  for (std::string_view part : {std::string_view(header), body}) {
    while (!part.empty()) {
      ssize_t written = write(fd, part.data(), part.size());
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        return absl::UnavailableError(
            absl::StrCat("writing to the worker pipe: ", std::strerror(errno)));
      }
      part.remove_prefix(static_cast<size_t>(written));
    }
  }
  return absl::OkStatus();
}

namespace {

// Reads exactly `size` bytes into `out`. NotFound for end of file before
// the first byte when `at_start`, DataLoss for one later.
absl::Status ReadExactly(int fd, char* out, size_t size, int64_t deadline_ms, bool at_start) {
  size_t done = 0;
  while (done < size) {
    if (deadline_ms >= 0) {
      int64_t left = deadline_ms - NowMs();
      if (left <= 0) return absl::DeadlineExceededError("no reply before the deadline");
      pollfd waiting{fd, POLLIN, 0};
      int ready = poll(&waiting, 1, static_cast<int>(std::min<int64_t>(left, 1 << 30)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) return absl::DeadlineExceededError("no reply before the deadline");
    }
    ssize_t got = read(fd, out + done, size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      return absl::UnavailableError(
          absl::StrCat("reading the worker pipe: ", std::strerror(errno)));
    }
    if (got == 0) {
      return at_start && done == 0 ? absl::NotFoundError("end of file")
                                   : absl::DataLossError("the stream ended inside a frame");
    }
    done += static_cast<size_t>(got);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> ReadFrame(int fd, int64_t deadline_ms) {
  uint64_t size = 0;
  HLOCHECK_RETURN_IF_ERROR(
      ReadExactly(fd, reinterpret_cast<char*>(&size), sizeof size, deadline_ms, true));
  if (size > kMaxFrame) return absl::DataLossError("worker message: frame too large");
  std::string body(size, '\0');
  HLOCHECK_RETURN_IF_ERROR(ReadExactly(fd, body.data(), body.size(), deadline_ms, false));
  return body;
}

}  // namespace hlocheck::worker
