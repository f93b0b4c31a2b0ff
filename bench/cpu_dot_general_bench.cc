// The CPU adapter's dot_general (adapters/cpu/gemm.h: the widest kernel this
// CPU runs, chosen at run time) against OpenBLAS's cblas_sgemm: f32
// [1024, 1024] x [1024, 1024], lhs contracting dimension 1 with rhs
// dimension 0, on the same data with the same number of threads. The
// canonical layout needs no transpose here and f32 needs no conversion, so
// the adapter's time is the kernel's plus allocating the result tensor. Each
// kernel this CPU runs (avx512, avx2, baseline) is also timed on its own, so
// that one run shows what a CPU without the wider instruction sets gets.
// After the runs it prints each time / sgemm's time.
//
//   cpu_dot_general_bench [--threads=N] [benchmark flags]
#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "adapters/cpu/cpu_adapter.h"
#include "adapters/cpu/gemm.h"
#include "bench/ratio_reporter.h"
#include "bench/threads_flag.h"
#include "benchmark/benchmark.h"

namespace hlocheck {
namespace {

constexpr int64_t kSize = 1024;
int g_threads = 0;

const Case& DotCase() {
  static const Case* c = [] {
    auto* dot = new Case;
    dot->op = "dot_general";
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (int i = 0; i < 2; ++i) {
      Tensor operand({kSize, kSize}, ElementType::kF32);
      for (float& v : operand.values<ElementType::kF32>()) v = uniform(rng);
      dot->operands.push_back(std::move(operand));
    }
    dot->attributes["lhs_batching_dimensions"] = std::vector<int64_t>{};
    dot->attributes["rhs_batching_dimensions"] = std::vector<int64_t>{};
    dot->attributes["lhs_contracting_dimensions"] = std::vector<int64_t>{1};
    dot->attributes["rhs_contracting_dimensions"] = std::vector<int64_t>{0};
    dot->result_types.push_back({{kSize, kSize}, ElementType::kF32});
    return dot;
  }();
  return *c;
}

void Sgemm(const Case& c, float* out) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kSize, kSize, kSize, 1.0f,
              c.operands[0].values<ElementType::kF32>().data(), kSize,
              c.operands[1].values<ElementType::kF32>().data(), kSize, 0.0f, out, kSize);
}

void SetCounters(benchmark::State& state) {
  state.counters["GFLOP"] = benchmark::Counter(2.0 * kSize * kSize * kSize * 1e-9,
                                               benchmark::Counter::kIsIterationInvariantRate);
  state.counters["threads"] = g_threads;
}

void BM_CpuAdapterDotGeneralF32(benchmark::State& state) {
  CpuAdapter adapter{AdapterOptions(g_threads)};
  const Case& c = DotCase();
  for (auto _ : state) {
    absl::StatusOr<std::vector<Tensor>> result = adapter.Run(c);
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(result->front().raw());
  }
  SetCounters(state);
}

void BM_OpenBlasSgemm(benchmark::State& state) {
  openblas_set_num_threads(g_threads);
  const Case& c = DotCase();
  std::vector<float> out(kSize * kSize);
  for (auto _ : state) {
    Sgemm(c, out.data());
    benchmark::ClobberMemory();
  }
  SetCounters(state);
}

// One kernel of gemm.h on the operands as they are, threaded as the adapter
// threads it.
void BM_GemmKernel(benchmark::State& state, const cpu::GemmKernel* kernel) {
  const Case& c = DotCase();
  Eigen::ThreadPool pool(g_threads);
  const cpu::Device device(&pool, g_threads);
  std::vector<float> out(kSize * kSize);
  for (auto _ : state) {
    cpu::BatchedGemm<float>(*kernel, c.operands[0].values<ElementType::kF32>().data(),
                            c.operands[1].values<ElementType::kF32>().data(), out.data(), 1, kSize,
                            kSize, kSize, device);
    benchmark::ClobberMemory();
  }
  SetCounters(state);
}

// The adapter runs first: OpenBLAS's idle threads keep spinning for a while
// after each call and would steal cores from whatever runs next.
void RegisterBenchmarks() {
  benchmark::RegisterBenchmark("BM_CpuAdapterDotGeneralF32", BM_CpuAdapterDotGeneralF32)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  for (const cpu::GemmKernel* kernel : cpu::SupportedGemmKernels()) {
    benchmark::RegisterBenchmark((std::string("BM_GemmKernel/") + kernel->name).c_str(),
                                 BM_GemmKernel, kernel)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::RegisterBenchmark("BM_OpenBlasSgemm", BM_OpenBlasSgemm)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

// Both must compute the same product before their speeds mean anything.
bool CheckAgreement() {
  const Case& c = DotCase();
  std::vector<float> want(kSize * kSize);
  openblas_set_num_threads(g_threads);
  Sgemm(c, want.data());
  CpuAdapter adapter{AdapterOptions(g_threads)};
  absl::StatusOr<std::vector<Tensor>> got = adapter.Run(c);
  if (!got.ok()) {
    std::fprintf(stderr, "adapter failed: %s\n", std::string(got.status().message()).c_str());
    return false;
  }
  auto values = got->front().values<ElementType::kF32>();
  double max_difference = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    max_difference = std::max(max_difference, std::abs(double{values[i]} - want[i]));
  }
  // Terms are below 1 in magnitude: each result is off by at most
  // about K * 2^-24 * K in either implementation.
  const double bound = 2.0 * kSize * std::ldexp(1.0, -24) * kSize;
  std::printf("adapter vs sgemm: max |difference| %.3g (bound %.3g)\n", max_difference, bound);
  return max_difference <= bound;
}

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  using hlocheck::g_threads;
  if (!hlocheck::InitializeWithThreads(argc, argv, g_threads)) return 1;
  std::printf("threads: %d for both\n", g_threads);
  if (!hlocheck::CheckAgreement()) return 1;
  // Let OpenBLAS's threads from the check go idle before timing the adapter.
  std::this_thread::sleep_for(std::chrono::seconds(1));

  hlocheck::RegisterBenchmarks();
  hlocheck::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  const auto& times = reporter.times();
  auto blas = times.find("BM_OpenBlasSgemm");
  if (blas == times.end() || blas->second <= 0) return 0;
  std::printf("kernel chosen for this CPU: %s\n", hlocheck::cpu::SelectedGemmKernel().name);
  for (const auto& [name, time] : times) {
    if (name == blas->first) continue;
    std::printf("%-30s %8.2f ms: speed / sgemm's %.2f\n", name.c_str(), time, blas->second / time);
  }
  std::printf("%-30s %8.2f ms\n", blas->first.c_str(), blas->second);
  return 0;
}
