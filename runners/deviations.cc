#include "runners/deviations.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "core/exact_value.h"
#include "core/program.h"

namespace hlocheck {
namespace {

// Calls `visit(bits&)` on every float part of `tensor` (a float element's
// bits; each half of a complex one), read from and written back to its
// little-endian container.
template <typename Visit>
void ForEachFloatPart(Tensor& tensor, Visit visit) {
  const ElementType type = tensor.element_type();
  if (!IsFloat(type) && !IsComplex(type)) return;
  const ElementType part = IsComplex(type) ? ComponentType(type) : type;
  const FloatFormat& format = Format(part);
  const size_t bytes = static_cast<size_t>(ContainerBytes(type)) / (IsComplex(type) ? 2 : 1);
  std::span<std::byte> storage = tensor.bytes();
  for (size_t at = 0; at + bytes <= storage.size(); at += bytes) {
    uint64_t bits = 0;
    std::memcpy(&bits, storage.data() + at, bytes);
    if (visit(format, bits)) std::memcpy(storage.data() + at, &bits, bytes);
  }
}

// The expectation with its subnormal values (reference, and the centers of
// an error bound) taken as zero: what a backend that flushes its results
// returns.
ResultExpectation FlushExpectation(const ResultExpectation& e) {
  ResultExpectation flushed = e;
  flushed.reference = FlushSubnormals(e.reference);
  for (size_t k = 0; k < flushed.center_hi.size(); ++k) {
    if (std::fpclassify(flushed.center_hi[k]) == FP_ZERO) continue;
    // A center below the result type's smallest normal is flushed to zero
    // with the bound kept: the bound still says how far from it is allowed.
    const ElementType part = IsComplex(e.reference.element_type())
                                 ? ComponentType(e.reference.element_type())
                                 : e.reference.element_type();
    const double smallest_normal = std::ldexp(1.0, Format(part).min_normal_exponent());
    if (std::fabs(flushed.center_hi[k]) < smallest_normal) {
      flushed.center_hi[k] = std::copysign(0.0, flushed.center_hi[k]);
      flushed.center_lo[k] = 0;
    }
  }
  return flushed;
}

// The elements of result r that still mismatch under `expectations`.
std::vector<std::set<int64_t>> StillMismatched(const std::vector<ResultExpectation>& expectations,
                                               const std::vector<Tensor>& actual) {
  std::vector<ResultComparison> comparisons = CompareResults(expectations, actual);
  std::vector<std::set<int64_t>> out(comparisons.size());
  for (size_t r = 0; r < comparisons.size(); ++r) {
    if (comparisons[r].type_mismatch) {
      for (int64_t i = 0; i < actual[r].num_elements(); ++i) out[r].insert(i);
      continue;
    }
    out[r].insert(comparisons[r].mismatch_indices.begin(), comparisons[r].mismatch_indices.end());
  }
  return out;
}

bool SameBits(const Tensor& a, int64_t i, const Tensor& b, int64_t j) {
  const size_t bytes = ContainerBytes(a.element_type());
  return std::memcmp(a.bytes().data() + i * bytes, b.bytes().data() + j * bytes, bytes) == 0;
}

// The largest value id used anywhere in `region` (arguments, results,
// nested regions), so that new arguments can be given unused ids.
ValueId LargestValueId(const Region& region) {
  ValueId largest = 0;
  for (const Block& block : region.blocks) {
    for (ValueId id : block.arguments) largest = std::max(largest, id);
    for (const Operation& op : block.operations) {
      for (ValueId id : op.results) largest = std::max(largest, id);
      for (ValueId id : op.operands) largest = std::max(largest, id);
      for (const Region& nested : op.regions) largest = std::max(largest, LargestValueId(nested));
    }
  }
  return largest;
}

// A sort on a backend that flushes subnormals compares flushed keys but
// moves the elements' own bits (XLA:CPU's comparator runs under DAZ): the
// oracle's answer for that is a sort of the flushed inputs together with
// the unflushed ones as passengers, which the comparator ignores; the
// passengers are the answer.
absl::StatusOr<std::vector<ResultExpectation>> SortComparingFlushed(const Oracle& oracle,
                                                                    const Case& c) {
  if (c.regions.size() != 1 || c.regions[0].blocks.size() != 1) {
    return absl::InvalidArgumentError("sort without its comparator");
  }
  const size_t n = c.operands.size();
  Case both = c;
  for (Tensor& t : both.operands) t = FlushSubnormals(t);
  for (size_t i = 0; i < n; ++i) {
    both.operands.push_back(c.operands[i]);
    both.result_types.push_back(c.result_types[i]);
  }
  // One variadic operand and result group (sort's inputs and results).
  both.operand_segments = {static_cast<int64_t>(2 * n)};
  both.result_segments = {static_cast<int64_t>(2 * n)};
  Block& block = both.regions[0].blocks[0];
  ValueId next = LargestValueId(both.regions[0]);
  for (size_t i = 0; i < n; ++i) {
    const ValueType scalar = ValueType::Of(TensorType({}, c.operands[i].element_type()));
    for (int side = 0; side < 2; ++side) {
      block.arguments.push_back(++next);
      block.argument_types.push_back(scalar);
    }
  }
  auto expectations = oracle.Compute(both);
  if (!expectations.ok()) return expectations.status();
  if (expectations->size() != 2 * n) return absl::InternalError("sort: wrong number of results");
  return std::vector<ResultExpectation>(expectations->begin() + static_cast<ptrdiff_t>(n),
                                        expectations->end());
}

bool IsNaNElement(const Tensor& t, int64_t i) {
  if (!IsFloat(t.element_type())) return false;
  const FloatFormat& format = Format(t.element_type());
  uint64_t bits = 0;
  const size_t bytes = ContainerBytes(t.element_type());
  std::memcpy(&bits, t.bytes().data() + i * bytes, bytes);
  return IsNaNBits(format, bits);
}

}  // namespace

Tensor FlushSubnormals(const Tensor& tensor) {
  Tensor flushed = tensor;
  ForEachFloatPart(flushed, [](const FloatFormat& format, uint64_t& bits) {
    if (!IsSubnormal(format, bits)) return false;
    bits &= format.sign_mask();
    return true;
  });
  return flushed;
}

Tensor FlushBelow(const Tensor& tensor, double smallest_normal) {
  Tensor flushed = tensor;
  ForEachFloatPart(flushed, [&](const FloatFormat& format, uint64_t& bits) {
    const double value = DecodeFloat(format, bits).ToDouble();
    if (!(value != 0 && std::fabs(value) < smallest_normal)) return false;
    bits &= format.sign_mask();
    return true;
  });
  return flushed;
}

bool IsSubnormal(const FloatFormat& format, uint64_t bits) {
  if (!format.has_zero_and_subnormals) return false;
  const uint64_t exponent = (bits >> format.mantissa_bits) & format.exponent_field_max();
  return exponent == 0 && (bits & format.mantissa_mask()) != 0;
}

bool HasSubnormals(const Tensor& tensor) {
  bool found = false;
  Tensor copy = tensor;
  ForEachFloatPart(copy, [&](const FloatFormat& format, uint64_t& bits) {
    found = found || IsSubnormal(format, bits);
    return false;
  });
  return found;
}

void ExcuseDeclaredDeviations(const BackendProfile& profile, const Oracle& oracle, const Case& c,
                              CaseOutcome& outcome) {
  if (outcome.kind != CaseOutcome::Kind::kMismatch) return;
  const size_t results = outcome.comparisons.size();
  // Still unexcused mismatches, per result.
  std::vector<std::set<int64_t>> open(results);
  for (size_t r = 0; r < results; ++r) {
    if (outcome.comparisons[r].type_mismatch) return;  // never a deviation
    open[r].insert(outcome.comparisons[r].mismatch_indices.begin(),
                   outcome.comparisons[r].mismatch_indices.end());
  }
  auto excuse = [&](const Deviation& d, size_t r, const std::set<int64_t>& still) {
    int64_t count = 0;
    for (auto it = open[r].begin(); it != open[r].end();) {
      if (still.count(*it) == 0) {
        it = open[r].erase(it);
        ++count;
      } else {
        ++it;
      }
    }
    if (count > 0) outcome.excused[d.id] += count;
  };

  for (const Deviation& d : profile.deviations) {
    // The results this deviation speaks of.
    // Its types are those of the result or of an operand: a flushed input
    // changes a comparison's i1 result too.
    bool operand_type_applies = false;
    for (const Tensor& operand : c.operands) {
      operand_type_applies = operand_type_applies || d.AppliesTo(c.op, operand.element_type());
    }
    std::vector<size_t> applicable;
    for (size_t r = 0; r < results; ++r) {
      if (!open[r].empty() &&
          (operand_type_applies || d.AppliesTo(c.op, c.result_types[r].element_type))) {
        applicable.push_back(r);
      }
    }
    if (applicable.empty()) continue;
    switch (d.kind) {
      case Deviation::Kind::kFlushSubnormals: {
        // Results flushed; and inputs flushed (the oracle again on them),
        // with and without flushing the results too.
        std::vector<std::vector<ResultExpectation>> candidates;
        std::vector<ResultExpectation> flushed_results;
        for (const ResultExpectation& e : outcome.expectations) {
          flushed_results.push_back(FlushExpectation(e));
        }
        candidates.push_back(std::move(flushed_results));
        // The oracle again on flushed inputs, with and without its results
        // flushed too.
        auto recompute = [&](const Case& flushed) {
          auto expectations = oracle.Compute(flushed);
          if (!expectations.ok()) return;
          std::vector<ResultExpectation> both;
          for (const ResultExpectation& e : *expectations) both.push_back(FlushExpectation(e));
          candidates.push_back(*std::move(expectations));
          candidates.push_back(std::move(both));
        };
        bool subnormal_inputs = false;
        for (const Tensor& t : c.operands) subnormal_inputs = subnormal_inputs || HasSubnormals(t);
        if (subnormal_inputs) {
          Case flushed = c;
          for (Tensor& t : flushed.operands) t = FlushSubnormals(t);
          recompute(flushed);
          if (c.op == "sort") {
            if (auto sorted = SortComparingFlushed(oracle, c); sorted.ok()) {
              candidates.push_back(*std::move(sorted));
            }
          }
        }
        // A float result narrower than its operands (dot_general's narrower
        // result types): a backend that converts the operands to the result
        // type first flushes those that are subnormal there.
        double result_normal = 0;
        for (const TensorType& t : c.result_types) {
          if (IsFloat(t.element_type) && Format(t.element_type).has_zero_and_subnormals) {
            const FloatFormat& f = Format(t.element_type);
            result_normal = std::max(result_normal, std::ldexp(1.0, f.min_normal_exponent()));
          }
        }
        Case converted = c;
        bool below = false;
        for (Tensor& t : converted.operands) {
          Tensor flushed = FlushBelow(t, result_normal);
          below = below || !flushed.BitwiseEquals(t);
          t = std::move(flushed);
        }
        if (below) recompute(converted);
        for (const auto& candidate : candidates) {
          std::vector<std::set<int64_t>> still = StillMismatched(candidate, outcome.actual);
          for (size_t r : applicable) excuse(d, r, still[r]);
        }
        break;
      }
      case Deviation::Kind::kMaxUlp: {
        std::vector<ResultExpectation> wider = outcome.expectations;
        for (ResultExpectation& e : wider) {
          if (!IsFloat(e.reference.element_type()) && !IsComplex(e.reference.element_type())) {
            continue;
          }
          if (e.check == Check::kExact) e.check = Check::kUlp;
          if (e.check == Check::kUlp) {
            e.allowed_ulp = std::max<int64_t>(e.allowed_ulp, d.max_ulp);
          }
        }
        std::vector<std::set<int64_t>> still = StillMismatched(wider, outcome.actual);
        for (size_t r : applicable) excuse(d, r, still[r]);
        break;
      }
      case Deviation::Kind::kNanMinMax: {
        // Declared deviations compose: where the profile also declares
        // flushing, the other operand may come back flushed.
        bool flushes = false;
        for (const Deviation& other : profile.deviations) {
          flushes =
              flushes || (other.kind == Deviation::Kind::kFlushSubnormals &&
                          other.AppliesTo(c.op, c.operands.empty() ? c.result_types[0].element_type
                                                                   : c.operands[0].element_type()));
        }
        // Elementwise only: an operand has the result's shape, or is a
        // scalar that stands for every element (clamp's bounds).
        for (size_t r : applicable) {
          const Tensor& actual = outcome.actual[r];
          std::set<int64_t> still;
          for (int64_t i : open[r]) {
            bool nan_operand = false, equals_an_operand = false;
            for (const Tensor& operand : c.operands) {
              if (operand.element_type() != actual.element_type()) continue;
              int64_t at = i;
              if (operand.shape() != actual.shape()) {
                if (operand.num_elements() != 1) continue;
                at = 0;
              }
              nan_operand = nan_operand || IsNaNElement(operand, at);
              equals_an_operand = equals_an_operand || SameBits(operand, at, actual, i);
              if (flushes && !equals_an_operand) {
                Tensor element(TensorType({}, operand.element_type()));
                const size_t bytes = ContainerBytes(operand.element_type());
                std::memcpy(element.raw(), operand.bytes().data() + at * bytes, bytes);
                equals_an_operand = SameBits(FlushSubnormals(element), 0, actual, i);
              }
            }
            if (!(nan_operand && equals_an_operand)) still.insert(i);
          }
          excuse(d, r, still);
        }
        break;
      }
    }
  }
  bool any_open = false;
  for (const auto& remaining : open) any_open = any_open || !remaining.empty();
  if (!any_open) {
    outcome.kind = CaseOutcome::Kind::kDeviation;
    return;
  }
  if (outcome.excused.empty()) return;
  // A mismatch some of whose elements the profile excuses: what it shows
  // (the first few mismatches, the count, the farthest element) is the
  // elements still open, or
  // a reader would see only the excused ones and think the deviation was
  // not applied.
  int64_t excused = 0;
  for (const auto& [id, elements] : outcome.excused) excused += elements;
  for (size_t r = 0; r < results; ++r) {
    ResultComparison& comparison = outcome.comparisons[r];
    if (static_cast<int64_t>(open[r].size()) == comparison.mismatches) continue;
    ResultExpectation unexcused = outcome.expectations[r];
    if (unexcused.free.empty()) unexcused.free.assign(unexcused.reference.num_elements(), 0);
    const std::set<int64_t> mismatched(comparison.mismatch_indices.begin(),
                                       comparison.mismatch_indices.end());
    for (int64_t i : mismatched) {
      if (open[r].count(i) == 0) unexcused.free[i] = kFreeAnyValue;
    }
    ResultComparison shown = CompareResult(unexcused, outcome.actual[r]);
    comparison.first_mismatches = std::move(shown.first_mismatches);
    // So are its distances: an excused element's (a flushed subnormal is
    // 2^23 ULP off or more) says nothing of the backend's accuracy.
    comparison.worst = std::move(shown.worst);
    comparison.worst_ulp = shown.worst_ulp;
    comparison.worst_bound_fraction = shown.worst_bound_fraction;
    comparison.mismatches = static_cast<int64_t>(open[r].size());
    comparison.mismatch_indices.assign(open[r].begin(), open[r].end());
  }
  outcome.message += std::string(outcome.message.empty() ? "" : "; ") + std::to_string(excused) +
                     " other element(s) differ as the backend's profile declares (excused, not "
                     "shown)";
}

}  // namespace hlocheck
