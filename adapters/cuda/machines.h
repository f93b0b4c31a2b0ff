// The machines the CUDA adapter runs on: the GPU (device_machine.cu, built
// where nvcc is found) and the host, running the same kernels in loops.
#ifndef HLOCHECK_ADAPTERS_CUDA_MACHINES_H_
#define HLOCHECK_ADAPTERS_CUDA_MACHINES_H_

#include <memory>
#include <string>

#include "adapters/cuda/kernels/kernel_api.h"

namespace hlocheck::cuda {

std::unique_ptr<Machine> CreateHostMachine();

// The first CUDA device, or null with `*why` saying why not: "no CUDA
// device" (the driver sees none), or that this hlocheck was built without
// CUDA.
std::unique_ptr<Machine> CreateDeviceMachine(std::string* why);

// Whether this build has the GPU machine at all (HLOCHECK_CUDA).
bool BuiltWithCuda();

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_MACHINES_H_
