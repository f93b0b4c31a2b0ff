// A console reporter that also keeps each benchmark's real time per
// iteration (the median when repeated), so that a bench can print ratios
// against a baseline measured in the same run.
#ifndef HLOCHECK_BENCH_RATIO_REPORTER_H_
#define HLOCHECK_BENCH_RATIO_REPORTER_H_

#include <unistd.h>
#include "benchmark/benchmark.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace hlocheck {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // Colour only on a terminal: a custom reporter does not see --benchmark_color.
  RatioReporter() : ConsoleReporter(isatty(fileno(stdout)) ? OO_Defaults : OO_Tabular) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const std::string name = run.run_name.function_name;
      if (run.run_type == Run::RT_Iteration && !has_median_.count(name)) {
        times_[name] = run.GetAdjustedRealTime();
      } else if (run.aggregate_name == "median") {
        times_[name] = run.GetAdjustedRealTime();
        has_median_[name] = true;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
  const std::map<std::string, double>& times() const { return times_; }
  // The time of benchmark `name`, or NaN where it did not run (filtered out).
  double time(const std::string& name) const {
    auto it = times_.find(name);
    return it == times_.end() ? std::nan("") : it->second;
  }

 private:
  std::map<std::string, double> times_;
  std::map<std::string, bool> has_median_;
};

}  // namespace hlocheck

#endif  // HLOCHECK_BENCH_RATIO_REPORTER_H_
