// Elementwise ops between complex numbers and their parts: complex, real
// and imag. Parts move unchanged; a real operand has imaginary part +0.
#include <complex>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "adapters/cpu/elementwise_internal.h"
#include "core/status_macros.h"

namespace hlocheck::cpu {
namespace {

absl::StatusOr<Results> RunComplex(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckElementwise(c, 2, false));
  const Tensor& lhs = c.operands[0];
  const Tensor& rhs = c.operands[1];
  Tensor result = NewResult(c.result_types[0]);
  const ElementType part = lhs.element_type();
  if (!IsComplex(result.element_type()) || rhs.element_type() != part ||
      ComponentType(result.element_type()) != part) {
    return absl::InvalidArgumentError(absl::StrCat("complex: ", TypeName(part), " and ",
                                                   TypeName(rhs.element_type()), " -> ",
                                                   TypeName(result.element_type())));
  }
  const int64_t n = result.num_elements();
  auto make = [&]<typename P>() {
    MapBinary(lhs.data<P>().data(), rhs.data<P>().data(), result.data<std::complex<P>>().data(), n,
              device, [](P re, P im) { return std::complex<P>(re, im); });
  };
  if (part == ElementType::kF32) {
    make.template operator()<float>();
  } else {
    make.template operator()<double>();
  }
  return OneResult(std::move(result));
}

template <bool kImag>
absl::StatusOr<Results> RunPart(const Case& c, const Device& device) {
  HLOCHECK_RETURN_IF_ERROR(CheckElementwise(c, 1, false));
  const Tensor& operand = c.operands[0];
  Tensor result = NewResult(c.result_types[0]);
  const ElementType type = operand.element_type();
  if (!FloatOrComplex(type) || ComponentType(type) != result.element_type()) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.op, ": ", TypeName(type), " -> ", TypeName(result.element_type())));
  }
  const int64_t n = result.num_elements();
  DispatchElementType(type, [&]<ElementType T>() {
    using C = ContainerT<T>;
    const C* x = operand.values<T>().data();
    if constexpr (IsComplex(T)) {
      using P = typename C::value_type;
      P* z = result.values<ComponentType(T)>().data();
      if constexpr (kImag) {
        MapUnary(x, z, n, device, [](C a) { return a.imag(); });
      } else {
        MapUnary(x, z, n, device, [](C a) { return a.real(); });
      }
    } else if constexpr (IsFloat(T)) {
      C* z = result.values<T>().data();
      if constexpr (kImag) {
        // The imaginary part of a real number: +0 in the type (a zero bit
        // pattern for every float format that has a zero).
        const C zero = FromFloat<T>(0.0f, Format(T));
        MapUnary(x, z, n, device, [zero](C) { return zero; });
      } else {
        MapUnary(x, z, n, device, [](C a) { return a; });
      }
    }
  });
  return OneResult(std::move(result));
}
AdapterSupport SupportsComplex(const Case& c) {
  return SupportsTypes(
      c, [](ElementType t) { return t == ElementType::kF32 || t == ElementType::kF64; },
      "f32 and f64 parts");
}

}  // namespace

std::vector<OpEntry> ElementwiseComplexOps() {
  return {
      {"complex", 2, &SupportsComplex, &RunComplex},
      {"real", 1, &SupportsFloatOrComplex, &RunPart<false>},
      {"imag", 1, &SupportsFloatOrComplex, &RunPart<true>},
  };
}

}  // namespace hlocheck::cpu
