// Notation functions that only the data_movement op files use.
#include "spec/formula/function_support.h"

namespace hlocheck::spec {

void RegisterDataMovementFunctions(FunctionTable& table) { (void)table; }

}  // namespace hlocheck::spec
