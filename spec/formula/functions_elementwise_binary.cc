// Notation functions that only the elementwise_binary op files use.
#include "spec/formula/function_support.h"

namespace hlocheck::spec {

void RegisterElementwiseBinaryFunctions(FunctionTable& table) { (void)table; }

}  // namespace hlocheck::spec
