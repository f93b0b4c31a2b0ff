// The numbers rc::Random::next() gives, faster: generated data draws most
// of a case's random numbers, element after element, and RapidCheck
// computes each block of four with one Threefish-256 encryption (72
// rounds). RandomStream encrypts four blocks at once in AVX2 vectors where
// the processor has them (one after another where not).
//
// It reads the generator's state through RapidCheck's public serialisation
// and computes exactly what next() would: the same numbers in the same
// order (RandomStreamTest checks millions of them against rc::Random), so
// that every case, replay string and finding stays what it was.
#ifndef HLOCHECK_GENERATORS_RANDOM_STREAM_H_
#define HLOCHECK_GENERATORS_RANDOM_STREAM_H_

#include <rapidcheck.h>

#include <array>
#include <cstdint>

namespace hlocheck {

class RandomStream {
 public:
  explicit RandomStream(const rc::Random& random) : random_(random) {}

  uint64_t Next() {
    if (next_ < kBuffered) return buffer_[next_++];
    return Refill();
  }

 private:
  static constexpr int kBuffered = 16;  // four blocks
  enum class Mode : uint8_t { kWarmingUp, kFast, kRapidCheck };

  uint64_t Refill();
  void ReadState();

  rc::Random random_;  // the stream itself while warming up or in kRapidCheck mode
  Mode mode_ = Mode::kWarmingUp;
  int warm_up_taken_ = 0;
  // Read or computed when warming up ends (left uninitialised until then:
  // a stream is set up for every tensor drawn).
  std::array<uint64_t, 4> key_;
  std::array<std::array<uint64_t, 4>, 19> subkeys_;  // Threefish's key schedule of key_
  uint64_t bits_ = 0;     // the generator's split path, the plaintexts' first word
  uint64_t counter_ = 0;  // of the first number not yet in the buffer
  std::array<uint64_t, kBuffered> buffer_;
  int next_ = kBuffered;
};

// One Threefish-256 encryption as rc::Random uses it (tweak {13, 37},
// plaintext {bits, counter, 0, 0}): the block of numbers counter, ...,
// counter + 3 of a generator with this key and split path.
std::array<uint64_t, 4> ThreefishBlock(const std::array<uint64_t, 4>& key, uint64_t bits,
                                       uint64_t counter);

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_RANDOM_STREAM_H_
