// The CPU adapter's convolution against oneDNN (Debian's libdnnl, a
// benchmark baseline only) in the same run: a ResNet-style 3x3 convolution,
// 64 -> 64 channels, 56x56, batch 8, padding 1, f32, NHWC input and output
// and HWIO kernel (the layout the adapter takes as it is; oneDNN gets the
// same plain layouts, and reorders internally as it likes). Issue 19 asks
// for at least 0.5 of oneDNN's speed. Both use --threads (default: one per
// hardware thread; oneDNN's own pool sizes itself to the machine).
//
//   cpu_convolution_bench [--threads=N] [benchmark flags]
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "adapters/cpu/cpu_adapter.h"
#include "bench/ratio_reporter.h"
#include "bench/run_into_loop.h"
#include "bench/threads_flag.h"
#include "benchmark/benchmark.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace hlocheck {
namespace {

constexpr int64_t kBatch = 8, kSize = 56, kChannels = 64, kKernel = 3;
int g_threads = 0;

Tensor Random(Shape shape, uint32_t seed) {
  Tensor t(std::move(shape), ElementType::kF32);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (float& v : t.values<ElementType::kF32>()) v = uniform(rng);
  return t;
}

const Case& ConvolutionCase() {
  static const Case* c = [] {
    auto* conv = new Case;
    conv->op = "convolution";
    conv->operands.push_back(Random({kBatch, kSize, kSize, kChannels}, 1));
    conv->operands.push_back(Random({kKernel, kKernel, kChannels, kChannels}, 2));
    conv->result_types.push_back({{kBatch, kSize, kSize, kChannels}, ElementType::kF32});
    conv->attributes["window_strides"] = std::vector<int64_t>{1, 1};
    Tensor padding(Shape{2, 2}, ElementType::kSI64);
    for (int64_t& p : padding.values<ElementType::kSI64>()) p = 1;
    conv->attributes["padding"] = padding;
    conv->attributes["lhs_dilation"] = std::vector<int64_t>{1, 1};
    conv->attributes["rhs_dilation"] = std::vector<int64_t>{1, 1};
    conv->attributes["window_reversal"] = std::vector<bool>{false, false};
    conv->attributes["input_batch_dimension"] = int64_t{0};
    conv->attributes["input_feature_dimension"] = int64_t{3};
    conv->attributes["input_spatial_dimensions"] = std::vector<int64_t>{1, 2};
    conv->attributes["kernel_input_feature_dimension"] = int64_t{2};
    conv->attributes["kernel_output_feature_dimension"] = int64_t{3};
    conv->attributes["kernel_spatial_dimensions"] = std::vector<int64_t>{0, 1};
    conv->attributes["output_batch_dimension"] = int64_t{0};
    conv->attributes["output_feature_dimension"] = int64_t{3};
    conv->attributes["output_spatial_dimensions"] = std::vector<int64_t>{1, 2};
    conv->attributes["feature_group_count"] = int64_t{1};
    conv->attributes["batch_group_count"] = int64_t{1};
    return conv;
  }();
  return *c;
}

void BM_OneDnnConvolution(benchmark::State& state) {
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const dnnl::memory::desc src({kBatch, kChannels, kSize, kSize}, dt::f32, tag::nhwc);
  const dnnl::memory::desc weights({kChannels, kChannels, kKernel, kKernel}, dt::f32, tag::hwio);
  const dnnl::memory::desc dst({kBatch, kChannels, kSize, kSize}, dt::f32, tag::nhwc);
  const dnnl::convolution_forward::primitive_desc pd(
      dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                      dnnl::algorithm::convolution_direct, src, weights, dst,
                                      {1, 1}, {1, 1}, {1, 1}),
      engine);
  const Case& c = ConvolutionCase();
  dnnl::memory src_memory(src, engine, const_cast<void*>(c.operands[0].raw()));
  dnnl::memory weights_memory(weights, engine, const_cast<void*>(c.operands[1].raw()));
  std::vector<float> out(static_cast<size_t>(kBatch * kSize * kSize * kChannels));
  dnnl::memory dst_memory(dst, engine, out.data());
  dnnl::convolution_forward conv(pd);
  for (auto _ : state) {
    conv.execute(stream, {{DNNL_ARG_SRC, src_memory},
                          {DNNL_ARG_WEIGHTS, weights_memory},
                          {DNNL_ARG_DST, dst_memory}});
    stream.wait();
    benchmark::DoNotOptimize(out.data());
  }
}

void BM_CpuConvolution(benchmark::State& state) {
  CpuAdapter adapter{AdapterOptions(g_threads)};
  TimeRunInto(state, adapter, ConvolutionCase(), false);
}

BENCHMARK(BM_OneDnnConvolution)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CpuConvolution)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace hlocheck

int main(int argc, char** argv) {
  using hlocheck::g_threads;
  if (!hlocheck::InitializeWithThreads(argc, argv, g_threads)) return 1;
  std::printf("threads: %d; 3x3 convolution, 64 -> 64 channels, 56x56, batch 8, f32\n", g_threads);
  hlocheck::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  const double onednn = reporter.time("BM_OneDnnConvolution");
  const double cpu = reporter.time("BM_CpuConvolution");
  std::printf("oneDNN %8.2f ms, CPU adapter %8.2f ms: speed / oneDNN's %.2f\n", onednn, cpu,
              onednn / cpu);
  return 0;
}
