// The worker pipe protocol: what goes in comes out, and no malformed frame
// crashes the reader.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <unistd.h>

#include "adapters/worker/worker_protocol.h"

namespace hlocheck::worker {
namespace {

Tensor Iota(TensorType type) {
  Tensor t(std::move(type));
  for (size_t i = 0; i < t.bytes().size(); ++i) t.bytes()[i] = static_cast<std::byte>(i * 7 + 1);
  return t;
}

TEST(WorkerProtocolTest, RequestRoundTrips) {
  std::vector<Tensor> inputs = {Iota(TensorType({2, 3}, ElementType::kF32)),
                                Iota(TensorType({}, ElementType::kSI4)),
                                Iota(TensorType({0, 5}, ElementType::kComplexF64))};
  std::vector<TensorType> results = {TensorType({3}, ElementType::kBF16)};
  auto request = DecodeRequest(EncodeRequest("module {}", inputs, results));
  ASSERT_TRUE(request.ok()) << request.status();
  EXPECT_EQ(request->module, "module {}");
  ASSERT_EQ(request->inputs.size(), 3u);
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(request->inputs[i].type(), inputs[i].type());
    EXPECT_TRUE(std::equal(inputs[i].bytes().begin(), inputs[i].bytes().end(),
                           request->inputs[i].bytes().begin(), request->inputs[i].bytes().end()));
  }
  EXPECT_EQ(request->result_types, results);
}

TEST(WorkerProtocolTest, ReplyCarriesStatusAndTensors) {
  std::vector<Tensor> results = {Iota(TensorType({4}, ElementType::kUI16))};
  auto ok = DecodeReply(EncodeReply(absl::OkStatus(), results));
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_TRUE(ok->status.ok());
  ASSERT_EQ(ok->results.size(), 1u);
  EXPECT_EQ(ok->results[0].type(), results[0].type());
  auto failed = DecodeReply(EncodeReply(absl::InvalidArgumentError("compile: no such op"), {}));
  ASSERT_TRUE(failed.ok()) << failed.status();
  EXPECT_EQ(failed->status, absl::InvalidArgumentError("compile: no such op"));
  // The hello's description survives an OK status.
  auto hello = DecodeReply(EncodeHello(absl::OkStatus(), "xla_cpu_pjrt.so: PJRT API 0.81"));
  ASSERT_TRUE(hello.ok());
  EXPECT_TRUE(hello->status.ok());
  EXPECT_EQ(hello->message, "xla_cpu_pjrt.so: PJRT API 0.81");
}

// Every truncation and every single-byte corruption of a valid frame is an
// error or a (different) valid message, never a crash or a huge allocation.
TEST(WorkerProtocolTest, MalformedFramesAreErrors) {
  std::vector<Tensor> inputs = {Iota(TensorType({2, 2}, ElementType::kSI32))};
  std::string frame = EncodeRequest("m", inputs, std::vector<TensorType>{inputs[0].type()});
  for (size_t size = 0; size < frame.size(); ++size) {
    EXPECT_FALSE(DecodeRequest(frame.substr(0, size)).ok()) << size;
  }
  EXPECT_FALSE(DecodeRequest(frame + "x").ok());
  for (size_t i = 0; i < frame.size(); ++i) {
    std::string corrupt = frame;
    corrupt[i] = static_cast<char>(corrupt[i] ^ 0xff);
    (void)DecodeRequest(corrupt);
    (void)DecodeReply(corrupt);
  }
}

RC_GTEST_PROP(WorkerProtocolTest, ArbitraryBytesNeverCrashTheDecoders, (std::string bytes)) {
  (void)DecodeRequest(bytes);
  (void)DecodeReply(bytes);
}

TEST(WorkerProtocolTest, FramesCrossAPipeAndEndOfFileIsNotFound) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_TRUE(WriteFrame(fds[1], "hello").ok());
  auto frame = ReadFrame(fds[0], NowMs() + 1000);
  ASSERT_TRUE(frame.ok()) << frame.status();
  EXPECT_EQ(*frame, "hello");
  // Nothing written: the deadline passes.
  EXPECT_TRUE(absl::IsDeadlineExceeded(ReadFrame(fds[0], NowMs() + 20).status()));
  close(fds[1]);
  EXPECT_TRUE(absl::IsNotFound(ReadFrame(fds[0], NowMs() + 1000).status()));
  close(fds[0]);
}

TEST(WorkerProtocolTest, AFrameCutShortIsDataLoss) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  uint64_t size = 100;
  ASSERT_EQ(write(fds[1], &size, sizeof size), static_cast<ssize_t>(sizeof size));
  ASSERT_EQ(write(fds[1], "abc", 3), 3);
  close(fds[1]);
  EXPECT_TRUE(absl::IsDataLoss(ReadFrame(fds[0], NowMs() + 1000).status()));
  close(fds[0]);
}

}  // namespace
}  // namespace hlocheck::worker
