// Built instead of device_machine.cu where CMake found no nvcc (or
// HLOCHECK_CUDA=OFF): `--backend cuda` then says so; cuda-host still runs
// the kernels on the host.
#include <memory>
#include <string>

#include "adapters/cuda/machines.h"

namespace hlocheck::cuda {

std::unique_ptr<Machine> CreateDeviceMachine(std::string* why) {
  *why =
      "no CUDA device: this hlocheck was built without CUDA (configure with nvcc on the PATH, or "
      "-DHLOCHECK_CUDA=ON)";
  return nullptr;
}

bool BuiltWithCuda() { return false; }

}  // namespace hlocheck::cuda
