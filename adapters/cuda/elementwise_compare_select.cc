// The CUDA adapter's compare (IEEE or totalOrder for floats), maximum, minimum and clamp (NaN
// propagates, -0 < +0), select and is_finite. Each is one launch of the elementwise kernel
// (elementwise_internal.h).
#include "adapters/cuda/elementwise_internal.h"

namespace hlocheck::cuda {
namespace {

constexpr ElementwiseOp kOps[] = {
    {"compare", ElementOp::kCompare, 2, Types::kAny, true},
    {"maximum", ElementOp::kMaximum, 2, Types::kAny, true},
    {"minimum", ElementOp::kMinimum, 2, Types::kAny, true},
    {"clamp", ElementOp::kClamp, 3, Types::kAny, true},
    {"select", ElementOp::kSelect, 3, Types::kAny, true},
    {"is_finite", ElementOp::kIsFinite, 1, Types::kFloat},
};

}  // namespace

std::span<const ElementwiseOp> CompareSelectTable() { return kOps; }

std::vector<OpEntry> ElementwiseCompareSelectOps() { return ElementwiseEntries(kOps); }

}  // namespace hlocheck::cuda
