// Threading and kernel choice for gemm.h. Every task computes one tile of one
// product with its own packed copies of the operands, so tasks share nothing
// but the inputs and never wait for each other.
#include "adapters/cpu/gemm.h"

#include <algorithm>
#include <memory>
#include <new>

namespace hlocheck::cpu {
namespace {

template <typename T>
const GemmFunctions<T>& FunctionsOf(const GemmKernel& kernel) {
  if constexpr (std::is_same_v<T, float>) {
    return kernel.f32;
  } else {
    return kernel.f64;
  }
}

struct AlignedDelete {
  void operator()(void* p) const { ::operator delete(p, std::align_val_t(64)); }
};

// Below this many multiply-adds a product is not split between threads
// (batches still are): packing would cost more than the threads win.
constexpr double kSplitProduct = 128.0 * 128.0 * 128.0;

}  // namespace

std::vector<const GemmKernel*> SupportedGemmKernels() {
  std::vector<const GemmKernel*> kernels;
#if defined(__x86_64__)
  // Asked here, in code built for the baseline (libgcc's checks include the
  // operating system's support for the wider registers).
  if (__builtin_cpu_supports("avx512f")) kernels.push_back(&kGemmKernelAvx512);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    kernels.push_back(&kGemmKernelAvx2);
  }
#endif
  kernels.push_back(&kGemmKernelBaseline);
  return kernels;
}

const GemmKernel& SelectedGemmKernel() {
  static const GemmKernel* selected = SupportedGemmKernels().front();
  return *selected;
}

template <typename T>
void BatchedGemm(const GemmKernel& kernel, const T* lhs, const T* rhs, T* out, int64_t batch,
                 int64_t m, int64_t k, int64_t n, const Device& device) {
  if (batch == 0 || m == 0 || n == 0) return;
  if (k == 0) {
    ParallelFor(device, batch * m * n, sizeof(T), 1,
                [&](int64_t first, int64_t last) { std::fill(out + first, out + last, T{0}); });
    return;
  }
  const GemmFunctions<T>& functions = FunctionsOf<T>(kernel);
  // Tiles per product: enough for every thread when the batches alone are
  // too few, cut along the longer side at multiples of the register tile.
  const double products = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  const int64_t threads = device.numThreads();
  int64_t tiles = 1;
  if (batch < threads && products >= kSplitProduct) tiles = (threads + batch - 1) / batch;
  const bool split_columns = n >= m;
  const int64_t unit = split_columns ? functions.tile_columns : functions.tile_rows;
  const int64_t extent = split_columns ? n : m;
  const int64_t units = (extent + unit - 1) / unit;
  tiles = std::clamp<int64_t>(tiles, 1, units);
  const int64_t tile_extent = (units + tiles - 1) / tiles * unit;
  tiles = (extent + tile_extent - 1) / tile_extent;

  auto run = [&](int64_t task) {
    const int64_t b = task / tiles;
    const int64_t first = task % tiles * tile_extent;
    const int64_t size = std::min(tile_extent, extent - first);
    GemmProblem<T> problem{m, n, k, lhs + b * m * k, k, rhs + b * k * n, n, out + b * m * n, n};
    if (split_columns) {
      problem.n = size;
      problem.b += first;
      problem.c += first;
    } else {
      problem.m = size;
      problem.a += first * k;
      problem.c += first * n;
    }
    const int64_t elements = functions.workspace_elements(problem.m, problem.n, problem.k);
    std::unique_ptr<void, AlignedDelete> workspace(
        ::operator new(static_cast<size_t>(elements) * sizeof(T), std::align_val_t(64)));
    functions.multiply(problem, static_cast<T*>(workspace.get()));
  };
  const int64_t tasks = batch * tiles;
  if (tasks == 1) {
    run(0);
    return;
  }
  const double per_task = 2.0 * products / static_cast<double>(tiles);
  const double bytes = static_cast<double>((m * k + k * n + m * n) * sizeof(T)) / tiles;
  ParallelFor(device, tasks, bytes, per_task, [&](int64_t first, int64_t last) {
    for (int64_t task = first; task < last; ++task) run(task);
  });
}

template void BatchedGemm<float>(const GemmKernel&, const float*, const float*, float*, int64_t,
                                 int64_t, int64_t, int64_t, const Device&);
template void BatchedGemm<double>(const GemmKernel&, const double*, const double*, double*, int64_t,
                                  int64_t, int64_t, int64_t, const Device&);

}  // namespace hlocheck::cpu
