// Random f32 and f64 values converted to every narrower float type and
// checked against the MPFR reference (tests/core/conversion_reference.h).
// Fixed seed (printed); HLOCHECK_CONVERSION_SEED and
// HLOCHECK_CONVERSION_SAMPLES override the seed and the sample count.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "tests/core/conversion_reference.h"

namespace hlocheck {
namespace {

using conversion_ref::Expected;
using conversion_ref::FloatChecker;
using conversion_ref::FloatContainerBytes;
using conversion_ref::Log;
using conversion_ref::NarrowerTargets;
using conversion_ref::ReadBits;
using conversion_ref::Ref;
using conversion_ref::RefFormat;
using conversion_ref::Rounder;
using conversion_ref::Special;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

constexpr uint64_t kDefaultSeed = 0x5EEDC0DE2024ull;

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return std::strtoull(text, nullptr, 0);
}

uint64_t Mix(uint64_t x) {  // splitmix64 finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// One random source value, as a bit pattern: a third uniformly random bits,
// a third uniform in the target's exponent range with random mantissas, a
// third in that range with short mantissas (ties and near-ties).
uint64_t RandomSourceBits(std::mt19937_64& rng, bool f64, const RefFormat& target) {
  const uint64_t r = rng();
  const int kind = static_cast<int>(r % 3);
  if (kind == 0) return f64 ? rng() : (rng() & 0xFFFFFFFFu);
  const int lo = target.emin() - target.mantissa_bits - 3;
  const int hi = std::ilogb(target.MaxFinite()) + 2;
  const int exponent = lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
  const int source_mbits = f64 ? 52 : 23;
  uint64_t mantissa = rng() & ((uint64_t{1} << source_mbits) - 1);
  if (kind == 2) {
    int keep = target.mantissa_bits + 1 + static_cast<int>((r >> 8) % 3);
    if (keep > source_mbits) keep = source_mbits;
    mantissa &= ~((uint64_t{1} << (source_mbits - keep)) - 1);
  }
  bool negative = ((r >> 4) & 1) != 0;
  if (target.special == Special::kE8M0) negative = ((r >> 4) & 15) == 0;
  double magnitude =
      std::ldexp(1.0 + std::ldexp(static_cast<double>(mantissa), -source_mbits), exponent);
  double value = negative ? -magnitude : magnitude;
  const int steps = kind == 2 ? static_cast<int>((r >> 16) % 5) - 2 : 0;  // -2..2 ULPs
  if (f64) {
    for (int i = 0; i < std::abs(steps); ++i) value = std::nextafter(value, steps * HUGE_VAL);
    return std::bit_cast<uint64_t>(value);
  }
  float f = static_cast<float>(value);  // exact unless below the f32 normal range
  for (int i = 0; i < std::abs(steps); ++i) f = std::nextafter(f, steps * HUGE_VALF);
  return std::bit_cast<uint32_t>(f);
}

struct Job {
  ElementType source;
  const RefFormat* target;
  int job_index;
};

TEST(ConversionRandomTest, F32AndF64ToEveryNarrowerFloatType) {
  const uint64_t seed = EnvOr("HLOCHECK_CONVERSION_SEED", kDefaultSeed);
  // Per source type and target type. Sanitizer builds run a tenth.
  const int64_t samples =
      static_cast<int64_t>(EnvOr("HLOCHECK_CONVERSION_SAMPLES", kSanitized ? 1000000 : 10000000));
  constexpr int64_t kChunk = 4096;
  std::printf("[ConversionRandomTest] seed=0x%" PRIx64 " samples per (source, target)=%" PRId64
              "\n",
              seed, samples);

  std::vector<Job> jobs;
  for (ElementType source : {ElementType::kF32, ElementType::kF64}) {
    for (const RefFormat* target : NarrowerTargets(source)) {
      jobs.push_back({source, target, static_cast<int>(jobs.size())});
    }
  }
  const int64_t chunks_per_job = (samples + kChunk - 1) / kChunk;
  const int64_t total_chunks = chunks_per_job * static_cast<int64_t>(jobs.size());
  std::vector<Log> logs(jobs.size());
  std::vector<std::vector<Log>> thread_logs;
  std::atomic<int64_t> next_chunk{0};

  // MPFR keeps per-thread state only when built with TLS.
  unsigned threads = mpfr_buildopt_tls_p() ? std::max(1u, std::thread::hardware_concurrency()) : 1u;
  threads = std::min(threads, 8u);
  thread_logs.resize(threads, std::vector<Log>(jobs.size()));
  auto start = std::chrono::steady_clock::now();

  auto worker = [&](unsigned thread_index) {
    std::vector<Log>& my_logs = thread_logs[thread_index];
    Rounder rounder;
    std::vector<unsigned char> in(kChunk * 8);
    std::vector<unsigned char> out(kChunk * 8);
    std::vector<uint8_t> flags(kChunk);
    std::vector<uint64_t> source_bits(kChunk);
    for (;;) {
      const int64_t chunk = next_chunk.fetch_add(1);
      if (chunk >= total_chunks) break;
      const Job& job = jobs[chunk / chunks_per_job];
      const int64_t chunk_in_job = chunk % chunks_per_job;
      const int64_t n = std::min(kChunk, samples - chunk_in_job * kChunk);
      const RefFormat& source = Ref(job.source);
      const RefFormat& target = *job.target;
      const bool f64 = job.source == ElementType::kF64;
      std::mt19937_64 rng(Mix(seed ^ Mix(static_cast<uint64_t>(job.job_index) << 32 |
                                         static_cast<uint64_t>(chunk_in_job))));
      const int in_bytes = FloatContainerBytes(job.source);
      const int out_bytes = FloatContainerBytes(target.type);
      for (int64_t i = 0; i < n; ++i) {
        source_bits[i] = RandomSourceBits(rng, f64, target);
        std::memcpy(&in[i * in_bytes], &source_bits[i], in_bytes);  // little-endian host
      }
      // The batch entry point (one dispatch for the chunk).
      ConvertElements(job.source, in.data(), target.type, out.data(), n, flags.data());
      Log& log = my_logs[job.job_index];
      for (int64_t i = 0; i < n; ++i) {
        const double value = conversion_ref::ValueOfBits(source, source_bits[i]);
        Expected e = rounder.RoundDouble(target, value);
        const uint64_t got = ReadBits(target.type, &out[i * out_bytes]);
        if (FloatChecker::Quick(e, target, got, flags[i])) {
          ++log.checked;
        } else {
          char buf[160];
          std::snprintf(buf, sizeof buf, "%s bits=0x%" PRIx64 " (%a)", source.name, source_bits[i],
                        value);
          log.Check(buf, target, e, got, flags[i]);
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker, t);
  for (std::thread& t : pool) t.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  int64_t total = 0;
  for (const Job& job : jobs) {
    Log& log = logs[job.job_index];
    for (unsigned t = 0; t < threads; ++t) log.Merge(thread_logs[t][job.job_index]);
    EXPECT_EQ(log.value_mismatches + log.flag_mismatches, 0)
        << Name(job.source) << " -> " << job.target->name << " (seed 0x" << std::hex << seed
        << std::dec << "): " << log.Report();
    total += log.checked;
  }
  std::printf("[ConversionRandomTest] %" PRId64 " conversions checked on %u threads in %.1f s\n",
              total, threads, seconds);
}

}  // namespace
}  // namespace hlocheck
