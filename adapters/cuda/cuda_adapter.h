// The CUDA backend: the ops it knows as CUDA C++ kernels (kernels/) on the
// first GPU, one stream, inputs copied in and results copied out per case;
// matrix products through cuBLAS. `--backend cuda-host` runs the very same
// kernels on the host, so that their logic is tested where there is no GPU.
// Ops and element types it does not implement are reported by Supports(),
// never guessed at.
#ifndef HLOCHECK_ADAPTERS_CUDA_CUDA_ADAPTER_H_
#define HLOCHECK_ADAPTERS_CUDA_CUDA_ADAPTER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "adapters/cuda/cuda_internal.h"

namespace hlocheck {

class CudaAdapter : public Adapter {
 public:
  // On the first CUDA device; FailedPrecondition "no CUDA device ..." where
  // there is none (or this build has no CUDA).
  static absl::StatusOr<std::unique_ptr<CudaAdapter>> OnDevice(std::string name,
                                                               cuda::Faults faults = {});
  // The same kernels on the host.
  static std::unique_ptr<CudaAdapter> OnHost(std::string name, cuda::Faults faults = {});

  ~CudaAdapter() override;

  std::string_view name() const override { return name_; }
  std::vector<std::string> ImplementedOps() const override { return Ops(); }
  AdapterSupport Supports(const Case& c) const override;
  absl::StatusOr<std::vector<Tensor>> Run(const Case& c) override;

  // "CUDA device 0: NVIDIA H200 (sm_90)", or the host's description.
  std::string DescribeMachine() const;
  static std::vector<std::string> Ops();

 private:
  CudaAdapter(std::string name, std::unique_ptr<cuda::Machine> machine, cuda::Faults faults);
  std::string name_;
  std::unique_ptr<cuda::Machine> machine_;
  cuda::Faults faults_;
};

struct CudaFaultDescription {
  std::string name;  // faulty-cuda-NAME (GPU) and faulty-cuda-host-NAME
  std::string description;
  cuda::Faults faults;
};
std::vector<CudaFaultDescription> CudaFaults();

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_CUDA_CUDA_ADAPTER_H_
