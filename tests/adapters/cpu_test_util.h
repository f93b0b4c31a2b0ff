// Shared by the CPU adapter's tests: building cases and tensors, running a
// case that must succeed, and comparing floats bit for bit.
#ifndef HLOCHECK_TESTS_ADAPTERS_CPU_TEST_UTIL_H_
#define HLOCHECK_TESTS_ADAPTERS_CPU_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/cpu/cpu_adapter.h"
#include "core/case.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/tensor.h"
#include "tests/support/case_builders.h"

namespace hlocheck::cpu_test {

using ET = ElementType;

// The case builders the oracle's tests use too.
using ::hlocheck::testing::GatherCase;
using ::hlocheck::testing::GatherDims;
using ::hlocheck::testing::GetTupleElementCase;
using ::hlocheck::testing::OptimizationBarrierCase;
using ::hlocheck::testing::ScatterCase;
using ::hlocheck::testing::ScatterDims;
using ::hlocheck::testing::SortCase;
using ::hlocheck::testing::TupleCase;
using ::hlocheck::testing::ValueTypeOf;

template <ElementType T>
inline Tensor Make(Shape shape, std::vector<ContainerT<T>> values) {
  Tensor tensor(std::move(shape), T);
  EXPECT_EQ(static_cast<int64_t>(values.size()), tensor.num_elements());
  std::copy(values.begin(), values.end(), tensor.values<T>().begin());
  return tensor;
}

template <ElementType T>
std::vector<ContainerT<T>> Values(const Tensor& tensor) {
  auto span = tensor.values<T>();
  return {span.begin(), span.end()};
}

inline Tensor RandomBytes(Shape shape, ElementType type, std::mt19937_64& rng) {
  Tensor tensor(std::move(shape), type);
  for (std::byte& b : tensor.bytes()) b = static_cast<std::byte>(rng());
  return tensor;
}

inline Case Unary(std::string op, Tensor operand, TensorType result) {
  Case c;
  c.op = std::move(op);
  c.operands.push_back(std::move(operand));
  c.result_types.push_back(std::move(result));
  return c;
}

inline Case Binary(std::string op, Tensor lhs, Tensor rhs, TensorType result) {
  Case c = Unary(std::move(op), std::move(lhs), std::move(result));
  c.operands.push_back(std::move(rhs));
  return c;
}

inline Case Dot(Tensor lhs, Tensor rhs, Shape result, std::vector<int64_t> lhs_batch,
                std::vector<int64_t> rhs_batch, std::vector<int64_t> lhs_contract,
                std::vector<int64_t> rhs_contract) {
  const ElementType type = lhs.element_type();
  Case c = Binary("dot_general", std::move(lhs), std::move(rhs), {std::move(result), type});
  c.attributes["lhs_batching_dimensions"] = std::move(lhs_batch);
  c.attributes["rhs_batching_dimensions"] = std::move(rhs_batch);
  c.attributes["lhs_contracting_dimensions"] = std::move(lhs_contract);
  c.attributes["rhs_contracting_dimensions"] = std::move(rhs_contract);
  c.attributes["precision_config"] =
      std::vector<EnumValue>{EnumValue{"DEFAULT"}, EnumValue{"DEFAULT"}};
  return c;
}

inline CpuAdapter& SharedAdapter() {
  static CpuAdapter* adapter = new CpuAdapter(AdapterOptions(2));
  return *adapter;
}

// Runs a case that must be supported and succeed; returns its one result.
inline Tensor RunOne(const Case& c, Adapter& adapter = SharedAdapter()) {
  AdapterSupport support = adapter.Supports(c);
  EXPECT_TRUE(support.supported) << support.reason;
  absl::StatusOr<std::vector<Tensor>> results = adapter.Run(c);
  EXPECT_TRUE(results.ok()) << results.status();
  if (!results.ok() || results->size() != 1) return Tensor();
  EXPECT_EQ((*results)[0].type(), c.result_types[0]);
  return std::move((*results)[0]);
}

// Bitwise comparison of a float element type, where any NaN matches any NaN.
template <ElementType T>
void ExpectSameFloats(const std::vector<ContainerT<T>>& got, const std::vector<ContainerT<T>>& want,
                      const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  const FloatFormat& format = Format(T);
  int failures = 0;
  for (size_t i = 0; i < got.size() && failures < 10; ++i) {
    const uint64_t g = FloatBits<T>(got[i]);
    const uint64_t w = FloatBits<T>(want[i]);
    if (IsNaNBits(format, g) && IsNaNBits(format, w)) continue;
    if (g != w) {
      ++failures;
      ADD_FAILURE() << what << " #" << i << ": got 0x" << std::hex << g << ", want 0x" << w;
    }
  }
}

}  // namespace hlocheck::cpu_test

#endif  // HLOCHECK_TESTS_ADAPTERS_CPU_TEST_UTIL_H_
