// How `interpret` evaluates the check dialect's ops, as the public tool does
// (runners/check_rules.h).
#include "runners/check_rules.h"

#include <sstream>

#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/literal.h"

namespace hlocheck::check_rules {
namespace {

// How the public tool, `stablehlo-translate --interpret` (openxla/stablehlo
// at 3c9301c1), evaluates each check. The check dialect's ops take their
// attributes, with the defaults of stablehlo/tests/CheckOps.td: tolerance
// 1e-4 (lines 58, 79), max_ulp_difference 1 and min_ulp_difference 0 (lines
// 152-153; the pretty form of expect_close always spells out the maximum).
// The custom_call forms ignore attributes and use fixed values
// (stablehlo/tools/StablehloTranslateMain.cpp): @check.expect_almost_eq an
// absolute tolerance of 1e-3 (line 191), @check.expect_close 0 to 3 ULP
// (line 179), @check.expect_eq exact (line 185), and @check.eq exact for
// integers, 1e-4 otherwise, with an i1 result (lines 131-152). Any other
// custom_call target is an error there, unsupported here.
constexpr double kDialectTolerance = 1e-4;
constexpr int64_t kDialectMaxUlp = 1;
constexpr double kCustomCallTolerance = 1e-3;
constexpr int64_t kCustomCallMaxUlp = 3;
constexpr double kCheckEqTolerance = 1e-4;

// The elements of a real or complex float tensor as doubles (two per
// complex element), for error bounds.
std::vector<double> AsDoubles(const Tensor& t) {
  std::vector<double> out;
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      for (const auto& v : t.values<T>()) {
        out.push_back(ToDouble<kPart>(v.real()));
        out.push_back(ToDouble<kPart>(v.imag()));
      }
    } else if constexpr (IsFloat(T)) {
      for (const auto& v : t.values<T>()) out.push_back(ToDouble<T>(v));
    }
  });
  return out;
}

}  // namespace

double NumberAttribute(const Operation& op, const std::string& name, double fallback) {
  auto it = op.attributes.find(name);
  if (it == op.attributes.end()) return fallback;
  if (const auto* d = std::get_if<double>(&it->second)) return *d;
  if (const auto* i = std::get_if<int64_t>(&it->second)) return static_cast<double>(*i);
  return fallback;
}

// The rule of a check op (`target` is its name, or a custom_call's target).
// Tolerances and ULPs apply to float and complex values; others compare
// exactly, as the public tool's check.eq does.
CheckRule RuleOf(const Operation& op, const std::string& target, bool floats) {
  const bool custom_call = op.name == "stablehlo.custom_call";
  CheckRule rule;
  rule.name = custom_call ? "custom_call @" + target : target;
  if (!floats) return rule;
  if (custom_call) {
    if (target == "check.expect_almost_eq" || target == "check.eq") {
      rule.how = CheckRule::How::kTolerance;
      rule.tolerance = target == "check.eq" ? kCheckEqTolerance : kCustomCallTolerance;
    } else if (target == "check.expect_close") {
      rule.how = CheckRule::How::kUlpRange;
      rule.max_ulp = kCustomCallMaxUlp;
    }
    return rule;
  }
  if (target == "check.expect_almost_eq" || target == "check.expect_almost_eq_const") {
    rule.how = CheckRule::How::kTolerance;
    rule.tolerance = NumberAttribute(op, "tolerance", kDialectTolerance);
  } else if (target == "check.expect_close") {
    rule.how = CheckRule::How::kUlpRange;
    rule.min_ulp = static_cast<int64_t>(NumberAttribute(op, "min_ulp_difference", 0));
    rule.max_ulp = static_cast<int64_t>(NumberAttribute(op, "max_ulp_difference", kDialectMaxUlp));
  }
  return rule;
}

namespace {

// The public tool's ULP difference (CheckOps.cpp, ULPDifference, lines
// 180-207): 0 for equal bits or two NaNs, the number of values between two
// finite ones, and "infinitely far" when either is not finite otherwise.
int64_t PublicUlpDifference(const FloatFormat& format, uint64_t a, uint64_t b) {
  if (a == b) return 0;
  const bool a_nan = IsNaNBits(format, a);
  const bool b_nan = IsNaNBits(format, b);
  if (a_nan && b_nan) return 0;
  auto infinite = [&](uint64_t bits) {
    return format.has_infinity && (bits & ~format.sign_mask()) == format.infinity_bits();
  };
  if (a_nan || b_nan || infinite(a) || infinite(b)) return INT64_MAX;
  return UlpDistance(format, a, b);
}

// expect_close: every element's ULP difference (for complex elements the
// larger of the parts') within [min_ulp, max_ulp]. Elements the spec leaves
// open are skipped; permutable runs are compared by CompareResult.
ResultComparison CompareUlpRange(const CheckRule& rule, const RuntimeValue& actual,
                                 const Tensor& expected) {
  ResultComparison out;
  if (actual.tensor.type() != expected.type()) {
    out.type_mismatch = true;
    out.type_error = "the value is " + actual.tensor.type().ToString() + ", the expected " +
                     expected.type().ToString();
    return out;
  }
  const bool in_runs = actual.permutable != nullptr;
  DispatchElementType(expected.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T) || IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      const FloatFormat& format = Format(kPart);
      auto want = expected.values<T>();
      auto got = actual.tensor.values<T>();
      for (size_t i = 0; i < want.size(); ++i) {
        if (!actual.free.empty() && actual.free[i]) {
          ++out.free;
          continue;
        }
        if (in_runs && actual.permutable->run[i] >= 0) continue;
        ++out.compared;
        int64_t ulp = 0;
        if constexpr (IsComplex(T)) {
          ulp = std::max(PublicUlpDifference(format, FloatBits<kPart>(got[i].real()),
                                             FloatBits<kPart>(want[i].real())),
                         PublicUlpDifference(format, FloatBits<kPart>(got[i].imag()),
                                             FloatBits<kPart>(want[i].imag())));
        } else {
          ulp = PublicUlpDifference(format, FloatBits<T>(got[i]), FloatBits<T>(want[i]));
        }
        if (ulp != INT64_MAX) out.worst_ulp = std::max(out.worst_ulp, ulp);
        if (ulp >= rule.min_ulp && ulp <= rule.max_ulp) continue;
        ++out.mismatches;
        if (out.first_mismatches.size() < 4) {
          out.first_mismatches.push_back(
              {static_cast<int64_t>(i),
               {},
               PrintElementLiteral(T, &want[i]),
               PrintElementLiteral(T, &got[i]),
               std::to_string(rule.min_ulp) + ".." + std::to_string(rule.max_ulp) + " ULP (was " +
                   (ulp == INT64_MAX ? std::string("not finite") : std::to_string(ulp)) + ")"});
        }
      }
    }
  });
  if (in_runs) {
    // The runs' elements as multisets, bit for bit; every other element is
    // marked free so that only the runs are compared here.
    ResultExpectation runs;
    runs.reference = expected;
    runs.permutable = actual.permutable;
    runs.free.assign(static_cast<size_t>(expected.num_elements()), 1);
    for (size_t i = 0; i < runs.free.size(); ++i) {
      if (actual.permutable->run[i] >= 0) runs.free[i] = 0;
    }
    ResultComparison r = CompareResult(runs, actual.tensor);
    out.compared += r.compared;
    out.mismatches += r.mismatches;
    for (ElementMismatch& m : r.first_mismatches) out.first_mismatches.push_back(std::move(m));
  }
  return out;
}

}  // namespace

// The literal verdict of a check: `actual` against `expected` by `rule`.
ResultComparison CompareLiterally(const CheckRule& rule, const RuntimeValue& actual,
                                  const Tensor& expected) {
  if (rule.how == CheckRule::How::kUlpRange) return CompareUlpRange(rule, actual, expected);
  ResultExpectation expectation;
  expectation.reference = expected;
  expectation.free = actual.free;
  expectation.permutable = actual.permutable;
  if (rule.how == CheckRule::How::kTolerance) {
    expectation.check = Check::kErrorBound;
    expectation.center_hi = AsDoubles(expected);
    expectation.center_lo.assign(expectation.center_hi.size(), 0.0);
    expectation.bound.assign(expectation.center_hi.size(), rule.tolerance);
  }
  // A quantized value is checked on its storage integers (the writer's
  // checks give those: a dense literal has no quantized form).
  const bool storage_check = actual.tensor.type().quantization && !expected.type().quantization;
  return CompareResult(expectation, storage_check
                                        ? Tensor::Reusing(TensorType(actual.tensor.shape(),
                                                                     actual.tensor.element_type()),
                                                          Tensor(actual.tensor))
                                        : actual.tensor);
}

std::string DescribeFailure(const CheckRule& rule, const Operation& op,
                            const ResultComparison& comparison) {
  std::ostringstream message;
  message << rule.name << " at line " << op.location.line << ": ";
  if (comparison.type_mismatch) {
    message << comparison.type_error;
  } else {
    message << comparison.mismatches << " element(s) differ";
    for (const ElementMismatch& m : comparison.first_mismatches) {
      message << "; at " << m.index << ": " << m.actual << " (oracle) vs " << m.expected
              << " (expected), allowed " << m.allowed;
    }
  }
  return message.str();
}

namespace {

std::string Number(double value) {
  std::ostringstream out;
  out.precision(2);
  out << value;
  return out.str();
}

}  // namespace

Judgement Judge(const Operation& producer, const ResultExpectation& expectation,
                const Tensor& expected, int allowed_ulp) {
  Judgement j;
  // The producer's bound from its YAML (an expectation built outside
  // Oracle::Compute may not carry it).
  ResultExpectation bounded = expectation;
  bounded.allowed_ulp = allowed_ulp;
  ResultComparison c = CompareResult(bounded, expected);
  j.accepted = c.ok();
  const std::string ulps = c.worst_ulp >= 0 ? std::to_string(c.worst_ulp) : "?";
  switch (expectation.check) {
    case Check::kExact:
      j.what = producer.name + "'s result is exact";
      break;
    case Check::kUlp:
      j.what = ulps + " ULP from the correctly rounded " + producer.name + ", allowed " +
               std::to_string(allowed_ulp);
      break;
    case Check::kErrorBound:
      j.what = (j.accepted ? "within" : "beyond") + std::string(" the accumulation bound of ") +
               producer.name + ", " + ulps + " ULP from exact";
      if (!j.accepted) j.what += ", " + Number(c.worst_bound_fraction) + " times the bound";
      break;
    case Check::kStorageRange:
      j.what = (j.accepted ? "within" : "beyond") +
               std::string(" the storage integers any allowed value of the quantized ") +
               producer.name + " quantizes to";
      break;
  }
  if (c.type_mismatch) j.what = c.type_error;
  return j;
}

}  // namespace hlocheck::check_rules
