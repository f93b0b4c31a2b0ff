// Sharding the gate: where the shard comes from, and that merging every
// shard's report gives the unsharded run exactly.
#include "runners/sharding.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "adapters/faulty/faulty_adapters.h"
#include "oracle/oracle.h"
#include "reports/gate_report_reader.h"
#include "reports/gate_reports.h"
#include "reports/shard_merge.h"
#include "runners/gate.h"
#include "spec/registry.h"

namespace hlocheck {
namespace {

absl::StatusOr<Shard> Resolve(const std::string& flag,
                              const std::map<std::string, std::string>& environment) {
  return ResolveShard(flag, [&](const char* name) -> const char* {
    auto it = environment.find(name);
    return it == environment.end() ? nullptr : it->second.c_str();
  });
}

TEST(ShardingTest, TheFlagComesFirstThenBazelThenGoogleTestThenKubernetes) {
  auto none = Resolve("", {});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->total, 1);
  auto flag = Resolve("2/5", {{"GTEST_SHARD_INDEX", "0"}, {"GTEST_TOTAL_SHARDS", "3"}});
  ASSERT_TRUE(flag.ok()) << flag.status();
  EXPECT_EQ(flag->index, 2);
  EXPECT_EQ(flag->total, 5);
  auto bazel = Resolve("", {{"TEST_SHARD_INDEX", "1"},
                            {"TEST_TOTAL_SHARDS", "4"},
                            {"TEST_SHARD_STATUS_FILE", "/tmp/status"},
                            {"GTEST_SHARD_INDEX", "3"},
                            {"GTEST_TOTAL_SHARDS", "4"}});
  ASSERT_TRUE(bazel.ok()) << bazel.status();
  EXPECT_EQ(bazel->index, 1);
  EXPECT_EQ(bazel->source, "TEST_SHARD_INDEX");
  EXPECT_EQ(bazel->status_file, "/tmp/status");
  auto gtest = Resolve("", {{"GTEST_SHARD_INDEX", "3"}, {"GTEST_TOTAL_SHARDS", "4"}});
  ASSERT_TRUE(gtest.ok()) << gtest.status();
  EXPECT_EQ(gtest->index, 3);
  EXPECT_TRUE(gtest->status_file.empty());
  auto job = Resolve("", {{"JOB_COMPLETION_INDEX", "7"}, {"HLOCHECK_TOTAL_SHARDS", "8"}});
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->index, 7);
  EXPECT_EQ(job->total, 8);
}

TEST(ShardingTest, MalformedShardsAreErrorsNamingTheirSource) {
  auto missing_total = Resolve("", {{"JOB_COMPLETION_INDEX", "1"}});
  ASSERT_FALSE(missing_total.ok());
  EXPECT_NE(missing_total.status().message().find("HLOCHECK_TOTAL_SHARDS is not"),
            std::string::npos);
  auto outside = Resolve("", {{"GTEST_SHARD_INDEX", "4"}, {"GTEST_TOTAL_SHARDS", "4"}});
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.status().message().find("GTEST_SHARD_INDEX"), std::string::npos);
  EXPECT_FALSE(Resolve("1", {}).ok());
  EXPECT_FALSE(Resolve("a/4", {}).ok());
  EXPECT_FALSE(Resolve("0/0", {}).ok());
  EXPECT_FALSE(Resolve("", {{"TEST_SHARD_INDEX", "-1"}, {"TEST_TOTAL_SHARDS", "2"}}).ok());
}

// Four shards of a gate run on a backend with a planted fault, merged,
// give the unsharded report.json exactly, but for the wall times.
TEST(ShardMergeTest, FourShardsMergeIntoTheUnshardedRun) {
  auto registry = spec::DefaultRegistry();
  ASSERT_TRUE(registry.ok()) << registry.status();
  Oracle oracle(*registry);
  std::unique_ptr<Adapter> faulty = CreateFaultyAdapter("faulty-transpose-swap", {});
  ASSERT_NE(faulty, nullptr);
  Gate gate(*registry, &oracle, faulty.get());
  GateOptions options;
  options.ops = {"transpose", "add", "iota", "reverse"};
  options.types = {ElementType::kF32, ElementType::kSI8, ElementType::kBF16};
  options.cases = 30;
  auto whole = gate.Run(options);
  ASSERT_TRUE(whole.ok()) << whole.status();
  ASSERT_TRUE(whole->failed());
  auto comparable = [](nlohmann::json report) {
    report.erase("seconds");
    report.erase("started_at");
    report.erase("command_line");
    for (auto& group : report["groups"]) group.erase("seconds");
    return report;
  };
  std::vector<ShardReport> shards;
  for (int i = 3; i >= 0; --i) {  // any order
    GateOptions shard = options;
    shard.shard_index = i;
    shard.shard_total = 4;
    auto run = gate.Run(shard);
    ASSERT_TRUE(run.ok()) << run.status();
    // Through report.json, as merge reads them.
    auto read = GateRunFromJson(GateRunToJson(*run), "shard" + std::to_string(i));
    ASSERT_TRUE(read.ok()) << read.status();
    shards.push_back({*read, "shard" + std::to_string(i) + "/report.json"});
  }
  auto merged = MergeShards(shards);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(comparable(GateRunToJson(*merged)), comparable(GateRunToJson(*whole)));

  std::vector<ShardReport> missing(shards.begin(), shards.begin() + 3);
  auto incomplete = MergeShards(missing);
  ASSERT_FALSE(incomplete.ok());
  EXPECT_NE(incomplete.status().message().find("is missing"), std::string::npos);
  std::vector<ShardReport> twice = shards;
  twice[1] = shards[0];
  twice[1].file = "copy/report.json";
  EXPECT_NE(MergeShards(twice).status().message().find("given twice"), std::string::npos);
  std::vector<ShardReport> other = shards;
  other[2].run.seed += 1;
  EXPECT_NE(MergeShards(other).status().message().find("the seed differs"), std::string::npos);
  std::vector<ShardReport> unfinished = shards;
  unfinished[0].run.groups.pop_back();
  EXPECT_NE(MergeShards(unfinished).status().message().find("did every shard finish"),
            std::string::npos);
}

}  // namespace
}  // namespace hlocheck
