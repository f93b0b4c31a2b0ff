// The CUDA adapter's exponential, expm1, log, log1p, logistic, sine, cosine, tan, tanh, rsqrt,
// cbrt, power and atan2: CUDA's math library for f32 and f64 (its documented bounds:
// backends/cuda.yaml), double for the narrower floats, rounded once. Each is one launch of the
// elementwise kernel (elementwise_internal.h).
#include "adapters/cuda/elementwise_internal.h"

namespace hlocheck::cuda {
namespace {

constexpr ElementwiseOp kOps[] = {
    {"exponential", ElementOp::kExponential, 1, Types::kFloat},
    {"sine", ElementOp::kSine, 1, Types::kFloat},
    {"cosine", ElementOp::kCosine, 1, Types::kFloat},
    {"tan", ElementOp::kTan, 1, Types::kFloat},
    {"tanh", ElementOp::kTanh, 1, Types::kFloat},
    {"log", ElementOp::kLog, 1, Types::kFloat},
    {"exponential_minus_one", ElementOp::kExponentialMinusOne, 1, Types::kFloat},
    {"log_plus_one", ElementOp::kLogPlusOne, 1, Types::kFloat},
    {"logistic", ElementOp::kLogistic, 1, Types::kFloat},
    {"rsqrt", ElementOp::kRsqrt, 1, Types::kFloat},
    {"cbrt", ElementOp::kCbrt, 1, Types::kFloat},
    {"power", ElementOp::kPower, 2, Types::kIntOrFloat},
    {"atan2", ElementOp::kAtan2, 2, Types::kFloat},
};

}  // namespace

std::span<const ElementwiseOp> TranscendentalTable() { return kOps; }

std::vector<OpEntry> ElementwiseTranscendentalOps() { return ElementwiseEntries(kOps); }

}  // namespace hlocheck::cuda
