// The CUDA adapter's kernels on the GPU: every launch a grid-stride loop
// of 256-thread blocks on one stream, memory from the stream-ordered
// allocator, and matrix products of f32, f64, f16 and bf16 through cuBLAS
// with TF32 and reduced-precision reductions off (no case's precision_config
// permits them: docs/numerics.md). Built only where CMake finds nvcc
// (HLOCHECK_CUDA); device_unavailable.cc stands in otherwise.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "adapters/cuda/kernels/machine_with_kernels.h"
#include "adapters/cuda/machines.h"

namespace hlocheck::cuda {
namespace {

template <typename F>
__global__ void ForEachKernel(int64_t n, F f) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    f(i);
  }
}

// One block of kTile x kTileRows threads per tile, the tile in shared memory.
template <typename F>
__global__ void TileKernel(F f) {
  __shared__ typename F::Tile tile;
  const auto place = f.PlaceOf(blockIdx.x);
  f.Load(place, threadIdx.x, threadIdx.y, tile);
  __syncthreads();
  f.Store(place, threadIdx.x, threadIdx.y, tile);
}

std::string ErrorText(cudaError_t error) {
  return error == cudaSuccess ? "" : std::string("CUDA: ") + cudaGetErrorString(error);
}

struct DeviceExec {
  cudaStream_t stream = nullptr;
  int64_t max_blocks = 65535;

  template <typename F>
  std::string ForEach(int64_t n, const F& f) const {
    constexpr int kThreads = 256;
    if (n <= 0) return "";  // a grid of no blocks is an invalid launch
    int64_t blocks = (n + kThreads - 1) / kThreads;
    if (blocks > max_blocks) blocks = max_blocks;
    ForEachKernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(n, f);
    return ErrorText(cudaGetLastError());
  }

  template <typename F>
  std::string ForEachTile(int64_t blocks, const F& f) const {
    if (blocks <= 0) return "";
    if (blocks > int64_t{0x7fffffff}) return "too many tiles for one launch";
    TileKernel<<<static_cast<unsigned>(blocks), dim3(kTile, kTileRows), 0, stream>>>(f);
    return ErrorText(cudaGetLastError());
  }
};

bool IsHalf(const ElementKind& kind) {
  return kind.storage == Storage::kMini16 && kind.mini.exponent_bits == 5 &&
         kind.mini.mantissa_bits == 10;
}
bool IsBfloat16(const ElementKind& kind) {
  return kind.storage == Storage::kMini16 && kind.mini.exponent_bits == 8 &&
         kind.mini.mantissa_bits == 7;
}

class DeviceMachine final : public MachineWithKernels<DeviceExec> {
 public:
  static std::unique_ptr<Machine> Create(std::string* why) {
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess || count == 0) {
      *why = "no CUDA device";
      if (error != cudaSuccess) *why += std::string(" (") + cudaGetErrorString(error) + ")";
      return nullptr;
    }
    auto machine = std::unique_ptr<DeviceMachine>(new DeviceMachine());
    std::string failed = ErrorText(cudaSetDevice(0));
    if (failed.empty()) failed = ErrorText(cudaStreamCreate(&machine->exec_.stream));
    if (failed.empty() && cublasCreate(&machine->blas_) != CUBLAS_STATUS_SUCCESS) {
      failed = "cuBLAS: cublasCreate failed";
    }
    if (failed.empty()) {
      cublasSetStream(machine->blas_, machine->exec_.stream);
      // No TF32 (f32 products also asked for as COMPUTE_32F_PEDANTIC below)
      // and no reduced-precision split-K reductions for f16 and bf16.
      cublasSetMathMode(machine->blas_, static_cast<cublasMath_t>(
                                            CUBLAS_DEFAULT_MATH |
                                            CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION));
      cudaDeviceProp properties{};
      cudaGetDeviceProperties(&properties, 0);
      machine->description_ = std::string("CUDA device 0: ") + properties.name + " (sm_" +
                              std::to_string(properties.major) + std::to_string(properties.minor) +
                              ")";
      machine->exec_.max_blocks = static_cast<int64_t>(properties.multiProcessorCount) * 32;
    }
    if (!failed.empty()) {
      *why = failed;
      return nullptr;
    }
    return machine;
  }

  ~DeviceMachine() override {
    if (blas_ != nullptr) cublasDestroy(blas_);
    if (exec_.stream != nullptr) cudaStreamDestroy(exec_.stream);
  }

  std::string Describe() const override { return description_; }
  bool on_device() const override { return true; }

  // Whole 8-byte words: scatter's atomics on 1- and 2-byte elements
  // compare-and-swap the aligned 32-bit word around them, which for the
  // last elements reaches past a size that is not a multiple of 4
  // (compute-sanitizer's memcheck saw it on an H200).
  std::string Allocate(size_t bytes, void** pointer) override {
    const size_t words = bytes == 0 ? 1 : (bytes + 7) / 8;
    return ErrorText(cudaMallocAsync(pointer, words * 8, exec_.stream));
  }
  void Free(void* pointer) override { cudaFreeAsync(pointer, exec_.stream); }
  std::string CopyIn(void* destination, const void* source, size_t bytes) override {
    if (bytes == 0) return "";
    return ErrorText(
        cudaMemcpyAsync(destination, source, bytes, cudaMemcpyHostToDevice, exec_.stream));
  }
  std::string CopyOut(void* destination, const void* source, size_t bytes) override {
    if (bytes == 0) return "";
    const std::string error = ErrorText(
        cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToHost, exec_.stream));
    return error.empty() ? Synchronize() : error;
  }
  std::string Synchronize() override { return ErrorText(cudaStreamSynchronize(exec_.stream)); }

  bool HasLibraryMatmul(const ElementKind& kind) const override {
    return kind.storage == Storage::kF32 || kind.storage == Storage::kF64 || IsHalf(kind) ||
           IsBfloat16(kind);
  }

  // Row-major C = A B is column-major C^T = B^T A^T: cuBLAS gets B as its
  // first operand. The TF32 fault asks cuBLAS for TF32 tensor cores.
  std::string Matmul(const MatmulArgs& args) override {
    if (!HasLibraryMatmul(args.in) || args.in.storage != args.out.storage ||
        args.in.mini.exponent_bits != args.out.mini.exponent_bits || args.m == 0 || args.n == 0 ||
        args.k == 0 || args.batch == 0) {
      return MachineWithKernels<DeviceExec>::Matmul(args);
    }
    cudaDataType_t type = CUDA_R_32F;
    cublasComputeType_t compute =
        args.tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F_PEDANTIC;
    const float one_f = 1;
    const float zero_f = 0;
    const double one_d = 1;
    const double zero_d = 0;
    const void* alpha = &one_f;
    const void* beta = &zero_f;
    if (args.in.storage == Storage::kF64) {
      type = CUDA_R_64F;
      compute = CUBLAS_COMPUTE_64F;
      alpha = &one_d;
      beta = &zero_d;
    } else if (IsHalf(args.in)) {
      type = CUDA_R_16F;
      compute = CUBLAS_COMPUTE_32F;  // tensor cores, f32 accumulation
    } else if (IsBfloat16(args.in)) {
      type = CUDA_R_16BF;
      compute = CUBLAS_COMPUTE_32F;
    }
    const cublasStatus_t status = cublasGemmStridedBatchedEx(
        blas_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(args.n), static_cast<int>(args.m),
        static_cast<int>(args.k), alpha, args.rhs, type, static_cast<int>(args.n), args.k * args.n,
        args.lhs, type, static_cast<int>(args.k), args.m * args.k, beta, args.out_data, type,
        static_cast<int>(args.n), args.m * args.n, static_cast<int>(args.batch), compute,
        CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS) {
      return std::string("cuBLAS: ") + cublasGetStatusString(status);
    }
    return "";
  }

 protected:
  const DeviceExec& exec() const override { return exec_; }

 private:
  DeviceMachine() = default;
  DeviceExec exec_;
  cublasHandle_t blas_ = nullptr;
  std::string description_;
};

}  // namespace

std::unique_ptr<Machine> CreateDeviceMachine(std::string* why) {
  return DeviceMachine::Create(why);
}

bool BuiltWithCuda() { return true; }

}  // namespace hlocheck::cuda
