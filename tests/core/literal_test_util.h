// Helpers shared by the dense-literal tests.
#ifndef HLOCHECK_TESTS_CORE_LITERAL_TEST_UTIL_H_
#define HLOCHECK_TESTS_CORE_LITERAL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/element_type.h"
#include "core/literal.h"
#include "core/literal_internal.h"
#include "core/tensor.h"

namespace hlocheck::testing {

template <ElementType T>
Tensor MakeTensor(Shape shape, const std::vector<ContainerT<T>>& values) {
  Tensor tensor(std::move(shape), T);
  EXPECT_EQ(static_cast<size_t>(tensor.num_elements()), values.size());
  std::copy(values.begin(), values.end(), tensor.values<T>().begin());
  return tensor;
}

// An element from raw bits: the low bits of `low` for real types; `low` and
// `high` as the patterns of the two parts of complex types.
template <ElementType T>
ContainerT<T> ElementFromBits(uint64_t low, uint64_t high = 0) {
  if constexpr (IsComplex(T)) {
    constexpr ElementType kPart = ComponentType(T);
    return ContainerT<T>(literal_internal::RealElementFromBits<kPart>(low),
                         literal_internal::RealElementFromBits<kPart>(high));
  } else {
    return literal_internal::RealElementFromBits<T>(low);
  }
}

// The bit pattern of every element (two entries per complex element), so
// that comparisons see NaN payloads and the sign of zero.
inline std::vector<uint64_t> ElementBits(const Tensor& tensor) {
  std::vector<uint64_t> bits;
  DispatchElementType(tensor.element_type(), [&]<ElementType T>() {
    for (const ContainerT<T>& value : tensor.values<T>()) {
      if constexpr (IsComplex(T)) {
        constexpr ElementType kPart = ComponentType(T);
        bits.push_back(literal_internal::RealElementBits<kPart>(value.real()));
        bits.push_back(literal_internal::RealElementBits<kPart>(value.imag()));
      } else {
        bits.push_back(literal_internal::RealElementBits<T>(value));
      }
    }
  });
  return bits;
}

// gtest without gmock: whether an error message mentions `part`.
inline ::testing::AssertionResult Contains(std::string_view text, std::string_view part) {
  if (text.find(part) != std::string_view::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

// Parses `text`, failing the test (and returning an empty tensor) on error.
inline Tensor ParseOrFail(std::string_view text) {
  absl::StatusOr<Tensor> parsed = ParseDenseAttribute(text);
  EXPECT_TRUE(parsed.ok()) << text << "\n" << parsed.status();
  return parsed.ok() ? *std::move(parsed) : Tensor();
}

// The error message of parsing `body` as `type`, or "" when it parses.
inline std::string BodyError(std::string_view body, const TensorType& type) {
  absl::StatusOr<Tensor> parsed = ParseDenseBody(body, type);
  if (parsed.ok()) return "";
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument) << parsed.status();
  return std::string(parsed.status().message());
}

}  // namespace hlocheck::testing

#endif  // HLOCHECK_TESTS_CORE_LITERAL_TEST_UTIL_H_
