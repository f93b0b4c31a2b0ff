// The kernels of kernel_api.h's Machine, once for any executor: a machine
// (device_machine.cu, host_machine.cc) derives from this with its Exec and
// adds memory. Exec::ForEach(n, functor) runs functor(i) for i in [0, n)
// and returns "" or the launch's error.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_MACHINE_WITH_KERNELS_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_MACHINE_WITH_KERNELS_H_

#include <string>

#include "adapters/cuda/kernels/batch_norm_kernels.h"
#include "adapters/cuda/kernels/contraction_kernels.h"
#include "adapters/cuda/kernels/data_movement_kernels.h"
#include "adapters/cuda/kernels/elementwise_kernels.h"
#include "adapters/cuda/kernels/fft_kernels.h"
#include "adapters/cuda/kernels/kernel_api.h"
#include "adapters/cuda/kernels/linear_algebra_kernels.h"
#include "adapters/cuda/kernels/quantization_kernels.h"
#include "adapters/cuda/kernels/random_kernels.h"
#include "adapters/cuda/kernels/reduction_kernels.h"
#include "adapters/cuda/kernels/scatter_kernels.h"
#include "adapters/cuda/kernels/sort_kernels.h"

namespace hlocheck::cuda {

template <typename Exec>
class MachineWithKernels : public Machine {
 public:
  std::string Elementwise(const ElementwiseArgs& args) override {
    return RunElementwise(exec(), args);
  }
  std::string StridedCopy(const StridedCopyArgs& args) override {
    return RunStridedCopy(exec(), args);
  }
  std::string Iota(const IotaArgs& args) override { return RunIota(exec(), args); }
  std::string ReduceRows(const ReduceRowsArgs& args) override {
    return RunReduceRows(exec(), *this, args);
  }
  std::string ReduceWindow(const ReduceWindowArgs& args) override {
    return RunReduceWindow(exec(), args);
  }
  std::string Matmul(const MatmulArgs& args) override { return RunMatmul(exec(), args); }
  std::string Convolution(const ConvolutionArgs& args) override {
    return RunConvolution(exec(), args);
  }
  std::string BatchNorm(const BatchNormArgs& args) override { return RunBatchNorm(exec(), args); }
  std::string Cholesky(const CholeskyArgs& args) override { return RunCholesky(exec(), args); }
  std::string TriangularSolve(const TriangularSolveArgs& args) override {
    return RunTriangularSolve(exec(), args);
  }
  std::string RngBits(const RngBitsArgs& args) override { return RunRngBits(exec(), args); }
  std::string Dft(const DftArgs& args) override { return RunDft(exec(), args); }
  std::string Rng(const RngArgs& args) override { return RunRng(exec(), args); }
  std::string Quantize(const QuantizeArgs& args) override { return RunQuantize(exec(), args); }
  std::string SortRows(const SortRowsArgs& args) override { return RunSortRows(exec(), args); }
  std::string PermuteRows(const PermuteRowsArgs& args) override {
    return RunPermuteRows(exec(), args);
  }
  std::string Gather(const GatherArgs& args) override { return RunGather(exec(), args); }
  std::string Scatter(const ScatterArgs& args) override { return RunScatter(exec(), args); }
  std::string SelectAndScatter(const SelectAndScatterArgs& args) override {
    return RunSelectAndScatter(exec(), args);
  }

 protected:
  virtual const Exec& exec() const = 0;
};

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_MACHINE_WITH_KERNELS_H_
