// The CPU adapter's ops on quantized tensors (adapters/cpu/quantized_ops.cc)
// against the oracle, on generated cases: every quantized case of the ops
// with integer kernels, of those it runs as dequantize, the float op,
// quantize, and of the region ops, passes (that a wrong rescale fails is
// faulty-quantized-add-shared-scale's part, in faulty_backend_test.cc).
#include <gtest/gtest.h>

#include "adapters/adapter.h"
#include "core/literal.h"
#include "generators/case_generator.h"
#include "oracle/compare.h"
#include "oracle/oracle.h"
#include "tests/support/case_builders.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::Literal;
using ::hlocheck::testing::MakeCase;
using ::hlocheck::testing::TestRegistry;
using ::hlocheck::testing::ValueTypeOf;

class CpuQuantizedTest : public ::testing::TestWithParam<std::string> {};

// Seeds until 40 quantized cases of the op (one in eight is) ran on the
// CPU adapter; each must meet the oracle.
TEST_P(CpuQuantizedTest, GeneratedQuantizedCasesMeetTheOracle) {
  const spec::OpSpec* op = TestRegistry().Find(GetParam());
  ASSERT_NE(op, nullptr);
  Oracle oracle(&TestRegistry());
  auto cpu = CreateAdapter("cpu", {});
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  GenerationOptions options;
  int ran = 0;
  int per_axis = 0;
  // if's and case's quantized values are the one float result in eight of
  // branches whose results are of any type: rarer.
  const bool branches = GetParam() == "if" || GetParam() == "case";
  const int wanted = branches ? 5 : 40;
  for (uint64_t seed = 1; seed <= (branches ? 6000u : 2000u) && ran < wanted; ++seed) {
    options.primary_type = seed % 3 == 0 ? ElementType::kBF16 : ElementType::kF32;
    // select's and if's primary operand is their predicate, case's its index.
    if (GetParam() == "select" || GetParam() == "if") options.primary_type = ElementType::kI1;
    if (GetParam() == "case") options.primary_type = ElementType::kSI32;
    Case c;
    try {
      c = GenerateCase(*op, options, seed, 40).value();
    } catch (const std::exception&) {
      continue;
    }
    if (!HasQuantizedTensor(c)) continue;
    const AdapterSupport support = (*cpu)->Supports(c);
    if (!support.supported) continue;  // e.g. 32-bit storage
    ++ran;
    for (const TensorType& t : c.result_types) {
      per_axis += t.quantization && t.quantization->quantization_dimension ? 1 : 0;
    }
    auto expected = oracle.Run(c);
    ASSERT_TRUE(expected.ok()) << expected.status();
    auto actual = (*cpu)->Run(c);
    ASSERT_TRUE(actual.ok()) << actual.status();
    ASSERT_EQ(actual->size(), expected->size());
    for (size_t r = 0; r < actual->size(); ++r) {
      const ResultComparison comparison = CompareResult((*expected)[r], (*actual)[r]);
      std::string inputs;
      for (const Tensor& t : c.operands) {
        inputs += "\n  " + t.type().ToString() + " " + PrintDenseAttribute(t);
      }
      EXPECT_TRUE(comparison.ok()) << GetParam() << " seed " << seed << ": "
                                   << (comparison.first_mismatches.empty()
                                           ? comparison.type_error
                                           : comparison.first_mismatches[0].allowed + ", got " +
                                                 comparison.first_mismatches[0].actual)
                                   << "\n-> " << c.result_types[r].ToString() << inputs;
    }
  }
  EXPECT_GE(ran, wanted) << "too few quantized cases of " << GetParam();
  if (GetParam() == "add" || GetParam() == "convolution") {
    EXPECT_GT(per_axis, 0) << GetParam() << " is per-axis quantized too";
  }
}

INSTANTIATE_TEST_SUITE_P(IntegerKernels, CpuQuantizedTest,
                         ::testing::Values("add", "subtract", "multiply", "maximum", "minimum",
                                           "negate", "abs", "clamp", "dot_general", "convolution"));

// The ops the adapter runs through their expressed type, and is_finite.
INSTANTIATE_TEST_SUITE_P(ThroughExpressedType, CpuQuantizedTest,
                         ::testing::Values("atan2", "batch_norm_grad", "batch_norm_inference",
                                           "batch_norm_training", "cbrt", "ceil", "cholesky",
                                           "compare", "cosine", "divide", "exponential",
                                           "exponential_minus_one", "floor", "iota", "log",
                                           "log_plus_one", "logistic", "power", "reduce_precision",
                                           "remainder", "round_nearest_afz", "round_nearest_even",
                                           "rsqrt", "select", "sign", "sine", "sqrt", "tan", "tanh",
                                           "triangular_solve", "is_finite"));

// The region ops: their bodies run on quantized scalars (recognised
// reductions as integer kernels, adapters/cpu/reduction.cc), their data
// moves as storage.
INSTANTIATE_TEST_SUITE_P(RegionOps, CpuQuantizedTest,
                         ::testing::Values("reduce", "reduce_window", "select_and_scatter",
                                           "scatter", "sort", "map", "if", "case", "while",
                                           "all_reduce", "reduce_scatter", "collective_reduce"));

// Every op whose quantized form is dequantize_op_quantize (or compare's,
// select's) and whose recipe draws quantized types: the oracle computes 20
// quantized cases of each without an error, and each result's reference
// lies within its own storage range.
TEST(QuantizedOracleTest, EveryDequantizeOpQuantizeOpComputesItsCases) {
  Oracle oracle(&TestRegistry());
  int ops = 0;
  for (const spec::OpSpec& spec_of_op : TestRegistry().ops()) {
    const spec::OpSpec* op = &spec_of_op;
    const std::string& name = op->name;
    const spec::QuantizedSemantics s = op->quantized_semantics;
    if (s != spec::QuantizedSemantics::kDequantizeOpQuantize &&
        s != spec::QuantizedSemantics::kDequantizeCompare &&
        s != spec::QuantizedSemantics::kDequantizeSelectQuantize) {
      continue;
    }
    GenerationOptions options;
    int computed = 0;
    for (uint64_t seed = 1; seed <= 600 && computed < 20; ++seed) {
      options.primary_type = seed % 2 == 0 ? ElementType::kBF16 : ElementType::kF32;
      Case c;
      try {
        c = GenerateCase(*op, options, seed, 30).value();
      } catch (const std::exception&) {
        continue;  // the op's primary operand takes no float (select's pred)
      }
      if (!HasQuantizedTensor(c)) continue;
      ++computed;
      auto expected = oracle.Run(c);
      ASSERT_TRUE(expected.ok()) << name << " seed " << seed << ": " << expected.status();
      for (const ResultExpectation& e : *expected) {
        if (e.check != Check::kStorageRange) continue;
        for (size_t i = 0; i < e.storage_low.size(); ++i) {
          if (!e.free.empty() && e.free[i] != 0) continue;
          int64_t reference = 0;
          DispatchElementType(e.reference.element_type(), [&]<ElementType T>() {
            if constexpr (IsInteger(T))
              reference = static_cast<int64_t>(e.reference.values<T>()[i]);
          });
          EXPECT_LE(e.storage_low[i], reference) << name << " seed " << seed;
          EXPECT_LE(reference, e.storage_high[i]) << name << " seed " << seed;
        }
      }
    }
    if (computed > 0) ++ops;
  }
  // Every element-wise op with a quantized recipe, dot_general, the
  // batch norms, cholesky and triangular_solve.
  EXPECT_GE(ops, 37);
}

// A sum halfway between two storage integers: both neighbours are what an
// integer kernel may give, the adapter rounds ties away from zero.
TEST(CpuQuantizedKernelTest, AddRoundsTiesAwayFromZero) {
  auto cpu = CreateAdapter("cpu", {});
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  const TensorType in = ValueTypeOf("tensor<2x!quant.uniform<i8:f32, 0.5:0>>").tensor();
  const TensorType out = ValueTypeOf("tensor<2x!quant.uniform<i8:f32, 1.0:3>>").tensor();
  const Case c = MakeCase("add",
                          {Tensor::Reusing(in, Literal("dense<[2, -2]> : tensor<2xi8>")),
                           Tensor::Reusing(in, Literal("dense<[3, -3]> : tensor<2xi8>"))},
                          out);
  auto actual = (*cpu)->Run(c);
  ASSERT_TRUE(actual.ok()) << actual.status();
  // 2.5 -> 3, -2.5 -> -3; plus the zero point 3.
  const auto storage = actual->at(0).values<ElementType::kSI8>();
  EXPECT_EQ(storage[0], 6);
  EXPECT_EQ(storage[1], 0);
}

// 32-bit storage takes the integer kernel too, its products summed exactly
// (in 16-bit limbs): (2^29 + 1)(2^31 + 1) = 2^60 + 2^31 + 2^29 + 1 rescaled by
// 2^-30 is 2^30 + 2.5 + 2^-30, which rounds to 2^30 + 3; in f64 the
// trailing 1 is lost and the tie 2^30 + 2.5 rounds to even, 2^30 + 2.
TEST(CpuQuantizedKernelTest, ThirtyTwoBitStorageSumsProductsExactly) {
  auto cpu = CreateAdapter("cpu", {});
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  const TensorType operand = ValueTypeOf("tensor<1x!quant.uniform<u32:f64, 1.0:0>>").tensor();
  const TensorType out = ValueTypeOf("tensor<!quant.uniform<i32:f64, 1073741824.0:0>>").tensor();
  Case c = MakeCase("dot_general",
                    {Tensor::Reusing(operand, Literal("dense<[536870913]> : tensor<1xui32>")),
                     Tensor::Reusing(operand, Literal("dense<[2147483649]> : tensor<1xui32>"))},
                    out);
  c.attributes["lhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["rhs_batching_dimensions"] = std::vector<int64_t>{};
  c.attributes["lhs_contracting_dimensions"] = std::vector<int64_t>{0};
  c.attributes["rhs_contracting_dimensions"] = std::vector<int64_t>{0};
  auto actual = (*cpu)->Run(c);
  ASSERT_TRUE(actual.ok()) << actual.status();
  EXPECT_EQ(actual->at(0).values<ElementType::kSI32>()[0], (1 << 30) + 3);
  // The oracle allows it (and the f64 path's value as the spec's reading).
  Oracle oracle(&TestRegistry());
  auto expected = oracle.Run(c);
  ASSERT_TRUE(expected.ok()) << expected.status();
  EXPECT_TRUE(CompareResult(expected->at(0), actual->at(0)).ok());
}

}  // namespace
}  // namespace hlocheck
