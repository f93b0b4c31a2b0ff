// The spec's quantize and dequantize element by element (oracle/
// quantization.cc), shared by the quantization ops and by the ops that
// compute on quantized tensors (oracle/quantized_ops.cc).
#ifndef HLOCHECK_ORACLE_QUANTIZATION_H_
#define HLOCHECK_ORACLE_QUANTIZATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "oracle/expectation.h"

namespace hlocheck::oracle {

inline constexpr char kNaNReason[] =
    "a NaN has no quantized value: convert's result is not specified";
inline constexpr char kDequantizeOverflowReason[] =
    "dequantize's storage - zero_point overflows the storage type for this element: "
    "implementation-defined (spec \"Errors\", #1157); the reference is the exact difference, as "
    "an integer kernel widening to i32 computes it";
inline constexpr char kPublicReadingReason[] =
    "seed 002 rounds x / scale before adding the zero point, the public spec adds it (in the "
    "expressed type) and rounds after: they differ on ties with an odd zero point and where the "
    "sum rounds in a narrow expressed type; where the seed's steps overflow the storage type "
    "(implementation-defined there, #1157) both are taken saturated, as the public spec "
    "defines them";

// The scale and zero point that apply to element `flat` of a tensor of
// `type` (per axis: those of its index along the quantization dimension).
struct QuantizationParameters {
  double scale = 1;
  int64_t zero_point = 0;
};
QuantizationParameters ParametersAt(const TensorType& type, int64_t flat);

// An element's storage integer, read from (written to) a quantized tensor.
int64_t StorageAt(const Tensor& t, int64_t flat);
void SetStorage(Tensor& t, int64_t flat, int64_t value);

// dequantize(x) for one element: convert(storage - zero_point, E) * scale,
// each step rounded once to E. `overflow`: the difference does not fit the
// storage type (the value is then the exact difference's).
struct Dequantized {
  double value = 0;
  bool overflow = false;
};
Dequantized Dequantize(int64_t storage, QuantizationParameters p, ElementType storage_type,
                       ElementType expressed);

// quantize(x) for one value of E, by seed 002 and by the public spec;
// nullopt where a reading gives no value (NaN, infinity, a bound E cannot
// hold).
struct Quantized {
  std::optional<int64_t> seed;
  std::optional<int64_t> public_spec;
};
Quantized Quantize(double x, QuantizationParameters p, const TensorType& result);

// The expressed-type values of `operand`'s elements: a float tensor's
// values, or a quantized tensor dequantized (with where that overflowed).
std::vector<Dequantized> ExpressedValues(const Tensor& operand);

// Marks element i of e free (kFreeAnyValue or kFreeWithConvention, the
// stronger kept) and adds why to its reasons.
void MarkFree(ResultExpectation& e, int64_t i, uint8_t kind, const std::string& why);

// quantize(x, type) of every element as an expectation: seed 002's value,
// the public spec's as the other reading where they differ, free where the
// seed's gives none (a NaN) or where x came from an overflowing dequantize.
ResultExpectation QuantizedExpectation(const std::vector<Dequantized>& x, const TensorType& type);

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_QUANTIZATION_H_
