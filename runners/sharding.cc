#include "runners/sharding.h"

#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"

namespace hlocheck {
namespace {

absl::StatusOr<int64_t> Number(const std::string& text, const std::string& where) {
  int64_t value = 0;
  if (!absl::SimpleAtoi(text, &value) || value < 0) {
    return absl::InvalidArgumentError(where + " is '" + text + "', not a non-negative integer");
  }
  return value;
}

absl::StatusOr<Shard> Checked(Shard shard) {
  if (shard.total < 1) {
    return absl::InvalidArgumentError(shard.source +
                                      ": the total number of shards must be at "
                                      "least 1");
  }
  if (shard.index >= shard.total) {
    return absl::InvalidArgumentError(shard.source + ": shard index " +
                                      std::to_string(shard.index) + " is not below the total " +
                                      std::to_string(shard.total));
  }
  return shard;
}

// An index and a total from two environment variables, or nullopt when
// the index is not set.
absl::StatusOr<std::optional<Shard>> FromPair(const std::function<const char*(const char*)>& getenv,
                                              const char* index_name, const char* total_name) {
  const char* index = getenv(index_name);
  if (index == nullptr || *index == '\0') return std::optional<Shard>();
  const char* total = getenv(total_name);
  if (total == nullptr || *total == '\0') {
    return absl::InvalidArgumentError(std::string(index_name) + " is set but " + total_name +
                                      " is not: how many shards are there?");
  }
  Shard shard;
  shard.source = index_name;
  auto i = Number(index, index_name);
  if (!i.ok()) return i.status();
  auto n = Number(total, total_name);
  if (!n.ok()) return n.status();
  shard.index = *i;
  shard.total = *n;
  auto checked = Checked(shard);
  if (!checked.ok()) return checked.status();
  return std::optional<Shard>(*checked);
}

}  // namespace

absl::StatusOr<Shard> ResolveShard(const std::string& flag,
                                   const std::function<const char*(const char*)>& getenv) {
  if (!flag.empty()) {
    const size_t slash = flag.find('/');
    if (slash == std::string::npos) {
      return absl::InvalidArgumentError("--shard is '" + flag + "', not INDEX/TOTAL (e.g. 0/4)");
    }
    Shard shard;
    shard.source = "--shard";
    auto i = Number(flag.substr(0, slash), "--shard's index");
    if (!i.ok()) return i.status();
    auto n = Number(flag.substr(slash + 1), "--shard's total");
    if (!n.ok()) return n.status();
    shard.index = *i;
    shard.total = *n;
    return Checked(shard);
  }
  // Bazel's names first: under Bazel the GTEST_ ones may be set too (to the same values).
  for (auto [index_name, total_name] :
       {std::pair{"TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS"},
        std::pair{"GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS"},
        std::pair{"JOB_COMPLETION_INDEX", "HLOCHECK_TOTAL_SHARDS"}}) {
    auto shard = FromPair(getenv, index_name, total_name);
    if (!shard.ok()) return shard.status();
    if (*shard) {
      if (std::string(index_name) == "TEST_SHARD_INDEX") {
        const char* status_file = getenv("TEST_SHARD_STATUS_FILE");
        if (status_file != nullptr) (*shard)->status_file = status_file;
      }
      return **shard;
    }
  }
  Shard whole;
  whole.source = "unsharded";
  return whole;
}

}  // namespace hlocheck
