// The CUDA adapter on the process grid: replica_id and partition_id, each
// process's id passed through the machine. The collectives themselves
// (all_gather, all_reduce, all_to_all, collective_broadcast,
// collective_permute, reduce_scatter, collective_reduce) are not
// implemented on CUDA yet: the design runs the grid's processes as
// streams on one device, which is not built; Supports says so.
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapters/cuda/cuda_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cuda {
namespace {

AdapterSupport SupportsProcessId(const Case& c) {
  if (!c.operands.empty() || c.result_types.size() != static_cast<size_t>(c.ProcessCount())) {
    return AdapterSupport::No(c.op + " takes no operands and gives one id per process");
  }
  return AdapterSupport::Yes();
}

// replica_id, partition_id: each process's own (process p is replica
// p / num_partitions, partition p % num_partitions).
absl::StatusOr<Results> RunProcessId(const Case& c, Context& context) {
  Results results;
  for (int64_t p = 0; p < c.ProcessCount(); ++p) {
    Tensor id(Shape{}, ElementType::kUI32);
    id.values<ElementType::kUI32>()[0] =
        static_cast<uint32_t>(c.op == "replica_id" ? p / c.num_partitions : p % c.num_partitions);
    HLOCHECK_ASSIGN_OR_RETURN(Tensor copy, ThroughMachine(context, id));
    results.push_back(std::move(copy));
  }
  return results;
}

}  // namespace

std::vector<OpEntry> CollectivesOps() {
  return {
      {"replica_id", &SupportsProcessId, &RunProcessId},
      {"partition_id", &SupportsProcessId, &RunProcessId},
  };
}

}  // namespace hlocheck::cuda
