#include "generators/random_stream.h"

#include <iterator>

namespace hlocheck {
namespace {

// Threefish-256 (the Skein 1.3 specification): rotation constants of the
// eight rounds that repeat, the key schedule's parity constant, and
// rc::Random's tweak.
constexpr int kRotation[8][2] = {{14, 16}, {52, 57}, {23, 40}, {5, 37},
                                 {25, 33}, {46, 12}, {58, 22}, {32, 32}};
constexpr uint64_t kKeyParity = 0x1BD11BDAA9FC1A22ULL;
constexpr uint64_t kTweak[3] = {13, 37, 13 ^ 37};

using Subkey = std::array<uint64_t, 4>;
using Subkeys = std::array<Subkey, 19>;

// The key schedule: subkey s adds the key words from s on (mod 5, the fifth
// being the parity word), the tweak words from s on (mod 3) to the middle
// two words, and s to the last.
Subkeys KeySchedule(const std::array<uint64_t, 4>& key) {
  const uint64_t k[5] = {key[0], key[1], key[2], key[3],
                         key[0] ^ key[1] ^ key[2] ^ key[3] ^ kKeyParity};
  Subkeys subkeys;
  for (int s = 0; s < 19; ++s) {
    subkeys[s] = {k[s % 5], k[(s + 1) % 5] + kTweak[s % 3], k[(s + 2) % 5] + kTweak[(s + 1) % 3],
                  k[(s + 3) % 5] + static_cast<uint64_t>(s)};
  }
  return subkeys;
}

// The encryption of plaintexts {bits, counter, 0, 0}, written once for a
// lane type W: uint64_t (one block) or a vector of four (four blocks, one
// per lane, under the same key).
template <typename W>
struct Threefish {
  W v0, v1, v2, v3;

  // One MIX: a += b, then b rotated left by kR and xored with a.
  template <int kR>
  [[gnu::always_inline]] static void Mix(W& a, W& b) {
    a += b;
    b = ((b << kR) | (b >> (64 - kR))) ^ a;
  }
  [[gnu::always_inline]] void Inject(const Subkey& subkey) {
    v0 += subkey[0];
    v1 += subkey[1];
    v2 += subkey[2];
    v3 += subkey[3];
  }
  // Rounds kFirst to kFirst + 3 of the eight whose rotations repeat.
  // Threefish-256's permutation swaps words 1 and 3 after each round;
  // renaming does it: even rounds mix (0, 1) and (2, 3), odd rounds (0, 3)
  // and (2, 1), and after four rounds the names are back.
  template <int kFirst>
  [[gnu::always_inline]] void FourRounds() {
    Mix<kRotation[kFirst][0]>(v0, v1);
    Mix<kRotation[kFirst][1]>(v2, v3);
    Mix<kRotation[kFirst + 1][0]>(v0, v3);
    Mix<kRotation[kFirst + 1][1]>(v2, v1);
    Mix<kRotation[kFirst + 2][0]>(v0, v1);
    Mix<kRotation[kFirst + 2][1]>(v2, v3);
    Mix<kRotation[kFirst + 3][0]>(v0, v3);
    Mix<kRotation[kFirst + 3][1]>(v2, v1);
  }
  // 72 rounds, a subkey before every four and one after the last.
  [[gnu::always_inline]] void Encrypt(const Subkeys& subkeys) {
    for (int s = 0; s < 18; s += 2) {
      Inject(subkeys[s]);
      FourRounds<0>();
      Inject(subkeys[s + 1]);
      FourRounds<4>();
    }
    Inject(subkeys[18]);
  }
};

// One block: the numbers counter, ..., counter + 3.
void EncryptOne(const Subkeys& subkeys, uint64_t bits, uint64_t counter, uint64_t* out) {
  Threefish<uint64_t> block{bits, counter, 0, 0};
  block.Encrypt(subkeys);
  out[0] = block.v0;
  out[1] = block.v1;
  out[2] = block.v2;
  out[3] = block.v3;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Four blocks in the lanes of AVX2 vectors: the numbers counter, ...,
// counter + 15. One block's 72 rounds are about 500 dependent scalar
// operations, and the processor's integer units run them near their
// throughput already; vectors do four blocks' worth per operation.
using Lanes = uint64_t __attribute__((vector_size(32)));

__attribute__((target("avx2"))) void EncryptFourAvx2(const Subkeys& subkeys, uint64_t bits,
                                                     uint64_t counter, uint64_t* out) {
  Threefish<Lanes> blocks{Lanes{bits, bits, bits, bits},
                          Lanes{counter, counter + 4, counter + 8, counter + 12}, Lanes{}, Lanes{}};
  blocks.Encrypt(subkeys);
  for (int lane = 0; lane < 4; ++lane) {
    out[4 * lane] = blocks.v0[lane];
    out[4 * lane + 1] = blocks.v1[lane];
    out[4 * lane + 2] = blocks.v2[lane];
    out[4 * lane + 3] = blocks.v3[lane];
  }
}

bool HasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#else
bool HasAvx2() { return false; }
void EncryptFourAvx2(const Subkeys&, uint64_t, uint64_t, uint64_t*) {}
#endif

// The first numbers of a stream come from rc::Random itself: many streams
// (a scalar's data) end there, before the state read and the key schedule
// would pay off.
constexpr int kWarmUpNumbers = 8;

}  // namespace

std::array<uint64_t, 4> ThreefishBlock(const std::array<uint64_t, 4>& key, uint64_t bits,
                                       uint64_t counter) {
  std::array<uint64_t, 4> out;
  EncryptOne(KeySchedule(key), bits, counter, out.data());
  return out;
}

uint64_t RandomStream::Refill() {
  if (mode_ == Mode::kWarmingUp) {
    if (++warm_up_taken_ <= kWarmUpNumbers) return random_.next();
    ReadState();
  }
  if (mode_ == Mode::kRapidCheck) return random_.next();
  if (HasAvx2()) {
    EncryptFourAvx2(subkeys_, bits_, counter_, buffer_.data());
  } else {
    for (int block = 0; block < 4; ++block) {
      EncryptOne(subkeys_, bits_, counter_ + 4 * block, buffer_.data() + 4 * block);
    }
  }
  counter_ += kBuffered;
  next_ = 1;
  return buffer_[0];
}

void RandomStream::ReadState() {
  // rc::Random's public serialisation: the key, the split path's bits, the
  // counter, the number of those bits.
  std::array<uint8_t, 64> state{};
  const auto end = rc::serialize(random_, state.begin());
  auto in = state.begin();
  in = rc::detail::deserializeN<uint64_t>(in, end, key_.size(), key_.begin());
  in = rc::detail::deserializeCompact(in, end, bits_);
  rc::detail::deserializeCompact(in, end, counter_);
  // Mid-block, a generator's pending numbers come from a block computed
  // before; near the counter's end it changes its split path. Both stay
  // rc::Random's to handle.
  if (counter_ % 4 != 0 || counter_ > (uint64_t{1} << 62)) {
    mode_ = Mode::kRapidCheck;
    return;
  }
  subkeys_ = KeySchedule(key_);
  mode_ = Mode::kFast;
}

}  // namespace hlocheck
