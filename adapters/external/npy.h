// Tensors as NumPy .npy files (format version 1.0), the way the external
// protocol (docs/external-protocol.md) hands inputs to a compiler's driver
// and takes results back. A type NumPy has natively is written as that
// dtype; the others (bf16, the f8 and f4 types, the sub-byte integers) as
// the unsigned integers of their container, one element per container
// (signed sub-byte integers sign-extended, as int8), the request naming the
// element type so that the driver views the bits as ml_dtypes' type.
#ifndef HLOCHECK_ADAPTERS_EXTERNAL_NPY_H_
#define HLOCHECK_ADAPTERS_EXTERNAL_NPY_H_

#include <string>

#include "absl/status/statusor.h"
#include "core/tensor.h"

namespace hlocheck::external {

// The .npy dtype descriptor hlocheck writes for `type` ('<f4', '|b1', '<u2', ...).
std::string NpyDescr(ElementType type);

// The whole .npy file for `tensor` (C order).
std::string EncodeNpy(const Tensor& tensor);

// A tensor of `expected` type from .npy bytes: the file's dtype must be
// NpyDescr(expected.element_type) (or the same width and kind with the other
// byte order mark where one byte needs none), its shape expected.shape, and
// C order; anything else is an error naming what differs.
absl::StatusOr<Tensor> DecodeNpy(std::string_view bytes, const TensorType& expected,
                                 const std::string& file);

}  // namespace hlocheck::external

#endif  // HLOCHECK_ADAPTERS_EXTERNAL_NPY_H_
