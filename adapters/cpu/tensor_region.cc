#include "adapters/cpu/tensor_region.h"

#include "absl/strings/str_cat.h"

namespace hlocheck::cpu {

absl::StatusOr<std::vector<Tensor>> CpuRegionOps::Run(const Case& c) const {
  const OpEntry* entry = HasQuantizedTensor(c) ? FindQuantizedOp(c.op) : nullptr;
  if (entry == nullptr) entry = FindOp(c.op);
  if (entry == nullptr || device_ == nullptr) {
    return absl::InternalError(absl::StrCat("region: cannot run ", c.op));
  }
  return entry->run(c, *device_);
}

}  // namespace hlocheck::cpu
