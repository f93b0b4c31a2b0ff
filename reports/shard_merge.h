// One run from the reports of its shards (`hlocheck merge`): shard i of n
// ran the plan's groups i, i + n, ..., so interleaving the shards' groups
// gives the unsharded run's groups in its order, and its totals exactly.
#ifndef HLOCHECK_REPORTS_SHARD_MERGE_H_
#define HLOCHECK_REPORTS_SHARD_MERGE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "reports/gate_result.h"

namespace hlocheck {

struct ShardReport {
  GateRun run;
  std::string file;  // for errors
};

// Every shard 0..n-1 exactly once, of one run (the same backend, seed,
// cases per group, tensor size and spec), each with the number of groups
// its place in the plan gives it; otherwise an error naming the file.
// The merged run's wall time is the longest shard's; its command line is
// the shards' without --shard.
absl::StatusOr<GateRun> MergeShards(const std::vector<ShardReport>& shards);

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_SHARD_MERGE_H_
