// Printing and parsing StableHLO dense literals of a million elements,
// against the same numbers through std::to_chars / std::from_chars in the
// same run (the cost of the literal syntax on top of number formatting).
#include <benchmark/benchmark.h>

#include <charconv>
#include <random>

#include "core/element_value.h"
#include "core/literal.h"

namespace hlocheck {
namespace {

constexpr int64_t kElements = 1 << 20;

Tensor RandomF32() {
  Tensor tensor(Shape{kElements}, ElementType::kF32);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> distribution(-1e6f, 1e6f);
  for (float& v : tensor.values<ElementType::kF32>()) v = distribution(random);
  return tensor;
}

void BM_ToCharsBaseline(benchmark::State& state) {
  Tensor tensor = RandomF32();
  std::string text(kElements * 20, ' ');
  for (auto _ : state) {
    char* out = text.data();
    for (float v : tensor.values<ElementType::kF32>()) {
      out = std::to_chars(out, text.data() + text.size(), v).ptr;
      *out++ = ',';
    }
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * kElements);
}

void BM_PrintDenseF32(benchmark::State& state) {
  Tensor tensor = RandomF32();
  LiteralForm form = state.range(0) ? LiteralForm::kHex : LiteralForm::kList;
  for (auto _ : state) benchmark::DoNotOptimize(PrintDenseAttribute(tensor, form));
  state.SetItemsProcessed(state.iterations() * kElements);
}

void BM_FromCharsBaseline(benchmark::State& state) {
  Tensor tensor = RandomF32();
  std::string text;
  for (float v : tensor.values<ElementType::kF32>()) {
    char buffer[32];
    text.append(buffer, std::to_chars(buffer, buffer + sizeof(buffer), v).ptr);
    text += ',';
  }
  for (auto _ : state) {
    const char* in = text.data();
    const char* end = in + text.size();
    float sum = 0;
    while (in < end) {
      float v;
      in = std::from_chars(in, end, v).ptr + 1;
      sum += v;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kElements);
}

void BM_ParseDense(benchmark::State& state, ElementType type) {
  Tensor tensor(Shape{kElements}, type);
  // Small integers are valid in every type; their text is what matters here.
  Tensor source = RandomF32();
  ConvertElements(ElementType::kF32, source.raw(), type, tensor.raw(), kElements);
  std::string text =
      PrintDenseAttribute(tensor, state.range(0) ? LiteralForm::kHex : LiteralForm::kList);
  for (auto _ : state) {
    auto parsed = ParseDenseAttribute(text);
    if (!parsed.ok()) state.SkipWithError(std::string(parsed.status().message()).c_str());
    benchmark::DoNotOptimize(parsed);
  }
  state.SetItemsProcessed(state.iterations() * kElements);
}

BENCHMARK(BM_ToCharsBaseline)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PrintDenseF32)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FromCharsBaseline)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseDense, f32, ElementType::kF32)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseDense, f16, ElementType::kF16)->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseDense, bf16, ElementType::kBF16)->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseDense, f8E4M3FN, ElementType::kF8E4M3FN)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseDense, si32, ElementType::kSI32)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hlocheck

BENCHMARK_MAIN();
