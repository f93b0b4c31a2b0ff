// Pieces the benches share: a scalar region body of one binary op (a
// reduction's or a collective's computation) and a memcpy baseline loop.
#ifndef HLOCHECK_BENCH_BENCH_CASES_H_
#define HLOCHECK_BENCH_BENCH_CASES_H_

#include <cstring>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "core/program.h"

namespace hlocheck {

// body(a0, a1) = stablehlo.KIND(a0, a1) on 0-dimensional tensors of `type`.
inline Region BinaryBody(const std::string& kind, ElementType type) {
  const ValueType scalar = ValueType::Of(TensorType{{}, type});
  Block block;
  block.arguments = {0, 1};
  block.argument_types = {scalar, scalar};
  Operation op;
  op.name = "stablehlo." + kind;
  op.operands = {0, 1};
  op.operand_types = {scalar, scalar};
  op.results = {2};
  op.result_types = {scalar};
  Operation ret;
  ret.name = "stablehlo.return";
  ret.operands = {2};
  ret.operand_types = {scalar};
  block.operations = {op, ret};
  Region region;
  region.blocks.push_back(block);
  return region;
}

// memcpy of `bytes` between two buffers of its own, for a baseline in the
// same run.
inline void TimeMemcpy(benchmark::State& state, size_t bytes) {
  std::vector<char> source(bytes, 1);
  std::vector<char> destination(bytes, 2);  // written: its pages are faulted in
  for (auto _ : state) {
    std::memcpy(destination.data(), source.data(), destination.size());
    benchmark::ClobberMemory();
  }
}

}  // namespace hlocheck

#endif  // HLOCHECK_BENCH_BENCH_CASES_H_
