// `hlocheck run`: the CI gate.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include "reports/gate_reports.h"
#include "runners/commands.h"
#include "runners/flags.h"
#include "runners/gate_config.h"
#include "runners/gate_workers.h"
#include "runners/report_files.h"
#include "runners/session.h"
#include "runners/sharding.h"

namespace hlocheck {
namespace {

Flags RunFlags() {
  Flags flags;
  flags.Add("ops", "LIST", "comma-separated ops to check; default: every op the oracle implements");
  flags.Add("types", "LIST",
            "comma-separated element types (of each op's first operand), e.g. f32,bf16,si8; "
            "default: every type each op accepts");
  flags.Add("config", "FILE",
            "a gate config (YAML: settings, case_budgets, waivers; docs/gate-config.md); "
            "flags given here override its settings");
  flags.Add("backend", "NAME", "the backend to check against the oracle", "cpu");
  flags.Add("cases", "N", "cases per op and element type", "1000");
  flags.Add("seed", "N", "run seed; the same seed gives the same cases on any machine",
            std::to_string(kDefaultSeed));
  flags.Add("out", "DIR", "where report.json, report.html, junit.xml and reproducers go",
            "hlocheck-out");
  flags.Add("summary-md", "FILE", "also write a Markdown summary (for CI step summaries)", "");
  flags.Add("max-elements", "N", "largest number of elements a generated case draws", "4096");
  flags.Add("shrink-attempts", "N",
            "candidate cases tried while shrinking a group's first failure (each one is a "
            "compile on a compiler backend)",
            "5000");
  flags.Add("stop-after-backend-failures", "N",
            "stop an op/type group once the backend has failed (error, crash or hang) each of "
            "its first N cases or more, counting the rest as not run; 0: run every case",
            std::to_string(GateOptions().stop_after_backend_failures));
  flags.Add("shard", "I/N",
            "run only shard I of N (groups I, I+N, ...); default: from TEST_SHARD_INDEX/"
            "TEST_TOTAL_SHARDS, GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS or JOB_COMPLETION_INDEX/"
            "HLOCHECK_TOTAL_SHARDS; hlocheck merge joins the shards' reports",
            "");
  flags.Add("threads", "N",
            "backend threads (per worker); 0 = one per hardware thread (shared "
            "by the workers)",
            "0");
  flags.Add("workers", "N",
            "run the groups in N worker processes, each with its own backend; the report is "
            "the same as with 1; 0: one per hardware thread",
            "0");
  AddCompilerFlags(flags);
  flags.AddSwitch("list-backends", "list the available backends and exit");
  flags.AddSwitch("quiet", "print only failures and the final totals");
  flags.AddSwitch("help", "show this help");
  return flags;
}

std::string Help(const Flags& flags) {
  return "usage: hlocheck run [flags]\n\n"
         "Generates random valid cases for every op and element type, runs each on the oracle\n"
         "and on the backend, and compares them: bit for bit, within the op's ULP bound, or\n"
         "within the oracle's error bound. The first failure of each op and type is shrunk to\n"
         "a minimal case and printed as a StableHLO reproducer with a replay string.\n\n"
         "flags:\n" +
         flags.Help() +
         "\nExit status: 0 every case agreed, 1 a mismatch or backend failure was found,\n"
         "2 bad usage or input.\n";
}

}  // namespace

int RunCommand(const std::vector<std::string>& args) {
  Flags flags = RunFlags();
  if (auto status = flags.Parse(args); !status.ok()) {
    std::cerr << "hlocheck run: " << status.message() << "\n";
    return kExitUsage;
  }
  if (flags.Switch("help")) {
    std::cout << Help(flags);
    return kExitOk;
  }
  if (!flags.positional().empty()) {
    std::cerr << "hlocheck run: unexpected argument '" << flags.positional()[0] << "'\n";
    return kExitUsage;
  }
  if (flags.Switch("list-backends")) {
    for (const AdapterDescription& a : ListAdapters()) {
      std::cout << a.name << (a.self_test ? " (self-test, deliberately faulty)" : "") << "\n    "
                << a.description << "\n";
    }
    return kExitOk;
  }
  // A gate config's settings come first; the command line's override them.
  std::optional<GateConfig> config;
  if (!flags.Get("config").empty()) {
    auto registry = spec::DefaultRegistry();
    if (!registry.ok()) {
      std::cerr << "hlocheck run: " << registry.status().message() << "\n";
      return kExitUsage;
    }
    auto loaded = LoadGateConfig(flags.Get("config"), **registry);
    if (!loaded.ok()) {
      std::cerr << "hlocheck run: " << loaded.status().message() << "\n";
      return kExitUsage;
    }
    config = *std::move(loaded);
    std::vector<std::string> merged = config->flags;
    merged.insert(merged.end(), args.begin(), args.end());
    flags = RunFlags();
    if (auto status = flags.Parse(merged); !status.ok()) {
      std::cerr << "hlocheck run: " << config->file << ": " << status.message() << "\n";
      return kExitUsage;
    }
  }

  GateOptions options;
  if (config) {
    options.cases_per_op = config->case_budgets;
    const std::string today = TodayUtc();
    options.waiver_for = [config = *config, today](const std::string& op, ElementType type) {
      return WaiverFor(config, op, type, today);
    };
    if (!config->tolerances.empty()) {
      options.max_ulp_for = [config = *config, backend = flags.Get("backend")](
                                const std::string& op, ElementType type) {
        return MaxUlpFor(config, backend, op, type);
      };
      options.tolerance_config = config->file;
    }
  }
  options.ops = flags.GetList("ops");
  for (const std::string& name : flags.GetList("types")) {
    auto type = ParseElementType(name);
    if (!type) {
      std::cerr << "hlocheck run: unknown element type '" << name
                << "' (hlocheck types lists them)\n";
      return kExitUsage;
    }
    options.types.push_back(*type);
  }
  auto cases = flags.GetInt("cases", 1, 100000000);
  auto seed = flags.GetUint("seed");
  auto max_elements = flags.GetInt("max-elements", 1, int64_t{1} << 30);
  auto threads = flags.GetInt("threads", 0, 1024);
  auto shrink_attempts = flags.GetInt("shrink-attempts", 0, 100000000);
  auto stop_after_backend_failures = flags.GetInt("stop-after-backend-failures", 0, 100000000);
  for (const absl::Status& s :
       {cases.status(), seed.status(), max_elements.status(), threads.status(),
        shrink_attempts.status(), stop_after_backend_failures.status()}) {
    if (!s.ok()) {
      std::cerr << "hlocheck run: " << s.message() << "\n";
      return kExitUsage;
    }
  }
  options.cases = *cases;
  options.seed = *seed;
  options.max_elements = *max_elements;
  options.max_shrink_attempts = static_cast<int>(*shrink_attempts);
  options.stop_after_backend_failures = *stop_after_backend_failures;
  auto shard = ResolveShard(flags.Get("shard"), [](const char* name) { return std::getenv(name); });
  if (!shard.ok()) {
    std::cerr << "hlocheck run: " << shard.status().message() << "\n";
    return kExitUsage;
  }
  options.shard_index = shard->index;
  options.shard_total = shard->total;
  if (!shard->status_file.empty()) {
    // Bazel: the test understood TEST_SHARD_INDEX (else it runs every shard in full).
    std::ofstream(shard->status_file).flush();
  }
  options.command_line = "hlocheck run";
  for (const std::string& a : args) options.command_line += " " + a;

  // The report's directory is made before the run, so that a path that
  // cannot be one is said at once, not after hours of cases.
  {
    std::error_code error;
    std::filesystem::create_directories(flags.Get("out"), error);
    if (error) {
      std::cerr << "hlocheck run: --out " << flags.Get("out")
                << ": cannot create the report directory: " << error.message() << "\n";
      return kExitUsage;
    }
  }
  auto workers = flags.GetInt("workers", 0, 256);
  if (!workers.ok()) {
    std::cerr << "hlocheck run: " << workers.status().message() << "\n";
    return kExitUsage;
  }
  if (*workers == 0) {
    // One per hardware thread: the gate's default, on a GPU too: there the
    // oracle's side of each case is the CPU's work, and each worker opens a
    // CUDA context of its own on the one device.
    *workers = static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency()));
  }
  if (*workers > 1 && RunsOnGpu(flags.Get("backend"))) {
    // This process must not open the device before forking (a CUDA context
    // does not survive a fork): a child looks for it, so that a missing
    // GPU is said once, not by every worker.
    if (auto probe = OpenSessionInChild(flags); !probe.ok()) {
      std::cerr << "hlocheck run: " << probe.message() << "\n";
      return kExitUsage;
    }
  }
  // One process: the backend here. Workers: each opens its own after the
  // fork, and this process only plans (from the spec and the oracle; it
  // must start no threads before forking).
  std::unique_ptr<Session> session;
  std::optional<Oracle> planning_oracle;
  std::optional<Gate> planner;
  Gate* gate = nullptr;
  if (*workers == 1) {
    auto opened = OpenSession(flags, static_cast<int>(*threads));
    if (!opened.ok()) {
      std::cerr << "hlocheck run: " << opened.status().message() << "\n";
      return kExitUsage;
    }
    session = *std::move(opened);
    gate = session->gate.get();
  } else {
    auto registry = spec::DefaultRegistry();
    if (!registry.ok()) {
      std::cerr << "hlocheck run: " << registry.status().message() << "\n";
      return kExitUsage;
    }
    planning_oracle.emplace(*registry);
    planner.emplace(*registry, &*planning_oracle, nullptr);
    gate = &*planner;
  }
  const bool quiet = flags.Switch("quiet");
  // A progress line that rewrites itself only where someone watches it: a
  // CI log (stdout a file or pipe) gets plain lines, one per group (and
  // workers write theirs as they come).
  const bool animate = !quiet && isatty(STDOUT_FILENO) && *workers == 1;
  auto plan = gate->Plan(options);
  if (!plan.ok()) {
    std::cerr << "hlocheck run: " << plan.status().message() << "\n";
    return kExitUsage;
  }
  int64_t groups = 0;
  for (size_t position = 0; position < plan->size(); ++position)
    groups += InShard(options, position);
  if (options.shard_total > 1) {
    std::cout << "shard " << options.shard_index << " of " << options.shard_total << " (from "
              << shard->source << "): " << groups << " of " << plan->size() << " groups\n";
  }
  bool header_written = false;
  int64_t done = 0;
  int64_t cases_done = 0;
  const auto start = std::chrono::steady_clock::now();
  // Each group's line is written and flushed as the group finishes, so a
  // run whose output goes to a file shows its progress there at once.
  auto on_group = [&](const GroupResult& group) {
    ++done;
    cases_done += group.cases;
    if (animate) std::cout << "\r\033[K";
    if (!quiet || group.failed > 0) {
      if (!header_written) std::cout << ConsoleHeader() << "\n";
      header_written = true;
      std::cout << GroupLine(group) << "\n";
    }
    if (animate && done < groups) {
      double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::cout << ProgressLine(done, groups, cases_done, seconds);
    }
    std::cout << std::flush;
  };
  if (animate) std::cout << ProgressLine(0, groups, 0, 0) << std::flush;
  GateRun run;
  std::vector<std::string> worker_errors;
  if (*workers == 1) {
    run = gate->Run(options, *plan, on_group);
  } else {
    if (!quiet) std::cout << ConsoleHeader() << "\n";
    const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // No more workers than groups: each one opens a backend (on a GPU, a
    // context of its own).
    const int worker_count =
        static_cast<int>(std::min<int64_t>(*workers, std::max<int64_t>(groups, 1)));
    const int per_worker =
        *threads > 0 ? static_cast<int>(*threads) : std::max(1, hardware / worker_count);
    // In each worker: its lines, each one write, so that lines of two
    // workers never mix within a line.
    auto worker_line = [quiet](const GroupResult& group) {
      if (!quiet || group.failed > 0) std::cout << GroupLine(group) + "\n" << std::flush;
    };
    WorkersRun parallel = RunGateInWorkers(flags, per_worker, options, *plan, worker_count,
                                           flags.Get("out") + "/.workers", worker_line);
    run = std::move(parallel.run);
    worker_errors = std::move(parallel.errors);
    if (run.backend.empty()) run.backend = flags.Get("backend");
  }
  if (quiet) {
    // Only the failing groups (above), their findings, then the totals.
    WriteConsoleFindings(run, std::cout);
    std::cout << run.total(&GroupResult::cases) << " cases, " << run.total(&GroupResult::failed)
              << " failed\n";
  } else {
    std::cout << "\n";
    WriteConsoleTotals(run, std::cout);
    WriteConsoleFindings(run, std::cout);
  }
  if (config) {
    run.expired_waivers = ExpiredWaivers(*config, TodayUtc());
    for (const std::string& expired : run.expired_waivers) {
      std::cout << "EXPIRED WAIVER (fails the run): " << expired << "\n";
    }
  }
  std::string out = flags.Get("out");
  if (auto status = WriteReportFiles(run, out); !status.ok()) {
    std::cerr << "hlocheck run: " << status.message() << "\n";
    return kExitUsage;
  }
  ReportInputs report;
  report.run = &run;
  report.run_file = out + "/report.json";
  if (auto status = WriteHtmlAndSummary(report, out + "/report.html", flags.Get("summary-md"));
      !status.ok()) {
    std::cerr << "hlocheck run: " << status.message() << "\n";
    return kExitUsage;
  }
  if (!worker_errors.empty()) {
    // What the other workers found is in the reports; the run is not whole.
    for (const std::string& error : worker_errors) std::cerr << "hlocheck run: " << error << "\n";
    std::cerr << "hlocheck run: the reports hold the other workers' groups only\n";
    return kExitUsage;
  }
  std::cout << "reports: " << out << "/report.json, " << out << "/report.html, " << out
            << "/junit.xml";
  if (!flags.Get("summary-md").empty()) std::cout << ", " << flags.Get("summary-md");
  std::cout << "\n";
  return run.failed() ? kExitFailure : kExitOk;
}

}  // namespace hlocheck
