// Elementwise ops (seed 002: add, exponential, convert). One function per op,
// written as the spec's semantics; the element type is dispatched once.
#include <cmath>

#include "absl/status/status.h"
#include "core/element_value.h"
#include "oracle/arithmetic.h"
#include "oracle/oracle.h"
#include "oracle/precise/complex.h"
#include "oracle/precise/elementary.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

ResultExpectation WithinUlps(Tensor reference) {
  ResultExpectation expectation;
  expectation.reference = std::move(reference);
  expectation.check = Check::kUlp;
  return expectation;
}

// add: logical OR for booleans, wrapping addition for integers, IEEE-754
// addition for floats and for each part of complex numbers.
template <ElementType T>
ContainerT<T> AddValues(ContainerT<T> a, ContainerT<T> b) {
  if constexpr (IsBool(T)) {
    return (a | b) & 1;
  } else if constexpr (IsInteger(T)) {
    return WrapInteger<T>(IntegerBits<T>(a) + IntegerBits<T>(b));
  } else if constexpr (IsComplex(T)) {
    return {AddValues<ComponentType(T)>(a.real(), b.real()),
            AddValues<ComponentType(T)>(a.imag(), b.imag())};
  } else if constexpr (T == ElementType::kF64) {
    return a + b;  // the host's IEEE-754 binary64 addition, round to nearest even
  } else {
    // The double sum of two values of at most 24 significand bits, rounded
    // once more to T, is the correctly rounded sum: double has at least
    // 2p + 2 bits (Figueroa, "When is double rounding innocuous?", 1995).
    return RoundDouble<T>(ToDouble<T>(a) + ToDouble<T>(b));
  }
}

Results Add(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result(c.result_types[0]);
  DispatchElementType(result.element_type(), [&]<ElementType T>() {
    auto a = lhs.values<T>();
    auto b = rhs.values<T>();
    auto out = result.values<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = AddValues<T>(a[i], b[i]);
  });
  std::vector<ResultExpectation> results;
  results.push_back(WithinUlps(std::move(result)));
  return results;
}

// exponential: IEEE-754 exp for floats, the complex exponential for complex
// numbers, both correctly rounded.
Results Exponential(const Case& c) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  ResultExpectation expectation;
  absl::Status status = DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsFloat(T)) {
      const FloatFormat& format = Format(T);
      auto in = operand.values<T>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] =
            FloatFromBits<T>(precise::CorrectlyRounded<precise::Exp>(format, ToDouble<T>(in[i])));
      }
      return absl::OkStatus();
    } else if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      auto in = operand.values<T>();
      auto out = result.values<T>();
      expectation.free.assign(out.size(), 0);
      for (size_t i = 0; i < out.size(); ++i) {
        double re = in[i].real();
        double im = in[i].imag();
        precise::ComplexBits bits = precise::ComplexExp(Format(kPart), re, im);
        out[i] = {FloatFromBits<kPart>(bits.real), FloatFromBits<kPart>(bits.imag)};
        // The spec leaves exceptions of complex transcendental functions to
        // the implementation; C99 Annex G is one convention among several.
        if (!std::isfinite(re) || !std::isfinite(im)) expectation.free[i] = 1;
      }
      expectation.free_reason = "complex exp of a non-finite value is implementation-defined";
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("exponential takes float or complex tensors");
    }
  });
  if (!status.ok()) return status;
  expectation.reference = std::move(result);
  expectation.check = Check::kUlp;
  if (expectation.FreeCount() == 0) expectation.free.clear();
  std::vector<ResultExpectation> results;
  results.push_back(std::move(expectation));
  return results;
}

// convert: element by element through the shared, exhaustively verified
// conversion layer; values the spec leaves open (#180) are marked free.
Results Convert(const Case& c) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  std::vector<uint8_t> flags(operand.num_elements());
  ConvertElements(operand.element_type(), operand.raw(), result.element_type(), result.raw(),
                  operand.num_elements(), flags.data());
  ResultExpectation expectation = WithinUlps(std::move(result));
  expectation.free.resize(flags.size());
  for (size_t i = 0; i < flags.size(); ++i) {
    expectation.free[i] = (flags[i] & kConversionUnrepresentable) ? 1 : 0;
  }
  if (expectation.FreeCount() == 0) {
    expectation.free.clear();
  } else {
    expectation.free_reason =
        "the value is not representable in the result type; the spec leaves it open (#180)";
  }
  std::vector<ResultExpectation> results;
  results.push_back(std::move(expectation));
  return results;
}

}  // namespace

std::vector<OpEntry> ElementwiseOps() {
  return {{"add", Add}, {"convert", Convert}, {"exponential", Exponential}};
}

}  // namespace hlocheck::oracle
