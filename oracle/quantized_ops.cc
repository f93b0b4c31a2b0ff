// The ops that compute on quantized tensors, by their spec's
// quantized_semantics (spec/ops/*.yaml): dequantize_op_quantize and its
// compare and select forms; the ops that move storage run as they are.
//
// dequantize_op_quantize(op, inputs..., type(result)) dequantizes every
// quantized input to its expressed type E, computes op there and quantizes
// the result. The oracle runs the op's float function on the dequantized
// inputs (its bound, the op's YAML numerics for E), and a result element
// may be any storage integer that a value within that bound quantizes to
// (both readings of quantize: oracle/quantization.h). Backends compute
// these ops in integer arithmetic instead (i32 accumulation, a fixed-point
// multiplier and shift for the rescale), without E's roundings in between:
// the oracle also runs the op on inputs dequantized exactly (in f64) and
// allows what rounding that real result, rescaled with a multiplier of 31
// significant bits, to the nearest integer gives (within kRescale*Error).
// The storage range of an element is the hull of the two (docs/numerics.md,
// "Ops on quantized tensors").
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "core/exact_value.h"
#include "core/status_macros.h"
#include "oracle/oracle.h"
#include "oracle/quantization.h"

namespace hlocheck::oracle {
namespace {

// The error an integer kernel's rescale may add, in the result's units: a
// fixed-point multiplier of 31 significant bits (gemmlowp's and TFLite's
// QuantizeMultiplier) with a margin, relative; and an intermediate
// fixed-point rounding with at least 16 fractional bits (TFLite's add
// shifts its inputs left by 20), absolute.
constexpr double kRescaleRelativeError = 0x1p-30;
constexpr double kRescaleAbsoluteError = 0x1p-16;

constexpr char kRangeOpenReason[] =
    "the op leaves this element open in the expressed type (a NaN, an infinity or a free value): "
    "its quantization is not specified";
constexpr char kExactCompareReason[] =
    "an integer kernel compares (storage - zero_point) * scale exactly; the spec compares the "
    "values dequantized to the expressed type, where two of them may round to one";

bool IsQuantized(const TensorType& t) { return t.quantization.has_value(); }

// The value of every element of a float or boolean tensor as a double.
std::vector<double> ValuesOf(const Tensor& t) {
  std::vector<double> values(static_cast<size_t>(t.num_elements()));
  DispatchElementType(t.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T) || IsBool(T)) {
      auto in = t.values<T>();
      for (size_t i = 0; i < values.size(); ++i) {
        if constexpr (IsBool(T)) {
          values[i] = in[i] != 0 ? 1 : 0;
        } else {
          values[i] = ToDouble<T>(in[i]);
        }
      }
    }
  });
  return values;
}

Tensor FromValues(const TensorType& type, const std::vector<double>& values) {
  Tensor t(type);
  DispatchElementType(type.element_type, [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      auto out = t.values<T>();
      // Each value is one of T already (dequantized in T, or widened to f64).
      for (size_t i = 0; i < values.size(); ++i) {
        ConvertElement(ElementType::kF64, &values[i], T, &out[i]);
      }
    }
  });
  return t;
}

// The float case dequantize_op_quantize computes: every quantized operand
// dequantized, every quantized result of its expressed type. With `wide`,
// every float value in f64 instead, quantized operands dequantized exactly
// (an integer kernel's view). `overflow` collects, per operand, where
// storage - zero_point left the storage type.
Case FloatCase(const Case& c, bool wide, std::vector<std::vector<uint8_t>>* overflow) {
  Case f = c;
  for (size_t k = 0; k < c.operands.size(); ++k) {
    const Tensor& operand = c.operands[k];
    if (IsQuantized(operand.type())) {
      const UniformQuantization& q = *operand.type().quantization;
      const ElementType target = wide ? ElementType::kF64 : q.expressed_type;
      std::vector<double> values(static_cast<size_t>(operand.num_elements()));
      std::vector<uint8_t> overflowed(values.size(), 0);
      for (int64_t i = 0; i < operand.num_elements(); ++i) {
        const Dequantized d = Dequantize(StorageAt(operand, i), ParametersAt(operand.type(), i),
                                         operand.element_type(), target);
        values[i] = d.value;
        overflowed[i] = d.overflow;
      }
      f.operands[k] = FromValues(TensorType(operand.shape(), target), values);
      if (overflow != nullptr) overflow->push_back(std::move(overflowed));
    } else if (wide && IsFloat(operand.element_type())) {
      f.operands[k] = FromValues(TensorType(operand.shape(), ElementType::kF64), ValuesOf(operand));
    }
  }
  for (TensorType& type : f.result_types) {
    if (IsQuantized(type)) {
      type = TensorType(type.shape, wide ? ElementType::kF64 : type.quantization->expressed_type);
    } else if (wide && IsFloat(type.element_type)) {
      type.element_type = ElementType::kF64;
    }
  }
  // dequantize_compare compares the dequantized values as floats.
  if (c.op == "compare" && f.attributes.count("compare_type")) {
    f.attributes["compare_type"] = EnumValue{"FLOAT"};
  }
  return f;
}

// The values a conforming float implementation may return for one element
// of a float result, as a closed interval; nullopt where the expectation
// leaves the element open (free, NaN, an infinity) or gives no interval.
struct Interval {
  double lo = 0;
  double hi = 0;
};

class AllowedValues {
 public:
  explicit AllowedValues(const ResultExpectation& e) : e_(e), reference_(ValuesOf(e.reference)) {
    if (e.other_reading != nullptr) other_ = std::make_unique<AllowedValues>(*e.other_reading);
  }

  std::optional<Interval> At(size_t i) const {
    if ((!e_.free.empty() && e_.free[i] == kFreeAnyValue) || e_.distribution != nullptr ||
        e_.permutable != nullptr) {
      return std::nullopt;
    }
    std::optional<Interval> own = Own(i);
    if (own && other_ != nullptr && e_.reading_differs[i]) {
      std::optional<Interval> other = other_->At(i);
      if (!other) return std::nullopt;
      own = Interval{std::min(own->lo, other->lo), std::max(own->hi, other->hi)};
    }
    return own;
  }

  // The element's reference value.
  double Reference(size_t i) const { return reference_[i]; }

 private:
  std::optional<Interval> Own(size_t i) const {
    const double v = reference_[i];
    switch (e_.check) {
      case Check::kErrorBound: {
        const double center = e_.center_hi[i] + e_.center_lo[i];
        if (!std::isfinite(center)) return std::nullopt;
        return Interval{center - e_.bound[i], center + e_.bound[i]};
      }
      case Check::kUlp:
        if (e_.allowed_ulp > 0) return Ulps(i, e_.allowed_ulp);
        [[fallthrough]];
      case Check::kExact:
      case Check::kStorageRange:
        if (!std::isfinite(v)) return std::nullopt;
        return Interval{v, v};
    }
    return std::nullopt;
  }

  // The reference and its `n` neighbours on either side in its format.
  std::optional<Interval> Ulps(size_t i, int n) const {
    const double v = reference_[i];
    if (!std::isfinite(v)) return std::nullopt;
    const ElementType type = e_.reference.element_type();
    const FloatFormat& format = Format(type);
    uint8_t flags = 0;
    const uint64_t bits =
        EncodeFloat(format, ExactValue::FromDouble(v), RoundingMode::kNearestEven, &flags);
    uint64_t down = bits;
    uint64_t up = bits;
    for (int k = 0; k < n; ++k) {
      down = NextFloatBits(format, down, /*down=*/true);
      up = NextFloatBits(format, up, /*down=*/false);
    }
    return Interval{DecodeFloat(format, down).ToDouble(), DecodeFloat(format, up).ToDouble()};
  }

  const ResultExpectation& e_;
  std::vector<double> reference_;
  std::unique_ptr<AllowedValues> other_;
};

// The storage integers quantize may give for any value of [lo, hi] (both
// readings; quantize never decreases as its argument grows), or nullopt
// where no reading gives one at an end.
std::optional<std::pair<int64_t, int64_t>> QuantizedRange(Interval x, QuantizationParameters p,
                                                          const TensorType& type) {
  const Quantized lo = Quantize(x.lo, p, type);
  const Quantized hi = Quantize(x.hi, p, type);
  if ((!lo.seed && !lo.public_spec) || (!hi.seed && !hi.public_spec)) return std::nullopt;
  const int64_t low =
      std::min(lo.seed.value_or(*lo.public_spec), lo.public_spec.value_or(*lo.seed));
  const int64_t high =
      std::max(hi.seed.value_or(*hi.public_spec), hi.public_spec.value_or(*hi.seed));
  return std::pair{low, high};
}

// What an integer kernel may give for a real result within [lo, hi]: the
// rescale x / scale + zero_point within kRescale*Error, rounded to nearest
// with ties either way, saturated. The relative error is of the larger of
// the result and `terms`, the sum of the magnitudes the kernel rescales
// separately (an element-wise op's operands: add's two terms may cancel,
// each rescaled with its own multiplier's error), in the result's units.
std::optional<std::pair<int64_t, int64_t>> IntegerKernelRange(Interval x, double terms,
                                                              QuantizationParameters p,
                                                              const UniformQuantization& q) {
  // The nearest integers to x / scale within the rescale's error, before
  // the zero point (which is added exactly).
  const auto nearest = [&](double t, bool low) -> std::optional<int64_t> {
    if (std::isnan(t)) return std::nullopt;
    const double slack =
        std::max(std::fabs(t), terms / p.scale) * kRescaleRelativeError + kRescaleAbsoluteError;
    const double n = low ? std::ceil(t - slack - 0.5) : std::floor(t + slack + 0.5);
    constexpr double kWide = 0x1p62;
    return static_cast<int64_t>(std::clamp(n, -kWide, kWide));
  };
  const std::optional<int64_t> lo = nearest(x.lo / p.scale, true);
  const std::optional<int64_t> hi = nearest(x.hi / p.scale, false);
  if (!lo || !hi) return std::nullopt;
  return std::pair{std::clamp(*lo + p.zero_point, q.storage_min, q.storage_max),
                   std::clamp(*hi + p.zero_point, q.storage_min, q.storage_max)};
}

// A quantized result of `type` from the float expectation of
// dequantize_op_quantize (`spec`) and of its exact counterpart (`wide`).
ResultExpectation QuantizedResult(const TensorType& type, const ResultExpectation& spec,
                                  const ResultExpectation& wide, const std::vector<double>& terms) {
  const UniformQuantization& q = *type.quantization;
  const AllowedValues spec_values(spec);
  const AllowedValues wide_values(wide);
  ResultExpectation e;
  e.reference = Tensor(type);
  e.check = Check::kStorageRange;
  const auto n = static_cast<size_t>(type.num_elements());
  e.storage_low.assign(n, q.storage_min);
  e.storage_high.assign(n, q.storage_max);
  for (size_t i = 0; i < n; ++i) {
    const QuantizationParameters p = ParametersAt(type, static_cast<int64_t>(i));
    // The reference: the spec's own value (seed 002's reading of quantize).
    const Quantized reference = Quantize(spec_values.Reference(i), p, type);
    const std::optional<Interval> allowed = spec_values.At(i);
    const auto range = allowed ? QuantizedRange(*allowed, p, type) : std::nullopt;
    if (!reference.seed || !range) {
      SetStorage(e.reference, static_cast<int64_t>(i),
                 reference.seed.value_or(reference.public_spec.value_or(q.storage_min)));
      MarkFree(e, static_cast<int64_t>(i), kFreeAnyValue,
               !reference.seed ? kNaNReason : kRangeOpenReason);
      continue;
    }
    SetStorage(e.reference, static_cast<int64_t>(i), *reference.seed);
    if (!spec.free.empty() && spec.free[i] == kFreeWithConvention) {
      MarkFree(e, static_cast<int64_t>(i), kFreeWithConvention, spec.free_reason);
    }
    int64_t low = std::min(range->first, *reference.seed);
    int64_t high = std::max(range->second, *reference.seed);
    if (const std::optional<Interval> real = wide_values.At(i)) {
      if (const auto kernel = IntegerKernelRange(*real, terms.empty() ? 0 : terms[i], p, q)) {
        low = std::min(low, kernel->first);
        high = std::max(high, kernel->second);
      }
    }
    e.storage_low[i] = low;
    e.storage_high[i] = high;
  }
  return e;
}

// compare's result: the spec's (values rounded to E), with an integer
// kernel's exact comparison as the other reading where they differ.
ResultExpectation CompareResultWithExactReading(ResultExpectation spec,
                                                const ResultExpectation& wide) {
  const std::vector<double> rounded = ValuesOf(spec.reference);
  const std::vector<double> exact = ValuesOf(wide.reference);
  std::vector<uint8_t> differs(rounded.size(), 0);
  bool any = false;
  for (size_t i = 0; i < rounded.size(); ++i) {
    differs[i] = rounded[i] != exact[i];
    any = any || differs[i];
  }
  if (any) {
    spec.reading_differs = std::move(differs);
    spec.other_reading_reason = kExactCompareReason;
    spec.other_reading = std::make_shared<const ResultExpectation>(wide);
  }
  return spec;
}

// Where an operand's storage - zero_point overflowed: free with the exact
// difference as convention, at that index for an element-wise op (every
// operand shaped like the result), everywhere else.
void MarkDequantizeOverflow(const std::vector<std::vector<uint8_t>>& overflow, bool elementwise,
                            std::vector<ResultExpectation>& results) {
  for (const std::vector<uint8_t>& flags : overflow) {
    if (std::none_of(flags.begin(), flags.end(), [](uint8_t f) { return f != 0; })) continue;
    for (size_t r = 0; r < results.size(); ++r) {
      ResultExpectation& e = results[r];
      const auto n = static_cast<size_t>(e.reference.num_elements());
      // A scalar operand (clamp's bounds) reaches every element.
      const bool same_shape = flags.size() == n;
      for (size_t i = 0; i < n; ++i) {
        if (!elementwise || !same_shape || flags[i]) {
          MarkFree(e, static_cast<int64_t>(i), kFreeWithConvention, kDequantizeOverflowReason);
        }
      }
    }
  }
}

// For an element-wise op: at each result element, the sum of its float
// operands' magnitudes there (a scalar operand's one element everywhere).
std::vector<double> OperandMagnitudes(const Case& wide, const TensorType& result) {
  const auto n = static_cast<size_t>(result.num_elements());
  std::vector<double> sums(n, 0.0);
  for (const Tensor& operand : wide.operands) {
    if (!IsFloat(operand.element_type())) continue;  // select's pred
    const std::vector<double> values = ValuesOf(operand);
    if (values.size() != n && values.size() != 1) continue;
    for (size_t i = 0; i < n; ++i) sums[i] += std::fabs(values[values.size() == 1 ? 0 : i]);
  }
  return sums;
}

absl::StatusOr<std::vector<ResultExpectation>> RunWithBounds(const Case& c, const spec::OpSpec& op,
                                                             OpFunction function) {
  absl::StatusOr<std::vector<ResultExpectation>> results = function(c);
  if (!results.ok()) return results;
  for (ResultExpectation& e : *results) {
    e.allowed_ulp = op.numerics.AllowedUlp(e.reference.element_type());
  }
  return results;
}

absl::StatusOr<std::vector<ResultExpectation>> DequantizeOpQuantize(const Case& c,
                                                                    const spec::OpSpec& op,
                                                                    OpFunction function) {
  std::vector<std::vector<uint8_t>> overflow;
  const Case in_expressed = FloatCase(c, /*wide=*/false, &overflow);
  const Case in_f64 = FloatCase(c, /*wide=*/true, nullptr);
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<ResultExpectation> spec,
                            RunWithBounds(in_expressed, op, function));
  HLOCHECK_ASSIGN_OR_RETURN(std::vector<ResultExpectation> wide,
                            RunWithBounds(in_f64, op, function));
  if (spec.size() != c.result_types.size() || wide.size() != spec.size()) {
    return absl::InternalError(c.op + ": the float computation gave another number of results");
  }
  std::vector<ResultExpectation> results;
  for (size_t r = 0; r < spec.size(); ++r) {
    const TensorType& type = c.result_types[r];
    if (IsQuantized(type)) {
      results.push_back(QuantizedResult(
          type, spec[r], wide[r],
          op.category == "elementwise" ? OperandMagnitudes(in_f64, type) : std::vector<double>{}));
    } else if (IsBool(type.element_type) &&
               op.quantized_semantics == spec::QuantizedSemantics::kDequantizeCompare) {
      results.push_back(CompareResultWithExactReading(std::move(spec[r]), wide[r]));
    } else {
      results.push_back(std::move(spec[r]));  // a hybrid op's float result
    }
  }
  MarkDequantizeOverflow(overflow, op.category == "elementwise", results);
  return results;
}

}  // namespace

absl::StatusOr<std::vector<ResultExpectation>> ComputeQuantized(const Case& c,
                                                                const spec::OpSpec& op,
                                                                OpFunction function) {
  switch (op.quantized_semantics) {
    case spec::QuantizedSemantics::kNone:
      return absl::InvalidArgumentError(c.op + " takes no quantized tensors");
    case spec::QuantizedSemantics::kStorage:
    case spec::QuantizedSemantics::kOwn:
      return function(c);
    case spec::QuantizedSemantics::kRegions:
      // Their regions compute on quantized scalars, each op of a body by
      // its own quantized semantics; the op says what its schedule allows
      // (reduction.cc, quantized_fold.h).
      return function(c);
    case spec::QuantizedSemantics::kDequantizeOpQuantize:
    case spec::QuantizedSemantics::kDequantizeCompare:
    case spec::QuantizedSemantics::kDequantizeSelectQuantize:
      return DequantizeOpQuantize(c, op, function);
  }
  return absl::InternalError("unknown quantized semantics");
}

}  // namespace hlocheck::oracle
