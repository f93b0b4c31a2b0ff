#include "core/program.h"

namespace hlocheck {

FunctionType Region::type() const {
  FunctionType type;
  if (blocks.empty()) return type;
  type.inputs = blocks.front().argument_types;
  if (!blocks.front().operations.empty())
    type.outputs = blocks.front().operations.back().operand_types;
  return type;
}

const Function* Module::Find(const std::string& function) const {
  for (const Function& f : functions) {
    if (f.name == function) return &f;
  }
  return nullptr;
}

}  // namespace hlocheck
