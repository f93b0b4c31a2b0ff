// Deliberately faulty backends: the CPU adapter with one realistic bug
// each. They prove that the gate can fail: each bug must be caught, shrunk
// to a small case and reported with a reproducer (tests/runners).
#ifndef HLOCHECK_ADAPTERS_FAULTY_FAULTY_ADAPTERS_H_
#define HLOCHECK_ADAPTERS_FAULTY_FAULTY_ADAPTERS_H_

#include <memory>
#include <string>
#include <vector>

#include "adapters/adapter.h"

namespace hlocheck {

struct FaultDescription {
  std::string name;  // the backend name, e.g. "faulty-exponential-ulp"
  std::string op;    // the op whose results it gets wrong
  std::string description;
};

// Every fault, in a fixed order.
const std::vector<FaultDescription>& Faults();

// The CPU adapter with the named fault, or null if there is no such fault.
std::unique_ptr<Adapter> CreateFaultyAdapter(const std::string& name,
                                             const AdapterOptions& options);

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_FAULTY_FAULTY_ADAPTERS_H_
