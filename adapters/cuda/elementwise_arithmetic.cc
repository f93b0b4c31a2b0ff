// The CUDA adapter's add, subtract, multiply, divide, remainder, negate, sign, abs and sqrt:
// integers wrap in their width (division by zero and min / -1 as XLA defines them), floats are IEEE
// basic operations. Each is one launch of the elementwise kernel (elementwise_internal.h).
#include "adapters/cuda/elementwise_internal.h"

namespace hlocheck::cuda {
namespace {

constexpr ElementwiseOp kOps[] = {
    {"add", ElementOp::kAdd, 2, Types::kAny, true},
    {"subtract", ElementOp::kSubtract, 2, Types::kIntOrFloat, true},
    {"multiply", ElementOp::kMultiply, 2, Types::kAny, true},
    {"divide", ElementOp::kDivide, 2, Types::kIntOrFloat, true},
    {"remainder", ElementOp::kRemainder, 2, Types::kIntOrFloat},
    {"negate", ElementOp::kNegate, 1, Types::kIntOrFloat, true},
    {"sign", ElementOp::kSign, 1, Types::kSignedIntOrFloat},
    {"abs", ElementOp::kAbs, 1, Types::kSignedIntOrFloat},
    {"sqrt", ElementOp::kSqrt, 1, Types::kFloat},
};

}  // namespace

std::span<const ElementwiseOp> ArithmeticTable() { return kOps; }

std::vector<OpEntry> ElementwiseArithmeticOps() { return ElementwiseEntries(kOps); }

}  // namespace hlocheck::cuda
