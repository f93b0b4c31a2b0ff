// The process grid of a collective's case, the same question for every
// backend: which processes form each group (the spec's cross_replica,
// cross_partition, cross_replica_and_partition and flattened_ids modes, or
// collective_permute's source-target pairs), and where each process is.
// Written apart from the oracle's (oracle/collectives.h).
#ifndef HLOCHECK_ADAPTERS_REGION_PROCESS_GROUPS_H_
#define HLOCHECK_ADAPTERS_REGION_PROCESS_GROUPS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"

namespace hlocheck {

struct ProcessGroups {
  // Each group's processes, by index in the grid (replica * num_partitions
  // + partition); for collective_permute, each pair (source, target).
  std::vector<std::vector<int64_t>> groups;
  // Per process: its group (-1: in none, or nobody's target), and its index
  // there (-1 for collective_permute).
  std::vector<int64_t> group_of;
  std::vector<int64_t> index_in;
};

// The groups of a case on a grid, after checking that no process is in two
// (or two pairs' target), and, for all_gather, all_to_all, all_reduce and
// reduce_scatter, that every process is in one.
absl::StatusOr<ProcessGroups> GroupsOf(const Case& c);

// An integer attribute, or `missing`.
int64_t IntAttributeOr(const Case& c, const char* name, int64_t missing);

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_REGION_PROCESS_GROUPS_H_
