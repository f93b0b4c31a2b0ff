// The accelerated CPU backend: the ops it knows run on Eigen's Tensor module
// over a thread pool, the way XLA:CPU runs its ops. Ops and element types it
// does not implement are reported by Supports(), never guessed at.
#ifndef HLOCHECK_ADAPTERS_CPU_CPU_ADAPTER_H_
#define HLOCHECK_ADAPTERS_CPU_CPU_ADAPTER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "adapters/adapter.h"
#include "core/case.h"
#include "core/program.h"

namespace hlocheck {

class CpuAdapter : public Adapter {
 public:
  // options.threads: size of the thread pool; 0 means one per hardware thread.
  explicit CpuAdapter(const AdapterOptions& options = {});
  ~CpuAdapter() override;
  CpuAdapter(const CpuAdapter&) = delete;
  CpuAdapter& operator=(const CpuAdapter&) = delete;

  std::string_view name() const override { return "cpu"; }
  std::vector<std::string> ImplementedOps() const override { return Ops(); }
  AdapterSupport Supports(const Case& c) const override;
  absl::StatusOr<std::vector<Tensor>> Run(const Case& c) override;
  // Elementwise ops build their result on a tensor of `results` of the
  // same size; the others allocate as Run() does.
  absl::Status RunInto(const Case& c, std::vector<Tensor>& results) override;

  // Runs @main of a StableHLO program op by op through this adapter's own
  // ops (tensor_region.h): how `hlocheck programs --backend cpu` runs it.
  // Unimplemented names an op (or a form of one) it does not run.
  absl::StatusOr<std::vector<Tensor>> RunProgram(const Module& module,
                                                 std::span<const Tensor> inputs);

  int threads() const;
  // The ops this backend implements, in the order of its table.
  static std::vector<std::string> Ops();

 private:
  // Holds the Eigen pool and device, so that this header stays free of Eigen.
  struct Pool;
  std::unique_ptr<Pool> pool_;
};

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_CPU_CPU_ADAPTER_H_
