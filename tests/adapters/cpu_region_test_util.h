// Shared by the CPU adapter's scatter and sort tests: region bodies built
// op by op (the adapter's tests link no MLIR reader), running a case with
// several results, comparing tensors where any NaN matches any NaN, and
// random valid elements of each type.
#ifndef HLOCHECK_TESTS_ADAPTERS_CPU_REGION_TEST_UTIL_H_
#define HLOCHECK_TESTS_ADAPTERS_CPU_REGION_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/element_value.h"
#include "core/program.h"
#include "tests/adapters/cpu_test_util.h"

namespace hlocheck::cpu_test {

// ------------------------------------------------------------ region bodies

inline ValueType Scalar(ElementType type) { return ValueType::Of(TensorType{{}, type}); }

// Builds one block: arguments get ids 0..n-1, each op's result the next id.
class BodyBuilder {
 public:
  explicit BodyBuilder(const std::vector<ElementType>& arguments) {
    for (ElementType type : arguments) {
      block_.arguments.push_back(next_++);
      block_.argument_types.push_back(Scalar(type));
      types_.push_back(type);
    }
  }
  ValueId Op(const std::string& name, std::vector<ValueId> operands, ElementType result,
             std::map<std::string, Attribute> attributes = {}) {
    Operation op;
    op.name = "stablehlo." + name;
    for (ValueId v : operands) op.operand_types.push_back(Scalar(types_[v]));
    op.operands = std::move(operands);
    op.results = {next_++};
    op.result_types = {Scalar(result)};
    op.attributes = std::move(attributes);
    types_.push_back(result);
    block_.operations.push_back(std::move(op));
    return next_ - 1;
  }
  ValueId Compare(ValueId lhs, ValueId rhs, const std::string& direction,
                  const std::string& compare_type) {
    return Op("compare", {lhs, rhs}, ET::kI1,
              {{"comparison_direction", EnumValue{direction}},
               {"compare_type", EnumValue{compare_type}}});
  }
  ValueId True() {
    Tensor one(Shape{}, ET::kI1);
    one.values<ET::kI1>()[0] = 1;
    return Op("constant", {}, ET::kI1, {{"value", one}});
  }
  Region Return(const std::vector<ValueId>& values) {
    Operation op;
    op.name = "stablehlo.return";
    op.operands = values;
    for (ValueId v : values) op.operand_types.push_back(Scalar(types_[v]));
    block_.operations.push_back(std::move(op));
    Region region;
    region.blocks.push_back(block_);
    return region;
  }
  ElementType type(ValueId v) const { return types_[v]; }

 private:
  Block block_;
  std::vector<ElementType> types_;
  ValueId next_ = 0;
};

// update_computation of `types`: `kind` ("add", "multiply", "maximum",
// "minimum", "replace", "first" or any binary op) of current and update for
// each result. `hidden` passes each result through select(true, r, r), which
// the adapter does not recognise: its general evaluator then runs the body.
inline Region Combiner(const std::string& kind, const std::vector<ElementType>& types,
                       bool hidden = false) {
  std::vector<ElementType> arguments = types;
  arguments.insert(arguments.end(), types.begin(), types.end());
  BodyBuilder b(arguments);
  const auto n = static_cast<ValueId>(types.size());
  std::vector<ValueId> out;
  for (ValueId i = 0; i < n; ++i) {
    ValueId r = kind == "replace" ? n + i : kind == "first" ? i : b.Op(kind, {i, n + i}, types[i]);
    if (hidden) {
      const ValueId yes = b.True();
      r = b.Op("select", {yes, r, r}, types[i]);
    }
    out.push_back(r);
  }
  return b.Return(out);
}

inline std::string CompareTypeOf(ElementType type, bool total) {
  if (IsFloat(type)) return total ? "TOTALORDER" : "FLOAT";
  return IsSignedInt(type) ? "SIGNED" : "UNSIGNED";
}

// comparator of inputs of `types`: compare `direction` of the first pair,
// optionally hidden behind select(true, p, p).
inline Region Comparator(const std::string& direction, const std::vector<ElementType>& types,
                         bool total = false, bool hidden = false) {
  std::vector<ElementType> arguments;
  for (ElementType t : types) arguments.insert(arguments.end(), {t, t});
  BodyBuilder b(arguments);
  ValueId p = b.Compare(0, 1, direction, CompareTypeOf(types[0], total));
  if (hidden) {
    const ValueId yes = b.True();
    p = b.Op("select", {yes, p, p}, ET::kI1);
  }
  return b.Return({p});
}

inline std::vector<Tensor> RunAll(const Case& c) {
  AdapterSupport support = SharedAdapter().Supports(c);
  EXPECT_TRUE(support.supported) << support.reason;
  absl::StatusOr<std::vector<Tensor>> results = SharedAdapter().Run(c);
  EXPECT_TRUE(results.ok()) << results.status();
  if (!results.ok()) return {};
  EXPECT_EQ(results->size(), c.result_types.size());
  for (size_t i = 0; i < results->size() && i < c.result_types.size(); ++i) {
    EXPECT_EQ((*results)[i].type(), c.result_types[i]);
  }
  return *std::move(results);
}

// The same bytes, where any NaN matches any NaN of a float or complex type.
inline void ExpectSameTensors(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.type(), want.type()) << what;
  const ElementType type = got.element_type();
  if (!IsFloat(type) && !IsComplex(type)) {
    EXPECT_TRUE(got == want) << what;
    return;
  }
  const FloatFormat& format = Format(ComponentType(type));
  const int parts = IsComplex(type) ? 2 : 1;
  const int bytes = ContainerBytes(type) / parts;
  int failures = 0;
  for (int64_t i = 0; i < got.num_elements() * parts && failures < 5; ++i) {
    uint64_t g = 0;
    uint64_t w = 0;
    std::memcpy(&g, got.bytes().data() + i * bytes, bytes);
    std::memcpy(&w, want.bytes().data() + i * bytes, bytes);
    if (g != w && !(IsNaNBits(format, g) && IsNaNBits(format, w))) {
      ++failures;
      ADD_FAILURE() << what << ": element part " << i << " is 0x" << std::hex << g << ", not 0x"
                    << w;
    }
  }
}

// Random valid elements of T: integers wrapped to their width, booleans 0
// or 1, narrow floats' bit patterns within their width, any bits otherwise.
template <ElementType T>
Tensor RandomElements(Shape shape, std::mt19937_64& rng) {
  Tensor t = RandomBytes(std::move(shape), T, rng);
  for (ContainerT<T>& x : t.values<T>()) {
    if constexpr (IsBool(T)) {
      x = x & 1;
    } else if constexpr (IsInteger(T)) {
      x = WrapInteger<T>(static_cast<uint64_t>(x));
    } else if constexpr (kIsBitPatternFloat<T>) {
      x = static_cast<ContainerT<T>>(x & ((uint64_t{1} << BitWidth(T)) - 1));
    }
  }
  return t;
}

inline Tensor RandomInts(Shape shape, int32_t low, int32_t high, std::mt19937_64& rng) {
  Tensor t(std::move(shape), ET::kSI32);
  std::uniform_int_distribution<int32_t> value(low, high);
  for (int32_t& x : t.values<ET::kSI32>()) x = value(rng);
  return t;
}

}  // namespace hlocheck::cpu_test

#endif  // HLOCHECK_TESTS_ADAPTERS_CPU_REGION_TEST_UTIL_H_
