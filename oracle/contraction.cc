// Contractions (seed 002: dot_general, convolution). The spec sums with
// reduce(add) in an implementation-defined order, so for floats the oracle
// returns the (nearly) exact sum and a bound that every order satisfies.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/dot_algorithm.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/oracle.h"
#include "oracle/precise/double_double.h"
#include "oracle/step_errors.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

std::vector<int64_t> FreeDimensions(int64_t rank, const std::vector<int64_t>& batching,
                                    const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batching.begin(), batching.end(), d) == batching.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

// Where every term of every result element lives: result[b, m, n] sums
// lhs[lhs_batch[b] + lhs_free[m] + lhs_contract[k]] *
// rhs[rhs_batch[b] + rhs_free[n] + rhs_contract[k]] over k.
struct Contraction {
  std::vector<int64_t> lhs_batch, lhs_free, lhs_contract;
  std::vector<int64_t> rhs_batch, rhs_free, rhs_contract;

  // The terms of every result element, in row-major order of the result:
  // term(lhs offset, rhs offset) for each.
  template <typename Visit>
  void ForEachResult(Visit&& visit) const {
    int64_t result = 0;
    for (size_t b = 0; b < lhs_batch.size(); ++b) {
      for (int64_t m : lhs_free) {
        for (int64_t n : rhs_free) {
          const int64_t lhs_base = lhs_batch[b] + m;
          const int64_t rhs_base = rhs_batch[b] + n;
          visit(result++, [&](auto&& term) {
            for (size_t t = 0; t < lhs_contract.size(); ++t) {
              term(lhs_base + lhs_contract[t], rhs_base + rhs_contract[t]);
            }
          });
        }
      }
    }
  }
};

// A term whose lhs factor is a zero of padding (convolution pads lhs).
constexpr int64_t kPaddingZero = -1;

// The error model of a float contraction: a backend accumulates in the
// result type or in f32, whichever is wider (what every backend we know does
// for narrow types), in any order, then rounds once to the result type.
struct AccumulationModel {
  double unit_roundoff;   // of the accumulation precision
  double underflow_unit;  // smallest subnormal of the accumulation format
  double max_finite;      // beyond it an intermediate sum may overflow
};

AccumulationModel ModelFor(const FloatFormat& result_format) {
  if (result_format.mantissa_bits + 1 > 24)
    return {std::ldexp(1.0, -53), 4.9406564584124654e-324, DBL_MAX};
  return {std::ldexp(1.0, -24), std::ldexp(1.0, -149), FLT_MAX};
}

// One ulp of the result format at magnitude |x| (the smallest subnormal at 0).
double UlpAt(const FloatFormat& format, double x) {
  int exponent = format.min_normal_exponent();
  if (x != 0 && std::isfinite(x)) exponent = std::max(std::ilogb(std::fabs(x)), exponent);
  return std::ldexp(1.0, exponent - format.mantissa_bits);
}

// Accumulates one real part: sum of exact products in double-double, the sum
// of their magnitudes, and the special values met on the way.
struct PartSum {
  precise::DoubleDouble sum;
  double magnitude = 0;  // sum of |products|
  bool nan = false;
  bool positive_infinity = false;
  bool negative_infinity = false;

  void AddProduct(double a, double b, bool negate) {
    double p = a * b;
    if (std::isnan(p)) {
      nan = true;
      return;
    }
    if (std::isinf(p)) {
      // An overflowing product of finite doubles (f64 inputs only) is
      // finite mathematically but beyond every format: treat it as a
      // magnitude that defeats the bound, not as an infinity.
      if (std::isinf(a) || std::isinf(b)) {
        ((p > 0) != negate ? positive_infinity : negative_infinity) = true;
      } else {
        magnitude = HUGE_VAL;
      }
      return;
    }
    precise::TwoTerms exact = precise::TwoProduct(a, b);
    sum.Add(negate ? -exact.hi : exact.hi);
    sum.Add(negate ? -exact.lo : exact.lo);
    magnitude += std::fabs(p);
  }
};

// Turns one part's accumulation into center, bound and freedom.
void Finish(const PartSum& part, int64_t terms, const FloatFormat& format, double* hi, double* lo,
            double* bound, bool* free) {
  *free = false;
  if (part.nan || (part.positive_infinity && part.negative_infinity)) {
    *hi = std::nan("");
    *lo = 0;
    *bound = 0;
    return;
  }
  AccumulationModel model = ModelFor(format);
  if (part.magnitude > model.max_finite) {
    // Some order overflows an intermediate sum and another does not: the
    // result may be an infinity, NaN or a finite value.
    *free = true;
    *hi = part.sum.hi();
    *lo = part.sum.lo();
    *bound = HUGE_VAL;
    return;
  }
  if (part.positive_infinity || part.negative_infinity) {
    *hi = part.positive_infinity ? HUGE_VAL : -HUGE_VAL;
    *lo = 0;
    *bound = 0;
    return;
  }
  *hi = part.sum.hi();
  *lo = part.sum.lo();
  if (terms == 0) {
    // An empty sum is the init value 0, which f8E8M0FNU cannot hold.
    *free = !format.has_zero_and_subnormals;
    *bound = 0;
    return;
  }
  double n = static_cast<double>(terms);
  double gamma = Gamma(terms, model.unit_roundoff);
  // Accumulation error (Higham), underflow in each step, the double-double
  // reference's own error, and the final rounding to the result type.
  double accumulation = gamma * part.magnitude * (1 + std::ldexp(1.0, -20)) +
                        n * model.underflow_unit + n * std::ldexp(part.magnitude, -100);
  *bound = accumulation + UlpAt(format, std::fabs(*hi) + accumulation);
}

// The one error-bound result of a contraction: `reference` and the bounds
// of `e`, its free elements (if any) with `free_reason`.
Results BoundedResult(ResultExpectation e, Tensor reference, const char* free_reason) {
  if (e.FreeCount() == 0) {
    e.free.clear();
  } else {
    e.free_reason = free_reason;
  }
  e.reference = std::move(reference);
  e.check = Check::kErrorBound;
  std::vector<ResultExpectation> results;
  results.push_back(std::move(e));
  return results;
}

// The float sums of products of every result element: `terms` visits each
// result r with a function that enumerates its terms (lhs offset, rhs
// offset; kPaddingZero for a zero of padding).
template <ElementType T, typename Terms>
Results ContractFloat(const Tensor& lhs, const Tensor& rhs, const TensorType& result_type,
                      Terms&& terms) {
  Tensor reference(result_type);
  ResultExpectation e;
  constexpr bool kComplex = IsComplex(T);
  constexpr int kParts = kComplex ? 2 : 1;
  const int64_t count = reference.num_elements();
  e.center_hi.resize(count * kParts);
  e.center_lo.resize(count * kParts);
  e.bound.resize(count * kParts);
  e.free.assign(count, 0);
  auto a = lhs.values<T>();
  auto b = rhs.values<T>();
  auto out = reference.values<T>();
  const ContainerT<T> zero{};
  terms([&](int64_t r, auto&& enumerate) {
    PartSum parts[kParts];
    int64_t products = 0;
    enumerate([&](int64_t lhs_offset, int64_t rhs_offset) {
      ++products;
      // A zero of padding is the number 0, even in a type that cannot hold
      // it (f8E8M0FNU).
      const bool padding = lhs_offset == kPaddingZero;
      auto y = b[rhs_offset];
      if constexpr (kComplex) {
        auto x = padding ? zero : a[lhs_offset];
        double xr = x.real(), xi = x.imag(), yr = y.real(), yi = y.imag();
        parts[0].AddProduct(xr, yr, false);
        parts[0].AddProduct(xi, yi, true);
        parts[1].AddProduct(xr, yi, false);
        parts[1].AddProduct(xi, yr, false);
      } else {
        parts[0].AddProduct(padding ? 0.0 : ToDouble<T>(a[lhs_offset]), ToDouble<T>(y), false);
      }
    });
    constexpr ElementType kPart = ComponentType(T);
    const FloatFormat& format = Format(kPart);
    // A complex product takes two real products and a sum per part.
    int64_t n = kComplex ? 2 * products + 2 * (products > 0) : products;
    double rounded[kParts];
    bool free = false;
    for (int p = 0; p < kParts; ++p) {
      bool part_free = false;
      int64_t i = r * kParts + p;
      Finish(parts[p], n, format, &e.center_hi[i], &e.center_lo[i], &e.bound[i], &part_free);
      // Complex arithmetic exceptions are implementation-defined in the spec.
      if (kComplex && (parts[p].nan || parts[p].positive_infinity || parts[p].negative_infinity)) {
        part_free = true;
      }
      free = free || part_free;
      rounded[p] = e.center_hi[i] + e.center_lo[i];
    }
    e.free[r] = free ? 1 : 0;
    if constexpr (kComplex) {
      out[r] = {RoundDouble<kPart>(rounded[0]), RoundDouble<kPart>(rounded[1])};
    } else {
      out[r] = RoundDouble<T>(rounded[0]);
    }
  });
  return BoundedResult(std::move(e), std::move(reference),
                       "the sum of magnitudes exceeds the accumulation type's range, or complex "
                       "arithmetic met Inf/NaN: the summation order decides the result");
}

// ------------------------------------------------ dot_general's algorithm

// The component products x_i y_j an algorithm computes. The spec leaves
// which open; the known decompositions (bf16_3x, bf16_6x, tf32_3x:
// arXiv:1904.06376, XLA's ALG_DOT_*_X3/X6/X9) keep those of largest
// magnitude, i + j <= t, and so does every count that is a whole number of
// such anti-diagonals. Another count: nullopt.
std::optional<std::vector<std::pair<int64_t, int64_t>>> ComputedProducts(const DotAlgorithm& a) {
  for (int64_t t = 0; t <= a.lhs_component_count + a.rhs_component_count - 2; ++t) {
    std::vector<std::pair<int64_t, int64_t>> products;
    for (int64_t i = 0; i < a.lhs_component_count; ++i) {
      for (int64_t j = 0; j < a.rhs_component_count && i + j <= t; ++j) products.push_back({i, j});
    }
    if (static_cast<int64_t>(products.size()) == a.num_primitive_operations) return products;
  }
  return std::nullopt;
}

// Bounds on the components of one operand value of magnitude x split into
// `count` components of `format`, each rounded to nearest: the residuals
// r_0 = x, r_{i+1} = r_i - x_i with |r_{i+1}| <= u |r_i| + s (s: half the
// smallest subnormal spacing), and |x_i| <= r_i + r_{i+1}.
// In long double, where bounds near the largest double do not overflow.
struct SplitBounds {
  long double component[8];
  long double residual;  // of the whole split
};

SplitBounds BoundSplit(double x, int64_t count, const FloatFormat& format) {
  const long double u = UnitRoundoff(format);
  const long double s = std::ldexp(1.0L, format.min_normal_exponent() - format.mantissa_bits - 1);
  SplitBounds bounds{};
  long double residual = x;
  for (int64_t i = 0; i < count; ++i) {
    const long double next = u * residual + s;
    bounds.component[i] = residual + next;
    residual = next;
  }
  bounds.residual = residual;
  return bounds;
}

// dot_general with the public spec's algorithm on real float operands:
// lhs and rhs rounded to their precision types (split into components
// where the counts say so), the computed component products summed in the
// accumulation type in any order, the sum rounded to the result type. The
// reference stays the exact sum of a b; the bound is the accumulation's
// gamma_{n+1}(u_acc) over the n = K x products computed (the +1 for each
// product's own rounding where it is not exact), plus per term what the
// algorithm leaves out,
//   |a b - sum_S a_i b_j| <= sum_{(i,j) not in S} |a_i||b_j| + r(a) |b| + (|a| + r(a)) r(b),
// and the final rounding. An operand beyond its precision type's range (an
// infinity after rounding), an infinite operand that is split (inf - inf is
// NaN in the split, or the backend special-cases it), and a sum beyond the
// accumulation type's range leave the element free.
// lhs and rhs come as f64 (every real float type widens to it exactly), so
// that one instantiation per result type serves every operand type.
template <ElementType T, typename Terms>
Results ContractWithAlgorithm(const Tensor& lhs, const Tensor& rhs, const TensorType& result_type,
                              const DotAlgorithm& algorithm,
                              const std::vector<std::pair<int64_t, int64_t>>& computed,
                              bool rounding_is_one_reading, Terms&& terms) {
  Tensor reference(result_type);
  ResultExpectation e;
  const int64_t count = reference.num_elements();
  e.center_hi.resize(count);
  e.center_lo.resize(count);
  e.bound.resize(count);
  e.free.assign(count, 0);
  auto a = lhs.values<ElementType::kF64>();
  auto b = rhs.values<ElementType::kF64>();
  auto out = reference.values<T>();
  const FloatFormat& format = Format(T);
  const double u_acc = UnitRoundoff(algorithm.accumulation);
  const double acc_subnormal = std::ldexp(
      1.0, algorithm.accumulation.min_normal_exponent() - algorithm.accumulation.mantissa_bits);
  const double acc_max = MaxFinite(algorithm.accumulation);
  std::vector<std::vector<bool>> kept(8, std::vector<bool>(8, false));
  for (auto [i, j] : computed) kept[i][j] = true;
  const int64_t lc = algorithm.lhs_component_count;
  const int64_t rc = algorithm.rhs_component_count;
  terms([&](int64_t r, auto&& enumerate) {
    PartSum exact;
    int64_t products = 0;
    long double left_out = 0;            // what the split and the dropped products lose
    long double computed_magnitude = 0;  // bound on the sum of |a_i b_j| computed
    bool free = false;
    enumerate([&](int64_t lhs_offset, int64_t rhs_offset) {
      ++products;
      const double x = a[lhs_offset];
      const double y = b[rhs_offset];
      if (std::isnan(x) || std::isnan(y)) {
        exact.AddProduct(x, y, false);
        return;
      }
      if (std::isinf(x) || std::isinf(y)) {
        // Unsplit, the term is the product of the rounded operands: an
        // infinity, or NaN where the other operand rounds to 0. Split, some
        // component product may be inf x 0 and another not.
        // Where rounding the operands is only one reading of the spec (a
        // narrower result type), inf x (a value that rounds to 0) is NaN in
        // it and an infinity in another: free.
        const double rx = RoundToFormat(x, algorithm.lhs_precision);
        const double ry = RoundToFormat(y, algorithm.rhs_precision);
        if (lc > 1 || rc > 1 || (rounding_is_one_reading && std::isnan(rx * ry))) free = true;
        exact.AddProduct(rx, ry, false);
        return;
      }
      exact.AddProduct(x, y, false);
      if (std::isinf(RoundToFormat(x, algorithm.lhs_precision)) ||
          std::isinf(RoundToFormat(y, algorithm.rhs_precision)) ||
          std::isnan(RoundToFormat(x, algorithm.lhs_precision)) ||
          std::isnan(RoundToFormat(y, algorithm.rhs_precision))) {
        free = true;
        return;
      }
      const SplitBounds sx = BoundSplit(std::fabs(x), lc, algorithm.lhs_precision);
      const SplitBounds sy = BoundSplit(std::fabs(y), rc, algorithm.rhs_precision);
      for (int64_t i = 0; i < lc; ++i) {
        for (int64_t j = 0; j < rc; ++j) {
          (kept[i][j] ? computed_magnitude : left_out) += sx.component[i] * sy.component[j];
        }
      }
      left_out += sx.residual * std::fabs(y) + (std::fabs(x) + sx.residual) * sy.residual;
    });
    const int64_t n = products * static_cast<int64_t>(computed.size());
    double hi = 0, lo = 0, bound = 0;
    bool part_free = false;
    // The exact sum's special values and range first, as for any contraction.
    Finish(exact, products, format, &hi, &lo, &bound, &part_free);
    free = free || part_free || computed_magnitude > acc_max;
    if (std::isfinite(hi) && !free && products > 0) {
      const double slack = 1 + std::ldexp(1.0, -20);
      const double accumulation =
          static_cast<double>(Gamma(n + 1, u_acc) * computed_magnitude + left_out) * slack +
          static_cast<double>(n) * acc_subnormal +
          static_cast<double>(products) * std::ldexp(exact.magnitude, -100);
      bound = accumulation + UlpAt(format, std::fabs(hi) + accumulation);
    }
    e.center_hi[r] = hi;
    e.center_lo[r] = lo;
    e.bound[r] = bound;
    e.free[r] = free ? 1 : 0;
    out[r] = RoundDouble<T>(hi + lo);
  });
  return BoundedResult(std::move(e), std::move(reference),
                       "an operand beyond its precision type's range, an infinite operand split "
                       "into components, or a sum beyond the accumulation type's range: the "
                       "algorithm's steps decide the result");
}

// Integers wrap around; booleans are OR of ANDs. Both are exact in any order.
template <ElementType T, typename Terms>
Results ContractExact(const Tensor& lhs, const Tensor& rhs, const TensorType& result_type,
                      Terms&& terms) {
  auto a = lhs.values<T>();
  auto b = rhs.values<T>();
  Tensor result(result_type);
  auto out = result.values<T>();
  terms([&](int64_t r, auto&& enumerate) {
    uint64_t sum = 0;
    enumerate([&](int64_t lhs_offset, int64_t rhs_offset) {
      if (lhs_offset == kPaddingZero) return;
      auto x = a[lhs_offset];
      auto y = b[rhs_offset];
      if constexpr (IsBool(T)) {
        sum |= static_cast<uint64_t>(x & y & 1);
      } else {
        sum += IntegerBits<T>(x) * IntegerBits<T>(y);
      }
    });
    if constexpr (IsBool(T)) {
      out[r] = static_cast<uint8_t>(sum);
    } else {
      out[r] = WrapInteger<T>(sum);
    }
  });
  std::vector<ResultExpectation> results(1);
  results[0].reference = std::move(result);
  results[0].check = Check::kExact;
  return results;
}

// One dispatch on the element type for any contraction.
template <typename Terms>
Results Contract(const Tensor& lhs, const Tensor& rhs, const TensorType& result_type,
                 Terms&& terms) {
  return DispatchElementType(lhs.element_type(), [&]<ElementType T>() -> Results {
    if constexpr (IsFloat(T) || IsComplex(T)) {
      return ContractFloat<T>(lhs, rhs, result_type, terms);
    } else {
      return ContractExact<T>(lhs, rhs, result_type, terms);
    }
  });
}

// `t`'s values in element type `to`, which holds every one of them.
Tensor Widened(const Tensor& t, ElementType to) {
  Tensor wide(t.shape(), to);
  ConvertElements(t.element_type(), t.raw(), to, wide.raw(), t.num_elements());
  return wide;
}

// dot_general. A result element type of its own (C13 ties only lhs and rhs)
// accumulates in the result type, as the interpreter does
// (openxla/stablehlo#2953; the spec leaves accumulation open, #755): the
// operands are widened to it exactly (f16 x f16 -> f32 products are exact,
// si8 x si8 -> si32 products do not wrap) and contracted there. The text's
// multiply(lhs, rhs) in the operand type would round (and wrap) each product
// first; no backend we know does, and the interpreter does not. A narrower
// result type: integers wrap (exact in any reading), floats get the bound
// of the most lossy reading (see narrowing_model below).
Results DotGeneral(const Case& c) {
  const ElementType type = c.operands[0].element_type();
  const ElementType result_type = c.result_types[0].element_type;
  if (c.operands[0].type().quantization || c.operands[1].type().quantization ||
      c.result_types[0].quantization) {
    return absl::UnimplementedError(
        "dot_general on quantized tensors comes with the quantization issue (20)");
  }
  if (c.operands[1].element_type() != type) {
    return absl::InvalidArgumentError("dot_general: lhs and rhs must have one element type (C13)");
  }
  HLOCHECK_ASSIGN_OR_RETURN(const std::optional<DotAlgorithm> algorithm, ReadDotAlgorithm(c));
  std::optional<std::vector<std::pair<int64_t, int64_t>>> computed;
  // The algorithm speaks of precisions: integer and boolean operands keep
  // their exact products (the spec's own example gives tf32 to i64 operands
  // and keeps the exact result).
  const bool with_algorithm = algorithm && (IsFloat(type) || IsComplex(type));
  if (with_algorithm) {
    if (IsComplex(type) || !IsFloat(result_type)) {
      return absl::UnimplementedError(
          "dot_general with an algorithm on complex operands is not implemented by the oracle "
          "(the spec does not say how complex products are split)");
    }
    if (algorithm->allow_imprecise_accumulation) {
      return absl::UnimplementedError(
          "dot_general with allow_imprecise_accumulation = true: the spec permits accumulation "
          "in lower precision for some steps without saying which or how low, so no bound "
          "follows; not implemented by the oracle");
    }
    computed = ComputedProducts(*algorithm);
    if (!computed || algorithm->lhs_component_count > 8 || algorithm->rhs_component_count > 8) {
      // XLA writes its bf16_3x/6x and tf32_3x with component counts of 1
      // (its HLO-to-StableHLO translation sets num_primitive_operations
      // alone), where the spec's example writes bf16_6x as 3, 3, 6 and says
      // counts of 1 mean no decomposition (docs/findings/xla-cpu.md #62).
      const bool xla_spelling = algorithm->lhs_component_count == 1 &&
                                algorithm->rhs_component_count == 1 &&
                                algorithm->num_primitive_operations > 1;
      return absl::UnimplementedError(
          "dot_general with algorithm <" + algorithm->ToString() +
          ">: the oracle knows decompositions that compute the largest component products "
          "(i + j <= t, as bf16_3x, bf16_6x, tf32_3x), up to 8 components" +
          (xla_spelling ? "; one component per operand cannot make " +
                              std::to_string(algorithm->num_primitive_operations) +
                              " products (XLA's spelling of its split algorithms; the spec "
                              "writes bf16_6x as 3, 3, 6)"
                        : ""));
    }
  }
  const bool narrowing = !IsExactConversion(type, result_type);
  const bool float_narrowing = narrowing && IsFloat(type) && IsFloat(result_type);
  const bool integer_narrowing = narrowing && IsInteger(type) && IsInteger(result_type);
  if (narrowing && !float_narrowing && !integer_narrowing) {
    return absl::UnimplementedError(
        "dot_general from " + std::string(Name(type)) + " operands to a " +
        std::string(Name(result_type)) +
        " result, which does not hold every operand value and is not a narrower type of the "
        "same kind (float to float, integer to integer): not implemented by the oracle");
  }
  // A narrower float result: whether the operands, the products or only the
  // sum are rounded to it is not settled (openxla/stablehlo#755), so the
  // bound is that of the most lossy reading, the operands rounded to the
  // result type (the interpreter's "accumulate to the result element type"),
  // products and sums in at least f32; a backend that rounds only the sum
  // is well inside it.
  std::optional<DotAlgorithm> narrowing_model;
  if (float_narrowing && !with_algorithm) {
    DotAlgorithm model;
    model.lhs_precision_type = model.rhs_precision_type = std::string(Name(result_type));
    model.lhs_precision = model.rhs_precision = Format(result_type);
    const bool wide_result = Format(result_type).mantissa_bits >= 23;
    model.accumulation_type = wide_result ? std::string(Name(result_type)) : "f32";
    model.accumulation = wide_result ? Format(result_type) : Format(ElementType::kF32);
    narrowing_model = model;
    computed = ComputedProducts(model);
  }
  const DotAlgorithm* model = with_algorithm    ? &*algorithm
                              : narrowing_model ? &*narrowing_model
                                                : nullptr;
  std::optional<Tensor> wide_lhs, wide_rhs;
  if (model != nullptr) {
    // The algorithm's path reads every float operand as f64.
    wide_lhs = Widened(c.operands[0], ElementType::kF64);
    wide_rhs = Widened(c.operands[1], ElementType::kF64);
  } else if (type != result_type && !integer_narrowing) {
    wide_lhs = Widened(c.operands[0], result_type);
    wide_rhs = Widened(c.operands[1], result_type);
  }
  const Tensor& lhs = wide_lhs ? *wide_lhs : c.operands[0];
  const Tensor& rhs = wide_rhs ? *wide_rhs : c.operands[1];
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> lhs_batching,
                            IntListAttribute(c, "lhs_batching_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> rhs_batching,
                            IntListAttribute(c, "rhs_batching_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> lhs_contracting,
                            IntListAttribute(c, "lhs_contracting_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> rhs_contracting,
                            IntListAttribute(c, "rhs_contracting_dimensions"));
  Contraction k;
  k.lhs_batch = SubspaceOffsets(lhs.shape(), lhs_batching);
  k.rhs_batch = SubspaceOffsets(rhs.shape(), rhs_batching);
  k.lhs_free =
      SubspaceOffsets(lhs.shape(), FreeDimensions(lhs.rank(), lhs_batching, lhs_contracting));
  k.rhs_free =
      SubspaceOffsets(rhs.shape(), FreeDimensions(rhs.rank(), rhs_batching, rhs_contracting));
  k.lhs_contract = SubspaceOffsets(lhs.shape(), lhs_contracting);
  k.rhs_contract = SubspaceOffsets(rhs.shape(), rhs_contracting);
  auto terms = [&](auto&& visit) { k.ForEachResult(visit); };
  if (model != nullptr) {
    return DispatchElementType(result_type, [&]<ElementType T>() -> Results {
      if constexpr (IsFloat(T)) {
        return ContractWithAlgorithm<T>(lhs, rhs, c.result_types[0], *model, *computed,
                                        /*rounding_is_one_reading=*/!with_algorithm, terms);
      } else {
        return absl::InternalError("dot_general: a float algorithm on a non-float result");
      }
    });
  }
  if (integer_narrowing) {
    // Sums wrap modulo 2^width, and 2^width(result) divides 2^width(lhs):
    // wrapping the operand type's exact result to the narrower type is the
    // result whatever is rounded (wrapped) first.
    TensorType wide_type = c.result_types[0];
    wide_type.element_type = type;
    HLOCHECK_ASSIGN_OR_RETURN(std::vector<ResultExpectation> wide,
                              Contract(lhs, rhs, wide_type, terms));
    Tensor narrow(c.result_types[0]);
    std::vector<uint64_t> bits(static_cast<size_t>(narrow.num_elements()));
    DispatchElementType(type, [&]<ElementType T>() {
      if constexpr (IsInteger(T)) {
        auto values = wide[0].reference.values<T>();
        for (size_t e = 0; e < bits.size(); ++e) bits[e] = IntegerBits<T>(values[e]);
      }
    });
    DispatchElementType(result_type, [&]<ElementType T>() {
      if constexpr (IsInteger(T)) {
        auto values = narrow.values<T>();
        for (size_t e = 0; e < bits.size(); ++e) values[e] = WrapInteger<T>(bits[e]);
      }
    });
    wide[0].reference = std::move(narrow);
    return wide;
  }
  return Contract(lhs, rhs, c.result_types[0], terms);
}

// convolution: every result element is a dot product of a window of lhs
// (padded with zeros: padding low and high, lhs_dilation - 1 between
// elements; the window at output_spatial_index * window_strides with
// rhs_dilation, reversed along the spatial dimensions window_reversal marks)
// with rhs, over the kernel's spatial and input feature dimensions.
// feature_group_count splits lhs's features and rhs's output features into
// groups convolved pairwise, batch_group_count lhs's batch instead; the
// results are concatenated along the output features. The zeros of padding
// are terms like any other: 0 times an infinite kernel element is NaN, as
// the spec's pad-then-dot_general says.
Results Convolution(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  const TensorType& result_type = c.result_types[0];
  if (result_type.element_type != lhs.element_type() || rhs.element_type() != lhs.element_type()) {
    return absl::UnimplementedError(
        "convolution with operands or a result of different element types is not implemented "
        "by the oracle");
  }
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t input_batch, IntAttribute(c, "input_batch_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t input_feature,
                            IntAttribute(c, "input_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> input_spatial,
                            IntListAttribute(c, "input_spatial_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t kernel_input_feature,
                            IntAttribute(c, "kernel_input_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t kernel_output_feature,
                            IntAttribute(c, "kernel_output_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> kernel_spatial,
                            IntListAttribute(c, "kernel_spatial_dimensions"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t output_batch, IntAttribute(c, "output_batch_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t output_feature,
                            IntAttribute(c, "output_feature_dimension"));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> output_spatial,
                            IntListAttribute(c, "output_spatial_dimensions"));
  const auto spatial = static_cast<int64_t>(input_spatial.size());
  const std::vector<int64_t> ones(static_cast<size_t>(spatial), 1);
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> strides,
                            IntListAttribute(c, "window_strides", ones));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> padding,
                            IntMatrixAttribute(c, "padding", spatial, 2));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> lhs_dilation,
                            IntListAttribute(c, "lhs_dilation", ones));
  HLOCHECK_ASSIGN_OR_RETURN(const std::vector<int64_t> rhs_dilation,
                            IntListAttribute(c, "rhs_dilation", ones));
  std::vector<bool> reversal(static_cast<size_t>(spatial), false);
  if (const Attribute* a = c.FindAttribute("window_reversal")) {
    if (const auto* flags = std::get_if<std::vector<bool>>(a)) reversal = *flags;
  }
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t feature_groups, IntAttribute(c, "feature_group_count"));
  HLOCHECK_ASSIGN_OR_RETURN(const int64_t batch_groups, IntAttribute(c, "batch_group_count"));

  const Shape& lhs_shape = lhs.shape();
  const Shape& rhs_shape = rhs.shape();
  const std::vector<int64_t> lhs_strides = RowMajorStrides(lhs_shape);
  const std::vector<int64_t> rhs_strides = RowMajorStrides(rhs_shape);
  const int64_t group_inputs = rhs_shape[kernel_input_feature];
  const int64_t outputs = rhs_shape[kernel_output_feature];
  // Output features per group, and the lhs batch elements of one group.
  const int64_t group_outputs = outputs / std::max<int64_t>(1, feature_groups * batch_groups);
  const int64_t group_batch = lhs_shape[input_batch] / std::max<int64_t>(1, batch_groups);
  Shape kernel;
  for (int64_t d : kernel_spatial) kernel.push_back(rhs_shape[d]);

  auto terms_of = [&](const std::vector<int64_t>& index, auto&& term) {
    const int64_t feature = index[output_feature];
    const int64_t group = group_outputs == 0 ? 0 : feature / group_outputs;
    const int64_t batch =
        batch_groups > 1 ? group * group_batch + index[output_batch] : index[output_batch];
    const int64_t feature_base = feature_groups > 1 ? group * group_inputs : 0;
    for (IndexIterator k(kernel); !k.done(); k.Next()) {
      // Where the window element of kernel index k lies in lhs, or padding.
      int64_t lhs_base = batch * lhs_strides[input_batch];
      int64_t rhs_base = feature * rhs_strides[kernel_output_feature];
      for (int64_t s = 0; s < spatial; ++s) {
        const int64_t at = reversal[s] ? kernel[s] - 1 - k.index()[s] : k.index()[s];
        const int64_t padded = index[output_spatial[s]] * strides[s] + at * rhs_dilation[s];
        const int64_t dilated = padded - padding[2 * s];
        if (lhs_base != kPaddingZero && dilated >= 0 && dilated % lhs_dilation[s] == 0 &&
            dilated / lhs_dilation[s] < lhs_shape[input_spatial[s]]) {
          lhs_base += dilated / lhs_dilation[s] * lhs_strides[input_spatial[s]];
        } else {
          lhs_base = kPaddingZero;
        }
        rhs_base += k.index()[s] * rhs_strides[kernel_spatial[s]];
      }
      for (int64_t i = 0; i < group_inputs; ++i) {
        term(lhs_base == kPaddingZero ? kPaddingZero
                                      : lhs_base + (feature_base + i) * lhs_strides[input_feature],
             rhs_base + i * rhs_strides[kernel_input_feature]);
      }
    }
  };
  return Contract(lhs, rhs, result_type, [&](auto&& visit) {
    int64_t r = 0;
    for (IndexIterator it(result_type.shape); !it.done(); it.Next()) {
      visit(r++, [&](auto&& term) { terms_of(it.index(), term); });
    }
  });
}

}  // namespace

std::vector<OpEntry> ContractionOps() {
  return {{"dot_general", DotGeneral}, {"convolution", Convolution}};
}

}  // namespace hlocheck::oracle
