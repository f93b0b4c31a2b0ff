// A case with quantized tensors seen as its storage integers: what a
// backend's kernel for an op that only moves elements (transpose, slice,
// gather, ...) or reads bits (bitcast_convert) takes, whichever adapter
// runs it. The results are given their quantized types back by the caller
// (Tensor::Reusing with the case's result types).
#ifndef HLOCHECK_CORE_QUANTIZED_CASE_H_
#define HLOCHECK_CORE_QUANTIZED_CASE_H_

#include "core/case.h"

namespace hlocheck {

// The type of a quantized tensor's storage integers (any other type as it
// is).
TensorType StorageType(const TensorType& type);

// `c` with every quantized operand, result type and tensor attribute
// (constant's value) of its storage type.
Case OnStorage(const Case& c);

}  // namespace hlocheck

#endif  // HLOCHECK_CORE_QUANTIZED_CASE_H_
