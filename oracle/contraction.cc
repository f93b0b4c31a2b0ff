// Contractions (seed 002: dot_general). The spec sums with
// reduce(add) in an implementation-defined order, so for floats the oracle
// returns the (nearly) exact sum and a bound that every order satisfies.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/oracle.h"
#include "oracle/precise/double_double.h"

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

  int64_t terms() const { return static_cast<int64_t>(lhs_contract.size()); }

  template <typename Fn>
  void ForEachResult(Fn&& fn) const {
    int64_t result = 0;
    for (size_t b = 0; b < lhs_batch.size(); ++b) {
      for (int64_t m : lhs_free) {
        for (int64_t n : rhs_free) {
          fn(result++, lhs_batch[b] + m, rhs_batch[b] + n);
        }
      }
    }
  }
};

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
  double nu = n * model.unit_roundoff;
  double gamma = nu < 1 ? nu / (1 - nu) : HUGE_VAL;
  // Accumulation error (Higham), underflow in each step, the double-double
  // reference's own error, and the final rounding to the result type.
  double accumulation = gamma * part.magnitude * (1 + std::ldexp(1.0, -20)) +
                        n * model.underflow_unit + n * std::ldexp(part.magnitude, -100);
  *bound = accumulation + UlpAt(format, std::fabs(*hi) + accumulation);
}

template <ElementType T>
Results DotFloat(const Case& c, const Contraction& k) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor reference(c.result_types[0]);
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
  k.ForEachResult([&](int64_t r, int64_t lhs_base, int64_t rhs_base) {
    PartSum parts[kParts];
    for (int64_t t = 0; t < k.terms(); ++t) {
      auto x = a[lhs_base + k.lhs_contract[t]];
      auto y = b[rhs_base + k.rhs_contract[t]];
      if constexpr (kComplex) {
        double xr = x.real(), xi = x.imag(), yr = y.real(), yi = y.imag();
        parts[0].AddProduct(xr, yr, false);
        parts[0].AddProduct(xi, yi, true);
        parts[1].AddProduct(xr, yi, false);
        parts[1].AddProduct(xi, yr, false);
      } else {
        parts[0].AddProduct(ToDouble<T>(x), ToDouble<T>(y), false);
      }
    }
    constexpr ElementType kPart = ComponentType(T);
    const FloatFormat& format = Format(kPart);
    // A complex product takes two real products and a sum per part.
    int64_t terms = kComplex ? 2 * k.terms() + 2 * (k.terms() > 0) : k.terms();
    double rounded[kParts];
    bool free = false;
    for (int p = 0; p < kParts; ++p) {
      bool part_free = false;
      int64_t i = r * kParts + p;
      Finish(parts[p], terms, format, &e.center_hi[i], &e.center_lo[i], &e.bound[i], &part_free);
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
  if (e.FreeCount() == 0) {
    e.free.clear();
  } else {
    e.free_reason =
        "the sum of magnitudes exceeds the accumulation type's range, or complex arithmetic "
        "met Inf/NaN: the summation order decides the result";
  }
  e.reference = std::move(reference);
  e.check = Check::kErrorBound;
  std::vector<ResultExpectation> results;
  results.push_back(std::move(e));
  return results;
}

// Integers wrap around; booleans are OR of ANDs. Both are exact in any order.
template <ElementType T>
Results DotExact(const Case& c, const Contraction& k) {
  auto a = c.operands[0].values<T>();
  auto b = c.operands[1].values<T>();
  Tensor result(c.result_types[0]);
  auto out = result.values<T>();
  k.ForEachResult([&](int64_t r, int64_t lhs_base, int64_t rhs_base) {
    uint64_t sum = 0;
    for (int64_t t = 0; t < k.terms(); ++t) {
      auto x = a[lhs_base + k.lhs_contract[t]];
      auto y = b[rhs_base + k.rhs_contract[t]];
      if constexpr (IsBool(T)) {
        sum |= static_cast<uint64_t>(x & y & 1);
      } else {
        sum += IntegerBits<T>(x) * IntegerBits<T>(y);
      }
    }
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

Results DotGeneral(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  ElementType type = lhs.element_type();
  if (c.result_types[0].element_type != type || rhs.element_type() != type) {
    return absl::UnimplementedError(
        "dot_general with a result element type different from its operands' is not "
        "implemented by the oracle");
  }
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
  return DispatchElementType(type, [&]<ElementType T>() -> Results {
    if constexpr (IsFloat(T) || IsComplex(T)) {
      return DotFloat<T>(c, k);
    } else {
      return DotExact<T>(c, k);
    }
  });
}

}  // namespace

std::vector<OpEntry> ContractionOps() { return {{"dot_general", DotGeneral}}; }

}  // namespace hlocheck::oracle
