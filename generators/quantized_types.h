// Recipe functions that draw quantized tensor types for the ops that take
// them (gen_quantized_or_plain, gen_rescaled: spec/ops/*.yaml recipes).
#ifndef HLOCHECK_GENERATORS_QUANTIZED_TYPES_H_
#define HLOCHECK_GENERATORS_QUANTIZED_TYPES_H_

#include "spec/formula/evaluator.h"

namespace hlocheck {

void RegisterQuantizedTypeFunctions(spec::FunctionTable& table);

}  // namespace hlocheck

#endif  // HLOCHECK_GENERATORS_QUANTIZED_TYPES_H_
