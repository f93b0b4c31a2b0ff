// The timed loop of the CPU benches that run one case many times: RunInto on
// the previous call's results, as a runner checking many cases of one shape
// does, or (fresh_result) a new result every call, as Run gives.
#ifndef HLOCHECK_BENCH_RUN_INTO_LOOP_H_
#define HLOCHECK_BENCH_RUN_INTO_LOOP_H_

#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "benchmark/benchmark.h"

namespace hlocheck {

inline void TimeRunInto(benchmark::State& state, Adapter& adapter, const Case& c,
                        bool fresh_result) {
  std::vector<Tensor> results;
  for (auto _ : state) {
    if (fresh_result) results.clear();
    absl::Status status = adapter.RunInto(c, results);
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(results.front().raw());
  }
}

}  // namespace hlocheck

#endif  // HLOCHECK_BENCH_RUN_INTO_LOOP_H_
