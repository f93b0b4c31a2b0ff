// The CPU adapter's regions (control flow, composite, call, a program's
// @main) run through the shared TensorRegion (adapters/region/) on this
// adapter's own op table: CpuRegionOps.
#ifndef HLOCHECK_ADAPTERS_CPU_TENSOR_REGION_H_
#define HLOCHECK_ADAPTERS_CPU_TENSOR_REGION_H_

#include <string_view>

#include "adapters/cpu/cpu_internal.h"
#include "adapters/region/tensor_region.h"

namespace hlocheck::cpu {

using hlocheck::OperandValues;
using hlocheck::ResultTensors;
using hlocheck::TensorRegion;
using hlocheck::Value;

// The CPU adapter's op table on a device (null only for Create, which never
// runs an op).
class CpuRegionOps : public RegionOps {
 public:
  explicit CpuRegionOps(const Device* device = nullptr) : device_(device) {}
  bool Has(std::string_view name) const override { return FindOp(name) != nullptr; }
  AdapterSupport Supports(const Case& c) const override { return SupportsCase(c); }
  absl::StatusOr<std::vector<Tensor>> Run(const Case& c) const override;

 private:
  const Device* device_;
};

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_TENSOR_REGION_H_
