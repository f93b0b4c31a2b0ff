// The generators reach what ../shared/FAULT-CLASSES.md says real backends get
// wrong: for each class that applies, generated cases of the op it names
// contain those inputs, shapes and attributes. Each test counts the features
// over a fixed-seed batch (printed, like RC_CLASSIFY) and requires every one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "core/element_value.h"
#include "generators/case_generator.h"
#include "runners/gate.h"
#include "spec/registry.h"
#include "tests/support/spec_registry.h"

namespace hlocheck {
namespace {

using ::hlocheck::testing::TestRegistry;

// Runnable cases of `op` with its first operand of `type`, sizes sweeping.
std::vector<Case> Cases(const std::string& op_name, std::optional<ElementType> type, int count) {
  const spec::OpSpec& op = *TestRegistry().Find(op_name);
  GenerationOptions options;
  options.primary_type = type;
  std::vector<Case> cases;
  for (int i = 0; i < count; ++i) {
    GeneratedCase g =
        GenerateInstance(op, options, CaseSeed(7, op_name, type.value_or(ElementType::kI1), i),
                         CaseSize(i, count))
            .value();
    if (g.runnable) cases.push_back(*g.runnable);
  }
  return cases;
}

// The values of a tensor as doubles (real parts for complex types).
std::vector<double> Values(const Tensor& t) {
  return DispatchElementType(t.element_type(), [&]<ElementType T>() {
    std::vector<double> out;
    for (auto v : t.values<T>()) out.push_back(ToDouble<T>(v));
    return out;
  });
}

class Tally {
 public:
  void Add(const std::string& feature, bool seen) { counts_[feature] += seen; }
  // A feature is known to the tally once a case reaches the line that counts
  // it, so `features` (how many the test counts) is checked too: without it,
  // a batch with no cases, or none reaching a line, would pass.
  void ExpectAll(const std::string& title, size_t features) {
    std::printf("%s:", title.c_str());
    for (const auto& [feature, count] : counts_) std::printf(" %s=%d", feature.c_str(), count);
    std::printf("\n");
    EXPECT_EQ(counts_.size(), features) << title << ": features counted";
    for (const auto& [feature, count] : counts_)
      EXPECT_GT(count, 0) << title << ": never " << feature;
  }

 private:
  std::map<std::string, int> counts_;
};

std::vector<int64_t> IntList(const Case& c, const std::string& name,
                             std::vector<int64_t> fallback) {
  const Attribute* a = c.FindAttribute(name);
  if (a == nullptr) return fallback;
  return std::get<std::vector<int64_t>>(*a);
}

TEST(FaultClassesTest, NaNInOrderOps) {
  Tally tally;
  for (const Case& c : Cases("maximum", ElementType::kF32, 600)) {
    for (size_t side = 0; side < 2; ++side) {
      std::vector<double> v = Values(c.operands[side]);
      if (v.empty()) continue;
      std::string which = side == 0 ? "lhs" : "rhs";
      tally.Add("NaN first in " + which, std::isnan(v.front()));
      tally.Add("NaN middle in " + which, std::isnan(v[v.size() / 2]));
      tally.Add("NaN last in " + which, std::isnan(v.back()));
      tally.Add("all-NaN " + which, v.size() > 1 && std::all_of(v.begin(), v.end(), [](double x) {
                                      return std::isnan(x);
                                    }));
    }
    bool odd = false;
    for (int64_t d : c.operands[0].shape()) odd = odd || (d == 3 || d == 5 || d == 17);
    tally.Add("length 3, 5 or 17", odd);
  }
  tally.ExpectAll("maximum f32", 9);
}

TEST(FaultClassesTest, SignedZeroSubnormalsAndSpecialValues) {
  Tally tally;
  for (const Case& c : Cases("atan2", ElementType::kF32, 600)) {
    for (double x : Values(c.operands[0])) {
      tally.Add("-0", x == 0 && std::signbit(x));
      tally.Add("+0", x == 0 && !std::signbit(x));
      tally.Add("subnormal", x != 0 && std::fabs(x) < 0x1p-126);
      tally.Add("largest finite", std::fabs(x) == 0x1.fffffep127);
      tally.Add("Inf", std::isinf(x));
      tally.Add("NaN", std::isnan(x));
      tally.Add("1", std::fabs(x) == 1);
    }
  }
  tally.ExpectAll("atan2 f32 lhs", 7);
  Tally complex;
  for (const Case& c : Cases("add", ElementType::kComplexF32, 400)) {
    for (auto v : c.operands[0].values<ElementType::kComplexF32>()) {
      complex.Add("NaN real part", std::isnan(v.real()));
      complex.Add("NaN imaginary part", std::isnan(v.imag()));
      complex.Add("-0 imaginary part", v.imag() == 0 && std::signbit(v.imag()));
    }
  }
  complex.ExpectAll("add complex<f32>", 3);
}

TEST(FaultClassesTest, ConversionEdges) {
  Tally tally;
  for (const Case& c : Cases("convert", ElementType::kF32, 600)) {
    for (double x : Values(c.operands[0])) {
      tally.Add("f16 rounding midpoint 1 + 2^-11", std::fabs(x) == 1 + 0x1p-11);
      tally.Add("one ULP above the f16 midpoint", std::fabs(x) == 1 + 0x1p-11 + 0x1p-23);
      tally.Add("bf16 rounding midpoint 1 + 2^-8", std::fabs(x) == 1 + 0x1p-8);
      tally.Add("f8E4M3FN overflow edge 464", x == 464);
      tally.Add("2^31", x == 0x1p31);
      tally.Add("-2^63", x == -0x1p63);
      tally.Add("NaN", std::isnan(x));
      tally.Add("-Inf", std::isinf(x) && x < 0);
    }
  }
  tally.ExpectAll("convert from f32", 8);
}

TEST(FaultClassesTest, IndexClampingReachesEveryBound) {
  Tally tally;
  std::set<ElementType> index_types;
  for (const Case& c : Cases("dynamic_slice", std::nullopt, 1000)) {
    const Shape& shape = c.operands[0].shape();
    std::vector<int64_t> sizes = IntList(c, "slice_sizes", {});
    for (size_t d = 1; d < c.operands.size() && d - 1 < shape.size(); ++d) {
      ElementType t = c.operands[d].element_type();
      index_types.insert(t);
      double start = Values(c.operands[d])[0];
      int64_t limit = shape[d - 1] - sizes[d - 1];
      tally.Add("negative start", start < 0);
      tally.Add("start 0", start == 0);
      tally.Add("start inside", start > 0 && start < limit);
      tally.Add("start at dim - size", start == limit && limit > 0);
      tally.Add("start beyond dim - size", start > limit);
      tally.Add("start = index type max",
                IsInteger(t) && start == static_cast<double>(IntegerMaxUnsigned(t)));
      tally.Add("start = index type min (signed)",
                IsSignedInt(t) && start == static_cast<double>(IntegerMin(t)));
    }
  }
  tally.ExpectAll("dynamic_slice start indices", 7);
  int integer_types = 0;
  for (ElementType t : AllElementTypes()) integer_types += IsInteger(t);
  EXPECT_EQ(static_cast<int>(index_types.size()), integer_types) << "every integer index type";
}

TEST(FaultClassesTest, ScatterDuplicatesNarrowIndicesAndBodies) {
  Tally tally;
  for (const Case& c : Cases("scatter", ElementType::kSI32, 600)) {
    int64_t inputs = c.operand_segments.empty() ? 1 : c.operand_segments[0];
    const Tensor& indices = c.operands[inputs];
    std::vector<double> v = Values(indices);
    std::set<double> distinct(v.begin(), v.end());
    tally.Add("duplicate index values", distinct.size() < v.size());
    ElementType t = indices.element_type();
    tally.Add("ui8/si8/si16 indices",
              t == ElementType::kUI8 || t == ElementType::kSI8 || t == ElementType::kSI16);
    tally.Add("index beyond bounds", std::any_of(v.begin(), v.end(), [&](double x) {
                return x < 0 || x >= static_cast<double>(c.operands[0].num_elements());
              }));
    tally.Add("several inputs", inputs > 1);
    std::string body = c.regions[0].blocks[0].operations.size() == 1
                           ? "replace/first"
                           : c.regions[0].blocks[0].operations[0].name;
    tally.Add("body " + body, true);
  }
  // Seven bodies: replace (and first) without an operation, and add, maximum,
  // minimum, multiply, and, or (the recipe's kinds that fit si32).
  tally.ExpectAll("scatter si32", 4 + 7);
}

TEST(FaultClassesTest, WindowAndPaddingAttributes) {
  Tally tally;
  for (const Case& c : Cases("reduce_window", ElementType::kF32, 600)) {
    size_t rank = c.operands[0].shape().size();
    std::vector<int64_t> ones(rank, 1);
    std::vector<int64_t> window = IntList(c, "window_dimensions", ones);
    tally.Add("1x1 window", window == ones);
    auto larger = [](const std::vector<int64_t>& v) {
      return std::any_of(v.begin(), v.end(), [](int64_t x) { return x > 1; });
    };
    tally.Add("stride > 1", larger(IntList(c, "window_strides", ones)));
    tally.Add("base dilation > 1", larger(IntList(c, "base_dilations", ones)));
    tally.Add("window dilation > 1", larger(IntList(c, "window_dilations", ones)));
    bool negative = false, positive = false;
    if (const Attribute* padding = c.FindAttribute("padding")) {
      for (int64_t p : std::get<Tensor>(*padding).values<ElementType::kSI64>()) {
        negative = negative || p < 0;
        positive = positive || p > 0;
      }
    }
    tally.Add("negative padding", negative);
    tally.Add("mixed-sign padding", negative && positive);
  }
  tally.ExpectAll("reduce_window f32", 6);
}

TEST(FaultClassesTest, ConvolutionGroupsAndDotDimensionNumbers) {
  Tally tally;
  for (const Case& c : Cases("convolution", ElementType::kF32, 600)) {
    int64_t groups = c.attribute<int64_t>("feature_group_count");
    int64_t features = c.operands[0].shape()[c.attribute<int64_t>("input_feature_dimension")];
    tally.Add("feature_group_count 1", groups == 1);
    tally.Add("feature_group_count 2", groups == 2);
    tally.Add("feature_group_count C/2", features > 2 && groups * 2 == features);
    tally.Add("feature_group_count C", features > 2 && groups == features);
    tally.Add("batch_group_count > 1", c.attribute<int64_t>("batch_group_count") > 1);
  }
  tally.ExpectAll("convolution f32", 5);
  Tally dot;
  for (const Case& c : Cases("dot_general", ElementType::kSI8, 300)) {
    std::vector<int64_t> contracting = IntList(c, "lhs_contracting_dimensions", {});
    dot.Add("contracting dimension 0",
            std::find(contracting.begin(), contracting.end(), 0) != contracting.end());
    std::vector<int64_t> batching = IntList(c, "lhs_batching_dimensions", {});
    dot.Add("batching dimensions", !batching.empty());
    dot.Add("unsorted contracting dimensions",
            !std::is_sorted(contracting.begin(), contracting.end()));
  }
  dot.ExpectAll("dot_general si8", 3);
}

TEST(FaultClassesTest, SizesAtKernelBoundaries) {
  Tally tally;
  for (const Case& c : Cases("add", ElementType::kF32, 1000)) {
    for (int64_t d : c.operands[0].shape()) {
      tally.Add("2^k-1", d == 15 || d == 31 || d == 63 || d == 127 || d == 255);
      tally.Add("2^k", d == 16 || d == 32 || d == 64 || d == 128 || d == 256);
      tally.Add("2^k+1", d == 17 || d == 33 || d == 65 || d == 129 || d == 257);
    }
  }
  tally.ExpectAll("add f32 dimension sizes", 3);
}

TEST(FaultClassesTest, IntegerEdges) {
  Tally tally;
  for (const Case& c : Cases("shift_left", ElementType::kSI32, 600)) {
    for (double s : Values(c.operands[1])) {
      tally.Add("shift 0", s == 0);
      tally.Add("shift 31", s == 31);
      tally.Add("shift 32", s == 32);
      tally.Add("shift 33", s == 33);
      tally.Add("shift > 33", s > 33);
      tally.Add("negative shift", s < 0);
    }
  }
  tally.ExpectAll("shift_left si32", 6);
  Tally division;
  for (const Case& c : Cases("divide", ElementType::kSI32, 600)) {
    std::vector<double> lhs = Values(c.operands[0]);
    std::vector<double> rhs = Values(c.operands[1]);
    for (size_t i = 0; i < lhs.size(); ++i) {
      division.Add("divide by 0", rhs[i] == 0);
      division.Add("INT_MIN / -1", lhs[i] == -2147483648.0 && rhs[i] == -1);
    }
  }
  division.ExpectAll("divide si32", 2);
}

TEST(FaultClassesTest, SortStabilityAndKeys) {
  Tally tally;
  for (const Case& c : Cases("sort", ElementType::kF32, 600)) {
    std::vector<double> keys = Values(c.operands[0]);
    std::set<double> distinct(keys.begin(), keys.end());
    tally.Add("equal keys", keys.size() > 1 && distinct.size() < keys.size());
    tally.Add("NaN key",
              std::any_of(keys.begin(), keys.end(), [](double x) { return std::isnan(x); }));
    tally.Add("stable", c.attribute<bool>("is_stable"));
    tally.Add("unstable", !c.attribute<bool>("is_stable"));
    tally.Add("several operands", c.operands.size() > 1);
  }
  tally.ExpectAll("sort f32", 5);
}

}  // namespace
}  // namespace hlocheck
