// Generated valid cases per second for every op: the recipe, the region
// bodies and the input data (where the op takes plain tensors), at
// RapidCheck sizes sweeping 0..100 as the gate's do. The baseline in the same
// run is `add` f32, the simplest recipe: each op's ratio says how much dearer
// its cases are. Ends with the slowest ten ops.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>

#include "bench/ratio_reporter.h"
#include "generators/case_generator.h"
#include "spec/registry.h"

namespace hlocheck {
namespace {

void BM_Generate(benchmark::State& state, const spec::OpSpec* op) {
  GenerationOptions options;
  std::vector<ElementType> types = PrimaryTypes(*op);
  if (op->name == "add") types = {ElementType::kF32};
  rc::Gen<GeneratedCase> generator = GeneratedCaseGenerator(*op, options);
  uint64_t seed = 0;
  for (auto _ : state) {
    ++seed;
    if (!types.empty()) {
      options.primary_type = types[seed % types.size()];
      generator = GeneratedCaseGenerator(*op, options);
    }
    GeneratedCase g = generator(rc::Random(seed), static_cast<int>(seed % 101)).value();
    benchmark::DoNotOptimize(g);
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  using namespace hlocheck;
  auto registry = spec::DefaultRegistry();
  if (!registry.ok()) {
    std::fprintf(stderr, "%s\n", std::string(registry.status().message()).c_str());
    return 2;
  }
  for (const spec::OpSpec& op : (*registry)->ops()) {
    if (op.recipe.empty()) continue;
    benchmark::RegisterBenchmark(("BM_Generate/" + op.name).c_str(), BM_Generate, &op)
        ->MinTime(0.2);
  }
  benchmark::Initialize(&argc, argv);
  // Times are per iteration in the benchmarks' unit, nanoseconds.
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  auto base = reporter.times().find("BM_Generate/add");
  if (base == reporter.times().end()) return 0;
  std::vector<std::pair<double, std::string>> by_speed;
  for (const auto& [name, seconds] : reporter.times()) by_speed.push_back({seconds, name});
  std::sort(by_speed.rbegin(), by_speed.rend());
  std::printf("\ncases per second, and time per case relative to add f32 (%.0f cases/s):\n",
              1e9 / base->second);
  for (const auto& [seconds, name] : by_speed) {
    std::printf("  %-44s %10.0f cases/s  %7.1fx\n", name.c_str(), 1e9 / seconds,
                seconds / base->second);
  }
  std::printf("slowest ten:");
  for (size_t i = 0; i < 10 && i < by_speed.size(); ++i) {
    std::printf(" %s", by_speed[i].second.substr(12).c_str());
  }
  std::printf("\n");
  return 0;
}
