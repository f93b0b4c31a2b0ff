// `hlocheck coverage`: op x constraint counts for generated valid and invalid
// cases, printed and written as JSON (docs/coverage-format.md).
#include <filesystem>
#include <fstream>
#include <iostream>

#include "absl/strings/str_split.h"
#include "runners/commands.h"
#include "runners/coverage.h"
#include "runners/flags.h"
#include "runners/report_files.h"

namespace hlocheck {

int CoverageCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.Add("cases", "N", "valid cases per op", "1000");
  flags.Add("negative-cases", "N", "invalid cases per constraint", "10");
  flags.Add("seed", "S", "run seed", std::to_string(kDefaultSeed));
  flags.Add("ops", "OP,OP", "ops to cover (default: all)", "");
  flags.Add("max-elements", "N", "largest tensor generated", "4096");
  flags.Add("json", "FILE", "where to write the JSON", "hlocheck-out/coverage.json");
  flags.AddSwitch("help", "show this help");
  auto usage = [](const std::string& message) {
    std::cerr << "hlocheck coverage: " << message << "\n";
    return kExitUsage;
  };
  if (auto status = flags.Parse(args); !status.ok()) return usage(std::string(status.message()));
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck coverage [flags]\n\n"
                 "Generates --cases valid cases per op and --negative-cases invalid cases per\n"
                 "constraint, and counts for every op x constraint how often valid cases\n"
                 "exercised it (for conditional constraints: held, or not applicable) and how\n"
                 "many invalid cases violated it alone; also element types and boundary\n"
                 "features per op. Prints a table and writes JSON (docs/coverage-format.md).\n\n"
                 "flags:\n"
              << flags.Help() << "\nExit status: 0 done, 1 a generator failed, 2 bad input.\n";
    return kExitOk;
  }
  if (!flags.positional().empty()) return usage("takes no positional arguments");
  auto cases = flags.GetInt("cases", 1, 100000000);
  auto negative = flags.GetInt("negative-cases", 0, 1000000);
  auto seed = flags.GetUint("seed");
  auto max_elements = flags.GetInt("max-elements", 1, int64_t{1} << 32);
  for (const absl::Status& s :
       {cases.status(), negative.status(), seed.status(), max_elements.status()}) {
    if (!s.ok()) return usage(std::string(s.message()));
  }
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) return usage(std::string(registry.status().message()));
  CoverageOptions options;
  options.cases = *cases;
  options.negative_cases = *negative;
  options.seed = *seed;
  options.max_elements = *max_elements;
  if (!flags.Get("ops").empty()) {
    for (const auto& name : absl::StrSplit(flags.Get("ops"), ',')) options.ops.emplace_back(name);
  }
  auto run = MeasureCoverage(**registry, options);
  if (!run.ok()) {
    if (absl::IsInvalidArgument(run.status())) return usage(std::string(run.status().message()));
    std::cerr << "hlocheck coverage: " << run.status().message() << "\n";
    return kExitFailure;
  }
  std::cout << CoverageTable(*run);
  std::string path = flags.Get("json");
  if (auto slash = path.rfind('/'); slash != std::string::npos) {
    std::error_code ignored;
    std::filesystem::create_directories(path.substr(0, slash), ignored);
  }
  std::ofstream out(path);
  out << CoverageToJson(*run).dump(2) << "\n";
  if (!out) return usage("cannot write " + path);
  out.close();
  // The heatmap beside the JSON: coverage.html for coverage.json.
  const std::string html_path = (std::filesystem::path(path).parent_path() /
                                 (std::filesystem::path(path).stem().string() + ".html"))
                                    .string();
  auto report = CoverageFromJson(CoverageToJson(*run), path);
  if (!report.ok()) return usage(std::string(report.status().message()));
  ReportInputs inputs;
  inputs.coverage = &*report;
  inputs.coverage_file = path;
  inputs.registry = *registry;
  if (auto s = WriteHtmlAndSummary(inputs, html_path, ""); !s.ok()) {
    return usage(std::string(s.message()));
  }
  std::cout << "coverage JSON: " << path << ", HTML: " << html_path << "\n";
  return kExitOk;
}

}  // namespace hlocheck
