// Shared helpers of the element-wise oracle tests: cases from literals,
// run through the oracle after verification.
#ifndef HLOCHECK_TESTS_ORACLE_ELEMENTWISE_TEST_UTIL_H_
#define HLOCHECK_TESTS_ORACLE_ELEMENTWISE_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <mpfr.h>

#include <string>
#include <vector>

#include "core/literal.h"
#include "oracle/oracle.h"
#include "tests/support/case_builders.h"

namespace hlocheck::testing {

inline const Oracle& TheOracle() {
  static Oracle* oracle = new Oracle(*spec::DefaultRegistry());
  return *oracle;
}

inline TensorType Type(const std::string& text) {
  auto type = ParseTensorType(text);
  EXPECT_TRUE(type.ok()) << text;
  return type.ok() ? *type : TensorType();
}

template <ElementType T>
Tensor Vector(const std::vector<ContainerT<T>>& values) {
  Tensor t(Shape{static_cast<int64_t>(values.size())}, T);
  std::copy(values.begin(), values.end(), t.values<T>().begin());
  return t;
}

// Runs a verified case of `op` with one result; fails the test on error.
inline ResultExpectation RunOp(const std::string& op, std::vector<Tensor> operands,
                               const TensorType& result_type,
                               std::map<std::string, Attribute> attributes = {}) {
  Case c;
  c.op = op;
  c.operands = std::move(operands);
  c.attributes = std::move(attributes);
  c.result_types.push_back(result_type);
  auto results = TheOracle().Run(c);
  EXPECT_TRUE(results.ok()) << op << ": " << results.status();
  if (!results.ok() || results->size() != 1) return {};
  return std::move((*results)[0]);
}

// Same-type result as the first operand.
inline ResultExpectation RunSame(const std::string& op, std::vector<Tensor> operands,
                                 std::map<std::string, Attribute> attributes = {}) {
  TensorType type = operands[0].type();
  return RunOp(op, std::move(operands), type, std::move(attributes));
}

using MpfrOp = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

// op(x, y) rounded to nearest even by MPFR in a format of precision p with
// the format's subnormals (emin and mpfr_subnormalize), as a double (exact).
inline double MpfrInFormat(const FloatFormat& format, MpfrOp op, double x, double y) {
  const int precision = format.mantissa_bits + 1;
  mpfr_exp_t old_emin = mpfr_get_emin();
  mpfr_set_emin(format.min_normal_exponent() - precision + 2);
  mpfr_t a, b, r;
  mpfr_inits2(64, a, b, static_cast<mpfr_ptr>(nullptr));
  mpfr_init2(r, precision);
  mpfr_set_d(a, x, MPFR_RNDN);
  mpfr_set_d(b, y, MPFR_RNDN);
  int inexact = op(r, a, b, MPFR_RNDN);
  mpfr_subnormalize(r, inexact, MPFR_RNDN);
  double result = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clears(a, b, r, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_emin(old_emin);
  return result;
}

inline bool IsFree(const ResultExpectation& e, size_t i) { return !e.free.empty() && e.free[i]; }

}  // namespace hlocheck::testing

#endif  // HLOCHECK_TESTS_ORACLE_ELEMENTWISE_TEST_UTIL_H_
