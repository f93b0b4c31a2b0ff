// Complex numbers and their parts (seed 002: complex, real, imag). Parts
// are copied bit for bit.
#include "absl/status/status.h"
#include "core/status_macros.h"
#include "oracle/element_encoding.h"
#include "oracle/element_results.h"
#include "oracle/oracle.h"

namespace hlocheck::oracle {
namespace {

using Results = absl::StatusOr<std::vector<ResultExpectation>>;

// complex: result[i] = (lhs[i], rhs[i]).
Results Complex(const Case& c) {
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result(c.result_types[0]);
  absl::Status status = DispatchElementType(result.element_type(), [&]<ElementType T>() {
    if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      auto re = lhs.values<kPart>();
      auto im = rhs.values<kPart>();
      auto out = result.values<T>();
      for (size_t i = 0; i < out.size(); ++i) out[i] = {re[i], im[i]};
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("unsupported: complex into " + std::string(Name(T)));
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kExact, FreeElements(0));
}

// real (kImaginary false) or imag: the part of a complex element; for a
// float element, the element itself (real) or +0 (imag).
template <bool kImaginary>
Results Part(const Case& c) {
  const Tensor& operand = c.operands[0];
  Tensor result(c.result_types[0]);
  FreeElements free(result.num_elements());
  absl::Status status = DispatchElementType(operand.element_type(), [&]<ElementType T>() {
    if constexpr (IsComplex(T)) {
      constexpr ElementType kPart = ComponentType(T);
      auto in = operand.values<T>();
      auto out = result.values<kPart>();
      for (size_t i = 0; i < out.size(); ++i) out[i] = kImaginary ? in[i].imag() : in[i].real();
      return absl::OkStatus();
    } else if constexpr (IsFloat(T)) {
      auto in = operand.values<T>();
      auto out = result.values<T>();
      // constant(0, element_type(result)): the +0 of the type. f8E8M0FNU has
      // no zero, so imag of it has no value the spec can mean.
      for (size_t i = 0; i < out.size(); ++i) {
        uint8_t flags = 0;
        out[i] = kImaginary ? RoundDouble<T>(0.0, &flags) : in[i];
        if (flags & kConversionUnrepresentable) free.Mark(i, kUnrepresentableReason);
      }
      return absl::OkStatus();
    } else {
      return absl::InvalidArgumentError("unsupported: real/imag of " + std::string(Name(T)));
    }
  });
  HLOCHECK_RETURN_IF_ERROR(status);
  return OneResult(std::move(result), Check::kExact, std::move(free));
}

}  // namespace

std::vector<OpEntry> ElementwiseComplexOps() {
  return {{"complex", Complex}, {"imag", Part<true>}, {"real", Part<false>}};
}

}  // namespace hlocheck::oracle
