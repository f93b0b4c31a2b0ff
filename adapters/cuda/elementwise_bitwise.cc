// The CUDA adapter's and, or, xor, not, popcnt, count_leading_zeros and the three shifts, on the
// integer's pattern in its width (shifts past the width as XLA defines them). Each is one launch of
// the elementwise kernel (elementwise_internal.h).
#include "adapters/cuda/elementwise_internal.h"

namespace hlocheck::cuda {
namespace {

constexpr ElementwiseOp kOps[] = {
    {"and", ElementOp::kAnd, 2, Types::kBoolOrInt},
    {"or", ElementOp::kOr, 2, Types::kBoolOrInt},
    {"xor", ElementOp::kXor, 2, Types::kBoolOrInt},
    {"not", ElementOp::kNot, 1, Types::kBoolOrInt},
    {"popcnt", ElementOp::kPopcnt, 1, Types::kInt},
    {"count_leading_zeros", ElementOp::kCountLeadingZeros, 1, Types::kInt},
    {"shift_left", ElementOp::kShiftLeft, 2, Types::kInt},
    {"shift_right_arithmetic", ElementOp::kShiftRightArithmetic, 2, Types::kInt},
    {"shift_right_logical", ElementOp::kShiftRightLogical, 2, Types::kInt},
};

}  // namespace

std::span<const ElementwiseOp> BitwiseTable() { return kOps; }

std::vector<OpEntry> ElementwiseBitwiseOps() { return ElementwiseEntries(kOps); }

}  // namespace hlocheck::cuda
