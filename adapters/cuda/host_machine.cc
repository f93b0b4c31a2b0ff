// The CUDA adapter's kernels on the host: each launch is a loop over the
// elements, in order, on the calling thread. It runs exactly the functors
// the GPU runs (kernels/*_kernels.h), with the C library's math functions
// in place of CUDA's, so that `--backend cuda-host` and the tests check
// the kernels' indexing, dispatch and schedules on machines without a GPU.
#include "adapters/cuda/machines.h"

#include <cstdlib>
#include <cstring>
#include <memory>

#include "adapters/cuda/kernels/machine_with_kernels.h"

namespace hlocheck::cuda {
namespace {

struct HostExec {
  template <typename F>
  std::string ForEach(int64_t n, const F& f) const {
    for (int64_t i = 0; i < n; ++i) f(i);
    return "";
  }

  // Blocks of kTile x kTileRows threads sharing a tile: every thread's Load,
  // then (where the GPU has its barrier) every thread's Store.
  template <typename F>
  std::string ForEachTile(int64_t blocks, const F& f) const {
    typename F::Tile tile;
    for (int64_t b = 0; b < blocks; ++b) {
      const auto place = f.PlaceOf(b);
      for (int y = 0; y < kTileRows; ++y) {
        for (int x = 0; x < kTile; ++x) f.Load(place, x, y, tile);
      }
      for (int y = 0; y < kTileRows; ++y) {
        for (int x = 0; x < kTile; ++x) f.Store(place, x, y, tile);
      }
    }
    return "";
  }
};

class HostMachine final : public MachineWithKernels<HostExec> {
 public:
  std::string Describe() const override {
    return "the CUDA adapter's kernels on the host (no GPU)";
  }
  bool on_device() const override { return false; }

  std::string Allocate(size_t bytes, void** pointer) override {
    // At least one byte, so that empty tensors have an address too.
    *pointer = std::malloc(bytes == 0 ? 1 : bytes);
    return *pointer == nullptr ? "out of host memory" : "";
  }
  void Free(void* pointer) override { std::free(pointer); }
  std::string CopyIn(void* destination, const void* source, size_t bytes) override {
    if (bytes > 0) std::memcpy(destination, source, bytes);
    return "";
  }
  std::string CopyOut(void* destination, const void* source, size_t bytes) override {
    if (bytes > 0) std::memcpy(destination, source, bytes);
    return "";
  }
  std::string Synchronize() override { return ""; }

 protected:
  const HostExec& exec() const override { return exec_; }

 private:
  HostExec exec_;
};

}  // namespace

std::unique_ptr<Machine> CreateHostMachine() { return std::make_unique<HostMachine>(); }

}  // namespace hlocheck::cuda
