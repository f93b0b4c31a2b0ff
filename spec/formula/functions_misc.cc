// Notation functions that only the misc op files use.
#include "spec/formula/function_support.h"

namespace hlocheck::spec {

void RegisterMiscFunctions(FunctionTable& table) { (void)table; }

}  // namespace hlocheck::spec
