// `hlocheck fuzz`: a campaign of worker processes against one backend,
// writing a findings store that survives kill -9 (runners/campaign.h).
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "runners/backend_profile.h"
#include "runners/campaign.h"
#include "runners/commands.h"
#include "runners/flags.h"
#include "runners/program_run.h"
#include "runners/program_variants.h"
#include "runners/report_files.h"
#include "runners/session.h"

namespace hlocheck {
namespace {

// Exit status of a worker whose store failed (the supervisor stops).
constexpr int kWorkerStoreError = 3;
// SIGKILLs from outside on one case before it counts as a crash.
constexpr int kOutsideKillsBeforeCrash = 3;

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

absl::StatusOr<double> ParseBudget(const std::string& text) {
  if (text.empty()) return 0.0;
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (...) {
    used = 0;
  }
  const std::string unit = text.substr(used);
  const double scale = unit == "s" || unit.empty() ? 1
                       : unit == "m"               ? 60
                       : unit == "h"               ? 3600
                       : unit == "d"               ? 86400
                                                   : -1;
  if (used == 0 || scale < 0 || value <= 0) {
    return absl::InvalidArgumentError("--budget is '" + text +
                                      "', not a duration such as 90s, 30m, 2h or 1d");
  }
  return value * scale;
}

struct Campaign {
  Flags* flags = nullptr;
  std::string store_dir;
  GatePlan plan;
  GateOptions base;
  int64_t limit = -1;                // units; -1: until the deadline
  double deadline = 0;               // Unix time; 0: none
  double case_timeout = 60;          // the supervisor's limit on one unit
  double backend_case_timeout = 60;  // --case-timeout: one backend run
  bool guided = false;
  int64_t stop_after_findings = 0;  // 0: never
  // --programs: unit u is program u of `programs.seed` (hlocheck programs).
  bool programs = false;
  ProgramRunSettings program_settings;
};

// A program unit's counts and its (shrunk) finding, as the store keeps
// them: one case per program; the finding signed by its program signature
// and found again by `hlocheck programs --first U --programs 1`.
UnitResult UnitResultOfProgram(const Campaign& campaign, int64_t unit,
                               const ProgramUnitResult& program) {
  UnitResult r;
  r.op = "programs";
  r.type = "-";
  r.cases = 1;
  if (!program.ran) {
    // Not generated, or an op the oracle does not run: not a pass. An
    // invalid program is hlocheck's own bug, a finding below.
    if (program.invalid.empty()) {
      r.skipped = 1;
      return r;
    }
  }
  r.deviating = program.deviating ? 1 : 0;
  const std::string command = "build/hlocheck programs --backend " +
                              campaign.flags->Get("backend") + " --seed " +
                              std::to_string(campaign.program_settings.seed) + " --first " +
                              std::to_string(unit) + " --programs 1";
  if (!program.invalid.empty()) {
    r.failed = 1;
    StoredFinding f;
    f.signature = "program|invalid|" + program.invalid.substr(0, 80);
    f.op = "program";
    f.type = "-";
    f.kind = "invalid program";
    f.summary =
        "program " + std::to_string(unit) + " is not valid (a generator bug): " + program.invalid;
    f.command = command;
    r.finding = f;
    return r;
  }
  if (!program.finding) {
    r.passed = program.deviating ? 0 : 1;
    return r;
  }
  r.failed = 1;
  const ProgramFinding& p = *program.finding;
  StoredFinding f;
  f.signature = "program|" + p.signature;
  f.op = p.failing_op;
  f.type = std::string(Name(p.output_type));
  f.kind = std::string(ProgramOutcomeKindName(p.kind)) +
           (p.relation.empty() ? "" : " (variant " + p.relation + ")");
  f.summary = p.message.substr(0, p.message.find('\n'));
  f.details = "program " + std::to_string(unit) + ", shrunk from " + std::to_string(p.ops_before) +
              " to " + std::to_string(p.ops_after) + " ops in " +
              std::to_string(p.shrink_attempts) + " trials" +
              (p.relation.empty() ? "" : "; variant: " + p.relation_detail) + "\n" + p.message;
  f.reproducer = p.module_text;
  f.command = command;
  r.finding = f;
  return r;
}

// A programs campaign's worker: as WorkerMain, on programs.
[[noreturn]] void ProgramsWorkerMain(const Campaign& campaign, int worker) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  auto fail = [worker](const absl::Status& status, int code) {
    std::cerr << "hlocheck fuzz: worker " << worker << ": " << status.message() << "\n";
    _exit(code);
  };
  auto store = FindingsStore::Open(campaign.store_dir, /*create=*/false);
  if (!store.ok()) fail(store.status(), kWorkerStoreError);
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) fail(registry.status(), kExitUsage);
  ProgramRunSettings settings = campaign.program_settings;
  auto opened = OpenProgramBackend(*campaign.flags, **registry, campaign.backend_case_timeout,
                                   &settings.options);
  if (!opened.ok()) fail(opened.status(), kExitUsage);
  Oracle oracle(*registry);
  ProgramsRun run(**registry, oracle, *(*opened)->handle.backend, (*opened)->profile_or_null());
  auto out_of_budget = [&] { return campaign.deadline > 0 && Now() >= campaign.deadline; };
  auto unit = (*store)->Claim(worker, campaign.limit);
  if (!unit.ok()) fail(unit.status(), kWorkerStoreError);
  while (*unit) {
    const UnitResult result =
        UnitResultOfProgram(campaign, **unit, run.Check(settings, **unit, out_of_budget));
    bool stop = out_of_budget();
    if (campaign.stop_after_findings > 0 && result.failed > 0) {
      auto totals = (*store)->Totals();
      if (!totals.ok()) fail(totals.status(), kWorkerStoreError);
      stop = stop || totals->findings + 1 >= campaign.stop_after_findings;
    }
    if (stop) {
      if (auto s = (*store)->Complete(**unit, result); !s.ok()) fail(s, kWorkerStoreError);
      break;
    }
    unit = (*store)->CompleteAndClaim(**unit, result, worker, campaign.limit);
    if (!unit.ok()) fail(unit.status(), kWorkerStoreError);
  }
  _exit(kExitOk);
}

// A worker process: its own store connection and backend, claiming units
// until none is left or the deadline passes.
[[noreturn]] void WorkerMain(const Campaign& campaign, int worker) {
  if (campaign.programs) ProgramsWorkerMain(campaign, worker);
  // Dies with the supervisor, even when that is kill -9'd.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  auto store = FindingsStore::Open(campaign.store_dir, /*create=*/false);
  if (!store.ok()) {
    std::cerr << "hlocheck fuzz: worker " << worker << ": " << store.status().message() << "\n";
    _exit(kWorkerStoreError);
  }
  auto session = OpenSession(*campaign.flags, /*threads=*/1);
  if (!session.ok()) {
    std::cerr << "hlocheck fuzz: worker " << worker << ": " << session.status().message() << "\n";
    _exit(kExitUsage);
  }
  Gate& gate = *(*session)->gate;
  auto fail = [worker](const absl::Status& status) {
    std::cerr << "hlocheck fuzz: worker " << worker << ": " << status.message() << "\n";
    _exit(kWorkerStoreError);
  };
  Guidance guidance(campaign.plan.size());
  auto unit = (*store)->Claim(worker, campaign.limit);
  if (!unit.ok()) fail(unit.status());
  while (*unit) {
    int choice = 0;
    if (campaign.guided) {
      choice = guidance.Choose(campaign.plan, campaign.base, **unit);
      if (auto s = (*store)->RecordChoice(**unit, choice); !s.ok()) fail(s);
    }
    CampaignCase c = CandidateOfUnit(campaign.plan, campaign.base, **unit, choice, campaign.guided);
    GroupResult group = gate.RunGroup(*c.op, c.type, c.options);
    if (campaign.guided && group.failed > 0) guidance.NoteFinding();
    bool stop = campaign.deadline > 0 && Now() >= campaign.deadline;
    if (campaign.stop_after_findings > 0 && group.failed > 0) {
      // Counted with this case's own finding, which is not stored yet.
      auto totals = (*store)->Totals();
      if (!totals.ok()) fail(totals.status());
      stop = stop || totals->findings + 1 >= campaign.stop_after_findings;
    }
    if (stop) {
      // The budget is spent: this case counts, no next one is claimed.
      if (auto s = (*store)->Complete(**unit, UnitResultOf(group)); !s.ok()) fail(s);
      break;
    }
    // One commit between two cases: this one's results, the next one's claim.
    unit = (*store)->CompleteAndClaim(**unit, UnitResultOf(group), worker, campaign.limit);
    if (!unit.ok()) fail(unit.status());
  }
  _exit(kExitOk);
}

pid_t StartWorker(const Campaign& campaign, int worker) {
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid == 0) WorkerMain(campaign, worker);
  return pid;
}

// The finding for a unit whose worker died or hung on it: not shrunk (each
// attempt could cost another crash or timeout); the replay key rebuilds it.
UnitResult DeathResult(const Campaign& campaign, const InFlightUnit& u, FindingKind kind,
                       const std::string& message) {
  if (campaign.programs) {
    // The program's own run finds it again (its compiler runs in a worker
    // process of its own; this is the campaign's worker dying).
    UnitResult r;
    r.op = "programs";
    r.type = "-";
    r.cases = r.failed = 1;
    StoredFinding f;
    f.op = "program";
    f.type = "-";
    f.kind = KindName(kind);
    f.summary = message;
    f.signature = "program|" + f.kind + "|" + message;
    for (char& ch : f.signature) {
      if (ch >= '0' && ch <= '9') ch = '#';
    }
    f.command = "build/hlocheck programs --backend " + campaign.flags->Get("backend") + " --seed " +
                std::to_string(campaign.program_settings.seed) + " --first " +
                std::to_string(u.unit) + " --programs 1";
    r.finding = f;
    return r;
  }
  CampaignCase c = CandidateOfUnit(campaign.plan, campaign.base, u.unit, u.choice, campaign.guided);
  GroupResult group;
  group.op = c.op->name;
  group.type = c.type;
  group.cases = group.failed = 1;
  Finding f;
  f.op = c.op->name;
  f.type = c.type;
  f.kind = kind;
  f.message = message;
  f.replay = c.replay;
  char seed[24];
  std::snprintf(seed, sizeof(seed), "%llu", static_cast<unsigned long long>(c.options.seed));
  f.command = "build/hlocheck replay --backend " + campaign.flags->Get("backend") + " " + c.replay +
              "  # or: hlocheck run --backend " + campaign.flags->Get("backend") + " --ops " +
              f.op + " --types " + std::string(Name(c.type)) + " --cases " +
              std::to_string(kCampaignRoundCases) + " --seed " + seed;
  group.findings.push_back(std::move(f));
  return UnitResultOf(group);
}

void PrintTotals(FindingsStore& store, double seconds, std::ostream& out) {
  auto totals = store.Totals();
  if (!totals.ok()) return;
  char rate[32];
  std::snprintf(rate, sizeof(rate), "%.0f", seconds > 0 ? totals->cases / seconds : 0.0);
  out << totals->cases << " cases (" << totals->passed << " passed, " << totals->failed
      << " failed, " << totals->deviating << " deviating, " << totals->skipped << " skipped), "
      << totals->findings << " distinct finding(s)";
  if (seconds > 0) out << "; this run " << rate << " cases/s overall";
  out << "\n";
}

}  // namespace

int FuzzCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("backend", "NAME", "the backend to fuzz (as for run)", "cpu");
  flags.Add("store", "DIR",
            "the findings store (DIR/findings.sqlite); the same command again "
            "resumes it",
            "hlocheck-campaign");
  flags.Add("budget", "TIME",
            "stop after this long: 90s, 30m, 2h, 1d (default: --cases, or "
            "until interrupted)",
            "");
  flags.Add("cases", "N", "stop once the campaign's first N cases are done (across runs)", "0");
  flags.Add("workers", "N", "worker processes", "2");
  flags.Add("ops", "LIST", "comma-separated ops (default: every op the oracle implements)");
  flags.Add("types", "LIST", "comma-separated element types (default: every type each op takes)");
  flags.Add("seed", "N", "campaign seed; round 0 is the gate's cases of this seed",
            std::to_string(kDefaultSeed));
  flags.Add("max-elements", "N", "largest number of elements a generated case draws", "4096");
  flags.Add("shrink-attempts", "N", "candidate cases tried while shrinking a finding", "2000");
  flags.Add("summary-md", "FILE", "also write a Markdown summary (for CI step summaries)", "");
  flags.AddSwitch("programs",
                  "a campaign of multi-op programs (hlocheck programs, docs/programs.md): unit U "
                  "is program U of --seed, with its metamorphic variants");
  flags.AddSwitch("guided",
                  "steer towards boundary features each group has shown least (docs/campaigns.md)");
  flags.Add("stop-after-findings", "N", "stop once the store holds N distinct findings", "0");
  AddCompilerFlags(flags);
  flags.AddSwitch("help", "show this help");
  auto usage = [](const std::string& message) {
    std::cerr << "hlocheck fuzz: " << message << "\n";
    return kExitUsage;
  };
  if (auto status = flags.Parse(args); !status.ok()) return usage(std::string(status.message()));
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck fuzz [flags]\n\n"
                 "Runs worker processes that draw cases and check them on the backend against\n"
                 "the oracle, writing every finding (shrunk, deduplicated by signature) to a\n"
                 "SQLite store that `hlocheck findings` reads while the campaign runs. A\n"
                 "backend crash or hang is a finding; the worker restarts. kill -9 at any\n"
                 "moment, then the same command again, resumes. docs/campaigns.md.\n\n"
                 "flags:\n"
              << flags.Help()
              << "\nExit status: 0 nothing failed, 1 a finding, 2 bad usage or input.\n";
    return kExitOk;
  }
  if (!flags.positional().empty())
    return usage("unexpected argument '" + flags.positional()[0] + "'");
  auto budget = ParseBudget(flags.Get("budget"));
  auto cases = flags.GetInt("cases", 0, int64_t{1} << 50);
  auto workers = flags.GetInt("workers", 1, 256);
  auto seed = flags.GetUint("seed");
  auto max_elements = flags.GetInt("max-elements", 1, int64_t{1} << 30);
  auto shrink_attempts = flags.GetInt("shrink-attempts", 0, 100000000);
  auto case_timeout = flags.GetInt("case-timeout", 1, 86400);
  auto stop_after_findings = flags.GetInt("stop-after-findings", 0, int64_t{1} << 40);
  for (const absl::Status& s :
       {budget.status(), cases.status(), workers.status(), seed.status(), max_elements.status(),
        shrink_attempts.status(), case_timeout.status(), stop_after_findings.status()}) {
    if (!s.ok()) return usage(std::string(s.message()));
  }
  Campaign campaign;
  campaign.flags = &flags;
  campaign.store_dir = flags.Get("store");
  campaign.base.ops = flags.GetList("ops");
  for (const std::string& name : flags.GetList("types")) {
    auto type = ParseElementType(name);
    if (!type) return usage("unknown element type '" + name + "' (hlocheck types lists them)");
    campaign.base.types.push_back(*type);
  }
  campaign.base.seed = *seed;
  campaign.base.max_elements = *max_elements;
  campaign.base.max_shrink_attempts = static_cast<int>(*shrink_attempts);
  campaign.limit = *cases > 0 ? *cases : -1;
  campaign.case_timeout = static_cast<double>(*case_timeout);
  campaign.guided = flags.Switch("guided");
  campaign.stop_after_findings = *stop_after_findings;
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) return usage(std::string(registry.status().message()));
  campaign.programs = flags.Switch("programs");
  std::string plan_text;
  if (campaign.programs) {
    if (campaign.guided) return usage("--guided steers single-op cases, not --programs");
    ProgramRunSettings& settings = campaign.program_settings;
    settings.seed = *seed;
    settings.relations = ProgramRelations();
    settings.options.ops = campaign.base.ops;
    const std::vector<std::string> known = ProgramOps(**registry);
    for (const std::string& op : settings.options.ops) {
      if (std::find(known.begin(), known.end(), op) == known.end()) {
        return usage("--ops: '" + op + "' is not an op programs take (see `hlocheck spec`)");
      }
    }
    settings.options.element_types.insert(campaign.base.types.begin(), campaign.base.types.end());
    if (flags.IsSet("max-elements")) settings.options.max_elements = *max_elements;
    settings.shrink_attempts =
        flags.IsSet("shrink-attempts") ? static_cast<int>(*shrink_attempts) : 150;
    // A unit is a program, its variants and its shrinking, each backend
    // run under --case-timeout in the backend's own process: the
    // supervisor's limit on the whole unit is a net above those.
    campaign.backend_case_timeout = campaign.case_timeout;
    campaign.case_timeout *= settings.shrink_attempts + 10;
    plan_text = "programs of " + std::to_string(settings.options.min_ops) + ".." +
                std::to_string(settings.options.max_ops) + " ops, " +
                std::to_string(settings.options.max_elements) + " elements, ops " +
                (campaign.base.ops.empty() ? "all" : flags.Get("ops")) + ", types " +
                (campaign.base.types.empty() ? "all" : flags.Get("types")) + ", shrink " +
                std::to_string(settings.shrink_attempts);
  } else {
    // The plan, from the spec and the oracle alone (no backend yet: the
    // workers open their own after the fork).
    Oracle oracle(*registry);
    Gate planner(*registry, &oracle, nullptr);
    auto plan = planner.Plan(campaign.base);
    if (!plan.ok()) return usage(std::string(plan.status().message()));
    campaign.plan = *std::move(plan);
    for (const auto& [op, type] : campaign.plan) {
      plan_text += op->name + ":" + std::string(Name(type)) + ",";
    }
  }

  auto store = FindingsStore::Open(campaign.store_dir, /*create=*/true);
  if (!store.ok()) return usage(std::string(store.status().message()));
  // What decides which case each unit is: a resumed campaign must agree.
  if (auto s = (*store)->BindCampaign({{"backend", flags.Get("backend")},
                                       {"seed", std::to_string(*seed)},
                                       {"max_elements", std::to_string(*max_elements)},
                                       {"plan", plan_text},
                                       {"spec_digest", (*registry)->digest()},
                                       {"guided", campaign.guided ? "yes" : "no"}});
      !s.ok()) {
    return usage(std::string(s.message()));
  }
  if (auto s = (*store)->RequeueAll(); !s.ok()) return usage(std::string(s.message()));
  const double start = Now();
  if (*budget > 0) campaign.deadline = start + *budget;
  if (campaign.limit < 0 && campaign.deadline == 0) {
    std::cout << "hlocheck fuzz: no --budget and no --cases: running until interrupted\n";
  }
  std::cout << "campaign " << (*store)->path() << ": "
            << (campaign.programs ? plan_text
                                  : std::to_string(campaign.plan.size()) + " op/type groups")
            << ", " << *workers << " worker(s), backend " << flags.Get("backend") << "\n";

  std::map<pid_t, int> worker_of;
  std::map<int, pid_t> pid_of;
  std::set<pid_t> hung;  // killed by us for a hang
  // --stop-after-findings reached: the workers still running are stopped,
  // their cases in flight go back to the queue.
  bool stopping = false;
  for (int w = 0; w < *workers; ++w) {
    const pid_t pid = StartWorker(campaign, w);
    if (pid < 0) return usage(std::string("cannot fork a worker: ") + std::strerror(errno));
    worker_of[pid] = w;
    pid_of[w] = pid;
  }
  double last_progress = start;
  (void)(*store)->AddProgressPoint();
  bool store_failed = false;
  while (!worker_of.empty()) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0 && worker_of.count(pid)) {
      const int w = worker_of[pid];
      worker_of.erase(pid);
      pid_of.erase(w);
      const bool by_us = hung.erase(pid) > 0;
      if (stopping) continue;  // its case is requeued below, once all are gone
      if (WIFEXITED(status)) {
        if (WEXITSTATUS(status) == kWorkerStoreError || WEXITSTATUS(status) == kExitUsage) {
          store_failed = true;
        }
        continue;  // done: no unit left, or the deadline passed
      }
      const int signal = WTERMSIG(status);
      auto units = (*store)->InFlight();
      if (!units.ok()) {
        std::cerr << "hlocheck fuzz: " << units.status().message() << "\n";
        store_failed = true;
        continue;
      }
      for (const InFlightUnit& u : *units) {
        if (u.worker != w) continue;
        absl::Status recorded;
        if (by_us) {
          recorded = (*store)->Complete(
              u.unit, DeathResult(campaign, u, FindingKind::kBackendHang,
                                  "no answer within --case-timeout " +
                                      std::to_string(*case_timeout) + " s: the worker was killed"));
        } else if (signal == SIGKILL && u.attempts < kOutsideKillsBeforeCrash - 1) {
          // Killed from outside (an operator, a test, the OOM killer): the
          // case goes back to the queue; only its third such death makes it
          // a finding (the OOM killer's answer to that case, most likely).
          recorded = (*store)->Requeue(u.unit);
        } else {
          recorded = (*store)->Complete(
              u.unit, DeathResult(campaign, u, FindingKind::kBackendCrash,
                                  std::string("the worker process died of signal ") +
                                      std::to_string(signal) + " (" + strsignal(signal) +
                                      ") running this case"));
        }
        if (!recorded.ok()) {
          std::cerr << "hlocheck fuzz: " << recorded.message() << "\n";
          store_failed = true;
        }
      }
      if (store_failed || (campaign.deadline > 0 && Now() >= campaign.deadline)) continue;
      const pid_t again = StartWorker(campaign, w);
      if (again > 0) {
        worker_of[again] = w;
        pid_of[w] = again;
      }
      continue;
    }
    if (store_failed) {
      for (const auto& [p, w] : worker_of) kill(p, SIGKILL);
    }
    if (campaign.stop_after_findings > 0 && !stopping) {
      if (auto totals = (*store)->Totals();
          totals.ok() && totals->findings >= campaign.stop_after_findings) {
        stopping = true;
        for (const auto& [p, w] : worker_of) kill(p, SIGKILL);
      }
    }
    // Hangs: a unit in flight longer than the timeout.
    if (auto units = (*store)->InFlight(); units.ok()) {
      const double now = Now();
      for (const InFlightUnit& u : *units) {
        auto it = pid_of.find(u.worker);
        if (it == pid_of.end() || hung.count(it->second)) continue;
        if (now - u.started_at > campaign.case_timeout) {
          hung.insert(it->second);
          kill(it->second, SIGKILL);
        }
      }
    }
    if (Now() - last_progress >= 10) {
      last_progress = Now();
      // Counts over time, for the report (a failure here loses a point, not the campaign).
      (void)(*store)->AddProgressPoint();
      std::cout << "[" << static_cast<int64_t>(last_progress - start) << " s] ";
      PrintTotals(**store, last_progress - start, std::cout);
      std::cout.flush();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (stopping) {
    if (auto s = (*store)->RequeueAll(); !s.ok())
      std::cerr << "hlocheck fuzz: " << s.message() << "\n";
  }
  PrintTotals(**store, Now() - start, std::cout);
  (void)(*store)->AddProgressPoint();
  // The campaign's report beside its store, as run writes report.html.
  if (auto report = ReadCampaignReport(**store); report.ok()) {
    ReportInputs inputs;
    inputs.campaign = &*report;
    const std::string html = (std::filesystem::path(campaign.store_dir) / "report.html").string();
    if (auto s = WriteHtmlAndSummary(inputs, html, flags.Get("summary-md")); s.ok()) {
      std::cout << "report: " << html << "\n";
    } else {
      std::cerr << "hlocheck fuzz: " << s.message() << "\n";
    }
  }
  if (store_failed) {
    std::cerr << "hlocheck fuzz: a worker could not use the store or open the backend (above); "
                 "what was recorded is kept\n";
    return kExitUsage;
  }
  auto totals = (*store)->Totals();
  if (totals.ok() && totals->findings > 0) {
    std::cout << "findings: hlocheck findings list --store " << campaign.store_dir << "\n";
  }
  return totals.ok() && totals->failed > 0 ? kExitFailure : kExitOk;
}

}  // namespace hlocheck
