// The CUDA adapter's ceil, floor, round_nearest_afz and round_nearest_even (reduce_precision is not
// implemented on CUDA yet). Each is one launch of the elementwise kernel (elementwise_internal.h).
#include "adapters/cuda/elementwise_internal.h"

namespace hlocheck::cuda {
namespace {

constexpr ElementwiseOp kOps[] = {
    {"ceil", ElementOp::kCeil, 1, Types::kFloat},
    {"floor", ElementOp::kFloor, 1, Types::kFloat},
    {"round_nearest_afz", ElementOp::kRoundNearestAfz, 1, Types::kFloat},
    {"round_nearest_even", ElementOp::kRoundNearestEven, 1, Types::kFloat},
    {"reduce_precision", ElementOp::kReducePrecision, 1, Types::kFloat},
};

}  // namespace

std::span<const ElementwiseOp> RoundingTable() { return kOps; }

std::vector<OpEntry> ElementwiseRoundingOps() { return ElementwiseEntries(kOps); }

}  // namespace hlocheck::cuda
