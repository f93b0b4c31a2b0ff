// The gate as a libFuzzer target (build/hlocheck-libfuzzer), so that
// libFuzzer's -fork/-jobs, and the engines built on its interface
// (ClusterFuzz, OSS-Fuzz), run hlocheck campaigns. An input's bytes choose
// the case: two bytes the plan's group, two the case of a 1,000-case gate
// run, the rest (hashed) that run's seed; the case runs on the oracle and
// the backend, and a failure prints its shrunk reproducer and aborts, so
// libFuzzer saves the input as a crash file.
//
// The hlocheck libraries are not compiled with coverage instrumentation
// (they are the project's g++ build); what guides libFuzzer instead is
// spec-level coverage in its extra-counters section: which group ran, at
// which size, with which outcome, and how many input elements. Settings
// come from the environment (libFuzzer owns the command line):
//   HLOCHECK_FUZZ_BACKEND  (default cpu)   HLOCHECK_FUZZ_OPS, HLOCHECK_FUZZ_TYPES (lists)
//   HLOCHECK_FUZZ_MAX_ELEMENTS (default 4096)
// docs/campaigns.md, "libFuzzer".
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_split.h"
#include "reports/gate_reports.h"
#include "runners/campaign.h"
#include "runners/replay_key.h"
#include "runners/session.h"

#ifdef HLOCHECK_AFL
// AFL++'s build (build/hlocheck-afl: this file linked with AFL++'s
// libAFLDriver and compiler runtime, docs/campaigns.md "AFL++"): the same
// spec-level features go into AFL's shared coverage map, of which the
// runtime clears the part a run may touch before each run. The libraries
// carry no AFL instrumentation, so these are the only bits AFL sees.
extern "C" uint8_t* __afl_area_ptr;
#else
// libFuzzer reads these bytes as coverage features (Linux: the linker's
// __start_/__stop_ symbols of the section).
__attribute__((section("__libfuzzer_extra_counters"))) static uint8_t spec_counters[1 << 16];
#endif

namespace hlocheck {
namespace {

struct Fuzzer {
  std::unique_ptr<Session> session;
  GatePlan plan;
  GateOptions base;
  std::string backend;
};

Fuzzer* Setup() {
  auto* fuzzer = new Fuzzer;
  const char* backend = std::getenv("HLOCHECK_FUZZ_BACKEND");
  fuzzer->backend = backend != nullptr && *backend ? backend : "cpu";
  auto session = OpenSession(fuzzer->backend, /*threads=*/1);
  if (!session.ok()) {
    std::cerr << "hlocheck-libfuzzer: " << session.status().message() << "\n";
    std::exit(2);
  }
  fuzzer->session = *std::move(session);
  if (const char* ops = std::getenv("HLOCHECK_FUZZ_OPS"); ops != nullptr && *ops) {
    for (auto op : absl::StrSplit(ops, ',')) fuzzer->base.ops.emplace_back(op);
  }
  if (const char* types = std::getenv("HLOCHECK_FUZZ_TYPES"); types != nullptr && *types) {
    for (auto name : absl::StrSplit(types, ',')) {
      auto type = ParseElementType(std::string(name));
      if (!type) {
        std::cerr << "hlocheck-libfuzzer: HLOCHECK_FUZZ_TYPES: unknown type '" << name << "'\n";
        std::exit(2);
      }
      fuzzer->base.types.push_back(*type);
    }
  }
  if (const char* max = std::getenv("HLOCHECK_FUZZ_MAX_ELEMENTS"); max != nullptr && *max) {
    fuzzer->base.max_elements = std::atoll(max);
  }
  fuzzer->base.max_shrink_attempts = 2000;
  auto plan = fuzzer->session->gate->Plan(fuzzer->base);
  if (!plan.ok()) {
    std::cerr << "hlocheck-libfuzzer: " << plan.status().message() << "\n";
    std::exit(2);
  }
  fuzzer->plan = *std::move(plan);
  return fuzzer;
}

void Count(uint64_t feature) {
#ifdef HLOCHECK_AFL
  uint8_t* counters = __afl_area_ptr;
#else
  uint8_t* counters = spec_counters;
#endif
  uint8_t& counter = counters[(feature * 0x9E3779B97F4A7C15ull) >> 48];
  if (counter < 255) ++counter;
}

}  // namespace
}  // namespace hlocheck

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hlocheck;
  static Fuzzer* fuzzer = Setup();
  // Missing bytes read as zeros: every input is a case (the empty one too,
  // which libFuzzer runs first and must see counted).
  auto byte = [&](size_t i) -> int64_t { return i < size ? data[i] : 0; };
  const int64_t group = (byte(0) | byte(1) << 8) % static_cast<int64_t>(fuzzer->plan.size());
  const int64_t index = (byte(2) | byte(3) << 8) % kCampaignRoundCases;
  uint64_t round = 0xcbf29ce484222325ull;  // FNV-1a of the rest
  for (size_t i = 4; i < size; ++i) round = (round ^ data[i]) * 0x100000001b3ull;
  const auto& [op, type] = fuzzer->plan[static_cast<size_t>(group)];
  GateOptions options = fuzzer->base;
  options.seed =
      size > 4 ? RoundSeed(fuzzer->base.seed, static_cast<int64_t>(round >> 1)) : fuzzer->base.seed;
  options.cases = kCampaignRoundCases;
  options.first_case = index;
  options.end_case = index + 1;
  options.stop_after_backend_failures = 0;
  GroupResult result = fuzzer->session->gate->RunGroup(*op, type, options);
  // Spec-level features: the group, its size, the outcome, the elements.
  const uint64_t outcome = result.failed                    ? 1
                           : result.skipped                 ? 2
                           : result.deviating               ? 3
                           : result.differs_from_convention ? 4
                                                            : 0;
  Count(static_cast<uint64_t>(group) << 8 |
        static_cast<uint64_t>(CaseSize(index, kCampaignRoundCases) / 10));
  Count(0x100000000ull | static_cast<uint64_t>(group) << 4 | outcome);
  Count(0x200000000ull | static_cast<uint64_t>(group) << 8 |
        static_cast<uint64_t>(std::bit_width(static_cast<uint64_t>(result.elements_compared))));
  if (result.failed > 0 && !result.findings.empty()) {
    const Finding& f = result.findings.front();
    std::cerr << "\n=== hlocheck: " << KindName(f.kind) << ": " << f.op << " " << Name(f.type)
              << "\n"
              << FindingSummary(f) << "\n"
              << FindingDetails(f) << "\n"
              << f.reproducer << "\nreplay: build/hlocheck replay --backend " << fuzzer->backend
              << " " << f.replay << "\ncommand: " << f.command << "\n";
    std::abort();
  }
  return 0;
}
