#include "reports/shard_merge.h"

#include <algorithm>

#include "absl/status/status.h"

namespace hlocheck {
namespace {

// "hlocheck run --shard 1/4 --ops add" -> "hlocheck run --ops add".
std::string WithoutShardFlag(std::string command) {
  for (size_t at = command.find(" --shard "); at != std::string::npos;
       at = command.find(" --shard ")) {
    const size_t end = command.find(' ', at + 9);
    command.erase(at, end == std::string::npos ? std::string::npos : end - at);
  }
  for (size_t at = command.find(" --shard="); at != std::string::npos;
       at = command.find(" --shard=")) {
    const size_t end = command.find(' ', at + 1);
    command.erase(at, end == std::string::npos ? std::string::npos : end - at);
  }
  return command;
}

}  // namespace

absl::StatusOr<GateRun> MergeShards(const std::vector<ShardReport>& shards) {
  if (shards.empty()) return absl::InvalidArgumentError("no shard reports to merge");
  const int64_t total = shards.front().run.shard_total;
  std::vector<const ShardReport*> by_index(static_cast<size_t>(std::max<int64_t>(total, 1)),
                                           nullptr);
  const GateRun& first = shards.front().run;
  for (const ShardReport& shard : shards) {
    const GateRun& run = shard.run;
    auto differs = [&](const std::string& what) {
      return absl::InvalidArgumentError(shard.file + ": " + what + " differs from " +
                                        shards.front().file + "'s: not a shard of the same run");
    };
    if (run.shard_total != total) {
      return absl::InvalidArgumentError(
          shard.file + ": shard of " + std::to_string(run.shard_total) + ", but " +
          shards.front().file + " is a shard of " + std::to_string(total));
    }
    if (run.backend != first.backend) return differs("the backend");
    if (run.seed != first.seed) return differs("the seed");
    if (run.cases_per_group != first.cases_per_group) return differs("the cases per group");
    if (run.max_elements != first.max_elements) return differs("the largest tensor");
    if (run.spec_digest != first.spec_digest) return differs("the spec digest");
    if (run.shard_index < 0 || run.shard_index >= total) {
      return absl::InvalidArgumentError(shard.file + ": shard index " +
                                        std::to_string(run.shard_index) + " is not below " +
                                        std::to_string(total));
    }
    if (by_index[run.shard_index] != nullptr) {
      return absl::InvalidArgumentError(shard.file + ": shard " + std::to_string(run.shard_index) +
                                        " is given twice (also " + by_index[run.shard_index]->file +
                                        ")");
    }
    by_index[run.shard_index] = &shard;
  }
  for (int64_t i = 0; i < total; ++i) {
    if (by_index[i] == nullptr) {
      return absl::InvalidArgumentError("shard " + std::to_string(i) + " of " +
                                        std::to_string(total) + " is missing");
    }
  }
  const int64_t groups = first.plan_groups;
  for (const ShardReport& shard : shards) {
    if (shard.run.plan_groups != groups) {
      return absl::InvalidArgumentError(shard.file + ": a plan of " +
                                        std::to_string(shard.run.plan_groups) + " groups, but " +
                                        shards.front().file + "'s has " + std::to_string(groups) +
                                        ": not a shard of the same run (other --ops or --types?)");
    }
  }
  for (int64_t i = 0; i < total; ++i) {
    // Positions i, i + n, ... below `groups`.
    const int64_t expected = groups > i ? (groups - i + total - 1) / total : 0;
    const int64_t has = static_cast<int64_t>(by_index[i]->run.groups.size());
    if (has != expected) {
      return absl::InvalidArgumentError(
          by_index[i]->file + ": shard " + std::to_string(i) + " has " + std::to_string(has) +
          " groups where its place in a plan of " + std::to_string(groups) + " gives it " +
          std::to_string(expected) + ": did every shard finish?");
    }
  }
  GateRun merged = first;
  merged.groups.clear();
  merged.shard_index = 0;
  merged.shard_total = 1;
  merged.command_line = WithoutShardFlag(first.command_line);
  merged.seconds = 0;
  for (int64_t position = 0; position < groups; ++position) {
    const GateRun& run = by_index[position % total]->run;
    merged.groups.push_back(run.groups[static_cast<size_t>(position / total)]);
  }
  for (const ShardReport& shard : shards) {
    merged.seconds = std::max(merged.seconds, shard.run.seconds);
    if (!shard.run.started_at.empty() &&
        (merged.started_at.empty() || shard.run.started_at < merged.started_at)) {
      merged.started_at = shard.run.started_at;
    }
  }
  return merged;
}

}  // namespace hlocheck
