// rng_bit_generator's kernel (kernel_api.h's RngBitsArgs): Threefry-2x32
// (20 rounds) and Philox-4x32 (10 rounds) as Random123 defines them, written
// __host__ __device__ so that the host tests the very code the GPU runs.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_RANDOM_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_RANDOM_KERNELS_H_

#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/float_codec.h"
#include "adapters/cuda/kernels/kernel_api.h"

namespace hlocheck::cuda {

HLOCHECK_HD uint32_t Rotl32(uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }

// Threefry-2x32-20 of the 64-bit counter under the 64-bit key: two words.
HLOCHECK_HD void Threefry2x32(uint64_t counter, uint64_t key, uint32_t out[2]) {
  const int rotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t k[3] = {
      static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32),
      0x1BD11BDAu ^ static_cast<uint32_t>(key) ^ static_cast<uint32_t>(key >> 32)};
  uint32_t a = static_cast<uint32_t>(counter) + k[0];
  uint32_t b = static_cast<uint32_t>(counter >> 32) + k[1];
  for (uint32_t s = 1; s <= 5; ++s) {
    for (int r = 0; r < 4; ++r) {
      a += b;
      b = Rotl32(b, rotations[(s % 2 == 1 ? 0 : 4) + r]) ^ a;
    }
    a += k[s % 3];
    b += k[(s + 1) % 3] + s;
  }
  out[0] = a;
  out[1] = b;
}

// Philox-4x32-10 of the 128-bit counter (low, high) under the key.
HLOCHECK_HD void Philox4x32(uint64_t low, uint64_t high, uint64_t key, uint32_t out[4]) {
  uint32_t x[4] = {static_cast<uint32_t>(low), static_cast<uint32_t>(low >> 32),
                   static_cast<uint32_t>(high), static_cast<uint32_t>(high >> 32)};
  uint32_t k0 = static_cast<uint32_t>(key);
  uint32_t k1 = static_cast<uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t m0 = uint64_t{x[0]} * 0xD2511F53u;
    const uint64_t m1 = uint64_t{x[2]} * 0xCD9E8D57u;
    const uint32_t next[4] = {
        static_cast<uint32_t>(m1 >> 32) ^ x[1] ^ k0, static_cast<uint32_t>(m1),
        static_cast<uint32_t>(m0 >> 32) ^ x[3] ^ k1, static_cast<uint32_t>(m0)};
    for (int w = 0; w < 4; ++w) x[w] = next[w];
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  for (int w = 0; w < 4; ++w) out[w] = x[w];
}

struct RngBitsFunctor {
  RngBitsArgs args;

  HLOCHECK_HD uint64_t Bits(int64_t i) const {
    if (args.philox) {
      const int64_t per_block = args.wide ? 2 : 4;
      const int64_t j = i / per_block;
      const int64_t k = i % per_block;
      const uint64_t counter = args.counter + static_cast<uint64_t>(j);
      uint32_t r[4];
      Philox4x32(counter, args.high + (counter < args.counter ? 1 : 0), args.key, r);
      return args.wide ? (r[2 * k] | (uint64_t{r[2 * k + 1]} << 32)) : uint64_t{r[k]};
    }
    uint32_t r[2];
    if (args.wide) {
      Threefry2x32(args.counter + static_cast<uint64_t>(i), args.key, r);
      return r[0] | (uint64_t{r[1]} << 32);
    }
    // The shape halved (rounded up) along `axis`: element i's block and word.
    int64_t rest = i;
    int64_t half_index = 0;
    int64_t half_stride = 1;
    int word = 0;
    for (int d = args.rank - 1; d >= 0; --d) {
      const int64_t coordinate = rest % args.dims[d];
      rest /= args.dims[d];
      const int64_t half_dim = d == args.axis ? (args.dims[d] + 1) / 2 : args.dims[d];
      half_index += (d == args.axis ? coordinate / 2 : coordinate) * half_stride;
      if (d == args.axis) word = static_cast<int>(coordinate % 2);
      half_stride *= half_dim;
    }
    Threefry2x32(args.counter + static_cast<uint64_t>(half_index), args.key, r);
    return r[word];
  }

  HLOCHECK_HD void operator()(int64_t i) const {
    const uint64_t bits = Bits(i);
    uint8_t* out = static_cast<uint8_t*>(args.out) + i * args.bytes;
    if (args.boolean) {
      out[0] = static_cast<uint8_t>(bits & 1);
      return;
    }
    for (int b = 0; b < args.bytes; ++b) out[b] = static_cast<uint8_t>(bits >> (8 * b));
  }
};

template <typename Exec>
std::string RunRngBits(const Exec& exec, const RngBitsArgs& args) {
  if (args.n == 0) return "";
  return exec.ForEach(args.n, RngBitsFunctor{args});
}

// The high 64 bits of x * y.
HLOCHECK_HD uint64_t MultiplyHigh(uint64_t x, uint64_t y) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(x, y);
#else
  return static_cast<uint64_t>((static_cast<unsigned __int128>(x) * y) >> 64);
#endif
}

struct RngFunctor {
  RngArgs args;
  HLOCHECK_HD void operator()(int64_t i) const {
    uint32_t r[4];
    Philox4x32(static_cast<uint64_t>(i), 0, args.seed, r);
    const uint64_t first = r[0] | (uint64_t{r[1]} << 32);
    const uint64_t second = r[2] | (uint64_t{r[3]} << 32);
    Number value;
    if (args.kind.storage == Storage::kSigned || args.kind.storage == Storage::kUnsigned) {
      value.i = args.a_bits + MultiplyHigh(first, args.span);
      value.is_signed = args.kind.storage == Storage::kSigned;
      StoreNumber(args.kind, args.out, i, value);
      return;
    }
    const double u = static_cast<double>(first >> 11) * 0x1p-53;  // [0, 1)
    value.is_float = true;
    if (args.normal) {
      const double u1 = 1.0 - u;  // (0, 1]
      const double u2 = static_cast<double>(second >> 11) * 0x1p-53;
      const double z = Sqrt(-2.0 * Log(u1)) * Cos(6.283185307179586476925286766559 * u2);
      value.f = args.a + args.b * z;
      StoreNumber(args.kind, args.out, i, value);
      return;
    }
    value.f = args.a * (1 - u) + args.b * u;
    StoreNumber(args.kind, args.out, i, value);
    if (!(LoadNumber(args.kind, args.out, i).f < args.b)) {
      uint8_t* out = static_cast<uint8_t*>(args.out) + i * args.kind.bytes;
      for (int k = 0; k < args.kind.bytes; ++k) out[k] = args.below_b[k];
    }
  }
};

template <typename Exec>
std::string RunRng(const Exec& exec, const RngArgs& args) {
  if (args.n == 0) return "";
  return exec.ForEach(args.n, RngFunctor{args});
}

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_RANDOM_KERNELS_H_
