// Internal to the CUDA adapter's elementwise files: every elementwise op is
// one launch of the elementwise kernel (kernels/elementwise_kernels.h); a
// topic file (named after the CPU adapter's and the oracle's) lists its ops
// with their ElementOp, operand count and element types, and
// elementwise_launch.cc checks, plans and runs any of them.
#ifndef HLOCHECK_ADAPTERS_CUDA_ELEMENTWISE_INTERNAL_H_
#define HLOCHECK_ADAPTERS_CUDA_ELEMENTWISE_INTERNAL_H_

#include <span>
#include <string_view>
#include <vector>

#include "adapters/cuda/cuda_internal.h"

namespace hlocheck::cuda {

// The element types an op takes (the spec's constraints on its operands).
enum class Types { kAny, kFloat, kInt, kBoolOrInt, kIntOrFloat, kSignedIntOrFloat };

struct ElementwiseOp {
  std::string_view name;
  ElementOp op;
  size_t operands;
  Types types;
  // Whether the kernels take complex<f32> and complex<f64> for it too
  // (ComplexElementwise, convert).
  bool takes_complex = false;
};

// The topic files' tables.
std::span<const ElementwiseOp> ArithmeticTable();
std::span<const ElementwiseOp> BitwiseTable();
std::span<const ElementwiseOp> CompareSelectTable();
std::span<const ElementwiseOp> ConversionTable();
std::span<const ElementwiseOp> RoundingTable();
std::span<const ElementwiseOp> TranscendentalTable();

// The adapter's entries for a table's ops (elementwise_launch.cc).
std::vector<OpEntry> ElementwiseEntries(std::span<const ElementwiseOp> table);

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_ELEMENTWISE_INTERNAL_H_
