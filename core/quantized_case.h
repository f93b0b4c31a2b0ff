// A case with quantized tensors seen as its storage integers: what a
// backend's kernel for an op that only moves elements (transpose, slice,
// gather, ...) or reads bits (bitcast_convert) takes, whichever adapter
// runs it. The results are given their quantized types back by the caller
// (Tensor::Reusing with the case's result types).
#ifndef HLOCHECK_CORE_QUANTIZED_CASE_H_
#define HLOCHECK_CORE_QUANTIZED_CASE_H_

#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/case.h"

namespace hlocheck {

// The ops whose quantized form moves or reinterprets storage integers
// (spec: `quantized_semantics: storage`, and bitcast_convert): a backend
// runs its own kernel on them (OnStorage below).
std::span<const std::string_view> QuantizedStorageOps();

// The ops whose quantized form is computed in the expressed type (spec:
// `dequantize_op_quantize` and its compare and select forms, and iota's
// quantized indices): a backend without an integer kernel for one runs it
// as dequantize, the float op, quantize (StableHLO's QDQ decomposition).
std::span<const std::string_view> QuantizedExpressedOps();

// The type of a quantized tensor's storage integers (any other type as it
// is).
TensorType StorageType(const TensorType& type);

// `c` with every quantized operand, result type and tensor attribute
// (constant's value) of its storage type.
Case OnStorage(const Case& c);

// The type a quantized tensor's values have once dequantized: its
// expressed type (any other type as it is).
TensorType ExpressedType(const TensorType& type);

// `c` with `operands` (its own, quantized ones dequantized by the caller,
// or placeholders of those types where only the types matter) and every
// quantized result type of its expressed type: the float case a backend
// runs for an op on quantized tensors without an integer kernel.
Case WithExpressedTypes(const Case& c, std::vector<Tensor> operands);

// The results of OnStorage(c) as c's own results: each of c's result type
// (its storage integers kept). An error where their number differs.
absl::StatusOr<std::vector<Tensor>> FromStorage(const Case& c, std::vector<Tensor> results);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_QUANTIZED_CASE_H_
