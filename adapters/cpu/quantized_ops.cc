// Ops on quantized tensors on the CPU, the way integer inference kernels
// (gemmlowp, TFLite, XLA's and IREE's quantized lowerings) compute them:
// never through float. Each operand's storage minus its zero point is an
// integer; the ratio of scales that maps it to the result's units is a
// fixed-point multiplier (31 significant bits and a power of two); terms
// are summed in wide integers with a block exponent (Scaled: a ratio of
// scales far from 1 loses nothing), rounded to the nearest integer (ties
// away from zero), offset by the result's zero point and saturated to its
// storage range. dot_general and convolution accumulate exact integer
// products (64-bit; for storage wider than 16 bits the products of 32-bit
// values are split into 16-bit limbs, each limb product summed in 64 bits
// and the four sums combined in 128) before one rescale.
//
// The ops that only move elements (transpose, slice, gather, ...) run the
// adapter's own kernel on the storage integers and give the result the
// type the case asks for.
//
// The other ops on quantized tensors (the transcendentals, divide, compare,
// select, the batch norms, cholesky, ...) have no integer kernel here, as in
// the production lowerings: StableHLO's stablehlo-legalize-quantized-op-to-qdq
// pass rewrites them to uniform_dequantize, the float op and
// uniform_quantize, and so does this adapter — its own quantize/dequantize
// steps (quantization.cc) around its own float kernel in the expressed type.
// The ops with integer kernels take that path too where the kernel does
// not apply (a hybrid dot_general, a per-axis convolution lhs).
#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/contraction_internal.h"
#include "adapters/cpu/cpu_internal.h"
#include "adapters/cpu/quantization_internal.h"
#include "core/quantized_case.h"

namespace hlocheck::cpu {
namespace {

using Wide = __int128;

// A positive real multiplier as q * 2^(exponent - 31), q in [2^30, 2^31).
struct FixedPointMultiplier {
  int64_t q = 0;
  int exponent = 0;
};

FixedPointMultiplier ToFixedPoint(double m) {
  int exponent = 0;
  const double fraction = std::frexp(m, &exponent);  // m = fraction * 2^exponent
  auto q = static_cast<int64_t>(std::llround(std::ldexp(fraction, 31)));
  if (q == (int64_t{1} << 31)) {
    q /= 2;
    ++exponent;
  }
  return {q, exponent};
}

// Rounds x / 2^shift to the nearest integer, ties away from zero.
Wide RoundingShiftRight(Wide x, int shift) {
  if (shift <= 0) return x;
  if (shift >= 120) return 0;
  const Wide half = Wide{1} << (shift - 1);
  return x >= 0 ? (x + half) >> shift : -((-x + half) >> shift);
}

// A value in the result's units as mantissa * 2^exponent: an integer times
// a fixed-point multiplier keeps every bit (the block exponent takes the
// multiplier's power of two, however large or small the ratio of scales),
// and sums are aligned on the larger term with 32 guard bits.
struct Scaled {
  Wide mantissa = 0;  // < 2^110 from Scale, < 2^81 after Sum
  int exponent = 0;
};

constexpr int kGuardBits = 32;
constexpr Wide kNormalLimit = Wide{1} << 80;

// x * m, |x| < 2^79 (a dot product of 32-bit storage over 2^12 terms),
// brought below 2^80 so that Sum's guard bits fit.
Scaled Scale(Wide x, FixedPointMultiplier m) {
  Scaled v{x * m.q, m.exponent - 31};
  while (v.mantissa >= kNormalLimit || v.mantissa <= -kNormalLimit) {
    v.mantissa = RoundingShiftRight(v.mantissa, 8);
    v.exponent += 8;
  }
  return v;
}

Scaled Negate(Scaled v) { return {-v.mantissa, v.exponent}; }

Scaled Sum(Scaled a, Scaled b) {
  if (a.mantissa == 0) return b;
  if (b.mantissa == 0) return a;
  const int exponent = std::max(a.exponent, b.exponent) - kGuardBits;
  auto align = [&](const Scaled& v) {
    const int shift = v.exponent - exponent;  // at most kGuardBits
    // A product, not a shift: the mantissa may be negative.
    return shift >= 0 ? v.mantissa * (Wide{1} << shift) : RoundingShiftRight(v.mantissa, -shift);
  };
  Scaled sum{align(a) + align(b), exponent};
  while (sum.mantissa >= kNormalLimit || sum.mantissa <= -kNormalLimit) {
    sum.mantissa = RoundingShiftRight(sum.mantissa, 8);
    sum.exponent += 8;
  }
  return sum;
}

// The sign of a - b (0 where the values agree to the guard bits).
int Compare(Scaled a, Scaled b) {
  const Wide d = Sum(a, Negate(b)).mantissa;
  return d > 0 ? 1 : (d < 0 ? -1 : 0);
}

// The result's storage integer for a value v: rounded to the nearest
// integer, offset by the zero point, saturated.
int64_t ToStorage(Scaled v, int64_t zero_point, const UniformQuantization& q) {
  Wide n = 0;
  if (v.exponent >= 0) {
    const Wide limit = Wide{1} << std::max(0, 100 - std::min(v.exponent, 100));
    if (v.mantissa >= limit || v.mantissa <= -limit) {
      n = v.mantissa > 0 ? Wide{1} << 100 : -(Wide{1} << 100);
    } else if (v.mantissa != 0) {  // then v.exponent < 100
      n = v.mantissa * (Wide{1} << v.exponent);
    }
  } else {
    n = RoundingShiftRight(v.mantissa, -v.exponent);
  }
  return static_cast<int64_t>(
      std::clamp<Wide>(n + zero_point, Wide{q.storage_min}, Wide{q.storage_max}));
}

void StoreAll(const std::vector<int64_t>& values, Tensor& result) {
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsInteger(T)) {
      auto out = result.values<T>();
      for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<ContainerT<T>>(values[i]);
    }
  });
}

// One quantized operand as seen from the result: each element's storage
// minus its zero point, and the multiplier scale(operand) / scale(result)
// of each (operand, result) pair of parameter indices.
struct QuantizedInput {
  std::vector<int64_t> centred;
  std::vector<size_t> parameter;  // each element's index into the scales
  const UniformQuantization* q = nullptr;
};

QuantizedInput Centred(const Tensor& t) {
  QuantizedInput in;
  in.q = &*t.type().quantization;
  in.centred = WidenedStorage(t);
  in.parameter.resize(in.centred.size());
  const AxisWalk walk(t.type());
  for (size_t i = 0; i < in.centred.size(); ++i) {
    in.parameter[i] = walk.At(static_cast<int64_t>(i));
    in.centred[i] -= in.q->zero_points[in.parameter[i]];
  }
  return in;
}

bool IsQuantizedTensor(const TensorType& t) { return t.quantization.has_value(); }

// The element-wise integer kernels: each element of the result from the
// operands' elements at the same index (or a scalar's one element), every
// operand quantized, each operand's value taken in the result's units
// (Scaled) and the result's rounded to its storage.
enum class Kind { kAdd, kSubtract, kMultiply, kMaximum, kMinimum, kNegate, kAbs, kClamp };

struct ElementwiseKernel {
  std::string_view op;
  Kind kind;
  size_t operands;
};
constexpr ElementwiseKernel kElementwise[] = {
    {"add", Kind::kAdd, 2},           {"subtract", Kind::kSubtract, 2},
    {"multiply", Kind::kMultiply, 2}, {"maximum", Kind::kMaximum, 2},
    {"minimum", Kind::kMinimum, 2},   {"negate", Kind::kNegate, 1},
    {"abs", Kind::kAbs, 1},           {"clamp", Kind::kClamp, 3}};

const ElementwiseKernel* FindElementwise(std::string_view op) {
  for (const ElementwiseKernel& k : kElementwise) {
    if (k.op == op) return &k;
  }
  return nullptr;
}

// Storage of at most 32 bits (every storage type the spec allows): centred
// values fit 64-bit integers, their products the wide ones.
AdapterSupport SupportsStorage(const Case& c) {
  auto narrow = [](const TensorType& t) { return BitWidth(t.element_type) <= 32; };
  for (const Tensor& t : c.operands) {
    if (!IsQuantizedTensor(t.type()) || !narrow(t.type())) {
      return AdapterSupport::No(c.op +
                                ": integer kernels take quantized operands of at most "
                                "32-bit storage");
    }
  }
  for (const TensorType& t : c.result_types) {
    if (!IsQuantizedTensor(t) || !narrow(t)) {
      return AdapterSupport::No(c.op +
                                ": integer kernels give quantized results of at most "
                                "32-bit storage");
    }
  }
  return AdapterSupport::Yes();
}

// Whether an operand's centred values may need more than 17 bits, so that
// products of two and their sums leave 64 bits: then in 16-bit limbs.
bool WideStorage(const Tensor& t) { return BitWidth(t.element_type()) > 16; }

// x = high * 2^16 + low, low in [0, 2^16): |high| < 2^17 for |x| < 2^33.
constexpr int kLimbBits = 16;
int64_t HighLimb(int64_t x) { return x >> kLimbBits; }  // floor, arithmetic shift
int64_t LowLimb(int64_t x) { return x & ((int64_t{1} << kLimbBits) - 1); }

// sum_k a_k * b_k for every output of a contraction run by `contract` on
// centred operands split in limbs: each of the four limb contractions is
// exact in 64 bits (|high * high| < 2^34, times at most 2^12 terms), and
// they combine in 128.
template <typename Contract>
std::vector<Wide> ContractInLimbs(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                  Contract&& contract) {
  auto part = [](const std::vector<int64_t>& x, bool high) {
    std::vector<int64_t> limbs(x.size());
    for (size_t i = 0; i < x.size(); ++i) limbs[i] = high ? HighLimb(x[i]) : LowLimb(x[i]);
    return limbs;
  };
  const std::vector<int64_t> ah = part(a, true), al = part(a, false);
  const std::vector<int64_t> bh = part(b, true), bl = part(b, false);
  const std::vector<int64_t> hh = contract(ah, bh), hl = contract(ah, bl);
  const std::vector<int64_t> lh = contract(al, bh), ll = contract(al, bl);
  std::vector<Wide> sums(hh.size());
  for (size_t i = 0; i < sums.size(); ++i) {
    sums[i] = Wide{hh[i]} * (Wide{1} << (2 * kLimbBits)) +
              (Wide{hl[i]} + Wide{lh[i]}) * (Wide{1} << kLimbBits) + Wide{ll[i]};
  }
  return sums;
}

AdapterSupport SupportsElementwise(const Case& c) {
  const ElementwiseKernel* kernel = FindElementwise(c.op);
  if (kernel == nullptr) return AdapterSupport::No(c.op + ": no integer kernel");
  if (c.operands.size() != kernel->operands || c.result_types.size() != 1) {
    return AdapterSupport::No(c.op + ": unexpected operand count");
  }
  const int64_t n = c.result_types[0].num_elements();
  for (const Tensor& t : c.operands) {
    if (t.num_elements() != n && t.num_elements() != 1) {
      return AdapterSupport::No(c.op + ": operands of another shape");
    }
  }
  return SupportsStorage(c);
}

absl::StatusOr<Results> RunElementwise(const Case& c, const Device&) {
  if (AdapterSupport s = SupportsElementwise(c); !s.supported) {
    return absl::InvalidArgumentError(s.reason);
  }
  const Kind kind = FindElementwise(c.op)->kind;
  const TensorType& type = c.result_types[0];
  const UniformQuantization& out_q = *type.quantization;
  const AxisWalk out_walk(type);
  std::vector<QuantizedInput> inputs;
  for (const Tensor& t : c.operands) inputs.push_back(Centred(t));
  const auto n = static_cast<size_t>(type.num_elements());
  std::vector<int64_t> storage(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t k = out_walk.At(static_cast<int64_t>(i));
    const double out_scale = out_q.scales[k];
    // Operand j's value at i in the result's units.
    // Each operand's value at i in the result's units, once (multiply
    // rescales the product of the centred values instead).
    Scaled v[3];
    if (kind != Kind::kMultiply) {
      for (size_t j = 0; j < inputs.size(); ++j) {
        const QuantizedInput& in = inputs[j];
        const size_t at = in.centred.size() == 1 ? 0 : i;
        v[j] = Scale(in.centred[at], ToFixedPoint(in.q->scales[in.parameter[at]] / out_scale));
      }
    }
    Scaled t;
    switch (kind) {
      case Kind::kAdd:
        t = Sum(v[0], v[1]);
        break;
      case Kind::kSubtract:
        t = Sum(v[0], Negate(v[1]));
        break;
      case Kind::kMultiply: {
        // One multiplier for the product: scale(lhs) * scale(rhs) / scale(result).
        const QuantizedInput& a = inputs[0];
        const QuantizedInput& b = inputs[1];
        t = Scale(
            Wide{a.centred[i]} * b.centred[i],
            ToFixedPoint(a.q->scales[a.parameter[i]] * b.q->scales[b.parameter[i]] / out_scale));
        break;
      }
      case Kind::kMaximum:
        t = Compare(v[0], v[1]) >= 0 ? v[0] : v[1];
        break;
      case Kind::kMinimum:
        t = Compare(v[0], v[1]) <= 0 ? v[0] : v[1];
        break;
      case Kind::kNegate:
        t = Negate(v[0]);
        break;
      case Kind::kAbs:
        t = v[0].mantissa < 0 ? Negate(v[0]) : v[0];
        break;
      case Kind::kClamp: {  // clamp(min, operand, max)
        const Scaled low = Compare(v[1], v[0]) >= 0 ? v[1] : v[0];
        t = Compare(low, v[2]) <= 0 ? low : v[2];
        break;
      }
    }
    storage[i] = ToStorage(t, out_q.zero_points[k], out_q);
  }
  Tensor result = NewResult(type);
  StoreAll(storage, result);
  return OneResult(std::move(result));
}

// dot_general: exact integer products of the centred operands accumulated
// in 64 bits (BatchedMatMul on uint64 wraps; with storage wider than 16
// bits in 16-bit limbs, ContractInLimbs), then one rescale by scale(lhs) *
// scale(rhs) / scale(result).
AdapterSupport SupportsQuantizedDotGeneral(const Case& c) {
  if (c.operands.size() != 2 || c.result_types.size() != 1) {
    return AdapterSupport::No("dot_general takes two operands and gives one result");
  }
  for (const TensorType& t : {c.operands[0].type(), c.operands[1].type(), c.result_types[0]}) {
    if (t.quantization && t.quantization->quantization_dimension) {
      return AdapterSupport::No("dot_general: per-axis quantization has no integer kernel here");
    }
  }
  return SupportsStorage(c);
}

absl::StatusOr<Results> RunQuantizedDotGeneral(const Case& c, const Device& device) {
  if (AdapterSupport s = SupportsQuantizedDotGeneral(c); !s.supported) {
    return absl::InvalidArgumentError(s.reason);
  }
  HLOCHECK_ASSIGN_OR_RETURN(const DotPlan plan, MakeDotPlan(c));
  // Each operand centred, then in canonical order.
  auto canonical = [&](const Tensor& t, const std::vector<int64_t>& perm) {
    QuantizedInput in = Centred(t);
    std::vector<int64_t> ordered(in.centred.size());
    if (!ordered.empty()) {
      TransposeBytes(in.centred.data(), t.shape(), perm, sizeof(int64_t), ordered.data(), device);
    }
    return ordered;
  };
  const std::vector<int64_t> a = canonical(c.operands[0], plan.lhs_perm);
  const std::vector<int64_t> b = canonical(c.operands[1], plan.rhs_perm);
  const TensorType& type = c.result_types[0];
  const auto n = static_cast<size_t>(type.num_elements());
  // Exact products summed in 64 bits (BatchedMatMul on uint64 wraps; the
  // sums fit int64 for centred values of at most 17 bits and for limbs).
  auto contract = [&](const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
    std::vector<uint64_t> sums(n);
    if (n > 0) {
      BatchedMatMul(reinterpret_cast<const uint64_t*>(x.data()),
                    reinterpret_cast<const uint64_t*>(y.data()), sums.data(), plan.batch, plan.m,
                    plan.k, plan.n, device);
    }
    std::vector<int64_t> exact(n);
    for (size_t i = 0; i < n; ++i) exact[i] = static_cast<int64_t>(sums[i]);
    return exact;
  };
  std::vector<Wide> sums(n);
  if (WideStorage(c.operands[0]) || WideStorage(c.operands[1])) {
    sums = ContractInLimbs(a, b, contract);
  } else {
    const std::vector<int64_t> narrow = contract(a, b);
    std::copy(narrow.begin(), narrow.end(), sums.begin());
  }
  const UniformQuantization& q = *type.quantization;
  const FixedPointMultiplier m =
      ToFixedPoint(c.operands[0].type().quantization->scales[0] *
                   c.operands[1].type().quantization->scales[0] / q.scales[0]);
  std::vector<int64_t> storage(n);
  for (size_t i = 0; i < n; ++i) storage[i] = ToStorage(Scale(sums[i], m), q.zero_points[0], q);
  Tensor result = NewResult(type);
  StoreAll(storage, result);
  return OneResult(std::move(result));
}

// convolution: the adapter's own convolution on the centred operands as
// si64 (exact: 16-bit storage keeps every sum far below 2^63; wider storage
// in 16-bit limbs, ContractInLimbs), then one rescale per element by
// scale(lhs) * scale(rhs) / scale(result), with rhs's and the result's
// scales per output feature where they are per axis.
AdapterSupport SupportsQuantizedConvolution(const Case& c) {
  if (c.operands.size() != 2 || c.result_types.size() != 1) {
    return AdapterSupport::No("convolution takes two operands and gives one result");
  }
  if (!c.operands[0].type().quantization) {
    return AdapterSupport::No("convolution: the hybrid form (a float lhs) runs in the float type");
  }
  if (c.operands[0].type().quantization->quantization_dimension) {
    return AdapterSupport::No("convolution: a per-axis lhs has no integer kernel here");
  }
  return SupportsStorage(c);
}

Tensor AsSi64(const Shape& shape, const std::vector<int64_t>& values) {
  Tensor wide(shape, ElementType::kSI64);
  auto out = wide.values<ElementType::kSI64>();
  std::copy(values.begin(), values.end(), out.begin());
  return wide;
}

absl::StatusOr<Results> RunQuantizedConvolution(const Case& c, const Device& device) {
  if (AdapterSupport s = SupportsQuantizedConvolution(c); !s.supported) {
    return absl::InvalidArgumentError(s.reason);
  }
  const TensorType& type = c.result_types[0];
  const OpEntry* convolution = FindOp("convolution");
  if (convolution == nullptr) return absl::InternalError("no convolution kernel");
  // The adapter's own convolution on si64 values: exact sums of products.
  absl::Status status;
  auto contract = [&](const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
    Case on_integers = c;
    on_integers.operands = {AsSi64(c.operands[0].shape(), x), AsSi64(c.operands[1].shape(), y)};
    on_integers.result_types = {TensorType(type.shape, ElementType::kSI64)};
    absl::StatusOr<Results> sums = convolution->run(on_integers, device);
    if (!sums.ok()) {
      status = sums.status();
      return std::vector<int64_t>(static_cast<size_t>(type.num_elements()));
    }
    const auto values = sums->at(0).values<ElementType::kSI64>();
    return std::vector<int64_t>(values.begin(), values.end());
  };
  const std::vector<int64_t> lhs = Centred(c.operands[0]).centred;
  const std::vector<int64_t> rhs = Centred(c.operands[1]).centred;
  std::vector<Wide> sum;
  if (WideStorage(c.operands[0]) || WideStorage(c.operands[1])) {
    sum = ContractInLimbs(lhs, rhs, contract);
  } else {
    const std::vector<int64_t> narrow = contract(lhs, rhs);
    sum.assign(narrow.begin(), narrow.end());
  }
  HLOCHECK_RETURN_IF_ERROR(status);
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t feature_dimension,
                            IntAttribute(c, "output_feature_dimension"));
  // Each element's output feature: the index of rhs's and the result's
  // scales where they are per axis (C32, C33).
  int64_t stride = 1;
  for (size_t d = static_cast<size_t>(feature_dimension) + 1; d < type.shape.size(); ++d) {
    stride *= type.shape[d];
  }
  const int64_t features = type.shape.at(static_cast<size_t>(feature_dimension));
  const UniformQuantization& lhs_q = *c.operands[0].type().quantization;
  const UniformQuantization& rhs_q = *c.operands[1].type().quantization;
  const UniformQuantization& q = *type.quantization;
  std::vector<int64_t> storage(sum.size());
  for (size_t i = 0; i < storage.size(); ++i) {
    const auto feature = static_cast<size_t>((static_cast<int64_t>(i) / stride) % features);
    const size_t r = rhs_q.quantization_dimension ? feature : 0;
    const size_t k = q.quantization_dimension ? feature : 0;
    const FixedPointMultiplier m = ToFixedPoint(lhs_q.scales[0] * rhs_q.scales[r] / q.scales[k]);
    storage[i] = ToStorage(Scale(sum[i], m), q.zero_points[k], q);
  }
  Tensor result = NewResult(type);
  StoreAll(storage, result);
  return OneResult(std::move(result));
}

AdapterSupport SupportsOnStorage(const Case& c) { return SupportsCase(OnStorage(c)); }

absl::StatusOr<Results> RunOnStorage(const Case& c, const Device& device) {
  const OpEntry* op = FindOp(c.op);
  if (op == nullptr) return absl::UnimplementedError(c.op + " is not implemented");
  HLOCHECK_ASSIGN_OR_RETURN(Results results, op->run(OnStorage(c), device));
  return FromStorage(c, std::move(results));
}

// The case with its quantized operands dequantized and its quantized
// results of their expressed types.
Case InExpressedType(const Case& c) {
  std::vector<Tensor> operands;
  for (const Tensor& t : c.operands) {
    operands.push_back(
        t.type().quantization ? FloatFromExpressed(Expressed(t), ExpressedType(t.type())) : t);
  }
  return WithExpressedTypes(c, std::move(operands));
}

// Only the types matter here: placeholders, not the dequantized values.
AdapterSupport SupportsThroughExpressed(const Case& c) {
  std::vector<Tensor> placeholders;
  for (const Tensor& t : c.operands) {
    if (t.type().quantization) {
      placeholders.emplace_back(ExpressedType(t.type()));
    } else {
      placeholders.push_back(t);
    }
  }
  return SupportsCase(WithExpressedTypes(c, std::move(placeholders)));
}

absl::StatusOr<Results> RunThroughExpressed(const Case& c, const Device& device) {
  const OpEntry* op = FindOp(c.op);
  if (op == nullptr) return absl::UnimplementedError(c.op + " is not implemented");
  HLOCHECK_ASSIGN_OR_RETURN(Results results, op->run(InExpressedType(c), device));
  if (results.size() != c.result_types.size()) {
    return absl::InternalError(c.op + ": another number of results");
  }
  for (size_t r = 0; r < results.size(); ++r) {
    if (c.result_types[r].quantization) {
      results[r] = QuantizedFromExpressed(Expressed(results[r]), c.result_types[r]);
    }
  }
  return results;
}

// is_finite of a quantized tensor: true (every storage integer stands for
// a finite value), whatever its dequantized value would round to.
AdapterSupport SupportsQuantizedIsFinite(const Case& c) {
  if (c.operands.size() != 1 || c.result_types.size() != 1 ||
      c.result_types[0].element_type != ElementType::kI1) {
    return AdapterSupport::No("is_finite: needs one operand and an i1 result");
  }
  return AdapterSupport::Yes();
}

absl::StatusOr<Results> RunQuantizedIsFinite(const Case& c, const Device&) {
  if (AdapterSupport s = SupportsQuantizedIsFinite(c); !s.supported) {
    return absl::InvalidArgumentError(s.reason);
  }
  Tensor result = NewResult(c.result_types[0]);
  auto out = result.values<ElementType::kI1>();
  std::fill(out.begin(), out.end(), 1);
  return OneResult(std::move(result));
}

// An op with an integer kernel: the kernel where it takes the case, else
// (storage wider than 16 bits, a per-axis lhs or dot_general, a hybrid
// dot_general of a float lhs) the path through the expressed type.
template <AdapterSupport (*kKernelSupports)(const Case&),
          absl::StatusOr<Results> (*kKernelRun)(const Case&, const Device&)>
AdapterSupport SupportsKernelOrExpressed(const Case& c) {
  if (kKernelSupports(c).supported) return AdapterSupport::Yes();
  return SupportsThroughExpressed(c);
}

template <AdapterSupport (*kKernelSupports)(const Case&),
          absl::StatusOr<Results> (*kKernelRun)(const Case&, const Device&)>
absl::StatusOr<Results> RunKernelOrExpressed(const Case& c, const Device& device) {
  if (kKernelSupports(c).supported) return kKernelRun(c, device);
  return RunThroughExpressed(c, device);
}

}  // namespace

const OpEntry* FindQuantizedOp(std::string_view name) {
  static const std::vector<OpEntry> table = [] {
    std::vector<OpEntry> ops;
    for (const ElementwiseKernel& k : kElementwise) {
      ops.push_back({k.op, k.operands,
                     &SupportsKernelOrExpressed<SupportsElementwise, RunElementwise>,
                     &RunKernelOrExpressed<SupportsElementwise, RunElementwise>});
    }
    ops.push_back({"dot_general", 2,
                   &SupportsKernelOrExpressed<SupportsQuantizedDotGeneral, RunQuantizedDotGeneral>,
                   &RunKernelOrExpressed<SupportsQuantizedDotGeneral, RunQuantizedDotGeneral>});
    ops.push_back(
        {"convolution", 2,
         &SupportsKernelOrExpressed<SupportsQuantizedConvolution, RunQuantizedConvolution>,
         &RunKernelOrExpressed<SupportsQuantizedConvolution, RunQuantizedConvolution>});
    for (std::string_view op : QuantizedStorageOps()) {
      ops.push_back({op, kVariadic, &SupportsOnStorage, &RunOnStorage});
    }
    // After the integer kernels: an op with one finds it first (and its
    // entry falls back to this path itself).
    for (std::string_view op : QuantizedExpressedOps()) {
      ops.push_back({op, kVariadic, &SupportsThroughExpressed, &RunThroughExpressed});
    }
    ops.push_back({"is_finite", 1, &SupportsQuantizedIsFinite, &RunQuantizedIsFinite});
    return ops;
  }();
  if (name.starts_with("stablehlo.")) name.remove_prefix(10);
  for (const OpEntry& entry : table) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

}  // namespace hlocheck::cpu
