// Notation functions that only the control_collective op files use.
#include "spec/formula/function_support.h"

namespace hlocheck::spec {

void RegisterControlCollectiveFunctions(FunctionTable& table) { (void)table; }

}  // namespace hlocheck::spec
