// The CUDA adapter's kernels on the GPU against the device's own ceilings,
// measured in the same run (issue 22's goals): add and exponential on
// 256 MiB of f32, transpose {2,0,1} of 512^3 f32 and reduce-sum over the
// last axis against a device-to-device cudaMemcpy; dot_general's matrix
// product (f32 and bf16, 8192^3) against cuBLAS called directly with its
// defaults. Data stays on the device; every iteration runs kRepeats launches
// and then waits for them, the baselines alike. Without a GPU it says so and
// exits 77 (scripts/gpu-check runs it on a lent one).
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "adapters/cuda/kernels/float_codec.h"
#include "adapters/cuda/machines.h"
#include "bench/ratio_reporter.h"
#include "benchmark/benchmark.h"

namespace hlocheck::cuda {
namespace {

constexpr int kRepeats = 10;
constexpr int64_t kElements = int64_t{64} << 20;  // 256 MiB of f32
constexpr int64_t kCube = 512;
constexpr int64_t kMatrix = 8192;

std::unique_ptr<Machine> g_machine;

void Die(const std::string& what) {
  std::fprintf(stderr, "cuda_kernels_bench: %s\n", what.c_str());
  std::exit(1);
}
void Check(const std::string& error) {
  if (!error.empty()) Die(error);
}
void Check(cudaError_t error) {
  if (error != cudaSuccess) Die(cudaGetErrorString(error));
}

void* DeviceArray(size_t bytes) {
  void* p = nullptr;
  Check(cudaMalloc(&p, bytes));
  Check(cudaMemset(p, 0, bytes));
  return p;
}

ElementKind F32() {
  ElementKind kind;
  kind.storage = Storage::kF32;
  kind.bits = 32;
  kind.bytes = 4;
  return kind;
}
ElementKind BF16Kind() {
  ElementKind kind;
  kind.storage = Storage::kMini16;
  kind.bits = 16;
  kind.bytes = 2;
  kind.mini = BF16();
  return kind;
}

// Fills f32 data with values in [-2, 2] so that exp and sums stay finite.
__global__ void FillKernel(float* p, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    p[i] = static_cast<float>((i * 2654435761u) % 4096) / 1024.0f - 2.0f;
  }
}
void Fill(void* p, int64_t n) {
  FillKernel<<<4096, 256>>>(static_cast<float*>(p), n);
  Check(cudaDeviceSynchronize());
}

void BM_CopyDeviceToDevice(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(state.range(0));
  void* a = DeviceArray(bytes);
  void* b = DeviceArray(bytes);
  for (auto _ : state) {
    for (int r = 0; r < kRepeats; ++r)
      Check(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice));
    Check(cudaDeviceSynchronize());
  }
  state.SetBytesProcessed(state.iterations() * kRepeats * 2 * static_cast<int64_t>(bytes));
  cudaFree(a);
  cudaFree(b);
}

void RunElementwise(benchmark::State& state, ElementOp op, int operands) {
  void* x = DeviceArray(kElements * 4);
  void* y = DeviceArray(kElements * 4);
  void* z = DeviceArray(kElements * 4);
  Fill(x, kElements);
  Fill(y, kElements);
  ElementwiseArgs args;
  args.op = op;
  args.in = F32();
  args.out = F32();
  args.a = x;
  args.b = operands == 2 ? y : nullptr;
  args.z = z;
  args.n = kElements;
  for (auto _ : state) {
    for (int r = 0; r < kRepeats; ++r) Check(g_machine->Elementwise(args));
    Check(g_machine->Synchronize());
  }
  state.SetBytesProcessed(state.iterations() * kRepeats * (operands + 1) * kElements * 4);
  cudaFree(x);
  cudaFree(y);
  cudaFree(z);
}
void BM_AddF32(benchmark::State& state) { RunElementwise(state, ElementOp::kAdd, 2); }
void BM_ExponentialF32(benchmark::State& state) {
  RunElementwise(state, ElementOp::kExponential, 1);
}

void BM_Transpose201F32(benchmark::State& state) {
  const int64_t n = kCube * kCube * kCube;
  void* in = DeviceArray(n * 4);
  void* out = DeviceArray(n * 4);
  // result dimension d reads operand dimension perm[d], perm = {2, 0, 1}.
  StridedCopyArgs args;
  args.rank = 3;
  args.element_bytes = 4;
  const int64_t in_strides[3] = {kCube * kCube, kCube, 1};
  const int64_t perm[3] = {2, 0, 1};
  for (int d = 0; d < 3; ++d) {
    args.dims[d] = kCube;
    args.out_strides[d] = in_strides[d];
    args.mul[d] = 1;
    args.div[d] = 1;
    args.in_dims[d] = kCube;
    args.in_strides[d] = in_strides[perm[d]];
  }
  args.in = in;
  args.out = out;
  for (auto _ : state) {
    for (int r = 0; r < kRepeats; ++r) Check(g_machine->StridedCopy(args));
    Check(g_machine->Synchronize());
  }
  state.SetBytesProcessed(state.iterations() * kRepeats * 2 * n * 4);
  cudaFree(in);
  cudaFree(out);
}

void BM_ReduceSumLastAxisF32(benchmark::State& state) {
  const int64_t columns = 4096;
  const int64_t rows = kElements / columns;
  void* in = DeviceArray(kElements * 4);
  void* init = DeviceArray(4);
  void* out = DeviceArray(rows * 4);
  Fill(in, kElements);
  ReduceRowsArgs args;
  args.combiner = Combiner::kAdd;
  args.kind = F32();
  args.rows = rows;
  args.columns = columns;
  args.in = in;
  args.init = init;
  args.out = out;
  for (auto _ : state) {
    for (int r = 0; r < kRepeats; ++r) Check(g_machine->ReduceRows(args));
    Check(g_machine->Synchronize());
  }
  state.SetBytesProcessed(state.iterations() * kRepeats * kElements * 4);
  cudaFree(in);
  cudaFree(init);
  cudaFree(out);
}

void RunMatmul(benchmark::State& state, bool bf16, bool direct) {
  const int64_t n = kMatrix;
  const size_t element = bf16 ? 2 : 4;
  void* a = DeviceArray(n * n * element);
  void* b = DeviceArray(n * n * element);
  void* c = DeviceArray(n * n * element);
  cublasHandle_t handle = nullptr;
  if (direct && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) Die("cublasCreate");
  MatmulArgs args;
  args.in = bf16 ? BF16Kind() : F32();
  args.out = args.in;
  args.m = args.n = args.k = n;
  args.lhs = a;
  args.rhs = b;
  args.out_data = c;
  const float one = 1;
  const float zero = 0;
  const cudaDataType_t type = bf16 ? CUDA_R_16BF : CUDA_R_32F;
  for (auto _ : state) {
    if (direct) {
      // cuBLAS with its defaults (CUBLAS_DEFAULT_MATH: no TF32 for f32).
      Check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, type, n, a, type, n,
                         &zero, c, type, n, CUBLAS_COMPUTE_32F,
                         CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS
                ? ""
                : "cublasGemmEx failed");
      Check(cudaDeviceSynchronize());
    } else {
      Check(g_machine->Matmul(args));
      Check(g_machine->Synchronize());
    }
  }
  state.counters["TFLOP/s"] =
      benchmark::Counter(2.0 * n * n * n * state.iterations() / 1e12, benchmark::Counter::kIsRate);
  if (handle != nullptr) cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
}
void BM_MatmulF32(benchmark::State& state) { RunMatmul(state, false, false); }
void BM_CublasF32(benchmark::State& state) { RunMatmul(state, false, true); }
void BM_MatmulBF16(benchmark::State& state) { RunMatmul(state, true, false); }
void BM_CublasBF16(benchmark::State& state) { RunMatmul(state, true, true); }

BENCHMARK(BM_CopyDeviceToDevice)->Arg(kElements * 4)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AddF32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ExponentialF32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Transpose201F32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReduceSumLastAxisF32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MatmulF32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CublasF32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MatmulBF16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CublasBF16)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace hlocheck::cuda

int main(int argc, char** argv) {
  std::string why;
  hlocheck::cuda::g_machine = hlocheck::cuda::CreateDeviceMachine(&why);
  if (hlocheck::cuda::g_machine == nullptr) {
    std::fprintf(stderr, "cuda_kernels_bench: %s: nothing to measure\n", why.c_str());
    return 77;
  }
  std::printf("%s\n", hlocheck::cuda::g_machine->Describe().c_str());
  benchmark::Initialize(&argc, argv);
  hlocheck::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  // Bandwidth ratios: (bytes moved / time) against the copy's.
  const double copy = reporter.time("BM_CopyDeviceToDevice");
  auto bandwidth = [&](const char* label, const char* name, double bytes_vs_copy, double goal) {
    const double ratio = bytes_vs_copy * copy / reporter.time(name);
    std::printf("%-44s bandwidth / cudaMemcpy D2D's: %.2f (goal >= %.2f)\n", label, ratio, goal);
  };
  // The copy moves 2 x 256 MiB per launch.
  bandwidth("add f32, 3 x 256 MiB", "BM_AddF32", 1.5, 0.8);
  bandwidth("exponential f32, 2 x 256 MiB", "BM_ExponentialF32", 1.0, 0.0);
  bandwidth("transpose {2,0,1} f32 512^3, 2 x 512 MiB", "BM_Transpose201F32", 2.0, 0.6);
  bandwidth("reduce-sum last axis f32, 256 MiB read", "BM_ReduceSumLastAxisF32", 0.5, 0.7);
  auto library = [&](const char* label, const char* ours, const char* theirs) {
    std::printf("%-44s speed / cuBLAS direct: %.2f (goal >= 0.95)\n", label,
                reporter.time(theirs) / reporter.time(ours));
  };
  library("dot_general f32 8192^3", "BM_MatmulF32", "BM_CublasF32");
  library("dot_general bf16 8192^3", "BM_MatmulBF16", "BM_CublasBF16");
  return 0;
}
