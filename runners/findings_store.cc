#include "runners/findings_store.h"

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <utility>

#include "absl/status/status.h"
#include "core/status_macros.h"

namespace hlocheck {
namespace {

// The schema; `meta.schema` names its version.
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS campaign(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS in_flight(unit INTEGER PRIMARY KEY, worker INTEGER,
  started_at REAL, attempts INTEGER NOT NULL DEFAULT 0, choice INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS queue(unit INTEGER PRIMARY KEY, attempts INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS group_totals(op TEXT NOT NULL, type TEXT NOT NULL,
  cases INTEGER NOT NULL, passed INTEGER NOT NULL, failed INTEGER NOT NULL,
  deviating INTEGER NOT NULL, differs_from_convention INTEGER NOT NULL,
  skipped INTEGER NOT NULL, PRIMARY KEY(op, type));
CREATE TABLE IF NOT EXISTS progress(time REAL PRIMARY KEY, cases INTEGER NOT NULL,
  failed INTEGER NOT NULL, findings INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS findings(id INTEGER PRIMARY KEY, signature TEXT NOT NULL UNIQUE,
  op TEXT NOT NULL, type TEXT NOT NULL, kind TEXT NOT NULL, summary TEXT NOT NULL,
  details TEXT NOT NULL, reproducer TEXT NOT NULL, replay TEXT NOT NULL, command TEXT NOT NULL,
  count INTEGER NOT NULL, first_seen REAL NOT NULL, last_seen REAL NOT NULL,
  first_unit INTEGER NOT NULL);
INSERT OR IGNORE INTO meta VALUES('schema', 'hlocheck-findings/1');
INSERT OR IGNORE INTO counters VALUES('next_unit', 0), ('units_done', 0), ('cases', 0),
  ('passed', 0), ('failed', 0), ('deviating', 0), ('differs_from_convention', 0),
  ('skipped', 0);
)sql";

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

// Prepared statements, one per SQL text, kept for the connection's life:
// a campaign runs the same few statements for every case.
struct StatementCache {
  sqlite3* db = nullptr;
  std::map<std::string, sqlite3_stmt*> statements;
  ~StatementCache() {
    for (auto& [sql, statement] : statements) sqlite3_finalize(statement);
  }
};

namespace {

// A cached prepared statement in use: reset, its bindings cleared, when it goes.
class Statement {
 public:
  Statement(StatementCache& cache, const char* sql) {
    auto it = cache.statements.find(sql);
    if (it == cache.statements.end()) {
      sqlite3_stmt* prepared = nullptr;
      if (sqlite3_prepare_v2(cache.db, sql, -1, &prepared, nullptr) != SQLITE_OK) return;
      it = cache.statements.emplace(sql, prepared).first;
    }
    statement_ = it->second;
  }
  ~Statement() {
    if (statement_ != nullptr) {
      sqlite3_reset(statement_);
      sqlite3_clear_bindings(statement_);
    }
  }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  bool ok() const { return statement_ != nullptr; }
  Statement& Bind(int i, int64_t value) {
    sqlite3_bind_int64(statement_, i, value);
    return *this;
  }
  Statement& Bind(int i, double value) {
    sqlite3_bind_double(statement_, i, value);
    return *this;
  }
  Statement& Bind(int i, const std::string& value) {
    sqlite3_bind_text(statement_, i, value.data(), static_cast<int>(value.size()),
                      SQLITE_TRANSIENT);
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error code (SQLITE_MISUSE when the SQL
  // did not prepare).
  int Step() { return statement_ == nullptr ? SQLITE_MISUSE : sqlite3_step(statement_); }
  int64_t Int(int column) const { return sqlite3_column_int64(statement_, column); }
  double Real(int column) const { return sqlite3_column_double(statement_, column); }
  std::string Text(int column) const {
    const unsigned char* text = sqlite3_column_text(statement_, column);
    return text == nullptr
               ? std::string()
               : std::string(reinterpret_cast<const char*>(text),
                             static_cast<size_t>(sqlite3_column_bytes(statement_, column)));
  }

 private:
  sqlite3_stmt* statement_ = nullptr;
};

// Rolls back unless committed: an error midway leaves the store as it was.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) {
    // IMMEDIATE: take the write lock now, so that two workers claiming a
    // unit never both read the same next one.
    ok_ = sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
  }
  ~Transaction() {
    if (ok_ && !done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  bool ok() const { return ok_; }
  bool Commit() {
    done_ = true;
    return sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
  }

 private:
  sqlite3* db_;
  bool ok_ = false;
  bool done_ = false;
};

StoredFinding ReadFinding(const Statement& s) {
  StoredFinding f;
  f.id = s.Int(0);
  f.signature = s.Text(1);
  f.op = s.Text(2);
  f.type = s.Text(3);
  f.kind = s.Text(4);
  f.summary = s.Text(5);
  f.details = s.Text(6);
  f.reproducer = s.Text(7);
  f.replay = s.Text(8);
  f.command = s.Text(9);
  f.count = s.Int(10);
  f.first_seen = s.Real(11);
  f.last_seen = s.Real(12);
  f.first_unit = s.Int(13);
  return f;
}

constexpr const char* kFindingColumns =
    "id, signature, op, type, kind, summary, details, reproducer, replay, command, count, "
    "first_seen, last_seen, first_unit";

}  // namespace

std::string StoreFile(const std::string& directory) {
  return (std::filesystem::path(directory) / "findings.sqlite").string();
}

absl::StatusOr<std::unique_ptr<FindingsStore>> FindingsStore::Open(const std::string& directory,
                                                                   bool create) {
  const std::string path = StoreFile(directory);
  std::error_code error;
  if (!create && !std::filesystem::exists(path, error)) {
    return absl::NotFoundError(path + ": no findings store here (hlocheck fuzz --store " +
                               directory + " makes one)");
  }
  if (create) {
    std::filesystem::create_directories(directory, error);
    if (error) {
      return absl::InvalidArgumentError(directory + ": cannot create: " + error.message());
    }
  }
  sqlite3* db = nullptr;
  // One connection per process, used by one thread: no mutexes needed.
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string message = path + ": cannot open: " + (db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return absl::InvalidArgumentError(message);
  }
  std::unique_ptr<FindingsStore> store(new FindingsStore(db, path));
  // Writers wait for each other rather than fail; WAL lets readers read
  // while a worker writes; NORMAL syncs at checkpoints, which WAL keeps
  // consistent across a process kill (only a power loss could lose the
  // last commits, never corrupt the file).
  sqlite3_busy_timeout(db, 60000);
  HLOCHECK_RETURN_IF_ERROR(store->Exec("PRAGMA journal_mode=WAL"));
  HLOCHECK_RETURN_IF_ERROR(store->Exec("PRAGMA synchronous=NORMAL"));
  {
    Transaction transaction(db);
    if (!transaction.ok()) return store->Error("cannot begin");
    HLOCHECK_RETURN_IF_ERROR(store->Exec(kSchema));
    if (!transaction.Commit()) return store->Error("cannot create the schema");
  }
  {
    // Stores from before in_flight.choice get it (a guided campaign's pick).
    bool has_choice = false;
    Statement columns(*store->cache_, "PRAGMA table_info(in_flight)");
    while (columns.Step() == SQLITE_ROW) has_choice = has_choice || columns.Text(1) == "choice";
    if (!has_choice) {
      HLOCHECK_RETURN_IF_ERROR(
          store->Exec("ALTER TABLE in_flight ADD COLUMN choice INTEGER NOT NULL DEFAULT 0"));
    }
  }
  Statement schema(*store->cache_, "SELECT value FROM meta WHERE key = 'schema'");
  if (!schema.ok() || schema.Step() != SQLITE_ROW || schema.Text(0) != "hlocheck-findings/1") {
    return absl::InvalidArgumentError(path + ": not a findings store of this hlocheck version");
  }
  return store;
}

FindingsStore::FindingsStore(sqlite3* db, std::string path)
    : db_(db), path_(std::move(path)), cache_(std::make_unique<StatementCache>()) {
  cache_->db = db;
}

FindingsStore::~FindingsStore() {
  cache_.reset();  // the statements go before the connection
  sqlite3_close(db_);
}

absl::Status FindingsStore::Error(const std::string& what) const {
  return absl::InternalError(path_ + ": " + what + ": " + sqlite3_errmsg(db_));
}

absl::Status FindingsStore::Exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return absl::InternalError(path_ + ": " + text);
  }
  return absl::OkStatus();
}

absl::Status FindingsStore::BindCampaign(const std::map<std::string, std::string>& settings) {
  Transaction transaction(db_);
  if (!transaction.ok()) return Error("cannot begin");
  std::map<std::string, std::string> recorded;
  {
    Statement read(*cache_, "SELECT key, value FROM campaign");
    while (read.Step() == SQLITE_ROW) recorded[read.Text(0)] = read.Text(1);
  }
  if (recorded.empty()) {
    for (const auto& [key, value] : settings) {
      Statement insert(*cache_, "INSERT INTO campaign VALUES(?, ?)");
      if (insert.Bind(1, key).Bind(2, value).Step() != SQLITE_DONE) return Error("cannot record");
    }
    if (!transaction.Commit()) return Error("cannot commit");
    return absl::OkStatus();
  }
  for (const auto& [key, value] : settings) {
    auto it = recorded.find(key);
    const std::string before = it == recorded.end() ? "(none)" : it->second;
    if (before != value) {
      return absl::InvalidArgumentError(path_ + " holds a campaign whose " + key + " is '" +
                                        before + "', not '" + value +
                                        "': resume it with its own settings, or use another "
                                        "--store");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::map<std::string, std::string>> FindingsStore::Campaign() {
  std::map<std::string, std::string> recorded;
  Statement read(*cache_, "SELECT key, value FROM campaign");
  if (!read.ok()) return Error("cannot read the campaign");
  while (read.Step() == SQLITE_ROW) recorded[read.Text(0)] = read.Text(1);
  return recorded;
}

absl::Status FindingsStore::RequeueAll() {
  Transaction transaction(db_);
  if (!transaction.ok()) return Error("cannot begin");
  HLOCHECK_RETURN_IF_ERROR(
      Exec("INSERT OR REPLACE INTO queue SELECT unit, attempts FROM in_flight; "
           "DELETE FROM in_flight;"));
  if (!transaction.Commit()) return Error("cannot commit");
  return absl::OkStatus();
}

absl::StatusOr<std::optional<int64_t>> FindingsStore::Claim(int worker, int64_t limit) {
  Transaction transaction(db_);
  if (!transaction.ok()) return Error("cannot begin a claim");
  auto unit = ClaimLocked(worker, limit);
  if (!unit.ok() || !unit->has_value()) return unit;
  if (!transaction.Commit()) return Error("cannot commit a claim");
  return unit;
}

absl::StatusOr<std::optional<int64_t>> FindingsStore::CompleteAndClaim(int64_t done,
                                                                       const UnitResult& result,
                                                                       int worker, int64_t limit) {
  Transaction transaction(db_);
  if (!transaction.ok()) return Error("cannot begin");
  HLOCHECK_RETURN_IF_ERROR(CompleteLocked(done, result));
  auto unit = ClaimLocked(worker, limit);
  HLOCHECK_RETURN_IF_ERROR(unit.status());
  if (!transaction.Commit()) return Error("cannot commit unit " + std::to_string(done));
  return unit;
}

absl::StatusOr<std::optional<int64_t>> FindingsStore::ClaimLocked(int worker, int64_t limit) {
  int64_t unit = -1;
  int64_t attempts = 0;
  {
    Statement queued(*cache_, "SELECT unit, attempts FROM queue ORDER BY unit LIMIT 1");
    if (queued.Step() == SQLITE_ROW) {
      unit = queued.Int(0);
      attempts = queued.Int(1);
    }
  }
  if (unit >= 0) {
    Statement remove(*cache_, "DELETE FROM queue WHERE unit = ?");
    if (remove.Bind(1, unit).Step() != SQLITE_DONE) return Error("cannot dequeue");
  } else {
    Statement next(*cache_, "SELECT value FROM counters WHERE name = 'next_unit'");
    if (next.Step() != SQLITE_ROW) return Error("no next_unit counter");
    unit = next.Int(0);
    if (limit >= 0 && unit >= limit) return std::optional<int64_t>();
    Statement advance(*cache_, "UPDATE counters SET value = value + 1 WHERE name = 'next_unit'");
    if (advance.Step() != SQLITE_DONE) return Error("cannot advance next_unit");
  }
  Statement claim(*cache_,
                  "INSERT INTO in_flight(unit, worker, started_at, attempts) VALUES(?, ?, ?, ?)");
  if (claim.Bind(1, unit)
          .Bind(2, static_cast<int64_t>(worker))
          .Bind(3, Now())
          .Bind(4, attempts)
          .Step() != SQLITE_DONE) {
    return Error("cannot claim unit " + std::to_string(unit));
  }
  return std::optional<int64_t>(unit);
}

absl::Status FindingsStore::Complete(int64_t unit, const UnitResult& result) {
  Transaction transaction(db_);
  if (!transaction.ok()) return Error("cannot begin");
  HLOCHECK_RETURN_IF_ERROR(CompleteLocked(unit, result));
  if (!transaction.Commit()) return Error("cannot commit unit " + std::to_string(unit));
  return absl::OkStatus();
}

absl::Status FindingsStore::CompleteLocked(int64_t unit, const UnitResult& result) {
  {
    Statement done(*cache_, "DELETE FROM in_flight WHERE unit = ?");
    if (done.Bind(1, unit).Step() != SQLITE_DONE) return Error("cannot complete");
    if (sqlite3_changes(db_) != 1) {
      // Requeued meanwhile (its worker was taken for hung): another run
      // of it will count it, so this one must not.
      return absl::OkStatus();
    }
  }
  const std::pair<const char*, int64_t> counts[] = {
      {"units_done", 1},
      {"cases", result.cases},
      {"passed", result.passed},
      {"failed", result.failed},
      {"deviating", result.deviating},
      {"differs_from_convention", result.differs_from_convention},
      {"skipped", result.skipped}};
  for (const auto& [name, value] : counts) {
    Statement add(*cache_, "UPDATE counters SET value = value + ? WHERE name = ?");
    if (add.Bind(1, value).Bind(2, std::string(name)).Step() != SQLITE_DONE) {
      return Error("cannot count");
    }
  }
  {
    Statement group(*cache_,
                    "INSERT INTO group_totals VALUES(?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(op, type) DO UPDATE SET cases = cases + excluded.cases, "
                    "passed = passed + excluded.passed, failed = failed + excluded.failed, "
                    "deviating = deviating + excluded.deviating, "
                    "differs_from_convention = differs_from_convention + "
                    "excluded.differs_from_convention, skipped = skipped + excluded.skipped");
    group.Bind(1, result.op).Bind(2, result.type).Bind(3, result.cases).Bind(4, result.passed);
    group.Bind(5, result.failed).Bind(6, result.deviating).Bind(7, result.differs_from_convention);
    if (group.Bind(8, result.skipped).Step() != SQLITE_DONE) return Error("cannot count the group");
  }
  if (result.finding) {
    const StoredFinding& f = *result.finding;
    const double now = Now();
    Statement add(*cache_,
                  "INSERT INTO findings(signature, op, type, kind, summary, details, reproducer, "
                  "replay, command, count, first_seen, last_seen, first_unit) "
                  "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?) "
                  "ON CONFLICT(signature) DO UPDATE SET count = count + 1, last_seen = ?");
    add.Bind(1, f.signature).Bind(2, f.op).Bind(3, f.type).Bind(4, f.kind).Bind(5, f.summary);
    add.Bind(6, f.details).Bind(7, f.reproducer).Bind(8, f.replay).Bind(9, f.command);
    add.Bind(10, now).Bind(11, now).Bind(12, unit).Bind(13, now);
    if (add.Step() != SQLITE_DONE) return Error("cannot record the finding");
  }
  return absl::OkStatus();
}

absl::Status FindingsStore::Requeue(int64_t unit) {
  Transaction transaction(db_);
  if (!transaction.ok()) return Error("cannot begin");
  Statement move(*cache_,
                 "INSERT OR REPLACE INTO queue SELECT unit, attempts + 1 FROM in_flight "
                 "WHERE unit = ?");
  if (move.Bind(1, unit).Step() != SQLITE_DONE) return Error("cannot requeue");
  Statement remove(*cache_, "DELETE FROM in_flight WHERE unit = ?");
  if (remove.Bind(1, unit).Step() != SQLITE_DONE) return Error("cannot requeue");
  if (!transaction.Commit()) return Error("cannot commit");
  return absl::OkStatus();
}

absl::StatusOr<std::vector<InFlightUnit>> FindingsStore::InFlight() {
  std::vector<InFlightUnit> units;
  Statement read(*cache_,
                 "SELECT unit, worker, started_at, attempts, choice FROM in_flight ORDER BY unit");
  if (!read.ok()) return Error("cannot read the units in flight");
  while (read.Step() == SQLITE_ROW) {
    units.push_back({read.Int(0), static_cast<int>(read.Int(1)), read.Real(2),
                     static_cast<int>(read.Int(3)), static_cast<int>(read.Int(4))});
  }
  return units;
}

absl::Status FindingsStore::RecordChoice(int64_t unit, int choice) {
  Statement record(*cache_, "UPDATE in_flight SET choice = ? WHERE unit = ?");
  if (record.Bind(1, static_cast<int64_t>(choice)).Bind(2, unit).Step() != SQLITE_DONE) {
    return Error("cannot record the choice of unit " + std::to_string(unit));
  }
  return absl::OkStatus();
}

absl::StatusOr<CampaignTotals> FindingsStore::Totals() {
  // The counters are read by one statement, so as of one commit; the
  // findings' count by another, which may be a later commit's.
  CampaignTotals totals;
  Statement read(*cache_, "SELECT name, value FROM counters");
  if (!read.ok()) return Error("cannot read the counters");
  std::map<std::string, int64_t> values;
  while (read.Step() == SQLITE_ROW) values[read.Text(0)] = read.Int(1);
  totals.units_done = values["units_done"];
  totals.cases = values["cases"];
  totals.passed = values["passed"];
  totals.failed = values["failed"];
  totals.deviating = values["deviating"];
  totals.differs_from_convention = values["differs_from_convention"];
  totals.skipped = values["skipped"];
  Statement findings(*cache_, "SELECT COUNT(*) FROM findings");
  if (findings.Step() == SQLITE_ROW) totals.findings = findings.Int(0);
  return totals;
}

absl::Status FindingsStore::AddProgressPoint() {
  return Exec("INSERT OR REPLACE INTO progress SELECT " + std::to_string(Now()) +
              ", (SELECT value FROM counters WHERE name = 'cases'), "
              "(SELECT value FROM counters WHERE name = 'failed'), "
              "(SELECT COUNT(*) FROM findings)");
}

absl::StatusOr<std::vector<CampaignProgressPoint>> FindingsStore::Progress() {
  std::vector<CampaignProgressPoint> points;
  Statement read(*cache_, "SELECT time, cases, failed, findings FROM progress ORDER BY time");
  if (!read.ok()) return Error("cannot read the progress");
  while (read.Step() == SQLITE_ROW) {
    points.push_back({read.Real(0), read.Int(1), read.Int(2), read.Int(3)});
  }
  return points;
}

absl::StatusOr<CampaignReport> ReadCampaignReport(FindingsStore& store) {
  CampaignReport report;
  report.store = store.path();
  auto settings = store.Campaign();
  HLOCHECK_RETURN_IF_ERROR(settings.status());
  report.settings = *std::move(settings);
  auto totals = store.Totals();
  HLOCHECK_RETURN_IF_ERROR(totals.status());
  report.totals = *totals;
  auto findings = store.Findings();
  HLOCHECK_RETURN_IF_ERROR(findings.status());
  report.findings = *std::move(findings);
  auto groups = store.GroupTotals();
  HLOCHECK_RETURN_IF_ERROR(groups.status());
  report.groups = *std::move(groups);
  auto progress = store.Progress();
  HLOCHECK_RETURN_IF_ERROR(progress.status());
  report.progress = *std::move(progress);
  return report;
}

absl::StatusOr<std::vector<UnitResult>> FindingsStore::GroupTotals() {
  std::vector<UnitResult> groups;
  Statement read(*cache_,
                 "SELECT op, type, cases, passed, failed, deviating, differs_from_convention, "
                 "skipped FROM group_totals ORDER BY op, type");
  if (!read.ok()) return Error("cannot read the group totals");
  while (read.Step() == SQLITE_ROW) {
    UnitResult g;
    g.op = read.Text(0);
    g.type = read.Text(1);
    g.cases = read.Int(2);
    g.passed = read.Int(3);
    g.failed = read.Int(4);
    g.deviating = read.Int(5);
    g.differs_from_convention = read.Int(6);
    g.skipped = read.Int(7);
    groups.push_back(std::move(g));
  }
  return groups;
}

absl::StatusOr<std::vector<StoredFinding>> FindingsStore::Findings() {
  std::vector<StoredFinding> findings;
  Statement read(*cache_,
                 (std::string("SELECT ") + kFindingColumns + " FROM findings ORDER BY id").c_str());
  if (!read.ok()) return Error("cannot read the findings");
  while (read.Step() == SQLITE_ROW) findings.push_back(ReadFinding(read));
  return findings;
}

absl::StatusOr<std::optional<StoredFinding>> FindingsStore::Finding(int64_t id) {
  Statement read(
      *cache_, (std::string("SELECT ") + kFindingColumns + " FROM findings WHERE id = ?").c_str());
  if (!read.ok()) return Error("cannot read the findings");
  if (read.Bind(1, id).Step() != SQLITE_ROW) return std::optional<StoredFinding>();
  return std::optional<StoredFinding>(ReadFinding(read));
}

absl::StatusOr<std::string> FindingsStore::IntegrityCheck() {
  Statement check(*cache_, "PRAGMA integrity_check");
  if (!check.ok()) return Error("cannot check");
  std::string result;
  while (check.Step() == SQLITE_ROW) result += (result.empty() ? "" : "; ") + check.Text(0);
  return result;
}

}  // namespace hlocheck
