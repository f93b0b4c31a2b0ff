// A fuzzing campaign's results as data: what the findings store holds
// (runners/findings_store.h) and the HTML report shows of it.
#ifndef HLOCHECK_REPORTS_CAMPAIGN_RESULT_H_
#define HLOCHECK_REPORTS_CAMPAIGN_RESULT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hlocheck {

// A finding as stored: deduplicated by its signature.
struct StoredFinding {
  int64_t id = 0;
  std::string signature;
  std::string op;
  std::string type;
  std::string kind;  // KindName's words
  std::string summary;
  std::string details;
  std::string reproducer;  // the first occurrence's, shrunk
  std::string replay;      // the first occurrence's replay key, shrunk
  std::string command;     // a gate command that finds it again
  int64_t count = 0;       // cases with this signature
  double first_seen = 0;   // Unix time
  double last_seen = 0;
  int64_t first_unit = 0;  // the campaign case that first showed it
};

// What one completed unit (a case) adds to the campaign.
struct UnitResult {
  std::string op;
  std::string type;
  int64_t cases = 0;
  int64_t passed = 0;
  int64_t failed = 0;
  int64_t deviating = 0;
  int64_t differs_from_convention = 0;
  int64_t skipped = 0;
  std::optional<StoredFinding> finding;  // its signature set; counts and times are the store's
};

struct CampaignTotals {
  int64_t units_done = 0;
  int64_t cases = 0;
  int64_t passed = 0;
  int64_t failed = 0;
  int64_t deviating = 0;
  int64_t differs_from_convention = 0;
  int64_t skipped = 0;
  int64_t findings = 0;  // distinct signatures
};

// The campaign's counters at one moment (Unix time).
struct CampaignProgressPoint {
  double time = 0;
  int64_t cases = 0;
  int64_t failed = 0;
  int64_t findings = 0;
};

struct CampaignReport {
  std::string store;                            // the store's file
  std::map<std::string, std::string> settings;  // backend, seed, plan, ...
  CampaignTotals totals;
  std::vector<StoredFinding> findings;
  std::vector<UnitResult> groups;  // per op and type, without findings
  std::vector<CampaignProgressPoint> progress;
};

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_CAMPAIGN_RESULT_H_
