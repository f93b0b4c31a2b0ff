// Notation functions that only the elementwise_unary op files use.
#include "spec/formula/function_support.h"

namespace hlocheck::spec {

void RegisterElementwiseUnaryFunctions(FunctionTable& table) { (void)table; }

}  // namespace hlocheck::spec
