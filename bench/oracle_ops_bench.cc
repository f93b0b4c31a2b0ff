// The oracle's throughput, in result elements per second, for every
// elementwise op of issue 7 that takes f32 and f64 operands. Each op x type
// runs the same 32 generated cases per iteration (sizes up to the gate's
// 100, every data policy: the inputs a gate run gives the oracle), through
// Oracle::Compute (the op's semantics, without constraint verification).
// The baseline in the same run is libm's double exp over the same number of
// f32 inputs, one call per element; the summary prints each op's rate and
// its ratio to that. oracle_elementwise_bench measures the correctly
// rounded functions alone on inputs in their interesting ranges.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bench/ratio_reporter.h"
#include "generators/case_generator.h"
#include "runners/session.h"

namespace hlocheck {
namespace {

constexpr int kCasesPerOp = 32;

// The ops that accept a float first operand (select's is i1, and
// the bitwise, shift and integer-only ops take no floats).
constexpr const char* kOps[] = {"abs",
                                "add",
                                "atan2",
                                "bitcast_convert",
                                "cbrt",
                                "ceil",
                                "clamp",
                                "compare",
                                "complex",
                                "convert",
                                "cosine",
                                "divide",
                                "exponential",
                                "exponential_minus_one",
                                "floor",
                                "imag",
                                "is_finite",
                                "log",
                                "log_plus_one",
                                "logistic",
                                "maximum",
                                "minimum",
                                "multiply",
                                "negate",
                                "power",
                                "real",
                                "reduce_precision",
                                "remainder",
                                "round_nearest_afz",
                                "round_nearest_even",
                                "rsqrt",
                                "sign",
                                "sine",
                                "sqrt",
                                "subtract",
                                "tan",
                                "tanh"};

// Result elements of one iteration, per benchmark name.
std::map<std::string, int64_t>& ElementsPerIteration() {
  static auto* elements = new std::map<std::string, int64_t>;
  return *elements;
}

Session& OracleSession() {
  static Session* session = [] {
    auto opened = OpenSession("cpu", 1);
    if (!opened.ok()) {
      std::fprintf(stderr, "cannot open a session: %s\n",
                   std::string(opened.status().message()).c_str());
      std::exit(1);
    }
    return opened->release();
  }();
  return *session;
}

// kCasesPerOp runnable cases of the op with a first operand of `type`, or
// none when the generator makes none.
std::vector<Case> Cases(const spec::OpSpec& op, ElementType type) {
  GenerationOptions options;
  options.primary_type = type;
  std::vector<Case> cases;
  for (uint64_t seed = 0; cases.size() < kCasesPerOp && seed < 4 * kCasesPerOp; ++seed) {
    try {
      GeneratedCase generated = GenerateInstance(op, options, seed, 100).value();
      if (generated.runnable) cases.push_back(std::move(*generated.runnable));
    } catch (const std::exception&) {
      return {};  // no instance with this first operand type
    }
  }
  return cases;
}

void BM_LibmDoubleExp(benchmark::State& state, int64_t count) {
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> value(-80, 80);
  std::vector<double> inputs(static_cast<size_t>(count));
  for (double& x : inputs) x = static_cast<float>(value(random));
  for (auto _ : state) {
    double sum = 0;
    for (double x : inputs) sum += std::exp(x);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * count);
}

void BM_Oracle(benchmark::State& state, const std::vector<Case>* cases, int64_t elements) {
  const Oracle& oracle = *OracleSession().oracle;
  for (auto _ : state) {
    for (const Case& c : *cases) {
      auto expectations = oracle.Compute(c);
      if (!expectations.ok()) {
        state.SkipWithError(std::string(expectations.status().message()).c_str());
        return;
      }
      benchmark::DoNotOptimize(expectations);
    }
  }
  state.SetItemsProcessed(state.iterations() * elements);
}

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  using namespace hlocheck;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const spec::SpecRegistry& registry = *OracleSession().registry;
  // Kept alive for the benchmarks, which hold pointers into it.
  static std::map<std::string, std::vector<Case>> cases;
  std::vector<std::string> names;
  std::vector<std::string> skipped;
  int64_t most_elements = 0;
  for (const char* op_name : kOps) {
    const spec::OpSpec* op = registry.Find(op_name);
    for (ElementType type : {ElementType::kF32, ElementType::kF64}) {
      const std::string name = std::string("Oracle/") + op_name + "/" + std::string(Name(type));
      std::vector<Case> generated = op ? Cases(*op, type) : std::vector<Case>{};
      if (generated.empty()) {
        skipped.push_back(name);
        continue;
      }
      int64_t elements = 0;
      for (const Case& c : generated) {
        for (const TensorType& result : c.result_types) elements += NumElements(result.shape);
      }
      most_elements = std::max(most_elements, elements);
      cases[name] = std::move(generated);
      ElementsPerIteration()[name] = elements;
      names.push_back(name);
      benchmark::RegisterBenchmark(name.c_str(), BM_Oracle, &cases[name], elements);
    }
  }
  ElementsPerIteration()["LibmDoubleExp"] = most_elements;
  benchmark::RegisterBenchmark("LibmDoubleExp", BM_LibmDoubleExp, most_elements);

  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  auto rate = [&](const std::string& name) {
    return ElementsPerIteration()[name] / reporter.time(name) * 1e9;  // times are in ns
  };
  const double baseline = rate("LibmDoubleExp");
  std::printf("\nresult elements per second, and the ratio to libm's double exp (%.1f M/s):\n",
              baseline / 1e6);
  for (const std::string& name : names) {
    if (!reporter.times().count(name)) continue;
    std::printf("  %-42s %9.2f M/s  %6.3f\n", name.c_str(), rate(name) / 1e6,
                rate(name) / baseline);
  }
  for (const std::string& name : skipped) {
    std::printf("  %-42s no generated case with this first operand type\n", name.c_str());
  }
  return 0;
}
