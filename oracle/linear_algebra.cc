// Linear algebra (seed 002: cholesky, triangular_solve) on batches of
// matrices of a float or complex type.
//
// The spec fixes the answer (the Cholesky factor, the solution) but not the
// algorithm, so the oracle computes the exact answer in long double and a
// forward error bound that every backward-stable algorithm meets, from the
// backward error each algorithm family is known to have (Higham, "Accuracy
// and Stability of Numerical Algorithms", Thm. 8.5 and 10.3) and the
// matrix's own condition, computed exactly (docs/numerics.md):
//   triangular_solve: (M + dM) y = c with |dM| <= gamma |M| (substitution
//     in any order of its inner products, blocked or not), so
//     |y - y^| <= gamma |M^-1| |M| |y^|;
//   cholesky: L^ L^H = A + dA with |dA| <= gamma |L^| |L^H|, and
//     L^ = L + dL with dL = L tril(L^-1 dA L^-H) to first order, so
//     |dL| <= gamma |L| tril(G G^T), G = |L^-1| |L|, with a second-order
//     allowance of 1 / (1 - 4 rho), rho = gamma ||G G^T||_inf < 1/8.
// gamma counts two roundings per step (a reciprocal then a product) and
// complex arithmetic's extra ones. Where the condition makes the bound
// meaningless (gamma ||...|| >= 1/2) the elements are free, and say so.
#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "core/case_attributes.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"
#include "oracle/step_errors.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;
// The oracle computes a real type's matrices in long double, a complex
// type's in complex long double: the same values a real one would get as
// complex numbers with zero imaginary parts, at a fraction of the cost.
using Value = std::complex<long double>;
template <ElementType T>
using ValueFor = std::conditional_t<IsComplex(T), Value, long double>;

// An n x n matrix, row-major.
template <typename V>
struct Matrix {
  explicit Matrix(int64_t size) : n(size), values(static_cast<size_t>(size * size)) {}
  V& operator()(int64_t i, int64_t j) { return values[i * n + j]; }
  const V& operator()(int64_t i, int64_t j) const { return values[i * n + j]; }
  int64_t n;
  std::vector<V> values;
};

template <ElementType T>
ValueFor<T> LongDoubleValue(ContainerT<T> x) {
  if constexpr (IsComplex(T)) {
    return ComplexLongDouble<T>(x);
  } else {
    return static_cast<long double>(ToDouble<T>(x));
  }
}

bool Finite(long double v) { return std::isfinite(v); }
bool Finite(const Value& v) { return std::isfinite(v.real()) && std::isfinite(v.imag()); }
long double Conj(long double v) { return v; }
Value Conj(const Value& v) { return std::conj(v); }
long double Norm(long double v) { return v * v; }
long double Norm(const Value& v) { return std::norm(v); }
long double RealPart(long double v) { return v; }
long double RealPart(const Value& v) { return v.real(); }
long double ImagPart(long double) { return 0; }
long double ImagPart(const Value& v) { return v.imag(); }

// Products, quotients and magnitudes of finite values, in real arithmetic
// where the imaginary parts are zero (every element of a real type):
// std::complex<long double>'s operators call the runtime's __mulxc3 and
// __divxc3, with their checks for NaN and their scaling, and std::abs a
// hypotl, which made these ops the slowest of the oracle's. The same
// values (the real quotient rounded once rather than through the scaled
// complex formula).
long double Times(long double a, long double b) { return a * b; }
Value Times(const Value& a, const Value& b) {
  if (a.imag() == 0 && b.imag() == 0) return Value(a.real() * b.real(), 0);
  return a * b;
}

long double Over(long double a, long double b) { return a / b; }
Value Over(const Value& a, const Value& b) {
  if (a.imag() == 0 && b.imag() == 0) return Value(a.real() / b.real(), 0);
  return a / b;
}

long double Magnitude(long double v) { return fabsl(v); }
long double Magnitude(const Value& v) { return v.imag() == 0 ? fabsl(v.real()) : std::abs(v); }

template <typename V>
std::vector<long double> Magnitudes(const Matrix<V>& m) {
  std::vector<long double> magnitudes(m.values.size());
  for (size_t i = 0; i < magnitudes.size(); ++i) magnitudes[i] = Magnitude(m.values[i]);
  return magnitudes;
}

// What the element type's parts allow: unit roundoff, smallest subnormal,
// largest finite value; and gamma for `steps` rounded steps of the type's
// arithmetic (complex products round several times: Higham 3.6).
struct Precision {
  explicit Precision(ElementType type)
      : complex(IsComplex(type)),
        format(Format(complex ? ComponentType(type) : type)),
        u(UnitRoundoff(format)),
        tiny(std::ldexp(1.0, format.min_normal_exponent() - format.mantissa_bits)),
        largest(MaxFinite(format)) {}
  double GammaFor(int64_t n) const { return Gamma(complex ? 4 * n + 8 : 2 * n + 2, u); }
  bool complex;
  const FloatFormat& format;
  double u, tiny, largest;
};

// The inverse of a triangular matrix, by substitution in long double; null
// for a zero on the diagonal.
template <typename V>
std::optional<Matrix<V>> TriangularInverse(const Matrix<V>& m, bool lower) {
  const int64_t n = m.n;
  Matrix<V> inverse(n);
  for (int64_t i = 0; i < n; ++i) {
    if (m(i, i) == V(0)) return std::nullopt;
  }
  // Column k of the inverse solves m x = e_k. It is triangular like m: x_i
  // is zero before k (lower; after k for upper), so the substitution starts
  // at k. The column is built contiguously, then stored.
  std::vector<V> x(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    std::fill(x.begin(), x.end(), V(0));
    for (int64_t step = 0; step < n; ++step) {
      const int64_t i = lower ? step : n - 1 - step;
      if (lower ? i < k : i > k) continue;
      V sum = i == k ? V(1) : V(0);
      const int64_t first = lower ? k : i + 1, last = lower ? i : k + 1;
      for (int64_t j = first; j < last; ++j) sum -= Times(m(i, j), x[j]);
      x[i] = Over(sum, m(i, i));
    }
    for (int64_t i = 0; i < n; ++i) inverse(i, k) = x[i];
  }
  return inverse;
}

// One element of an error-bound expectation (two entries for a complex
// type: real part, imaginary part).
template <typename V>
void SetElement(ResultExpectation& e, int64_t index, bool complex, const V& v, double bound) {
  const int64_t parts = complex ? 2 : 1;
  const long double components[2] = {RealPart(v), ImagPart(v)};
  for (int64_t p = 0; p < parts; ++p) {
    const auto hi = static_cast<double>(components[p]);
    e.center_hi[index * parts + p] = hi;
    e.center_lo[index * parts + p] =
        std::isfinite(hi) ? static_cast<double>(components[p] - static_cast<long double>(hi)) : 0;
    e.bound[index * parts + p] = bound;
  }
}

// An empty error-bound expectation for `count` elements.
ResultExpectation BoundExpectation(int64_t count, bool complex) {
  ResultExpectation e;
  e.check = Check::kErrorBound;
  const auto entries = static_cast<size_t>(count * (complex ? 2 : 1));
  e.center_hi.assign(entries, 0);
  e.center_lo.assign(entries, 0);
  e.bound.assign(entries, 0);
  return e;
}

constexpr char kNoZeroReason[] =
    "the element type has no zero and no negative values: the factorisation's steps have no "
    "value in it";

// ------------------------------------------------------------------ cholesky

constexpr char kNotPositiveDefinite[] =
    "the matrix is not Hermitian positive-definite (or holds NaN or an infinity): the spec "
    "leaves the behaviour undefined";

// The lower Cholesky factor L of A = L L^H, exactly (long double); null
// where A is not Hermitian positive-definite.
template <typename V>
std::optional<Matrix<V>> ExactCholesky(const Matrix<V>& a) {
  const int64_t n = a.n;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j <= i; ++j) {
      if (!Finite(a(i, j)) || a(i, j) != Conj(a(j, i))) return std::nullopt;
    }
  }
  Matrix<V> l(n);
  for (int64_t j = 0; j < n; ++j) {
    long double pivot = RealPart(a(j, j));
    for (int64_t k = 0; k < j; ++k) pivot -= Norm(l(j, k));
    if (!(pivot > 0)) return std::nullopt;
    l(j, j) = V(sqrtl(pivot));
    for (int64_t i = j + 1; i < n; ++i) {
      V sum = a(i, j);
      for (int64_t k = 0; k < j; ++k) sum -= Times(l(i, k), Conj(l(j, k)));
      l(i, j) = Over(sum, l(j, j));
    }
  }
  return l;
}

// The bound on each element of the computed factor's error (row-major,
// lower triangle), or null where the matrix is too ill-conditioned for the
// type (see the file comment).
template <typename V>
std::optional<std::vector<long double>> CholeskyBounds(const Matrix<V>& l, const Precision& p) {
  const int64_t n = l.n;
  const std::optional<Matrix<V>> inverse = TriangularInverse(l, /*lower=*/true);
  const double gamma = p.GammaFor(n);
  if (!inverse || !(gamma < 0.5)) return std::nullopt;
  // G = |L^-1| |L| and H = G G^T: |L^-1 dA L^-H| <= gamma H.
  const std::vector<long double> abs_inverse = Magnitudes(*inverse), abs_l = Magnitudes(l);
  std::vector<long double> g(static_cast<size_t>(n * n), 0), h(static_cast<size_t>(n * n), 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j <= i; ++j) {
      for (int64_t k = j; k <= i; ++k) g[i * n + j] += abs_inverse[i * n + k] * abs_l[k * n + j];
    }
  }
  long double h_norm = 0;
  for (int64_t i = 0; i < n; ++i) {
    long double row = 0;
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t k = 0; k <= std::min(i, j); ++k) h[i * n + j] += g[i * n + k] * g[j * n + k];
      row += h[i * n + j];
    }
    h_norm = std::max(h_norm, row);
  }
  // First order: dL = L tril(L^-1 dA L^-H) (diagonal halved; kept whole
  // here); the second-order term is at most 4 rho of it while rho < 1/8.
  const long double rho = gamma * h_norm;
  if (!(8 * rho < 1)) return std::nullopt;
  std::vector<long double> bounds(static_cast<size_t>(n * n), 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j <= i; ++j) {
      long double sum = 0;
      for (int64_t k = j; k <= i; ++k) sum += abs_l[i * n + k] * h[k * n + j];
      bounds[i * n + j] = gamma * sum / (1 - 4 * rho);
    }
  }
  return bounds;
}

template <ElementType T>
Results Cholesky(const Case& c, bool lower) {
  const Tensor& a = c.operands[0];
  const Precision p(T);
  const int64_t n = a.shape().empty() ? 0 : a.shape().back();
  const int64_t count = a.num_elements();
  const int64_t batches = n == 0 ? 0 : count / (n * n);
  auto values = a.values<T>();
  ResultExpectation e = BoundExpectation(count, p.complex);
  FreeElements free(static_cast<size_t>(count));
  for (int64_t b = 0; b < batches; ++b) {
    const int64_t base = b * n * n;
    Matrix<ValueFor<T>> matrix(n);
    for (int64_t i = 0; i < n * n; ++i) matrix.values[i] = LongDoubleValue<T>(values[base + i]);
    const std::optional<Matrix<ValueFor<T>>> l = ExactCholesky(matrix);
    const std::optional<std::vector<long double>> bounds = l ? CholeskyBounds(*l, p) : std::nullopt;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const int64_t index = base + i * n + j;
        const auto at = static_cast<size_t>(index);
        if (lower ? j > i : j < i) {
          free.Mark(at, "the opposite triangle of cholesky's result is implementation-defined");
          continue;
        }
        if (!l) {
          free.Mark(at, kNotPositiveDefinite);
          continue;
        }
        // The upper factor is L^H.
        const ValueFor<T> v = lower ? (*l)(i, j) : Conj((*l)(j, i));
        const long double abs_v = Magnitude(v);
        const double bound =
            bounds ? static_cast<double>((*bounds)[lower ? i * n + j : j * n + i] + p.u * abs_v +
                                         4 * n * p.tiny + ldexpl(abs_v, -58))
                   : HUGE_VAL;
        SetElement(e, index, p.complex, v, bound);
        if (!std::isfinite(bound)) {
          free.Mark(at,
                    "the matrix is too ill-conditioned for the element type's precision (gamma "
                    "|| |L^-1| |L| |L^H| |L^-H| || >= 1/8): no forward bound follows from the "
                    "backward error");
        } else if (!p.format.has_zero_and_subnormals) {
          free.Mark(at, kNoZeroReason);
        }
      }
    }
  }
  e.reference = ReferenceFromCenters(c.result_types[0], e);
  std::move(free).MoveInto(e);
  std::vector<ResultExpectation> results;
  results.push_back(std::move(e));
  return results;
}

// ----------------------------------------------------------- triangular_solve

// The solve as M y = c column by column: M is op(a) for left_side, op(a)^T
// for the right side (x op(a) = b is op(a)^T x^T = b^T), read from a's
// `lower` triangle, with ones on the diagonal for unit_diagonal.
template <typename V>
struct TriangularSystem {
  Matrix<V> m;
  bool m_lower;
};

template <typename V>
TriangularSystem<V> SystemOf(const Matrix<V>& a, bool left_side, bool lower, bool unit_diagonal,
                             const std::string& transpose_a) {
  const int64_t n = a.n;
  Matrix<V> triangle(n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      if (i == j) {
        triangle(i, j) = unit_diagonal ? V(1) : a(i, j);
      } else if (lower ? j < i : j > i) {
        triangle(i, j) = a(i, j);
      }
    }
  }
  const bool transposed = transpose_a != "NO_TRANSPOSE";
  const bool conjugated = transpose_a == "ADJOINT";
  // op(a), then transposed once more for the right side.
  const bool flip = transposed != !left_side;
  TriangularSystem<V> s{Matrix<V>(n), lower != flip};
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const V v = flip ? triangle(j, i) : triangle(i, j);
      s.m(i, j) = conjugated ? Conj(v) : v;
    }
  }
  return s;
}

template <ElementType T>
Results TriangularSolve(const Case& c, bool left_side, bool lower, bool unit_diagonal,
                        const std::string& transpose_a) {
  const Tensor& a = c.operands[0];
  const Tensor& b = c.operands[1];
  const Precision p(T);
  const size_t rank = b.shape().size();
  const int64_t n = a.shape()[rank - 1];
  const int64_t rows = b.shape()[rank - 2], cols = b.shape()[rank - 1];
  // Each system's right-hand sides: b's columns (left side) or rows.
  const int64_t systems = left_side ? cols : rows;
  const int64_t count = b.num_elements();
  const int64_t batches = rows * cols == 0 ? 0 : count / (rows * cols);
  auto a_values = a.values<T>();
  auto b_values = b.values<T>();
  ResultExpectation e = BoundExpectation(count, p.complex);
  FreeElements free(static_cast<size_t>(count));
  const double gamma = p.GammaFor(n);
  for (int64_t batch = 0; batch < batches; ++batch) {
    using V = ValueFor<T>;
    Matrix<V> matrix(n);
    for (int64_t i = 0; i < n * n; ++i)
      matrix.values[i] = LongDoubleValue<T>(a_values[batch * n * n + i]);
    bool diagonal_not_one = false, finite_matrix = true;
    for (int64_t i = 0; i < n; ++i) diagonal_not_one |= matrix(i, i) != V(1);
    const TriangularSystem<V> s = SystemOf(matrix, left_side, lower, unit_diagonal, transpose_a);
    for (const V& v : s.m.values) finite_matrix &= Finite(v);
    const std::optional<Matrix<V>> inverse =
        finite_matrix ? TriangularInverse(s.m, s.m_lower) : std::nullopt;
    // D = |M^-1| |M| and its infinity norm (|.| of each element computed
    // once: a complex long double's is a hypotl).
    const std::vector<long double> abs_m = Magnitudes(s.m);
    const std::vector<long double> abs_inverse =
        inverse ? Magnitudes(*inverse) : std::vector<long double>(abs_m.size(), 0);
    std::vector<long double> d(static_cast<size_t>(n * n), 0);
    long double d_norm = 0;
    // Underflow: each step's rounding may err by half a smallest subnormal
    // absolutely, in a product of the residual (row i: |M^-1| 1) or in the
    // quotient y_j itself (a residual error of |m_jj| tiny in row j). So
    // row i of the solution may err by tiny sum_j |M^-1|_ij (1 + |m_jj|).
    std::vector<long double> underflow_gain(static_cast<size_t>(n), 0);
    if (inverse) {
      for (int64_t i = 0; i < n; ++i) {
        long double row = 0;
        for (int64_t j = 0; j < n; ++j) {
          // M^-1 is triangular like M: only k between i and j contribute.
          long double sum = 0;
          const int64_t first = s.m_lower ? j : i, last = s.m_lower ? i : j;
          for (int64_t k = first; k <= last; ++k) sum += abs_inverse[i * n + k] * abs_m[k * n + j];
          d[i * n + j] = sum;
          row += sum;
          underflow_gain[i] += abs_inverse[i * n + j] * (1 + abs_m[j * n + j]);
        }
        d_norm = std::max(d_norm, row);
      }
    }
    const long double ratio = gamma * d_norm;
    for (int64_t k = 0; k < systems; ++k) {
      // The right-hand side and where its solution goes.
      auto element_index = [&](int64_t i) {
        return batch * rows * cols + (left_side ? i * cols + k : k * cols + i);
      };
      std::vector<V> y(static_cast<size_t>(n));
      bool finite_column = true;
      for (int64_t i = 0; i < n; ++i) {
        y[i] = LongDoubleValue<T>(b_values[element_index(i)]);
        finite_column &= Finite(y[i]);
      }
      // Substitution in long double.
      if (inverse) {
        for (int64_t step = 0; step < n; ++step) {
          const int64_t i = s.m_lower ? step : n - 1 - step;
          const int64_t first = s.m_lower ? 0 : i + 1, last = s.m_lower ? i : n;
          for (int64_t j = first; j < last; ++j) y[i] -= Times(s.m(i, j), y[j]);
          y[i] = Over(y[i], s.m(i, i));
        }
      }
      // |y - y^| <= gamma D |y^| <= gamma D |y| + gamma ||D|| eta, with
      // eta = ||y - y^||_inf <= gamma ||D |y|||_inf / (1 - gamma ||D||).
      std::vector<long double> dy(static_cast<size_t>(n), 0), abs_y(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) abs_y[i] = Magnitude(y[i]);
      long double dy_norm = 0, magnitude = 0;
      for (int64_t i = 0; i < n && inverse; ++i) {
        long double product = 0;
        for (int64_t j = 0; j < n; ++j) {
          dy[i] += d[i * n + j] * abs_y[j];
          product += abs_m[i * n + j] * abs_y[j];
        }
        dy_norm = std::max(dy_norm, dy[i]);
        magnitude = std::max(magnitude, product);
      }
      const long double eta = gamma * dy_norm / (1 - ratio);
      // An overflowing element of the solution spreads to the others
      // (0 x Inf is NaN) in some algorithms and not in others, and so does
      // the reciprocal of a tiny diagonal element, which algorithms that
      // multiply by it form: the whole right-hand side is then free.
      bool overflows = !(magnitude * (1 + 2 * ratio) <= p.largest);
      for (int64_t i = 0; i < n && inverse; ++i) {
        overflows |= !(abs_y[i] + gamma * dy[i] + ratio * eta <= p.largest) ||
                     !(1 / abs_m[i * n + i] <= p.largest);
      }
      for (int64_t i = 0; i < n; ++i) {
        const int64_t index = element_index(i);
        const auto at = static_cast<size_t>(index);
        const double bound =
            static_cast<double>(gamma * dy[i] + ratio * eta + p.u * abs_y[i] +
                                ldexpl(abs_y[i], -58) + (n + 2) * p.tiny * (1 + underflow_gain[i]));
        SetElement(e, index, p.complex, inverse ? y[i] : V(0), bound);
        if (!finite_matrix || !finite_column) {
          free.Mark(at,
                    "NaN or an infinity in a or in this right-hand side: where it spreads "
                    "depends on the algorithm");
        } else if (!inverse) {
          free.Mark(at, "a is singular (a zero on its diagonal): the solution does not exist");
        } else if (!(ratio < 0.5) || !std::isfinite(bound)) {
          free.Mark(at,
                    "a is too ill-conditioned for the element type's precision (gamma "
                    "|| |M^-1| |M| || >= 1/2): no forward bound follows from the backward error");
        } else if (overflows) {
          free.Mark(at,
                    "some order of the substitution (or the reciprocal of a diagonal element) "
                    "overflows and another does not");
        } else if (!p.format.has_zero_and_subnormals) {
          free.Mark(at, kNoZeroReason);
        } else if (unit_diagonal && diagonal_not_one) {
          // The reference solves with ones on the diagonal.
          free.MarkConventional(at,
                                "unit_diagonal with a diagonal element of a other than 1: the "
                                "spec leaves the behaviour undefined; the StableHLO interpreter "
                                "(its triangular_solve tests) and XLA read the diagonal as 1");
        }
      }
    }
  }
  e.reference = ReferenceFromCenters(c.result_types[0], e);
  std::move(free).MoveInto(e);
  std::vector<ResultExpectation> results;
  results.push_back(std::move(e));
  return results;
}

absl::Status UnquantizedFloatOrComplex(const Case& c) {
  for (const Tensor& t : c.operands) {
    if (t.type().quantization) {
      return absl::UnimplementedError(
          c.op + " on quantized tensors comes with the quantization issue (20)");
    }
  }
  const ElementType type = c.operands[0].element_type();
  if (!IsFloat(type) && !IsComplex(type)) {
    return absl::InvalidArgumentError(c.op + ": the element type is not a float or complex type");
  }
  if (c.operands[0].rank() < 2) return absl::InvalidArgumentError(c.op + ": a has rank < 2");
  return absl::OkStatus();
}

// cholesky: see the file comment.
Results CholeskyOp(const Case& c) {
  HLOCHECK_RETURN_IF_ERROR(UnquantizedFloatOrComplex(c));
  HLOCHECK_ASSIGN_OR_RETURN(const bool lower, BoolAttribute(c, "lower", false));
  return DispatchElementType(c.operands[0].element_type(), [&]<ElementType T>() -> Results {
    if constexpr (IsFloat(T) || IsComplex(T)) {
      return Cholesky<T>(c, lower);
    } else {
      return absl::InvalidArgumentError("cholesky: not a float or complex type");
    }
  });
}

// triangular_solve: see the file comment.
Results TriangularSolveOp(const Case& c) {
  HLOCHECK_RETURN_IF_ERROR(UnquantizedFloatOrComplex(c));
  HLOCHECK_ASSIGN_OR_RETURN(const bool left_side, BoolAttribute(c, "left_side", false));
  HLOCHECK_ASSIGN_OR_RETURN(const bool lower, BoolAttribute(c, "lower", false));
  HLOCHECK_ASSIGN_OR_RETURN(const bool unit_diagonal, BoolAttribute(c, "unit_diagonal", false));
  HLOCHECK_ASSIGN_OR_RETURN(const std::string transpose_a, EnumAttribute(c, "transpose_a"));
  if (c.operands.size() != 2 || c.operands[1].rank() != c.operands[0].rank()) {
    return absl::InvalidArgumentError("triangular_solve: a and b must have the same rank");
  }
  return DispatchElementType(c.operands[0].element_type(), [&]<ElementType T>() -> Results {
    if constexpr (IsFloat(T) || IsComplex(T)) {
      return TriangularSolve<T>(c, left_side, lower, unit_diagonal, transpose_a);
    } else {
      return absl::InvalidArgumentError("triangular_solve: not a float or complex type");
    }
  });
}

}  // namespace

std::vector<OpEntry> LinearAlgebraOps() {
  return {{"cholesky", CholeskyOp}, {"triangular_solve", TriangularSolveOp}};
}

}  // namespace hlocheck::oracle
