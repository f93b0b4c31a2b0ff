// A fuzzing campaign's findings store: one SQLite database in WAL mode
// (DIR/findings.sqlite) that every worker process writes and that
// `hlocheck findings` reads while the campaign runs. Each case is a unit of
// work, claimed by one worker and completed in one transaction with the
// counters and any finding, so a kill -9 of any process at any moment loses
// at most the cases in flight, never corrupts the store and never makes a
// counter go backwards (docs/campaigns.md).
#ifndef HLOCHECK_RUNNERS_FINDINGS_STORE_H_
#define HLOCHECK_RUNNERS_FINDINGS_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "reports/campaign_result.h"

struct sqlite3;

namespace hlocheck {
struct StatementCache;
}

namespace hlocheck {

// A unit claimed by a worker and not yet completed.
struct InFlightUnit {
  int64_t unit = 0;
  int worker = 0;
  double started_at = 0;
  int attempts = 0;  // earlier claims that ended with the worker killed from outside
  int choice = 0;    // a guided campaign's candidate, recorded before it runs
};

class FindingsStore {
 public:
  // Opens DIR/findings.sqlite, creating DIR and the database when `create`
  // (else a missing store is an error).
  static absl::StatusOr<std::unique_ptr<FindingsStore>> Open(const std::string& directory,
                                                             bool create);
  ~FindingsStore();
  FindingsStore(const FindingsStore&) = delete;
  FindingsStore& operator=(const FindingsStore&) = delete;

  const std::string& path() const { return path_; }

  // The campaign's settings: recorded by the first campaign on the store;
  // a later one must have the same, or the error names the first that
  // differs (a store holds one campaign).
  absl::Status BindCampaign(const std::map<std::string, std::string>& settings);
  absl::StatusOr<std::map<std::string, std::string>> Campaign();

  // At a campaign's start: units claimed by workers that no longer run go
  // back to the queue.
  absl::Status RequeueAll();
  // The next unit below `limit` (< 0: no limit) for `worker`: a requeued
  // one first, else the next new one; nullopt when none is left.
  absl::StatusOr<std::optional<int64_t>> Claim(int worker, int64_t limit);
  // One transaction: the unit leaves the in-flight list, the counters grow,
  // and its finding is added (or its signature's count grows).
  absl::Status Complete(int64_t unit, const UnitResult& result);
  // Complete, then Claim, in one transaction: what a worker does between
  // two cases, at the cost of one commit.
  absl::StatusOr<std::optional<int64_t>> CompleteAndClaim(int64_t unit, const UnitResult& result,
                                                          int worker, int64_t limit);
  // A unit whose worker was killed from outside: back to the queue, its
  // attempts counted.
  absl::Status Requeue(int64_t unit);
  absl::StatusOr<std::vector<InFlightUnit>> InFlight();
  // A guided campaign's chosen candidate for a unit in flight, written
  // before the case runs, so that a crash or hang is pinned on that case.
  absl::Status RecordChoice(int64_t unit, int choice);

  absl::StatusOr<CampaignTotals> Totals();
  // A point of the campaign's counts over time (the supervisor adds one
  // every few seconds), and all of them in order.
  absl::Status AddProgressPoint();
  absl::StatusOr<std::vector<CampaignProgressPoint>> Progress();
  // Per op and type: cases, passed, failed (for reports and guidance).
  absl::StatusOr<std::vector<UnitResult>> GroupTotals();
  absl::StatusOr<std::vector<StoredFinding>> Findings();
  absl::StatusOr<std::optional<StoredFinding>> Finding(int64_t id);
  // "ok", or what PRAGMA integrity_check found.
  absl::StatusOr<std::string> IntegrityCheck();

 private:
  FindingsStore(sqlite3* db, std::string path);
  absl::Status Exec(const std::string& sql);
  absl::Status Error(const std::string& what) const;
  // The bodies of Claim and Complete, inside a transaction the caller holds.
  absl::StatusOr<std::optional<int64_t>> ClaimLocked(int worker, int64_t limit);
  absl::Status CompleteLocked(int64_t unit, const UnitResult& result);

  sqlite3* db_;
  std::string path_;
  std::unique_ptr<StatementCache> cache_;
};

// The store's file in a store directory.
std::string StoreFile(const std::string& directory);

// Everything the HTML report shows of a campaign, read in one go.
absl::StatusOr<CampaignReport> ReadCampaignReport(FindingsStore& store);

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_FINDINGS_STORE_H_
