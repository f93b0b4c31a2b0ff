// Notation functions that only the reduction op files use.
#include "spec/formula/function_support.h"

namespace hlocheck::spec {

void RegisterReductionFunctions(FunctionTable& table) { (void)table; }

}  // namespace hlocheck::spec
