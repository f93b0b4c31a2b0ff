// Which part of the gate this process runs, the way CI systems and batch
// schedulers say it: `--shard INDEX/TOTAL`, Bazel's TEST_SHARD_INDEX and
// TEST_TOTAL_SHARDS (touching TEST_SHARD_STATUS_FILE to say the test
// shards), GoogleTest's GTEST_SHARD_INDEX and GTEST_TOTAL_SHARDS, or a
// Kubernetes Indexed Job's JOB_COMPLETION_INDEX with HLOCHECK_TOTAL_SHARDS
// (docs/sharding.md). Shard i of n runs the plan's groups i, i + n, i + 2n,
// ...; every case is a function of the seed, op, type and case index alone,
// so `hlocheck merge` of all n reports equals the unsharded run.
#ifndef HLOCHECK_RUNNERS_SHARDING_H_
#define HLOCHECK_RUNNERS_SHARDING_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"

namespace hlocheck {

struct Shard {
  int64_t index = 0;
  int64_t total = 1;
  std::string source;  // "--shard", "TEST_SHARD_INDEX", ...: where it came from
  // Bazel's file to touch, saying the test understood sharding ("" for none).
  std::string status_file;
};

// `flag` ("" when not given) first, then the environment (`getenv`, a
// parameter so that tests can stand in theirs). A malformed value or an
// index outside [0, total) is an error naming where it came from.
absl::StatusOr<Shard> ResolveShard(const std::string& flag,
                                   const std::function<const char*(const char*)>& getenv);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_SHARDING_H_
