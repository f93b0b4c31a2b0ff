// The CPU adapter as a program backend: each module is read back (the
// mlir reader) and its @main run op by op through the adapter's own ops,
// so that `hlocheck programs --backend cpu` checks it like a compiler.
// A rewrite, when given, changes the program before it runs: how the
// deliberately faulty program backends (adapters/faulty/program_faults.h)
// model what compilers get wrong across ops.
#ifndef HLOCHECK_ADAPTERS_PROGRAM_CPU_PROGRAM_BACKEND_H_
#define HLOCHECK_ADAPTERS_PROGRAM_CPU_PROGRAM_BACKEND_H_

#include <functional>
#include <memory>
#include <string>

#include "adapters/program/program_backend.h"
#include "core/program.h"
#include "spec/registry.h"

namespace hlocheck {

using ProgramRewrite = std::function<absl::Status(Module& module)>;

std::unique_ptr<ProgramBackend> CreateCpuProgramBackend(const spec::SpecRegistry& registry,
                                                        int threads, ProgramRewrite rewrite = {},
                                                        std::string description = "");

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_PROGRAM_CPU_PROGRAM_BACKEND_H_
