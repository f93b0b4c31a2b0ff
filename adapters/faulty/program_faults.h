// Deliberately faulty program backends: the CPU adapter running a program
// that a "compiler" rewrote wrongly across ops, the way real compilers go
// wrong where no single-op case can see it. Each proves that
// `hlocheck programs` catches that fault class (../shared/FAULT-CLASSES.md).
#ifndef HLOCHECK_ADAPTERS_FAULTY_PROGRAM_FAULTS_H_
#define HLOCHECK_ADAPTERS_FAULTY_PROGRAM_FAULTS_H_

#include <string>
#include <vector>

#include "adapters/program/cpu_program_backend.h"

namespace hlocheck {

struct ProgramFault {
  std::string name;  // faulty-program-...
  std::string description;
  ProgramRewrite rewrite;
};

const std::vector<ProgramFault>& ProgramFaults();
const ProgramFault* FindProgramFault(const std::string& name);

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_FAULTY_PROGRAM_FAULTS_H_
