// The CUDA adapter's convert between every pair of real types: rounding once to nearest even, float
// to integer truncating and saturating (NaN to 0); bitcast_convert lives in data_movement_values.cc
// with the other byte moves. Each is one launch of the elementwise kernel (elementwise_internal.h).
#include "adapters/cuda/elementwise_internal.h"

namespace hlocheck::cuda {
namespace {

constexpr ElementwiseOp kOps[] = {
    {"convert", ElementOp::kConvert, 1, Types::kAny, true},
};

}  // namespace

std::span<const ElementwiseOp> ConversionTable() { return kOps; }

std::vector<OpEntry> ElementwiseConversionOps() { return ElementwiseEntries(kOps); }

}  // namespace hlocheck::cuda
