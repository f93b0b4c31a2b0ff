#include "oracle/compare.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>

#include "core/element_value.h"
#include "core/literal.h"
#include "oracle/distribution_test.h"

namespace hlocheck {
namespace {

constexpr size_t kMaxReportedMismatches = 4;

std::string Number(double value) {
  char buffer[32];
  auto [end, ec] =
      std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::general, 3);
  return std::string(buffer, end);
}

std::vector<int64_t> MultiIndex(const Shape& shape, int64_t linear) {
  std::vector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] == 0) continue;
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return index;
}

// The verdict on one real number (a float element or one part of a complex
// one). It holds numbers only: the text of what was allowed is written by
// AllowedText, for the few failing elements that are reported.
struct PartVerdict {
  bool pass = true;
  int64_t ulp = -1;  // distance to the reference, when both are numbers
  double bound_fraction = 0;
  double error = 0;  // kErrorBound: |actual - center|
};

PartVerdict CheckPart(const FloatFormat& format, uint64_t expected, uint64_t actual, Check check,
                      int allowed_ulp, double center_hi, double center_lo, double bound) {
  PartVerdict v;
  bool expected_nan = IsNaNBits(format, expected);
  bool actual_nan = IsNaNBits(format, actual);
  int64_t ulp = UlpDistance(format, expected, actual);
  if (ulp != INT64_MAX) v.ulp = ulp;
  switch (check) {
    case Check::kExact:
      v.pass = expected == actual || (expected_nan && actual_nan);
      return v;
    case Check::kUlp:
      if (allowed_ulp == 0) {
        // Zero ULPs means the correctly rounded value, sign of zero included.
        v.pass = expected == actual || (expected_nan && actual_nan);
      } else {
        v.pass = ulp <= allowed_ulp;
      }
      return v;
    case Check::kErrorBound:
      break;
    case Check::kStorageRange:  // integers only (CheckElement)
      v.pass = false;
      return v;
  }
  double a = DecodeFloat(format, actual).ToDouble();
  if (std::isnan(center_hi)) {
    v.pass = actual_nan;
    return v;
  }
  if (std::isinf(center_hi)) {
    v.pass = a == center_hi;
    return v;
  }
  double error = std::fabs((a - center_hi) - center_lo);
  v.error = error;
  v.bound_fraction = bound > 0 ? error / bound : (error == 0 ? 0 : HUGE_VAL);
  if (!actual_nan && error <= bound) return v;
  // Where the allowed interval reaches past the largest finite value, the
  // format's overflow result of that sign is allowed too.
  double max_finite = DecodeFloat(format, format.max_finite_bits()).ToDouble();
  if (std::fabs(center_hi) + bound > max_finite) {
    bool negative = center_hi < 0;
    uint8_t flags = 0;
    uint64_t overflow =
        EncodeFloat(format, ExactValue::Infinity(negative), RoundingMode::kNearestEven, &flags);
    if (!format.has_infinity && !format.has_nan()) {
      overflow = (negative ? format.sign_mask() : 0) | format.max_finite_bits();
    }
    if (actual == overflow || (IsNaNBits(format, overflow) && actual_nan)) {
      v.bound_fraction = 0;  // accepted as the overflow result, not by distance
      return v;
    }
  }
  v.pass = false;
  return v;
}

// What CheckPart allowed, in words, for a part that failed it.
std::string AllowedText(Check check, int allowed_ulp, const PartVerdict& v, double center_hi,
                        double bound) {
  switch (check) {
    case Check::kExact:
      return "bit-exact";
    case Check::kUlp: {
      if (allowed_ulp == 0) return "correctly rounded (0 ULP)";
      std::string text = "<= " + std::to_string(allowed_ulp) + " ULP";
      if (v.ulp >= 0) text += " (was " + std::to_string(v.ulp) + ")";
      return text;
    }
    case Check::kErrorBound:
      break;
    case Check::kStorageRange:
      return "a storage integer in the allowed range";
  }
  if (std::isnan(center_hi)) return "NaN";
  if (std::isinf(center_hi)) return center_hi > 0 ? "+Inf" : "-Inf";
  return "|error| <= " + Number(bound) + " (was " + Number(v.error) + ")";
}

// The verdict on one element against one expectation: each part's verdict
// (a float element has one part, a complex one two), and the part that failed.
struct ElementVerdict {
  bool pass = true;
  int parts = 0;
  PartVerdict part[2];
  int failed_part = -1;  // of a float element: the part that failed (its last)
};

template <ElementType T>
ElementVerdict CheckElement(const ResultExpectation& e, size_t i, const ContainerT<T>& expected,
                            const ContainerT<T>& got) {
  ElementVerdict verdict;
  if constexpr (IsFloat(T) || IsComplex(T)) {
    constexpr bool kComplex = IsComplex(T);
    constexpr ElementType kPart = ComponentType(T);
    const FloatFormat& format = Format(kPart);
    uint64_t expected_bits[2];
    uint64_t actual_bits[2];
    if constexpr (kComplex) {
      expected_bits[0] = FloatBits<kPart>(expected.real());
      expected_bits[1] = FloatBits<kPart>(expected.imag());
      actual_bits[0] = FloatBits<kPart>(got.real());
      actual_bits[1] = FloatBits<kPart>(got.imag());
    } else {
      expected_bits[0] = FloatBits<T>(expected);
      actual_bits[0] = FloatBits<T>(got);
    }
    verdict.parts = kComplex ? 2 : 1;
    for (int p = 0; p < verdict.parts; ++p) {
      size_t k = i * verdict.parts + p;
      bool bounded = e.check == Check::kErrorBound;
      verdict.part[p] = CheckPart(format, expected_bits[p], actual_bits[p], e.check, e.allowed_ulp,
                                  bounded ? e.center_hi[k] : 0, bounded ? e.center_lo[k] : 0,
                                  bounded ? e.bound[k] : 0);
      if (!verdict.part[p].pass) {
        verdict.pass = false;
        verdict.failed_part = p;
      }
    }
  } else if constexpr (IsInteger(T) && BitWidth(T) <= 32) {
    if (e.check == Check::kStorageRange) {
      // A quantized result's storage integer (at most 32 bits) against the
      // range any allowed value quantizes to; its distance outside the
      // range, in storage steps, is reported as its ULP.
      const auto value = static_cast<int64_t>(got);
      PartVerdict& part = verdict.part[0];
      verdict.parts = 1;
      part.ulp = value < e.storage_low[i]    ? e.storage_low[i] - value
                 : value > e.storage_high[i] ? value - e.storage_high[i]
                                             : 0;
      part.pass = part.ulp == 0;
      verdict.pass = part.pass;
      if (!part.pass) verdict.failed_part = 0;
    } else {
      verdict.pass = std::memcmp(&expected, &got, sizeof(expected)) == 0;
    }
  } else {
    (void)e;
    (void)i;
    verdict.pass = std::memcmp(&expected, &got, sizeof(expected)) == 0;
  }
  return verdict;
}

// The same value: the same bits, or (each part of) both NaN, whatever
// their payloads, as in the exact check.
template <ElementType T>
bool SameValue(const ContainerT<T>& a, const ContainerT<T>& b) {
  if (std::memcmp(&a, &b, sizeof(a)) == 0) return true;
  if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    return SameValue<kPart>(a.real(), b.real()) && SameValue<kPart>(a.imag(), b.imag());
  } else if constexpr (IsFloat(T)) {
    const FloatFormat& format = Format(T);
    return IsNaNBits(format, FloatBits<T>(a)) && IsNaNBits(format, FloatBits<T>(b));
  } else {
    return false;
  }
}

template <ElementType T>
void CompareTyped(const ResultExpectation& e, const Tensor& actual, ResultComparison& out) {
  auto expected = e.reference.values<T>();
  auto got = actual.values<T>();
  const bool has_free = !e.free.empty();
  const ResultExpectation* other = e.other_reading.get();
  int64_t worst_index = -1;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (has_free && e.free[i]) {
      ++out.free;
      // The convention's value, or (a bounded check) within the bound of it.
      const bool conventional =
          SameValue<T>(expected[i], got[i]) ||
          ((e.check == Check::kErrorBound || e.check == Check::kStorageRange) &&
           CheckElement<T>(e, i, expected[i], got[i]).pass);
      if (e.free[i] == kFreeWithConvention && !conventional) {
        ++out.convention_differences;
        if (out.first_convention_differences.size() < kMaxReportedMismatches) {
          out.first_convention_differences.push_back(
              {static_cast<int64_t>(i), MultiIndex(actual.shape(), static_cast<int64_t>(i)),
               PrintElementLiteral(T, &expected[i]), PrintElementLiteral(T, &got[i]),
               "any value (the spec leaves it open); the interpreter and XLA give the expected one",
               -1});
        }
      }
      continue;
    }
    // Elements of a permutable run are compared as a multiset (CompareRuns).
    if (e.permutable != nullptr && e.permutable->run[i] >= 0) continue;
    ++out.compared;
    ElementVerdict verdict = CheckElement<T>(e, i, expected[i], got[i]);
    if (!verdict.pass && other != nullptr && e.reading_differs[i] &&
        ((!other->free.empty() && other->free[i]) ||
         CheckElement<T>(*other, i, other->reference.values<T>()[i], got[i]).pass)) {
      // Right by the other reading (which may leave the element open
      // itself, e.g. to the order of repeated updates), and no distance
      // from this one's to be reported.
      ++out.other_reading;
      continue;
    }
    for (int p = 0; p < verdict.parts; ++p) {
      const PartVerdict& v = verdict.part[p];
      const bool further = e.check == Check::kErrorBound
                               ? v.bound_fraction > std::max(out.worst_bound_fraction, 0.0)
                               : v.ulp > std::max<int64_t>(out.worst_ulp, 0);
      if (further) worst_index = static_cast<int64_t>(i);
      if (e.check == Check::kErrorBound) {
        out.distances.AddBoundFraction(v.bound_fraction);
      } else {
        // (Only float parts get here.) Two NaNs match without a distance:
        // they are as close as can be.
        out.distances.AddUlp(v.ulp < 0 && v.pass ? 0 : v.ulp);
      }
      out.worst_ulp = std::max(out.worst_ulp, v.ulp);
      out.worst_bound_fraction = std::max(out.worst_bound_fraction, v.bound_fraction);
    }
    if (!verdict.pass) {
      ++out.mismatches;
      out.mismatch_indices.push_back(static_cast<int64_t>(i));
      if (out.first_mismatches.size() < kMaxReportedMismatches) {
        ElementMismatch m{static_cast<int64_t>(i),
                          MultiIndex(actual.shape(), static_cast<int64_t>(i)),
                          PrintElementLiteral(T, &expected[i]),
                          PrintElementLiteral(T, &got[i]),
                          "bit-exact",
                          -1};
        if (const int p = verdict.failed_part; p >= 0) {
          const size_t k = i * verdict.parts + p;
          const bool bounded = e.check == Check::kErrorBound;
          m.allowed = e.check == Check::kStorageRange
                          ? "storage in [" + std::to_string(e.storage_low[i]) + ", " +
                                std::to_string(e.storage_high[i]) + "]"
                          : AllowedText(e.check, e.allowed_ulp, verdict.part[p],
                                        bounded ? e.center_hi[k] : 0, bounded ? e.bound[k] : 0);
          if (IsComplex(T)) m.allowed = (p == 0 ? "real part " : "imaginary part ") + m.allowed;
          m.ulp = verdict.part[p].ulp;
        }
        if constexpr (IsBool(T)) {
          // A boolean byte other than 0 or 1 prints as true like 1 does:
          // say what the backend stored (a sum left unnormalised, say).
          if (got[i] != 0 && got[i] != 1) {
            m.actual += " (stored as the byte " + std::to_string(static_cast<int>(got[i])) +
                        ", not 0 or 1)";
          }
        }
        out.first_mismatches.push_back(std::move(m));
      }
    }
  }
  if (worst_index >= 0) {
    const size_t w = static_cast<size_t>(worst_index);
    out.worst = {worst_index,
                 MultiIndex(actual.shape(), worst_index),
                 PrintElementLiteral(T, &expected[w]),
                 PrintElementLiteral(T, &got[w]),
                 e.check == Check::kErrorBound
                     ? "|error| / bound = " + Number(out.worst_bound_fraction)
                     : std::to_string(out.worst_ulp) + " ULP",
                 out.worst_ulp};
  }
}

// One part of a float element as a key: a flag byte and its bits, every NaN
// alike (as kExact matches any NaN).
template <ElementType Part, typename V>
void AppendFloatKey(const V& value, std::string& key) {
  uint64_t bits = FloatBits<Part>(value);
  const bool nan = IsNaNBits(Format(Part), bits);
  if (nan) bits = 0;
  key.push_back(nan ? 'N' : 'V');
  key.append(reinterpret_cast<const char*>(&bits), sizeof(bits));
}

// Every element of a tensor as a string that is equal for two elements
// exactly when the elements match bit for bit (NaN matching any NaN).
std::vector<std::string> ElementKeys(const Tensor& t) {
  std::vector<std::string> keys(static_cast<size_t>(t.num_elements()));
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    auto values = t.values<T>();
    for (size_t i = 0; i < keys.size(); ++i) {
      if constexpr (IsComplex(T)) {
        constexpr ElementType kPart = ComponentType(T);
        AppendFloatKey<kPart>(values[i].real(), keys[i]);
        AppendFloatKey<kPart>(values[i].imag(), keys[i]);
      } else if constexpr (IsFloat(T)) {
        AppendFloatKey<T>(values[i], keys[i]);
      } else {
        keys[i].assign(reinterpret_cast<const char*>(&values[i]), sizeof(values[i]));
      }
    }
  });
  return keys;
}

// The elements of each run, as tuples of keys (one key per tensor), for the
// reference and the actual tensors; a run passes if both are the same
// multiset. Each failing run adds its size to `out.mismatches`.
void CompareRuns(const PermutableRuns& runs, const std::vector<const Tensor*>& expected,
                 const std::vector<const Tensor*>& actual,
                 const std::function<std::string()>& allowed, ResultComparison& out) {
  std::vector<std::vector<std::string>> expected_keys, actual_keys;
  for (const Tensor* t : expected) expected_keys.push_back(ElementKeys(*t));
  for (const Tensor* t : actual) actual_keys.push_back(ElementKeys(*t));
  using Tuples = std::vector<std::vector<std::string>>;
  std::map<int64_t, std::pair<Tuples, Tuples>> by_run;
  std::map<int64_t, int64_t> first_position;
  std::map<int64_t, std::vector<int64_t>> positions;
  for (size_t i = 0; i < runs.run.size(); ++i) {
    const int64_t r = runs.run[i];
    if (r < 0) continue;
    first_position.emplace(r, static_cast<int64_t>(i));
    positions[r].push_back(static_cast<int64_t>(i));
    std::vector<std::string> e, a;
    for (const auto& keys : expected_keys) e.push_back(keys[i]);
    for (const auto& keys : actual_keys) a.push_back(keys[i]);
    by_run[r].first.push_back(std::move(e));
    by_run[r].second.push_back(std::move(a));
  }
  for (auto& [r, tuples] : by_run) {
    out.compared += static_cast<int64_t>(tuples.first.size());
    std::sort(tuples.first.begin(), tuples.first.end());
    std::sort(tuples.second.begin(), tuples.second.end());
    if (tuples.first == tuples.second) continue;
    out.mismatches += static_cast<int64_t>(tuples.first.size());
    out.mismatch_indices.insert(out.mismatch_indices.end(), positions[r].begin(),
                                positions[r].end());
    if (out.first_mismatches.size() < kMaxReportedMismatches) {
      const int64_t at = first_position[r];
      const Tensor& e = *expected[0];
      const Tensor& a = *actual[0];
      const size_t bytes = ContainerBytes(e.element_type());
      out.first_mismatches.push_back(
          {at, MultiIndex(a.shape(), at),
           PrintElementLiteral(e.element_type(), e.bytes().data() + at * bytes),
           PrintElementLiteral(a.element_type(), a.bytes().data() + at * bytes), allowed(), -1});
    }
  }
}

}  // namespace

std::vector<ResultComparison> CompareResults(const std::vector<ResultExpectation>& expectations,
                                             const std::vector<Tensor>& actual) {
  std::vector<ResultComparison> out;
  for (size_t i = 0; i < expectations.size() && i < actual.size(); ++i) {
    out.push_back(CompareResult(expectations[i], actual[i]));
  }
  // Results reordered together: the tuples of their elements must match.
  for (size_t i = 0; i < out.size(); ++i) {
    const auto& runs = expectations[i].permutable;
    if (runs == nullptr) continue;
    bool first_of_group = true;
    for (size_t j = 0; j < i; ++j)
      first_of_group = first_of_group && expectations[j].permutable != runs;
    if (!first_of_group) continue;
    std::vector<const Tensor*> e, a;
    bool well_typed = true;
    for (size_t j = i; j < out.size(); ++j) {
      if (expectations[j].permutable != runs) continue;
      well_typed = well_typed && !out[j].type_mismatch;
      e.push_back(&expectations[j].reference);
      a.push_back(&actual[j]);
    }
    if (e.size() < 2 || !well_typed) continue;
    ResultComparison joint;
    CompareRuns(
        *runs, e, a,
        [&] {
          return "the same reordering of equivalent elements in every result (" + runs->reason +
                 ")";
        },
        joint);
    out[i].mismatches += joint.mismatches;
    out[i].mismatch_indices.insert(out[i].mismatch_indices.end(), joint.mismatch_indices.begin(),
                                   joint.mismatch_indices.end());
    for (ElementMismatch& m : joint.first_mismatches) {
      if (out[i].first_mismatches.size() < kMaxReportedMismatches) {
        out[i].first_mismatches.push_back(std::move(m));
      }
    }
  }
  return out;
}

ResultComparison CompareResult(const ResultExpectation& expectation, const Tensor& actual) {
  ResultComparison out;
  if (actual.type() != expectation.reference.type()) {
    out.type_mismatch = true;
    out.type_error = "expected " + expectation.reference.type().ToString() +
                     ", the backend returned " + actual.type().ToString();
    return out;
  }
  DispatchElementType(actual.element_type(),
                      [&]<ElementType T>() { CompareTyped<T>(expectation, actual, out); });
  if (expectation.permutable != nullptr) {
    const PermutableRuns& runs = *expectation.permutable;
    CompareRuns(
        runs, {&expectation.reference}, {&actual},
        [&] { return "a permutation of the equivalent elements here (" + runs.reason + ")"; }, out);
  }
  if (expectation.distribution != nullptr) TestDistribution(*expectation.distribution, actual, out);
  return out;
}

}  // namespace hlocheck
