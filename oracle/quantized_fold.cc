// A reduction over per-tensor quantized values, body add, maximum or
// minimum of its two arguments (all of one quantized type: reduce's C6 and
// C8). Each application of the body is dequantize_op_quantize: both values
// dequantized to the expressed type E, the op there, the result quantized
// and saturated to [storage_min, storage_max]. In offsets u = storage -
// zero_point, one step is clamp(u_a + u_b) (or the larger, the smaller)
// whenever E computes it without a rounding that reaches the result:
//
// - every integer involved (storage values, zero point, offsets) is exact in
//   E, and the roundings of u * scale, of the sum, of the quotient by scale
//   and of adding the zero point back stay below half a step: with U the
//   largest |offset| any step sees and p E's precision, the error is at most
//   about 4.25 * 2^-p * (2U + |zero_point|), so 2U + |zero_point| <= 2^(p-4)
//   suffices (and the spec's two readings of quantize agree there);
// - scale is a normal number of E and 2 * (2U + 1) * scale is finite in E;
// - seed 002 subtracts the zero point in the storage type: every offset in
//   [-U, U] fits it (else implementation-defined, #1157).
//
// Then maximum and minimum are exact in every tree, and add is too unless a
// partial sum can leave the storage range. With N the sum of the negative
// offsets, P of the positive ones and [lo, hi] the offsets of the storage
// range, any subtree's value lies in [max(lo, N + min(P, hi)), min(hi, P +
// max(N, lo))] (by induction over the tree: min(x, hi) + min(y, hi) >=
// min(x + y, hi) for x, y >= 0, and a clamp never leaves [lo, hi]); every
// partial value within [max(lo, N), min(hi, P)]; an integer kernel's sum
// saturated once at the end lies inside too. Without saturation the two
// ends meet at N + P. An identity (offset 0 for add) leaves every step
// unchanged however often it appears. Where the conditions fail the element
// is open, with the integer kernel's value as the reference.
#include "oracle/quantized_fold.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/element_type.h"
#include "core/element_value.h"

namespace hlocheck::oracle {
namespace {

constexpr std::string_view kRoundingReason =
    "a step of the body may round in the expressed type (offsets too large for its precision, a "
    "subnormal scale, or storage - zero_point leaving the storage type): the tree changes the "
    "value; the reference is an integer kernel's (offsets combined exactly, saturated once)";

bool StepsExact(int64_t largest_offset, const TensorType& type) {
  const UniformQuantization& q = *type.quantization;
  const int64_t zero_point = q.zero_points[0];
  const double scale = q.scales[0];
  const FloatFormat& format = Format(q.expressed_type);
  const int precision = format.mantissa_bits + 1;
  const double magnitude = 2.0 * static_cast<double>(largest_offset) + std::fabs(zero_point);
  if (magnitude > std::ldexp(1.0, precision - 4)) return false;
  const double min_normal = std::ldexp(1.0, format.min_normal_exponent());
  const double max_finite = DecodeFloat(format, format.max_finite_bits()).ToDouble();
  if (!(scale >= min_normal) || !(2.0 * (2.0 * largest_offset + 1) * scale < max_finite)) {
    return false;
  }
  const ElementType storage = type.element_type;
  const int64_t type_min = IntegerMin(storage);
  const uint64_t type_max = IntegerMaxUnsigned(storage);
  return -largest_offset >= type_min && static_cast<uint64_t>(largest_offset) <= type_max;
}

}  // namespace

bool FoldsQuantized(Combiner kind) {
  return kind == Combiner::kAdd || kind == Combiner::kMaximum || kind == Combiner::kMinimum;
}

bool IsQuantizedIdentity(Combiner kind, int64_t storage, const TensorType& type) {
  const UniformQuantization& q = *type.quantization;
  switch (kind) {
    case Combiner::kAdd:
      return storage == q.zero_points[0];
    case Combiner::kMaximum:
      return storage == q.storage_min;
    case Combiner::kMinimum:
      return storage == q.storage_max;
    default:
      return false;
  }
}

QuantizedFold FoldQuantized(Combiner kind, std::span<const int64_t> storages,
                            const TensorType& type) {
  const UniformQuantization& q = *type.quantization;
  const int64_t zero_point = q.zero_points[0];
  QuantizedFold fold;
  int64_t largest_offset = 0;
  if (kind == Combiner::kAdd) {
    int64_t positive = 0, negative = 0;  // P and N; storages are at most 32 bits wide
    for (int64_t storage : storages) {
      const int64_t offset = storage - zero_point;
      (offset > 0 ? positive : negative) += offset;
    }
    const int64_t lowest_offset = q.storage_min - zero_point;
    const int64_t highest_offset = q.storage_max - zero_point;
    // Every partial value's offset lies in [max(lowest, N), min(highest, P)].
    largest_offset =
        std::max(-std::max(lowest_offset, negative), std::min(highest_offset, positive));
    fold.reference = std::clamp(zero_point + positive + negative, q.storage_min, q.storage_max);
    // Any tree: [max(lowest, N + min(P, highest)), min(highest, P + max(N, lowest))], one
    // value where no partial sum can leave the range.
    fold.low = zero_point + std::max(lowest_offset, negative + std::min(positive, highest_offset));
    fold.high = zero_point + std::min(highest_offset, positive + std::max(negative, lowest_offset));
  } else {
    fold.reference = kind == Combiner::kMaximum ? q.storage_min : q.storage_max;
    for (int64_t storage : storages) {
      largest_offset = std::max(largest_offset, std::abs(storage - zero_point));
      fold.reference = kind == Combiner::kMaximum ? std::max(fold.reference, storage)
                                                  : std::min(fold.reference, storage);
    }
    fold.low = fold.high = fold.reference;
  }
  if (!StepsExact(largest_offset, type)) {
    fold.outcome = QuantizedFold::Outcome::kOpen;
    fold.low = fold.high = fold.reference;
    fold.reason = kRoundingReason;
    return fold;
  }
  fold.outcome =
      fold.low == fold.high ? QuantizedFold::Outcome::kExact : QuantizedFold::Outcome::kRange;
  return fold;
}

}  // namespace hlocheck::oracle
