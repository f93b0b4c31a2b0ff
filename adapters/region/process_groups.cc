#include "adapters/region/process_groups.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace {

struct Process {
  int64_t replica = 0;
  int64_t partition = 0;
};

struct Grid {
  int64_t replicas = 1;
  int64_t partitions = 1;
  int64_t size() const { return replicas * partitions; }
  int64_t Index(Process p) const { return p.replica * partitions + p.partition; }
};

absl::StatusOr<std::vector<std::vector<int64_t>>> IdRows(const Case& c, const char* name) {
  std::vector<std::vector<int64_t>> rows;
  const Attribute* a = c.FindAttribute(name);
  if (a == nullptr) return rows;
  const Tensor* t = std::get_if<Tensor>(a);
  if (t == nullptr || t->shape().size() != 2 || t->element_type() != ElementType::kSI64) {
    return absl::InvalidArgumentError(absl::StrCat(c.op, ": ", name, " must be tensor<NxMxi64>"));
  }
  auto values = t->values<ElementType::kSI64>();
  const int64_t columns = t->shape()[1];
  for (int64_t r = 0; r < t->shape()[0]; ++r) {
    std::vector<int64_t>& row =
        rows.emplace_back(values.begin() + r * columns, values.begin() + (r + 1) * columns);
    // A ragged group: the dense attribute pads it with -1.
    while (!row.empty() && row.back() == -1) row.pop_back();
  }
  return rows;
}

// The process groups the op's attributes say (spec: cross_replica,
// cross_partition, cross_replica_and_partition, flattened_ids), each
// process given by its index in the grid.
absl::StatusOr<std::vector<std::vector<int64_t>>> Groups(const Case& c, const Grid& grid) {
  const bool permute = c.op == "collective_permute";
  HLOCHECK_ASSIGN_OR_RETURN(auto rows,
                            IdRows(c, permute ? "source_target_pairs" : "replica_groups"));
  const int64_t channel = IntAttributeOr(c, "channel_id", 0);
  const Attribute* global_attribute = c.FindAttribute("use_global_device_ids");
  const bool global = global_attribute != nullptr &&
                      std::holds_alternative<bool>(*global_attribute) &&
                      std::get<bool>(*global_attribute);
  std::vector<std::vector<int64_t>> groups;
  auto check = [&](int64_t id, int64_t limit) -> absl::Status {
    if (id < 0 || id >= limit) {
      return absl::InvalidArgumentError(absl::StrCat(c.op, ": id ", id, " outside the grid"));
    }
    return absl::OkStatus();
  };
  const bool gather_like = c.op == "all_gather" || c.op == "all_reduce" || c.op == "reduce_scatter";
  if (gather_like && channel > 0 && global) {  // flattened ids
    for (const auto& row : rows) {
      for (int64_t id : row) HLOCHECK_RETURN_IF_ERROR(check(id, grid.size()));
      groups.push_back(row);
    }
  } else if (gather_like && channel > 0) {  // replicas x every partition
    for (const auto& row : rows) {
      std::vector<int64_t>& group = groups.emplace_back();
      for (int64_t partition = 0; partition < grid.partitions; ++partition) {
        for (int64_t replica : row) {
          HLOCHECK_RETURN_IF_ERROR(check(replica, grid.replicas));
          group.push_back(grid.Index({replica, partition}));
        }
      }
    }
  } else if (channel > 0) {  // partitions, within each replica
    for (int64_t replica = 0; replica < grid.replicas; ++replica) {
      for (const auto& row : rows) {
        std::vector<int64_t>& group = groups.emplace_back();
        for (int64_t partition : row) {
          HLOCHECK_RETURN_IF_ERROR(check(partition, grid.partitions));
          group.push_back(grid.Index({replica, partition}));
        }
      }
    }
  } else {  // replicas, within each partition
    for (int64_t partition = 0; partition < grid.partitions; ++partition) {
      for (const auto& row : rows) {
        std::vector<int64_t>& group = groups.emplace_back();
        for (int64_t replica : row) {
          HLOCHECK_RETURN_IF_ERROR(check(replica, grid.replicas));
          group.push_back(grid.Index({replica, partition}));
        }
      }
    }
  }
  return groups;
}

}  // namespace

int64_t IntAttributeOr(const Case& c, const char* name, int64_t missing) {
  const Attribute* a = c.FindAttribute(name);
  return a != nullptr && std::holds_alternative<int64_t>(*a) ? std::get<int64_t>(*a) : missing;
}

absl::StatusOr<ProcessGroups> GroupsOf(const Case& c) {
  const Grid grid{c.num_replicas, c.num_partitions};
  ProcessGroups result;
  HLOCHECK_ASSIGN_OR_RETURN(result.groups, Groups(c, grid));
  result.group_of.assign(static_cast<size_t>(grid.size()), -1);
  result.index_in.assign(static_cast<size_t>(grid.size()), -1);
  const auto& groups = result.groups;
  auto& group_of = result.group_of;
  auto& index_in = result.index_in;
  for (size_t g = 0; g < groups.size(); ++g) {
    for (size_t i = 0; i < groups[g].size(); ++i) {
      const int64_t p = groups[g][i];
      if (c.op == "collective_permute") {
        if (i == 1) {  // a target: its pair's source
          if (group_of[p] >= 0) {
            return absl::InvalidArgumentError("collective_permute: a process is two targets");
          }
          group_of[p] = static_cast<int64_t>(g);
        }
        continue;
      }
      if (group_of[p] >= 0) return absl::InvalidArgumentError(c.op + ": a process in two groups");
      group_of[p] = static_cast<int64_t>(g);
      index_in[p] = static_cast<int64_t>(i);
    }
  }
  if ((c.op == "all_gather" || c.op == "all_to_all" || c.op == "all_reduce" ||
       c.op == "reduce_scatter") &&
      std::count(group_of.begin(), group_of.end(), -1) > 0) {
    return absl::InvalidArgumentError(c.op + ": a process in no group");
  }
  return result;
}

}  // namespace hlocheck
